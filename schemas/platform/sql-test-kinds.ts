/**
 * The template tests on the wire, and the one mapping between dqform's test shapes and them.
 *
 * dqform's code and YAML name a test kind and its columns their own way (`notNull: { columns }`,
 * `freshness: { column, maxDelaySeconds }`: `templateTests` in ./sql-tests.ts, unchanged for
 * users). The platform has one message per kind (grpc-facts.md 4.2, shared by a SQL test's
 * `template` and a SQL-test rule's `RuleTest`), and its REST gateway speaks the proto3 JSON
 * mapping of those messages: `notNullTest: { columnNames }`, `freshnessTest:
 * { timePartitionColumnName, timeWindowSeconds }`, values as `SqlValue`s. {@link wireTestMessages}
 * are those messages in zod (what the client sends and reads over REST and gRPC, and what the
 * emulator accepts: nothing else). {@link testToWire} maps dqform's test to them (refusing, with
 * the field named, what has no counterpart); {@link testFromWire} maps a read message back and
 * never fails: what dqform does not model is reported, and the message is kept as read.
 *
 * Choices (grpc-facts gives the messages, not dqform's mapping to them):
 * - list values (accepted / rejected values) are string literals; numeric bounds (minMax,
 *   minValue, maxValue) are SQL expressions (`"10"`), read back only when they are a number;
 * - a freshness test's `column` is the time partition column, `maxDelaySeconds` the time window;
 *   dqform's optional `timePartition` has no counterpart and is refused (validate names it);
 * - a relationships test's `targetTable` (an asset path) is sent as a `platformPath` entity
 *   identifier, with one column pair (`column` -> `targetColumn`); a read reference of another
 *   identifier kind, or with several references or column pairs, is not modelled;
 * - `timeWindowSeconds` (int64) is sent as a decimal string, the proto3 JSON form of int64;
 *   a number is read as well (both are valid proto3 JSON);
 * - fields dqform does not model (`selectColumns`, `strictly`, `ignoreNulls`, a unique test's
 *   time window...) are never sent; read with a value, they make the object not manageable by
 *   this version (zero values read as absent).
 */
import { z } from 'zod';
import { EntityIdentifier } from './entities';
import { DqformError } from '../tools/errors';

/** A dqform test that has no counterpart on the wire (the field is named). A bug-free caller validated first. */
export class TestMappingError extends DqformError {
  static override readonly code: string = 'test-mapping';
  constructor(
    readonly path: string,
    readonly reason: string,
  ) {
    super(`${path}: ${reason}`);
    this.name = 'TestMappingError';
  }
}

