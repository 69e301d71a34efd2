/**
 * dqform's rule shapes <-> the gRPC messages of the preview calls (spec/grpc-facts.md 3, 4).
 *
 * A monitor rule's protojson form is dqform's write form as it is (same lowerCamelCase names,
 * enum names that the strict mapping in ./grpc.ts turns into numbers). A SQL-test rule's
 * `tests[]` differ: dqform names a test kind and its columns its own way (`notNull: { columns }`,
 * `freshness: { column, maxDelaySeconds }`), the platform's `RuleTest` has one message per kind
 * (`notNullTest: { columnNames }`, `freshnessTest: { timePartitionColumnName, timeWindowSeconds }`,
 * values as `SqlValue`s). {@link ruleTestToGrpc} maps one way (the client), {@link ruleTestFromGrpc}
 * the other (the emulator). What has no counterpart is refused with the field named
 * ({@link ProtoShapeError}), never dropped.
 *
 * Choices (grpc-facts gives the messages, not dqform's mapping):
 * - list values (accepted / rejected values) are string literals; numeric bounds (minMax,
 *   minValue, maxValue) are SQL expressions (`"10"`);
 * - a freshness test's `column` is the time partition column, `maxDelaySeconds` the time window;
 *   dqform's optional `timePartition` has no counterpart and is refused;
 * - a relationships test's `targetTable` (an asset path) is sent as a `platformPath` entity
 *   identifier, with one column pair (`column` -> `targetColumn`).
 */
import { ProtoShapeError, type JsonObject } from './grpc';

/** dqform's template test kinds (keys of `templateTests` in ./sql-tests.ts). */
export type TestKind =
  | 'notNull'
  | 'empty'
  | 'acceptedValues'
  | 'rejectedValues'
  | 'unique'
  | 'freshness'
  | 'minMax'
  | 'relativeTime'
  | 'businessRule'
  | 'minValue'
  | 'maxValue'
  | 'relationships'
  | 'businessQuery';

const asObject = (v: unknown, at: string): JsonObject => {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) throw new ProtoShapeError(at, 'expected an object');
  return v as JsonObject;
};
const literal = (v: unknown) => ({ stringLiteral: String(v) });
const expression = (v: unknown) => ({ expression: String(v) });
const only = (body: JsonObject, keys: readonly string[], at: string): void => {
  for (const k of Object.keys(body)) if (body[k] !== undefined && !keys.includes(k)) throw new ProtoShapeError(`${at}.${k}`, 'has no counterpart in the platform\'s test message');
};

/** dqform test body -> [RuleTest oneof member, its message] (protojson). */
const TO_GRPC: Record<TestKind, (b: JsonObject, at: string) => JsonObject> = {
  notNull: (b, at) => (only(b, ['columns'], at), { columnNames: b.columns }),
  empty: (b, at) => (only(b, ['columns'], at), { columnNames: b.columns }),
  acceptedValues: (b, at) => (only(b, ['column', 'values'], at), { columnName: b.column, acceptedValues: (b.values as unknown[]).map(literal) }),
  rejectedValues: (b, at) => (only(b, ['column', 'values'], at), { columnName: b.column, rejectedValues: (b.values as unknown[]).map(literal) }),
  unique: (b, at) => (only(b, ['columns'], at), { columnNames: b.columns }),
  freshness: (b, at) => (only(b, ['column', 'maxDelaySeconds'], at), { timePartitionColumnName: b.column, timeWindowSeconds: b.maxDelaySeconds }),
  minMax: (b, at) => (only(b, ['column', 'min', 'max'], at), { columnName: b.column, minValue: expression(b.min), maxValue: expression(b.max) }),
  relativeTime: (b, at) => (only(b, ['column', 'relativeColumn'], at), { columnName: b.column, relativeColumnName: b.relativeColumn }),
  businessRule: (b, at) => (only(b, ['sqlExpression'], at), { sqlExpression: b.sqlExpression }),
  minValue: (b, at) => (only(b, ['column', 'value'], at), { columnName: b.column, minValue: expression(b.value) }),
  maxValue: (b, at) => (only(b, ['column', 'value'], at), { columnName: b.column, maxValue: expression(b.value) }),
  relationships: (b, at) => (
    only(b, ['column', 'targetTable', 'targetColumn'], at),
    { references: [{ entity: { platformPath: { path: b.targetTable } }, columns: [{ source: b.column, reference: b.targetColumn }] }] }
  ),
  businessQuery: (b, at) => (only(b, ['sqlQuery'], at), { sqlQuery: b.sqlQuery }),
};

export const TEST_KINDS = Object.keys(TO_GRPC) as TestKind[];
/** `notNull` -> `notNullTest`. */
export const grpcTestKey = (k: TestKind): string => `${k}Test`;

/** A dqform rule test (`{ name, description?, severity?, <kind>: {...} }`) as a protojson `RuleTest`. */
export function ruleTestToGrpc(test: unknown, at: string): JsonObject {
  const t = asObject(test, at);
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(t)) {
    if (v === undefined) continue;
    if (k === 'name' || k === 'description' || k === 'severity') out[k] = v;
    else if ((TEST_KINDS as string[]).includes(k)) out[grpcTestKey(k as TestKind)] = TO_GRPC[k as TestKind](asObject(v, `${at}.${k}`), `${at}.${k}`);
    else throw new ProtoShapeError(`${at}.${k}`, 'is not a field of a rule test dqform can send over gRPC');
  }
  return out;
}

