/**
 * Services derived from the platform's operation tables (src/client/derived.ts): each row's
 * arguments go where the row says (spread, field, path segment, page size), GET and DELETE send
 * query parameters, a batch get is chunked to the row's limit and merged, a paged read follows
 * the cursor, secrets are registered before sending, and the method types come from the schemas.
 */
import { z } from 'zod';
import { Empty, PageInfo, Pagination } from '../../schemas/platform/common';
import { defineOperations } from '../../schemas/platform/operation';
import { savedViewsOperations } from '../../schemas/platform/saved-views';
import { redact, RequestShapeError, type CallOptions, type DqClient } from '../../src/client';
import { serviceOf } from '../../src/client/derived';

const Thing = z.object({ id: z.string(), n: z.number().optional() });
const table = defineOperations({
  put: { method: 'PUT', path: '/t/{thing_id}', request: z.object({ n: z.number().optional(), secret: z.object({ password: z.string() }).optional(), etag: z.string().optional() }), response: z.object({ thing: Thing }), scopes: ['SCOPE_ENTITY_EDIT'], idempotent: true, args: ['thing_id', '...', 'etag?'], read: { field: 'thing' }, secrets: ['password'] },
  remove: { method: 'DELETE', path: '/t/{thing_id}', request: z.object({ etag: z.string().optional() }), response: Empty, scopes: ['SCOPE_ENTITY_EDIT'], idempotent: true, args: ['thing_id', 'etag?'], read: 'none' },
  get: { method: 'POST', path: '/t/get', request: z.object({ thingIds: z.array(z.string()) }), response: z.object({ things: z.record(z.string(), Thing) }), scopes: ['SCOPE_ENTITY_READ'], idempotent: true, args: ['thingIds'], read: { batchGet: 'things', limit: 2 } },
  list: { method: 'GET', path: '/t', request: z.object({ kind: z.string().optional(), pagination: Pagination.optional() }), response: z.object({ things: z.array(Thing), pageInfo: PageInfo.optional() }), scopes: ['SCOPE_ENTITY_READ'], idempotent: true, args: ['...?', 'pageSize?'], read: { paged: 'things' } },
  poke: { method: 'POST', path: '/t/{thing_id}/poke', response: z.object({ ok: z.boolean() }), scopes: ['SCOPE_ENTITY_EDIT'], idempotent: false, args: ['thing_id'], read: 'whole' },
});

/** A DqClient that records each call's options and answers from `answer`. */
function recording(answer: (o: CallOptions<z.ZodType>) => unknown) {
  const calls: CallOptions<z.ZodType>[] = [];
  const http = { call: async (o: CallOptions<z.ZodType>) => (calls.push(o), answer(o)) } as unknown as DqClient;
  return { calls, http };
}

test('a spread, a path segment and a trailing field: PUT with the flat body, the segment encoded and not in the body', async () => {
  const { calls, http } = recording(() => ({ thing: { id: 'a b' } }));
  const s = serviceOf(table, http);
  await expect(s.put('a b', { n: 1 }, 'W/"1"')).resolves.toEqual({ id: 'a b' });
  expect(calls).toEqual([{ method: 'PUT', path: '/t/a%20b', body: { n: 1, etag: 'W/"1"' }, requestSchema: table.put.request, responseSchema: table.put.response, idempotent: true }]);
});

test('GET and DELETE send the fields as query parameters, no body; a "none" read answers nothing', async () => {
  const { calls, http } = recording(() => ({}));
  const s = serviceOf(table, http);
  await expect(s.remove('x', 'W/"2"')).resolves.toBeUndefined();
  expect(calls).toEqual([{ method: 'DELETE', path: '/t/x', query: [['etag', 'W/"2"']], responseSchema: Empty, idempotent: true }]);
});

test('a row without a request schema sends {} and no schema; "whole" answers the response; idempotent false is passed on', async () => {
  const { calls, http } = recording(() => ({ ok: true }));
  await expect(serviceOf(table, http).poke('p')).resolves.toEqual({ ok: true });
  expect(calls).toEqual([{ method: 'POST', path: '/t/p/poke', body: {}, requestSchema: undefined, responseSchema: table.poke.response, idempotent: false }]);
});

test('a batch get chunks the ids to the row limit (duplicates once) and merges the maps', async () => {
  const { calls, http } = recording((o) => ({ things: Object.fromEntries(((o.body as { thingIds: string[] }).thingIds).filter((i) => i !== 'c').map((i) => [i, { id: i }])) }));
  const got = await serviceOf(table, http).get(['a', 'b', 'c', 'a', 'd']);
  expect(got).toEqual({ a: { id: 'a' }, b: { id: 'b' }, d: { id: 'd' } });
  expect(calls.map((c) => c.body)).toEqual([{ thingIds: ['a', 'b'] }, { thingIds: ['c', 'd'] }]);
});

test('a paged read follows pageInfo.lastId with the filter and the page size on every page', async () => {
  const { calls, http } = recording((o) => {
    const cursor = (o.query as [string, string][]).find(([k]) => k === 'pagination.cursor')?.[1];
    return cursor === 't1' ? { things: [{ id: 't2' }] } : { things: [{ id: 't1' }], pageInfo: { lastId: 't1' } };
  });
  const got = await serviceOf(table, http).list({ kind: 'k' }, 5);
  expect(got.map((t) => t.id)).toEqual(['t1', 't2']);
  expect(calls.map((c) => c.query)).toEqual([
    [['kind', 'k'], ['pagination.pageSize', '5']],
    [['kind', 'k'], ['pagination.cursor', 't1'], ['pagination.pageSize', '5']],
  ]);
});

