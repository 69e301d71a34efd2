/**
 * `normalise` (src/kinds/shared/normalise.ts) was rewritten for speed (issue 27: no filtered copy
 * of the top level when nothing is dropped, indexed loops, zero values tested inline). Its output
 * must stay what the walk it replaced gave, key order included: the reference below is that walk,
 * run on seeded random values (zero values, `*_UNSPECIFIED` enums, unordered lists, ResolverQL
 * selections, nesting, an own `__proto__` key). NORMALISE_SEED=<n> reruns a failing seed.
 */
import { canonicalOrSelf, normalise, UNORDERED_KEYS } from '../../src/kinds/shared/normalise';
import { inKeyOrder, isCanonicalJson } from '../../schemas/tools/canonical-json';
import { mulberry32 } from '../../src/emulator/random';

const SEED = Number(process.env.NORMALISE_SEED ?? 20261127);

/** The walk before issue 27's rewrite, verbatim but for names. */
function refStable(v: unknown): string {
  if (isCanonicalJson(v)) return JSON.stringify(v);
  return JSON.stringify(v, (_k, x: unknown) => inKeyOrder(x));
}
function refIsZero(v: unknown): boolean {
  return v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0) || (typeof v === 'string' && v.endsWith('_UNSPECIFIED'));
}
function refNorm(v: unknown, key: string): unknown {
  if (Array.isArray(v)) {
    const items = v.map((x) => refNorm(x, ''));
    if (!UNORDERED_KEYS.has(key)) return items;
    const keyed: { x: unknown; s: string }[] = [];
    let undef = 0;
    for (const x of items) {
      if (x === undefined) undef++;
      else keyed.push({ x, s: refStable(x) });
    }
    keyed.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    const sorted = keyed.map((e) => e.x);
    for (; undef > 0; undef--) sorted.push(undefined);
    return sorted;
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const ql = typeof o.renderedResolverQl === 'string' && o.renderedResolverQl ? o.renderedResolverQl : typeof o.resolverQl === 'string' ? o.resolverQl : undefined;
    for (const k of Object.keys(o).sort()) {
      if (k === 'renderedResolverQl') continue;
      if (k === 'query' && ql !== undefined) continue;
      let x = o[k];
      if (k === 'resolverQl' && ql !== undefined) x = canonicalOrSelf(ql);
      x = refNorm(x, k);
      if (refIsZero(x)) continue;
      out[k] = x;
    }
    if (ql !== undefined && out.resolverQl === undefined) {
      out.resolverQl = canonicalOrSelf(ql);
      const sorted: Record<string, unknown> = {};
      for (const k of Object.keys(out).sort()) sorted[k] = out[k];
      return sorted;
    }
    return out;
  }
  return v;
}
function refNormalise(value: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  const top: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (!drop.includes(k)) top[k] = v;
  return refNorm(top, '') as Record<string, unknown>;
}

/** A small seeded generator (src/emulator/random.ts). */
const rng = mulberry32;

/** Everything the comparison cares about: key order, undefined members, prototypes. */
function canon(v: unknown): string {
  if (v === undefined) return 'undefined';
  if (typeof v !== 'object' || v === null) return JSON.stringify(v);
  if (Array.isArray(v)) return `[${v.map(canon).join(',')}]`;
  const proto = Object.getPrototypeOf(v) === Object.prototype ? '' : '<proto>';
  return `${proto}{${Object.keys(v).map((k) => `${JSON.stringify(k)}:${canon((v as Record<string, unknown>)[k])}`).join(',')}}`;
}

const KEYS = ['a', 'b', 'z', 'id', 'name', 'title', 'query', 'resolverQl', 'renderedResolverQl', 'recipientEmails', 'values', 'severities', 'steps', 'settings', '10', '2'];
const SCALARS: unknown[] = ['', 'x', 'b', 'SEVERITY_UNSPECIFIED', 'SEVERITY_ERROR', 0, 1, -1, 2.5, true, false, null, undefined, 'select 1', 'count(  orders )', 'sum(x) > 3'];

function generator(next: () => number) {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const value = (depth: number): unknown => {
    const r = next();
    if (depth <= 0 || r < 0.5) return pick(SCALARS);
    if (r < 0.7) return Array.from({ length: Math.floor(next() * 4) }, () => value(depth - 1));
    return object(depth - 1);
  };
  const object = (depth: number): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    const n = Math.floor(next() * 6);
    for (let i = 0; i < n; i++) o[pick(KEYS)] = value(depth);
    return o;
  };
  return { object };
}

describe('normalise against the walk it replaced', () => {
  it('gives the same output, key order included, on seeded random values (with and without dropped keys)', () => {
    const next = rng(SEED);
    const g = generator(next);
    for (let i = 0; i < 3000; i++) {
      const v = g.object(4);
      const drop = next() < 0.3 ? ['id', 'title'] : [];
      const want = canon(refNormalise(v, drop));
      const got = canon(normalise(v, drop));
      if (got !== want) throw new Error(`seed ${SEED}, value ${i}: ${canon(v)} drop ${JSON.stringify(drop)}\nwant ${want}\ngot  ${got}`);
    }
  });

  it('sorts keys as Array#sort does for every key count (insertion up to 16 keys, the built-in above; in order, reversed, shuffled)', () => {
    const next = rng(SEED + 1);
    const pool = ['a', 'B', 'b', 'Z', '_x', 'a1', 'a10', 'a2', 'é', 'ä', 'z', 'zz', 'resolverQl', 'query', '10', '2', '0', 'x-y', 'x_y', 'X', 'm', 'n', 'o', 'p', 'q', 'r', 's', 't'];
    for (let i = 0; i < 600; i++) {
      const n = i % 25;
      const keys = [...pool].sort(() => next() - 0.5).slice(0, n);
      if (i % 3 === 1) keys.sort();
      if (i % 3 === 2) keys.sort().reverse();
      const v: Record<string, unknown> = {};
      for (const k of keys) v[k] = next() < 0.5 ? k : { [keys[0] ?? 'k']: 1, a: 'SEVERITY_UNSPECIFIED', Z: 2 };
      const want = canon(refNormalise(v));
      const got = canon(normalise(v));
      if (got !== want) throw new Error(`seed ${SEED + 1}, value ${i}: ${canon(v)}\nwant ${want}\ngot  ${got}`);
    }
  });

  it('an own __proto__ key (JSON.parse makes one) vanishes at the top level as before, and the input is not changed', () => {
    const text = '{"__proto__": {"polluted": 1}, "b": 2, "a": {"__proto__": {"x": 1}, "y": ""}}';
    const v = JSON.parse(text) as Record<string, unknown>;
    expect(canon(normalise(v))).toBe(canon(refNormalise(JSON.parse(text) as Record<string, unknown>)));
    expect(Object.keys(normalise(v))).toEqual(['a', 'b']);
    expect(JSON.stringify(v)).toBe(JSON.stringify(JSON.parse(text)));
  });

  it('an array given as the top level is normalised as an object keyed by index, as before', () => {
    const v = ['b', '', { z: 1, a: false }] as unknown as Record<string, unknown>;
    expect(canon(normalise(v))).toBe(canon(refNormalise(v)));
    expect(normalise(v)).toEqual({ 0: 'b', 2: { z: 1 } });
  });
});
