/**
 * `leanParseKnown` (schemas/tools/lean.ts), the one walk src/engine/resolve.ts `validatedConfig`
 * takes for a desired config (issue 27): it may accept only what the exact path accepts (no key
 * schemas/platform/wire.ts `unknownKeys` reports, and zod accepts), with zod's output. Each case
 * is one where the lean parse alone would accept a value `unknownKeys` reports a key in, so each
 * pins one of leanParseKnown's refusals (the seeded differential in lean-differential.test.ts
 * does not reach them all).
 */
import { z } from 'zod';
import { LEAN_REFUSED, leanParse, leanParseKnown } from '../../schemas/tools/lean';
import { unknownKeys } from '../../schemas/platform/wire';

/** What the exact path answers: zod's output when no unknown key is reported and zod accepts, else refused. */
function exact(schema: z.ZodType, value: unknown): unknown {
  if (unknownKeys(schema, value).length) return LEAN_REFUSED;
  const r = schema.safeParse(value);
  return r.success ? r.data : LEAN_REFUSED;
}

const P = z.object({ p: z.string().optional() });
const Q = z.object({ q: z.string().optional() });

describe.each<[string, z.ZodType, unknown, string[]]>([
  // unknownKeys checks an object against the first option holding all its keys (A), not the one that parses (B)
  ['a union of two object options', z.union([z.object({ x: P }), z.object({ x: Q })]), { x: { q: 'v' } }, ['x.q']],
  // a discriminated union goes to zod (its discriminator), which leanParseKnown refuses outright
  ['a discriminated union', z.discriminatedUnion('t', [z.object({ t: z.literal('a'), x: P }), z.object({ t: z.literal('b'), x: Q.strict().or(P) })]), { t: 'b', x: { q: 'v' } }, ['x.q']],
  // z.preprocess: unknownKeys reads the output schema's shape on the raw input
  ['a preprocessed object', z.preprocess((v) => (v && typeof v === 'object' ? { p: 'x' } : v), P), { q: 'v' }, ['q']],
  // a record's __proto__ key: the parse skips it, unknownKeys looks into it
  ['a record value under __proto__', z.record(z.string(), P), JSON.parse('{"k": {}, "__proto__": {"q": "v"}}'), ['__proto__.q']],
  // an undeclared key whose value is undefined, and one named like an Object.prototype member
  ['an undeclared key holding undefined', P, { p: 'x', q: undefined }, ['q']],
  ['an undeclared key named constructor', P, { p: 'x', constructor: 'y' }, ['constructor']],
  ['an undeclared key in an object with no prototype', P, Object.assign(Object.create(null) as object, { p: 'x', q: 'y' }), ['q']],
  ['an undeclared key in an array element', z.object({ l: z.array(P) }), { l: [{ p: 'x' }, { q: 'y' }] }, ['l[1].q']],
  ['an undeclared key under a defaulted, nullable, optional field', z.object({ o: P.nullable().optional().default(null) }), { o: { q: 'y' } }, ['o.q']],
  ['an undeclared key under catch', z.object({ c: P.catch({}) }), { c: { q: 'y' } }, ['c.q']],
])('%s', (_name, schema, value, reported) => {
  it('is reported by unknownKeys, passes the lean parse alone, and is refused by leanParseKnown', () => {
    expect(unknownKeys(schema, value)).toEqual(reported);
    // the case is one the plain lean parse accepts (zod strips the key unseen)
    expect(leanParse(schema, value)).not.toBe(LEAN_REFUSED);
    expect(leanParseKnown(schema, value)).toBe(LEAN_REFUSED);
  });
});

describe('what leanParseKnown accepts, the exact path accepts, with the same output', () => {
  it.each<[string, z.ZodType, unknown]>([
    ['a union with one object option', z.union([z.string(), P]), { p: 'x' }],
    ['a loose object and z.unknown() subtrees', z.looseObject({ p: z.string(), u: z.unknown() }), { p: 'x', extra: 1, u: { anything: { at: 'all' } } }],
    ['a record of objects', z.record(z.string(), P), { a: { p: 'x' }, b: {} }],
    ['an array of objects with defaults', z.array(z.object({ p: z.string().default('d') })), [{}, { p: 'x' }]],
  ])('%s', (_name, schema, value) => {
    const r = leanParseKnown(schema, structuredClone(value));
    expect(r).not.toBe(LEAN_REFUSED);
    expect(r).toEqual(exact(schema, structuredClone(value)));
  });
});
