/**
 * Normalisation shared by the handlers: both the live read and the desired config are brought
 * to one comparable form so that a plan right after an apply is empty.
 *
 * - protojson omits zero values: `false`, `""`, `0`-valued enums (`*_UNSPECIFIED`), `[]` and
 *   `null` are dropped on both sides; empty objects are kept (oneof markers like `{ stream: {} }`).
 * - server-computed fields are dropped (the `drop` list of each kind).
 * - ResolverQL is compared in canonical form: a live `renderedResolverQl` (or `resolverQl`) and a
 *   desired `resolverQl` both go through `canonicalResolverQl`; the translated `query` the server
 *   stores next to a `resolverQl` is dropped.
 * - unordered lists (e-mail recipients, severities, metric ids, states, ...) are sorted.
 * - keys are sorted, so JSON comparison and patches are deterministic.
 */
import { canonicalResolverQlLenient } from '../../../schemas/tools/resolverql';
import { hash } from 'node:crypto';
import { inKeyOrder, isCanonicalJson } from '../../../schemas/tools/canonical-json';
import { stripEntityPrefix } from '../descriptors';

/** Lists whose order carries no meaning. */
export const UNORDERED_KEYS = new Set([
  'recipientEmails',
  'userEmails',
  'severities',
  'metricIds',
  'states',
  'values',
  'acceptedValues',
  'targets',
  'contacts',
  'annotations',
  'metricOptions',
]);

/** Canonical ResolverQL (functions dqform does not know rendered like any call), or the text trimmed when it does not parse. */
export function canonicalOrSelf(text: string): string {
  let c = canonicalCache.get(text);
  if (c === undefined) {
    try {
      c = canonicalResolverQlLenient(text);
    } catch {
      c = text.trim();
    }
    if (canonicalCache.size >= CANONICAL_CACHE_MAX) canonicalCache.clear();
    canonicalCache.set(text, c);
  }
  return c;
}

/**
 * Memo of {@link canonicalOrSelf} (a pure function of the text): a workspace repeats the same
 * few ResolverQL texts across thousands of objects, on both the live and the desired side.
 */
const canonicalCache = new Map<string, string>();
const CANONICAL_CACHE_MAX = 10_000;

/**
 * JSON with object keys sorted at every depth. A value already in canonical form (every
 * normalised value: {@link isCanonicalJson}) is serialised by JSON.stringify alone, without a
 * replacer; an object whose keys are already in order is serialised as is instead of being
 * copied: the output is the same.
 */
function stable(v: unknown): string {
  if (isCanonicalJson(v)) return JSON.stringify(v);
  return JSON.stringify(v, (_k, x: unknown) => inKeyOrder(x));
}

/**
 * Normalises a value: drops `drop` keys at the top level and zero values everywhere, sorts
 * unordered lists and keys, canonicalises ResolverQL.
 */
export function normalise(value: Record<string, unknown>, drop: readonly string[] = []): Record<string, unknown> {
  // nothing to drop: no filtered copy of the top level first (an own `__proto__` key, which
  // JSON.parse makes, vanished in that copy: such a value is still copied)
  if (drop.length === 0 && isPlainRecord(value) && !Object.prototype.hasOwnProperty.call(value, '__proto__')) return norm(value, '') as Record<string, unknown>;
  const top: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) if (!drop.includes(keys[i])) top[keys[i]] = value[keys[i]];
  return norm(top, '') as Record<string, unknown>;
}

function isPlainRecord(v: unknown): boolean {
  if (!v || typeof v !== 'object' || Array.isArray(v)) return false;
  const p = Object.getPrototypeOf(v) as unknown;
  return p === Object.prototype || p === null;
}

/**
 * The walk of {@link normalise}. Written for V8's interpreter (a plan runs it once per object,
 * mostly before any of it is optimised): indexed loops, no callback per item, and no call for a
 * scalar member. Zero values (dropped): undefined, null, false, "", a `*_UNSPECIFIED` enum, [].
 */
