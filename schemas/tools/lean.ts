/**
 * The lean validator in front of zod (issue 27): a zod schema compiled, once and lazily, into a
 * tree of closures that parses a value the way zod's `safeParse` does (same accept, same output:
 * unknown keys stripped or kept, defaults, codecs and preprocessing, nullables, optional versus
 * undefined, catch-alls, unions, checks and refinements, which it runs as zod does) without zod's
 * per-node bookkeeping (payloads, issue lists, contexts).
 *
 * It answers a value or "refused"; it never makes a message. {@link parseFast} returns the lean
 * answer when it has one and runs zod's `safeParse` when the lean one refuses, so zod stays the
 * source of truth for every error (and a refusal costs one lean pass more than before).
 *
 * Derived from the schemas, never copied: the structure is read through schemas/zod-walk.ts. What
 * it does not replicate (an intersection, a discriminated union, coercion, zod kinds it does not
 * know: {@link leanFallbacks} lists them) it hands to zod for that subtree, whose `safeParse`
 * answers there; a catch whose inner value fails is zod's too (its fallback value needs zod's
 * issues). test/schemas/lean-differential.test.ts compares both on random and mutated values of
 * every schema the client reads and the engine validates.
 *
 * Not replicated on purpose: zod's memo of recursive schemas (a parse that meets the same input
 * object twice gives one output object; lean gives two equal ones) and cyclic input (lean's
 * recursion overflows the stack and the value goes to zod).
 */
import type { z } from 'zod';
import {
  arrayElementOf,
  checksRunner,
  codecDecodeOf,
  defaultGetter,
  innerOf,
  kindOf,
  lazyTarget,
  type LeanPayload,
  objectCatchall,
  objectShape,
  optionality,
  parseVariations,
  pipeSides,
  recordKeyOf,
  recordValueOf,
  sureOutputOf,
  transformOf,
  unionOptions,
  valueSet,
} from './zod-walk';

/** What a lean parse answers when zod would find an issue. */
export const LEAN_REFUSED: unique symbol = Symbol('dqform.lean.refused');
type Lean = (v: unknown) => unknown;
/**
 * How a parser is compiled: copying (false), for a value handed over (true, {@link LeanOptions.owned}),
 * or copying and refusing every key the schema does not declare ('known', {@link leanParseKnown}).
 */
type Mode = boolean | 'known';

/** The zod kinds the lean compiler parses itself (a variation of them, {@link parseVariations}, goes to zod). */
const SUPPORTED = new Set([
  'string', 'number', 'boolean', 'undefined', 'null', 'any', 'unknown', 'never', 'nan', 'enum', 'literal',
  'object', 'array', 'record', 'union', 'optional', 'nullable', 'default', 'prefault', 'nonoptional', 'readonly',
  'catch', 'pipe', 'transform', 'lazy',
]);

/** Why the lean compiler leaves this schema (this level) to zod, or undefined when it compiles it. */
function fallbackReason(schema: z.ZodType): string | undefined {
  const kind = kindOf(schema);
  if (!SUPPORTED.has(kind)) return kind;
  if (kind === 'object' && Object.getOwnPropertySymbols(objectShape(schema) ?? {}).length > 0) return 'object with symbol keys';
  const v = parseVariations(schema);
  return v.length ? `${kind} (${v.join(', ')})` : undefined;
}

/** The compiled parsers, per schema: copying (the default), and for owned values ({@link LeanOptions.owned}). */
const compiled = new WeakMap<z.ZodType, Lean>();
const compiledOwned = new WeakMap<z.ZodType, Lean>();
const compiledKnown = new WeakMap<z.ZodType, Lean>();

/** The lean parser of `schema` (compiled on first use, then cached per schema and mode). */
function leanOf(schema: z.ZodType, owned: Mode): Lean {
  const cache = owned === 'known' ? compiledKnown : owned ? compiledOwned : compiled;
  const f = cache.get(schema);
  if (f) return f;
  // a schema that reaches itself while compiling (through getters) meets this forwarder
  const forward: { to?: Lean } = {};
  cache.set(schema, (v) => (forward.to as Lean)(v));
  const built = compile(schema, owned);
  forward.to = built;
  cache.set(schema, built);
  return built;
}

