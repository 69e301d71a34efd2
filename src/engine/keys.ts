/** Key conversion between Terraform's snake_case attributes and the API's lowerCamelCase. */
import { inKeyOrder, isCanonicalJson, isSorted } from '../../schemas/tools/canonical-json';

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

const toCamel = (k: string) => k.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
const toSnake = (k: string) => k.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase();

/** `recipient_emails` -> `recipientEmails`; keys already in camelCase are unchanged. */
export function snakeToCamel(key: string): string {
  return camelCache.get(key) ?? memo(camelCache, key, toCamel);
}

/** `recipientEmails` -> `recipient_emails`. */
export function camelToSnake(key: string): string {
  return snakeCache.get(key) ?? memo(snakeCache, key, toSnake);
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

/**
 * What {@link mapKeysDeepSorted} does to an object with one sequence of keys (reached from the
 * root of a {@link ShapeMemo} by its keys in order): its members' new names in sorted order, and
 * the key each is read from.
 */
interface Shape {
  next: Map<string, Shape> | undefined;
  names: string[] | undefined;
  from: string[] | undefined;
  /** The new names are the keys, in their order (no `__proto__`, none skipped): an owned object can be kept. */
  same: boolean;
}

/**
 * The shapes seen by one key function and skip set: a manifest's 10,000 resources have a few
 * dozen shapes, so each object's new names and their order are looked up by its keys instead of
 * converted and sorted again. Bounded; cleared when full.
 */
interface ShapeMemo {
  root: Shape;
  size: number;
}
const SHAPE_MEMO_MAX = 10_000;
const shapeMemos = new WeakMap<(k: string) => string, Map<ReadonlySet<string> | undefined, ShapeMemo>>();
const newShape = (): Shape => ({ next: undefined, names: undefined, from: undefined, same: false });

function shapeMemoOf(f: (k: string) => string, skip: ReadonlySet<string> | undefined): ShapeMemo {
  let bySkip = shapeMemos.get(f);
  if (bySkip === undefined) shapeMemos.set(f, (bySkip = new Map()));
  let m = bySkip.get(skip);
  if (m === undefined) {
    if (bySkip.size >= 16) bySkip.clear();
    bySkip.set(skip, (m = { root: newShape(), size: 0 }));
  }
  return m;
}

/** The shape of an object with `keys` (made when first seen). */
function shapeOf(memo: ShapeMemo, keys: readonly string[], f: (k: string) => string, skip: ReadonlySet<string> | undefined): Shape {
  if (memo.size >= SHAPE_MEMO_MAX) {
    memo.root = newShape();
    memo.size = 0;
  }
  let node = memo.root;
  for (let i = 0; i < keys.length; i++) {
    const next: Map<string, Shape> = (node.next ??= new Map());
    let child = next.get(keys[i]);
    if (child === undefined) {
      next.set(keys[i], (child = newShape()));
      memo.size++;
    }
    node = child;
  }
  if (node.names === undefined) {
    // the new names in sorted order with the keys they come from: an insertion sort, stable, so
    // of two keys with one new name the later still wins
    const names: string[] = [];
    const from: string[] = [];
    for (let i = 0; i < keys.length; i++) {
      if (skip?.has(keys[i])) continue;
      const name = f(keys[i]);
      let j = names.length;
      names.push(name);
      from.push(keys[i]);
      for (; j > 0 && names[j - 1] > name; j--) {
        names[j] = names[j - 1];
        from[j] = from[j - 1];
      }
      names[j] = name;
      from[j] = keys[i];
    }
    node.from = from;
    node.names = names;
    let same = names.length === keys.length;
    for (let i = 0; i < keys.length && same; i++) same = names[i] === keys[i] && keys[i] !== '__proto__';
    node.same = same;
  }
  return node;
}

/**
 * {@link mapKeysDeep} with `f`, each object's members inserted in the sorted order of their new
 * keys (an equal new key: the later member wins, as in mapKeysDeep), and the top level's keys in
 * `skip` left out: one copy of a resource body, already in the canonical order the manifest hash
 * serialises without a replacer. `f` must be a pure function of the key and `skip` must not
 * change (what they give is kept per sequence of keys: objects of keys never seen before, such as
 * a record keyed by ids, cost a trie node per key until the memo is cleared).
 */
export function mapKeysDeepSorted(value: unknown, f: (k: string) => string, skip?: ReadonlySet<string>): unknown {
  return sortedCopy(value, f, skip, shapeMemoOf(f, skip), shapeMemoOf(f, undefined), false);
}

/**
 * {@link mapKeysDeepSorted} of a value handed over (fresh from `JSON.parse`, held by no one
 * else: plain objects and arrays): arrays, and objects whose keys already are their new names in
 * sorted order, are kept and their members replaced in place; only the others are copied. The
 * value may be changed; use the result.
 */
export function mapKeysDeepSortedOwned(value: unknown, f: (k: string) => string, skip?: ReadonlySet<string>): unknown {
  return sortedCopy(value, f, skip, shapeMemoOf(f, skip), shapeMemoOf(f, undefined), true);
}

function sortedCopy(value: unknown, f: (k: string) => string, skip: ReadonlySet<string> | undefined, memo: ShapeMemo, inner: ShapeMemo, owned: boolean): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) {
    if (!owned) return value.map((v) => sortedCopy(v, f, undefined, inner, inner, false));
    for (let i = 0; i < value.length; i++) {
      const x: unknown = value[i];
      if (x !== null && typeof x === 'object') value[i] = sortedCopy(x, f, undefined, inner, inner, true);
    }
    return value;
  }
  const o = value as Record<string, unknown>;
  const shape = shapeOf(memo, Object.keys(o), f, skip);
  const names = shape.names as string[];
  const from = shape.from as string[];
  if (owned && shape.same) {
    for (let j = 0; j < names.length; j++) {
      const x = o[names[j]];
      if (x !== null && typeof x === 'object') o[names[j]] = sortedCopy(x, f, undefined, inner, inner, true);
    }
    return o;
  }
  const out: Record<string, unknown> = {};
  for (let j = 0; j < names.length; j++) out[names[j]] = sortedCopy(o[from[j]], f, undefined, inner, inner, owned);
  return out;
}

