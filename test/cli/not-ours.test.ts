/**
 * Issue 12, "never touch what is not ours, whatever a plan file or `removed` says", for every
 * kind, through the spawned CLI as a user (or an attacker with write access to a plan artifact
 * or a pull request) meets it. Another namespace ("theirs", applied through the CLI) holds one
 * object of each kind, and the UI made one of each. Stack "mine" then tries, in the three ways a
 * user can express it, to write or delete them all:
 * - a saved plan file with their deletes (and an update of each) added by hand;
 * - `removed` blocks with `destroy = true` naming each of them by id;
 * - `import` blocks adopting each of the other namespace's objects (adopting what the UI made is
 *   what import blocks are for; another namespace's object never: for alerts, whose fqn carries
 *   no namespace tag, this was allowed before).
 * Each exits 1 naming every object, and not one write request reaches the platform.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { createAlert } from '../../src/emulator/routes/alerts';
import { main } from '../../src/cli/main';
import { BENCH_KINDS, terraformJson } from '../../bench/fixtures';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Change, Plan } from '../../schemas/model/plan';
import { planSummary } from '../../src/engine/plan-check';
import { dqform, STACK_FRAME, Workspace } from './helpers';

let emu: RunningEmulator;
let raw: PlatformClient;
const ws = new Workspace();

/** A foreign object: its type, id (alerts: fqn) and whose it is. */
interface Foreign {
  type: string;
  id: string;
  whose: 'theirs' | 'ui';
}
const foreign: Foreign[] = [];

/** An integration (the bench fixtures have none): no secret, so no variable is needed to apply it. */
const INTEGRATION = { title: 'Their warehouse', config: { relational: { host: 'db.theirs.example.com' } } };

/** One object of every kind for namespace "theirs": the bench fixture's eight kinds, a categorisation rule and an integration. */
function theirsDoc(): { resource: Record<string, Record<string, Record<string, unknown>>> } {
  const doc = terraformJson('theirs', BENCH_KINDS.length) as { resource: Record<string, Record<string, Record<string, unknown>>> };
  doc.resource.dq_check_categorisation_rule = { catrule0: { dimension: 'TECHNICAL', title: 'Their rule', category: 'Theirs', matcher: { attributes: { name_contains: 'theirs' } } } };
  doc.resource.dq_integration = { their_integration: INTEGRATION };
  return doc;
}

const uiId = (n: number) => `0d0d0d0d-0000-4000-8000-${String(n).padStart(12, '0')}`;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });

  // another namespace: one object of every kind, applied by dqform (so tagged and configId'd as dqform does)
  const theirs = theirsDoc();
  ws.stack('theirs', theirs.resource);
  const io = { out: () => undefined, err: () => undefined, env: env(), cwd: ws.dir, isTty: false };
  expect(await main(['plan', '--stack', 'theirs', '--out', ws.path('theirs.json')], io)).toBe(0);
  expect(await main(['apply', ws.path('theirs.json'), '--stack', 'theirs', '--allow-unpreviewed'], io)).toBe(0);
  const theirsPlan = JSON.parse(fs.readFileSync(ws.path('theirs.json'), 'utf8')) as Plan;
  for (const c of theirsPlan.changes.filter((x) => x.action === 'create')) foreign.push({ type: c.type, id: c.type === 'dq_alert' ? c.fqn! : c.id, whose: 'theirs' });
  expect(new Set(foreign.map((f) => f.type)).size).toBe(RESOURCE_TYPES.length);
  fs.rmSync(ws.path('cdktf.out', 'stacks', 'theirs'), { recursive: true });

  // made in the UI: one of every kind (no configId, no namespace tag)
  const store = emu.app.store.workspace('demo');
  const trigger = { resolverQl: 'with_type("table")' };
  createAlert(store, { name: 'UI alert', fqn: 'ui.alert', issueLifecycle: { trigger, targets: [{ slack: { channel: '#ui' } }], settings: { severities: ['SEVERITY_ERROR'] } } } as never, 'SOURCE_APP', new Date());
  await raw.deploymentRules.deploy({ id: uiId(1), title: 'UI rule', staticConfig: { path: 'x::y::z', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] }, source: 'SOURCE_APP' } as never);
  await raw.sqlTests.batchUpsert([{ id: uiId(2), name: 'UI test', platform: { warehouseAccount: { account: 'a', database: 'd' } }, sqlExpression: 'select 1', source: 'SOURCE_APP' } as never]);
  await raw.sqlTestRules.deploy({ id: uiId(3), title: 'UI test rule', staticConfig: { path: 'x::y::z', tests: [{ name: 'ids', notNullTest: { columnNames: ['id'] } }] }, source: 'SOURCE_APP' } as never);
  await raw.owners.upsertOwner({ id: uiId(4), title: 'UI owner' });
  await raw.domains.upsert({ id: uiId(5), name: 'UI domain' });
  await raw.dataProducts.upsert({ id: uiId(6), title: 'UI product' });
  await raw.owners.upsertOwnership({ ownerId: uiId(4), id: uiId(7), selection: { query: { resolverQl: 'with_tag("pii")' } } });
  await raw.categorisationRules.upsert({ id: uiId(8), dimension: 'GOVERNANCE', title: 'UI rule', category: 'UI', matcher: { attributes: { nameContains: 'ui' } } });
  const uiIntegration = await raw.integrations.create({ title: 'UI integration', config: { relational: { host: 'ui.example.com' } } });
  await raw.savedViews.upsert({ id: uiId(8), title: 'UI view', visibility: 'VISIBILITY_WORKSPACE' });
  const ui: [string, string][] = [
    ['dq_alert', 'ui.alert'],
    ['dq_monitor_deployment_rule', uiId(1)],
    ['dq_sql_test', uiId(2)],
    ['dq_sql_test_deployment_rule', uiId(3)],
    ['dq_owner', uiId(4)],
    ['dq_domain', uiId(5)],
    ['dq_data_product', uiId(6)],
    ['dq_ownership', uiId(7)],
    ['dq_check_categorisation_rule', uiId(8)],
    ['dq_integration', uiIntegration.id],
    ['dq_saved_view', uiId(8)],
  ];
  for (const [type, id] of ui) foreign.push({ type, id, whose: 'ui' });
}, 120_000);
afterAll(async () => {
  await raw.close();
  await emu.close();
  ws.remove();
});

