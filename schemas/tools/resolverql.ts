/**
 * ResolverQL: the text query language of alert triggers, deployment rules, domains and
 * ownerships. Upstream publishes no grammar; this is dqform's subset (design.md), shared by
 * the constructs, the engine and the emulator. Pure: no I/O, no clock.
 *
 * ## Grammar
 * ```
 * expr   := fn '(' [arg {',' arg}] ')'
 * arg    := expr | string | list | ident '=' (expr | string | list)
 * list   := '[' [string {',' string}] ']'
 * string := '"' ... '"' | "'" ... "'"      backslash escapes: \" \' \\ \/ \n \r \t \b \f \uXXXX
 * ident  := [A-Za-z_][A-Za-z0-9_]*
 * ```
 * Whitespace (space, tab, CR, LF) may appear between any two tokens.
 *
 * ## Functions
 * | function | arguments | query model |
 * |---|---|---|
 * | `with_type(type, [filter=expr])` | a type name or a list of them (see {@link RESOLVERQL_TYPE_GROUPS}) | `withType`; with `filter`, AND of both |
 * | `with_name(substring)` | one string | `withNameSearch` (case-insensitive, name or path) |
 * | `with_annotation(name, [value])` | name; value a string or a list of strings | `withAnnotation` (no value: has the annotation) |
 * | `with_tag(value)` | one string | `unsupported` carrying the ResolverQL (see below) |
 * | `with_platform(name)` | one string | `unsupported` carrying the ResolverQL |
 * | `with_columns(name, ...)` | column names: strings or one list | `unsupported` carrying the ResolverQL (upstream-facts: the vendor's own examples) |
 * | `in_folder(path, [types=list], [filter=expr])` | a folder id `"folder-wh-prod::mart"` or `static_paths("a::b", ...)` | `inFolder { path: [id, ...] }`: each path is ONE opaque folder id (never split on `::`, grpc-facts 5 `InFolder.path`); several paths: any of them; `types`/`filter` AND |
 * | `and(expr, ...)`, `or(expr, ...)` | one or more expressions | nested `query` with operand AND / OR |
 * | `not(expr)` | one expression | EXCEPT of "everything" minus the operand (see below) |
 *
 * `static_paths(...)` is accepted only as the path argument of `in_folder` (the upstream form
 * `in_folder(static_paths("folder-prod::issues"), types=["table"])`).
 *
 * ## Functions dqform does not know
 * Upstream publishes no grammar, so the platform may know functions this table lacks.
 * {@link parseResolverQl} (the emulator, which models the platform) refuses them;
 * {@link checkResolverQlText} (validate, plan) parses them like any call and answers a
 * {@link ResolverQlWarning} ("the platform checks it"); malformed text around or inside them
 * is still an error. Their canonical form is rendered like any call ({@link canonicalResolverQlLenient}).
 *
 * ## Query-model representations (documented choices)
 * - "Everything" is the empty AND query `{ query: { parts: [] } }` (the identity of AND);
 *   `not(x)` is `{ parts: [everything, x], operand: QUERY_OPERAND_EXCEPT }`.
 * - `with_tag`, `with_platform` and `with_columns` have no query-model part. They become
 *   `unsupported { queryJson }` whose `queryJson` is `{"resolverQl":"<canonical text>"}`
 *   ({@link unsupportedPart}); the emulator evaluates such parts, anything else in
 *   `unsupported` matches nothing.
 *
 * ## Canonical form ({@link renderResolverQl})
 * No whitespace at all; strings double-quoted with JSON escapes; nested `and` inside `and`
 * (and `or` inside `or`) flattened; positional arguments first, then keyword arguments
 * sorted by name. Function names and string contents are kept as written. Rendering is
 * deterministic and `canonicalResolverQl(canonicalResolverQl(x)) === canonicalResolverQl(x)`.
 *
 * ## Errors
 * {@link ResolverQlError} names the 0-based offset, line and column, what was expected and what
 * was found: `ResolverQL: at offset 14 (line 1, column 15): expected ')' or ',' but found 'x'`.
 */
import { EntityTypeEnum, type EntityType, type EntityTypeName, type Query, type QueryPart } from '../platform/entities';
import { DqformError } from './errors';
import { closestName } from './did-you-mean';

// ---------------------------------------------------------------------------------------------
// AST

/** A quoted string. `offset` is where its opening quote is. */
export interface ResolverQlString {
  kind: 'string';
  value: string;
  offset: number;
}
/** `[ "a", "b" ]`: a list of strings. */
export interface ResolverQlList {
  kind: 'list';
  items: ResolverQlString[];
  offset: number;
}
/** `name=value`. */
export interface ResolverQlKeywordArg {
  name: string;
  value: ResolverQlValue;
  offset: number;
}
/** `fn(args..., kw=value...)`. */
export interface ResolverQlCall {
  kind: 'call';
  fn: string;
  args: ResolverQlValue[];
  kwargs: ResolverQlKeywordArg[];
  offset: number;
}
export type ResolverQlValue = ResolverQlCall | ResolverQlString | ResolverQlList;
/** A parsed (and checked) ResolverQL expression: always a call. */
export type ResolverQlAst = ResolverQlCall;