/** zod's own answer for a subtree: its output, or refused. */
function byZod(schema: z.ZodType): Lean {
  return (v) => {
    const r = schema.safeParse(v);
    return r.success ? r.data : LEAN_REFUSED;
  };
}

/** A parser that refuses everything: where a 'known' parser would ask zod (zod strips unknown keys unseen). */
const refuseAll: Lean = () => LEAN_REFUSED;

/** zod's own answer for a subtree ({@link byZod}), or in 'known' mode a refusal (zod would not tell an unknown key). */
function zodOr(schema: z.ZodType, owned: Mode): Lean {
  return owned === 'known' ? refuseAll : byZod(schema);
}

function compile(schema: z.ZodType, owned: Mode): Lean {
  if (fallbackReason(schema) !== undefined) return zodOr(schema, owned);
  const full = compileKind(schema, owned);
  // a shortcut the schema declares (zod-walk setSureOutput): its answer where it is sure
  const sure = sureOutputOf(schema);
  const base: Lean = sure
    ? (v) => {
        const s = sure(v);
        return s === undefined ? full(v) : s;
      }
    : full;
  const checks = checksRunner(schema);
  if (!checks) return base;
  const { passes, run } = checks;
  return (v) => {
    const r = base(v);
    if (r === LEAN_REFUSED || passes(r)) return r;
    const payload: LeanPayload = { value: r, issues: [] };
    return run(payload) ? payload.value : LEAN_REFUSED;
  };
}

const isObject = (v: unknown): v is Record<PropertyKey, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** zod's `isPlainObject` (what a record accepts). */
function isPlainObject(o: unknown): o is Record<PropertyKey, unknown> {
  if (!isObject(o)) return false;
  const ctor = (o as { constructor?: unknown }).constructor;
  if (ctor === undefined || typeof ctor !== 'function') return true;
  const prot = (ctor as { prototype?: unknown }).prototype;
  if (!isObject(prot)) return false;
  return Object.prototype.hasOwnProperty.call(prot, 'isPrototypeOf');
}

/** What a transform is handed, as zod hands it: the value, the issues, `addIssue`. */
class TransformPayload implements LeanPayload {
  issues: unknown[] = [];
  constructor(public value: unknown) {}
  addIssue(issue: unknown): void {
    this.issues.push(issue);
  }
}

interface Field {
  key: string;
  lean: Lean;
  optin: 'optional' | 'defaulted' | undefined;
  optout: 'optional' | undefined;
}

/**
 * One property into `out`, as zod's object does: an absent optional key is skipped (its failure
 * too), an absent required key refuses, undefined is kept when the key was present or defaulted.
 * False when the object is refused.
 */
function property(f: Field, input: Record<PropertyKey, unknown>, out: Record<string, unknown>, present: boolean): boolean {
  if (!present && f.optin === 'optional' && f.optout === 'optional') return true;
  const r = f.lean(input[f.key]);
  if (r === LEAN_REFUSED) return f.optin !== undefined && f.optout === 'optional' && !present;
  if (!present && f.optin === undefined) return false;
  if (r === undefined) {
    if (present || (f.optin === 'defaulted' && f.optout !== 'optional')) out[f.key] = undefined;
  } else out[f.key] = r;
  return true;
}

