/**
 * Issue 10 acceptance: objects holding what this version does not model never fail a read.
 * UI-made objects with an unknown target kind, an unknown metric number and a `null` template
 * (plus a rule and a domain of this very namespace that carry something unknown, which pruning
 * would otherwise delete), and SQL tests and a SQL-test rule whose template tests hold what
 * dqform's test shapes cannot (a `selectColumns`, a bound written as a string literal, a test
 * kind this version does not know), are seeded straight into the emulator's store, as a newer platform
 * would hold them. Plan and drift succeed and list them ("cannot be managed by this version:
 * ..."); apply never writes them; a stack that declares one is refused with an error naming the
 * address and the unknown part. Runs in both `npm test` passes (also with the gateway encoding).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { deriveId } from '../../src/engine/identity';
import { startEmulator } from '../../src/emulator';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const NS = 'tolerant';
const AT = '2026-01-01T00:00:00.000Z';
let emu: Emu;
let dir: string;

const PAGER = '5eed2200-0000-4000-8000-000000000001';
const NOTEMPLATE = '5eed2200-0000-4000-8000-000000000002';
const UI_RULE = '5eed2200-0000-4000-8000-000000000003';
const OUR_RULE = '5eed2200-0000-4000-8000-000000000004';
const OUR_DOMAIN = deriveId('demo', NS, 'dq_domain', 'newer');
const OUR_TEST = deriveId('demo', NS, 'dq_sql_test', 'newer_test');
const UI_TEST_RULE = '5eed2200-0000-4000-8000-000000000005';
const UI_KIND_TEST = 'ui-count-distinct';
const ORDERS = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } };
const PLATFORM = { warehouseAccount: { account: 'acme-retail', database: 'wh-prod' } };

const issue = (targets: unknown[]) => ({ trigger: { resolverQl: 'with_type("table")', renderedResolverQl: 'with_type("table")' }, targets, settings: { severities: ['SEVERITY_ERROR'] } });
const staticRule = (id: string, extra: Record<string, unknown>) => ({
  rule: { id, title: `rule ${id.slice(-1)}`, staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 9] }, ...extra },
  seq: 1000,
  createdAt: AT,
  updatedAt: AT,
});

/** What a newer platform holds, written where the emulator keeps it. */
function seed(): void {
  const store = emu.app.store.workspace('demo');
  const alerts = store.collection<Record<string, unknown>>('alerts');
  const fqns = store.collection<{ id: string }>('alertFqns');
  alerts.put(PAGER, { id: PAGER, fqn: 'ui.pager', name: 'Paged (UI)', createdAt: AT, isDisabled: false, source: 'SOURCE_APP', issueLifecycle: issue([{ pagerDuty: { serviceKey: 'pd-1' } }]) });
  fqns.put('ui.pager', { id: PAGER });
  alerts.put(NOTEMPLATE, { id: NOTEMPLATE, fqn: 'ui.no-template', name: 'No template (UI)', createdAt: AT, isDisabled: false, source: 'SOURCE_APP', template: null, issueLifecycle: issue([{ slack: { channel: '#ui' } }]) });
  fqns.put('ui.no-template', { id: NOTEMPLATE });
  const rules = store.collection<Record<string, unknown>>('deploymentRules');
  rules.put(UI_RULE, staticRule(UI_RULE, { source: 'SOURCE_APP' }));
  // of this namespace: without the unknown metric it would be pruned by the next apply
  rules.put(OUR_RULE, staticRule(OUR_RULE, { source: 'SOURCE_API', configId: NS }));
  // tagged for this namespace and no longer declared: pruned, were it not for the unknown field
  store.collection<Record<string, unknown>>('domains').put(OUR_DOMAIN, { id: OUR_DOMAIN, name: 'Newer', source: 'SOURCE_NATIVE', createdAt: AT, updatedAt: AT, dataContract: { version: 2 } });
  // SQL tests: of this namespace with a field of NotNullTest dqform does not model (pruned otherwise),
  // and a UI-made one of a test kind this version does not know
  const tests = store.collection<Record<string, unknown>>('sqlTests');
  tests.put(OUR_TEST, { id: OUR_TEST, name: 'ids', platform: PLATFORM, configId: NS, source: 'SOURCE_API', timezone: 'UTC', template: { identifier: ORDERS, notNullTest: { columnNames: ['order_id'], selectColumns: ['order_id', 'status'] } } });
  tests.put(UI_KIND_TEST, { id: UI_KIND_TEST, name: 'distinct', platform: PLATFORM, source: 'SOURCE_APP', timezone: 'UTC', template: { identifier: ORDERS, countDistinctTest: { columnName: 'status', expected: '3' } } });
  // a UI-made SQL-test rule whose bound is a string literal (dqform models numeric expressions)
  store.collection<Record<string, unknown>>('sqlTestDeploymentRules').put(UI_TEST_RULE, {
    id: UI_TEST_RULE,
    title: 'bounds (UI)',
    source: 'SOURCE_APP',
    staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', tests: [{ name: 'bounds', minMaxTest: { columnName: 'amount', minValue: { stringLiteral: '0' }, maxValue: { expression: '10' } } }] },
  });
}

