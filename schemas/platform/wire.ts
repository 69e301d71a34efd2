/**
 * The platform's wire conventions, driven by the zod schemas (wire-facts, section 1):
 *
 * - {@link toWire}: a parsed request value in its wire form: enums as NUMBERS (the gateway reads
 *   an enum as its number or its exact name; numbers are always accepted), `undefined` dropped.
 * - {@link toQuery}: a GET/DELETE request's fields as query parameters: dotted names for
 *   nesting (`pagination.pageSize`), repeated keys for repeated scalars (`ids=a&ids=b`), enums as
 *   numbers. A repeated message, or an empty message (a oneof marker such as `{ all: {} }`), has
 *   no query form: {@link QueryFormError}.
 * - {@link readClean}: what the client does to a response before parsing it: `null` (an unset
 *   message, as the gateway's emit-unpopulated encoder sends it) and zero values of optional
 *   fields (`""`, `0`, `false`, `[]`, an enum's zero) read as absent; known enum numbers become
 *   names; keys, variants and enum values the schema does not know are REPORTED (never a failure).
 * - {@link tolerant}: a list/batch item schema that never fails: an item that carries something
 *   this version does not model is returned as read, marked with {@link unmodelledOf} (what is
 *   unknown), so one object the client cannot model never fails a read of all of them.
 * - {@link unknownKeys}: request keys (at any depth) the operation does not declare (the
 *   emulator's strictness: 400 INVALID_ARGUMENT naming the key).
 * - {@link marshal}: a response value as the real gateway can encode it (the emulator's
 *   `--marshal emit-unpopulated` and `--enums numbers|names`).
 *
 * A schema is compiled once into a small node tree (cached per zod definition). Enums are
 * recognised by the table {@link protoEnum} (schemas/platform/common.ts) leaves on the codec's definition
 * (`dqEnum`), oneof groups by the keys `oneof`/`withOneof` leave (`dqOneof`); both survive zod's
 * clones (`.refine`, `.superRefine`), which copy the definition.
 */
import { z } from 'zod';
import { DqformError } from '../tools/errors';
import {
  arrayElementOf,
  definitionKey,
  innerOf,
  intersectionSides,
  isOpenObject,
  kindOf,
  lazyTarget,
  literalValues,
  markOf,
  objectShape,
  pipeSides,
  recordValueOf,
  setMark,
  unionOptions,
} from '../tools/zod-walk';
import { parseFast } from '../tools/lean';

/**
 * How many deprecated enum spellings (aliases) zod has decoded so far in this process: a caller
 * compares it before and after a parse to know whether {@link deprecatedEnums} can find anything.
 */
export const ALIAS_USES = { count: 0 };

/** Marker a protoEnum codec carries on its zod definition. */
export interface EnumInfo {
  numbers: Readonly<Record<string, number>>;
  names: Readonly<Record<number, string>>;
  /** Deprecated spellings accepted on input: old name -> current name. */
  aliases?: Readonly<Record<string, string>>;
  /** Values outside the table are the schema's to read (common.ts `markOpenEnum`), never marked unknown. */
  open?: boolean;
}

type Node =
  | { k: 'obj'; fields: Map<string, { node: () => Node; optional: boolean }>; oneofs: readonly (readonly string[])[]; open: boolean }
  | { k: 'arr'; of: () => Node }
  | { k: 'rec'; of: () => Node }
  | { k: 'enum'; info: EnumInfo }
  | { k: 'str' }
  | { k: 'num' }
  | { k: 'bool' }
  | { k: 'any' }
  | { k: 'union'; options: (() => Node)[] }
  | { k: 'tolerant'; of: () => Node };

const cache = new WeakMap<object, Node>();
const ANY: Node = { k: 'any' };

/** The compiled node of a zod schema (cached per definition). */
function nodeOf(schema: z.ZodType): Node {
  const key = definitionKey(schema);
  let n = cache.get(key);
  if (!n) {
    n = compile(schema);
    cache.set(key, n);
  }
  return n;
}

function lazyNode(schema: z.ZodType): () => Node {
  let n: Node | undefined;
  return () => (n ??= nodeOf(schema));
}

