/**
 * The planner's value helpers in-process (src/engine/phases/values.ts, pure): `ignoreChanges`
 * applied field by field, secret pointers, the fast JSON equality and JSON pointers with escapes.
 * The plans they shape: test/engine/ignore-changes.test.ts, planner tests and golden plans.
 */
import { applyIgnore, getPointer, liveAddress, sameJson, secretPointers, secretPointersOf } from '../../src/engine/phases/values';

describe('applyIgnore', () => {
  const before = { title: 'live', nested: { a: 1, b: { c: 'live-c' } }, list: [1] };
  test('nothing ignored: the code; all: live', () => {
    const after = { title: 'code' };
    expect(applyIgnore(before, after, undefined)).toBe(after);
    expect(applyIgnore(before, after, [])).toEqual(after);
    expect(applyIgnore(before, after, 'all')).toBe(before);
  });
  test("each ignored field takes live's value (a copy), at any depth; the rest is the code's", () => {
    const after = { title: 'code', nested: { a: 2, b: { c: 'code-c', d: 'code-d' } }, list: [2] };
    const out = applyIgnore(before, after, ['title', 'nested.b.c', 'list']);
    expect(out).toEqual({ title: 'live', nested: { a: 2, b: { c: 'live-c', d: 'code-d' } }, list: [1] });
    expect(out.list).not.toBe(before.list);
    // the code's object is not changed
    expect(after).toEqual({ title: 'code', nested: { a: 2, b: { c: 'code-c', d: 'code-d' } }, list: [2] });
  });
  test('a field live does not have is left out; missing or scalar parents in the code are made objects', () => {
    expect(applyIgnore(before, { title: 'code', extra: 'x' }, ['extra'])).toEqual({ title: 'code' });
    expect(applyIgnore(before, { title: 'code' }, ['nested.b.c'])).toEqual({ title: 'code', nested: { b: { c: 'live-c' } } });
    expect(applyIgnore(before, { nested: 'scalar' }, ['nested.a'])).toEqual({ nested: { a: 1 } });
    expect(applyIgnore(before, { nested: null }, ['nested.a'])).toEqual({ nested: { a: 1 } });
    expect(applyIgnore({ nested: 'scalar' }, { nested: { a: 5, z: 1 } }, ['nested.a'])).toEqual({ nested: { z: 1 } });
    expect(applyIgnore({}, { nested: { a: 5 } }, ['nested.b.c'])).toEqual({ nested: { a: 5, b: {} } });
  });
});

describe('secretPointers', () => {
  test('every secret-named key, depth first in key order, through objects and arrays', () => {
    const v = {
      title: 'x',
      password: 'p',
      config: { host: 'h', token: 't', nested: [{ apiKey: 'k' }, 'scalar', null, [{ secret: 's' }]] },
      a: { privateKey: '', serviceAccountKey: 1, clientSecret: null, passwordVersion: 2, notASecret: 'x' },
    };
    expect(secretPointers(v)).toEqual(['/password', '/config/token', '/config/nested/0/apiKey', '/config/nested/3/0/secret', '/a/privateKey', '/a/serviceAccountKey', '/a/clientSecret']);
    expect(secretPointers([{ token: 1 }, 2])).toEqual(['/0/token']);
    expect(secretPointers('password')).toEqual([]);
    expect(secretPointers(null)).toEqual([]);
  });
  test('of two values: the sorted union, each once', () => {
    expect(secretPointersOf({ token: 1, b: { password: 1 } }, { token: 2, a: { secret: 1 } })).toEqual(['/a/secret', '/b/password', '/token']);
    expect(secretPointersOf({ title: 'x' }, null)).toEqual([]);
    expect(secretPointersOf(null, { apiKey: 'k' })).toEqual(['/apiKey']);
  });
  test('of two values found the same (sameJson): the pointers of the first, sorted, each once; the second is not walked', () => {
    const before = { token: 1, b: { password: 1 }, a: [{ secret: 1 }] };
    const after = { a: [{ secret: 1 }], b: { password: 1 }, token: 1 };
    expect(secretPointersOf(before, after, true)).toEqual(secretPointersOf(before, after));
    expect(secretPointersOf(before, after, true)).toEqual(['/a/0/secret', '/b/password', '/token']);
    const unwalkable = {
      get nested(): unknown {
        throw new Error('walked');
      },
    };
    expect(secretPointersOf({ title: 'x' }, unwalkable, true)).toEqual([]);
    expect(() => secretPointersOf({ title: 'x' }, unwalkable)).toThrow('walked');
  });
});

describe('sameJson', () => {
  test.each<[string, unknown, unknown, boolean]>([
    ['identical primitives', 'a', 'a', true],
    ['different primitives', 1, 2, false],
    ['number and string', 1, '1', false],
    ['null and object', null, {}, false],
    ['object and null', {}, null, false],
    ['equal nested', { a: [1, { b: 'x' }], c: null }, { c: null, a: [1, { b: 'x' }] }, true],
    ['arrays of different length', [1, 2], [1, 2, 3], false],
    ['arrays in different order', [1, 2], [2, 1], false],
    ['array and object', [1], { 0: 1 }, false],
    ['object and array', { 0: 1 }, [1], false],
    ['a key more on the right', { a: 1 }, { a: 1, b: 2 }, false],
    ['a key more on the left', { a: 1, b: 2 }, { a: 1 }, false],
    ['same count, other keys', { a: 1 }, { b: 1 }, false],
    ['an undefined member against a missing one', { a: undefined }, {}, false],
    ['a nested difference', { a: { b: [1] } }, { a: { b: [2] } }, false],
    ['a Date is never taken as equal (compare decides)', new Date(0), new Date(0), false],
    ['a toJSON member', { toJSON: 1 }, { toJSON: 1 }, false],
    ['a toJSON member on the right only', { a: 1 }, { a: 1, toJSON: 1 }, false],
    ['objects without prototype', Object.assign(Object.create(null), { a: 1 }), { a: 1 }, true],
    ['empty objects', {}, {}, true],
  ])('%s', (_why, a, b, want) => {
    expect(sameJson(a, b)).toBe(want);
  });
});

test('JSON pointers with ~1 and ~0 escapes; addresses of live objects', () => {
  expect(getPointer({ 'a/b': { 'c~d': 1 } }, '/a~1b/c~0d')).toBe(1);
  expect(getPointer({ a: null }, '/a/b')).toBeUndefined();
  expect(liveAddress('dq_owner', 'x"y')).toBe('dq_owner["x\\"y"]');
});
