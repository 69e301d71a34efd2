import type { Entity, EntityTypeName, Query } from '../../schemas/platform/entities';
import { ResolverQlError, unsupportedPart } from '../../schemas/tools/resolverql';
import { buildCatalog, createCatalog } from '../../src/emulator/catalog';
import { evaluateQuery, evaluateResolverQl, QueryEvaluationError } from '../../src/emulator/query-eval';

function ent(path: string, type: EntityTypeName, o: { folder: string[]; platform?: string; ann?: Record<string, string | undefined>; tags?: string[] }): Entity {
  return {
    entityId: `id-${path}`,
    id: { platformPath: { path } },
    path,
    name: path.split('::').pop()!,
    type,
    platform: o.platform,
    folder: o.folder,
    annotations: Object.entries(o.ann ?? {}).map(([name, value]) => (value === undefined ? { name } : { name, value })),
    tags: o.tags ?? [],
  };
}

const TABLE = 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE';
const VIEW = 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW';
// Lineage: orch::daily -> wh::raw::orders -> tc::models::fct_orders -> wh::mart::fct_orders -> wh::mart::v_revenue
//          wh::raw::customers -> tc::models::fct_orders
const small = createCatalog({
  entities: [
    ent('wh::raw::orders', TABLE, { folder: ['f-wh', 'raw'], platform: 'warehouse', ann: { owner: 'team-a', tier: '1' }, tags: ['raw'] }),
    ent('wh::raw::customers', TABLE, { folder: ['f-wh', 'raw'], platform: 'warehouse', ann: { owner: 'team-b', tier: '2', pii: 'true' }, tags: ['raw', 'Sensitive'] }),
    ent('wh::mart::fct_orders', TABLE, { folder: ['f-wh', 'mart'], platform: 'warehouse', ann: { owner: 'team-a', tier: '1' }, tags: ['mart'] }),
    ent('wh::mart::v_revenue', VIEW, { folder: ['f-wh', 'mart'], platform: 'warehouse', ann: { owner: 'team-c', tier: '3', deprecated: undefined }, tags: ['mart'] }),
    ent('tc::models::fct_orders', 'ENTITY_TYPE_TRANSFORM_CORE_MODEL', { folder: ['f-tc', 'models'], platform: 'transform', ann: { owner: 'team-a' }, tags: ['mart'] }),
    ent('orch::daily', 'ENTITY_TYPE_ORCHESTRATION_DAG', { folder: ['f-orch'], platform: 'orchestration' }),
    ent('custom::thing', 'ENTITY_TYPE_CUSTOM', { folder: ['f-custom'], ann: { custom_type: '50007' } }),
    ent('custom::generic', 'ENTITY_TYPE_CUSTOM', { folder: ['f-custom'] }),
  ],
  edges: [
    { upstream: 'id-orch::daily', downstream: 'id-wh::raw::orders' },
    { upstream: 'id-wh::raw::orders', downstream: 'id-tc::models::fct_orders' },
    { upstream: 'id-wh::raw::customers', downstream: 'id-tc::models::fct_orders' },
    { upstream: 'id-tc::models::fct_orders', downstream: 'id-wh::mart::fct_orders' },
    { upstream: 'id-wh::mart::fct_orders', downstream: 'id-wh::mart::v_revenue' },
  ],
});
const ALL = small.entities.map((e) => e.path);
const paths = (es: Entity[]) => es.map((e) => e.path);
const name = (searchQuery: string) => ({ withNameSearch: { searchQuery } });

