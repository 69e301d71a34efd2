/**
 * `dqform import` round trip for every kind, in both formats, against an in-process emulator
 * holding three namespaces and objects made in the UI of every kind: create objects (through the
 * engine's plan and apply), import one namespace, load (YAML) or synth (TS, the generated main.ts
 * run with tsx as a child process), plan: exactly that namespace's objects were written and every
 * change is noop, or unmanaged for objects that are not the namespace's. With --adopt, UI-made
 * objects (and only those) come with import blocks: the first plan claims them (update, empty
 * patch), and after apply the plan is empty.
 *
 * @gateway
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { loadSynthOutput } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { manifestFromYaml } from '../../src/engine/yaml';
import { importNamespace, planImport, slug, type LiveItem } from '../../src/engine/import';
import { nextSteps } from '../../src/cli/commands/import';
import { resolveManifest } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { DEMO_DOMAIN_ID, DEMO_OWNER_ID } from '../../src/emulator/routes/governance';
import * as os from 'node:os';
import { main } from '../../src/cli/main';
import { summaryLine } from '../../src/cli/render';
import type { Manifest } from '../../schemas/model/manifest';
import type { Plan } from '../../schemas/model/plan';
import { reasonsText } from '../../src/plan/reasons-text';

const ROOT = path.resolve(__dirname, '..', '..');
const NS = 'team';

/** Every kind, with references between them, in namespace `ns`. */
const WORKSPACE = (ns: string) => `
namespace: ${ns}
owners:
  data_team:
    title: Data team
    contacts: [{ email: { recipientEmails: [data@example.com] } }, { slack: { channel: "#data" } }]
  finance:
    title: Finance
domains:
  retail:
    name: Retail
  commerce:
    name: Commerce
    description: Orders and carts
    parent: retail
    definition:
      parts:
        - dataProduct: orders
        - query: 'with_tag("commerce")'
dataProducts:
  orders:
    title: Orders
    priority: PRIORITY_P1
    folder: mart
    definition:
      parts: [{ query: 'or(with_name("orders"),with_annotation("owner","team-commerce"))' }]
ownerships:
  data_owns_orders:
    owner: data_team
    dataProduct: orders
    alert: { severities: [SEVERITY_ERROR], notifyUpstream: true }
  finance_owns_payments:
    owner: finance
    query: 'with_name("payments")'
alerts:
  orders_issues:
    name: Issues on order tables
    issueLifecycle:
      trigger: 'and(with_type("table"),with_name("orders"))'
      targets: [{ owner: data_team }, { email: { recipientEmails: [data@example.com] } }]
      settings: { severities: [SEVERITY_ERROR, SEVERITY_FATAL], ongoing: { stream: {} } }
  schema_changes:
    name: Schema changes in mart
    schemaChange:
      trigger: 'in_folder("folder-wh-prod::mart")'
      targets: [{ slack: { channel: "#schema" } }]
  incidents:
    name: Incidents
    incidentLifecycle:
      targets: [{ slack: { channel: "#incidents" } }]
      settings: { states: [STATE_OPEN] }
monitorDeploymentRules:
  mart_tables:
    title: Mart tables
    queryConfig:
      resolverQl: 'in_folder("folder-wh-prod::mart")'
      severity: SEVERITY_WARNING
      sensitivity: SENSITIVITY_BALANCED
      metricIds: [METRIC_ID_ROW_COUNT, METRIC_ID_DELAY]
  orders_product:
    title: Orders product
    productConfig:
      product: orders
      severity: SEVERITY_ERROR
      sensitivity: SENSITIVITY_BALANCED
      metricIds: [METRIC_ID_ROW_COUNT]
  orders_static:
    title: Orders static
    staticConfig: { path: "wh-prod::mart::orders", severity: SEVERITY_ERROR, sensitivity: SENSITIVITY_BALANCED, metricIds: [METRIC_ID_DELAY] }
sqlTests:
  order_id_not_null:
    name: fct_orders.order_id is never null
    severity: SEVERITY_ERROR
    platform: { warehouseAccount: { account: acme-retail, database: wh-prod } }
    recurrenceRule: FREQ=DAILY;BYHOUR=6
    template:
      identifier: { warehouseAccountTable: { account: acme-retail, database: wh-prod, schema: mart, table: fct_orders } }
      notNull: { columns: [order_id] }
  no_negative_totals:
    name: "No negative totals: it's a 'quoted' name"
    platform: { integrationId: int-1 }
    recurrenceRule: FREQ=DAILY
    sqlExpression: select * from orders where total < 0
sqlTestDeploymentRules:
  orders_tests:
    title: Orders tests
    staticConfig:
      path: "wh-prod::mart::orders"
      recurrenceRule: "DTSTART:20260101T000000Z\\nRRULE:FREQ=DAILY"
      tests: [{ name: id not null, notNull: { columns: [id] } }]
`;

