import { Entity as EntitySchema, Lineage as LineageSchema, type Entity } from '../../schemas/platform/entities';
import { buildCatalog, createCatalog, entityIdOf, identifierKey, type Catalog } from '../../src/emulator/catalog';

const demo = buildCatalog('demo');
const must = (c: Catalog, path: string): Entity => {
  const e = c.byPath(path);
  if (!e) throw new Error(`no entity at ${path}`);
  return e;
};

describe('buildCatalog', () => {
  it('is deterministic: two builds are deep-equal', () => {
    const again = buildCatalog('demo');
    expect(again.entities).toEqual(demo.entities);
    expect(again.edges).toEqual(demo.edges);
    expect(again.folders).toEqual(demo.folders);
    expect(buildCatalog('demo', { size: 1200 }).entities).toEqual(buildCatalog('demo', { size: 1200 }).entities);
  });

  it('empty seed has nothing', () => {
    const c = buildCatalog('empty');
    expect(c.entities).toEqual([]);
    expect(c.edges).toEqual([]);
    expect(c.folders).toEqual([]);
  });

  it('demo models a retail workspace of a few hundred valid entities, sorted by path', () => {
    expect(demo.entities.length).toBeGreaterThanOrEqual(200);
    expect(demo.entities.length).toBeLessThan(1000);
    for (const e of demo.entities) expect(EntitySchema.safeParse(e).success).toBe(true);
    const paths = demo.entities.map((e) => e.path);
    expect([...paths].sort()).toEqual(paths);
    expect(new Set(paths).size).toBe(paths.length);
    const types = new Set(demo.entities.map((e) => e.type));
    for (const t of [
      'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE',
      'ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW',
      'ENTITY_TYPE_TRANSFORM_CORE_MODEL',
      'ENTITY_TYPE_TRANSFORM_CORE_SOURCE',
      'ENTITY_TYPE_TRANSFORM_CORE_TEST',
      'ENTITY_TYPE_ORCHESTRATION_DAG',
      'ENTITY_TYPE_ORCHESTRATION_TASK',
      'ENTITY_TYPE_BI_DASHBOARD',
    ]) {
      expect(types).toContain(t);
    }
  });

  it.each([
    { reason: 'a raw table', path: 'wh-prod::raw::orders', type: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE', folder: ['folder-wh-prod', 'raw'], tags: ['commerce', 'raw'] },
    { reason: 'a staging view', path: 'wh-prod::staging::stg_customers', type: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW', folder: ['folder-wh-prod', 'staging'], tags: ['crm', 'staging'] },
    { reason: 'a mart table', path: 'wh-prod::mart::fct_orders', type: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE', folder: ['folder-wh-prod', 'mart'], tags: ['commerce', 'mart'] },
    { reason: 'a dev copy', path: 'wh-dev::raw::orders', type: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE', folder: ['folder-wh-dev', 'raw'], tags: ['commerce', 'dev', 'raw'] },
    { reason: 'a staging model', path: 'transform-core::retail::models::staging::stg_orders', type: 'ENTITY_TYPE_TRANSFORM_CORE_MODEL', folder: ['folder-transform-core', 'retail', 'models', 'staging'], tags: ['commerce', 'staging'] },
    { reason: 'a DAG', path: 'orchestrator::ingest_shop_db', type: 'ENTITY_TYPE_ORCHESTRATION_DAG', folder: ['folder-orchestrator'], tags: ['ingestion'] },
    { reason: 'a task', path: 'orchestrator::ingest_shop_db::load_orders', type: 'ENTITY_TYPE_ORCHESTRATION_TASK', folder: ['folder-orchestrator', 'ingest_shop_db'], tags: ['ingestion'] },
    { reason: 'a dashboard', path: 'bi::retail::revenue_overview', type: 'ENTITY_TYPE_BI_DASHBOARD', folder: ['folder-bi', 'retail'], tags: ['dashboard', 'finance'] },
  ])('has $reason with stable path, type, folder and tags', ({ path, type, folder, tags }) => {
    const e = must(demo, path);
    expect(e.type).toBe(type);
    expect(e.folder).toEqual(folder);
    expect(e.tags).toEqual(tags);
    expect(e.entityId).toBe(entityIdOf(e.id));
    expect(e.annotations.map((a) => a.name)).toEqual(expect.arrayContaining(['owner', 'tier']));
  });

  it('annotates owner, tier and pii', () => {
    const customers = must(demo, 'wh-prod::raw::customers');
    expect(customers.annotations).toEqual([
      { name: 'owner', value: 'team-crm' },
      { name: 'pii', value: 'true' },
      { name: 'tier', value: '1' },
    ]);
    expect(must(demo, 'wh-prod::raw::orders').annotations.some((a) => a.name === 'pii')).toBe(false);
    expect(must(demo, 'wh-prod::raw::orders').id).toEqual({ warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'raw', table: 'orders' } });
  });

  it.each([
    { reason: 'exactly 10,000 when scaled up for benchmarks', size: 10_000 },
    { reason: 'exactly the size when just above the demo', size: 400 },
    { reason: 'truncated when smaller than the demo', size: 50 },
  ])('size: $reason', ({ size }) => {
    const c = buildCatalog('demo', { size });
    expect(c.entities.length).toBe(size);
    expect(new Set(c.entities.map((e) => e.entityId)).size).toBe(size);
    const dangling = c.edges.filter((edge) => !c.byEntityId(edge.upstream) || !c.byEntityId(edge.downstream));
    expect(dangling).toEqual([]);
  });

  it('scaling keeps the demo entities and their ids', () => {
    const big = buildCatalog('demo', { size: 2000 });
    for (const e of demo.entities) expect(big.byPath(e.path)).toEqual(e);
    expect(big.edges.length).toBeGreaterThan(demo.edges.length);
  });
});

describe('indexes', () => {
  const orders = must(demo, 'wh-prod::mart::fct_orders');

  it('finds by path, entityId and identifier (entityId on a reference ignored, key order irrelevant)', () => {
    expect(demo.byEntityId(orders.entityId)).toBe(orders);
    expect(demo.byKey(orders.id)).toBe(orders);
    expect(demo.byKey({ warehouseAccountTable: { table: 'fct_orders', schema: 'mart', database: 'wh-prod', account: 'acme-retail' } })).toBe(orders);
    expect(demo.byKey({ ...orders.id, entityId: 'whatever' })).toBe(orders);
    expect(demo.byKey({ warehouseAccountTable: { table: 'nope', schema: 'mart', database: 'wh-prod', account: 'acme-retail' } })).toBeUndefined();
    expect(demo.byPath('wh-prod::mart::nope')).toBeUndefined();
    expect(demo.byEntityId('ent-0000')).toBeUndefined();
    expect(demo.indexOf(orders)).toBe(demo.entities.indexOf(orders));
  });

  it.each([
    { reason: 'variant keys are sorted', a: { custom: { id: 'x' } }, b: { custom: { id: 'x' } }, same: true },
    { reason: 'field order does not matter', a: { orchestrationTask: { integrationId: 'i', dagId: 'd', taskId: 't' } }, b: { orchestrationTask: { taskId: 't', dagId: 'd', integrationId: 'i' } }, same: true },
    { reason: 'different values differ', a: { custom: { id: 'x' } }, b: { custom: { id: 'X' } }, same: false },
    { reason: 'different variants differ', a: { custom: { id: 'x' } }, b: { dataproduct: { id: 'x' } }, same: false },
  ])('identifierKey: $reason', ({ a, b, same }) => {
    expect(identifierKey(a) === identifierKey(b)).toBe(same);
  });

  it('indexes folders deep, with counts', () => {
    const mart = demo.folders.find((f) => f.key === 'folder-wh-prod::mart');
    expect(mart).toEqual({ key: 'folder-wh-prod::mart', path: ['folder-wh-prod', 'mart'], entityCount: 21 });
    const root = demo.folders.find((f) => f.key === 'folder-wh-prod')!;
    const prodCount = demo.entities.filter((e) => e.folder[0] === 'folder-wh-prod').length;
    expect(root.entityCount).toBe(prodCount);
    expect(demo.folderIndexes(['folder-wh-prod']).length).toBe(prodCount);
    expect(demo.folderIndexes(['folder-nope'])).toEqual([]);
    expect(demo.folders.map((f) => f.key)).toEqual([...demo.folders.map((f) => f.key)].sort());
  });

  it('lineage goes raw -> staging -> mart -> dashboards', () => {
    const raw = must(demo, 'wh-prod::raw::orders');
    const down = demo.downstream(raw).map((e) => e.path);
    expect(down).toEqual(
      expect.arrayContaining([
        'transform-core::retail::sources::raw::orders',
        'transform-core::retail::models::staging::stg_orders',
        'wh-prod::staging::stg_orders',
        'transform-core::retail::models::marts::fct_orders',
        'wh-prod::mart::fct_orders',
        'wh-prod::mart::agg_daily_revenue',
        'bi::retail::revenue_overview',
      ]),
    );
    expect(down).toEqual([...down].sort());
    expect(down).not.toContain(raw.path);
    expect(demo.downstream(raw, 1).map((e) => e.path)).toEqual(['transform-core::retail::sources::raw::orders']);
    expect(demo.upstream(raw).map((e) => e.path)).toEqual(['orchestrator::ingest_shop_db::load_orders']);
    expect(demo.upstream(orders, 1).map((e) => e.path)).toEqual(['transform-core::retail::models::marts::fct_orders']);
  });
});

describe('lineage (spec 2.4 shape)', () => {
  const a = { entityId: 'a', id: { custom: { id: 'a' } }, path: 'a', name: 'a', type: 'ENTITY_TYPE_CUSTOM' as const, folder: [], annotations: [], tags: [] };
  const mk = (p: string) => ({ ...a, entityId: p, id: { custom: { id: p } }, path: p, name: p });
  // a -> b -> c -> d, x -> c
  const c = createCatalog({
    entities: ['d', 'c', 'b', 'a', 'x'].map(mk),
    edges: [
      { upstream: 'a', downstream: 'b' },
      { upstream: 'b', downstream: 'c' },
      { upstream: 'c', downstream: 'd' },
      { upstream: 'x', downstream: 'c' },
      { upstream: 'x', downstream: 'c' },
    ],
  });
  const node = (p: string, position: string) => ({ ids: [{ custom: { id: p }, entityId: p }], position });

  it.each([
    {
      reason: 'both directions, unlimited: start first, then upstream then downstream by distance',
      dir: 'LINEAGE_DIRECTION_UPSTREAM_DOWNSTREAM' as const,
      depth: undefined,
      nodes: [node('c', 'NODE_POSITION_START_NODE'), node('b', 'NODE_POSITION_UPSTREAM'), node('x', 'NODE_POSITION_UPSTREAM'), node('a', 'NODE_POSITION_UPSTREAM'), node('d', 'NODE_POSITION_DOWNSTREAM')],
      deps: [
        [1, 0],
        [2, 0],
        [3, 1],
        [0, 4],
      ],
    },
    {
      reason: 'upstream only, depth 1',
      dir: 'LINEAGE_DIRECTION_UPSTREAM' as const,
      depth: 1,
      nodes: [node('c', 'NODE_POSITION_START_NODE'), node('b', 'NODE_POSITION_UPSTREAM'), node('x', 'NODE_POSITION_UPSTREAM')],
      deps: [
        [1, 0],
        [2, 0],
      ],
    },
    { reason: 'downstream only', dir: 'LINEAGE_DIRECTION_DOWNSTREAM' as const, depth: 0, nodes: [node('c', 'NODE_POSITION_START_NODE'), node('d', 'NODE_POSITION_DOWNSTREAM')], deps: [[0, 1]] },
  ])('$reason', ({ dir, depth, nodes, deps }) => {
    const l = c.lineage(c.byPath('c')!, dir, depth);
    expect(LineageSchema.safeParse(l).success).toBe(true);
    expect(l.nodes).toEqual(nodes);
    const sorted = [...deps].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
    expect(l.nodeDependencies).toEqual(sorted.map(([s, t]) => ({ sourceNodeIdx: s, targetNodeIdx: t })));
    expect(l.isCll).toBe(false);
    expect(l.columnDependencies).toEqual([]);
  });

  it('duplicate edges are kept once and several start nodes are allowed', () => {
    expect(c.edges).toHaveLength(4);
    const l = c.lineage([c.byPath('d')!, c.byPath('a')!], 'LINEAGE_DIRECTION_DOWNSTREAM');
    expect(l.nodes.map((n) => [n.ids[0].entityId, n.position])).toEqual([
      ['a', 'NODE_POSITION_START_NODE'],
      ['d', 'NODE_POSITION_START_NODE'],
      ['b', 'NODE_POSITION_DOWNSTREAM'],
      ['c', 'NODE_POSITION_DOWNSTREAM'],
    ]);
  });

  it('refuses duplicate paths and edges to unknown entities', () => {
    expect(() => createCatalog({ entities: [mk('a'), { ...mk('b'), path: 'a' }], edges: [] })).toThrow(/duplicate path a/);
    expect(() => createCatalog({ entities: [mk('a')], edges: [{ upstream: 'a', downstream: 'zz' }] })).toThrow(/unknown entity/);
  });
});
