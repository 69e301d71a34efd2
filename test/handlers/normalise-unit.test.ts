/**
 * normalise, word for word: which lists are unordered, how they sort (by each item's canonical
 * JSON, keys sorted inside, ties stable, holes last), which values count as zero, and how
 * ResolverQL is canonicalised (the rendered form wins, the structured query goes).
 * (Written for the survivors of the mutation run of src/handlers, issue 12.)
 *
 * @gateway
 */
import { canonicalOrSelf, fingerprint, normalise, UNORDERED_KEYS } from '../../src/kinds/shared/normalise';

test('the unordered lists', () => {
  expect([...UNORDERED_KEYS].sort()).toEqual(['acceptedValues', 'annotations', 'contacts', 'metricIds', 'metricOptions', 'recipientEmails', 'severities', 'states', 'targets', 'userEmails', 'values']);
});

test.each([...UNORDERED_KEYS])('%s is sorted; other lists keep their order', (key) => {
  expect(normalise({ [key]: ['b', 'a', 'c'], other: ['b', 'a'] })).toEqual({ [key]: ['a', 'b', 'c'], other: ['b', 'a'] });
});

test('objects in an unordered list sort by their canonical JSON (keys sorted inside), holes last', () => {
  const out = normalise({ targets: [{ slack: { channel: '#b' } }, undefined, { email: { z: 1, a: 2 } }, { slack: { channel: '#a' } }] });
  expect(JSON.stringify(out)).toBe('{"targets":[{"email":{"a":2,"z":1}},{"slack":{"channel":"#a"}},{"slack":{"channel":"#b"}},null]}');
});

test('zero values go: undefined, null, false, "", [], *_UNSPECIFIED; zero numbers and {} stay', () => {
  expect(normalise({ a: undefined, b: null, c: false, d: '', e: [], f: 'SEVERITY_UNSPECIFIED', g: 0, h: {}, i: 'x', j: true })).toEqual({ g: 0, h: {}, i: 'x', j: true });
});

test('keys sorted at every depth; the top-level drop list applies at the top only', () => {
  const out = normalise({ z: { b: 1, a: { d: 1, c: 2 } }, etag: 'e', inner: { etag: 'kept' } }, ['etag']);
  expect(JSON.stringify(out)).toBe('{"inner":{"etag":"kept"},"z":{"a":{"c":2,"d":1},"b":1}}');
});

test('ResolverQL: the rendered text wins over the written one, the structured query goes, an empty rendering does not count', () => {
  expect(normalise({ trigger: { resolverQl: 'with_type( "table" )', renderedResolverQl: 'with_tag("x")', query: { parts: [1] } } })).toEqual({ trigger: { resolverQl: 'with_tag("x")' } });
  expect(normalise({ trigger: { resolverQl: 'with_type( "table" )', renderedResolverQl: '' } })).toEqual({ trigger: { resolverQl: 'with_type("table")' } });
  expect(normalise({ trigger: { renderedResolverQl: 'with_tag( "y" )', query: { parts: [1] }, zeta: 1 } })).toEqual({ trigger: { resolverQl: 'with_tag("y")', zeta: 1 } });
  expect(Object.keys(normalise({ trigger: { renderedResolverQl: 'with_tag("y")', aa: 1, zz: 2 } }).trigger as object)).toEqual(['aa', 'resolverQl', 'zz']);
  expect(normalise({ trigger: { query: { parts: [1] } } })).toEqual({ trigger: { query: { parts: [1] } } });
});

test('canonicalOrSelf: canonical text, or the trimmed text when it does not parse; the same answer twice', () => {
  expect(canonicalOrSelf('with_type( "table" )')).toBe('with_type("table")');
  expect(canonicalOrSelf('  not ( ql  ')).toBe('not ( ql');
  expect(canonicalOrSelf('  not ( ql  ')).toBe('not ( ql');
});

test('fingerprint ignores key order, not list order', () => {
  expect(fingerprint({ a: 1, b: { c: 2, d: 3 } })).toBe(fingerprint({ b: { d: 3, c: 2 }, a: 1 }));
  expect(fingerprint({ a: [1, 2] })).not.toBe(fingerprint({ a: [2, 1] }));
  expect(fingerprint({ a: 1 })).toMatch(/^[0-9a-f]{32}$/);
});
