/**
 * Canonical JSON (object keys sorted at every depth) is what dqform hashes and compares: the
 * manifest hash, live fingerprints, saved plans. Its writers (src/engine/keys.ts
 * `stableStringify`, src/kinds/shared/normalise.ts) sort through a JSON.stringify replacer, which is
 * slow on large values; most values they are given (normalised objects) are sorted already, and
 * for those JSON.stringify alone writes the same text.
 */

/**
 * True when `JSON.stringify(v)` is already `v`'s canonical JSON: every object reachable from `v`
 * is a plain object (or array) whose keys are in `Array.prototype.sort()` order and that has no
 * `toJSON`. Walks without allocating; normalised values always qualify.
 */
export function isCanonicalJson(v: unknown): boolean {
  if (!v || typeof v !== 'object') return true;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (!isCanonicalJson(v[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let prev: string | undefined;
  for (const k in v) {
    if (prev !== undefined && prev > k) return false;
    if (k === 'toJSON') return false;
    prev = k;
    if (!isCanonicalJson((v as Record<string, unknown>)[k])) return false;
  }
  return true;
}

/** True when `keys` is in `Array.prototype.sort()` order (UTF-16 code units). */
export function isSorted(keys: readonly string[]): boolean {
  for (let i = 1; i < keys.length; i++) if (keys[i - 1] > keys[i]) return false;
  return true;
}

/**
 * A JSON.stringify replacer's step of a key-sorted serialisation: an object with its keys in
 * sort order (a shallow copy, or the object itself when already in order); arrays and scalars as
 * they are.
 */
export function inKeyOrder(x: unknown): unknown {
  if (!x || typeof x !== 'object' || Array.isArray(x)) return x;
  const keys = Object.keys(x);
  if (isSorted(keys)) return x;
  const out: Record<string, unknown> = {};
  for (const k of keys.sort()) out[k] = (x as Record<string, unknown>)[k];
  return out;
}