function compileObject(schema: z.ZodType, owned: Mode): Lean {
  const shape = objectShape(schema) as Record<string, z.ZodType>;
  const fields: Field[] = Object.keys(shape)
    .filter((k) => k !== '__proto__')
    .map((k) => ({ key: k, lean: leanOf(shape[k], owned), ...optionality(shape[k]) }));
  const keys = new Set(Object.keys(shape));
  const catchall = objectCatchall(schema);
  const strict = catchall !== undefined && kindOf(catchall) === 'never';
  const rest = catchall && !strict ? { lean: leanOf(catchall, owned), ...optionality(catchall) } : undefined;
  const n = fields.length;
  const known = owned === 'known';
  if (owned === true && catchall === undefined) {
    return (v) => {
      if (!isObject(v)) return LEAN_REFUSED;
      // the value itself when it is its own output: only fields, in the shape's order (zod's
      // output order), each value its own output, no default to fill in
      const proto: unknown = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return copyFrom(fields, v, 0, {});
      let j = 0;
      for (const k in v) {
        while (j < n && fields[j].key !== k) j++;
        if (j === n) return copyFrom(fields, v, 0, {});
        j++;
      }
      for (let i = 0; i < n; i++) {
        const f = fields[i];
        const x = v[f.key];
        if (x === undefined) {
          if (!(f.key in v) && f.optin === 'optional' && f.optout === 'optional') continue;
          return copyFrom(fields, v, i, head(fields, v, i));
        }
        const r = f.lean(x);
        if (r === x) continue;
        if (r === LEAN_REFUSED) return r;
        // present: its output is kept even when undefined (as `property` does)
        const out = head(fields, v, i);
        out[f.key] = r;
        return copyFrom(fields, v, i + 1, out);
      }
      return v;
    };
  }
  return (v) => {
    if (!isObject(v)) return LEAN_REFUSED;
    const out: Record<string, unknown> = {};
    for (const f of fields) if (!property(f, v, out, f.key in v)) return LEAN_REFUSED;
    if (catchall === undefined) return known ? knownKeysOnly(v, keys, out) : out;
    for (const k in v) {
      if (keys.has(k)) continue;
      if (strict) return LEAN_REFUSED;
      if (k === '__proto__') continue;
      if (!property({ key: k, ...(rest as Omit<Field, 'key'>) }, v, out, true)) return LEAN_REFUSED;
    }
    return out;
  };
}

/** `out` when every key of `v` (its own and inherited enumerable ones) is one of `keys`, else refused. */
function knownKeysOnly(v: Record<PropertyKey, unknown>, keys: ReadonlySet<string>, out: Record<string, unknown>): unknown {
  for (const k in v) if (!keys.has(k)) return LEAN_REFUSED;
  return out;
}

/** The output of the fields before `i`, each its own output and present or skipped: a copy of the present ones. */
function head(fields: readonly Field[], v: Record<PropertyKey, unknown>, i: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let j = 0; j < i; j++) {
    const k = fields[j].key;
    if (k in v) out[k] = v[k];
  }
  return out;
}

/** The copying parse of a catch-all-less object from field `i` on, into `out`. */
function copyFrom(fields: readonly Field[], v: Record<PropertyKey, unknown>, i: number, out: Record<string, unknown>): unknown {
  for (let j = i; j < fields.length; j++) if (!property(fields[j], v, out, fields[j].key in v)) return LEAN_REFUSED;
  return out;
}

