/**
 * Lifecycle per kind against a real emulator over HTTP, driven through the CLI as a user would:
 * create, plan empty, update one field (only that field shows), apply, plan empty, change it
 * behind dqform's back (drift shows it), delete (removed from code: pruned by namespace), plan empty.
 * test/e2e/pruning.test.ts checks pruning next to objects made in the UI and by other namespaces.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { PlatformClient } from '../../src/client';

/** The emulator this suite talks to (its own, or the one behind DQ_BASE_URL: test/contract/wire-evidence.sh e2e). */
let emu: { url: string; grpcEndpoint: string | undefined; close(): Promise<void> };
let dir: string;
let raw: PlatformClient;

beforeAll(async () => {
  // DQFORM_E2E_USE_BASE_URL=1: the same steps through the URL given (wire-evidence.sh e2e puts the
  // independent wire checker there); otherwise an emulator of the suite's own.
  const external = process.env.DQFORM_E2E_USE_BASE_URL === '1' ? process.env.DQ_BASE_URL : undefined;
  if (process.env.DQFORM_E2E_USE_BASE_URL === '1' && !external) throw new Error('DQFORM_E2E_USE_BASE_URL=1 needs DQ_BASE_URL');
  emu = external ? { url: external, grpcEndpoint: process.env.DQ_GRPC_ENDPOINT ?? '', close: async () => undefined } : await startEmulator({ port: 0, seed: 'demo' });
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
});
afterAll(async () => {
  await raw.close();
  await emu.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-e2e-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[], creds = 'demo-admin') {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: creds, DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function write(ns: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const stackDir = path.join(dir, 'out', 'stacks', ns);
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: resources, ...extra }));
}

const OWNER = { dq_owner: { team: { title: 'Team', contacts: [{ email: { recipient_emails: ['t@example.com'] } }] } } };
interface KindCase {
  kind: string;
  ns: string;
  v1: Record<string, unknown>;
  v2: Record<string, unknown>;
  field: RegExp;
  /** A raw API change behind dqform's back. */
  tamper: (ns: string) => Promise<void>;
  /** Declares the deletion: every kind is pruned by its namespace, so the code just drops it. */
  remove: (ns: string) => [Record<string, unknown>, Record<string, unknown>];
}

const rule = (title: string) => ({
  title,
  query_config: { resolver_ql: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] },
});
const sqlTest = (name: string) => ({
  name,
  platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } },
  recurrence_rule: 'FREQ=DAILY',
  sql_expression: 'select * from mart.fct_orders where order_id is null',
});
const stRule = (title: string) => ({
  title,
  static_config: { path: 'wh-prod::mart::fct_orders', recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'ids', not_null: { columns: ['order_id'] } }] },
});

