/**
 * Exact outputs of the handlers' shared helpers (src/kinds/shared/support.ts) at their boundaries:
 * copies, empty values, id forms, batch errors, live objects, reads by key and by namespace, write
 * version checks. In-process, no emulator.
 */
import type { Change } from '../../schemas/model/plan';
import { noteRetry } from '../../src/client/attempts';
import {
  afterOf,
  bareId,
  checkWriteVersion,
  clone,
  dropEmpty,
  entryFor,
  errorsByAddress,
  guardedUpsert,
  ignoreNotFound,
  isEmptyObject,
  isNotFound,
  isNotFoundReason,
  isOurs,
  keepForNamespace,
  listed,
  liveObject,
  omit,
  readByKeys,
} from '../../src/kinds/shared/support';

const U = 'abcdef01-1111-2222-3333-444455556666';
const V = 'abcdef02-1111-2222-3333-444455556666';
const change = (o: Partial<Change>): Change => ({ address: 'dq_owner.o', type: 'dq_owner', action: 'update', id: 'i', before: null, after: { title: 'T' }, patch: [], reasons: [], ...o }) as Change;

describe('copies and empties', () => {
  it('omit drops the keys and undefined values, keeps the order', () => {
    const out = omit({ b: 1, a: undefined, c: null, d: 2 }, ['d']);
    expect(out).toStrictEqual({ b: 1, c: null });
  });
  it('clone is deep; undefined stays undefined', () => {
    const o = { a: { b: [1] } };
    const c = clone(o);
    expect(c).toEqual(o);
    expect(c.a).not.toBe(o.a);
    expect(clone(undefined)).toBeUndefined();
  });
  it('isEmptyObject: objects whose values are all undefined', () => {
    expect([{}, { a: undefined }].map(isEmptyObject)).toEqual([true, true]);
    expect([{ a: null }, { a: 0 }, [], null, undefined, '', 'x', 0].map(isEmptyObject)).toEqual([false, false, false, false, false, false, false, false]);
  });
  it('dropEmpty drops only the named empty keys, on a copy', () => {
    const o = { a: {}, b: {}, c: { x: 1 } };
    expect(dropEmpty(o, 'a', 'c')).toStrictEqual({ b: {}, c: { x: 1 } });
    expect(o).toStrictEqual({ a: {}, b: {}, c: { x: 1 } });
  });
  it('dropEmpty gives the value itself when no named key is empty (no copy of a normalised value)', () => {
    const o = { a: { x: 1 }, b: {} };
    expect(dropEmpty(o, 'a', 'missing')).toBe(o);
    const dropped = dropEmpty(o, 'a', 'b');
    expect(dropped).not.toBe(o);
    expect(dropped).toStrictEqual({ a: { x: 1 } });
    expect(Object.keys(dropEmpty({ c: 1, b: {}, a: 2 }, 'b'))).toEqual(['c', 'a']);
  });
});

describe('ids', () => {
  it('bareId strips an entity prefix before a UUID and lower-cases; other values stay', () => {
    expect(bareId(`OWNER-${U.toUpperCase()}`)).toBe(U);
    expect(bareId('Plain-ID')).toBe('plain-id');
    expect(bareId(7)).toBe(7);
  });
  it('isOurs: owned by the namespace, or declared (bare, lower-case)', () => {
    const q = { owns: (id: string) => id.startsWith('ns-'), declaredIds: new Set([U]) };
    expect(isOurs(q, 'ns-1')).toBe(true);
    expect(isOurs(q, `domain-${U.toUpperCase()}`)).toBe(true);
    expect(isOurs(q, 'other')).toBe(false);
    expect(isOurs(q, '')).toBe(false);
    expect(isOurs(q, 3)).toBe(false);
    expect(isOurs({}, 'ns-1')).toBe(false);
  });
  it('entryFor: as asked, bare, by another key form or by the object’s id', () => {
    expect(entryFor({ [U]: 1 }, `owner-${U}`)).toBe(1);
    expect(entryFor({ [`owner-${U}`]: 2 }, U)).toBe(2);
    expect(entryFor({ [U.toUpperCase()]: 3 }, U)).toBe(3);
    expect(entryFor({ k: { id: `Owner-${U}` } }, U)).toEqual({ id: `Owner-${U}` });
    expect(entryFor({ k: { id: V } }, U)).toBeUndefined();
    expect(entryFor({ k: undefined }, U)).toBeUndefined();
  });
});

