/**
 * The plan's fast paths (issue 15) answer exactly what the slow paths they skip would answer:
 * - `sameJson(a, b)` true only when `jsonpatch.compare(a, b)` is empty (the planner then skips
 *   compare), and for plain JSON exactly then;
 * - `isCanonicalJson(v)` true only when `JSON.stringify(v)` is the canonical JSON the
 *   replacer-sorted writers produce (`stableStringify`, `fingerprint`), which then skip the
 *   replacer.
 * (Each writer is compared with its own former replacer: the two treat a `toJSON` differently.)
 * Each is checked on a table of cases (with the reason) and on seeded random JSON values.
 */
import { hash } from 'node:crypto';
import * as jsonpatch from 'fast-json-patch';
import { isCanonicalJson } from '../../schemas/tools/canonical-json';
import { stableStringify } from '../../src/engine/keys';
import { sameJson } from '../../src/engine/planner';
import { fingerprint } from '../../src/kinds/shared/normalise';
import { mulberry32 } from '../../src/emulator/random';

/** The replacer-only canonical JSON writer, as it was before the fast path (the reference). */
function referenceStable(value: unknown, indent?: number): string {
  const sorted = (keys: string[]) => keys.every((k, i) => i === 0 || keys[i - 1] <= k);
  return JSON.stringify(
    value,
    function (this: unknown, k: string, x: unknown) {
      const orig = (this as Record<string, unknown>)[k];
      if (orig !== x && orig && typeof orig === 'object') x = { ...(referenceSortDeep(orig) as object) };
      if (!x || typeof x !== 'object' || Array.isArray(x)) return x;
      const keys = Object.keys(x);
      if (sorted(keys)) return x;
      const out: Record<string, unknown> = {};
      for (const key of keys.sort()) out[key] = (x as Record<string, unknown>)[key];
      return out;
    },
    indent,
  );
}
/** normalise.ts's canonical JSON for fingerprints, as it was before the fast path. */
function referenceNormaliseStable(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) => {
    if (!x || typeof x !== 'object' || Array.isArray(x)) return x;
    const keys = Object.keys(x);
    if (keys.every((k, i) => i === 0 || keys[i - 1] <= k)) return x;
    const out: Record<string, unknown> = {};
    for (const k of keys.sort()) out[k] = (x as Record<string, unknown>)[k];
    return out;
  });
}
const referenceFingerprint = (v: unknown) => hash('sha256', referenceNormaliseStable(v), 'hex').slice(0, 32);
function referenceSortDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(referenceSortDeep);
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) if ((v as Record<string, unknown>)[k] !== undefined) out[k] = referenceSortDeep((v as Record<string, unknown>)[k]);
    return out;
  }
  return v;
}

/** A small seeded PRNG (mulberry32): the random cases are the same on every run. */
const rng = mulberry32;
const KEYS = ['a', 'b', 'B', 'z', '10', '9', 'ä', 'id', 'token', 'x_y', ''];
function randomJson(r: () => number, depth = 0): unknown {
  const k = r();
  if (depth > 3 || k < 0.35) return [null, true, false, 0, 1.5, -2, '', 'x', 'SEVERITY_ERROR'][Math.floor(r() * 9)];
  if (k < 0.6) return Array.from({ length: Math.floor(r() * 4) }, () => randomJson(r, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = Math.floor(r() * 5); i > 0; i--) o[KEYS[Math.floor(r() * KEYS.length)]] = randomJson(r, depth + 1);
  return o;
}
/** A copy of `v` with one random change somewhere (or none: then it is only a copy). */
function mutate(r: () => number, v: unknown): unknown {
  const c = JSON.parse(JSON.stringify(v ?? null)) as unknown;
  if (r() < 0.3 || !c || typeof c !== 'object') return r() < 0.5 ? c : randomJson(r);
  const keys = Object.keys(c);
  if (keys.length === 0) {
    (c as Record<string, unknown>)[Array.isArray(c) ? '0' : 'new'] = 1;
    return c;
  }
  const key = keys[Math.floor(r() * keys.length)];
  const op = r();
  if (op < 0.3 && !Array.isArray(c)) delete (c as Record<string, unknown>)[key];
  else if (op < 0.6) (c as Record<string, unknown>)[key] = mutate(r, (c as Record<string, unknown>)[key]);
  else (c as Record<string, unknown>)[key] = randomJson(r);
  return c;
}
/** The same value with its keys in reverse insertion order at every depth. */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
  return v;
}