const uniqueItems = (what: string) => (a: readonly string[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  a.forEach((x, i) => {
    if (seen.has(x)) ctx.addIssue({ code: 'custom', path: [i], message: `${what}: "${x}" is listed twice (items must be unique)` });
    seen.add(x);
  });
};
const columnNames = z.array(z.string().min(1)).min(1).superRefine(uniqueItems('columnNames'));
const selectColumns = z.array(z.string().min(1)).superRefine(uniqueItems('selectColumns')).optional();
const columnName = z.string().min(1);
/** proto3 JSON int64: a decimal string (what the gateway sends), or a number (also accepted). */
export const Int64 = z.union([z.number().int(), z.string().regex(/^-?\d+$/, 'an int64 in decimal')]);
/** `SqlValue`: two plain fields (not a oneof); exactly one is set (non-empty). */
export const SqlValue = z
  .object({ stringLiteral: z.string().optional(), expression: z.string().optional() })
  .superRefine((v, ctx) => {
    if ((v.stringLiteral ? 1 : 0) + (v.expression ? 1 : 0) !== 1) ctx.addIssue({ code: 'custom', message: 'a SqlValue sets exactly one of stringLiteral and expression' });
  });
export type SqlValue = z.infer<typeof SqlValue>;
export const RelationshipReference = z.object({
  entity: EntityIdentifier,
  columns: z.array(z.object({ source: z.string().min(1), reference: z.string().min(1) })).min(1),
});

/** The platform's test messages (grpc-facts 4.2) under their JSON keys. */
export const wireTestMessages = {
  notNullTest: z.object({ columnNames, selectColumns }),
  emptyTest: z.object({ columnNames, selectColumns }),
  acceptedValuesTest: z.object({ columnName, acceptedValues: z.array(SqlValue).min(1), selectColumns }),
  rejectedValuesTest: z.object({ columnName, rejectedValues: z.array(SqlValue).min(1), selectColumns }),
  uniqueTest: z.object({ columnNames, timePartitionColumnName: z.string().optional(), timeWindowSeconds: Int64.optional() }),
  freshnessTest: z.object({ timePartitionColumnName: columnName, timeWindowSeconds: Int64.optional(), selectColumns }),
  minMaxTest: z.object({ columnName, minValue: SqlValue.optional(), maxValue: SqlValue.optional(), strictly: z.boolean().optional(), selectColumns }),
  relativeTimeTest: z.object({ columnName, relativeColumnName: columnName, selectColumns }),
  businessRuleTest: z.object({ sqlExpression: z.string().min(1), selectColumns }),
  minValueTest: z.object({ columnName, minValue: SqlValue.optional(), strictly: z.boolean().optional(), selectColumns }),
  maxValueTest: z.object({ columnName, maxValue: SqlValue.optional(), strictly: z.boolean().optional(), selectColumns }),
  relationshipsTest: z.object({
    references: z.array(RelationshipReference).min(1),
    ignoreNulls: z.boolean().optional(),
    timePartitionColumn: z.string().optional(),
    timeWindowSeconds: Int64.optional(),
    selectColumns,
  }),
  businessQueryTest: z.object({ sqlQuery: z.string().min(1) }),
};
export type WireTestKey = keyof typeof wireTestMessages;

type Json = Record<string, unknown>;
const isObj = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);
/** Zero values read as absent (the gateway's emit-unpopulated form sends them). */
const isZero = (v: unknown): boolean =>
  v === undefined || v === null || v === '' || v === 0 || v === '0' || v === false || (Array.isArray(v) && v.length === 0);

/** Reads a message back, reporting (never throwing) what dqform cannot hold. */
class Reader {
  constructor(
    readonly m: Json,
    readonly at: string,
    readonly problems: string[],
  ) {}
  /** Reports every key with a value other than `modelled`. */
  only(modelled: readonly string[]): this {
    for (const k of Object.keys(this.m)) if (!modelled.includes(k) && !isZero(this.m[k])) this.problems.push(`unknown field ${this.at}.${k}`);
    return this;
  }
  str(k: string): string | undefined {
    const v = this.m[k];
    if (isZero(v)) return undefined;
    if (typeof v === 'string') return v;
    this.problems.push(`${this.at}.${k} is not a string`);
    return undefined;
  }
  strs(k: string): string[] | undefined {
    const v = this.m[k];
    if (isZero(v)) return undefined;
    if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return v as string[];
    this.problems.push(`${this.at}.${k} is not a list of strings`);
    return undefined;
  }
  int(k: string): number | undefined {
    const v = this.m[k];
    if (isZero(v)) return undefined;
    const n = typeof v === 'string' && /^-?\d+$/.test(v) ? Number(v) : v;
    if (typeof n === 'number' && Number.isSafeInteger(n)) return n;
    this.problems.push(`${this.at}.${k} is not an integer`);
    return undefined;
  }
  /** List values: string literals only. */
  literals(k: string): string[] | undefined {
    const v = this.m[k];
    if (isZero(v)) return undefined;
    if (!Array.isArray(v)) return void this.problems.push(`${this.at}.${k} is not a list`);
    const out: string[] = [];
    v.forEach((x, i) => {
      if (isObj(x) && typeof x.stringLiteral === 'string' && x.stringLiteral !== '' && isZero(x.expression)) out.push(x.stringLiteral);
      else this.problems.push(`${this.at}.${k}[${i}] is not a string literal (this version models list values as string literals only)`);
    });
    return out;
  }
  /** A numeric bound: an expression that is a finite number. */
  bound(k: string): number | undefined {
    const v = this.m[k];
    if (isZero(v)) return undefined;
    const e = isObj(v) && isZero(v.stringLiteral) && typeof v.expression === 'string' ? v.expression.trim() : '';
    const n = Number(e);
    if (e !== '' && Number.isFinite(n)) return n;
    this.problems.push(`${this.at}.${k} is not a number (this version models numeric bounds only)`);
    return undefined;
  }
}