function env(extra: Record<string, string> = {}): Record<string, string> {
  return { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint ?? '', DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', ...extra };
}
const cli = (args: string[]) => dqform(args, { cwd: ws.dir, env: env(), timeoutMs: 60_000 });

/** Requests under /api that write (every method but GET, except the read POSTs). */
async function writes(): Promise<string[]> {
  const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> };
  return Object.keys(r.routes).filter((k) => !k.startsWith('GET ') && k.includes(' /api/') && !/(batch-get|by-id|\/list|\/get|overview|translate-resolver-ql|\/preview|\/matches)$/.test(k));
}
const resetCounters = () => fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });

/** A fingerprint of everything in the workspace: equal before and after means nothing was touched. */
function snapshot(): string {
  const store = emu.app.store.workspace('demo');
  return JSON.stringify(['alerts', 'deploymentRules', 'sqlTests', 'sqlTestDeploymentRules', 'owners', 'domains', 'dataproducts', 'ownerships', 'categorisationRules', 'integrations', 'savedViews'].map((c) => store.collection<Record<string, unknown>>(c).filter(() => true)));
}

const addressOf = (f: Foreign) => `${f.type}["${f.id}"]`;
const MINE = { dq_owner: { team: { title: 'Team' } } };

it('a saved plan with deletes and updates of another namespace\'s and UI-made objects of every kind added by hand: exit 1 naming each, nothing written', async () => {
  ws.stack('mine', MINE);
  const planned = await cli(['plan', '--stack', 'mine', '--out', 'plan.json']);
  expect(planned.code).toBe(0);
  const p = JSON.parse(fs.readFileSync(ws.path('plan.json'), 'utf8')) as Plan & { changes: Record<string, unknown>[] };
  for (const f of foreign) {
    // the plan lists the objects of kinds with configId as not managed here: turned into deletes;
    // the others are added
    const listed = p.changes.find((c) => c.address === addressOf(f));
    if (listed) Object.assign(listed, { action: 'delete', after: null, reasons: ['no longer declared'] });
    else p.changes.push({ address: addressOf(f), type: f.type, action: 'delete', id: f.id, fqn: f.type === 'dq_alert' ? f.id : undefined, before: {}, after: null, reasons: ['no longer declared'] });
  }
  expect(p.changes.filter((c) => c.action === 'delete')).toHaveLength(foreign.length);
  // and an update of the other namespace's owner, as if the code had declared it
  const owner = foreign.find((f) => f.whose === 'theirs' && f.type === 'dq_owner')!;
  p.changes.push({ address: 'dq_owner.hijacked', type: 'dq_owner', action: 'update', id: owner.id, before: {}, after: { title: 'hijacked' }, patch: [{ op: 'add', path: '/title', value: 'hijacked' }], reasons: [] });
  // patch and summary follow the edits (a careful editor): the file agrees with itself, so the
  // refusal tested here is apply's, not the plan file's own check
  p.summary = planSummary(p.changes as unknown as Change[]);
  fs.writeFileSync(ws.path('plan.json'), JSON.stringify(p, null, 2));
  const before = snapshot();
  await resetCounters();
  const r = await cli(['apply', 'plan.json', '--stack', 'mine', '--max-deletes', '100', '--allow-unpreviewed']);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/apply refuses it and wrote nothing/);
  const refusal = (f: Foreign) => r.err.split('\n').find((l) => l.startsWith(`  ${addressOf(f)}: `));
  // kinds with configId are listed by the plan ("not managed here"); the others are not read at all.
  // The refusal names 20 differences and counts the rest ("... and N more"): every object is named or counted.
  const named = foreign.filter((f) => refusal(f) !== undefined);
  for (const f of named) expect([f.type, f.whose, refusal(f)]).toEqual([f.type, f.whose, expect.stringMatching(/: the saved plan would delete it, a plan made now (does not have it|would leave it alone \(not managed here\))$/)]);
  const more = Number(/^ {2}\.\.\. and (\d+) more$/m.exec(r.err)?.[1] ?? 0);
  expect(named.length + 1 + more).toBe(foreign.length + 1); // + the hijacked update
  expect(named.length).toBeGreaterThanOrEqual(Math.min(foreign.length, 19));
  expect(r.err).toContain('dq_owner.hijacked: the saved plan would update it, a plan made now does not have it');
  expect(r.err).not.toMatch(STACK_FRAME);
  expect(await writes()).toEqual([]);
  expect(snapshot()).toBe(before);
}, 90_000);