describe('evaluateQuery: part kinds', () => {
  const cases: { reason: string; query: Query; expected: string[] }[] = [
    { reason: 'identifierList finds by identifier and ignores unknown ones', query: { parts: [{ identifierList: { identifiers: [{ platformPath: { path: 'orch::daily' } }, { platformPath: { path: 'nope' } }] } }] }, expected: ['orch::daily'] },
    { reason: 'withNameSearch is a case-insensitive substring of the name', query: { parts: [name('ORDERS')] }, expected: ['tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::raw::orders'] },
    { reason: 'withNameSearch also matches the path', query: { parts: [name('wh::mart')] }, expected: ['wh::mart::fct_orders', 'wh::mart::v_revenue'] },
    { reason: 'withNameSearch with an empty string matches everything', query: { parts: [name('')] }, expected: ALL },
    { reason: 'withType with one default type', query: { parts: [{ withType: { type: { default: VIEW } } }] }, expected: ['wh::mart::v_revenue'] },
    { reason: 'withType type and types are a union', query: { parts: [{ withType: { type: { default: VIEW }, types: [{ default: 'ENTITY_TYPE_ORCHESTRATION_DAG' }] } }] }, expected: ['orch::daily', 'wh::mart::v_revenue'] },
    { reason: 'withType accepts enum numbers (1201 = DAG)', query: { parts: [{ withType: { types: [{ default: 1201 as unknown as 'ENTITY_TYPE_ORCHESTRATION_DAG' }] } }] }, expected: ['orch::daily'] },
    { reason: 'withType custom 50000 is the generic custom type', query: { parts: [{ withType: { types: [{ custom: 50000 }] } }] }, expected: ['custom::generic', 'custom::thing'] },
    { reason: 'withType custom N matches custom entities annotated custom_type=N', query: { parts: [{ withType: { types: [{ custom: 50007 }] } }] }, expected: ['custom::thing'] },
    { reason: 'withType with a type nobody has matches nothing', query: { parts: [{ withType: { types: [{ default: 'ENTITY_TYPE_BI_DASHBOARD' }] } }] }, expected: [] },
    { reason: 'withAnnotation name only: has the annotation (valueless too)', query: { parts: [{ withAnnotation: { name: 'deprecated' } }] }, expected: ['wh::mart::v_revenue'] },
    { reason: 'withAnnotation with acceptedValue', query: { parts: [{ withAnnotation: { name: 'owner', acceptedValue: 'team-a' } }] }, expected: ['tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::raw::orders'] },
    { reason: 'withAnnotation with acceptedValues is any of them', query: { parts: [{ withAnnotation: { name: 'tier', acceptedValues: ['2', '3'] } }] }, expected: ['wh::mart::v_revenue', 'wh::raw::customers'] },
    { reason: 'withAnnotation values are exact', query: { parts: [{ withAnnotation: { name: 'owner', acceptedValue: 'TEAM-A' } }] }, expected: [] },
    { reason: 'inFolder is deep (prefix of the folder segments)', query: { parts: [{ inFolder: { path: ['f-wh'] } }] }, expected: ['wh::mart::fct_orders', 'wh::mart::v_revenue', 'wh::raw::customers', 'wh::raw::orders'] },
    // issue 22: each path entry is one opaque folder id (the folder's key), never a segment
    { reason: 'inFolder with two folder ids: entities in any of them', query: { parts: [{ inFolder: { path: ['f-wh::raw', 'f-orch'] } }] }, expected: ['orch::daily', 'wh::raw::customers', 'wh::raw::orders'] },
    { reason: 'inFolder path entries are folder ids, not segments (["f-wh", "raw"] is f-wh or a folder "raw")', query: { parts: [{ inFolder: { path: ['f-wh', 'raw'] } }] }, expected: ['wh::mart::fct_orders', 'wh::mart::v_revenue', 'wh::raw::customers', 'wh::raw::orders'] },
    { reason: 'inFolder with a nested folder id (f-wh::mart)', query: { parts: [{ inFolder: { path: ['f-wh::mart'] } }] }, expected: ['wh::mart::fct_orders', 'wh::mart::v_revenue'] },
    { reason: 'inFolder with an id that names no folder matches nothing', query: { parts: [{ inFolder: { path: ['raw'] } }] }, expected: [] },
    { reason: 'inFolder does not match a partial segment', query: { parts: [{ inFolder: { path: ['f-w'] } }] }, expected: [] },
    { reason: 'nested query part', query: { parts: [{ query: { parts: [name('orders'), name('raw')], operand: 'QUERY_OPERAND_AND' } }] }, expected: ['wh::raw::orders'] },
    { reason: 'entityIds finds by opaque id', query: { parts: [{ entityIds: { entityIds: ['id-orch::daily', 'id-none'] } }] }, expected: ['orch::daily'] },
    { reason: 'unsupported carrying our with_tag (case-insensitive)', query: { parts: [unsupportedPart('with_tag("sensitive")')] }, expected: ['wh::raw::customers'] },
    { reason: 'unsupported carrying our with_platform', query: { parts: [unsupportedPart('with_platform("Transform")')] }, expected: ['tc::models::fct_orders'] },
    { reason: 'unsupported carrying any of our ResolverQL', query: { parts: [unsupportedPart('and(with_type("view"),with_annotation("tier","3"))')] }, expected: ['wh::mart::v_revenue'] },
    { reason: 'a foreign unsupported part matches nothing', query: { parts: [{ unsupported: { queryJson: '{"columns":["email"]}' } }] }, expected: [] },
    { reason: 'our marker with unparseable ResolverQL matches nothing', query: { parts: [{ unsupported: { queryJson: '{"resolverQl":"with_tag("}' } }] }, expected: [] },
  ];
  it.each(cases)('$reason', ({ query, expected }) => {
    expect(paths(evaluateQuery(small, query))).toEqual(expected);
  });
});