describe('sameJson: true only when jsonpatch.compare finds nothing', () => {
  const date = new Date(0);
  const cases: [string, unknown, unknown, boolean][] = [
    ['the same object', { a: 1 }, { a: 1 }, true],
    ['keys in another order are the same JSON', { a: 1, b: [1, { c: 2 }] }, { b: [1, { c: 2 }], a: 1 }, true],
    ['a changed leaf', { a: { b: 1 } }, { a: { b: 2 } }, false],
    ['a key more', { a: 1 }, { a: 1, b: 2 }, false],
    ['a key less', { a: 1, b: 2 }, { a: 1 }, false],
    ['a longer list', [1, 2], [1, 2, 3], false],
    ['a list against an object with the same keys', [1], { 0: 1 }, false],
    ['null against an empty object', { a: null }, { a: {} }, false],
    ['0 against false', { a: 0 }, { a: false }, false],
    ['"1" against 1', ['1'], [1], false],
    ['an undefined member against a missing one', { a: 1, b: undefined }, { a: 1 }, false],
    ['undefined members on both sides', { a: undefined }, { a: undefined }, true],
    // not plain JSON: left to compare (false here, whatever compare says)
    ['a Date (compare reads its toJSON)', { d: date }, { d: new Date(0) }, false],
    ['an own toJSON', { toJSON: () => 1 }, { toJSON: () => 1 }, false],
    ['an object without prototype is plain JSON too', Object.assign(Object.create(null) as object, { a: 1 }), { a: 1 }, true],
  ];
  it.each(cases)('%s', (_why, a, b, same) => {
    expect(sameJson(a, b)).toBe(same);
    if (same) expect(jsonpatch.compare(a as object, b as object)).toEqual([]);
  });

  it('agrees with jsonpatch.compare on 3,000 random pairs of JSON values (copies, reorderings, one change)', () => {
    const r = rng(15);
    let equal = 0;
    for (let i = 0; i < 3000; i++) {
      const a = { v: randomJson(r) };
      const b = i % 3 === 0 ? (reordered(a) as object) : { v: mutate(r, a.v) };
      const s = sameJson(a, b);
      expect({ i, a, b, same: s }).toEqual({ i, a, b, same: jsonpatch.compare(a, b).length === 0 });
      if (s) equal++;
    }
    // both outcomes are exercised
    expect(equal).toBeGreaterThan(500);
    expect(equal).toBeLessThan(2700);
  });
});

describe('isCanonicalJson: JSON.stringify alone writes the canonical JSON', () => {
  const cases: [string, unknown, boolean][] = [
    ['a primitive', 'x', true],
    ['sorted keys at every depth', { a: [{ b: 1, c: null }], d: { e: true } }, true],
    ['unsorted top level', { b: 1, a: 2 }, false],
    ['unsorted inside a list', { a: [{ c: 1, b: 2 }] }, false],
    ['upper case sorts before lower case', { B: 1, a: 2 }, true],
    ['integer-like keys come first in property order, but sort as text ("10" < "9")', { 9: 1, 10: 2 }, false],
    ['a Date has toJSON', { a: new Date(0) }, false],
    ['an own toJSON', { toJSON: () => 'x' }, false],
    ['a class instance', { a: new (class K { x = 1; })() }, false],
    ['undefined members are dropped by both writers', { a: undefined, b: 1 }, true],
    // stableStringify copies only what is out of order (issue 27): each shape of that copy
    ['a sorted object holding an unsorted one, after a sorted member', { a: { y: 1 }, b: [{ d: 1, c: 2 }], e: 3 }, false],
    ['an own "__proto__" member of an unsorted object (JSON.parse makes one)', JSON.parse('{"z":1,"__proto__":{"b":1,"a":2}}'), false],
    ['an own "__proto__" member of a sorted object holding an unsorted one', JSON.parse('{"__proto__":1,"a":{"c":1,"b":2}}'), false],
    ['a Date deep inside an unsorted object', { b: [{ d: new Date(0), c: 1 }], a: 1 }, false],
    ['integer-like keys of an unsorted object', { b: { 10: 1, 9: 2, a: 3 }, a: 1 }, false],
  ];
  it.each(cases)('%s', (_why, v, canonical) => {
    expect(isCanonicalJson(v)).toBe(canonical);
    // whatever the answer, the writers' output is the reference's
    expect(stableStringify(v)).toBe(referenceStable(v));
    expect(stableStringify(v, 2)).toBe(referenceStable(v, 2));
    expect(fingerprint(v)).toBe(referenceFingerprint(v));
    if (canonical) expect(JSON.stringify(v)).toBe(referenceStable(v));
    if (canonical) expect(JSON.stringify(v)).toBe(referenceNormaliseStable(v));
  });

  it('stableStringify and fingerprint write what the replacer writes, on 2,000 random values (sorted or not)', () => {
    const r = rng(150);
    let canonical = 0;
    for (let i = 0; i < 2000; i++) {
      const raw = randomJson(r);
      const v = i % 2 ? referenceSortDeep(raw) : raw;
      expect({ i, out: stableStringify(v) }).toEqual({ i, out: referenceStable(v) });
      expect(fingerprint(v)).toBe(referenceFingerprint(v));
      if (isCanonicalJson(v)) {
        canonical++;
        expect(JSON.stringify(v)).toBe(referenceStable(v));
        expect(JSON.stringify(v)).toBe(referenceNormaliseStable(v));
      }
    }
    expect(canonical).toBeGreaterThan(1000);
    expect(canonical).toBeLessThan(2000);
  });
});