/**
 * `JSON.stringify(value)` in pieces (their concatenation is that text): the array under `key`
 * serialised `per` items at a time, the rest of `value` around it in one piece. A few MB of JSON
 * made as one string sits in V8's large-object space until a full GC (which a plan seldom runs);
 * pieces of this size are young garbage. `value` must be a plain object (no `toJSON`); one
 * piece, the whole text, when the array is short or the split cannot be told.
 */
export function jsonPieces(value: Record<string, unknown>, key: string, per = 256): string[] {
  const list = value[key];
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(list) || list.length <= per || (proto !== Object.prototype && proto !== null) || 'toJSON' in value) return [JSON.stringify(value)];
  // the array's place in the text: a marker string (JSON strings never hold an unescaped control character)
  const marker = JSON.stringify(PIECES_MARKER);
  const around = JSON.stringify({ ...value, [key]: PIECES_MARKER });
  const at = around.indexOf(marker);
  if (at < 0 || around.lastIndexOf(marker) !== at) return [JSON.stringify(value)];
  const pieces = [around.slice(0, at), '['];
  for (let i = 0; i < list.length; i += per) pieces.push(`${i > 0 ? ',' : ''}${JSON.stringify(list.slice(i, i + per)).slice(1, -1)}`);
  pieces.push(']', around.slice(at + marker.length));
  return pieces;
}

const PIECES_MARKER = '\u0000dqform:pieces\u0000';

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
 * `JSON.stringify(sortKeysDeep(value), null, indent)`, without building the whole sorted copy:
 * {@link sortedView} copies only the objects whose keys are out of order (and their parents),
 * exactly as the replacer below would, and shares every sorted subtree, so JSON.stringify runs
 * once without a replacer.
 * Values that are not plain JSON (a `toJSON`, a class instance) take the replacer, which treats
 * a value with `toJSON` (a Date) as `sortKeysDeep` treats it: as the plain object it is.
 */
export function stableStringify(value: unknown, indent?: number): string {
  // sorted plain objects all the way down (a walk without allocating): JSON.stringify alone
  if (isCanonicalJson(value)) return JSON.stringify(value, null, indent);
  try {
    return JSON.stringify(sortedView(value), null, indent);
  } catch (e) {
    if (e !== NOT_PLAIN) throw e;
  }
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

/** Thrown by {@link sortedView} for what only the replacer path treats exactly. */
const NOT_PLAIN = Symbol('not plain JSON');

/**
 * `v` with every object's keys in sorted order, as the replacer of {@link stableStringify} would
 * serialise it: an object whose keys are out of order becomes a copy filled in sorted key order
 * (the replacer's own copy: an object still puts array-index keys first); an object or array
 * with a member that changed becomes a shallow copy; everything else is `v` itself (a value in
 * canonical form is returned whole).
 * @throws NOT_PLAIN for an object with a `toJSON`, a class instance, or a `__proto__` member
 *   of a sorted object that would need a copy.
 */
function sortedView(v: unknown): unknown {
  if (typeof v !== 'object' || v === null) return v;
  if (Array.isArray(v)) {
    if ((v as { toJSON?: unknown }).toJSON !== undefined) throw NOT_PLAIN;
    let out: unknown[] | undefined;
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      const y = sortedView(x);
      if (y !== x) (out ??= v.slice())[i] = y;
    }
    return out ?? v;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if ((proto !== Object.prototype && proto !== null) || 'toJSON' in v) throw NOT_PLAIN;
  const o = v as Record<string, unknown>;
  const keys = Object.keys(o);
  if (!isSorted(keys)) {
    // the replacer's copy: filled in sorted order, by assignment (a "__proto__" member too)
    const out: Record<string, unknown> = {};
    for (const k of keys.sort()) out[k] = sortedView(o[k]);
    return out;
  }
  let out: Record<string, unknown> | undefined;
  for (let i = 0; i < keys.length; i++) {
    const x = o[keys[i]];
    const y = sortedView(x);
    if (y !== x && out === undefined) {
      if (keys.includes('__proto__')) throw NOT_PLAIN;
      out = {};
      for (let j = 0; j < i; j++) out[keys[j]] = o[keys[j]];
    }
    if (out !== undefined) out[keys[i]] = y;
  }
  return out ?? v;
}