describe('evaluateQuery: operands', () => {
  const cases: { reason: string; query: Query; expected: string[] }[] = [
    { reason: 'UNSPECIFIED is AND', query: { parts: [name('orders'), { inFolder: { path: ['f-wh'] } }] }, expected: ['wh::mart::fct_orders', 'wh::raw::orders'] },
    { reason: 'AND is intersection', query: { parts: [name('orders'), { withAnnotation: { name: 'owner', acceptedValue: 'team-a' } }, { withType: { type: { default: TABLE } } }], operand: 'QUERY_OPERAND_AND' }, expected: ['wh::mart::fct_orders', 'wh::raw::orders'] },
    { reason: 'AND of no parts is everything', query: { parts: [], operand: 'QUERY_OPERAND_AND' }, expected: ALL },
    { reason: 'OR is union', query: { parts: [name('daily'), name('revenue')], operand: 'QUERY_OPERAND_OR' }, expected: ['orch::daily', 'wh::mart::v_revenue'] },
    { reason: 'OR of no parts is nothing', query: { parts: [], operand: 'QUERY_OPERAND_OR' }, expected: [] },
    { reason: 'numeric operand 2 is OR', query: { parts: [name('daily'), name('revenue')], operand: 2 as unknown as Query['operand'] }, expected: ['orch::daily', 'wh::mart::v_revenue'] },
    { reason: 'EXCEPT is the first minus the second', query: { parts: [{ inFolder: { path: ['f-wh'] } }, name('orders')], operand: 'QUERY_OPERAND_EXCEPT' }, expected: ['wh::mart::v_revenue', 'wh::raw::customers'] },
    { reason: 'EXCEPT of everything is not()', query: { parts: [{ query: { parts: [] } }, { inFolder: { path: ['f-wh'] } }], operand: 'QUERY_OPERAND_EXCEPT' }, expected: ['custom::generic', 'custom::thing', 'orch::daily', 'tc::models::fct_orders'] },
    { reason: 'UPSTREAM is the start set plus everything upstream of it', query: { parts: [name('fct_orders')], operand: 'QUERY_OPERAND_UPSTREAM' }, expected: ['orch::daily', 'tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::raw::customers', 'wh::raw::orders'] },
    { reason: 'DOWNSTREAM of the union of the parts', query: { parts: [name('customers'), name('v_revenue')], operand: 'QUERY_OPERAND_DOWNSTREAM' }, expected: ['tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::mart::v_revenue', 'wh::raw::customers'] },
    { reason: 'DOWNSTREAM of nothing is nothing', query: { parts: [name('zzz')], operand: 'QUERY_OPERAND_DOWNSTREAM' }, expected: [] },
    {
      reason: 'nested operands compose: tables downstream of raw orders, except views',
      query: {
        parts: [
          { query: { parts: [{ identifierList: { identifiers: [{ platformPath: { path: 'wh::raw::orders' } }] } }], operand: 'QUERY_OPERAND_DOWNSTREAM' } },
          { query: { parts: [{ withType: { types: [{ default: VIEW }, { default: 'ENTITY_TYPE_TRANSFORM_CORE_MODEL' }] } }], operand: 'QUERY_OPERAND_OR' } },
        ],
        operand: 'QUERY_OPERAND_EXCEPT',
      },
      expected: ['wh::mart::fct_orders', 'wh::raw::orders'],
    },
  ];
  it.each(cases)('$reason', ({ query, expected }) => {
    expect(paths(evaluateQuery(small, query))).toEqual(expected);
  });

  it.each([
    { reason: 'EXCEPT with three parts', query: { parts: [name('a'), name('b'), name('c')], operand: 'QUERY_OPERAND_EXCEPT' } as Query, error: /exactly two parts/ },
    { reason: 'a part with no kind set', query: { parts: [{}] } as Query, error: /must set one of identifierList/ },
    { reason: 'an unknown numeric operand', query: { parts: [], operand: 42 as unknown as Query['operand'] }, error: /unknown query operand 42/ },
  ])('refuses $reason', ({ query, error }) => {
    expect(() => evaluateQuery(small, query)).toThrow(QueryEvaluationError);
    expect(() => evaluateQuery(small, query)).toThrow(error);
  });
});