function compile(schema: z.ZodType): Node {
  const dqEnum = markOf(schema, 'dqEnum');
  if (dqEnum) return { k: 'enum', info: dqEnum as EnumInfo };
  const dqTolerant = markOf(schema, 'dqTolerant');
  if (dqTolerant) return { k: 'tolerant', of: lazyNode(dqTolerant as z.ZodType) };
  const type = kindOf(schema);
  switch (type) {
    case 'object': {
      const shape = objectShape(schema) as Record<string, z.ZodType>;
      const fields = new Map<string, { node: () => Node; optional: boolean }>();
      for (const [k, s] of Object.entries(shape)) fields.set(k, { node: lazyNode(s), optional: isOptional(s) });
      return { k: 'obj', fields, oneofs: (markOf(schema, 'dqOneof') as string[][] | undefined) ?? [], open: isOpenObject(schema) };
    }
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'nonoptional':
    case 'readonly':
    case 'catch':
      return nodeOf(innerOf(schema) as z.ZodType);
    case 'pipe': {
      const p = pipeSides(schema) as { in: z.ZodType; out: z.ZodType };
      // z.preprocess(fn, schema): the input is a transform; the shape is the output's
      return nodeOf(kindOf(p.in) === 'transform' ? p.out : p.in);
    }
    case 'lazy':
      return nodeOf(lazyTarget(schema) as z.ZodType);
    case 'array':
      return { k: 'arr', of: lazyNode(arrayElementOf(schema) as z.ZodType) };
    case 'record':
      return { k: 'rec', of: lazyNode(recordValueOf(schema) as z.ZodType) };
    case 'union':
      return { k: 'union', options: (unionOptions(schema) as z.ZodType[]).map(lazyNode) };
    case 'intersection': {
      const sides = intersectionSides(schema) as { left: z.ZodType; right: z.ZodType };
      const l = nodeOf(sides.left);
      const r = nodeOf(sides.right);
      if (l.k === 'obj' && r.k === 'obj') return { k: 'obj', fields: new Map([...l.fields, ...r.fields]), oneofs: [...l.oneofs, ...r.oneofs], open: l.open || r.open };
      return ANY;
    }
    case 'string':
    case 'enum':
      return { k: 'str' };
    case 'number':
    case 'int':
    case 'bigint':
      return { k: 'num' };
    case 'boolean':
      return { k: 'bool' };
    case 'literal': {
      const v = (literalValues(schema) as unknown[])[0];
      return typeof v === 'number' ? { k: 'num' } : typeof v === 'boolean' ? { k: 'bool' } : { k: 'str' };
    }
    default:
      return ANY;
  }
}

function isOptional(s: z.ZodType): boolean {
  const t = kindOf(s);
  if (t === 'optional' || t === 'default' || t === 'prefault') return true;
  if (t === 'nullable' || t === 'readonly' || t === 'catch') return isOptional(innerOf(s) as z.ZodType);
  return false;
}

const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function joinPath(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path ? `${path}.${key}` : key;
}

type ObjNode = Extract<Node, { k: 'obj' }>;
const unionObjects = new WeakMap<Node, ObjNode[]>();

/** The object options of a union, nested unions flattened (cached). */
function objectOptions(n: Extract<Node, { k: 'union' }>): ObjNode[] {
  let out = unionObjects.get(n);
  if (!out) {
    const acc: ObjNode[] = [];
    const seen = new Set<Node>();
    const add = (x: Node): void => {
      if (seen.has(x)) return;
      seen.add(x);
      if (x.k === 'obj') acc.push(x);
      else if (x.k === 'union') x.options.forEach((o) => add(o()));
    };
    n.options.forEach((o) => add(o()));
    out = acc;
    unionObjects.set(n, out);
  }
  return out;
}

/** Resolves the node of an object field, or of one union option holding the key. */
function objectOf(n: Node, v: Record<string, unknown>): Node | undefined {
  if (n.k === 'obj') return n;
  if (n.k === 'union') {
    const objs = objectOptions(n);
    if (objs.length === 0) return undefined;
    const keys = Object.keys(v);
    return objs.find((o) => keys.every((k) => o.fields.has(k))) ?? objs[0];
  }
  return undefined;
}

// ------------------------------------------------------------------------------------------
// requests

/** The wire form of a parsed request value: enums as numbers, undefined dropped, keys kept. */
export function toWire<T>(schema: z.ZodType, value: T): unknown {
  return wire(nodeOf(schema), value);
}