// ---------------------------------------------------------------------------------------------
// Errors

/** A syntax or semantic error in ResolverQL text, positioned at `offset` (0-based). */
export class ResolverQlError extends DqformError {
  static override readonly code: string = 'resolverql';
  override readonly name = 'ResolverQlError';
  /** 1-based line and column of `offset`. */
  readonly line: number;
  readonly column: number;
  constructor(
    readonly offset: number,
    /** What was expected, e.g. `')' or ','`. */
    readonly expected: string,
    /** What was found, e.g. `'x'` or `end of input`. */
    readonly found: string,
    text: string,
    /** The known name closest to what was found (an unknown function): "did you mean" it. */
    readonly suggestion?: string,
  ) {
    const { line, column } = lineColumn(text, offset);
    super(`ResolverQL: at offset ${offset} (line ${line}, column ${column}): expected ${expected} but found ${found}${suggestion ? `; did you mean '${suggestion}'?` : ''}`);
    this.line = line;
    this.column = column;
  }
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text[i] === '\n') {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, column: offset - lineStart + 1 };
}

// ---------------------------------------------------------------------------------------------
// Parser

const IDENT_START = /[A-Za-z_]/;
const IDENT_CHAR = /[A-Za-z0-9_]/;
const WS = new Set([' ', '\t', '\r', '\n']);

/**
 * How deeply function calls may nest (`not(not(...))`, `and(or(...))`, `filter=`): deeper text is
 * a ResolverQL error at the call that goes past it, not a stack overflow in the parser or in what
 * walks the tree after it (checker, renderer, query model). Real selections nest a few levels.
 */
export const RESOLVERQL_MAX_DEPTH = 64;

class Parser {
  pos = 0;
  depth = 0;
  /** `lenient`: any identifier may name a function (the checker decides what to say about it). */
  constructor(
    readonly text: string,
    readonly lenient = false,
  ) {}

  fail(expected: string, at = this.pos): never {
    throw new ResolverQlError(at, expected, this.describe(at), this.text);
  }

  describe(at: number): string {
    if (at >= this.text.length) return 'end of input';
    const c = this.text[at];
    if (IDENT_START.test(c)) {
      let end = at;
      while (end < this.text.length && IDENT_CHAR.test(this.text[end])) end++;
      return `'${this.text.slice(at, end)}'`;
    }
    return `'${c}'`;
  }

  skipWs(): void {
    while (this.pos < this.text.length && WS.has(this.text[this.pos])) this.pos++;
  }

  peek(): string | undefined {
    this.skipWs();
    return this.text[this.pos];
  }

  expectChar(c: string, expected: string): void {
    if (this.peek() !== c) this.fail(expected);
    this.pos++;
  }

  ident(expected: string): { name: string; offset: number } {
    this.skipWs();
    const start = this.pos;
    if (start >= this.text.length || !IDENT_START.test(this.text[start])) this.fail(expected);
    while (this.pos < this.text.length && IDENT_CHAR.test(this.text[this.pos])) this.pos++;
    return { name: this.text.slice(start, this.pos), offset: start };
  }

  /** Whole input: one call and nothing after it. */
  parseTop(): ResolverQlCall {
    this.skipWs();
    if (this.pos >= this.text.length) this.fail('a function call such as with_type("table")');
    if (!IDENT_START.test(this.text[this.pos])) this.fail('a function call such as with_type("table")');
    const call = this.call();
    this.skipWs();
    if (this.pos < this.text.length) this.fail('end of input');
    return call;
  }

  call(): ResolverQlCall {
    const { name, offset } = this.ident('a function name');
    // Unknown names fail here, before their arguments can cause a less helpful error.
    if (!this.lenient && !KNOWN_NAMES.has(name)) {
      throw new ResolverQlError(offset, `a function name (${RESOLVERQL_FUNCTIONS.join(', ')})`, this.describe(offset), this.text, functionLike(name));
    }
    if (this.depth >= RESOLVERQL_MAX_DEPTH) {
      throw new ResolverQlError(offset, `function calls nested at most ${RESOLVERQL_MAX_DEPTH} deep (flatten nested and/or, or split the selection)`, `'${name}' at depth ${this.depth + 1}`, this.text);
    }
    this.depth++;
    try {
      return this.callBody(name, offset);
    } finally {
      this.depth--;
    }
  }

