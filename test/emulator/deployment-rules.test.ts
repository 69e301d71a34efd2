/**
 * Automated-monitor deployment rules over real HTTP against the demo catalog: computed deploy
 * and delete overviews (create, delete, settings change, exclusive, product, keep flags),
 * deploy + overview agreement, list paging and filters, batch per-item errors, batch get,
 * rules by asset path, scopes.
 *
 * @gateway
 */
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { DeploymentOverviewResponse, DeployOverviewRequest, ListDeploymentRulesResponse } from '../../schemas/platform/deployment-rules';
import { readClean, toQuery } from '../../schemas/platform/wire';
import { ListEntitiesResponse, type Entity } from '../../schemas/platform/entities';
import { call, expectStatus, tokenFor } from './core-helpers';

const BASE = '/api/monitors/automated/v1';
const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;

type Json = Record<string, unknown>;
const settings = { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] };
const queryRule = (n: number, resolverQl: string, extra: Json = {}): Json & { id: string } => ({ id: uid(n), title: `rule ${n}`, queryConfig: { resolverQl, ...settings, ...extra } });

let emu: RunningEmulator;
let admin: string;
let reader: string;
let entities: Entity[];

const byPrefix = (prefix: string, pred: (e: Entity) => boolean = () => true) =>
  entities.filter((e) => e.path.startsWith(prefix) && pred(e)).map((e) => e.path).sort();

/** The rule's scalar fields as dotted query parameters (`deploymentRule.queryConfig.metricIds=1`). */
const dotted = (rule: Json) =>
  toQuery(DeployOverviewRequest, { deploymentRule: rule })
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
async function overview(rule: Json, token = admin) {
  const r = await call(emu.url, 'GET', `${BASE}/deployment-rule?${dotted(rule)}`, { token });
  expect(r.status).toBe(200);
  // read as the client reads it: under --marshal emit-unpopulated, `metricOptions: []` is absent
  return DeploymentOverviewResponse.parse(readClean(DeploymentOverviewResponse, r.body).value).overview;
}
/** The asset paths a deployed rule monitors (product rules with message markers have no REST overview form). */
async function placed(rule: Json & { id?: unknown }): Promise<string[]> {
  await deploy(rule);
  return emu.app.store
    .workspace('demo')
    .collection<{ ruleId: string; assetPath: string; kept?: boolean }>('monitors')
    .filter((m) => m.ruleId === rule.id && !m.kept)
    .map((m) => m.assetPath)
    .sort();
}
async function deletedOverview(id: string) {
  const r = await call(emu.url, 'GET', `${BASE}/deployment-rule/${id}/deleted`, { token: admin });
  expect(r.status).toBe(200);
  // read as the client reads it: under --marshal emit-unpopulated, `metricOptions: []` is absent
  return DeploymentOverviewResponse.parse(readClean(DeploymentOverviewResponse, r.body).value).overview;
}
async function deploy(rule: Json) {
  const r = await call(emu.url, 'POST', `${BASE}/deployment-rules/deployed`, { token: admin, body: { deploymentRule: rule } });
  expect(r.body).toEqual({});
  expect(r.status).toBe(200);
}
async function listAll(query = '', pageSize = 100) {
  const rules: Json[] = [];
  let cursor = '';
  let pages = 0;
  for (;;) {
    const sep = query ? `${query}&` : '';
    const r = await call(emu.url, 'GET', `${BASE}/deployment-rules?${sep}pagination.pageSize=${pageSize}${cursor ? `&pagination.cursor=${cursor}` : ''}`, { token: reader });
    expect(r.status).toBe(200);
    const page = ListDeploymentRulesResponse.parse(r.body);
    rules.push(...(page.deploymentRules as Json[]));
    pages++;
    cursor = page.pageInfo?.lastId ?? '';
    if (!cursor) return { rules, pages };
  }
}
async function monitorCount(id: string): Promise<number> {
  const r = await call(emu.url, 'GET', `${BASE}/deployment-rules/batch?ids=${id}`, { token: admin });
  return r.body.deploymentRules[id].monitorCount;
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
  const r = await call(emu.url, 'GET', '/api/entities/v1?pagination.pageSize=1000', { token: reader });
  entities = ListEntitiesResponse.parse(r.body).entities;
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  const r = await call(emu.url, 'POST', '/__emulator/reset', { body: {} });
  expect(r.status).toBe(200);
});