function compileKind(schema: z.ZodType, owned: Mode): Lean {
  const kind = kindOf(schema);
  switch (kind) {
    case 'string':
      return (v) => (typeof v === 'string' ? v : LEAN_REFUSED);
    case 'number':
      return (v) => (typeof v === 'number' && Number.isFinite(v) ? v : LEAN_REFUSED);
    case 'boolean':
      return (v) => (typeof v === 'boolean' ? v : LEAN_REFUSED);
    case 'undefined':
      return (v) => (v === undefined ? v : LEAN_REFUSED);
    case 'null':
      return (v) => (v === null ? v : LEAN_REFUSED);
    case 'any':
    case 'unknown':
      return (v) => v;
    case 'never':
      return () => LEAN_REFUSED;
    case 'nan':
      return (v) => (typeof v === 'number' && Number.isNaN(v) ? v : LEAN_REFUSED);
    case 'enum':
    case 'literal': {
      const values = valueSet(schema) as ReadonlySet<unknown>;
      return (v) => (values.has(v) ? v : LEAN_REFUSED);
    }
    case 'object':
      return compileObject(schema, owned);
    case 'array': {
      const el = leanOf(arrayElementOf(schema) as z.ZodType, owned);
      if (owned === true) {
        // the array itself while every element is its own output (a plain array without holes)
        return (v) => {
          if (!Array.isArray(v)) return LEAN_REFUSED;
          const n = v.length;
          let out: unknown[] | undefined;
          for (let i = 0; i < n; i++) {
            const x: unknown = v[i];
            const r = el(x);
            if (r === LEAN_REFUSED) return r;
            if (out) out[i] = r;
            else if (r !== x || (x === undefined && !(i in v))) {
              out = new Array(n);
              for (let j = 0; j < i; j++) out[j] = v[j];
              out[i] = r;
            }
          }
          return out ?? (Object.getPrototypeOf(v) === Array.prototype ? v : Array.from(v as unknown[]));
        };
      }
      return (v) => {
        if (!Array.isArray(v)) return LEAN_REFUSED;
        const n = v.length;
        const out: unknown[] = new Array(n);
        for (let i = 0; i < n; i++) {
          const r = el(v[i]);
          if (r === LEAN_REFUSED) return r;
          out[i] = r;
        }
        return out;
      };
    }
    case 'record': {
      const key = leanOf(recordKeyOf(schema) as z.ZodType, owned);
      const value = leanOf(recordValueOf(schema) as z.ZodType, owned);
      const whole = zodOr(schema, owned);
      // 'known': unknownKeys looks into a value under a __proto__ key too, which the parse skips
      const known = owned === 'known';
      if (owned === true) {
        // the record itself while every key and value is its own output and none is skipped
        const first = (v: Record<PropertyKey, unknown>, keys: readonly PropertyKey[], i: number): Record<PropertyKey, unknown> => {
          const out: Record<PropertyKey, unknown> = {};
          for (let j = 0; j < i; j++) out[keys[j]] = v[keys[j]];
          return out;
        };
        const general = (v: unknown): unknown => {
          if (!isPlainObject(v)) return LEAN_REFUSED;
          const keys = Reflect.ownKeys(v);
          let out: Record<PropertyKey, unknown> | undefined;
          for (let i = 0; i < keys.length; i++) {
            const k = keys[i];
            if (k === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, k)) {
              out ??= first(v, keys, i);
              continue;
            }
            const outKey = key(k);
            if (outKey === LEAN_REFUSED) return whole(v);
            if (outKey === '__proto__') {
              out ??= first(v, keys, i);
              continue;
            }
            const x = v[k];
            const r = value(x);
            if (r === LEAN_REFUSED) return r;
            if (out) out[outKey as PropertyKey] = r;
            else if (outKey !== k || r !== x) {
              out = first(v, keys, i);
              out[outKey as PropertyKey] = r;
            }
          }
          return out ?? (Object.getPrototypeOf(v) === Object.prototype ? v : first(v, keys, keys.length));
        };
        // a record of any value under plain string keys (the manifest's configs): a plain object
        // of enumerable string keys other than __proto__ is its own output, without a call per key
        if (!plainStringKey(recordKeyOf(schema) as z.ZodType) || !anyValue(recordValueOf(schema) as z.ZodType)) return general;
        return (v) => {
          if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return general(v);
          const keys = Reflect.ownKeys(v);
          for (let i = 0; i < keys.length; i++) {
            const k = keys[i];
            if (typeof k !== 'string' || k === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, k)) return general(v);
          }
          return v;
        };
      }
      return (v) => {
        if (!isPlainObject(v)) return LEAN_REFUSED;
        const out: Record<PropertyKey, unknown> = {};
        for (const k of Reflect.ownKeys(v)) {
          if (known && k === '__proto__') return LEAN_REFUSED;
          if (k === '__proto__' || !Object.prototype.propertyIsEnumerable.call(v, k)) continue;
          const outKey = key(k);
          // a key its schema refuses: zod retries numeric keys as numbers; that is zod's to do
          if (outKey === LEAN_REFUSED) return whole(v);
          if (outKey === '__proto__') {
            if (known) return LEAN_REFUSED;
            continue;
          }
          const r = value(v[k]);
          if (r === LEAN_REFUSED) return r;
          out[outKey as PropertyKey] = r;
        }
        return out;
      };
    }
    case 'union': {
      const options = (unionOptions(schema) as z.ZodType[]).map((o) => leanOf(o, owned));
      if (options.length === 1) return options[0];
      // 'known': unknownKeys checks an object against the first object option knowing all its
      // keys, not the option that parses it; with two options that may be objects, refused
      const objects = (unionOptions(schema) as z.ZodType[]).filter((o) => !SCALAR_KINDS.has(kindOf(o))).length;
      const refuseObjects = owned === 'known' && objects > 1;
      return (v) => {
        if (refuseObjects && typeof v === 'object' && v !== null) return LEAN_REFUSED;
        for (const o of options) {
          const r = o(v);
          if (r !== LEAN_REFUSED) return r;
        }
        return LEAN_REFUSED;
      };
    }
    case 'optional': {
      const inner = innerOf(schema) as z.ZodType;
      const lean = leanOf(inner, owned);
      const defaulted = optionality(inner).optin === 'defaulted';
      return (v) => {
        if (v !== undefined) return lean(v);
        if (!defaulted) return undefined;
        const r = lean(undefined);
        return r === LEAN_REFUSED ? undefined : r;
      };
    }
    case 'nullable': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      return (v) => (v === null ? v : lean(v));
    }
    case 'default': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      const dflt = defaultGetter(schema) as () => unknown;
      return (v) => {
        if (v === undefined) return dflt();
        const r = lean(v);
        return r === undefined ? dflt() : r;
      };
    }
    case 'prefault': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      // the prefault is the schema's (zod clones only its top level), never a value handed over:
      // parsed by copying even when owned, or an output would share the schema's own default
      const fresh = owned === true ? leanOf(innerOf(schema) as z.ZodType, false) : lean;
      const dflt = defaultGetter(schema) as () => unknown;
      return (v) => (v === undefined ? fresh(dflt()) : lean(v));
    }
    case 'nonoptional': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      return (v) => {
        const r = lean(v);
        return r === undefined ? LEAN_REFUSED : r;
      };
    }
    case 'readonly': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      return (v) => {
        const r = lean(v);
        return r === LEAN_REFUSED ? r : Object.freeze(r);
      };
    }
    case 'catch': {
      const lean = leanOf(innerOf(schema) as z.ZodType, owned);
      const whole = zodOr(schema, owned);
      return (v) => {
        const r = lean(v);
        return r === LEAN_REFUSED ? whole(v) : r;
      };
    }
    case 'pipe': {
      const sides = pipeSides(schema) as { in: z.ZodType; out: z.ZodType };
      const first = leanOf(sides.in, owned);
      const then = leanOf(sides.out, owned);
      const decode = codecDecodeOf(schema);
      // 'known': unknownKeys checks a preprocessed value's input against the output's shape
      const preprocessed = owned === 'known' && kindOf(sides.in) === 'transform';
      if (!decode) {
        return (v) => {
          if (preprocessed && typeof v === 'object' && v !== null) return LEAN_REFUSED;
          const l = first(v);
          return l === LEAN_REFUSED ? l : then(l);
        };
      }
      return (v) => {
        const l = first(v);
        if (l === LEAN_REFUSED) return l;
        const payload: LeanPayload = { value: l, issues: [] };
        const t = decode(l, payload);
        if (t instanceof Promise || payload.issues.length > 0) return LEAN_REFUSED;
        return then(t);
      };
    }
    case 'transform': {
      const fn = transformOf(schema) as (value: unknown, payload: LeanPayload) => unknown;
      const whole = zodOr(schema, owned);
      return (v) => {
        // an issue the transform reports (ctx.addIssue) refuses: zod's run makes it and its message
        const payload = new TransformPayload(v);
        let t: unknown;
        try {
          t = fn(v, payload);
        } catch {
          // e.g. an addIssue called detached from its payload: zod's run decides
          return whole(v);
        }
        return t instanceof Promise || payload.issues.length > 0 ? LEAN_REFUSED : t;
      };
    }
    case 'lazy': {
      let target: Lean | undefined;
      return (v) => (target ??= leanOf(lazyTarget(schema) as z.ZodType, owned))(v);
    }
    default:
      return zodOr(schema, owned);
  }
}