  callBody(name: string, offset: number): ResolverQlCall {
    this.expectChar('(', `'(' after '${name}'`);
    const args: ResolverQlValue[] = [];
    const kwargs: ResolverQlKeywordArg[] = [];
    if (this.peek() === ')') {
      this.pos++;
      return { kind: 'call', fn: name, args, kwargs, offset };
    }
    for (;;) {
      this.argument(args, kwargs);
      const c = this.peek();
      if (c === ',') {
        this.pos++;
        continue;
      }
      if (c === ')') {
        this.pos++;
        return { kind: 'call', fn: name, args, kwargs, offset };
      }
      this.fail("')' or ','");
    }
  }

  argument(args: ResolverQlValue[], kwargs: ResolverQlKeywordArg[]): void {
    const c = this.peek();
    if (c !== undefined && IDENT_START.test(c)) {
      const start = this.pos;
      const { name, offset } = this.ident('an identifier');
      const next = this.peek();
      if (next === '=') {
        this.pos++;
        if (kwargs.some((k) => k.name === name)) this.fail(`keyword argument '${name}' only once`, offset);
        kwargs.push({ name, value: this.value(), offset });
        return;
      }
      if (next === '(') {
        this.pos = start;
        args.push(this.call());
        return;
      }
      this.fail(`'(' or '=' after '${name}'`);
    }
    args.push(this.value());
  }

  value(): ResolverQlValue {
    const c = this.peek();
    if (c === '"' || c === "'") return this.string();
    if (c === '[') return this.list();
    if (c !== undefined && IDENT_START.test(c)) return this.call();
    return this.fail('a function call, a string or a list');
  }

  list(): ResolverQlList {
    const offset = this.pos;
    this.pos++; // '['
    const items: ResolverQlString[] = [];
    if (this.peek() === ']') {
      this.pos++;
      return { kind: 'list', items, offset };
    }
    for (;;) {
      const c = this.peek();
      if (c !== '"' && c !== "'") this.fail(items.length === 0 ? "a string or ']'" : 'a string');
      items.push(this.string());
      const n = this.peek();
      if (n === ',') {
        this.pos++;
        continue;
      }
      if (n === ']') {
        this.pos++;
        return { kind: 'list', items, offset };
      }
      this.fail("']' or ','");
    }
  }

