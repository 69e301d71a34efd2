/**
 * Evaluates the common query model (and ResolverQL) against a {@link Catalog}.
 *
 * Semantics:
 * - operand UNSPECIFIED / AND: intersection of the parts (no parts: every entity);
 *   OR: union (no parts: nothing); EXCEPT: the first part minus the second (exactly two parts);
 *   UPSTREAM / DOWNSTREAM: the union of the parts plus everything upstream / downstream of it,
 *   transitively (the start entities are included).
 * - `identifierList`: the entities with those identifiers ({@link identifierKey}); unknown ones are ignored.
 * - `withNameSearch`: case-insensitive substring of the entity's name or path ("" matches all).
 * - `withType`: `type` and `types` together, any of them. `default` types match `Entity.type`;
 *   `custom: 50000` is the generic custom type (ENTITY_TYPE_CUSTOM); `custom: N` (50001-59999)
 *   matches ENTITY_TYPE_CUSTOM entities annotated `custom_type=N` (the entity shape has no
 *   custom-type field).
 * - `withAnnotation`: with `acceptedValue` and/or `acceptedValues`, an annotation of that name
 *   with one of the values (exact); with neither, any annotation of that name.
 * - `inFolder`: each entry of `path` is one opaque folder id (grpc-facts 5), the catalog folder's
 *   key (`folder-wh-prod::mart`); deep (the folder and every folder below it); several ids: any
 *   of them. An id that names no folder matches nothing; it is never split on `::`.
 * - `query`: the nested query. `entityIds`: the entities with those opaque ids.
 * - `unsupported`: evaluates the ResolverQL it carries when it is one of ours
 *   ({@link carriedResolverQl}: `with_tag` = a tag equal to the value, `with_platform` = the
 *   platform equal to the name, both case-insensitive; `with_columns` is accepted and matches
 *   nothing, since the catalog models no columns); anything else matches nothing. A function
 *   the facts do not name is refused before evaluation (INVALID_ARGUMENT, as the platform
 *   refuses bad ResolverQL).
 *
 * Results are sorted by path. Work is done on bitsets over the catalog's entity order; the
 * per-catalog indexes (types, annotations, tags, platforms, folders, lowercase names) are built
 * once and cached.
 */
import type { Entity, EntityType, EntityTypeName, Query, QueryPart } from '../../schemas/platform/entities';
import { EntityTypeEnum, QueryOperandEnum } from '../../schemas/platform/entities';
import { carriedResolverQl, parseResolverQl, resolverQlToQuery, type ResolverQlAst, type ResolverQlString } from '../../schemas/tools/resolverql';
import { identifierKey, type Catalog } from './catalog';
import { DqformError } from '../../schemas/tools/errors';

/** A query the evaluator cannot run (a shape the schemas would have refused). */
export class QueryEvaluationError extends DqformError {
  static override readonly code: string = 'emulator.query-evaluation';
  override readonly name = 'QueryEvaluationError';
}

// ---------------------------------------------------------------------------------------------
// Bitsets

class Bits {
  constructor(readonly words: Uint32Array) {}
  static empty(n: number): Bits {
    return new Bits(new Uint32Array((n + 31) >>> 5));
  }
  static full(n: number): Bits {
    const b = Bits.empty(n);
    b.words.fill(0xffffffff);
    const rest = n & 31;
    if (rest && b.words.length) b.words[b.words.length - 1] = (1 << rest) - 1;
    return b;
  }
  static of(n: number, indexes: Iterable<number>): Bits {
    const b = Bits.empty(n);
    for (const i of indexes) b.set(i);
    return b;
  }
  set(i: number): void {
    this.words[i >>> 5] |= 1 << (i & 31);
  }
  has(i: number): boolean {
    return (this.words[i >>> 5] & (1 << (i & 31))) !== 0;
  }
  and(o: Bits): Bits {
    const w = new Uint32Array(this.words.length);
    for (let i = 0; i < w.length; i++) w[i] = this.words[i] & o.words[i];
    return new Bits(w);
  }
  or(o: Bits): Bits {
    const w = new Uint32Array(this.words.length);
    for (let i = 0; i < w.length; i++) w[i] = this.words[i] | o.words[i];
    return new Bits(w);
  }
  andNot(o: Bits): Bits {
    const w = new Uint32Array(this.words.length);
    for (let i = 0; i < w.length; i++) w[i] = this.words[i] & ~o.words[i];
    return new Bits(w);
  }
  indexes(): number[] {
    const out: number[] = [];
    for (let wi = 0; wi < this.words.length; wi++) {
      let w = this.words[wi];
      while (w !== 0) {
        const low = w & -w;
        out.push((wi << 5) + (31 - Math.clz32(low)));
        w ^= low;
      }
    }
    return out;
  }
}

// ---------------------------------------------------------------------------------------------
// Per-catalog index