function wire(n: Node, v: unknown): unknown {
  if (v === undefined || v === null) return v;
  switch (n.k) {
    case 'enum':
      return typeof v === 'string' ? (n.info.numbers[n.info.aliases?.[v] ?? v] ?? v) : v;
    case 'arr':
      return Array.isArray(v) ? v.map((x) => wire(n.of(), x)) : v;
    case 'rec': {
      if (!isObj(v)) return v;
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) if (x !== undefined) out[k] = wire(n.of(), x);
      return out;
    }
    case 'obj':
    case 'union': {
      if (!isObj(v)) return v;
      const o = objectOf(n, v);
      const out: Record<string, unknown> = {};
      for (const [k, x] of Object.entries(v)) {
        if (x === undefined) continue;
        const f = o?.k === 'obj' ? o.fields.get(k) : undefined;
        out[k] = f ? wire(f.node(), x) : x;
      }
      return out;
    }
    case 'tolerant':
      return wire(n.of(), v);
    default:
      return v;
  }
}

/** A value that has no query-string form (a repeated or empty message). */
export class QueryFormError extends DqformError {
  static override readonly code: string = 'query-form';
  constructor(
    /** Dotted path of the field, e.g. `deploymentRule.queryConfig.metricOptions`. */
    readonly field: string,
    /** A predicate: `is a repeated message, which has no query-string form`. */
    readonly why: string,
  ) {
    super(`${field} ${why}`);
    this.name = 'QueryFormError';
  }
}

/**
 * The query parameters of a request value, `[name, value]` pairs in key order: dotted names,
 * repeated scalars repeat the key, enums as numbers, booleans `true`/`false`. An empty list or an
 * absent field sends nothing. @throws QueryFormError for a repeated message or an empty message.
 */
export function toQuery(schema: z.ZodType, value: unknown, prefix = ''): [string, string][] {
  const out: [string, string][] = [];
  query(nodeOf(schema), value, prefix, out);
  return out;
}

function scalarText(n: Node, v: unknown, field: string): string {
  if (n.k === 'enum' && typeof v === 'string') {
    const num = n.info.numbers[n.info.aliases?.[v] ?? v];
    if (num === undefined) throw new QueryFormError(field, `holds "${v}", which is not a value of this enum`);
    return String(num);
  }
  if (typeof v === 'object') throw new QueryFormError(field, 'is a message, which has no single query value (only its scalar fields can be set)');
  return String(v);
}

function query(n: Node, v: unknown, path: string, out: [string, string][], marker = false): void {
  if (v === undefined || v === null) return;
  if (n.k === 'tolerant') return query(n.of(), v, path, out, marker);
  if (n.k === 'arr') {
    if (!Array.isArray(v)) throw new QueryFormError(path, 'is not a list');
    const el = n.of();
    for (const x of v) {
      if (isObj(x) || el.k === 'obj') throw new QueryFormError(path, 'is a repeated message, which has no query-string form');
      out.push([path, scalarText(el, x, path)]);
    }
    return;
  }
  if (n.k === 'obj' || n.k === 'union' || n.k === 'rec') {
    if (!isObj(v)) throw new QueryFormError(path, 'is not a message');
    const keys = Object.keys(v).filter((k) => v[k] !== undefined).sort();
    if (keys.length === 0) {
      // an empty oneof member is a marker whose presence means something (`upstream: { all: {} }`);
      // any other empty message is the same as an unset one
      if (marker) throw new QueryFormError(path, 'is an empty message (a oneof marker such as `{}`), which has no query-string form');
      return;
    }
    if (n.k === 'rec') throw new QueryFormError(path, 'is a map, which has no query-string form');
    const o = objectOf(n, v);
    const members = o?.k === 'obj' ? new Set(o.oneofs.flat()) : new Set<string>();
    for (const k of keys) {
      const f = o?.k === 'obj' ? o.fields.get(k) : undefined;
      query(f ? f.node() : ANY, v[k], joinPath(path, k), out, members.has(k));
    }
    return;
  }
  if (isObj(v) || Array.isArray(v)) throw new QueryFormError(path, 'is a message, which has no single query value');
  out.push([path, scalarText(n, v, path)]);
}

