/**
 * Value helpers of the planner's phases: JSON pointers, `ignoreChanges`, secret pointers, a
 * fast JSON equality. Pure.
 */
import type { ResourceType } from '../../../schemas/model/manifest';

/** Secret-named keys (exact names: a set lookup per key, which a plan does for every key of every object). */
export const SECRET_KEYS: ReadonlySet<string> = new Set(['password', 'token', 'privateKey', 'serviceAccountKey', 'apiKey', 'secret', 'clientSecret']);

/** Address used for live objects that no declared resource names. */
export function liveAddress(type: ResourceType, key: string): string {
  return `${type}[${JSON.stringify(key)}]`;
}

export function getPointer(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

/** Applies `ignoreChanges`: for each ignored field, `after` takes `before`'s value. */
export function applyIgnore(before: Record<string, unknown>, after: Record<string, unknown>, ignore: string[] | 'all' | undefined): Record<string, unknown> {
  if (!ignore) return after;
  if (ignore === 'all') return before;
  const out = structuredClone(after);
  for (const path of ignore) {
    const parts = path.split('.');
    let src: unknown = before;
    let dst: Record<string, unknown> = out;
    for (let i = 0; i < parts.length - 1; i++) {
      src = src && typeof src === 'object' ? (src as Record<string, unknown>)[parts[i]] : undefined;
      if (!dst[parts[i]] || typeof dst[parts[i]] !== 'object') dst[parts[i]] = {};
      dst = dst[parts[i]] as Record<string, unknown>;
    }
    const last = parts[parts.length - 1];
    const v = src && typeof src === 'object' ? (src as Record<string, unknown>)[last] : undefined;
    if (v === undefined) delete dst[last];
    else dst[last] = structuredClone(v);
  }
  return out;
}

/**
 * JSON pointers of secret-named keys in `v` (depth first, in key order). The keys from the root
 * down are kept in `at` (pushed and popped): a pointer's text is built only for a secret, not for
 * every object walked.
 */
export function secretPointers(v: unknown, out: string[] = [], at: (string | number)[] = []): string[] {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x && typeof x === 'object') {
        at.push(i);
        secretPointers(x, out, at);
        at.pop();
      }
    }
  } else if (v && typeof v === 'object') {
    const keys = Object.keys(v);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (SECRET_KEYS.has(k)) out.push(pointerOf(at, k));
      else {
        const x = (v as Record<string, unknown>)[k];
        if (x && typeof x === 'object') {
          at.push(k);
          secretPointers(x, out, at);
          at.pop();
        }
      }
    }
  }
  return out;
}

function pointerOf(at: readonly (string | number)[], last: string): string {
  let p = '';
  for (const k of at) p += `/${k}`;
  return `${p}/${last}`;
}

/**
 * True when `jsonpatch.compare(a, b)` is empty, decided without building a patch, a key list or
 * a path per object: plain objects and arrays (nothing with a `toJSON` or another prototype,
 * which answer false so that compare decides) with the same own keys and equal members, and
 * primitives that are `===`. The common case of a plan (nothing changed) needs no more.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (k === 'toJSON' || !Object.prototype.hasOwnProperty.call(y, k) || !sameJson(x[k], y[k])) return false;
    n++;
  }
  for (const k in y) if (--n < 0 || k === 'toJSON') return false;
  return n === 0;
}

function isPlain(o: object): boolean {
  const p = Object.getPrototypeOf(o) as unknown;
  return p === Object.prototype || p === null;
}

/**
 * The sorted union of the secret pointers of `before` and `after`. `same`: the caller found them
 * {@link sameJson} (same keys at every depth, so the same pointers): `after` is not walked.
 */
export function secretPointersOf(before: unknown, after: unknown, same = false): string[] {
  return pointerUnion(secretPointers(before), same ? [] : secretPointers(after));
}

/** The sorted union of two lists of pointers. */
export function pointerUnion(a: readonly string[], b: readonly string[]): string[] {
  if (a.length === 0 && b.length === 0) return [];
  return [...new Set([...a, ...b])].sort();
}