const OTHERS = ['other', 'third'];
const UI = {
  owner: '0a0a0000-0000-4000-8000-000000000001',
  domain: '0a0a0000-0000-4000-8000-000000000002',
  product: '0a0a0000-0000-4000-8000-000000000003',
  ownershipOfUiOwner: '0a0a0000-0000-4000-8000-000000000004',
  ownershipOfOurOwner: '0a0a0000-0000-4000-8000-000000000005',
  ownershipOfTheirOwner: '0a0a0000-0000-4000-8000-000000000006',
};
/** `type:key` of every object namespace `ns` declares (ids; alerts: fqns). */
const keysOf = (ns: string) =>
  resolveManifest(manifestFromYaml(WORKSPACE(ns), { file: `${ns}.yaml` }), 'demo')
    .resources.map((r) => `${r.type}:${r.type === 'dq_alert' ? r.fqn : r.id}`)
    .sort();

let emu: RunningEmulator;
let client: PlatformClient;
let workDir: string;

async function planOf(m: Manifest): Promise<Plan> {
  return plan(client, m);
}
async function applyAll(m: Manifest): Promise<void> {
  const p = await planOf(m);
  expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  // the fixture's product rule is created with its data product: its preview needs the product
  // to exist, so its effects are unknown on this first plan (what import is tested on comes after)
  const r = await apply(client, p, { allowUnpreviewed: true });
  expect(r.failed).toEqual([]);
}
function actions(p: Plan): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const c of p.changes) (out[c.action] ??= []).push(c.address);
  return out;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
  fs.mkdirSync(path.join(ROOT, 'node_modules', '.cache'), { recursive: true });
  workDir = fs.mkdtempSync(path.join(ROOT, 'node_modules', '.cache', 'dq-import-test-'));
  await applyAll(manifestFromYaml(WORKSPACE(NS), { file: 'team.yaml' }));
  // two other namespaces with the same code (never imported, their alerts stay unmanaged) ...
  for (const ns of OTHERS) await applyAll(manifestFromYaml(WORKSPACE(ns), { file: `${ns}.yaml` }));
  // ... and objects made in the UI, of every kind (ids without a namespace tag)
  await client.owners.upsertOwner({ id: UI.owner, title: 'UI owner' });
  await client.domains.upsert({ id: UI.domain, name: 'UI domain' });
  await client.dataProducts.upsert({ id: UI.product, title: 'UI product' });
  await client.owners.upsertOwnership({ id: UI.ownershipOfUiOwner, ownerId: UI.owner, selection: { query: { resolverQl: 'with_tag("ui")' } } });
  await client.owners.upsertOwnership({ id: UI.ownershipOfOurOwner, ownerId: deriveId('demo', NS, 'dq_owner', 'data_team'), selection: { query: { resolverQl: 'with_tag("ui2")' } } });
  await client.owners.upsertOwnership({ id: UI.ownershipOfTheirOwner, ownerId: deriveId('demo', 'other', 'dq_owner', 'data_team'), selection: { query: { resolverQl: 'with_tag("ui3")' } } });
  await client.alerts.upsert({ name: 'Made in the UI', fqn: 'ui.made', incidentLifecycle: { targets: [{ slack: { channel: '#ui' } }], settings: { states: ['STATE_CLOSED'] } } });
  await client.deploymentRules.deploy({ id: '6f1c2a8e-0000-4000-8000-000000000001', title: 'UI rule', staticConfig: { path: 'wh-prod::mart::customers', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } });
  await client.sqlTests.batchUpsert([{ id: 'ui-test-1', name: 'UI test', platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=WEEKLY', sqlExpression: 'select 1 where false' }]);
}, 60_000);
afterAll(async () => {
  await client?.close();
  await emu?.close();
  if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
});

/** Loads the import output: YAML through the loader, TS by running main.ts with tsx. */
function load(format: 'ts' | 'yaml', text: string, tag: string): Manifest {
  const dir = path.join(workDir, tag);
  fs.mkdirSync(dir, { recursive: true });
  if (format === 'yaml') {
    const f = path.join(dir, 'dqform.yaml');
    fs.writeFileSync(f, text);
    return manifestFromYaml(text, { file: f });
  }
  fs.writeFileSync(path.join(dir, 'main.ts'), text);
  const out = path.join(dir, 'cdktf.out');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'main.ts'], {
    cwd: dir,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: '1' },
  });
  if (r.status !== 0) throw new Error(`main.ts failed: ${r.stderr}\n${text}`);
  return loadSynthOutput(out);
}
const constructsModule = (tag: string) => path.relative(path.join(workDir, tag), path.join(ROOT, 'constructs')).split(path.sep).join('/');