function norm(v: unknown, key: string): unknown {
  if (Array.isArray(v)) {
    const items: unknown[] = [];
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      items.push(x !== null && typeof x === 'object' ? norm(x, '') : x);
    }
    // fewer than two items are in order (most unordered lists read hold one): no canonical JSON
    return items.length < 2 || !UNORDERED_KEYS.has(key) ? items : sortedByCanonical(items);
  }
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    // one pass over the keys: whether they are in order already (most are: one key, or a form
    // read back; then no sort) and whether a ResolverQL key is there (else no look-up of two
    // keys most objects lack)
    const keys = Object.keys(o);
    let inOrder = true;
    let qlKey = false;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      if (k === 'resolverQl' || k === 'renderedResolverQl') qlKey = true;
      if (inOrder && i > 0 && keys[i - 1] > k) inOrder = false;
    }
    if (!inOrder) sortKeys(keys);
    const ql = !qlKey ? undefined : typeof o.renderedResolverQl === 'string' && o.renderedResolverQl ? o.renderedResolverQl : typeof o.resolverQl === 'string' ? o.resolverQl : undefined;
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i];
      let x = o[k];
      if (ql !== undefined) {
        if (k === 'renderedResolverQl' || k === 'query') continue;
        if (k === 'resolverQl') x = canonicalOrSelf(ql);
      } else if (k === 'renderedResolverQl') continue;
      if (x !== null && typeof x === 'object') {
        x = norm(x, k);
        if (Array.isArray(x) && x.length === 0) continue;
      } else if (x === undefined || x === null || x === false || (typeof x === 'string' && (x === '' || x.endsWith('_UNSPECIFIED')))) continue;
      out[k] = x;
    }
    // `out` was filled in sorted key order; only an appended resolverQl needs a re-sort
    if (ql !== undefined && out.resolverQl === undefined) {
      out.resolverQl = canonicalOrSelf(ql);
      return sortObj(out);
    }
    return out;
  }
  return v;
}

/**
 * An unordered list's items sorted by each one's canonical JSON, computed once per item (not twice
 * per comparison); undefined items go last, as Array.prototype.sort puts them.
 */
function sortedByCanonical(items: readonly unknown[]): unknown[] {
  const keyed: { x: unknown; s: string }[] = [];
  let undef = 0;
  for (let i = 0; i < items.length; i++) {
    const x = items[i];
    if (x === undefined) undef++;
    else keyed.push({ x, s: stable(x) });
  }
  keyed.sort((a, b) => (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
  const sorted = keyed.map((e) => e.x);
  for (; undef > 0; undef--) sorted.push(undefined);
  return sorted;
}

/**
 * Sorts an object's keys in place as `Array#sort` without a comparator does (by UTF-16 code
 * units; keys are distinct, so stability does not matter): a short list (most objects have 2-6
 * keys) by insertion with `<`, which is several times cheaper than the built-in's generic
 * compare in V8's interpreter; a long one by the built-in.
 */
function sortKeys(keys: string[]): void {
  const n = keys.length;
  if (n > 16) {
    keys.sort();
    return;
  }
  for (let i = 1; i < n; i++) {
    const k = keys[i];
    let j = i - 1;
    while (j >= 0 && keys[j] > k) {
      keys[j + 1] = keys[j];
      j--;
    }
    keys[j + 1] = k;
  }
}

function sortObj(o: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o).sort()) out[k] = o[k];
  return out;
}

/** sha256 of a value's canonical JSON. */
export function fingerprint(v: unknown): string {
  return hash('sha256', stable(v), 'hex').slice(0, 32);
}

/** {@link fingerprint} of a value the caller found canonical ({@link isCanonicalJson} true): not checked again. */
export function canonicalFingerprint(v: unknown): string {
  return textFingerprint(JSON.stringify(v));
}

/** {@link fingerprint} of a value whose canonical JSON the caller made: that text's sha256. */
export function textFingerprint(canonicalText: string): string {
  return hash('sha256', canonicalText, 'hex').slice(0, 32);
}

/** Strips an `owner-`/`domain-`/`dataproduct-` prefix from an id. */
export function bare(id: unknown): unknown {
  return typeof id === 'string' ? stripEntityPrefix(id) : id;
}