/** Kinds whose values are never objects: a union option of these cannot be the one an object is checked against. */
const SCALAR_KINDS = new Set(['string', 'number', 'boolean', 'undefined', 'null', 'nan', 'enum', 'literal', 'never']);

/** A string schema with nothing else to it (no check, shortcut or variation): every string key is its own output. */
function plainStringKey(schema: z.ZodType): boolean {
  return kindOf(schema) === 'string' && fallbackReason(schema) === undefined && checksRunner(schema) === undefined && sureOutputOf(schema) === undefined;
}

/** An unknown or any schema with nothing else to it: every value is its own output. */
function anyValue(schema: z.ZodType): boolean {
  const kind = kindOf(schema);
  return (kind === 'unknown' || kind === 'any') && fallbackReason(schema) === undefined && checksRunner(schema) === undefined && sureOutputOf(schema) === undefined;
}

/** Options of {@link leanParse} and {@link parseFast}. */
export interface LeanOptions {
  /**
   * The value is handed over, fresh from `JSON.parse` (plain objects and arrays no one else
   * holds): the output shares every object and array of it that already is its own output (only
   * fields, in the schema's order, each value its own output, nothing to fill in), and copies the
   * rest, as zod would. The same answer as without it; fewer copies (issue 27: a read response
   * is mostly its own output already). The caller must not use the value afterwards.
   */
  owned?: boolean;
}