/** One kind: dqform's key, its wire key, and the mapping both ways. */
interface KindMapping {
  wire: WireTestKey;
  /** dqform's fields this kind takes (anything else is refused on the way out). */
  fields: readonly string[];
  to(b: Json): Json;
  from(r: Reader): Json;
}

const literal = (v: unknown) => ({ stringLiteral: String(v) });
const expression = (v: unknown) => ({ expression: String(v) });
const int64 = (v: unknown) => (v === undefined ? undefined : String(v));

const columnsKind = (wire: WireTestKey): KindMapping => ({
  wire,
  fields: ['columns'],
  to: (b) => ({ columnNames: b.columns }),
  from: (r) => ({ columns: r.only(['columnNames']).strs('columnNames') }),
});

/** dqform's test kind (`notNull`) -> its mapping. Keys are those of `templateTests`. */
export const TEST_KIND_MAPPINGS = {
  notNull: columnsKind('notNullTest'),
  empty: columnsKind('emptyTest'),
  acceptedValues: {
    wire: 'acceptedValuesTest',
    fields: ['column', 'values'],
    to: (b) => ({ columnName: b.column, acceptedValues: (b.values as unknown[]).map(literal) }),
    from: (r) => ({ column: r.only(['columnName', 'acceptedValues']).str('columnName'), values: r.literals('acceptedValues') }),
  },
  rejectedValues: {
    wire: 'rejectedValuesTest',
    fields: ['column', 'values'],
    to: (b) => ({ columnName: b.column, rejectedValues: (b.values as unknown[]).map(literal) }),
    from: (r) => ({ column: r.only(['columnName', 'rejectedValues']).str('columnName'), values: r.literals('rejectedValues') }),
  },
  unique: columnsKind('uniqueTest'),
  freshness: {
    wire: 'freshnessTest',
    fields: ['column', 'maxDelaySeconds'],
    to: (b) => ({ timePartitionColumnName: b.column, timeWindowSeconds: int64(b.maxDelaySeconds) }),
    from: (r) => ({ column: r.only(['timePartitionColumnName', 'timeWindowSeconds']).str('timePartitionColumnName'), maxDelaySeconds: r.int('timeWindowSeconds') }),
  },
  minMax: {
    wire: 'minMaxTest',
    fields: ['column', 'min', 'max'],
    to: (b) => ({ columnName: b.column, minValue: expression(b.min), maxValue: expression(b.max) }),
    from: (r) => ({ column: r.only(['columnName', 'minValue', 'maxValue']).str('columnName'), min: r.bound('minValue'), max: r.bound('maxValue') }),
  },
  relativeTime: {
    wire: 'relativeTimeTest',
    fields: ['column', 'relativeColumn'],
    to: (b) => ({ columnName: b.column, relativeColumnName: b.relativeColumn }),
    from: (r) => ({ column: r.only(['columnName', 'relativeColumnName']).str('columnName'), relativeColumn: r.str('relativeColumnName') }),
  },
  businessRule: {
    wire: 'businessRuleTest',
    fields: ['sqlExpression'],
    to: (b) => ({ sqlExpression: b.sqlExpression }),
    from: (r) => ({ sqlExpression: r.only(['sqlExpression']).str('sqlExpression') }),
  },
  minValue: {
    wire: 'minValueTest',
    fields: ['column', 'value'],
    to: (b) => ({ columnName: b.column, minValue: expression(b.value) }),
    from: (r) => ({ column: r.only(['columnName', 'minValue']).str('columnName'), value: r.bound('minValue') }),
  },
  maxValue: {
    wire: 'maxValueTest',
    fields: ['column', 'value'],
    to: (b) => ({ columnName: b.column, maxValue: expression(b.value) }),
    from: (r) => ({ column: r.only(['columnName', 'maxValue']).str('columnName'), value: r.bound('maxValue') }),
  },
  relationships: {
    wire: 'relationshipsTest',
    fields: ['column', 'targetTable', 'targetColumn'],
    to: (b) => ({ references: [{ entity: { platformPath: { path: b.targetTable } }, columns: [{ source: b.column, reference: b.targetColumn }] }] }),
    from: (r) => {
      r.only(['references']);
      const refs = r.m.references;
      const ref = Array.isArray(refs) && refs.length === 1 && isObj(refs[0]) ? refs[0] : undefined;
      const entity = ref && isObj(ref.entity) ? ref.entity : undefined;
      const path = entity && Object.keys(entity).length === 1 && isObj(entity.platformPath) ? entity.platformPath.path : undefined;
      const cols = ref && Array.isArray(ref.columns) && ref.columns.length === 1 && isObj(ref.columns[0]) ? ref.columns[0] : undefined;
      if (typeof path !== 'string' || !cols || typeof cols.source !== 'string' || typeof cols.reference !== 'string') {
        r.problems.push(`${r.at}.references holds what this version does not model (it models one reference by platformPath with one column pair)`);
        return {};
      }
      for (const k of Object.keys(ref!)) if (k !== 'entity' && k !== 'columns' && !isZero(ref![k])) r.problems.push(`unknown field ${r.at}.references[0].${k}`);
      return { column: cols.source, targetTable: path, targetColumn: cols.reference };
    },
  },
  businessQuery: {
    wire: 'businessQueryTest',
    fields: ['sqlQuery'],
    to: (b) => ({ sqlQuery: b.sqlQuery }),
    from: (r) => ({ sqlQuery: r.only(['sqlQuery']).str('sqlQuery') }),
  },
} satisfies Record<string, KindMapping>;
export type TestKind = keyof typeof TEST_KIND_MAPPINGS;
export const TEST_KINDS = Object.keys(TEST_KIND_MAPPINGS) as TestKind[];
const BY_WIRE_KEY = new Map<string, [TestKind, KindMapping]>(TEST_KINDS.map((k) => [TEST_KIND_MAPPINGS[k].wire, [k, TEST_KIND_MAPPINGS[k]]]));
const BY_KIND = new Map<string, KindMapping>(TEST_KINDS.map((k) => [k, TEST_KIND_MAPPINGS[k]]));

