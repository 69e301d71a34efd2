/**
 * `plan` (reconcile.ts) against an in-process emulator, asserted whole: the progress lines it
 * reports, a plan of code with errors (live state not read), the "was the namespace renamed?"
 * warning (and the namespaces of the app's other stacks, which never are candidates), the
 * effects of a rule that depends on what the same plan creates, and the plan's options.
 * (Issue 23: these paths were checked mostly through the CLI.)
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan, workspaceOf } from '../../src/engine/reconcile';

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

const manifest = (ns: string, resource: Record<string, unknown>, stack = ns) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack });
const alert = (name: string) => ({ name, issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#data' } }], settings: { severities: ['SEVERITY_ERROR'] } } });
const CODE = { dq_owner: { team: { title: 'Team' } }, dq_domain: { sales: { name: 'Sales' } }, dq_alert: { orders: alert('Orders') } };

async function planned(ns: string, resource: Record<string, unknown>, opts: Parameters<typeof plan>[2] = {}) {
  const lines: string[] = [];
  const p = await plan(client, manifest(ns, resource), { ...opts, onProgress: (l) => lines.push(l) });
  return { p, lines };
}

test('the workspace comes from the credentials', async () => {
  expect(await workspaceOf(client)).toBe('demo');
});

test('a plan reads live state of its namespace and says so; with nothing to preview, that is all it says', async () => {
  const { p, lines } = await planned('pip-read', CODE);
  expect(lines).toEqual(['reading live state of namespace "pip-read" in workspace "demo"']);
  expect(p.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create dq_alert.orders', 'create dq_domain.sales', 'create dq_owner.team']);
  expect([p.workspace, p.namespace, p.stack, p.diagnostics]).toEqual(['demo', 'pip-read', 'pip-read', []]);
  expect(p.options).toEqual({ destroy: false, refreshOnly: false, targets: [], replace: [] });
  expect(p.manifestHash).toMatch(/^[0-9a-f]{64}$/);
});

test('code with errors: live state is not read, the plan carries the errors and no changes', async () => {
  const { p, lines } = await planned('pip-errors', { dq_owner: { team: { title: 'T', titel: 'x' } } });
  expect(lines).toEqual([]);
  expect(p.changes).toEqual([]);
  expect(p.diagnostics.map((d) => [d.severity, d.summary])).toEqual([['error', 'titel: unknown field "titel" (did you mean "title"?)']]);
});

test('a request is planned and recorded: --target keeps the target and says so', async () => {
  const { p } = await planned('pip-target', CODE, { request: { destroy: false, refreshOnly: false, targets: ['dq_owner.team'], replace: [] } });
  expect(p.changes.map((c) => c.address)).toEqual(['dq_owner.team']);
  expect(p.options.targets).toEqual(['dq_owner.team']);
  expect(p.diagnostics.map((d) => d.summary)).toEqual(['resource targeting is in effect: this plan holds only the changes of dq_owner.team and of what it depends on']);
});

describe('credentials that cannot read every kind', () => {
  const scopes = ['SCOPE_OWNERS_READ', 'SCOPE_DOMAIN_READ', 'SCOPE_DATAPRODUCT_READ', 'SCOPE_OWNERSHIP_READ', 'SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_INTEGRATION_READ', 'SCOPE_POLICIES_READ', 'SCOPE_SAVED_VIEW_READ'];
  let blind: PlatformClient;
  beforeAll(() => {
    emu.app.addCredential('pip-no-alerts', 'pip-no-alerts-secret', scopes, 'demo');
    blind = PlatformClient.create({ baseUrl: emu.url, clientId: 'pip-no-alerts', clientSecret: 'pip-no-alerts-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });
  });
  afterAll(() => blind.close());

  test('a kind the stack does not declare is skipped with a warning; the rest is planned', async () => {
    const lines: string[] = [];
    const p = await plan(blind, manifest('pip-blind', { dq_owner: { team: { title: 'Team' } } }), { onProgress: (l) => lines.push(l) });
    expect(p.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create dq_owner.team']);
    expect(p.diagnostics).toEqual([
      {
        severity: 'warning',
        summary: 'these credentials cannot read alerts (they need one of SCOPE_ALERTS_READ): alerts of namespace "pip-blind" that the code no longer declares are not listed, nor deleted',
        hint: 'Plan with a credential that has one of SCOPE_ALERTS_READ to see them.',
      },
    ]);
    expect(lines).toEqual(['reading live state of namespace "pip-blind" in workspace "demo"']);
  });

  test('a kind the stack declares: an error, and live state is not read', async () => {
    const lines: string[] = [];
    const p = await plan(blind, manifest('pip-blind2', { dq_alert: { orders: alert('Orders') } }), { onProgress: (l) => lines.push(l) });
    // planned against no live state (the plan has errors and cannot be applied)
    expect(p.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create dq_alert.orders']);
    expect(p.diagnostics.map((d) => [d.severity, d.summary])).toEqual([['error', 'these credentials cannot read alerts (they need one of SCOPE_ALERTS_READ), and this stack declares some']]);
    expect(lines).toEqual([]);
  });
});

describe('a renamed namespace', () => {
  beforeAll(async () => {
    const { p } = await planned('pip-old', CODE);
    const r = await apply(client, p);
    expect(r.failed).toEqual([]);
  });

  test('a stack whose namespace owns nothing, while another owns its addresses, is warned, word for word', async () => {
    const { p } = await planned('pip-new', CODE);
    expect(p.changes.filter((c) => c.action !== 'unmanaged').map((c) => `${c.action} ${c.address}`)).toEqual(['create dq_alert.orders', 'create dq_domain.sales', 'create dq_owner.team']);
    expect(p.diagnostics).toEqual([
      {
        severity: 'warning',
        summary: 'namespace "pip-new" owns nothing here, but namespace "pip-old" owns 3 object(s) at the same addresses (dq_alert.orders, dq_domain.sales, dq_owner.team): was the namespace renamed?',
        hint: 'To keep managing those objects, set the namespace back to "pip-old". Ids and configIds carry their namespace, so "pip-new" cannot take them over: applying this plan creates new objects beside them. To migrate, apply here, then delete the old ones by planning namespace "pip-new" with nothing declared (or dqform destroy there).'.replace(
          'planning namespace "pip-new"',
          'planning namespace "pip-old"',
        ),
      },
    ]);
  });

  test('fewer than half the addresses found: no warning', async () => {
    const { p } = await planned('pip-new2', { ...CODE, dq_owner: { a: { title: 'A' }, b: { title: 'B' }, c: { title: 'C' } } });
    expect(p.diagnostics).toEqual([]);
  });

  test('the namespace of another stack of the app (or on another platform) is never a candidate', async () => {
    expect((await planned('pip-new3', CODE, { appNamespaces: ['pip-old'] })).p.diagnostics).toEqual([]);
    const sibling = { stack: 'old', namespace: 'pip-old', manifest: manifest('pip-old', {}, 'old') };
    expect((await planned('pip-new4', CODE, { siblings: [sibling] })).p.diagnostics).toEqual([]);
  });

  test('a stack that owns something, or declares nothing, is not checked', async () => {
    expect((await planned('pip-old', CODE)).p.diagnostics).toEqual([]);
    expect((await planned('pip-empty', {})).p.diagnostics).toEqual([]);
  });
});

describe('rule changes', () => {
  const rule = { title: 'Orders monitors', product_config: { product_id: '${dq_data_product.p.entity_id}', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } };

  test('a rule that depends on a data product the same plan creates: known after apply, no preview asked', async () => {
    const { p, lines } = await planned('pip-rule', { dq_data_product: { p: { title: 'P' } }, dq_monitor_deployment_rule: { r: rule } });
    const r = p.changes.find((c) => c.address === 'dq_monitor_deployment_rule.r')!;
    expect(r.action).toBe('create');
    expect(r.effects?.afterApply).toBe('it depends on dq_data_product.p, which this plan creates; the platform can preview it only once that exists');
    expect(r.effects?.source).toBe('deploy-overview');
    expect(lines).toEqual(['reading live state of namespace "pip-rule" in workspace "demo"']);
  });

  test('once the product exists, the rule is previewed by the platform: one line says so', async () => {
    const first = await planned('pip-rule2', { dq_data_product: { p: { title: 'P' } } });
    expect((await apply(client, first.p)).failed).toEqual([]);
    const { p, lines } = await planned('pip-rule2', { dq_data_product: { p: { title: 'P' } }, dq_monitor_deployment_rule: { r: rule } });
    expect(lines).toEqual(['reading live state of namespace "pip-rule2" in workspace "demo"', 'asking the platform what 1 rule change(s) would do']);
    const r = p.changes.find((c) => c.address === 'dq_monitor_deployment_rule.r')!;
    expect(r.effects?.afterApply).toBeUndefined();
    expect(r.effects?.source).toBe('deploy-overview');
  });
});
