/**
 * Issue 22 (part B), "tolerant reads everywhere": an identifier variant or an entity-type
 * number this version does not know must not fail a whole entities response. Each table row is
 * a captured response; the unknown item is kept as read and marked (`unmodelledOf`), the others
 * read normally. Before the fix every row failed the whole call with a schema error.
 */
import { GetLineageResponse } from '../../schemas/platform/entities';
import { unmodelledOf } from '../../schemas/platform/wire';
import { PlatformClient } from '../../src/client';
import { serverPerTest } from './helpers/client';

const t = serverPerTest();
const platform = () => new PlatformClient(t.client().client);
const known = { entityId: 'e-known', id: { custom: { id: 'c1' } }, path: 'custom::c1', name: 'c1', type: 50000 };
const entity = (over: Record<string, unknown>) => ({ ...known, entityId: 'e-new', ...over });

describe.each([
  ['an entity-type number this version does not name (9999)', entity({ type: 9999 }), 'unknown enum value 9999 at type'],
  ['an entity-type name this version does not name', entity({ type: 'ENTITY_TYPE_SOMETHING_NEW' }), 'ENTITY_TYPE_SOMETHING_NEW'],
  ['an identifier variant this version does not model (member 19 of the oneof)', entity({ id: { variant19: { host: 'h', database: 'd', schema: 's', table: 't' } } }), 'unknown variant "variant19" at id'],
])('%s', (_why, unknown, problem) => {
  test('entities.list keeps the other entities and marks this one', async () => {
    t.server.on('GET', '/api/entities/v1', () => ({ json: { entities: [known, unknown], pageInfo: { count: 2, lastId: '' } } }));
    const got = await platform().entities.list();
    expect(got.map((e) => e.entityId)).toEqual(['e-known', 'e-new']);
    expect(got[0].type).toBe('ENTITY_TYPE_CUSTOM');
    expect(unmodelledOf(got[0])).toBeUndefined();
    expect(unmodelledOf(got[1])?.join('; ')).toContain(problem);
  });

  test('entities.batchGet keeps the other entities and marks this one', async () => {
    t.server.on('POST', '/api/entities/v1/by-id', () => ({ json: { entities: [unknown, known] } }));
    const got = await platform().entities.batchGet([{ custom: { id: 'c1' } }]);
    expect(got.map((e) => [e.entityId, unmodelledOf(e) !== undefined])).toEqual([
      ['e-new', true],
      ['e-known', false],
    ]);
  });
});

test('queries.resolveQuery: an identifier variant this version does not model is kept as read, marked', async () => {
  t.server.on('POST', '/api/queries/v1/resolve', () => ({ json: { entityIds: [{ custom: { id: 'c1' } }, { variant22: { id: 'view-1' } }], pageInfo: { lastId: '' }, renderedResolverQl: 'with_name("x")' } }));
  const got = await platform().queries.resolveQuery({ resolverQl: 'with_name("x")' });
  expect(got.entityIds).toEqual([{ custom: { id: 'c1' } }, { variant22: { id: 'view-1' } }]);
  expect(unmodelledOf(got.entityIds[0])).toBeUndefined();
  expect(unmodelledOf(got.entityIds[1])).toEqual(['unknown variant "variant22"']);
});

test('lineage: a node with an unknown identifier variant or position number stays in place (dependencies index nodes), marked', () => {
  const got = GetLineageResponse.parse({
    lineage: {
      nodes: [{ ids: [{ custom: { id: 'c1' }, entityId: 'e1' }] }, { ids: [{ variant20: { host: 'h', serviceName: 's', schema: 'x', table: 't' } }], position: 7 }],
      nodeDependencies: [{ sourceNodeIdx: 0, targetNodeIdx: 1 }],
    },
  });
  expect(got.lineage.nodes).toHaveLength(2);
  expect(unmodelledOf(got.lineage.nodes[0])).toBeUndefined();
  expect(unmodelledOf(got.lineage.nodes[1])?.join('; ')).toMatch(/variant20|position/);
});