const KINDS = ['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule'];

describe.each([
  { format: 'yaml' as const, why: 'YAML output loads into a manifest that plans as no change' },
  { format: 'ts' as const, why: 'generated main.ts synthesises (tsx, child process) to a manifest that plans as no change' },
])('import --format $format: $why', ({ format }) => {
  it('writes exactly the namespace\'s objects of every kind; the plan of the result shows no changes', async () => {
    const tag = `plain-${format}`;
    const r = await importNamespace(client, { namespace: NS, format, constructsModule: constructsModule(tag) });
    expect(r.warnings).toEqual([]);
    expect(r.objects.some((o) => o.adopted)).toBe(false);
    expect([...new Set(r.objects.map((o) => o.type))].sort()).toEqual([...KINDS].sort());
    expect(r.objects.map((o) => `${o.type}:${o.key}`).sort()).toEqual(keysOf(NS));
    expect(r.left).toEqual({ otherNamespace: keysOf('other').length + keysOf('third').length, madeInUi: 12, byRule: 0 });
    const m = load(format, r.text, tag);
    const p = await planOf(m);
    expect(p.diagnostics).toEqual([]);
    const a = actions(p);
    expect(Object.keys(a).sort()).toEqual(['noop', 'unmanaged']);
    // every imported object is declared and unchanged
    expect(a.noop.length).toBe(r.objects.length);
    // the other namespace's alert and the UI-made objects are reported, not touched
    expect(a.unmanaged).toEqual(expect.arrayContaining(['dq_alert["other.orders_issues"]', 'dq_alert["third.incidents"]', 'dq_alert["ui.made"]', 'dq_sql_test["ui-test-1"]']));
    // references are written as references, not ids
    if (format === 'ts') {
      expect(r.text).toMatch(/owner: dataTeamOwner/);
      expect(r.text).toMatch(/Target\.owner\(dataTeamOwner\)/);
      expect(r.text).toMatch(/parent: retailDomain/);
      expect(r.text).toMatch(/product: ordersProduct/);
    } else {
      expect(r.text).toMatch(/owner: data_team\n\s+dataProduct: orders/);
      expect(r.text).toMatch(/parent: retail/);
      expect(r.text).toMatch(/product: orders/);
    }
  }, 90_000);
});