const dropUndefined = (o: Json): Json => {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
};

/**
 * An object holding one dqform test kind (a rule test or a SQL test's template) with that kind
 * as its wire message (`notNull: { columns }` -> `notNullTest: { columnNames }`); other keys are
 * copied. @throws TestMappingError naming a field with no counterpart on the wire.
 */
export function testToWire(o: Json, at: string): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    const m = BY_KIND.get(k);
    if (!m || v === undefined) {
      out[k] = v;
      continue;
    }
    if (!isObj(v)) throw new TestMappingError(`${at}.${k}`, 'expected an object');
    for (const f of Object.keys(v)) {
      if (v[f] !== undefined && !m.fields.includes(f)) throw new TestMappingError(`${at}.${k}.${f}`, 'has no counterpart in the platform\'s test message: remove it');
    }
    out[m.wire] = dropUndefined(m.to(v));
  }
  return out;
}

/**
 * An object holding one test kind as its wire message, with that kind in dqform's shape; other
 * keys are copied. Never throws: what dqform does not model is listed in `problems` (paths from
 * `at`) and the message is then kept under its wire key as read.
 */
export function testFromWire(o: Json, at: string, problems: string[]): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(o)) {
    const hit = BY_WIRE_KEY.get(k);
    if (!hit || v === undefined || v === null) {
      out[k] = v;
      continue;
    }
    const [kind, m] = hit;
    const own: string[] = [];
    const body = isObj(v) ? dropUndefined(m.from(new Reader(v, `${at}.${k}`, own))) : (own.push(`${at}.${k} is not an object`), {});
    if (own.length) {
      problems.push(...own);
      out[k] = v;
    } else out[kind] = body;
  }
  return out;
}

/** The refusal, for validate, of a dqform test field that has no counterpart on the wire (undefined when fine). */
export function unmappableField(kind: string, body: Json): string | undefined {
  const m = BY_KIND.get(kind);
  return m ? Object.keys(body).find((f) => body[f] !== undefined && !m.fields.includes(f)) : undefined;
}