/** Every object the seed wrote, with its version: apply must leave them all as they are. */
function snapshot(): Record<string, unknown> {
  const store = emu.app.store.workspace('demo');
  const pick = (c: string, id: string) => store.collection<Record<string, unknown>>(c).get(id);
  return {
    PAGER: pick('alerts', PAGER),
    NOTEMPLATE: pick('alerts', NOTEMPLATE),
    UI_RULE: pick('deploymentRules', UI_RULE),
    OUR_RULE: pick('deploymentRules', OUR_RULE),
    OUR_DOMAIN: pick('domains', OUR_DOMAIN),
    OUR_TEST: pick('sqlTests', OUR_TEST),
    UI_KIND_TEST: pick('sqlTests', UI_KIND_TEST),
    UI_TEST_RULE: pick('sqlTestDeploymentRules', UI_TEST_RULE),
  };
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  seed();
});
afterAll(async () => {
  await emu.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-tolerant-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
function write(resources: Record<string, unknown>) {
  const stackDir = path.join(dir, 'out', 'stacks', NS);
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: NS }] }, resource: resources }));
}
const ok = { dq_alert: { ok: { name: 'OK', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#ok' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } };

const LISTED: RegExp[] = [
  /dq_alert\["ui\.pager"\] \(alert "[^"]+"\): cannot be managed by this version: unknown variant "pagerDuty" at issueLifecycle\.targets\[0\]/,
  new RegExp(`dq_monitor_deployment_rule\\["${UI_RULE}"\\] \\([^)]+\\): cannot be managed by this version: unknown enum value 9 at staticConfig\\.metricIds\\[1\\]`),
  new RegExp(`dq_monitor_deployment_rule\\["${OUR_RULE}"\\] \\([^)]+\\): cannot be managed by this version: unknown enum value 9 at staticConfig\\.metricIds\\[1\\]`),
  new RegExp(`dq_domain\\["${OUR_DOMAIN}"\\] \\([^)]+\\): cannot be managed by this version: unknown field dataContract`),
  /dq_alert\["ui\.no-template"\] \(alert "No template \(UI\)"\): made in the UI/,
  new RegExp(`dq_sql_test\\["${OUR_TEST}"\\] \\(.*?\\): cannot be managed by this version: unknown field template\\.notNullTest\\.selectColumns`),
  /dq_sql_test\["ui-count-distinct"\] \(.*?\): cannot be managed by this version: unknown variant "countDistinctTest" at template/,
  new RegExp(`dq_sql_test_deployment_rule\\["${UI_TEST_RULE}"\\] \\(.*?\\): cannot be managed by this version: staticConfig\\.tests\\[0\\]\\.minMaxTest\\.minValue is not a number`),
];

test('plan and drift succeed and list what this version cannot manage; apply never writes it', async () => {
  write(ok);
  const before = snapshot();
  // --show-unmanaged: the UI-made object with a null template is listed too (by default it is counted)
  const plan = await cli(['plan', '--stack', NS, '--show-unmanaged', '--out', path.join(dir, 'plan.json')]);
  expect(plan.err).not.toMatch(/^Error/m);
  expect(plan.code).toBe(0);
  if (process.env.SHOW) console.log(plan.out);
  for (const re of LISTED) expect(plan.out).toMatch(re);
  // one create (the declared alert); the namespace's own rule and domain are NOT destroyed
  expect(plan.out).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy/);
  const saved = JSON.parse(fs.readFileSync(path.join(dir, 'plan.json'), 'utf8')) as { changes: { address: string; action: string; reasons: string[] }[] };
  const listed = saved.changes.filter((c) => c.reasons.some((r) => r.startsWith('cannot be managed by this version')));
  expect(listed.map((c) => c.action)).toEqual(Array(7).fill('unmanaged'));

  const drift = await cli(['drift', '--stack', NS, '--show-unmanaged']);
  expect(drift.code).toBe(2); // the declared alert does not exist yet: drift, not an error
  for (const re of LISTED) expect(drift.out).toMatch(re);

  const apply = await cli(['apply', path.join(dir, 'plan.json')]);
  expect(apply.err).not.toMatch(/^Error/m);
  expect(apply.code).toBe(0);
  expect(apply.out).toMatch(/1 applied, 0 failed/);
  expect(snapshot()).toEqual(before);

  // the next plan is empty, still listing them
  const again = await cli(['plan', '--stack', NS, '--detailed-exitcode', '--show-unmanaged']);
  expect(again.code).toBe(0);
  for (const re of LISTED) expect(again.out).toMatch(re);
  expect(snapshot()).toEqual(before);
});

test.each([
  {
    reason: 'an alert with an unknown target kind (adopted by an import block)',
    code: { dq_alert: { paged: { name: 'Paged', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#x' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } },
    extra: { import: [{ to: 'dq_alert.paged', id: 'ui.pager' }] },
    error: /dq_alert\.paged: the alert "ui\.pager" cannot be managed by this version: unknown variant "pagerDuty" at issueLifecycle\.targets\[0\]/,
  },
  {
    reason: "a rule of this namespace with an unknown metric (its id pinned)",
    code: { dq_monitor_deployment_rule: { newer: { id: OUR_RULE, title: 'rule 4', static_config: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } } } },
    extra: {},
    error: new RegExp(`dq_monitor_deployment_rule\\.newer: the monitor deployment rule "${OUR_RULE}" cannot be managed by this version: unknown enum value 9`),
  },
  {
    reason: 'a SQL test of this namespace whose template holds a field dqform does not model',
    code: { dq_sql_test: { newer_test: { name: 'ids', platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } }, template: { identifier: { warehouse_account_table: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } }, not_null: { columns: ['order_id'] } } } } },
    extra: {},
    error: new RegExp(`dq_sql_test\\.newer_test: the SQL test "${OUR_TEST}" cannot be managed by this version: unknown field template\\.notNullTest\\.selectColumns`),
  },
])('a stack that declares $reason: plan refuses, naming the address and the unknown part; nothing written', async ({ code, extra, error }) => {
  const stackDir = path.join(dir, 'out', 'stacks', NS);
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: NS }] }, resource: code, ...extra }));
  const before = snapshot();
  const plan = await cli(['plan', '--stack', NS]);
  expect(plan.code).toBe(1);
  expect(`${plan.out}\n${plan.err}`).toMatch(error);
  const apply = await cli(['apply', '--stack', NS, '--auto-approve']);
  expect(apply.code).toBe(1);
  expect(snapshot()).toEqual(before);
});
