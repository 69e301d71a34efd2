/**
 * `dqform import` round trip for every kind, in both formats, against an in-process emulator:
 * create objects (through the engine's plan and apply), import, load (YAML) or synth (TS, the
 * generated main.ts run with tsx as a child process), plan: every change is noop, or unmanaged
 * for objects that are not the namespace's. With --adopt, UI-made objects come with import blocks:
 * the first plan claims them (update, empty patch), and after apply the plan is empty.
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
import { importNamespace, planImport, slug, type LiveItem } from '../../src/cli/import';
import { main } from '../../src/cli/main';
import type { Manifest } from '../../schemas/manifest';
import type { Plan } from '../../schemas/plan';

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
    alert: { severities: [ALERT_SEVERITY_ERROR], notifyUpstream: true }
  finance_owns_payments:
    owner: finance
    query: 'with_name("payments")'
alerts:
  orders_issues:
    name: Issues on order tables
    issueLifecycle:
      trigger: 'and(with_type("table"),with_name("orders"))'
      targets: [{ owner: data_team }, { email: { recipientEmails: [data@example.com] } }]
      settings: { severities: [ALERT_SEVERITY_ERROR, ALERT_SEVERITY_FATAL], ongoing: { stream: {} } }
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
      recurrenceRule: FREQ=DAILY
      tests: [{ name: id not null, notNull: { columns: [id] } }]
`;

let emu: RunningEmulator;
let client: PlatformClient;
let workDir: string;

async function planOf(m: Manifest): Promise<Plan> {
  return plan(client, m);
}
async function applyAll(m: Manifest): Promise<void> {
  const p = await planOf(m);
  expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const r = await apply(client, p);
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
  // another namespace's alert (must stay unmanaged) and objects made outside any namespace
  await applyAll(manifestFromYaml('namespace: other\nalerts:\n  theirs:\n    name: Theirs\n    incidentLifecycle: { targets: [{ slack: { channel: "#x" } }], settings: { states: [STATE_OPEN] } }\n', { file: 'other.yaml' }));
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
  it('every kind round-trips: plan shows only noop (and unmanaged for other namespaces and UI-made objects)', async () => {
    const tag = `plain-${format}`;
    const r = await importNamespace(client, { namespace: NS, format, constructsModule: constructsModule(tag) });
    expect(r.warnings).toEqual([]);
    expect(r.objects.some((o) => o.adopted)).toBe(false);
    expect([...new Set(r.objects.map((o) => o.type))].sort()).toEqual([...KINDS].sort());
    const m = load(format, r.text, tag);
    const p = await planOf(m);
    expect(p.diagnostics).toEqual([]);
    const a = actions(p);
    expect(Object.keys(a).sort()).toEqual(['noop', 'unmanaged']);
    // every imported object is declared and unchanged
    expect(a.noop.length).toBe(r.objects.length);
    // the other namespace's alert and the UI-made objects are reported, not touched
    expect(a.unmanaged).toEqual(expect.arrayContaining(['dq_alert["other.theirs"]', 'dq_alert["ui.made"]', 'dq_sql_test["ui-test-1"]']));
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

describe.each([
  { format: 'ts' as const, applyIt: false, why: 'TS: adopted objects get importFrom; the plan only claims them' },
  { format: 'yaml' as const, applyIt: true, why: 'YAML: adopted objects get import entries; claim, apply, then no changes' },
])('import --adopt: $why', ({ format, applyIt }) => {
  it('adopts UI-made objects of the prunable kinds', async () => {
    const tag = `adopt-${format}`;
    const r = await importNamespace(client, { namespace: NS, format, adopt: true, constructsModule: constructsModule(tag) });
    const adopted = r.objects.filter((o) => o.adopted).map((o) => `${o.type}:${o.key}`).sort();
    // ours plus the demo seed's UI-made alert
    expect(adopted).toEqual(['dq_alert:ui.made', 'dq_alert:ui.orders-freshness', 'dq_monitor_deployment_rule:6f1c2a8e-0000-4000-8000-000000000001', 'dq_sql_test:ui-test-1']);
    expect(r.text).toContain(format === 'ts' ? ".importFrom('ui.made')" : 'id: ui.made');
    const m = load(format, r.text, tag);
    expect(m.imports.length).toBe(4);
    const p = await planOf(m);
    expect(p.diagnostics).toEqual([]);
    const claims = p.changes.filter((c) => c.action === 'update');
    expect(claims.map((c) => c.importedId).sort()).toEqual(['6f1c2a8e-0000-4000-8000-000000000001', 'ui-test-1', 'ui.made', 'ui.orders-freshness']);
    for (const c of claims) expect(c.patch).toEqual([]);
    expect(p.changes.filter((c) => !['noop', 'unmanaged', 'update'].includes(c.action))).toEqual([]);
    expect(p.changes.find((c) => c.address === 'dq_alert["other.theirs"]')?.action).toBe('unmanaged');
    if (!applyIt) return;
    const res = await apply(client, p);
    expect(res.failed).toEqual([]);
    const again = actions(await planOf(m));
    expect(Object.keys(again).sort()).toEqual(['noop', 'unmanaged']);
    expect(again.unmanaged).toEqual(['dq_alert["other.theirs"]']);
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
    const items = [
      item('dq_owner', 'b0000000-0000-4000-8000-000000000002', { id: 'b0000000-0000-4000-8000-000000000002', title: 'Data' }),
      item('dq_owner', 'a0000000-0000-4000-8000-000000000001', { id: 'a0000000-0000-4000-8000-000000000001', title: 'Data' }),
      item('dq_alert', 'team.data', { fqn: 'team.data', name: 'x', incidentLifecycle: { targets: [{ slack: { channel: '#x' } }], settings: { states: ['STATE_OPEN'] } } }, { configId: 'team' }),
    ];
    const a = planImport(items, { namespace: 'team' }).objects.map((o) => [o.type, o.name, o.key]);
    const b = planImport([...items].reverse(), { namespace: 'team' }).objects.map((o) => [o.type, o.name, o.key]);
    expect(a).toEqual(b);
    expect(a).toEqual([
      ['dq_owner', 'data', 'a0000000-0000-4000-8000-000000000001'],
      ['dq_owner', 'data_2', 'b0000000-0000-4000-8000-000000000002'],
      ['dq_alert', 'data_3', 'team.data'],
    ]);
  });
});

it('dqform import via the CLI: writes the file, exit 0; missing flags: exit 1 with a diagnostic', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-reader', DQ_CLIENT_SECRET: 'demo-secret' }, cwd: workDir, isTty: false };
  expect(await main(['import', '--namespace', NS, '--out', 'cli.yaml'], io)).toBe(0);
  expect(fs.readFileSync(path.join(workDir, 'cli.yaml'), 'utf8')).toMatch(/^# yaml-language-server/);
  expect(out.join('\n')).toMatch(/Imported \d+ object\(s\) of namespace "team" into cli.yaml/);
  expect(await main(['import', '--out', 'x.ts'], io)).toBe(1);
  expect(err.join('\n')).toMatch(/needs --namespace NS and --out FILE/);
  expect(err.join('\n')).not.toContain('demo-secret');
}, 30_000);
