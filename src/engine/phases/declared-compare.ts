/**
 * What the declared phase asks of an existing object's live form (`before`) and its desired form
 * (`after`), in one walk: are they {@link sameJson}; is `before` canonical JSON
 * ({@link isCanonicalJson}: its fingerprint is then JSON.stringify's text, no sorting copy); and
 * `before`'s {@link secretPointers}. Three walks of every object of a plan (10,000 of them in a
 * no-change plan) were a third of the phase. Pure; the answers are those of the three functions.
 */
import { SECRET_KEYS } from './values';

/** The answers of one {@link compareLive}. */
export interface LiveComparison {
  /** `sameJson(before, after)`. */
  same: boolean;
  /** `isCanonicalJson(before)`. */
  canonical: boolean;
  /** `secretPointers(before)` (in the same order). */
  secrets: string[];
}

interface Walk {
  canonical: boolean;
  secrets: string[];
  /** The keys from the root to the value walked (pushed and popped). */
  at: (string | number)[];
}

/** Walks `before` (and `after` beside it) once: see the module's doc. */
export function compareLive(before: unknown, after: unknown): LiveComparison {
  const w: Walk = { canonical: true, secrets: [], at: [] };
  const same = visit(before, after, true, true, w);
  return { same, canonical: w.canonical, secrets: w.secrets };
}

const hasOwn = Object.prototype.hasOwnProperty;

function isPlain(o: object): boolean {
  const p = Object.getPrototypeOf(o) as unknown;
  return p === Object.prototype || p === null;
}

function pointerOf(at: readonly (string | number)[], last: string): string {
  let p = '';
  for (const k of at) p += `/${k}`;
  return `${p}/${last}`;
}

/**
 * `sameJson(a, b)` when `cmp` (false otherwise); records in `w` whether `a` is canonical and, when
 * `sec`, `a`'s secret pointers (secretPointers does not look under a secret-named key).
 */
function visit(a: unknown, b: unknown, cmp: boolean, sec: boolean, w: Walk): boolean {
  if (!a || typeof a !== 'object') return cmp && a === b;
  // the same object: sameJson answers at once, the walk of `a` goes on
  const ident = a === b;
  if (Array.isArray(a)) {
    let same = cmp && !ident && Array.isArray(b) && b.length === a.length;
    for (let i = 0; i < a.length; i++) {
      const x: unknown = a[i];
      if (x && typeof x === 'object') {
        w.at.push(i);
        const e = visit(x, same ? (b as unknown[])[i] : undefined, same, sec, w);
        w.at.pop();
        if (!e) same = false;
      } else if (same && x !== (b as unknown[])[i]) same = false;
    }
    return cmp && (ident || same);
  }
  const plain = isPlain(a);
  if (!plain) w.canonical = false;
  let same = cmp && !ident && plain && !!b && typeof b === 'object' && !Array.isArray(b) && isPlain(b);
  const o = a as Record<string, unknown>;
  const keys = Object.keys(o);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i];
    if (k === 'toJSON') {
      w.canonical = false;
      same = false;
    } else if (i > 0 && keys[i - 1] > k) w.canonical = false;
    if (same && !hasOwn.call(b, k)) same = false;
    const secret = sec && SECRET_KEYS.has(k);
    if (secret) w.secrets.push(pointerOf(w.at, k));
    const x = o[k];
    if (x && typeof x === 'object') {
      // a non-plain `a` is not canonical and not the same: only its secrets are looked for
      if (plain || (sec && !secret)) {
        w.at.push(k);
        const e = visit(x, same ? (b as Record<string, unknown>)[k] : undefined, same, sec && !secret, w);
        w.at.pop();
        if (!e) same = false;
      }
    } else if (same && x !== (b as Record<string, unknown>)[k]) same = false;
  }
  // every key of `a` is one of `b`'s (none a `toJSON`): the same when `b` has no other
  if (same) {
    let n = keys.length;
    for (const _k in b as object) {
      if (--n < 0) {
        same = false;
        break;
      }
    }
  }
  return cmp && (ident || same);
}
