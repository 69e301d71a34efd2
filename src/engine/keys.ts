/** Key conversion between Terraform's snake_case attributes and the API's lowerCamelCase. */
import { inKeyOrder, isCanonicalJson } from '../../schemas/tools/canonical-json';

/**
 * Memo of the key conversions (pure functions of the key): a manifest of 10,000 resources
 * converts the same few dozen attribute names over and over. Bounded; cleared when full.
 */
const camelCache = new Map<string, string>();
const snakeCache = new Map<string, string>();
const KEY_CACHE_MAX = 10_000;

function memo(cache: Map<string, string>, key: string, f: (k: string) => string): string {
  let v = cache.get(key);
  if (v === undefined) {
    v = f(key);
    if (cache.size >= KEY_CACHE_MAX) cache.clear();
    cache.set(key, v);
  }
  return v;
}

/** `recipient_emails` -> `recipientEmails`; keys already in camelCase are unchanged. */
export function snakeToCamel(key: string): string {
  return memo(camelCache, key, (k) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase()));
}

/** `recipientEmails` -> `recipient_emails`. */
export function camelToSnake(key: string): string {
  return memo(snakeCache, key, (k) => k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase());
}

/** Converts every object key, at every depth, with `f`. Arrays and scalars keep their values. */
export function mapKeysDeep(value: unknown, f: (k: string) => string): unknown {
  if (Array.isArray(value)) return value.map((v) => mapKeysDeep(v, f));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value)) out[f(k)] = mapKeysDeep((value as Record<string, unknown>)[k], f);
    return out;
  }
  return value;
}

/** Deterministic JSON: object keys sorted at every depth. */
export function sortKeysDeep<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => sortKeysDeep(v)) as unknown as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(value as Record<string, unknown>).sort()) {
      const v = (value as Record<string, unknown>)[k];
      if (v !== undefined) out[k] = sortKeysDeep(v);
    }
    return out as T;
  }
  return value;
}

/**
 * `JSON.stringify(sortKeysDeep(value), null, indent)`, without building the sorted copy: objects
 * whose keys are already in order are serialised as they are (JSON.stringify drops undefined
 * members itself), others through a sorted shallow copy. A value with `toJSON` (a Date) is
 * treated as `sortKeysDeep` treats it: as the plain object it is.
 */
export function stableStringify(value: unknown, indent?: number): string {
  // sorted plain objects all the way down: the replacer would return every value as it is
  if (isCanonicalJson(value)) return JSON.stringify(value, null, indent);
  return JSON.stringify(
    value,
    function (this: unknown, k: string, x: unknown) {
      const orig = (this as Record<string, unknown>)[k];
      if (orig !== x && orig && typeof orig === 'object') x = { ...(sortKeysDeep(orig) as object) };
      return inKeyOrder(x);
    },
    indent,
  );
}