describe('evaluateResolverQl', () => {
  const cases: { reason: string; text: string; expected: string[] }[] = [
    { reason: 'with_type group', text: 'with_type("table")', expected: ['wh::mart::fct_orders', 'wh::raw::customers', 'wh::raw::orders'] },
    { reason: 'with_type with filter', text: 'with_type("table", filter=with_annotation("pii"))', expected: ['wh::raw::customers'] },
    { reason: 'with_type with a with_platform filter', text: 'with_type("model", filter=with_platform("transform"))', expected: ['tc::models::fct_orders'] },
    { reason: 'top-level with_tag is evaluated directly', text: 'with_tag("mart")', expected: ['tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::mart::v_revenue'] },
    { reason: 'top-level with_platform is evaluated directly', text: "with_platform('orchestration')", expected: ['orch::daily'] },
    { reason: 'with_name', text: 'with_name("rev")', expected: ['wh::mart::v_revenue'] },
    { reason: 'with_annotation list', text: 'with_annotation("owner", ["team-b","team-c"])', expected: ['wh::mart::v_revenue', 'wh::raw::customers'] },
    { reason: 'in_folder upstream form with types', text: 'in_folder(static_paths("f-wh::mart"), types=["table"])', expected: ['wh::mart::fct_orders'] },
    { reason: 'in_folder with several static paths', text: 'in_folder(static_paths("f-orch", "f-tc"))', expected: ['orch::daily', 'tc::models::fct_orders'] },
    { reason: 'and/or', text: 'and(with_type("table"), or(with_name("customers"), with_name("mart")))', expected: ['wh::mart::fct_orders', 'wh::raw::customers'] },
    { reason: 'not of a tag', text: 'not(with_tag("raw"))', expected: ['custom::generic', 'custom::thing', 'orch::daily', 'tc::models::fct_orders', 'wh::mart::fct_orders', 'wh::mart::v_revenue'] },
    { reason: 'and with not', text: 'and(in_folder("f-wh"), not(with_annotation("tier", "1")))', expected: ['wh::mart::v_revenue', 'wh::raw::customers'] },
  ];
  it.each(cases)('$reason', ({ text, expected }) => {
    expect(paths(evaluateResolverQl(small, text))).toEqual(expected);
  });

  it('throws ResolverQlError for bad text', () => {
    expect(() => evaluateResolverQl(small, 'with_type(')).toThrow(ResolverQlError);
  });

  it('evaluates the empty catalog to nothing', () => {
    expect(evaluateResolverQl(buildCatalog('empty'), 'not(with_name("x"))')).toEqual([]);
  });
});

describe('on the scaled demo catalog', () => {
  const big = buildCatalog('demo', { size: 10_000 });
  const has = (e: Entity, n: string, v?: string) => e.annotations.some((a) => a.name === n && (v === undefined || a.value === v));
  // The bitset evaluator agrees with a naive filter over the entities.
  const cases: { reason: string; text: string; naive: (e: Entity) => boolean }[] = [
    { reason: 'tier-1 pii tables', text: 'and(with_type("table"),with_annotation("tier","1"),with_annotation("pii"))', naive: (e) => e.type.endsWith('_TABLE') && has(e, 'tier', '1') && has(e, 'pii') },
    { reason: 'synthetic marts of one shard not owned by finance', text: 'and(in_folder("folder-wh-prod::ext_mart_3"),not(with_annotation("owner","team-finance")))', naive: (e) => e.folder[0] === 'folder-wh-prod' && e.folder[1] === 'ext_mart_3' && !has(e, 'owner', 'team-finance') },
    { reason: 'name search or tag', text: 'or(with_name("ORDERS_X1"),with_tag("dev"))', naive: (e) => e.name.toLowerCase().includes('orders_x1') || e.path.toLowerCase().includes('orders_x1') || e.tags.includes('dev') },
  ];
  it.each(cases)('$reason', ({ text, naive }) => {
    const got = paths(evaluateResolverQl(big, text));
    expect(got.length).toBeGreaterThan(0);
    expect(got).toEqual(big.entities.filter(naive).map((e) => e.path));
  });

  it('UPSTREAM closure agrees with the catalog lineage', () => {
    const target = big.byPath('wh-prod::mart::agg_daily_revenue')!;
    const got = paths(evaluateQuery(big, { parts: [{ identifierList: { identifiers: [target.id] } }], operand: 'QUERY_OPERAND_UPSTREAM' }));
    expect(got).toEqual([target, ...big.upstream(target)].map((e) => e.path).sort());
  });
});