test("a row's secrets are registered for redaction before the call is sent", async () => {
  // what the HTTP core would log or put in an error at the moment the call is made
  const seenAtCall: string[] = [];
  const { http } = recording(() => (seenAtCall.push(redact('derived-pa55-1')), { thing: { id: 'x' } }));
  await serviceOf(table, http).put('x', { secret: { password: 'derived-pa55-1' } });
  expect(seenAtCall).toEqual(['[REDACTED]']);
});

test('a path segment no argument fills is refused when the table is defined', () => {
  expect(() => defineOperations({ bad: { method: 'GET', path: '/t/{id}', response: Empty, scopes: [], idempotent: true, args: [], read: 'whole' } })).toThrow('operation bad (GET /t/{id}): no argument fills {id}');
});

test('a row the client would call wrongly without a word is refused when the table is defined', () => {
  const row = { method: 'POST', path: '/t/{id}', request: z.object({ n: z.number().optional(), pagination: Pagination.optional() }), response: z.object({ thing: Thing }), scopes: [], idempotent: true } as const;
  expect(() => defineOperations({ opt: { ...row, args: ['id?'], read: 'whole' } })).toThrow('operation opt (POST /t/{id}): the path segment {id} cannot be an optional argument');
  expect(() => defineOperations({ typo: { ...row, args: ['id', 'nn'], read: 'whole' } })).toThrow('operation typo (POST /t/{id}): the argument nn names neither a request field nor a path segment');
  expect(() => defineOperations({ read: { ...row, args: ['id'], read: { field: 'thng' } } })).toThrow("operation read (POST /t/{id}): the answer is read from the response's thng, which its schema does not have");
  expect(() => defineOperations({ paged: { ...row, request: z.object({ n: z.number() }), args: ['id'], read: { paged: 'thing' } } })).toThrow('operation paged (POST /t/{id}): a paged read needs a pagination field in its request');
  expect(() => defineOperations({ spread: { ...row, request: undefined, args: ['id', '...'], read: 'whole' } })).toThrow("operation spread (POST /t/{id}): a '...' argument needs a request schema (its fields would be sent unchecked)");
  expect(() => defineOperations({ size: { ...row, args: ['id', 'pageSize?'], read: { field: 'thing' } } })).toThrow('operation size (POST /t/{id}): a pageSize argument is only read by a paged read (here it would be dropped)');
  expect(() => defineOperations({ ok: { ...row, args: ['id', 'n?'], read: { field: 'thing' } } })).not.toThrow();
});

test('an empty or missing path segment is refused before anything is sent (not /t/undefined), after the secrets are registered', async () => {
  const { calls, http } = recording(() => ({ thing: { id: 'x' } }));
  const s = serviceOf(table, http);
  await expect(s.put('', { secret: { password: 'derived-pa55-2' } })).rejects.toThrow(RequestShapeError);
  await expect(s.remove(undefined as unknown as string)).rejects.toMatchObject({ code: 'api.request-shape', issues: [{ path: 'thing_id', message: 'the path segment {thing_id} needs a non-empty string, got undefined' }] });
  await expect(s.poke('')).rejects.toThrow(RequestShapeError);
  expect(calls).toEqual([]);
  expect(redact('derived-pa55-2')).toBe('[REDACTED]');
});

test('a paged query filter its schema refuses is a RequestShapeError (a rejected promise, nothing sent)', async () => {
  const { calls, http } = recording(() => ({ things: [] }));
  const p = serviceOf(table, http).list({ kind: 7 as unknown as string });
  await expect(p).rejects.toMatchObject({ code: 'api.request-shape', issues: [{ path: 'kind' }] });
  expect(calls).toEqual([]);
});

/** Never called: what tsc says of a row's types (a misspelt argument, a read of a field the response lacks). */
export function typedOnly(http: DqClient): () => Promise<unknown[]> {
  const rows = {
    typo: { method: 'POST', path: '/b/{id}', request: z.object({ n: z.number() }), response: z.object({ thing: Thing }), scopes: [], idempotent: true, args: ['id', 'nn'], read: { field: 'thing' } },
    bad: { method: 'POST', path: '/b', response: z.object({ thing: Thing }), scopes: [], idempotent: true, args: [], read: { field: 'thng' } },
  } as const;
  const s = serviceOf(rows, http);
  return async () => {
    // @ts-expect-error an argument naming neither a request field nor a path segment takes nothing
    const a = await s.typo('id', 'x');
    // @ts-expect-error a read of a field the response lacks answers unknown (never would pass for a number)
    const n: number = await s.bad();
    return [a, n];
  };
}

test('the methods are typed from the schemas (tsc checks the expectations below)', async () => {
  const { http } = recording(() => ({ view: { id: 'v', title: 't' } }));
  const views = serviceOf(savedViewsOperations, http);
  const v = await views.upsert({ id: '00000000-0000-4000-8000-000000000001', title: 't' });
  const title: string = v.title;
  expect(title).toBe('t');
  // @ts-expect-error an unknown field of the write
  void views.upsert({ id: 'x', titel: 't' }).catch(() => undefined);
  // @ts-expect-error the etag is a string
  void views.delete('x', 7).catch(() => undefined);
  // @ts-expect-error a batch get takes ids, not one id
  void views.batchGet('x').catch(() => undefined);
});