interface EvalIndex {
  n: number;
  all: Bits;
  none: Bits;
  names: string[];
  paths: string[];
  byType: Map<string, Bits>;
  byCustomType: Map<number, Bits>;
  annotationAny: Map<string, Bits>;
  annotationValue: Map<string, Map<string, Bits>>;
  byTag: Map<string, Bits>;
  byPlatform: Map<string, Bits>;
  byKey: Map<string, number>;
  byEntityId: Map<string, number>;
  folderCache: Map<string, Bits>;
  nameCache: Map<string, Bits>;
  carriedCache: Map<string, ResolverQlAst | null>;
}

const INDEXES = new WeakMap<Catalog, EvalIndex>();
const CACHE_LIMIT = 10_000;

function add(map: Map<string, Bits>, key: string, n: number, i: number): void {
  let b = map.get(key);
  if (!b) map.set(key, (b = Bits.empty(n)));
  b.set(i);
}

function indexOf(catalog: Catalog): EvalIndex {
  const cached = INDEXES.get(catalog);
  if (cached) return cached;
  const es = catalog.entities;
  const n = es.length;
  const idx: EvalIndex = {
    n,
    all: Bits.full(n),
    none: Bits.empty(n),
    names: es.map((e) => e.name.toLowerCase()),
    paths: es.map((e) => e.path.toLowerCase()),
    byType: new Map(),
    byCustomType: new Map(),
    annotationAny: new Map(),
    annotationValue: new Map(),
    byTag: new Map(),
    byPlatform: new Map(),
    byKey: new Map(),
    byEntityId: new Map(),
    folderCache: new Map(),
    nameCache: new Map(),
    carriedCache: new Map(),
  };
  es.forEach((e, i) => {
    add(idx.byType, e.type, n, i);
    for (const a of e.annotations) {
      add(idx.annotationAny, a.name, n, i);
      let values = idx.annotationValue.get(a.name);
      if (!values) idx.annotationValue.set(a.name, (values = new Map()));
      add(values, a.value ?? '', n, i);
      if (a.name === 'custom_type' && e.type === 'ENTITY_TYPE_CUSTOM' && /^\d+$/.test(a.value ?? '')) {
        const num = Number(a.value);
        let b = idx.byCustomType.get(num);
        if (!b) idx.byCustomType.set(num, (b = Bits.empty(n)));
        b.set(i);
      }
    }
    for (const t of e.tags) add(idx.byTag, t.toLowerCase(), n, i);
    if (e.platform !== undefined) add(idx.byPlatform, e.platform.toLowerCase(), n, i);
    idx.byKey.set(identifierKey(e.id), i);
    idx.byEntityId.set(e.entityId, i);
  });
  INDEXES.set(catalog, idx);
  return idx;
}

function remember<T>(cache: Map<string, T>, key: string, make: () => T): T {
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const v = make();
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, v);
  return v;
}

// ---------------------------------------------------------------------------------------------
// Evaluation

type OperandName = (typeof QueryOperandEnum.values)[number];

function operandOf(q: Query): OperandName {
  const op = q.operand as OperandName | number | undefined;
  if (op === undefined) return 'QUERY_OPERAND_UNSPECIFIED';
  if (typeof op === 'number') {
    const name = QueryOperandEnum.names[op];
    if (!name) throw new QueryEvaluationError(`unknown query operand ${op}`);
    return name;
  }
  return op;
}

class Evaluator {
  constructor(
    readonly catalog: Catalog,
    readonly idx: EvalIndex,
  ) {}

  query(q: Query): Bits {
    const op = operandOf(q);
    const parts = q.parts ?? [];
    switch (op) {
      case 'QUERY_OPERAND_UNSPECIFIED':
      case 'QUERY_OPERAND_AND':
        return parts.reduce((acc, p) => acc.and(this.part(p)), this.idx.all);
      case 'QUERY_OPERAND_OR':
        return parts.reduce((acc, p) => acc.or(this.part(p)), this.idx.none);
      case 'QUERY_OPERAND_EXCEPT':
        if (parts.length !== 2) throw new QueryEvaluationError(`QUERY_OPERAND_EXCEPT takes exactly two parts (first minus second); got ${parts.length}`);
        return this.part(parts[0]).andNot(this.part(parts[1]));
      case 'QUERY_OPERAND_UPSTREAM':
      case 'QUERY_OPERAND_DOWNSTREAM': {
        const start = parts.reduce((acc, p) => acc.or(this.part(p)), this.idx.none);
        return this.closure(start, op === 'QUERY_OPERAND_UPSTREAM');
      }
    }
  }

  closure(start: Bits, upstream: boolean): Bits {
    const out = Bits.of(this.idx.n, []);
    const stack = start.indexes();
    for (const i of stack) out.set(i);
    while (stack.length) {
      const i = stack.pop()!;
      for (const j of upstream ? this.catalog.parentIndexes(i) : this.catalog.childIndexes(i)) {
        if (!out.has(j)) {
          out.set(j);
          stack.push(j);
        }
      }
    }
    return out;
  }