describe('import --adopt narrowed by --adopt-kind and --adopt-id (issue 26)', () => {
  const cli = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (x: string) => out.push(x), err: (x: string) => err.push(x), env: { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-reader', DQ_CLIENT_SECRET: 'demo-secret' }, cwd: workDir, isTty: false };
    const code = await main(args, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('adopts only the kinds and ids named; the first plan imports exactly those, and says so', async () => {
    const kinds = await importNamespace(client, { namespace: NS, format: 'yaml', adopt: true, adoptKinds: ['dq_alert', 'dq_sql_test'] });
    expect(kinds.objects.filter((o) => o.adopted).map((o) => `${o.type}:${o.key}`).sort()).toEqual(['dq_alert:ui.made', 'dq_alert:ui.orders-freshness', 'dq_sql_test:ui-test-1']);
    const r = await cli(['import', '--namespace', NS, '--out', 'narrow.yaml', '--adopt-kind', 'alerts', '--adopt-id', 'UI.MADE']);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(r.out).toMatch(/Imported \d+ object\(s\) of namespace "team" into narrow\.yaml \(1 adopted with import blocks\)/);
    expect(r.out).toContain('The first plan imports the 1 adopted object(s) (alerts, rules and SQL tests take namespace "team"; nothing else changes); after its apply, the plan shows no changes.');
    const text = fs.readFileSync(path.join(workDir, 'narrow.yaml'), 'utf8');
    const m = manifestFromYaml(text, { file: path.join(workDir, 'narrow.yaml') });
    expect(m.imports.map((i) => i.id)).toEqual(['ui.made']);
    const p = await planOf(m);
    expect(p.diagnostics).toEqual([]);
    expect(p.changes.filter((c) => c.action === 'update').map((c) => c.importedId)).toEqual(['ui.made']);
    expect(p.changes.filter((c) => !['noop', 'unmanaged', 'update'].includes(c.action))).toEqual([]);
    expect(summaryLine(p)).toBe('Plan: 1 to import, 0 to add, 1 to change, 0 to destroy.');
  }, 60_000);

  it.each([
    [['--adopt-kind', 'widgets'], /Error: --adopt-kind: unknown kind "widgets"; the kinds are dq_owner \(owners\), .*dq_alert \(alerts\), /],
    [['--adopt-kind', ','], /Error: --adopt-kind needs at least one kind/],
    [['--adopt-id', 'no-such-id'], /Error: --adopt-id no-such-id: no object made in the UI has this id in workspace "demo"; nothing was written\./],
    [['--adopt-kind', 'dq_owner', '--adopt-id', 'ui.made'], /Error: --adopt-id ui\.made: no object made in the UI of kind dq_owner has this id/],
  ])('%j: exit 1, a clear error, nothing written', async (flags, message) => {
    const r = await cli(['import', '--namespace', NS, '--out', 'refused.yaml', ...flags]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(message);
    expect(fs.existsSync(path.join(workDir, 'refused.yaml'))).toBe(false);
  }, 30_000);
});

describe.each([
  { format: 'ts' as const, applyIt: false, why: 'TS: adopted objects get importFrom; the plan only claims them' },
  { format: 'yaml' as const, applyIt: true, why: 'YAML: adopted objects get import entries; claim, apply, then no changes' },
])('import --adopt: $why', ({ format, applyIt }) => {
  it('adopts objects made in the UI of every kind, and only those', async () => {
    const tag = `adopt-${format}`;
    const r = await importNamespace(client, { namespace: NS, format, adopt: true, constructsModule: constructsModule(tag) });
    const adopted = r.objects.filter((o) => o.adopted).map((o) => `${o.type}:${o.key}`).sort();
    // ours plus the demo seed's UI-made alert, domain and owner; a UI-made ownership only with its owner
    expect(adopted).toEqual([
      'dq_alert:ui.made',
      'dq_alert:ui.orders-freshness',
      `dq_data_product:${UI.product}`,
      `dq_domain:${DEMO_DOMAIN_ID}`,
      `dq_domain:${UI.domain}`,
      'dq_monitor_deployment_rule:6f1c2a8e-0000-4000-8000-000000000001',
      `dq_owner:${DEMO_OWNER_ID}`,
      `dq_owner:${UI.owner}`,
      `dq_ownership:${UI.ownershipOfOurOwner}`,
      `dq_ownership:${UI.ownershipOfUiOwner}`,
      'dq_sql_test:ui-test-1',
    ].sort());
    expect(r.objects.filter((o) => !o.adopted).map((o) => `${o.type}:${o.key}`).sort()).toEqual(keysOf(NS));
    expect(r.left).toEqual({ otherNamespace: keysOf('other').length + keysOf('third').length, madeInUi: 1, byRule: 0 });
    expect(r.text).toContain(format === 'ts' ? ".importFrom('ui.made')" : 'id: ui.made');
    const m = load(format, r.text, tag);
    expect(m.imports.length).toBe(11);
    const p = await planOf(m);
    expect(p.diagnostics).toEqual([]);
    const claims = p.changes.filter((c) => c.action === 'update');
    expect(claims.map((c) => c.importedId).sort()).toEqual(['6f1c2a8e-0000-4000-8000-000000000001', 'ui-test-1', 'ui.made', 'ui.orders-freshness']);
    for (const c of claims) expect(c.patch).toEqual([]);
    expect(p.changes.filter((c) => !['noop', 'unmanaged', 'update'].includes(c.action))).toEqual([]);
    expect(p.changes.find((c) => c.address === 'dq_alert["other.orders_issues"]')?.action).toBe('unmanaged');
    if (!applyIt) return;
    const res = await apply(client, p);
    expect(res.failed).toEqual([]);
    const after = await planOf(m);
    const again = actions(after);
    expect(Object.keys(again).sort()).toEqual(['noop', 'unmanaged']);
    // what is left unmanaged belongs to the other two namespaces (or to the platform: its own
    // categorisation rule): nothing made in the UI remains
    expect(after.changes.filter((c) => c.action === 'unmanaged' && !/^managed by namespace "(other|third)"$|^not managed by dqform: it is platform-provided/.test(reasonsText(c).join()))).toEqual([]);
  }, 90_000);
});

describe('names', () => {
  const item = (type: LiveItem['type'], key: string, raw: Record<string, unknown>, extra: Partial<LiveItem> = {}): LiveItem => ({ type, key, raw, ...extra });
  it.each([
    ['Commerce data team', 'commerce_data_team', 'words become snake case'],
    ['  Ünïcode -- Orders!! ', 'unicode_orders', 'accents folded, punctuation collapsed, ends trimmed'],
    ['42 tables', 'owner_42_tables', 'a leading digit gets the kind prefix'],
    ['!!!', 'owner', 'nothing left: the kind'],
  ])('slug(%j) = %j (%s)', (input, want) => {
    expect(slug(input, 'owner')).toBe(want);
  });

  it('duplicates are numbered in a deterministic order, whatever order live state comes in', () => {
    const [k1, k2] = [deriveId('demo', 'team', 'dq_owner', 'x'), deriveId('demo', 'team', 'dq_owner', 'y')].sort();
    const items = [
      item('dq_owner', k2, { id: k2, title: 'Data' }),
      item('dq_owner', k1, { id: k1, title: 'Data' }),
      item('dq_alert', 'team.data', { fqn: 'team.data', name: 'x', incidentLifecycle: { targets: [{ slack: { channel: '#x' } }], settings: { states: ['STATE_OPEN'] } } }, { configId: 'team' }),
    ];
    const opts = { namespace: 'team', workspace: 'demo' };
    const a = planImport(items, opts).objects.map((o) => [o.type, o.name, o.key]);
    const b = planImport([...items].reverse(), opts).objects.map((o) => [o.type, o.name, o.key]);
    expect(a).toEqual(b);
    expect(a).toEqual([
      ['dq_owner', 'data', k1],
      ['dq_owner', 'data_2', k2],
      ['dq_alert', 'data_3', 'team.data'],
    ]);
  });

  it.each<[string, Partial<LiveItem>, boolean, boolean]>([
    ['an owner whose id carries the namespace tag', { type: 'dq_owner', key: deriveId('demo', 'team', 'dq_owner', 'a') }, true, true],
    ['an owner of another namespace: never, even with --adopt', { type: 'dq_owner', key: deriveId('demo', 'other', 'dq_owner', 'a') }, false, false],
    ['an owner of the same namespace name in another workspace: never', { type: 'dq_owner', key: deriveId('prod', 'team', 'dq_owner', 'a') }, false, false],
    ['an owner made in the UI: only with --adopt', { type: 'dq_owner', key: '0a0a0000-0000-4000-8000-00000000000a' }, false, true],
    ['a rule of the namespace (configId)', { type: 'dq_monitor_deployment_rule', key: 'r1', configId: 'team' }, true, true],
    ['a rule without configId whose id carries another tag: never', { type: 'dq_monitor_deployment_rule', key: deriveId('demo', 'other', 'dq_monitor_deployment_rule', 'r') }, false, false],
    ['a rule of another namespace (configId): never', { type: 'dq_monitor_deployment_rule', key: 'r2', configId: 'other' }, false, false],
  ])('%s: imported %j, with --adopt %j', (_why, it, plain, adopt) => {
    const i = item(it.type!, it.key!, { id: it.key, title: 'T' }, it);
    expect(planImport([i], { namespace: 'team', workspace: 'demo' }).objects.length).toBe(plain ? 1 : 0);
    expect(planImport([i], { namespace: 'team', workspace: 'demo', adopt: true }).objects.length).toBe(adopt ? 1 : 0);
  });
});

describe('dqform import via the CLI', () => {
  const run = async (args: string[], cwd = workDir) => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-reader', DQ_CLIENT_SECRET: 'demo-secret' }, cwd, isTty: false };
    const code = await main(args, io);
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('writes the file and prints a Next: line that works as printed; missing flags: exit 1 with a diagnostic', async () => {
    const r = await run(['import', '--namespace', NS, '--out', 'cli.yaml']);
    expect(r.code).toBe(0);
    // the editors' schema where an installed dqform has it (dqform is not on a public registry)
    expect(fs.readFileSync(path.join(workDir, 'cli.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=node_modules\/dqform\/schemas\/dqform\.schema\.json\n/);
    expect(r.out).toMatch(/Imported \d+ object\(s\) of namespace "team" into cli.yaml; left out: \d+ of other namespaces, \d+ made in the UI \(--adopt takes those\), \d+ deployed by SQL-test rules\./);
    const next = /^Next: (.*)$/m.exec(r.out)![1];
    expect(next).toBe('dqform plan --file cli.yaml');
    const plan = await run(next.replace(/^dqform /, '').split(' '));
    expect(plan.code).toBe(0);
    expect(plan.out).toMatch(/No changes/);
    const bad = await run(['import', '--out', 'x.ts']);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/needs --namespace NS and --out FILE/);
    expect(`${r.err}${bad.err}`).not.toContain('demo-secret');
  }, 30_000);

  it('--out refuses to overwrite an existing file without --force', async () => {
    fs.writeFileSync(path.join(workDir, 'kept.yaml'), 'precious\n');
    const r = await run(['import', '--namespace', NS, '--out', 'kept.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/kept\.yaml already exists; dqform import does not overwrite it\n {2}Choose another --out, or pass --force to replace it\./);
    expect(fs.readFileSync(path.join(workDir, 'kept.yaml'), 'utf8')).toBe('precious\n');
    expect((await run(['import', '--namespace', NS, '--out', 'kept.yaml', '--force'])).code).toBe(0);
    expect(fs.readFileSync(path.join(workDir, 'kept.yaml'), 'utf8')).toMatch(/^# yaml-language-server/);
  }, 30_000);

  it('--out in a directory that does not exist yet makes the directory (docs/migrating.md: a YAML workspace in a directory of its own)', async () => {
    const r = await run(['import', '--namespace', NS, '--out', path.join('new-dir', 'nested', 'dqform.yaml')]);
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: '' });
    expect(fs.readFileSync(path.join(workDir, 'new-dir', 'nested', 'dqform.yaml'), 'utf8')).toMatch(/^# yaml-language-server/);
  }, 30_000);

  it('an import that finds nothing exits 1, says so, and writes nothing', async () => {
    const r = await run(['import', '--namespace', 'nobody', '--out', 'nobody.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Error: found no objects of namespace "nobody" in workspace "demo"; nothing was written\./);
    expect(r.err).toMatch(/Namespaces seen on alerts, rules and SQL tests: "other", "team", "third"\. Check the spelling of --namespace\./);
    expect(fs.existsSync(path.join(workDir, 'nobody.yaml'))).toBe(false);
  }, 30_000);

  it('a TypeScript import writes cdktf.json when there is none; the Next: line installs what an empty directory lacks, then synthesises', async () => {
    const fresh = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-fresh-'));
    try {
      const r = await run(['import', '--namespace', NS, '--out', 'main.ts'], fresh);
      expect(r.code).toBe(0);
      const next = /^Next: (.*)$/m.exec(r.out)![1];
      const build = fs.existsSync(path.join(ROOT, 'dist', 'src', 'index.js')) ? '' : `npm --prefix ${ROOT} run build && `;
      expect(next).toBe(`${build}npm install --save-dev ${ROOT} tsx && dqform synth && dqform plan`);
      expect(JSON.parse(fs.readFileSync(path.join(fresh, 'cdktf.json'), 'utf8'))).toEqual({ language: 'typescript', app: 'npx tsx main.ts' });
      expect(r.out).toContain('Wrote cdktf.json (app: npx tsx main.ts).');
      // an existing cdktf.json is left as it is
      fs.writeFileSync(path.join(fresh, 'cdktf.json'), '{"app": "npx tsx other.ts"}');
      expect((await run(['import', '--namespace', NS, '--out', 'second.ts'], fresh)).out).not.toContain('Wrote cdktf.json');
      expect(fs.readFileSync(path.join(fresh, 'cdktf.json'), 'utf8')).toBe('{"app": "npx tsx other.ts"}');
      // with no cdktf.json (removed), the synth gets the app explicitly
      expect(nextSteps(fresh, path.join(fresh, 'sub', 'main.ts'), 'ts', 'dqform')[0]).toMatch(/dqform synth --app 'npx tsx main\.ts' && dqform plan$/);
      expect(fs.readFileSync(path.join(fresh, 'main.ts'), 'utf8')).toMatch(/^import \{ App, .*\} from 'dqform';$/m);
      // in a directory where dqform and tsx resolve, and with a cdktf.json, only synth and plan remain
      fs.writeFileSync(path.join(workDir, 'cdktf.json'), '{"app": "npx tsx main.ts"}');
      expect(nextSteps(workDir, path.join(workDir, 'main.ts'), 'ts', '../../../constructs')).toEqual(['Next: dqform synth && dqform plan']);
      expect(nextSteps(ROOT, path.join(workDir, 'sub', 'x.yaml'), 'yaml', 'dqform')).toEqual([`Next: dqform plan --file ${path.relative(ROOT, path.join(workDir, 'sub', 'x.yaml'))}`]);
    } finally {
      fs.rmSync(fresh, { recursive: true, force: true });
      fs.rmSync(path.join(workDir, 'cdktf.json'), { force: true });
    }
  }, 30_000);
});