// ------------------------------------------------------------------------------------------
// responses

/** Symbol under which a read item carries what this version does not model. */
export const UNMODELLED: unique symbol = Symbol.for('dqform.unmodelled');

/** What a read object carries that this version does not model (undefined when nothing). */
export function unmodelledOf(v: unknown): readonly string[] | undefined {
  return v && typeof v === 'object' ? (v as { [UNMODELLED]?: string[] })[UNMODELLED] : undefined;
}

function mark<T extends object>(v: T, problems: readonly string[]): T {
  Object.defineProperty(v, UNMODELLED, { value: [...problems], enumerable: false, configurable: true, writable: true });
  return v;
}

/**
 * Cleans a read value against its schema: `null` and the zero values of optional fields are
 * dropped, known enum numbers become names, unknown keys/variants/enum values are listed in
 * `problems` (and kept). Tolerant nodes are left to their own decoding unless `intoTolerant`.
 */
export function readClean(schema: z.ZodType, value: unknown, intoTolerant = false): { value: unknown; problems: string[] } {
  const problems: string[] = [];
  const v = cleanFrom(nodeOf(schema), value, problems, intoTolerant);
  return { value: v, problems };
}

/**
 * Where {@link clean} is: the keys from the root down, pushed and popped on the way (a read
 * walks every field of every object: no string and no object per field). Text is made only when
 * a problem is reported, relative to `base` (a tolerant item's problems are the item's own).
 */
const PATH: (string | number)[] = [];

function pathText(base: number, last?: string | number): string {
  let out = '';
  for (let i = base; i < PATH.length; i++) out = joinPath(out, PATH[i]);
  return last === undefined ? out : joinPath(out, last);
}
const atText = (base: number): string => (PATH.length > base ? ` at ${pathText(base)}` : '');

/** {@link clean} from a fresh root (re-entrant: the path stack is restored on return). */
function cleanFrom(n: Node, v: unknown, problems: string[], intoTolerant: boolean): unknown {
  const depth = PATH.length;
  try {
    return clean(n, v, depth, problems, intoTolerant);
  } finally {
    PATH.length = depth;
  }
}

function clean(n: Node, v: unknown, base: number, problems: string[], intoTolerant: boolean): unknown {
  if (v === null || v === undefined) return undefined;
  switch (n.k) {
    case 'tolerant': {
      if (!intoTolerant) return v;
      // an item's problems are its own (paths relative to the item), kept for decodeRead; they
      // are the response's too: written to its list, the item's copied out only when there are
      // any (no list per item read)
      const from = problems.length;
      const c = clean(n.of(), v, PATH.length, problems, true);
      if (problems.length > from && c && typeof c === 'object') itemProblems.set(c, problems.slice(from));
      return c;
    }
    case 'enum': {
      if (typeof v === 'number') {
        const name = n.info.names[v];
        if (name === undefined && !n.info.open) problems.push(`unknown enum value ${v}${atText(base)}`);
        return name ?? v;
      }
      if (typeof v === 'string' && !n.info.open && n.info.numbers[v] === undefined && !n.info.aliases?.[v]) problems.push(`unknown enum value "${v}"${atText(base)}`);
      return v;
    }
    case 'arr': {
      if (!Array.isArray(v)) return v;
      const el = n.of();
      if (el.k === 'str' || el.k === 'num' || el.k === 'bool' || el.k === 'any') {
        // scalars: only a null element changes anything
        return v.includes(null) ? v.filter((x) => x !== null) : v;
      }
      let out: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const x = v[i];
        PATH.push(i);
        const c = clean(el, x, base, problems, intoTolerant);
        PATH.pop();
        if (c !== x) (out ??= v.slice(0, i))[i] = c;
        else if (out) out[i] = c;
      }
      return out ?? v;
    }
    case 'rec': {
      if (!isObj(v)) return v;
      const el = n.of();
      let out: Record<string, unknown> | undefined;
      for (const k in v) {
        const x = v[k];
        PATH.push(k);
        const c = clean(el, x, base, problems, intoTolerant);
        PATH.pop();
        if (c !== x && !out) out = copyBefore(v, k);
        if (out && c !== undefined) out[k] = c;
      }
      return out ?? v;
    }
    case 'obj':
    case 'union': {
      if (!isObj(v)) return v;
      const o = n.k === 'obj' ? n : objectOf(n, v);
      if (!o || o.k !== 'obj') return v;
      // copy on write: most objects read need no change, and are returned as they are
      let out: Record<string, unknown> | undefined;
      let unknown: string[] | undefined;
      for (const k in v) {
        const x = v[k];
        let c: unknown;
        const f = o.fields.get(k);
        if (x === null || x === undefined) c = undefined;
        else if (!f) {
          if (!o.open) (unknown ??= []).push(k);
          c = x;
        } else {
          const fn = f.node();
          if (f.optional && (x === '' || x === 0 || x === false || (Array.isArray(x) && x.length === 0) || (fn.k === 'enum' && typeof x === 'string' && fn.info.numbers[x] === 0))) c = undefined;
          else if (typeof x === 'object' || fn.k === 'enum') {
            PATH.push(k);
            c = clean(fn, x, base, problems, intoTolerant);
            PATH.pop();
          } else c = x;
        }
        if (c !== x && !out) out = copyBefore(v, k);
        if (out && c !== undefined) out[k] = c;
      }
      const result = out ?? v;
      if (unknown) {
        for (const k of unknown) {
          const group = o.oneofs.find((g) => !g.some((m) => result[m] !== undefined));
          problems.push(group ? `unknown variant "${k}"${atText(base)}` : `unknown field ${pathText(base, k)}`);
        }
      }
      return result;
    }
    default:
      return v;
  }
}