/** A dqform SQL-test rule (write form) as a protojson `SqlTestDeploymentRule`: only `tests[]` change. */
export function sqlTestRuleToGrpc(rule: JsonObject): JsonObject {
  const out: JsonObject = { ...rule };
  for (const kind of ['queryConfig', 'staticConfig'] as const) {
    const c = rule[kind];
    if (!c || typeof c !== 'object') continue;
    const config = c as JsonObject;
    if (Array.isArray(config.tests)) out[kind] = { ...config, tests: config.tests.map((t, i) => ruleTestToGrpc(t, `deploymentRule.${kind}.tests[${i}]`)) };
  }
  return out;
}

/** Resolves an entity identifier (protojson) to an asset path, or undefined. */
export type PathOfIdentifier = (id: JsonObject) => string | undefined;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

/** A `SqlValue` as dqform's plain value: the literal, or the expression. */
function sqlValue(v: unknown, at: string): string {
  const o = (v ?? {}) as JsonObject;
  const lit = str(o.stringLiteral);
  const expr = str(o.expression);
  if ((lit ? 1 : 0) + (expr ? 1 : 0) !== 1) throw new ProtoShapeError(at, 'a SqlValue sets exactly one of stringLiteral and expression');
  return (lit ?? expr)!;
}

function numberOf(v: unknown, at: string): number {
  const s = sqlValue(v, at);
  const n = Number(s);
  if (s.trim() === '' || !Number.isFinite(n)) throw new ProtoShapeError(at, `the emulator evaluates numeric bounds only, got ${JSON.stringify(s)}`);
  return n;
}

/** protojson test message -> dqform test body. */
const FROM_GRPC: Record<TestKind, (m: JsonObject, at: string, pathOf: PathOfIdentifier) => JsonObject> = {
  notNull: (m) => ({ columns: strs(m.columnNames) }),
  empty: (m) => ({ columns: strs(m.columnNames) }),
  acceptedValues: (m, at) => ({ column: str(m.columnName), values: ((m.acceptedValues as unknown[]) ?? []).map((v, i) => sqlValue(v, `${at}.acceptedValues[${i}]`)) }),
  rejectedValues: (m, at) => ({ column: str(m.columnName), values: ((m.rejectedValues as unknown[]) ?? []).map((v, i) => sqlValue(v, `${at}.rejectedValues[${i}]`)) }),
  unique: (m) => ({ columns: strs(m.columnNames) }),
  freshness: (m) => ({ column: str(m.timePartitionColumnName), maxDelaySeconds: m.timeWindowSeconds === undefined ? undefined : Number(m.timeWindowSeconds) }),
  minMax: (m, at) => ({ column: str(m.columnName), min: numberOf(m.minValue, `${at}.minValue`), max: numberOf(m.maxValue, `${at}.maxValue`) }),
  relativeTime: (m) => ({ column: str(m.columnName), relativeColumn: str(m.relativeColumnName) }),
  businessRule: (m) => ({ sqlExpression: str(m.sqlExpression) }),
  minValue: (m, at) => ({ column: str(m.columnName), value: numberOf(m.minValue, `${at}.minValue`) }),
  maxValue: (m, at) => ({ column: str(m.columnName), value: numberOf(m.maxValue, `${at}.maxValue`) }),
  relationships: (m, at, pathOf) => {
    const refs = (m.references as JsonObject[] | undefined) ?? [];
    const cols = ((refs[0]?.columns as JsonObject[] | undefined) ?? []);
    if (refs.length !== 1 || cols.length !== 1) throw new ProtoShapeError(`${at}.references`, 'the emulator models one reference with one column pair');
    const entity = (refs[0].entity ?? {}) as JsonObject;
    const path = pathOf(entity);
    if (!path) throw new ProtoShapeError(`${at}.references[0].entity`, 'names no catalog entity');
    return { column: str(cols[0].source), targetTable: path, targetColumn: str(cols[0].reference) };
  },
  businessQuery: (m) => ({ sqlQuery: str(m.sqlQuery) }),
};

/**
 * A protojson `RuleTest` as dqform's rule test: `{ name, description?, severity?, kind, body }`
 * (the caller puts `body` under the key its schema uses). @throws ProtoShapeError.
 */
export function ruleTestFromGrpc(test: JsonObject, at: string, pathOf: PathOfIdentifier): { fields: JsonObject; kind: TestKind | undefined; body: JsonObject | undefined } {
  const fields: JsonObject = {};
  for (const k of ['name', 'description', 'severity'] as const) if (test[k] !== undefined) fields[k] = test[k];
  const kind = TEST_KINDS.find((k) => test[grpcTestKey(k)] !== undefined);
  if (!kind) return { fields, kind: undefined, body: undefined };
  const msg = asObject(test[grpcTestKey(kind)], `${at}.${grpcTestKey(kind)}`);
  const body = FROM_GRPC[kind](msg, `${at}.${grpcTestKey(kind)}`, pathOf);
  for (const k of Object.keys(body)) if (body[k] === undefined) delete body[k];
  return { fields, kind, body };
}