  part(p: QueryPart): Bits {
    const idx = this.idx;
    if (p.identifierList) {
      const hits: number[] = [];
      for (const id of p.identifierList.identifiers ?? []) {
        const i = idx.byKey.get(identifierKey(id));
        if (i !== undefined) hits.push(i);
      }
      return Bits.of(idx.n, hits);
    }
    if (p.withNameSearch) return this.nameSearch(p.withNameSearch.searchQuery ?? '');
    if (p.withType) {
      const types = [...(p.withType.type ? [p.withType.type] : []), ...(p.withType.types ?? [])];
      return types.reduce((acc, t) => acc.or(this.type(t)), idx.none);
    }
    if (p.withAnnotation) {
      const a = p.withAnnotation;
      const values = [...(a.acceptedValue !== undefined ? [a.acceptedValue] : []), ...(a.acceptedValues ?? [])];
      if (values.length === 0) return idx.annotationAny.get(a.name) ?? idx.none;
      const byValue = idx.annotationValue.get(a.name);
      return values.reduce((acc, v) => acc.or(byValue?.get(v) ?? idx.none), idx.none);
    }
    if (p.inFolder) return this.folder(p.inFolder.path ?? []);
    if (p.query) return this.query(p.query);
    if (p.entityIds) {
      const hits: number[] = [];
      for (const id of p.entityIds.entityIds ?? []) {
        const i = idx.byEntityId.get(id);
        if (i !== undefined) hits.push(i);
      }
      return Bits.of(idx.n, hits);
    }
    if (p.unsupported) {
      const text = carriedResolverQl(p);
      if (text === undefined) return idx.none;
      const ast = remember(idx.carriedCache, text, () => {
        try {
          return parseResolverQl(text);
        } catch {
          return null;
        }
      });
      return ast ? this.resolverQl(ast) : idx.none;
    }
    throw new QueryEvaluationError(`a query part must set one of identifierList, withNameSearch, withType, withAnnotation, inFolder, query, unsupported, entityIds; got ${JSON.stringify(Object.keys(p))}`);
  }

  /** Evaluates a parsed expression; `with_tag` and `with_platform` directly, the rest through the query model. */
  resolverQl(ast: ResolverQlAst): Bits {
    if (ast.fn === 'with_tag') return this.idx.byTag.get((ast.args[0] as ResolverQlString).value.toLowerCase()) ?? this.idx.none;
    if (ast.fn === 'with_platform') return this.idx.byPlatform.get((ast.args[0] as ResolverQlString).value.toLowerCase()) ?? this.idx.none;
    if (ast.fn === 'with_columns') return this.idx.none; // the catalog models no columns: accepted, matches nothing
    return this.query(resolverQlToQuery(ast));
  }

  nameSearch(search: string): Bits {
    const s = search.toLowerCase();
    if (s === '') return this.idx.all;
    return remember(this.idx.nameCache, s, () => {
      const b = Bits.empty(this.idx.n);
      const { names, paths } = this.idx;
      for (let i = 0; i < names.length; i++) if (names[i].includes(s) || paths[i].includes(s)) b.set(i);
      return b;
    });
  }

  type(t: EntityType): Bits {
    if (t.custom !== undefined) {
      if (t.custom === EntityTypeEnum.numbers.ENTITY_TYPE_CUSTOM) return this.idx.byType.get('ENTITY_TYPE_CUSTOM') ?? this.idx.none;
      return this.idx.byCustomType.get(t.custom) ?? this.idx.none;
    }
    const d = t.default as EntityTypeName | number | undefined;
    const name = typeof d === 'number' ? EntityTypeEnum.names[d] : d;
    return (name && this.idx.byType.get(name)) || this.idx.none;
  }

  folder(path: readonly string[]): Bits {
    return path.reduce((acc, id) => acc.or(remember(this.idx.folderCache, id, () => Bits.of(this.idx.n, this.catalog.folderIndexes([id])))), this.idx.none);
  }
}

function toEntities(catalog: Catalog, bits: Bits): Entity[] {
  return bits.indexes().map((i) => catalog.entities[i]);
}

/** The entities `query` selects, sorted by path. Throws {@link QueryEvaluationError} for malformed queries. */
export function evaluateQuery(catalog: Catalog, query: Query): Entity[] {
  const ev = new Evaluator(catalog, indexOf(catalog));
  return toEntities(catalog, ev.query(query));
}

/**
 * The entities a ResolverQL expression selects, sorted by path. Throws
 * {@link ResolverQlError} (from schemas/tools/resolverql) for bad text.
 */
export function evaluateResolverQl(catalog: Catalog, text: string): Entity[] {
  const ev = new Evaluator(catalog, indexOf(catalog));
  return toEntities(catalog, ev.resolverQl(parseResolverQl(text)));
}