/** A copy of `v`'s entries before key `k` (the start of a copy on write). */
function copyBefore(v: Record<string, unknown>, k: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const j in v) {
    if (j === k) break;
    if (v[j] !== undefined && v[j] !== null) out[j] = v[j];
  }
  return out;
}

/**
 * An item schema that never fails: an item that does not parse is returned as read (cleaned)
 * and marked with what is wrong ({@link unmodelledOf}). Read through {@link decodeRead} (what the
 * client does), an item that parses but carries something unknown (a field, a variant, an enum
 * value) is marked too. The item is parsed inline with its list (a `catch`, no per-item parse).
 */
export function tolerant<S extends z.ZodType>(schema: S): z.ZodType<z.output<S>, unknown> {
  const t = (schema as unknown as { catch: (f: (ctx: { input: unknown }) => unknown) => z.ZodType }).catch((ctx) => decodeTolerant(schema, ctx.input));
  setMark(t, 'dqTolerant', schema);
  return t as unknown as z.ZodType<z.output<S>, unknown>;
}

/** Decodes one item on its own: cleaned, parsed, and marked when it carries anything unknown. */
export function decodeTolerant<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const problems: string[] = [];
  const value = cleanFrom(nodeOf(schema), raw, problems, true);
  const r = schema.safeParse(value);
  if (r.success) return problems.length ? (mark(r.data as object, problems) as z.output<S>) : r.data;
  const issues = problems.length ? problems : r.error.issues.map((i) => `${i.path.length ? `${i.path.map(String).join('.')}: ` : ''}${i.message}`);
  const out = isObj(value) ? value : { value };
  return mark(out, issues) as z.output<S>;
}

/** What a cleaned tolerant item carries that the schema does not know (set by {@link clean}). */
const itemProblems = new WeakMap<object, string[]>();
const tolerantBelow = new WeakMap<Node, boolean>();

/**
 * Whether a node for which `hit` holds is reachable from `n`, through arrays, records, tolerant
 * items, unions and object fields (recursive schemas included). The answer for `n` is cached in
 * `cache`.
 */
function reaches(n: Node, cache: WeakMap<Node, boolean>, hit: (x: Node) => boolean): boolean {
  const cached = cache.get(n);
  if (cached !== undefined) return cached;
  const seen = new Set<Node>();
  const visit = (x: Node): boolean => {
    if (seen.has(x)) return false;
    seen.add(x);
    const known = cache.get(x);
    if (known !== undefined) return known;
    if (hit(x)) return true;
    switch (x.k) {
      case 'arr':
      case 'rec':
      case 'tolerant':
        return visit(x.of());
      case 'union':
        return x.options.some((o) => visit(o()));
      case 'obj':
        for (const f of x.fields.values()) if (visit(f.node())) return true;
        return false;
      default:
        return false;
    }
  };
  const r = visit(n);
  cache.set(n, r);
  return r;
}

