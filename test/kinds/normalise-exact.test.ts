/** Exact-output unit tests of src/kinds/shared/normalise.ts (in-process, no emulator). */
import { bare, fingerprint, normalise, UNORDERED_KEYS } from '../../src/kinds/shared/normalise';

describe('normalise', () => {
  it('drops protojson zero values and keeps empty objects', () => {
    expect(normalise({ a: false, b: '', c: [], d: null, e: undefined, f: 'X_UNSPECIFIED', g: {}, h: 0, i: true, j: 'v' })).toEqual({ g: {}, h: 0, i: true, j: 'v' });
  });

  it('drops only the listed top-level keys', () => {
    expect(normalise({ id: 'x', name: 'n', nested: { id: 'keep' } }, ['id'])).toEqual({ name: 'n', nested: { id: 'keep' } });
  });

  it('sorts keys at every depth', () => {
    const out = normalise({ b: 1, a: { z: 1, y: 2 } });
    expect(Object.keys(out)).toEqual(['a', 'b']);
    expect(Object.keys(out.a as object)).toEqual(['y', 'z']);
  });

  it('sorts unordered lists, keeps ordered ones, undefined items last', () => {
    expect(UNORDERED_KEYS.has('recipientEmails')).toBe(true);
    expect(UNORDERED_KEYS.has('steps')).toBe(false);
    expect(normalise({ recipientEmails: ['b', 'a', 'c'], steps: ['b', 'a'] })).toEqual({ recipientEmails: ['a', 'b', 'c'], steps: ['b', 'a'] });
    expect(normalise({ values: ['b', undefined, 'a'] })).toEqual({ values: ['a', 'b', undefined] });
    expect(normalise({ values: ['a', 'a'] })).toEqual({ values: ['a', 'a'] });
  });

  it('drops the translated query next to a resolverQl and prefers renderedResolverQl', () => {
    const out = normalise({ m: { renderedResolverQl: '  x  ', resolverQl: 'y', query: 'SELECT 1' } });
    expect(Object.keys(out.m as object)).toEqual(['resolverQl']);
    const q = normalise({ m: { query: 'SELECT 1' } });
    expect(q).toEqual({ m: { query: 'SELECT 1' } });
    const empty = normalise({ m: { renderedResolverQl: '', resolverQl: 'y' } });
    expect(Object.keys(empty.m as object)).toEqual(['resolverQl']);
  });

  it('appends a resolverQl from renderedResolverQl in sorted key order', () => {
    const out = normalise({ m: { z: 1, renderedResolverQl: 'y', a: 2 } });
    expect(Object.keys(out.m as object)).toEqual(['a', 'resolverQl', 'z']);
  });
});

describe('fingerprint and bare', () => {
  it('fingerprint is 32 hex chars and independent of key order', () => {
    expect(fingerprint({ a: 1, b: 2 })).toMatch(/^[0-9a-f]{32}$/);
    expect(fingerprint({ a: 1, b: 2 })).toBe(fingerprint({ b: 2, a: 1 }));
    expect(fingerprint({ a: 1 })).not.toBe(fingerprint({ a: 2 }));
  });

  it('bare strips entity prefixes of strings only', () => {
    expect(bare('owner-0123abcd-1111')).toBe('0123abcd-1111');
    expect(bare('owner-abc')).toBe('owner-abc');
    expect(bare('plain')).toBe('plain');
    expect(bare(5)).toBe(5);
  });
});