const MART = 'in_folder("folder-wh-prod::mart")';

describe('deploy overview', () => {
  test('a new rule creates a monitor on every table and view it selects, paths sorted', async () => {
    const o = await overview(queryRule(1, MART));
    const mart = byPrefix('wh-prod::mart::');
    expect(mart.length).toBeGreaterThan(10);
    expect(o.monitorsToCreateFor).toEqual(mart);
    expect(o.monitorsToDeleteFor).toEqual([]);
    expect(o.activeMonitorsFor).toEqual([]);
    expect(o.monitorSettingsChanges).toEqual([]);
    expect(o.skippedAssets).toEqual([]);
  });

  test('assets that are not tables or views are skipped with a reason', async () => {
    const o = await overview(queryRule(1, 'with_name("fct_orders")'));
    expect(o.monitorsToCreateFor).toEqual(['wh-dev::mart::fct_orders', 'wh-prod::mart::fct_orders']);
    const skipped = o.skippedAssets.map((s) => s.assetPath);
    expect(skipped).toContain('transform-core::retail::models::marts::fct_orders');
    expect(skipped).toEqual([...skipped].sort());
    for (const s of o.skippedAssets) expect(s.reason).toMatch(/not monitorable: ENTITY_TYPE_TRANSFORM_CORE/);
  });

  test('after deploy, the overview of the same rule shows everything active and nothing to do', async () => {
    const rule = queryRule(1, MART);
    await deploy(rule);
    const o = await overview(rule);
    expect(o.activeMonitorsFor).toEqual(byPrefix('wh-prod::mart::'));
    expect(o.monitorsToCreateFor).toEqual([]);
    expect(o.monitorsToDeleteFor).toEqual([]);
    expect(o.monitorSettingsChanges).toEqual([]);
    expect(await monitorCount(uid(1))).toBe(byPrefix('wh-prod::mart::').length);
  });

  test('a settings change lists every monitor with original and new settings', async () => {
    await deploy(queryRule(1, MART));
    const o = await overview(queryRule(1, MART, { severity: 'SEVERITY_WARNING', metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT'] }));
    expect(o.monitorsToCreateFor).toEqual([]);
    expect(o.monitorsToDeleteFor).toEqual([]);
    expect(o.monitorSettingsChanges.map((c) => c.monitoredAssetPath)).toEqual(byPrefix('wh-prod::mart::'));
    expect(o.monitorSettingsChanges[0].originalSettings).toEqual({ severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] });
    expect(o.monitorSettingsChanges[0].newSettings).toEqual({ severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] });
  });

  test('metric order alone is not a settings change', async () => {
    await deploy(queryRule(1, MART));
    const o = await overview(queryRule(1, MART, { metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT'] }));
    expect(o.monitorSettingsChanges).toEqual([]);
    expect(o.activeMonitorsFor).toHaveLength(byPrefix('wh-prod::mart::').length);
  });

  const narrowed = 'in_folder("folder-wh-prod::mart", types=["table"])';
  const isView = (e: Entity) => e.type.endsWith('_VIEW');
  test.each([
    { keep: false, reason: 'narrowing a rule deletes the monitors of the assets it drops' },
    { keep: true, reason: 'keepDeletedMonitors keeps them: they stay active' },
  ])('$reason', async ({ keep }) => {
    await deploy(queryRule(1, MART));
    const o = await overview(queryRule(1, narrowed, keep ? { keepDeletedMonitors: true } : {}));
    const views = byPrefix('wh-prod::mart::', isView);
    const tables = byPrefix('wh-prod::mart::', (e) => !isView(e));
    expect(views.length).toBeGreaterThan(0);
    expect(o.monitorsToCreateFor).toEqual([]);
    expect(o.monitorsToDeleteFor).toEqual(keep ? [] : views);
    expect(o.activeMonitorsFor).toEqual(keep ? byPrefix('wh-prod::mart::') : tables);
  });

  test('an asset already monitored by an earlier rule is skipped, naming that rule', async () => {
    await deploy(queryRule(1, MART));
    const o = await overview(queryRule(2, 'with_name("fct_orders")'));
    expect(o.monitorsToCreateFor).toEqual(['wh-dev::mart::fct_orders']);
    const s = o.skippedAssets.find((x) => x.assetPath === 'wh-prod::mart::fct_orders');
    expect(s?.reason).toContain(uid(1));
  });

  test.each([
    { name: 'static path', rule: { id: uid(9), title: 'no fct_orders', exclusiveStaticConfig: { path: 'wh-prod::mart::fct_orders' } }, removed: ['wh-prod::mart::fct_orders'] },
    {
      name: 'query',
      rule: { id: uid(9), title: 'no pii', exclusiveQueryConfig: { resolverQl: 'with_annotation("pii","true")' } },
      removed: byPrefixLazy('wh-prod::mart::', (e) => e.annotations.some((a) => a.name === 'pii' && a.value === 'true')),
    },
  ])('an exclusive rule ($name) removes the assets it matches from other rules', async ({ rule, removed }) => {
    const expected = typeof removed === 'function' ? removed() : removed;
    expect(expected.length).toBeGreaterThan(0);
    await deploy(queryRule(1, MART));
    const o = await overview(rule);
    expect(o.monitorsToDeleteFor).toEqual(expected);
    expect(o.monitorsToCreateFor).toEqual([]);
    expect(o.activeMonitorsFor).toEqual([]);
    await deploy(rule);
    expect(await monitorCount(uid(1))).toBe(byPrefix('wh-prod::mart::').length - expected.length);
    const again = await overview(queryRule(1, MART));
    expect(again.monitorsToCreateFor).toEqual([]);
    const excluded = again.skippedAssets.filter((s) => s.reason.includes('excluded by exclusive'));
    expect(excluded.map((s) => s.assetPath)).toEqual(expected);
    expect(excluded[0].reason).toContain(uid(9));
  });

  test('static rules: an exact asset path, an asset-path prefix, a folder key, nothing', async () => {
    const cases = [
      { path: 'wh-prod::mart::dim_dates', want: ['wh-prod::mart::dim_dates'], reason: 'exact asset path' },
      { path: 'wh-dev::raw', want: byPrefix('wh-dev::raw::'), reason: 'asset-path prefix covers the assets below it' },
      { path: 'folder-wh-dev::staging', want: byPrefix('wh-dev::staging::'), reason: 'folder key, deep' },
      { path: 'nowhere::at::all', want: [], reason: 'no match: nothing, reported as skipped' },
    ];
    for (const c of cases) {
      const o = await overview({ id: uid(3), title: 'static', staticConfig: { path: c.path, ...settings } });
      expect({ reason: c.reason, got: o.monitorsToCreateFor }).toEqual({ reason: c.reason, got: c.want });
      if (c.want.length === 0) expect(o.skippedAssets).toEqual([{ assetPath: c.path, reason: expect.stringContaining('no catalog asset') }]);
    }
  });
});

function byPrefixLazy(prefix: string, pred: (e: Entity) => boolean): () => string[] {
  return () => byPrefix(prefix, pred);
}

describe('product rules', () => {
  const productId = uid(0xd0);
  async function makeProduct(paths: string[]) {
    const parts = paths.map((p) => ({ entityId: entities.find((e) => e.path === p)!.entityId }));
    const r = await call(emu.url, 'POST', '/api/dataproducts/v2', { token: admin, body: { id: productId, title: 'Revenue', definition: { parts } } });
    expect(r.status).toBe(200);
  }
  const productRule = (extra: Json = {}): Json => ({ id: uid(5), title: 'revenue product', productConfig: { productId, ...settings, ...extra } });
  const revenueSources = ['order_items', 'orders', 'payments', 'promotions', 'refunds', 'returns'].map((n) => `wh-prod::raw::${n}`);

  test.each([
    { extra: {}, want: () => ['wh-prod::mart::agg_daily_revenue', 'wh-prod::mart::fct_orders'], reason: 'self (default all): the product assets' },
    {
      extra: { self: { selection: { query: { parts: [{ withNameSearch: { searchQuery: 'agg_' } }] } } } },
      want: () => ['wh-prod::mart::agg_daily_revenue'],
      reason: 'self selection: the product assets the query selects',
    },
    {
      extra: { upstream: { sources: {} } },
      want: () => [...revenueSources, 'wh-prod::mart::agg_daily_revenue', 'wh-prod::mart::fct_orders'].sort(),
      reason: 'upstream sources: plus the most upstream tables',
    },
  ])('$reason', async ({ extra, want }) => {
    await makeProduct(['wh-prod::mart::agg_daily_revenue', 'wh-prod::mart::fct_orders']);
    // the REST overview form carries scalar leaves only: an `upstream`/`self` marker has none
    if (Object.keys(extra).length === 0) expect((await overview(productRule(extra))).monitorsToCreateFor).toEqual(want());
    expect(await placed(productRule(extra))).toEqual(want());
  });

  test('upstream all: plus every table and view upstream in the lineage', async () => {
    await makeProduct(['wh-prod::mart::agg_daily_revenue']);
    const start = entities.find((e) => e.path === 'wh-prod::mart::agg_daily_revenue')!;
    const lin = await call(emu.url, 'POST', '/api/lineage/v1', { token: admin, body: { startPoint: { entities: { entities: [start.id] } }, lineageDirection: 'LINEAGE_DIRECTION_UPSTREAM' } });
    expect(lin.status).toBe(200);
    const upstream = (lin.body.lineage.nodes as { ids: { entityId: string }[] }[])
      .map((n) => entities.find((e) => e.entityId === n.ids[0].entityId)!)
      .filter((e) => /_(TABLE|VIEW)$/.test(e.type))
      .map((e) => e.path)
      .sort();
    expect(upstream.length).toBeGreaterThan(6);
    expect(await placed(productRule({ upstream: { all: {} } }))).toEqual(upstream);
  });

  test('a rule naming a missing data product is refused (FAILED_PRECONDITION)', async () => {
    const r = await call(emu.url, 'POST', `${BASE}/deployment-rules/deployed`, { token: admin, body: { deploymentRule: productRule() } });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 9).message).toContain(productId);
  });
});

describe('delete', () => {
  test.each([
    { keep: false, reason: 'the delete overview lists the monitors deleting removes; delete removes them' },
    { keep: true, reason: 'keepDeletedMonitors: the overview shows them active; delete keeps them' },
  ])('$reason', async ({ keep }) => {
    const rule = queryRule(1, MART, keep ? { keepDeletedMonitors: true } : {});
    await deploy(rule);
    const mart = byPrefix('wh-prod::mart::');
    const o = await deletedOverview(uid(1));
    expect(o.monitorsToDeleteFor).toEqual(keep ? [] : mart);
    expect(o.activeMonitorsFor).toEqual(keep ? mart : []);
    expect(o.monitorsToCreateFor).toEqual([]);
    const d = await call(emu.url, 'DELETE', `${BASE}/deployment-rule/${uid(1)}`, { token: admin });
    expect(d.status).toBe(200);
    expect((await listAll()).rules).toEqual([]);
    const byAsset = await call(emu.url, 'GET', `${BASE}/deployment-rules/${encodeURIComponent(mart[0])}`, { token: admin });
    expect(byAsset.body.deploymentRules).toEqual([]);
    // a rule redeployed over the same assets creates fresh monitors either way
    const again = await overview(queryRule(2, MART));
    expect(again.monitorsToCreateFor).toEqual(mart);
  });

  test('deleting a rule frees its assets for later rules (shown as monitors to create)', async () => {
    await deploy(queryRule(1, MART));
    await deploy(queryRule(2, 'with_name("fct_orders")'));
    expect(await monitorCount(uid(2))).toBe(1);
    const o = await deletedOverview(uid(1));
    expect(o.monitorsToDeleteFor).toEqual(byPrefix('wh-prod::mart::'));
    expect(o.monitorsToCreateFor).toEqual(['wh-prod::mart::fct_orders']);
    await call(emu.url, 'DELETE', `${BASE}/deployment-rule/${uid(1)}`, { token: admin });
    expect(await monitorCount(uid(2))).toBe(2);
  });

  test('deleting a missing rule is a no-op; its delete overview is NOT_FOUND', async () => {
    const d = await call(emu.url, 'DELETE', `${BASE}/deployment-rule/${uid(77)}`, { token: admin });
    expect(d.status).toBe(200);
    const o = await call(emu.url, 'GET', `${BASE}/deployment-rule/${uid(77)}/deleted`, { token: admin });
    expect(o.status).toBe(404);
    expectStatus(o.body, 5);
  });
});

describe('reads', () => {
  test('list pages over several pages and filters by ruleIds, configsFilter.ids, sources', async () => {
    const rules = Array.from({ length: 7 }, (_, i) => ({
      ...queryRule(i + 1, `with_name("stg_${['orders', 'customers', 'payments', 'products', 'events', 'sessions', 'refunds'][i]}")`),
      configId: i % 2 ? 'cfg-b' : 'cfg-a',
      source: i === 6 ? 'SOURCE_APP' : undefined,
    }));
    const r = await call(emu.url, 'POST', `${BASE}/deployment-rules/batch/deployed`, { token: admin, body: { deploymentRules: rules } });
    expect(r.body).toEqual({ deployedIds: rules.map((x) => x.id), errors: [] });
    const all = await listAll('', 3);
    expect(all.pages).toBe(3);
    expect(all.rules.map((x) => x.id)).toEqual(rules.map((x) => x.id));
    expect(all.rules[0]).toMatchObject({ source: 'SOURCE_API', configId: 'cfg-a', queryConfig: { renderedResolverQl: 'with_name("stg_orders")' } });
    expect(typeof all.rules[0].monitorCount).toBe('number');
    const cases = [
      { q: `ruleIds=${uid(2)}&ruleIds=${uid(5)}`, want: [uid(2), uid(5)] },
      { q: 'configsFilter.ids=cfg-b', want: [uid(2), uid(4), uid(6)] },
      { q: 'sources=SOURCE_APP', want: [uid(7)] },
      { q: 'sources=1&configsFilter.ids=cfg-a', want: [uid(1), uid(3), uid(5)] },
      // wire-facts 4: `configIds` is deprecated but declared: the platform accepts it
      { q: 'configIds=cfg-b', want: [uid(2), uid(4), uid(6)] },
    ];
    for (const c of cases) expect({ q: c.q, ids: (await listAll(c.q, 2)).rules.map((x) => x.id) }).toEqual({ q: c.q, ids: c.want });
  });

  test('batch get omits missing ids and takes more than 200 (wire-facts 4: no limit declared)', async () => {
    await deploy(queryRule(1, MART));
    await deploy(queryRule(2, 'with_name("stg_orders")'));
    const r = await call(emu.url, 'GET', `${BASE}/deployment-rules/batch?ids=${uid(1)}&ids=${uid(2)}&ids=${uid(99)}`, { token: admin });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.deploymentRules)).toEqual([uid(1), uid(2)]);
    expect(r.body.deploymentRules[uid(1)]).toMatchObject({ id: uid(1), title: 'rule 1', monitorCount: byPrefix('wh-prod::mart::').length });
    const many = Array.from({ length: 201 }, (_, i) => `ids=${uid(i)}`).join('&');
    const big = await call(emu.url, 'GET', `${BASE}/deployment-rules/batch?${many}`, { token: admin });
    expect(big.status).toBe(200);
    expect(Object.keys(big.body.deploymentRules)).toEqual([uid(1), uid(2)]);
  });

  test('rules by asset path: the rules whose monitors cover the asset', async () => {
    await deploy(queryRule(1, MART));
    await deploy(queryRule(2, 'with_name("fct_orders")'));
    const get = (p: string) => call(emu.url, 'GET', `${BASE}/deployment-rules/${encodeURIComponent(p)}`, { token: admin });
    expect((await get('wh-prod::mart::fct_orders')).body.deploymentRules.map((x: Json) => x.id)).toEqual([uid(1)]);
    expect((await get('wh-dev::mart::fct_orders')).body.deploymentRules.map((x: Json) => x.id)).toEqual([uid(2)]);
    expect((await get('wh-prod::raw::orders')).body.deploymentRules).toEqual([]);
  });
});