/** Whether a tolerant node is reachable from `n` (cached per node). */
function holdsTolerant(n: Node): boolean {
  return reaches(n, tolerantBelow, (x) => x.k === 'tolerant');
}

/** Marks the parsed tolerant items whose cleaned form carried something unknown. */
function transferMarks(n: Node, c: unknown, p: unknown): void {
  if (!c || !p || typeof c !== 'object' || typeof p !== 'object') return;
  switch (n.k) {
    case 'tolerant': {
      const problems = itemProblems.get(c);
      if (problems && !unmodelledOf(p)) mark(p, problems);
      return;
    }
    case 'arr': {
      const el = n.of();
      if (!holdsTolerant(el) || !Array.isArray(c) || !Array.isArray(p)) return;
      for (let i = 0; i < c.length; i++) transferMarks(el, c[i], p[i]);
      return;
    }
    case 'rec': {
      const el = n.of();
      if (!holdsTolerant(el)) return;
      for (const k of Object.keys(c)) transferMarks(el, (c as Record<string, unknown>)[k], (p as Record<string, unknown>)[k]);
      return;
    }
    case 'obj':
    case 'union': {
      if (!isObj(c)) return;
      const o = objectOf(n, c);
      if (!o || o.k !== 'obj') return;
      for (const k of Object.keys(c)) {
        const f = o.fields.get(k);
        if (f && holdsTolerant(f.node())) transferMarks(f.node(), c[k], (p as Record<string, unknown>)[k]);
      }
      return;
    }
    default:
      return;
  }
}

/**
 * How the client reads a response: cleaned ({@link readClean}, tolerant items included), parsed,
 * and every tolerant item that carries something this version does not model marked
 * ({@link unmodelledOf}). One parse of the whole response: no per-item parse; lean first
 * (schemas/tools/lean.ts `parseFast`), zod's own parse (its issues) only when the lean one refuses.
 * `value` is handed over (fresh from `JSON.parse`, held by no one else): the result shares the
 * objects of it that need no change (lean's `owned`), and the caller must not use it afterwards.
 */
export function decodeRead<S extends z.ZodType>(schema: S, value: unknown): z.ZodSafeParseResult<z.output<S>> {
  const n = nodeOf(schema);
  const problems: string[] = [];
  const cleaned = cleanFrom(n, value, problems, true);
  const r = parseFast(schema, cleaned, { owned: true });
  // an item's problems are also the response's (clean): none, and no item has marks to transfer
  if (r.success && problems.length > 0 && holdsTolerant(n)) transferMarks(n, cleaned, r.data);
  return r;
}

const aliasesBelow = new WeakMap<Node, boolean>();

/** Whether an enum with deprecated spellings (aliases) is reachable from `n` (cached per node). */
function holdsAliases(n: Node): boolean {
  return reaches(n, aliasesBelow, (x) => x.k === 'enum' && !!x.info.aliases && Object.keys(x.info.aliases).length > 0);
}

/** Request keys (dotted paths, at any depth) the schema does not declare. */
export function unknownKeys(schema: z.ZodType, value: unknown): string[] {
  const n = nodeOf(schema);
  // almost every value has none: a walk without a path first (issue 27), the paths only when it finds one
  if (!holdsUnknownKey(n, value)) return [];
  const out: string[] = [];
  walkKeys(n, value, [], out);
  return out;
}

/** True when {@link walkKeys} would report a key of `v`: the same walk, without a path or a list. */
function holdsUnknownKey(n: Node, v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false;
  if (n.k === 'tolerant') return holdsUnknownKey(n.of(), v);
  if (n.k === 'arr') {
    if (!Array.isArray(v)) return false;
    const el = n.of();
    for (let i = 0; i < v.length; i++) if (holdsUnknownKey(el, v[i])) return true;
    return false;
  }
  if (Array.isArray(v)) return false;
  if (n.k === 'rec') {
    const el = n.of();
    for (const k of Object.keys(v)) if (holdsUnknownKey(el, (v as Record<string, unknown>)[k])) return true;
    return false;
  }
  if (n.k !== 'obj' && n.k !== 'union') return false;
  const o = objectOf(n, v as Record<string, unknown>);
  if (!o || o.k !== 'obj') return false;
  for (const k of Object.keys(v)) {
    const f = o.fields.get(k);
    if (!f) {
      if (!o.open) return true;
    } else if (holdsUnknownKey(f.node(), (v as Record<string, unknown>)[k])) return true;
  }
  return false;
}