it('removed blocks (destroy = true) naming another namespace\'s and UI-made objects of every kind: plan and apply exit 1 naming each, nothing written', async () => {
  const removed = foreign.map((f, i) => ({ from: `${f.type}.gone${i}`, id: f.id, lifecycle: { destroy: true } }));
  ws.stack('mine', MINE, { removed });
  const before = snapshot();
  await resetCounters();
  const planned = await cli(['plan', '--stack', 'mine', '--out', 'removed.json']);
  const applied = await cli(['apply', '--auto-approve', '--stack', 'mine', '--max-deletes', '100']);
  for (const r of [planned, applied]) {
    expect(r.code).toBe(1);
    foreign.forEach((f, i) => {
      const why = f.whose === 'theirs' ? `is managed by namespace "theirs", not namespace "mine": dqform never deletes it` : `was made in the UI, not by namespace "mine": dqform never deletes it`;
      const line = r.err.split('\n').find((l) => l.startsWith(`Error: ${f.type}.gone${i}: declared removed, but `));
      expect([f.type, f.whose, line]).toEqual([f.type, f.whose, expect.stringContaining(why)]);
    });
    expect(r.err).not.toMatch(STACK_FRAME);
  }
  expect(fs.existsSync(ws.path('removed.json'))).toBe(false);
  expect(await writes()).toEqual([]);
  expect(snapshot()).toBe(before);
}, 90_000);

it.each([
  ['the kinds whose ids carry the namespace tag (refused as the code is resolved)', (f: Foreign) => f.type !== 'dq_alert'],
  ['an alert (its fqn carries no tag: refused by its configId once live state is read)', (f: Foreign) => f.type === 'dq_alert'],
])("import blocks adopting another namespace's objects, %s: plan and apply exit 1 naming each, nothing written", async (_which, pick) => {
  const theirs = foreign.filter((f) => f.whose === 'theirs' && pick(f));
  const resource: Record<string, Record<string, unknown>> = {};
  const imports: { to: string; id: string }[] = [];
  // the declarations: the other namespace's own bodies, under addresses of this stack
  const bodies = theirsDoc().resource;
  for (const f of theirs) {
    const body = { ...Object.values(bodies[f.type])[0] };
    if (f.type === 'dq_ownership') body.owner_id = '${dq_owner.adopted_dq_owner.id}';
    resource[f.type] = { [`adopted_${f.type}`]: body };
    imports.push({ to: `${f.type}.adopted_${f.type}`, id: f.id });
  }
  ws.stack('mine', resource, { import: imports });
  const before = snapshot();
  await resetCounters();
  const planned = await cli(['plan', '--stack', 'mine']);
  const applied = await cli(['apply', '--auto-approve', '--stack', 'mine']);
  for (const r of [planned, applied]) {
    expect(r.code).toBe(1);
    for (const f of theirs) {
      const line = r.err.split('\n').find((l) => l.startsWith(`Error: ${f.type}.adopted_${f.type}: `));
      expect([f.type, line]).toEqual([f.type, expect.stringMatching(/carries the tag of another namespace, not of namespace "mine"|is managed by namespace "theirs", not by namespace "mine"/)]);
    }
    // not a false "does not exist" besides (live state is not read when the code has errors)
    expect(r.err).not.toMatch(/exists to import/);
    expect(r.err).not.toMatch(STACK_FRAME);
  }
  expect(await writes()).toEqual([]);
  expect(snapshot()).toBe(before);
}, 90_000);
