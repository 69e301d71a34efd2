/**
 * unknownFields / closest / fieldPathProblem against small zod schemas of every wrapper kind
 * (intersection, lazy, union, pipe, record, optional, default, open objects), so a typo is found
 * at any depth whatever the schema is built from. (Written for the uncovered mutants of the
 * mutation run of src/engine, issue 12.)
 */
import { z } from 'zod';
import { closest, fieldPathProblem, unknownFields } from '../../src/engine/unknown-fields';

const Inner = z.object({ alpha: z.string(), beta: z.number().optional() });

describe('unknownFields', () => {
  test('an intersection knows the keys of both sides', () => {
    const S = z.intersection(z.object({ a: z.string() }), z.object({ b: z.string() }));
    expect(unknownFields(S, { a: 'x', b: 'y' })).toEqual([]);
    expect(unknownFields(S, { a: 'x', b: 'y', c: 1 })).toEqual([{ path: [], key: 'c', known: ['a', 'b'] }]);
  });

  test('an intersection with an open side accepts anything; with a side that is no object, nothing is checked', () => {
    expect(unknownFields(z.intersection(z.object({ a: z.string() }), z.looseObject({ b: z.string() })), { a: 'x', zz: 1 })).toEqual([]);
    expect(unknownFields(z.intersection(z.object({ a: z.string() }), z.string()), { a: 'x', zz: 1 })).toEqual([]);
  });

  test('lazy schemas and arrays behind them are followed', () => {
    const S = z.object({ items: z.lazy(() => z.array(Inner)), one: z.lazy(() => Inner) });
    expect(unknownFields(S, { items: [{ alpha: 'a' }, { alpha: 'b', bta: 1 }], one: { alpha: 'c', gamma: 2 } })).toEqual([
      { path: ['items', 1], key: 'bta', known: ['alpha', 'beta'] },
      { path: ['one'], key: 'gamma', known: ['alpha', 'beta'] },
    ]);
  });

  test('below the top level, an array inside a union is walked through its first array member', () => {
    // (at the top level, unknownFields first asks schemas/platform/wire.ts's compiled walk, which does not
    // look into arrays inside unions; no dqform schema has one)
    const S = z.union([z.string(), z.array(Inner)]);
    expect(unknownFields(S, [{ alpha: 'a', zeta: 1 }], ['xs'])).toEqual([{ path: ['xs', 0], key: 'zeta', known: ['alpha', 'beta'] }]);
  });

  test('a union of objects: the member that knows most of the keys is the one compared', () => {
    const S = z.union([z.object({ kind: z.literal('a'), left: z.string() }), z.object({ kind: z.literal('b'), right: z.string(), extra: z.string() })]);
    expect(unknownFields(S, { kind: 'b', right: 'r', extr: 'e' })).toEqual([{ path: [], key: 'extr', known: ['kind', 'right', 'extra'] }]);
  });

  test('records, pipes, defaults and nullables are seen through', () => {
    const S = z.object({
      byName: z.record(z.string(), Inner).optional(),
      piped: Inner.pipe(z.any()),
      withDefault: Inner.default({ alpha: 'd' }),
      maybe: Inner.nullable(),
    });
    expect(unknownFields(S, { byName: { k: { alpha: 'a', x1: 1 } }, piped: { alpha: 'p', x2: 1 }, withDefault: { alpha: 'w', x3: 1 }, maybe: { alpha: 'm', x4: 1 } })).toEqual([
      { path: ['byName', 'k'], key: 'x1', known: ['alpha', 'beta'] },
      { path: ['piped'], key: 'x2', known: ['alpha', 'beta'] },
      { path: ['withDefault'], key: 'x3', known: ['alpha', 'beta'] },
      { path: ['maybe'], key: 'x4', known: ['alpha', 'beta'] },
    ]);
  });

  test('a record behind a default is walked too', () => {
    const S = z.object({ byName: z.record(z.string(), Inner).default({}) });
    expect(unknownFields(S, { byName: { k: { alpha: 'a', x9: 1 } } })).toEqual([{ path: ['byName', 'k'], key: 'x9', known: ['alpha', 'beta'] }]);
  });

  test('a top-level array is walked element by element', () => {
    expect(unknownFields(z.array(Inner), [{ alpha: 'a' }, { alpha: 'b', q: 1 }])).toEqual([{ path: [1], key: 'q', known: ['alpha', 'beta'] }]);
  });
});

describe('closest', () => {
  test.each([
    ['titel', ['title', 'contacts'], 'title'],
    ['TITLE', ['title'], 'title'],
    ['contcts', ['title', 'contacts'], 'contacts'],
    ['abcd', ['wxyz'], undefined],
    ['abc', ['abcdef'], 'abcdef'],
    ['ab', ['abcdef'], undefined],
    ['severty', ['severity', 'severities'], 'severity'],
  ])('%s among %j -> %s', (key, known, want) => {
    expect(closest(key, known)).toBe(want);
  });
});

describe('fieldPathProblem', () => {
  const S = z.object({ settings: z.object({ severities: z.array(z.string()), name: z.string() }).optional(), open: z.looseObject({}) });
  test.each([
    [['settings', 'severities'], undefined],
    [['settings', 'sevrities'], { at: 'settings', key: 'sevrities', known: ['name', 'severities'], why: 'unknown' }],
    [['setings'], { at: '', key: 'setings', known: ['open', 'settings'], why: 'unknown' }],
    [['settings', 'name', 'x'], { at: 'settings.name', key: 'x', known: [], why: 'leaf' }],
    [['open', 'anything', 'deeper'], undefined],
  ])('%j -> %j', (parts, want) => {
    expect(fieldPathProblem(S, parts)).toEqual(want);
  });
});