/** `at` (keys and indexes from the root) as a dotted path; made only for a key reported (issue 27: most walks report none). */
function pathOf(at: readonly (string | number)[]): string {
  let path = '';
  for (const k of at) path = joinPath(path, k);
  return path;
}

function walkKeys(n: Node, v: unknown, at: (string | number)[], out: string[]): void {
  if (v === null || v === undefined) return;
  if (n.k === 'tolerant') return walkKeys(n.of(), v, at, out);
  if (n.k === 'arr' && Array.isArray(v)) {
    const el = n.of();
    for (let i = 0; i < v.length; i++) {
      at.push(i);
      walkKeys(el, v[i], at, out);
      at.pop();
    }
    return;
  }
  if (n.k === 'rec' && isObj(v)) {
    for (const k of Object.keys(v)) {
      at.push(k);
      walkKeys(n.of(), v[k], at, out);
      at.pop();
    }
    return;
  }
  if ((n.k === 'obj' || n.k === 'union') && isObj(v)) {
    const o = objectOf(n, v);
    if (!o || o.k !== 'obj') return;
    for (const k of Object.keys(v)) {
      const f = o.fields.get(k);
      at.push(k);
      if (!f) {
        if (!o.open) out.push(pathOf(at));
      } else walkKeys(f.node(), v[k], at, out);
      at.pop();
    }
  }
}

/** How the emulator encodes responses (the real gateway's options). */
export interface MarshalOptions {
  /** Emit every unset field: zeros, `""`, `[]`, `{}` for maps, `null` for messages. */
  emitUnpopulated?: boolean;
  /** Enums as numbers (the spec's GET responses) instead of names. */
  enumNumbers?: boolean;
}

/** A response value encoded like the gateway does ({@link MarshalOptions}). */
export function marshal(schema: z.ZodType, value: unknown, opts: MarshalOptions): unknown {
  if (!opts.emitUnpopulated && !opts.enumNumbers) return value;
  return enc(nodeOf(schema), value, opts);
}

function zeroOf(n: Node, opts: MarshalOptions): unknown {
  switch (n.k) {
    case 'str':
      return '';
    case 'num':
      return 0;
    case 'bool':
      return false;
    case 'arr':
      return [];
    case 'rec':
      return {};
    case 'enum':
      return opts.enumNumbers ? 0 : (n.info.names[0] ?? 0);
    case 'tolerant':
      return zeroOf(n.of(), opts);
    default:
      return null;
  }
}

function enc(n: Node, v: unknown, opts: MarshalOptions): unknown {
  if (v === undefined || v === null) return v;
  switch (n.k) {
    case 'tolerant':
      return enc(n.of(), v, opts);
    case 'enum':
      if (!opts.enumNumbers || typeof v !== 'string') return v;
      return n.info.numbers[n.info.aliases?.[v] ?? v] ?? v;
    case 'arr':
      return Array.isArray(v) ? v.map((x) => enc(n.of(), x, opts)) : v;
    case 'rec': {
      if (!isObj(v)) return v;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) out[k] = enc(n.of(), v[k], opts);
      return out;
    }
    case 'obj':
    case 'union': {
      if (!isObj(v)) return v;
      const o = objectOf(n, v);
      if (!o || o.k !== 'obj') return v;
      const out: Record<string, unknown> = {};
      for (const k of Object.keys(v)) {
        const f = o.fields.get(k);
        out[k] = f ? enc(f.node(), v[k], opts) : v[k];
      }
      if (opts.emitUnpopulated) {
        const inOneof = new Set(o.oneofs.flat());
        for (const [k, f] of o.fields) if (out[k] === undefined && !inOneof.has(k)) out[k] = zeroOf(f.node(), opts);
      }
      return out;
    }
    default:
      return v;
  }
}

// ------------------------------------------------------------------------------------------
// query parameters read back (the emulator)

