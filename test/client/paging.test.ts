import { z } from 'zod';
import { BatchItemsError, chunk, DqClient, listAll, MAX_PAGES, PaginationLoopError, PlatformClient, ServerMisbehaviourError } from '../../src/client';
import { makeClient } from './helpers/client';
import { TestServer } from './helpers/server';

let server: TestServer;
let client: DqClient;
let platform: PlatformClient;
beforeEach(async () => {
  server = await new TestServer().start();
  client = makeClient(server).client;
  platform = new PlatformClient(client);
});
afterEach(async () => {
  await client.close();
  await server.stop();
});

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

describe('pagination', () => {
  test('loops on pageInfo.lastId across several pages until it is empty, cursors as pagination.* query params', async () => {
    const all = Array.from({ length: 7 }, (_, i) => ({ id: `r${i}` }));
    server.on('GET', '/api/things', (r) => {
      const start = r.query.get('pagination.cursor') ? Number(r.query.get('pagination.cursor')!.slice(1)) + 1 : 0;
      const size = Number(r.query.get('pagination.pageSize') ?? 3);
      const page = all.slice(start, start + size);
      const last = start + size < all.length ? page[page.length - 1].id : '';
      return { json: { things: page, pageInfo: { count: page.length, lastId: last } } };
    });
    const Res = z.object({ things: z.array(z.object({ id: z.string() })), pageInfo: z.object({ lastId: z.string().optional() }).optional() });
    const items = await listAll(
      async (pagination) => {
        const r = await client.call({ method: 'GET', path: '/api/things', query: { pagination }, responseSchema: Res, idempotent: true });
        return { items: r.things, pageInfo: r.pageInfo };
      },
      { pageSize: 3 },
    );
    expect(items.map((i) => i.id)).toEqual(all.map((i) => i.id));
    const cursors = server.calls('GET', '/api/things').map((r) => r.query.get('pagination.cursor'));
    expect(cursors).toEqual([null, 'r2', 'r5']);
  });

  test('a repeated cursor stops with PaginationLoopError instead of looping', async () => {
    await expect(listAll(async () => ({ items: [1], pageInfo: { lastId: 'same' } }))).rejects.toBeInstanceOf(PaginationLoopError);
  });

  test('a repeated cursor is detected the moment it repeats (not at the page limit), and blames the server', async () => {
    // A server that ignores the cursor: page 1 says "next: c1", asked for c1 it says "next: c1" again.
    let calls = 0;
    const err = await listAll(async () => {
      calls++;
      if (calls > 50) throw new Error('still paging: the loop was not detected');
      return { items: [calls], pageInfo: { lastId: 'c1' } };
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationLoopError);
    expect(err).toBeInstanceOf(ServerMisbehaviourError);
    expect(calls).toBe(2);
    expect((err as Error).message).toBe('the server returned the page cursor "c1" twice: its paging loops (the server\'s fault, not dqform\'s), the list was stopped after 2 pages');
    // A longer cycle (a, b, a) is caught on its first repeat as well.
    const cycle = ['a', 'b', 'a', 'b', 'a'];
    let n = 0;
    await expect(listAll(async () => ({ items: [], pageInfo: { lastId: cycle[n++] } }))).rejects.toBeInstanceOf(PaginationLoopError);
    expect(n).toBe(3);
  });

  test('endless paging (a fresh cursor every page) stops at the documented MAX_PAGES (10,000), blaming the server', async () => {
    expect(MAX_PAGES).toBe(10_000);
    let calls = 0;
    const err = await listAll(async () => {
      calls++;
      if (calls > MAX_PAGES + 1) throw new Error('paged past the documented limit');
      return { items: [], pageInfo: { lastId: `c${calls}` } };
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaginationLoopError);
    expect(calls).toBe(MAX_PAGES);
    expect((err as Error).message).toMatch(/^the server kept paging: a list passed 10000 pages/);
  });

  test('service lists read every page (deployment rules, with filters as query params)', async () => {
    const rule = (i: number) => ({ id: uuid(i), title: `rule ${i}`, exclusiveStaticConfig: { path: 'a::b' }, source: 1, configId: 'ns' });
    server.on('GET', '/api/monitors/automated/v1/deployment-rules', (r) => {
      const cursor = r.query.get('pagination.cursor');
      if (!cursor) return { json: { deploymentRules: [rule(1), rule(2)], pageInfo: { lastId: uuid(2) } } };
      if (cursor === uuid(2)) return { json: { deploymentRules: [rule(3)], pageInfo: { lastId: uuid(3) } } };
      return { json: { deploymentRules: [], pageInfo: { lastId: '' } } };
    });
    const rules = await platform.deploymentRules.list({ configsFilter: { ids: ['ns'] }, sources: ['SOURCE_API'] });
    expect(rules.map((r) => r.title)).toEqual(['rule 1', 'rule 2', 'rule 3']);
    expect(rules[0].source).toBe('SOURCE_API');
    const first = server.calls('GET', '/api/monitors/automated/v1/deployment-rules')[0];
    expect(first.query.getAll('configsFilter.ids')).toEqual(['ns']);
    // enums go as numbers on the wire
    expect(first.query.getAll('sources')).toEqual(['1']);
    expect(server.calls('GET', '/api/monitors/automated/v1/deployment-rules')).toHaveLength(3);
  });
});

describe('batching', () => {
  test('chunk splits to the limit', () => {
    expect(chunk([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(chunk([], 2)).toEqual([]);
  });

  test('450 ids are read in 3 calls of at most 200 and the maps are merged', async () => {
    server.on('POST', '/api/datachecks/sqltests/v1/by-id', (r) => {
      const ids = (r.json as { ids: string[] }).ids;
      return { json: { sqlTests: Object.fromEntries(ids.filter((id) => id !== 't7').map((id) => [id, { id, name: id, severity: 2, platform: { integrationId: 'i' }, sqlExpression: 'select 1', recurrenceRule: 'FREQ=DAILY' }])) } };
    });
    const ids = Array.from({ length: 450 }, (_, i) => `t${i}`);
    const got = await platform.sqlTests.batchGet(ids);
    const calls = server.calls('POST', '/api/datachecks/sqltests/v1/by-id').map((r) => (r.json as { ids: string[] }).ids.length);
    expect(calls.sort((a, b) => b - a)).toEqual([200, 200, 50]);
    expect(Object.keys(got)).toHaveLength(449); // t7 unknown: absent, not an error
    expect(got.t8.severity).toBe('SEVERITY_ERROR');
  });

  test('450 ids are deleted in 3 DELETE calls with ?ids= and per-item errors are surfaced', async () => {
    server.on('DELETE', '/api/datachecks/sqltests/v1', (r) => {
      const ids = r.query.getAll('ids');
      return { json: { errors: ids.filter((id) => id === 't3' || id === 't401').map((id) => ({ id, reason: 'made by a deployment rule' })) } };
    });
    const ids = Array.from({ length: 450 }, (_, i) => `t${i}`);
    const res = await platform.sqlTests.batchDelete(ids);
    expect(server.calls('DELETE', '/api/datachecks/sqltests/v1')).toHaveLength(3);
    expect(res.errors).toEqual([
      { id: 't3', reason: 'made by a deployment rule' },
      { id: 't401', reason: 'made by a deployment rule' },
    ]);
    expect(res.items).toHaveLength(448);
    expect(res.items).not.toContain('t3');
  });

  test('a smaller chunk limit given by the caller is honoured by batch deletes (5 ids, limit 2: 3 calls)', async () => {
    server.on('DELETE', '/api/datachecks/sqltests/v1', () => ({ json: { errors: [] } }));
    const before = server.calls('DELETE', '/api/datachecks/sqltests/v1').length;
    const res = await platform.sqlTests.batchDelete(['a', 'b', 'c', 'd', 'e'], { limit: 2 });
    const sent = server.calls('DELETE', '/api/datachecks/sqltests/v1').slice(before).map((r) => r.query.getAll('ids'));
    expect(sent).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
    expect(res.items).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  test('per-item errors in a 200 are returned by batch writes, or thrown as BatchItemsError when asked', async () => {
    server.on('POST', '/api/datachecks/sqltests/v1', (r) => {
      const tests = (r.json as { sqlTests: { id: string }[] }).sqlTests;
      return { json: { createdIds: tests.filter((t) => t.id !== 'bad').map((t) => t.id), updatedIds: [], errors: [{ id: 'bad', reason: 'invalid RRULE' }] } };
    });
    const test = (id: string) => ({ id, name: id, severity: 'SEVERITY_ERROR' as const, platform: { integrationId: 'i' }, sqlExpression: 'select 1', recurrenceRule: 'FREQ=DAILY' });
    const res = await platform.sqlTests.batchUpsert([test('a'), test('bad')]);
    expect(res.createdIds).toEqual(['a']);
    expect(res.errors).toEqual([{ id: 'bad', reason: 'invalid RRULE' }]);
    const err = await platform.sqlTests.batchUpsert([test('a'), test('bad')], { throwOnItemErrors: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BatchItemsError);
    expect((err as BatchItemsError).errors).toEqual([{ id: 'bad', reason: 'invalid RRULE' }]);
    expect((err as BatchItemsError).message).toContain('bad: invalid RRULE');
  });

  test('batch deploys surface per-item errors', async () => {
    server.on('POST', '/api/monitors/automated/v1/deployment-rules/batch/deployed', (r) => {
      const rules = (r.json as { deploymentRules: { id: string }[] }).deploymentRules;
      return { json: { deployedIds: rules.slice(1).map((x) => x.id), errors: [{ id: rules[0].id, reason: 'query matches nothing' }] } };
    });
    const rules = [1, 2].map((i) => ({ id: uuid(i), title: `r${i}`, exclusiveStaticConfig: { path: 'a::b' } }));
    const res = await platform.deploymentRules.batchDeploy(rules);
    expect(res.items).toEqual([uuid(2)]);
    expect(res.errors).toEqual([{ id: uuid(1), reason: 'query matches nothing' }]);
  });
});