describe('errors', () => {
  it('isNotFound by class name; isNotFoundReason by the words a server uses', () => {
    expect(isNotFound(Object.assign(new Error('x'), { name: 'NotFoundError' }))).toBe(true);
    expect(isNotFound(new Error('not found'))).toBe(false);
    expect(isNotFound(undefined)).toBe(false);
    expect(['NOT_FOUND', 'not found', 'notfound', 'Not-Found', 'test does not exist', 'no such test'].map(isNotFoundReason)).toEqual([true, true, true, true, true, true]);
    expect(['denied', 'found', 'exists'].map(isNotFoundReason)).toEqual([false, false, false]);
  });
  it('ignoreNotFound swallows NOT_FOUND only', async () => {
    await expect(ignoreNotFound(Promise.reject(Object.assign(new Error('x'), { name: 'NotFoundError' })))).resolves.toBeUndefined();
    await expect(ignoreNotFound(Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(ignoreNotFound(Promise.resolve(1))).resolves.toBeUndefined();
  });
  it('afterOf: a copy of the desired value, or an error naming the address and action', () => {
    const c = change({ after: { a: { b: 1 } } });
    const a = afterOf(c);
    expect(a).toEqual({ a: { b: 1 } });
    expect(a.a).not.toBe((c.after as Record<string, unknown>).a);
    expect(() => afterOf(change({ after: 'x' }))).toThrow('dq_owner.o: update without a desired value (after)');
  });
  it('errorsByAddress: by id, then bare id; the first error per address; unknown ids dropped', () => {
    const changes = [change({ id: U, address: 'a.1' }), change({ id: 'i2', address: 'a.2' })];
    const out = errorsByAddress(changes, [
      { id: `OWNER-${U}`, reason: 'first' },
      { id: U, reason: 'second' },
      { id: 'i2', reason: 'bad' },
      { id: 'zz', reason: 'unknown' },
    ]);
    expect([...out.entries()].map(([k, e]) => [k, e.message])).toEqual([
      ['a.1', `a.1 (OWNER-${U}): first`],
      ['a.2', 'a.2 (i2): bad'],
    ]);
  });
});

describe('live objects', () => {
  it('lifts id, etag, configId, source, deploymentRuleId; empty strings are absent', () => {
    const raw = { id: 'I', etag: 'E', configId: 'C', source: 'SOURCE_API', deploymentRuleId: 'D', name: 'n' };
    expect(liveObject('k', raw)).toStrictEqual({ key: 'k', id: 'I', raw, etag: 'E', configId: 'C', source: 'SOURCE_API', deploymentRuleId: 'D' });
    const empty = { id: '', etag: '', configId: '', source: '', deploymentRuleId: '' };
    expect(liveObject('k', empty)).toStrictEqual({ key: 'k', id: 'k', raw: empty });
  });
  it('marks soft-deleted and external-catalog objects', () => {
    expect(liveObject('k', { deletedAt: '2024-01-01' } as never).deleted).toBe(true);
    expect(liveObject('k', { deletedAt: '' } as never).deleted).toBeUndefined();
    expect(liveObject('k', { source: 'SOURCE_EXTERNAL_CATALOG' }).unmanageable).toEqual(['it comes from an external catalog (source SOURCE_EXTERNAL_CATALOG), read-only in the platform']);
    expect(liveObject('k', { source: 'SOURCE_UI' }).unmanageable).toBeUndefined();
  });
  it('listed: key, source and raw for import', () => {
    const o = { id: 'a', source: 'SOURCE_UI', x: 1 };
    expect(listed([o, { id: 'b' }])).toStrictEqual([
      { key: 'a', source: 'SOURCE_UI', raw: o },
      { key: 'b', source: undefined, raw: { id: 'b' } },
    ]);
  });
});

describe('reads', () => {
  it('readByKeys: no request for none; distinct keys sorted; keyed as asked', async () => {
    const fetch = jest.fn(async (ids: string[]) => Object.fromEntries(ids.filter((i) => i !== 'missing').map((i) => [String(bareId(i)), { id: String(bareId(i)), etag: `e-${i}` }])));
    expect(await readByKeys([], fetch)).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
    const out = await readByKeys(['b', `owner-${U}`, 'missing', 'b'], fetch);
    expect(fetch).toHaveBeenCalledWith(['b', 'missing', `owner-${U}`]);
    expect(out.map((o) => [o.key, o.id, o.etag])).toEqual([
      ['b', 'b', 'e-b'],
      [`owner-${U}`, U, `e-owner-${U}`],
    ]);
  });

  it('keepForNamespace: owned, asked (keyed as asked) and related (as context), one per id, sorted', () => {
    const all = [{ id: 'ns-b' }, { id: U }, { id: 'rel' }, { id: 'other' }, { id: 'ns-b', etag: 'dup' }, { id: 'ns-a' }];
    const out = keepForNamespace(all, { keys: [`OWNER-${U.toUpperCase()}`], owns: (id) => id.startsWith('ns-') }, (o) => o.id === 'rel' || o.id === 'ns-a');
    expect(out.map((o) => [o.key, o.context ?? false, o.etag])).toEqual([
      [`OWNER-${U.toUpperCase()}`, false, undefined],
      ['ns-a', false, undefined],
      ['ns-b', false, undefined],
      ['rel', true, undefined],
    ]);
    expect(keepForNamespace(all, { keys: [] }).map((o) => o.key)).toEqual([]);
  });
});

describe('write versions', () => {
  const c = change({ id: 'x' });
  it('passes the next version, unknown forms, and a retried write that landed', async () => {
    const no = jest.fn(async () => false);
    await expect(checkWriteVersion(c, 'owner', 'W/"x-3"', 'W/"x-4"', 0, no)).resolves.toBeUndefined();
    await expect(checkWriteVersion(change({ action: 'create' }), 'owner', undefined, 'W/"x-1"', 0, no)).resolves.toBeUndefined();
    await expect(checkWriteVersion(c, 'owner', 'opaque', 'W/"x-9"', 0, no)).resolves.toBeUndefined();
    await expect(checkWriteVersion(c, 'owner', 'W/"x-3"', undefined, 0, no)).resolves.toBeUndefined();
    expect(no).not.toHaveBeenCalled();
    await expect(checkWriteVersion(c, 'owner', 'W/"x-3"', 'W/"x-5"', 1, async () => true)).resolves.toBeUndefined();
  });

  it('a skipped version is a conflict that says what was expected', async () => {
    await expect(checkWriteVersion(c, 'owner', 'W/"x-3"', 'W/"x-5"', 0, async () => true)).rejects.toThrow(
      'conflict: the owner "x" was written by someone else while dqform wrote it (the platform answered version 5, expected 4 after version 3): this write replaced theirs. Plan again and review what live state holds now',
    );
    await expect(checkWriteVersion(change({ action: 'create', id: 'y' }), 'domain', undefined, 'W/"y-2"', 0, async () => true)).rejects.toThrow('the domain "y" was written by someone else while dqform wrote it (the platform answered version 2, expected 1 after a new object)');
    await expect(checkWriteVersion(c, 'owner', 'W/"x-3"', 'W/"x-3"', 2, async () => false)).rejects.toThrow('answered version 3, expected 4');
  });

  it('guardedUpsert sends the change’s etag; after a retry, reads back and compares canonical forms', async () => {
    const write = jest.fn(async (etag: string | undefined) => ({ etag: etag === 'W/"x-1"' ? 'W/"x-2"' : 'W/"x-7"' }));
    const get = jest.fn(async () => ({ x: { title: 'T' } }));
    expect(await guardedUpsert(change({ id: 'x', etag: 'W/"x-1"' }), 'owner', write, get, (o) => o)).toEqual({ etag: 'W/"x-2"' });
    expect(write).toHaveBeenCalledWith('W/"x-1"');
    expect(get).not.toHaveBeenCalled();
    const retried = async () => {
      noteRetry();
      return { etag: 'W/"x-9"' };
    };
    await expect(guardedUpsert(change({ id: 'x', etag: 'W/"x-1"', after: { title: 'T' } }), 'owner', retried, get, (o) => o)).resolves.toEqual({ etag: 'W/"x-9"' });
    expect(get).toHaveBeenCalledWith('x');
    await expect(guardedUpsert(change({ id: 'x', etag: 'W/"x-1"', after: { title: 'U' } }), 'owner', retried, get, (o) => o)).rejects.toThrow('answered version 9, expected 2');
    const none = jest.fn(async () => ({}));
    await expect(guardedUpsert(change({ id: 'x', etag: 'W/"x-1"' }), 'owner', retried, none, (o) => o)).rejects.toThrow('answered version 9, expected 2');
  });
});