/** A query string read against a request schema: the value, and what does not belong. */
export interface QueryRead {
  value: Record<string, unknown>;
  /** Parameter names that are no field of the request (at any depth). */
  unknown: string[];
  /** Parameters naming a message (or a repeated message) instead of a scalar leaf, e.g. `deploymentRule=<json>`. */
  messages: string[];
}

/**
 * Reads `[name, value]` query parameters into a request value: dotted names walk the fields,
 * repeated keys fill repeated scalars, numbers and booleans are converted, enums stay as given
 * (number or name; the schema's parse decodes them). What has no place is reported.
 */
export function fromQuery(schema: z.ZodType, params: Iterable<[string, string]>): QueryRead {
  const root = nodeOf(schema);
  const out: QueryRead = { value: {}, unknown: [], messages: [] };
  for (const [name, raw] of params) {
    const segs = name.split('.');
    let n: Node = root;
    let target: Record<string, unknown> = out.value;
    let ok = true;
    for (let i = 0; i < segs.length && ok; i++) {
      while (n.k === 'tolerant') n = n.of();
      const o = n.k === 'obj' ? n : n.k === 'union' ? objectOf(n, {}) : undefined;
      const f = o && o.k === 'obj' ? o.fields.get(segs[i]) : undefined;
      if (!f) {
        out.unknown.push(name);
        ok = false;
        break;
      }
      const fn = f.node();
      const last = i === segs.length - 1;
      if (!last) {
        if (fn.k !== 'obj' && fn.k !== 'union' && fn.k !== 'tolerant') {
          out.unknown.push(name);
          ok = false;
          break;
        }
        target = (target[segs[i]] ??= {}) as Record<string, unknown>;
        n = fn;
        continue;
      }
      const leaf = fn.k === 'arr' ? fn.of() : fn;
      if (leaf.k === 'obj' || leaf.k === 'union' || leaf.k === 'rec' || leaf.k === 'tolerant') {
        out.messages.push(name);
        ok = false;
        break;
      }
      const v = leaf.k === 'num' ? (raw.trim() !== '' && Number.isFinite(Number(raw)) ? Number(raw) : raw)
        : leaf.k === 'bool' ? (raw === 'true' ? true : raw === 'false' ? false : raw)
        : leaf.k === 'enum' ? (/^-?\d+$/.test(raw) ? Number(raw) : raw)
        : raw;
      if (fn.k === 'arr') ((target[segs[i]] ??= []) as unknown[]).push(v);
      else target[segs[i]] = v;
    }
  }
  return out;
}

// ------------------------------------------------------------------------------------------
// deprecated enum spellings (desired state)

/** A deprecated enum spelling found in a value: where, what, and the current name. */
export interface DeprecatedEnumUse {
  /** Field path, e.g. `issueLifecycle.settings.severities[0]`. */
  field: string;
  old: string;
  now: string;
}

/** Every deprecated enum spelling (a protoEnum alias) in `value`, at any depth. */
export function deprecatedEnums(schema: z.ZodType, value: unknown): DeprecatedEnumUse[] {
  const out: DeprecatedEnumUse[] = [];
  const walk = (n: Node, v: unknown, path: string): void => {
    // only subtrees that hold an enum with deprecated spellings are walked (most hold none)
    if (v === null || v === undefined || !holdsAliases(n)) return;
    switch (n.k) {
      case 'tolerant':
        return walk(n.of(), v, path);
      case 'enum':
        if (typeof v === 'string' && n.info.aliases?.[v]) out.push({ field: path, old: v, now: n.info.aliases[v] });
        return;
      case 'arr':
        if (Array.isArray(v)) v.forEach((x, i) => walk(n.of(), x, `${path}[${i}]`));
        return;
      case 'rec':
        if (isObj(v)) for (const k of Object.keys(v)) walk(n.of(), v[k], joinPath(path, k));
        return;
      case 'obj':
      case 'union': {
        if (!isObj(v)) return;
        const o = objectOf(n, v);
        if (!o || o.k !== 'obj') return;
        for (const k of Object.keys(v)) {
          const f = o.fields.get(k);
          if (f) walk(f.node(), v[k], joinPath(path, k));
        }
        return;
      }
      default:
        return;
    }
  };
  walk(nodeOf(schema), value, '');
  return out;
}