describe('validation', () => {
  const base = queryRule(1, MART);
  const cases: { rule: Json; reason: string; expect: RegExp }[] = [
    { rule: { ...base, title: '' }, reason: 'title under 1 character', expect: /title/ },
    { rule: { ...base, title: 'x'.repeat(101) }, reason: 'title over 100 characters', expect: /title/ },
    { rule: { ...base, id: 'not-a-uuid' }, reason: 'id not a UUID', expect: /UUID/ },
    { rule: queryRule(1, MART, { metricIds: [] }), reason: 'no metric', expect: /metricIds/ },
    { rule: queryRule(1, MART, { metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_DELAY'] }), reason: 'duplicate metrics', expect: /unique/ },
    { rule: queryRule(1, MART, { metricIds: [0] }), reason: 'zero metric', expect: /refused/ },
    { rule: queryRule(1, MART, { severity: 0 }), reason: 'zero severity', expect: /severity/ },
    { rule: { ...base, staticConfig: { path: 'x', ...settings } }, reason: 'two configs', expect: /exactly one of/ },
    { rule: queryRule(1, 'with_name("x"'), reason: 'bad ResolverQL names the offset', expect: /offset 13/ },
  ];

  test.each(cases)('deploy refuses: $reason', async ({ rule, expect: re }) => {
    const r = await call(emu.url, 'POST', `${BASE}/deployment-rules/deployed`, { token: admin, body: { deploymentRule: rule } });
    expect(r.status).toBe(400);
    const s = expectStatus(r.body, 3);
    expect(s.message).toMatch(re);
    const v = (s.details?.[0] as { violations?: { ruleId: string }[] } | undefined)?.violations;
    expect(v?.length).toBeGreaterThan(0);
    expect(v![0].ruleId).toMatch(/^deploy\./);
  });

  test('batch deploy reports the invalid rule inside a 200 and deploys the others', async () => {
    const good1 = queryRule(1, MART);
    const bad = { ...queryRule(2, 'with_name("orders")'), title: '' };
    const badQl = queryRule(3, 'with_type(');
    const good2 = queryRule(4, 'with_name("stg_orders")');
    const r = await call(emu.url, 'POST', `${BASE}/deployment-rules/batch/deployed`, { token: admin, body: { deploymentRules: [good1, bad, badQl, good2] } });
    expect(r.status).toBe(200);
    expect(r.body.deployedIds).toEqual([uid(1), uid(4)]);
    expect(r.body.errors.map((e: { id: string }) => e.id)).toEqual([uid(2), uid(3)]);
    expect(r.body.errors[0].reason).toMatch(/^INVALID_ARGUMENT: .*deploymentRules\[1\]\.title/);
    expect(r.body.errors[1].reason).toMatch(/^INVALID_ARGUMENT: .*offset/);
    expect((await listAll()).rules.map((x) => x.id)).toEqual([uid(1), uid(4)]);
  });

  test('the deploy overview takes the rule as dotted scalar parameters; a JSON value, an unknown parameter or no rule is 400', async () => {
    const missing = await call(emu.url, 'GET', `${BASE}/deployment-rule`, { token: admin });
    expect(missing.status).toBe(400);
    expect(expectStatus(missing.body, 3).message).toContain('deploymentRule');
    const json = await call(emu.url, 'GET', `${BASE}/deployment-rule?deploymentRule=${encodeURIComponent(JSON.stringify(base))}`, { token: admin });
    expect(json.status).toBe(400);
    expect(expectStatus(json.body, 3).message).toMatch(/"deploymentRule" is a message.*never a JSON value/);
    const nested = await call(emu.url, 'GET', `${BASE}/deployment-rule?${dotted(base)}&deploymentRule.queryConfig=${encodeURIComponent('{"x":1}')}`, { token: admin });
    expect(nested.status).toBe(400);
    const unknown = await call(emu.url, 'GET', `${BASE}/deployment-rule?${dotted(base)}&deploymentRule.colour=red`, { token: admin });
    expect(unknown.status).toBe(400);
    expect(expectStatus(unknown.body, 3).message).toContain('deploymentRule.colour');
    const invalid = await call(emu.url, 'GET', `${BASE}/deployment-rule?${dotted({ ...base, title: '' })}`, { token: admin });
    expect(invalid.status).toBe(400);
    expect(expectStatus(invalid.body, 3).message).toContain('deploymentRule.title');
    const numbers = await call(emu.url, 'GET', `${BASE}/deployment-rule?${dotted(base)}`, { token: admin });
    expect(numbers.status).toBe(200);
    expect(dotted(base)).toContain(`deploymentRule.queryConfig.metricIds=1&deploymentRule.queryConfig.metricIds=2`);
  });
});

describe('scopes', () => {
  test('the reader reads (list, overviews) but cannot deploy or delete (403 naming the edit scope and SCOPE_MCP_WRITE)', async () => {
    await deploy(queryRule(1, MART));
    expect((await listAll()).rules).toHaveLength(1);
    expect((await overview(queryRule(1, MART), reader)).activeMonitorsFor.length).toBeGreaterThan(0);
    const writes = [
      call(emu.url, 'POST', `${BASE}/deployment-rules/deployed`, { token: reader, body: { deploymentRule: queryRule(2, MART) } }),
      call(emu.url, 'POST', `${BASE}/deployment-rules/batch/deployed`, { token: reader, body: { deploymentRules: [] } }),
      call(emu.url, 'DELETE', `${BASE}/deployment-rule/${uid(1)}`, { token: reader }),
    ];
    for (const r of await Promise.all(writes)) {
      expect(r.status).toBe(403);
      // Deploy and Delete take either scope; BatchDeploy only the edit scope (wire-facts section 4)
      expect(expectStatus(r.body, 7).message).toMatch(/SCOPE_MONITORS_AUTOMATIC_EDIT( or SCOPE_MCP_WRITE)?, which/);
    }
    const batchGet = await call(emu.url, 'GET', `${BASE}/deployment-rules/batch?ids=${uid(1)}`, { token: reader });
    expect(batchGet.status).toBe(403);
    expect((await listAll()).rules).toHaveLength(1);
  });
});