  string(): ResolverQlString {
    this.skipWs();
    const offset = this.pos;
    const quote = this.text[this.pos++];
    let out = '';
    for (;;) {
      if (this.pos >= this.text.length) this.fail(`a closing ${quote === '"' ? "'\"'" : `"'"`} for the string opened at offset ${offset}`);
      const ch = this.text[this.pos];
      if (ch === quote) {
        this.pos++;
        return { kind: 'string', value: out, offset };
      }
      if (ch === '\\') {
        const e = this.text[this.pos + 1];
        const simple: Record<string, string> = { '"': '"', "'": "'", '\\': '\\', '/': '/', n: '\n', r: '\r', t: '\t', b: '\b', f: '\f' };
        if (e !== undefined && e in simple) {
          out += simple[e];
          this.pos += 2;
          continue;
        }
        if (e === 'u') {
          const hex = this.text.slice(this.pos + 2, this.pos + 6);
          if (!/^[0-9A-Fa-f]{4}$/.test(hex)) this.fail('four hex digits after \\u', this.pos + 2);
          out += String.fromCharCode(parseInt(hex, 16));
          this.pos += 6;
          continue;
        }
        this.fail(`an escape (\\" \\' \\\\ \\/ \\n \\r \\t \\b \\f \\uXXXX)`, this.pos + 1);
      }
      out += ch;
      this.pos++;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Semantic check

/** Every function the language knows, in the order error messages list them. */
export const RESOLVERQL_FUNCTIONS = [
  'and',
  'in_folder',
  'not',
  'or',
  'with_annotation',
  'with_columns',
  'with_name',
  'with_platform',
  'with_tag',
  'with_type',
] as const;
export type ResolverQlFunction = (typeof RESOLVERQL_FUNCTIONS)[number];

/** Recognised upstream forms that dqform refuses, with why (none today: `with_columns` is known since issue 22). */
const REFUSED: Record<string, string> = {};

/** Names the parser accepts as calls; the checker then places `static_paths` and refuses {@link REFUSED}. */
/** The function dqform knows whose name is closest to `name` (a misspelling), if any. */
function functionLike(name: string): string | undefined {
  return closestName(name, RESOLVERQL_FUNCTIONS);
}

const KNOWN_NAMES: ReadonlySet<string> = new Set<string>([...RESOLVERQL_FUNCTIONS, 'static_paths', ...Object.keys(REFUSED)]);

function describeValue(v: ResolverQlValue): string {
  if (v.kind === 'call') return `'${v.fn}(...)'`;
  if (v.kind === 'list') return 'a list';
  return `the string ${JSON.stringify(v.value)}`;
}

/** A function dqform does not know, met by {@link checkResolverQlText}: the platform checks it. */
export interface ResolverQlWarning {
  offset: number;
  line: number;
  column: number;
  fn: string;
  message: string;
}

class Checker {
  /** `warnings`: collect unknown functions there instead of failing on them. */
  constructor(
    readonly text: string,
    readonly warnings?: ResolverQlWarning[],
  ) {}

  unknown(c: ResolverQlCall): void {
    const { line, column } = lineColumn(this.text, c.offset);
    const near = functionLike(c.fn);
    const message = `ResolverQL: at offset ${c.offset} (line ${line}, column ${column}): function '${c.fn}' is not one dqform knows${near ? ` (did you mean '${near}'?)` : ''} (${RESOLVERQL_FUNCTIONS.join(', ')}); the platform checks it when the plan previews it or apply writes it`;
    this.warnings!.push({ offset: c.offset, line, column, fn: c.fn, message });
    // its arguments are still checked: a known call inside it must be well-formed
    for (const a of c.args) if (a.kind === 'call') this.call(a);
    for (const k of c.kwargs) if (k.value.kind === 'call') this.call(k.value);
  }

  fail(at: number, expected: string, found: string): never {
    throw new ResolverQlError(at, expected, found, this.text);
  }

  expr(v: ResolverQlValue, where: string): ResolverQlCall {
    if (v.kind !== 'call') this.fail(v.offset, `an expression (function call) as ${where}`, describeValue(v));
    this.call(v);
    return v;
  }

  string(v: ResolverQlValue | undefined, where: string, at: number): ResolverQlString {
    if (!v) this.fail(at, `a string as ${where}`, 'no argument');
    if (v.kind !== 'string') this.fail(v.offset, `a string as ${where}`, describeValue(v));
    return v;
  }

  stringOrList(v: ResolverQlValue, where: string): void {
    if (v.kind === 'call') this.fail(v.offset, `a string or a list of strings as ${where}`, describeValue(v));
    if (v.kind === 'list' && v.items.length === 0) this.fail(v.offset, `a non-empty list as ${where}`, 'an empty list');
  }

  arity(c: ResolverQlCall, min: number, max: number, shape: string): void {
    if (c.args.length < min || c.args.length > max) {
      const bad = c.args[max];
      this.fail(bad ? bad.offset : c.offset, `${c.fn}(${shape})`, `${c.args.length} positional argument${c.args.length === 1 ? '' : 's'}`);
    }
  }

  kwargs(c: ResolverQlCall, allowed: string[]): void {
    for (const k of c.kwargs) {
      if (!allowed.includes(k.name)) {
        this.fail(k.offset, allowed.length ? `a keyword argument of ${c.fn} (${allowed.join(', ')})` : `no keyword arguments in ${c.fn}`, `'${k.name}'`);
      }
      if (k.name === 'filter') this.expr(k.value, `${c.fn}'s filter`);
      if (k.name === 'types') {
        this.stringOrList(k.value, `${c.fn}'s types`);
        for (const s of k.value.kind === 'list' ? k.value.items : [k.value as ResolverQlString]) this.typeName(s);
      }
    }
  }

  typeName(s: ResolverQlString): void {
    if (!resolveTypeName(s.value)) this.fail(s.offset, `a type name (${Object.keys(RESOLVERQL_TYPE_GROUPS).join(', ')}, or a specific one such as "warehouse_account_table")`, JSON.stringify(s.value));
  }

  call(c: ResolverQlCall): void {
    if (c.fn in REFUSED) this.fail(c.offset, `a supported function (${RESOLVERQL_FUNCTIONS.join(', ')}); ${REFUSED[c.fn]}`, `'${c.fn}'`);
    if (c.fn === 'static_paths') this.fail(c.offset, 'static_paths(...) only as the path of in_folder', `'static_paths'`);
    if (!(RESOLVERQL_FUNCTIONS as readonly string[]).includes(c.fn)) {
      if (this.warnings) return this.unknown(c);
      throw new ResolverQlError(c.offset, `a function name (${RESOLVERQL_FUNCTIONS.join(', ')})`, `'${c.fn}'`, this.text, functionLike(c.fn));
    }
    switch (c.fn as ResolverQlFunction) {
      case 'and':
      case 'or':
        if (c.args.length === 0) this.fail(c.offset, `${c.fn}(expr, ...) with at least one expression`, 'none');
        this.kwargs(c, []);
        c.args.forEach((a, i) => this.expr(a, `argument ${i + 1} of ${c.fn}`));
        return;
      case 'not':
        this.arity(c, 1, 1, 'expr');
        this.kwargs(c, []);
        this.expr(c.args[0], 'the argument of not');
        return;
      case 'with_name':
      case 'with_tag':
      case 'with_platform':
        this.arity(c, 1, 1, 'string');
        this.kwargs(c, []);
        this.string(c.args[0], `the argument of ${c.fn}`, c.offset);
        return;
      case 'with_columns': {
        // upstream example: with_columns("email"); several names or one list: any of them
        this.kwargs(c, []);
        if (c.args.length === 0) this.fail(c.offset, 'with_columns(name, ...) with at least one column name', 'none');
        if (c.args.length === 1) this.stringOrList(c.args[0], 'the column names of with_columns');
        else c.args.forEach((a) => this.string(a, 'a column name', c.offset));
        for (const a of c.args) for (const n of a.kind === 'list' ? a.items : a.kind === 'string' ? [a] : []) if (n.value.trim() === '') this.fail(n.offset, 'a non-empty column name', 'an empty string');
        return;
      }
      case 'with_annotation': {
        this.arity(c, 1, 2, 'name, [value]');
        this.kwargs(c, []);
        const name = this.string(c.args[0], 'the annotation name', c.offset);
        if (name.value === '') this.fail(name.offset, 'a non-empty annotation name', 'an empty string');
        if (c.args[1]) this.stringOrList(c.args[1], 'the annotation value');
        return;
      }
      case 'with_type': {
        this.arity(c, 1, 1, 'type, [filter=expr]');
        this.kwargs(c, ['filter']);
        const t = c.args[0];
        this.stringOrList(t, 'the type of with_type');
        for (const s of t.kind === 'list' ? t.items : [t as ResolverQlString]) this.typeName(s);
        return;
      }
      case 'in_folder': {
        this.arity(c, 1, 1, 'path, [types=list], [filter=expr]');
        this.kwargs(c, ['filter', 'types']);
        const p = c.args[0];
        if (p.kind === 'call' && p.fn === 'static_paths') {
          if (p.args.length === 0) this.fail(p.offset, 'static_paths("folder::path", ...) with at least one path', 'none');
          if (p.kwargs.length) this.fail(p.kwargs[0].offset, 'no keyword arguments in static_paths', `'${p.kwargs[0].name}'`);
          for (const a of p.args) this.folderPath(this.string(a, 'a folder path', p.offset));
        } else if (p.kind === 'string') {
          this.folderPath(p);
        } else {
          this.fail(p.offset, 'a folder path string or static_paths(...) as the path of in_folder', describeValue(p));
        }
        return;
      }
    }
  }

  folderPath(s: ResolverQlString): void {
    if (s.value.trim() === '') this.fail(s.offset, 'a non-empty folder id such as "folder-wh-prod::mart"', JSON.stringify(s.value));
  }
}

/**
 * Parses and checks ResolverQL text. Throws {@link ResolverQlError} on a syntax error, an
 * unknown function, a wrong argument, an unknown type name or an unsupported form.
 */
export function parseResolverQl(text: string): ResolverQlAst {
  const ast = new Parser(text).parseTop();
  new Checker(text).call(ast);
  return ast;
}

/**
 * What `validate` and `plan` check: like {@link parseResolverQl}, except that a function dqform
 * does not know is a warning (the platform checks it), not an error. Syntax errors, and wrong
 * arguments of the functions dqform knows (inside unknown ones too), still throw
 * {@link ResolverQlError}.
 */
export function checkResolverQlText(text: string): { ast: ResolverQlAst; warnings: ResolverQlWarning[] } {
  const ast = new Parser(text, true).parseTop();
  const warnings: ResolverQlWarning[] = [];
  new Checker(text, warnings).call(ast);
  return { ast, warnings };
}

// ---------------------------------------------------------------------------------------------
// Rendering

/** Flattens nested `and`/`or` of the same kind and orders keyword arguments by name. */
export function normalizeResolverQl(ast: ResolverQlAst): ResolverQlAst {
  const norm = (v: ResolverQlValue): ResolverQlValue => (v.kind === 'call' ? normalizeResolverQl(v) : v);
  let args = ast.args.map(norm);
  if (ast.fn === 'and' || ast.fn === 'or') {
    args = args.flatMap((a) => (a.kind === 'call' && a.fn === ast.fn ? a.args : [a]));
  }
  const kwargs = ast.kwargs.map((k) => ({ ...k, value: norm(k.value) })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { ...ast, args, kwargs };
}

function renderString(s: string): string {
  return JSON.stringify(s);
}

function renderValue(v: ResolverQlValue): string {
  if (v.kind === 'string') return renderString(v.value);
  if (v.kind === 'list') return `[${v.items.map((i) => renderString(i.value)).join(',')}]`;
  const parts = v.args.map(renderValue);
  for (const k of v.kwargs) parts.push(`${k.name}=${renderValue(k.value)}`);
  return `${v.fn}(${parts.join(',')})`;
}

/** The canonical text of an AST (see the module comment). */
export function renderResolverQl(ast: ResolverQlAst): string {
  return renderValue(normalizeResolverQl(ast));
}

/** `renderResolverQl(parseResolverQl(text))`: what the server stores as `renderedResolverQl`. */
export function canonicalResolverQl(text: string): string {
  return renderResolverQl(parseResolverQl(text));
}

/** {@link canonicalResolverQl} that also renders functions dqform does not know (for comparing live and desired text). */
export function canonicalResolverQlLenient(text: string): string {
  return renderResolverQl(checkResolverQlText(text).ast);
}

// ---------------------------------------------------------------------------------------------
// Types

/** A default entity type name (the unspecified type is refused). */
type DefaultTypeName = Exclude<EntityTypeName, 'ENTITY_TYPE_UNSPECIFIED'>;
type TypeGroupName = 'table' | 'view' | 'model' | 'dag' | 'task' | 'test' | 'source' | 'snapshot' | 'seed' | 'dashboard' | 'monitor' | 'sql_test' | 'audit' | 'custom';
const T = (suffix: string): DefaultTypeName => `ENTITY_TYPE_${suffix}` as DefaultTypeName;

/**
 * Generic type names of `with_type` and the entity types each stands for. Besides these,
 * `with_type` accepts a specific neutral name (the enum name without `ENTITY_TYPE_`, any case:
 * `"warehouse_account_table"`), the full enum name, or a number (a default type's number, or
 * a custom type 50001-59999).
 */
export const RESOLVERQL_TYPE_GROUPS: Readonly<Record<TypeGroupName, readonly DefaultTypeName[]>> = {
  table: EntityTypeEnum.values.filter((v): v is DefaultTypeName => v.endsWith('_TABLE')),
  view: EntityTypeEnum.values.filter((v): v is DefaultTypeName => v.endsWith('_VIEW')),
  model: [T('TRANSFORM_CORE_MODEL'), T('SQL_MODEL_MODEL')],
  dag: [T('ORCHESTRATION_DAG')],
  task: [T('ORCHESTRATION_TASK')],
  test: [T('TRANSFORM_CORE_TEST')],
  source: [T('TRANSFORM_CORE_SOURCE')],
  snapshot: [T('TRANSFORM_CORE_SNAPSHOT')],
  seed: [T('TRANSFORM_CORE_SEED')],
  dashboard: [T('BI_DASHBOARD')],
  monitor: [T('MONITOR'), T('MONITOR_SEGMENT')],
  sql_test: [T('SQL_TEST')],
  audit: [T('SQL_MODEL_AUDIT')],
  custom: [T('CUSTOM')],
};

function typeNumber(t: EntityType): number {
  if (t.custom !== undefined) return t.custom;
  const d = t.default as EntityTypeName | number | undefined;
  return typeof d === 'number' ? d : d ? EntityTypeEnum.numbers[d] : 0;
}

function sortTypes(ts: EntityType[]): EntityType[] {
  const seen = new Set<string>();
  const out: EntityType[] = [];
  for (const t of [...ts].sort((a, b) => typeNumber(a) - typeNumber(b))) {
    const key = t.custom !== undefined ? `c${t.custom}` : `d${typeNumber(t)}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push(t);
    }
  }
  return out;
}

/** The entity types a `with_type` name stands for, or undefined when the name is unknown. */
export function resolveTypeName(name: string): EntityType[] | undefined {
  const lower = name.trim().toLowerCase();
  if (lower in RESOLVERQL_TYPE_GROUPS) return RESOLVERQL_TYPE_GROUPS[lower as TypeGroupName].map((d) => ({ default: d }));
  if (/^\d+$/.test(lower)) {
    const n = Number(lower);
    const d = EntityTypeEnum.names[n];
    if (d && n !== 0) return [{ default: d as DefaultTypeName }];
    if (n >= 50001 && n <= 59999) return [{ custom: n }];
    return undefined;
  }
  const upper = lower.toUpperCase();
  const full = (upper.startsWith('ENTITY_TYPE_') ? upper : `ENTITY_TYPE_${upper}`) as DefaultTypeName;
  if ((full as string) !== 'ENTITY_TYPE_UNSPECIFIED' && (EntityTypeEnum.values as readonly string[]).includes(full)) return [{ default: full }];
  return undefined;
}

/** The shortest `with_type` names for a set of types: a group when it matches exactly, else specific names. */
function typeNames(types: EntityType[]): string[] {
  const sorted = sortTypes(types);
  const key = (ts: EntityType[]) => sortTypes(ts).map(typeNumber).join(',');
  const k = key(sorted);
  for (const [g, members] of Object.entries(RESOLVERQL_TYPE_GROUPS)) {
    if (key(members.map((d) => ({ default: d }))) === k) return [g];
  }
  return sorted.map((t) => {
    if (t.custom !== undefined) return String(t.custom);
    const d = t.default as EntityTypeName | number;
    const name = typeof d === 'number' ? EntityTypeEnum.names[d] ?? String(d) : d;
    return name.replace(/^ENTITY_TYPE_/, '').toLowerCase();
  });
}

// ---------------------------------------------------------------------------------------------
// ResolverQL -> Query

/** "Everything": the empty AND query, the identity of AND. */
export const EVERYTHING_PART: QueryPart = Object.freeze({ query: Object.freeze({ parts: [] }) }) as QueryPart;

/** Marker in `unsupported.queryJson` saying the part carries dqform ResolverQL. */
interface CarriedResolverQl {
  resolverQl: string;
}

/** An `unsupported` part carrying ResolverQL text (canonicalised) that the query model cannot express. */
export function unsupportedPart(resolverQl: string): QueryPart {
  const carried: CarriedResolverQl = { resolverQl: canonicalResolverQl(resolverQl) };
  return { unsupported: { queryJson: JSON.stringify(carried) } };
}

/** The ResolverQL an `unsupported` part carries, when it is one of ours ({@link unsupportedPart}). */
export function carriedResolverQl(part: QueryPart): string | undefined {
  const json = part.unsupported?.queryJson;
  if (json === undefined) return undefined;
  try {
    const v = JSON.parse(json) as unknown;
    if (v && typeof v === 'object' && typeof (v as CarriedResolverQl).resolverQl === 'string') return (v as CarriedResolverQl).resolverQl;
  } catch {
    // not JSON: not ours
  }
  return undefined;
}

function and(parts: QueryPart[]): QueryPart {
  return parts.length === 1 ? parts[0] : { query: { parts, operand: 'QUERY_OPERAND_AND' } };
}

function toPart(c: ResolverQlCall): QueryPart {
  const strings = (v: ResolverQlValue): string[] => (v.kind === 'list' ? v.items.map((i) => i.value) : v.kind === 'string' ? [v.value] : []);
  const kw = (name: string) => c.kwargs.find((k) => k.name === name)?.value;
  const withFilter = (base: QueryPart[]): QueryPart => {
    const f = kw('filter');
    return and(f && f.kind === 'call' ? [...base, toPart(f)] : base);
  };
  const withTypes = (names: string[]): QueryPart => ({ withType: { types: sortTypes(names.flatMap((n) => resolveTypeName(n) ?? [])) } });
  switch (c.fn as ResolverQlFunction) {
    case 'and':
      return { query: { parts: c.args.map((a) => toPart(a as ResolverQlCall)), operand: 'QUERY_OPERAND_AND' } };
    case 'or':
      return { query: { parts: c.args.map((a) => toPart(a as ResolverQlCall)), operand: 'QUERY_OPERAND_OR' } };
    case 'not':
      return { query: { parts: [EVERYTHING_PART, toPart(c.args[0] as ResolverQlCall)], operand: 'QUERY_OPERAND_EXCEPT' } };
    case 'with_name':
      return { withNameSearch: { searchQuery: (c.args[0] as ResolverQlString).value } };
    case 'with_annotation': {
      const name = (c.args[0] as ResolverQlString).value;
      const v = c.args[1];
      if (!v) return { withAnnotation: { name } };
      if (v.kind === 'list') return { withAnnotation: { name, acceptedValues: strings(v) } };
      return { withAnnotation: { name, acceptedValue: (v as ResolverQlString).value } };
    }
    case 'with_type':
      return withFilter([withTypes(strings(c.args[0]))]);
    case 'in_folder': {
      const p = c.args[0];
      const paths = p.kind === 'call' ? p.args.map((a) => (a as ResolverQlString).value) : [(p as ResolverQlString).value];
      // each path is one opaque folder id (grpc-facts 5: `InFolder.path` holds folder entity ids)
      const base: QueryPart[] = [{ inFolder: { path: paths } }];
      const types = kw('types');
      if (types) base.push(withTypes(strings(types)));
      return withFilter(base);
    }
    case 'with_tag':
    case 'with_platform':
    case 'with_columns':
      return unsupportedPart(renderResolverQl({ ...c, args: c.args, kwargs: [] }));
  }
  throw new Error(`ResolverQL: unchecked function '${c.fn}'`); // parseResolverQl refuses it first
}

/**
 * Translates a parsed expression into the common query model. A top-level `and`/`or`/`not`
 * becomes the query itself; any other function becomes `{ parts: [part] }` (no operand).
 */
export function resolverQlToQuery(ast: ResolverQlAst): Query {
  const part = toPart(normalizeResolverQl(ast));
  return part.query ?? { parts: [part] };
}

// ---------------------------------------------------------------------------------------------
// Query -> ResolverQL

function operandName(op: Query['operand'] | number | undefined): string {
  if (op === undefined) return 'QUERY_OPERAND_UNSPECIFIED';
  return typeof op === 'number' ? String(['QUERY_OPERAND_UNSPECIFIED', 'QUERY_OPERAND_AND', 'QUERY_OPERAND_OR', 'QUERY_OPERAND_EXCEPT', 'QUERY_OPERAND_UPSTREAM', 'QUERY_OPERAND_DOWNSTREAM'][op] ?? op) : op;
}

/** Thrown by {@link queryToResolverQl} for a query ResolverQL cannot express. */
export class ResolverQlUnsupportedQueryError extends DqformError {
  static override readonly code: string = 'resolverql.unsupported';
  override readonly name = 'ResolverQlUnsupportedQueryError';
}

function isEverything(p: QueryPart): boolean {
  const q = p.query;
  if (!q || q.parts.length !== 0) return false;
  const op = operandName(q.operand);
  return op === 'QUERY_OPERAND_UNSPECIFIED' || op === 'QUERY_OPERAND_AND';
}

function partToText(p: QueryPart): string {
  if (p.withNameSearch) return `with_name(${renderString(p.withNameSearch.searchQuery)})`;
  if (p.withType) {
    const ts = [...(p.withType.type ? [p.withType.type] : []), ...(p.withType.types ?? [])];
    if (ts.length === 0) throw new ResolverQlUnsupportedQueryError('ResolverQL: a withType part without types has no ResolverQL form');
    const names = typeNames(ts);
    return `with_type(${names.length === 1 ? renderString(names[0]) : `[${names.map(renderString).join(',')}]`})`;
  }
  if (p.withAnnotation) {
    const a = p.withAnnotation;
    const values = [...(a.acceptedValue !== undefined ? [a.acceptedValue] : []), ...(a.acceptedValues ?? [])];
    const name = renderString(a.name);
    if (values.length === 0) return `with_annotation(${name})`;
    if (a.acceptedValues === undefined) return `with_annotation(${name},${renderString(values[0])})`;
    return `with_annotation(${name},[${values.map(renderString).join(',')}])`;
  }
  if (p.inFolder) {
    const ids = p.inFolder.path;
    return ids.length === 1 ? `in_folder(${renderString(ids[0])})` : `in_folder(static_paths(${ids.map(renderString).join(',')}))`;
  }
  if (p.query) return queryText(p.query);
  if (p.unsupported) {
    const carried = carriedResolverQl(p);
    if (carried === undefined) throw new ResolverQlUnsupportedQueryError('ResolverQL: an unsupported part not made by dqform has no ResolverQL form');
    return carried;
  }
  if (p.identifierList) throw new ResolverQlUnsupportedQueryError('ResolverQL: an identifierList part has no ResolverQL form');
  if (p.entityIds) throw new ResolverQlUnsupportedQueryError('ResolverQL: an entityIds part has no ResolverQL form');
  throw new ResolverQlUnsupportedQueryError('ResolverQL: an empty query part has no ResolverQL form');
}

function queryText(q: Query): string {
  const op = operandName(q.operand);
  const parts = q.parts;
  switch (op) {
    case 'QUERY_OPERAND_UNSPECIFIED':
    case 'QUERY_OPERAND_AND':
    case 'QUERY_OPERAND_OR': {
      if (parts.length === 0) {
        throw new ResolverQlUnsupportedQueryError(`ResolverQL: an empty ${op === 'QUERY_OPERAND_OR' ? 'OR (nothing)' : 'AND (everything)'} query has no ResolverQL form`);
      }
      if (parts.length === 1) return partToText(parts[0]);
      return `${op === 'QUERY_OPERAND_OR' ? 'or' : 'and'}(${parts.map(partToText).join(',')})`;
    }
    case 'QUERY_OPERAND_EXCEPT': {
      if (parts.length !== 2) throw new ResolverQlUnsupportedQueryError(`ResolverQL: QUERY_OPERAND_EXCEPT takes exactly two parts; got ${parts.length}`);
      if (isEverything(parts[0])) return `not(${partToText(parts[1])})`;
      return `and(${partToText(parts[0])},not(${partToText(parts[1])}))`;
    }
    default:
      throw new ResolverQlUnsupportedQueryError(`ResolverQL: operand ${op} has no ResolverQL form`);
  }
}

/**
 * Renders a query as canonical ResolverQL, for showing queries readably. `not(x)` comes back
 * from the EXCEPT-of-everything form, `a EXCEPT b` as `and(a,not(b))`. Throws
 * {@link ResolverQlUnsupportedQueryError} for what ResolverQL cannot express (identifier lists,
 * entity ids, UPSTREAM/DOWNSTREAM, foreign `unsupported` parts, empty queries).
 */
export function queryToResolverQl(query: Query): string {
  return canonicalResolverQl(queryText(query));
}