/**
 * The lean parse alone: zod's output for `value` when zod would accept it, {@link LEAN_REFUSED}
 * when zod would refuse it. Whatever throws on the way (cyclic input overflowing the lean
 * recursion, a refinement or transform throwing on odd input) refuses too: zod's parse decides.
 */
export function leanParse(schema: z.ZodType, value: unknown, opts: LeanOptions = {}): unknown {
  try {
    return leanOf(schema, opts.owned === true)(value);
  } catch {
    return LEAN_REFUSED;
  }
}

/**
 * `schema.safeParse(value)`, lean first: the lean parse's output when it accepts, else zod's
 * `safeParse` (its issues and messages).
 */
export function parseFast<S extends z.ZodType>(schema: S, value: unknown, opts: LeanOptions = {}): z.ZodSafeParseResult<z.output<S>> {
  const r = leanParse(schema, value, opts);
  if (r !== LEAN_REFUSED) return { success: true, data: r as z.output<S> };
  return schema.safeParse(value) as z.ZodSafeParseResult<z.output<S>>;
}

/**
 * The lean parse of a value that must also hold no key the schema does not declare, at any
 * depth (what schemas/platform/wire.ts `unknownKeys` reports): zod's output when zod accepts
 * `value` and `unknownKeys` finds nothing in it, else {@link LEAN_REFUSED}. It may refuse more
 * (wherever the lean parser would ask zod, an object in a union of two object options, a
 * preprocessed object): the caller then takes the exact path, `unknownKeys` and `parseFast`.
 * One walk instead of two for a manifest's config (issue 27).
 */
export function leanParseKnown(schema: z.ZodType, value: unknown): unknown {
  try {
    return leanOf(schema, 'known')(value);
  } catch {
    return LEAN_REFUSED;
  }
}

/**
 * Where `schema`'s lean parser hands a subtree to zod, and why (`path: kind (variation)`), each
 * place once; an empty list when the lean compiler parses all of it. Coverage, for the tests.
 */
export function leanFallbacks(schema: z.ZodType): string[] {
  const out: string[] = [];
  const seen = new Set<z.ZodType>();
  const walk = (s: z.ZodType, path: string): void => {
    if (seen.has(s)) return;
    seen.add(s);
    const why = fallbackReason(s);
    if (why !== undefined) {
      out.push(`${path || '(root)'}: ${why}`);
      return;
    }
    const at = (k: string | number): string => (typeof k === 'number' ? `${path}[]` : path ? `${path}.${k}` : k);
    const shape = objectShape(s);
    if (shape) {
      for (const [k, f] of Object.entries(shape)) walk(f, at(k));
      const c = objectCatchall(s);
      if (c) walk(c, at('*'));
      return;
    }
    const el = arrayElementOf(s);
    if (el) return walk(el, at(0));
    const rv = recordValueOf(s);
    if (rv) {
      walk(recordKeyOf(s) as z.ZodType, at('(key)'));
      return walk(rv, at('*'));
    }
    const options = unionOptions(s);
    if (options) return options.forEach((o, i) => walk(o, `${path}|${i}`));
    const inner = innerOf(s);
    if (inner) return walk(inner, path);
    const sides = pipeSides(s);
    if (sides) {
      walk(sides.in, path);
      return walk(sides.out, path);
    }
    const target = lazyTarget(s);
    if (target) walk(target, path);
  };
  walk(schema, '');
  return out;
}
