/**
 * The declared phase's one walk (src/engine/phases/declared-compare.ts, issue 27) answers what
 * the three walks it replaces answer: `sameJson(before, after)`, `isCanonicalJson(before)` and
 * `secretPointers(before)` (same pointers, same order), on a table of edge cases and on seeded
 * random values: plain JSON, unsorted keys, secret names (also under a secret and inside arrays),
 * `toJSON`, objects of other prototypes (Date, Map, a class, a null prototype), undefined and NaN
 * members, holes, and shared or identical sub-objects between the two sides.
 */
import { isCanonicalJson } from '../../schemas/tools/canonical-json';
import { compareLive } from '../../src/engine/phases/declared-compare';
import { sameJson, secretPointers } from '../../src/engine/phases/values';
import { mulberry32 } from '../../src/emulator/random';

const reference = (a: unknown, b: unknown) => ({ same: sameJson(a, b), canonical: isCanonicalJson(a), secrets: secretPointers(a) });

class Keyed {
  constructor(readonly token: string) {}
}
class Thing {
  constructor(readonly inner: unknown) {}
}

const KEYS = ['a', 'b', 'B', 'z', '10', '9', 'id', 'token', 'password', 'clientSecret', 'config', 'toJSON', ''];
const SCALARS: unknown[] = [null, undefined, true, false, 0, -0, 1.5, NaN, '', 'x', 'SEVERITY_ERROR'];

function randomValue(r: () => number, depth = 0): unknown {
  const k = r();
  if (depth > 4 || k < 0.3) return SCALARS[Math.floor(r() * SCALARS.length)];
  if (k < 0.5) {
    const arr: unknown[] = Array.from({ length: Math.floor(r() * 4) }, () => randomValue(r, depth + 1));
    if (r() < 0.05) arr.length += 1; // a hole at the end
    return arr;
  }
  if (k < 0.55) return [new Date(0), new Map([['a', 1]]), new Keyed('t'), new Thing({ b: [{ password: 1 }] }), Object.assign(Object.create(null) as object, { password: 'p', b: { token: 1 } })][Math.floor(r() * 5)];
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * (r() < 0.9 ? KEYS.length - 1 : KEYS.length))]] = randomValue(r, depth + 1);
  if (r() < 0.3) {
    // keys in sort order (as a normalised value has them)
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(o).sort()) sorted[key] = o[key];
    return sorted;
  }
  return o;
}

/** A deep copy that keeps prototypes and undefined members (JSON would drop them), sharing a sub-object now and then. */
function copy(r: () => number, v: unknown): unknown {
  if (!v || typeof v !== 'object') return v;
  if (r() < 0.1) return v; // the same object on both sides
  if (Array.isArray(v)) {
    const out: unknown[] = new Array(v.length);
    for (let i = 0; i < v.length; i++) if (i in v) out[i] = copy(r, v[i]);
    return out;
  }
  const proto = Object.getPrototypeOf(v) as object | null;
  if (proto !== Object.prototype && proto !== null) return v;
  const out = Object.create(proto) as Record<string, unknown>;
  for (const k of Object.keys(v)) out[k] = copy(r, (v as Record<string, unknown>)[k]);
  return out;
}

/** `v`'s copy with one change somewhere (or none), as a desired form beside a live one. */
function changed(r: () => number, v: unknown): unknown {
  const c = copy(r, v);
  if (r() < 0.4 || !c || typeof c !== 'object' || c === v) return r() < 0.9 ? c : randomValue(r);
  const keys = Object.keys(c);
  if (keys.length === 0) return r() < 0.5 ? c : randomValue(r);
  const key = keys[Math.floor(r() * keys.length)];
  const target = c as Record<string, unknown>;
  const op = r();
  if (op < 0.3) delete target[key];
  else if (op < 0.6) target[key] = randomValue(r, 3);
  else if (op < 0.8) target[`${key}2`] = 1;
  else target[key] = changed(r, target[key]);
  return c;
}

describe('compareLive answers what sameJson, isCanonicalJson and secretPointers answer', () => {
  const nullProto = Object.assign(Object.create(null) as object, { a: 1 });
  const shared = { token: 'x', b: [1, { password: 'p' }] };
  const cases: [string, unknown, unknown][] = [
    ['equal plain values, keys sorted', { a: 1, b: [1, { c: true }] }, { a: 1, b: [1, { c: true }] }],
    ['the same object', shared, shared],
    ['a shared sub-object', { x: shared }, { x: shared }],
    ['keys in another order: same, not canonical', { b: 1, a: 2 }, { a: 2, b: 1 }],
    ['a key only on one side', { a: 1 }, { a: 1, b: 2 }],
    ['an undefined member on one side', { a: undefined }, {}],
    ['undefined members on both sides', { a: undefined }, { a: undefined }],
    ['NaN is never the same', { a: NaN }, { a: NaN }],
    ['-0 and 0', { a: -0 }, { a: 0 }],
    ['a secret and what is under it', { password: { token: 1 }, x: [{ apiKey: 2 }, { secret: { clientSecret: 3 } }] }, {}],
    ['a secret in a non-plain object', { d: new Keyed('t') }, { d: new Keyed('t') }],
    ['a secret under a non-plain object', { d: new Thing({ b: [{ password: 1 }] }) }, {}],
    ['a Date and a Map', { d: new Date(0), m: new Map() }, { d: new Date(0), m: new Map() }],
    ['toJSON on either side', { toJSON: 1 }, { toJSON: 1 }],
    ['toJSON only after', { a: 1 }, JSON.parse('{"a":1,"toJSON":2}') as unknown],
    ['a null prototype', nullProto, { a: 1 }],
    ['arrays of other lengths', [1, 2], [1]],
    ['an array against an object', [1], { 0: 1 }],
    ['an object against an array', { 0: 1 }, [1]],
    ['integer-like keys', { 10: 1, 9: 2, a: 3 }, { 9: 2, 10: 1, a: 3 }],
    ['scalars', 'x', 'x'],
    ['null before', null, {}],
  ];
  it.each(cases)('%s', (_why, a, b) => {
    expect(compareLive(a, b)).toEqual(reference(a, b));
  });

  it('on seeded random values and their changed copies', () => {
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      const r = mulberry32(seed);
      for (let i = 0; i < 1500; i++) {
        const a = randomValue(r);
        const b = r() < 0.1 ? randomValue(r) : changed(r, a);
        expect({ seed, i, got: compareLive(a, b) }).toEqual({ seed, i, got: reference(a, b) });
      }
    }
  });
});