const CASES: KindCase[] = [
  {
    kind: 'dq_alert',
    ns: 'e2e-alert',
    v1: { dq_alert: { a: { name: 'A', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } } } },
    v2: { dq_alert: { a: { name: 'A2', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } } } },
    field: /~ name = "A" -> "A2"/,
    tamper: async (ns) => {
      await raw.alerts.rename({ fqn: `${ns}.a` }, 'renamed in the UI');
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_monitor_deployment_rule',
    ns: 'e2e-rule',
    v1: { dq_monitor_deployment_rule: { r: rule('R') } },
    v2: { dq_monitor_deployment_rule: { r: rule('R2') } },
    field: /~ title = "R" -> "R2"/,
    tamper: async (ns) => {
      const rules = await raw.deploymentRules.list({ configsFilter: { ids: [ns] } });
      await raw.deploymentRules.deploy({ ...(rules[0] as object), title: 'changed behind our back' } as never);
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_sql_test',
    ns: 'e2e-sqltest',
    v1: { dq_sql_test: { t: sqlTest('T') } },
    v2: { dq_sql_test: { t: sqlTest('T2') } },
    field: /~ name = "T" -> "T2"/,
    tamper: async (ns) => {
      const tests = await raw.sqlTests.list({ configsFilter: { ids: [ns] } });
      await raw.sqlTests.batchUpsert([{ ...(tests[0] as object), name: 'changed' } as never]);
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_sql_test_deployment_rule',
    ns: 'e2e-strule',
    v1: { dq_sql_test_deployment_rule: { s: stRule('S') } },
    v2: { dq_sql_test_deployment_rule: { s: stRule('S2') } },
    field: /~ title = "S" -> "S2"/,
    tamper: async (ns) => {
      const rules = await raw.sqlTestRules.list({ configsFilter: { ids: [ns] } });
      await raw.sqlTestRules.deploy({ ...(rules[0] as object), title: 'changed' } as never);
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_owner',
    ns: 'e2e-owner',
    v1: OWNER,
    v2: { dq_owner: { team: { ...OWNER.dq_owner.team, title: 'Team 2' } } },
    field: /~ title = "Team" -> "Team 2"/,
    tamper: async () => {
      const owners = await raw.owners.listOwners();
      const o = owners.find((x) => x.title === 'Team 2')!;
      await raw.owners.upsertOwner({ id: o.id, title: 'changed' });
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_domain',
    ns: 'e2e-domain',
    v1: { dq_domain: { d: { name: 'Sales' } } },
    v2: { dq_domain: { d: { name: 'Sales 2' } } },
    field: /~ name = "Sales" -> "Sales 2"/,
    tamper: async () => {
      const ds = await raw.domains.list();
      const d = ds.find((x) => x.name === 'Sales 2')!;
      await raw.domains.upsert({ id: d.id, description: 'edited in the UI' });
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_data_product',
    ns: 'e2e-dp',
    v1: { dq_data_product: { p: { title: 'Orders', priority: 'PRIORITY_P2' } } },
    v2: { dq_data_product: { p: { title: 'Orders', priority: 'PRIORITY_P1' } } },
    field: /~ priority = "PRIORITY_P2" -> "PRIORITY_P1"/,
    tamper: async () => {
      const ps = await raw.dataProducts.list();
      const p = ps.find((x) => x.priority === 'PRIORITY_P1')!;
      await raw.dataProducts.upsert({ id: p.id, title: 'edited in the UI' });
    },
    remove: () => [{}, {}],
  },
  {
    kind: 'dq_ownership',
    ns: 'e2e-ownership',
    v1: { ...OWNER, dq_ownership: { o: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } } },
    v2: { ...OWNER, dq_ownership: { o: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("finance")' } } } } },
    field: /~ selection\.query\.resolverQl = "with_tag\(\\"pii\\"\)" -> "with_tag\(\\"finance\\"\)"/,
    tamper: async (ns) => {
      const { deriveId } = await import('../../src/engine/identity');
      const id = deriveId('demo', ns, 'dq_ownership', 'o');
      const ownerId = deriveId('demo', ns, 'dq_owner', 'team');
      await raw.owners.upsertOwnership({ id, ownerId, selection: { query: { resolverQl: 'with_tag("x")' } } });
    },
    remove: () => [OWNER, {}],
  },
];

describe.each(CASES)('lifecycle of $kind', (c) => {
  it('create, no-op, update one field, drift, delete', async () => {
    write(c.ns, c.v1);
    let r = await cli(['plan', '--detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/Plan: \d to add, 0 to change, 0 to destroy/);
    r = await cli(['apply', '--auto-approve']);
    expect(r.out).toMatch(/Apply complete: \d applied, 0 failed/);
    r = await cli(['plan', '--detailed-exitcode']);
    expect(r.out).toMatch(/No changes/);
    expect(r.code).toBe(0);

    write(c.ns, c.v2);
    r = await cli(['plan', '--detailed-exitcode']);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(c.field);
    expect(r.out).toMatch(/Plan: 0 to add, 1 to change, 0 to destroy/);
    expect((r.out.match(/^ {6}[~+-] /gm) ?? []).length).toBe(1);
    r = await cli(['apply', '--auto-approve']);
    expect(r.code).toBe(0);
    expect((await cli(['drift'])).code).toBe(0);

    await c.tamper(c.ns);
    r = await cli(['drift']);
    expect(r.code).toBe(2);
    expect(r.out).toMatch(/Drift detected/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect((await cli(['drift'])).code).toBe(0);

    const [res, extra] = c.remove(c.ns);
    write(c.ns, res, extra);
    r = await cli(['plan']);
    expect(r.out).toMatch(/Plan: 0 to add, 0 to change, 1 to destroy/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    r = await cli(['plan', '--detailed-exitcode']);
    expect(r.code).toBe(0);
  });
});

describe('saved plans', () => {
  it('a live change after the plan makes apply refuse, naming the object, with no write', async () => {
    const ns = 'e2e-stale';
    write(ns, { dq_alert: { a: { name: 'A', issue_lifecycle: { trigger: { resolver_ql: 'with_type("view")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [1] } } } } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    write(ns, { dq_alert: { a: { name: 'B', issue_lifecycle: { trigger: { resolver_ql: 'with_type("view")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [1] } } } } });
    const planFile = path.join(dir, 'plan.json');
    expect((await cli(['plan', '--out', planFile])).code).toBe(0);
    await raw.alerts.rename({ fqn: `${ns}.a` }, 'someone else');
    const r = await cli(['apply', planFile]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/stale plan: live state changed since the plan was made; apply refuses it and wrote nothing/);
    expect(r.err).toMatch(/dq_alert\.a: it changed since the plan \(etag /);
    const live = await raw.alerts.batchGet([{ fqn: `${ns}.a` }]);
    expect(Object.values(live)[0].name).toBe('someone else');
  });

  it('apply without a TTY and without --auto-approve refuses; --max-deletes guards deletions', async () => {
    const ns = 'e2e-guards';
    write(ns, { dq_sql_test: { a: sqlTest('A'), b: sqlTest('B') } });
    let r = await cli(['apply']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/no terminal to ask on/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    write(ns, {});
    r = await cli(['apply', '--auto-approve', '--max-deletes', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/destroys 2 object\(s\), more than --max-deletes 1/);
    expect((await cli(['apply', '--auto-approve', '--max-deletes', '2'])).code).toBe(0);
  });

  it('the reader credential can plan and drift but apply fails naming the scope, and no secret is printed', async () => {
    const ns = 'e2e-reader';
    write(ns, { dq_sql_test: { a: sqlTest('A') } });
    const plan = await cli(['plan'], 'demo-reader');
    expect(plan.code).toBe(0);
    const r = await cli(['apply', '--auto-approve'], 'demo-reader');
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SCOPE_DATACHECKS_SQLTESTS_EDIT/);
    expect(`${plan.out}${plan.err}${r.out}${r.err}`).not.toContain('demo-secret');
  });

  it('a replace whose create fails says the old object was destroyed, and a re-run converges', async () => {
    const ns = 'e2e-replace';
    const targets = [{ slack: { channel: '#a' } }];
    write(ns, { dq_alert: { a: { name: 'A', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets, settings: { severities: [2] } } } } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    write(ns, { dq_alert: { a: { name: 'A', schema_change: { trigger: { resolver_ql: 'with_type("table")' }, targets } } } });
    const fault = await fetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      // alerts are created with Create (POST /api/alerts/v2 exactly; list and get are other paths)
      body: JSON.stringify({ rules: [{ type: 'unavailable', count: 50, path: '/api/alerts/v2', method: 'POST' }] }),
    });
    expect(fault.status).toBe(200);
    const r = await cli(['apply', '--auto-approve']);
    await fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/replace dq_alert\.a: FAILED: the old alert was destroyed, but creating its replacement failed/);
    const again = await cli(['apply', '--auto-approve']);
    expect(again.out).toMatch(/Apply complete: 1 applied/);
    expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  }, 60_000);

  it('plan --format json and drift --json print the plan JSON on stdout only', async () => {
    const ns = 'e2e-json';
    write(ns, { dq_sql_test: { a: sqlTest('A') } });
    const r = await cli(['plan', '--format', 'json', '--detailed-exitcode']);
    expect(r.code).toBe(2);
    const plan = JSON.parse(r.out) as { formatVersion: number; summary: { add: number }; changes: { address: string; action: string }[] };
    expect(plan.formatVersion).toBe(1);
    expect(plan.summary.add).toBe(1);
    expect(plan.changes.map((c) => [c.address, c.action])).toContainEqual(['dq_sql_test.a', 'create']);
    expect(r.err).toMatch(/reading live state/);
    const d = await cli(['drift', '--json']);
    expect(d.code).toBe(2);
    expect(JSON.parse(d.out)).toEqual(plan);
  });

});
