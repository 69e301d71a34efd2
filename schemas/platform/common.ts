/**
 * Building blocks shared by every wire and manifest schema.
 *
 * Conventions of the platform's JSON (protojson, see upstream-facts):
 * - keys are lowerCamelCase; unknown response keys are tolerated (`z.object` strips them);
 * - a oneof is an object with exactly one of its keys present ({@link oneof});
 * - enums are accepted as names or integers and always parse to the canonical name
 *   ({@link protoEnum}); they go on the wire as numbers (schemas/platform/wire.ts).
 */
import { z } from 'zod';
import { ALIAS_USES, type EnumInfo } from './wire';
import { closestName, sharedPrefix } from '../tools/did-you-mean';
import { markOf, setLastCheckPasses, setMark, setSureOutput } from '../tools/zod-walk';

/** A protobuf enum: accepts the value's name or its number, parses to the name. */
export interface ProtoEnum<N extends string> {
  /** The schema: input `N | number` (or a deprecated alias), output `N`. */
  schema: z.ZodType<N, N | number>;
  /** Name → number. */
  numbers: Readonly<Record<N, number>>;
  /** Number → name. */
  names: Readonly<Record<number, N>>;
  /** The names in declaration order. */
  values: readonly N[];
  /** The name of the zero value (`<PREFIX>_UNSPECIFIED`), if the enum has one. */
  unspecified: N | undefined;
  /** Deprecated spellings still accepted on input: old name → current name. */
  aliases: Readonly<Record<string, N>>;
}

/** How an enum's allowed values read in an error: `A, B or C (names or numbers 1, 2, 3)`. */
function allowedText(table: Record<string, number>, values: readonly string[]): string {
  const set = values.filter((v) => table[v] !== 0);
  return `one of ${set.join(', ')} (or their numbers ${set.map((v) => table[v]).join(', ')})`;
}

/**
 * Declares a protobuf enum from its name → number table. The schema accepts either form
 * (the gateway reads names and numbers; the spec's GET responses carry integers) and outputs
 * the name; dqform sends the NUMBER on the wire (schemas/platform/wire.ts `toWire`). `aliases` are
 * deprecated spellings accepted on input and read as the current name (the engine warns
 * about them). An invalid value's error lists the allowed values.
 */
export function protoEnum<const T extends Record<string, number>>(table: T, opts: { aliases?: Record<string, Extract<keyof T, string>> } = {}): ProtoEnum<Extract<keyof T, string>> {
  type N = Extract<keyof T, string>;
  const values = Object.keys(table) as N[];
  const names: Record<number, N> = {};
  for (const n of values) names[table[n]] = n;
  const aliases = { ...(opts.aliases ?? {}) } as Record<string, N>;
  const allowed = allowedText(table, values);
  // a misspelled name (or one without its prefix: `error` for SEVERITY_ERROR) gets a "did you mean"
  const suggestable = values.filter((v) => table[v] !== 0);
  const strip = sharedPrefix(values);
  const got = (v: unknown) => {
    const near = typeof v === 'string' ? closestName(v, suggestable, { strip }) : undefined;
    return `; got ${JSON.stringify(v)}${near ? `; did you mean ${near}?` : ''}`;
  };
  const nameSchema = z.enum(values as [N, ...N[]], { error: (iss) => `expected ${allowed}${got(iss.input)}` });
  const inputs: z.ZodType[] = [nameSchema];
  const aliasNames = Object.keys(aliases);
  if (aliasNames.length) inputs.push(z.enum(aliasNames as [string, ...string[]]));
  inputs.push(z.number().int());
  const schema = z.codec(z.union(inputs as [z.ZodType, z.ZodType, ...z.ZodType[]], { error: (iss) => `expected ${allowed}${got(iss.input)}` }), nameSchema, {
    decode: (v) => {
      if (typeof v === 'number') return (names[v] ?? v) as N;
      const now = aliases[v as string];
      if (now === undefined) return v as N;
      ALIAS_USES.count++; // lets the engine look for deprecated spellings only where one was parsed
      return now;
    },
    encode: (v) => v,
  }) as unknown as z.ZodType<N, N | number>;
  markEnum(schema, { numbers: table, names, aliases });
  // the lean validator's shortcut: a known name is itself, a known number its name (what the codec answers)
  setSureOutput(schema, (v) => (typeof v === 'string' ? (Object.prototype.hasOwnProperty.call(table, v) && !Object.prototype.hasOwnProperty.call(aliases, v) ? v : undefined) : typeof v === 'number' && Number.isSafeInteger(v) ? names[v] : undefined));
  const unspecified = values.find((v) => table[v] === 0);
  return { schema, numbers: table as unknown as Record<N, number>, names, values, unspecified, aliases };
}

/**
 * Marks `schema` (any schema that reads an enum leniently, e.g. a transform from any name or
 * number) as the enum `e` for the shape walkers (schemas/platform/wire.ts): the emulator encodes its names
 * as numbers under `--enums numbers`, and a tolerant read does not mark a value outside the table
 * as unknown (`open`): the schema itself decides what an unknown value means.
 */
export function markOpenEnum<S extends z.ZodType>(schema: S, e: ProtoEnum<string>): S {
  markEnum(schema, { numbers: e.numbers, names: e.names, aliases: e.aliases, open: true });
  return schema;
}

/** Leaves the enum table on a schema's definition, where schemas/platform/wire.ts finds it. */
function markEnum(schema: z.ZodType, info: EnumInfo): void {
  setMark(schema, 'dqEnum', info);
}

/** The enum without its zero value: "zero values are refused where a value is required". */
export function required<N extends string>(e: ProtoEnum<N>): z.ZodType<N, N | number> {
  const schema = e.schema.refine((v) => v !== e.unspecified, {
    message: `a value is required (${e.unspecified ?? 'zero'} is refused); one of ${e.values.filter((v) => v !== e.unspecified).join(', ')}`,
  });
  // the lean validator tests the value itself, no payload per value read
  setLastCheckPasses(schema, (v) => v !== e.unspecified);
  return schema as unknown as z.ZodType<N, N | number>;
}

/**
 * A protobuf oneof: every variant key is optional in the type and exactly one must be set.
 * Zero or two keys fail with a message naming the variants.
 */
export function oneof<S extends z.ZodRawShape>(shape: S, opts: { optional?: boolean } = {}) {
  return withOneof({}, shape, opts);
}

/**
 * A message with plain fields (`base`) and one oneof group (`variants`), e.g. an alert with
 * its kind. The oneof rule is checked after the fields parse.
 */
export function withOneof<B extends z.ZodRawShape, S extends z.ZodRawShape>(base: B, variants: S, opts: { optional?: boolean } = {}) {
  const keys = Object.keys(variants);
  const partial: Record<string, z.ZodType> = {};
  for (const k of keys) partial[k] = (variants[k] as z.ZodType).optional();
  const schema = z
    .object({ ...base, ...(partial as { [K in keyof S]: z.ZodOptional<S[K]> }) })
    .superRefine((v, ctx) => {
      const issue = oneofIssue(v as Record<string, unknown>, keys, opts.optional ?? false);
      if (issue) ctx.addIssue({ code: 'custom', message: issue, params: { oneof: keys } });
    });
  // the lean validator skips the refinement for a value that surely holds (no issue, no payload per object read)
  const optional = opts.optional ?? false;
  setLastCheckPasses(schema, (v) => oneofHolds(v as Record<string, unknown>, keys, optional));
  setMark(schema, 'dqOneof', [...((markOf(schema, 'dqOneof') as string[][] | undefined) ?? []), keys]);
  return schema;
}

/** Whether a value holds a oneof rule ({@link oneofIssue} finds nothing), without a list per call. */
function oneofHolds(v: Record<string, unknown>, keys: readonly string[], optional: boolean): boolean {
  let set = 0;
  for (let i = 0; i < keys.length; i++) if (v[keys[i]] !== undefined) set++;
  return set === 1 || (set === 0 && optional);
}

/** The message for a value that breaks a oneof rule, or undefined when it holds. */
export function oneofIssue(v: Record<string, unknown>, keys: readonly string[], optional = false): string | undefined {
  const set = keys.filter((k) => v[k] !== undefined);
  if (set.length === 1 || (set.length === 0 && optional)) return undefined;
  return set.length === 0
    ? `exactly one of ${keys.join(', ')} must be set; none is`
    : `exactly one of ${keys.join(', ')} must be set; got ${set.join(' and ')}`;
}

/** The key set on a oneof value (undefined when none is). */
export function oneofKey<T extends object>(v: T): Extract<keyof T, string> | undefined {
  for (const k of Object.keys(v)) if ((v as Record<string, unknown>)[k] !== undefined) return k as Extract<keyof T, string>;
  return undefined;
}

/** An empty message (`{}`), used as a oneof variant marker. */
export const Empty = z.object({});
export type Empty = z.infer<typeof Empty>;

/** A protobuf Timestamp in protojson: an RFC 3339 string. */
export const Timestamp = z.string();

/** Opaque concurrency token, `W/"<id>-<version>"` upstream. */
export const Etag = z.string();

/** Lower-case canonical UUID (the platform's caller-chosen ids). */
export const Uuid = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'must be a UUID');

/** Who made an object: the UI (`SOURCE_APP`) or the API (`SOURCE_API`). */
export const SourceEnum = protoEnum({ SOURCE_APP: 0, SOURCE_API: 1 });
export const Source = SourceEnum.schema;
export type Source = z.infer<typeof Source>;

/** `configsFilter { ids[] }`: absent means no filter. */
export const ConfigsFilter = z.object({ ids: z.array(z.string()) });
export type ConfigsFilter = z.infer<typeof ConfigsFilter>;

/** Paging request: `pagination { cursor, pageSize }`. */
export const Pagination = z.object({
  cursor: z.string().optional(),
  pageSize: z.number().int().min(0).optional(),
});
export type Pagination = z.infer<typeof Pagination>;

/** Paging response: the last page has an empty `lastId`. */
export const PageInfo = z.object({
  count: z.number().int().optional(),
  lastId: z.string().optional(),
  /** @deprecated upstream */
  totalCount: z.number().int().optional(),
});
export type PageInfo = z.infer<typeof PageInfo>;

/** A per-item failure reported inside a 200 by batch writes. */
export const BatchItemError = z.object({ id: z.string(), reason: z.string() });
export type BatchItemError = z.infer<typeof BatchItemError>;

/** Batch reads take at most this many ids (500 for integrations and check categories). */
export const BATCH_LIMIT = 200;
export const INTEGRATIONS_BATCH_LIMIT = 500;

/** gRPC status codes, with the gateway's HTTP mapping in {@link HTTP_STATUS_OF_CODE}. */
export const GrpcCodeEnum = protoEnum({
  OK: 0,
  CANCELLED: 1,
  UNKNOWN: 2,
  INVALID_ARGUMENT: 3,
  DEADLINE_EXCEEDED: 4,
  NOT_FOUND: 5,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  RESOURCE_EXHAUSTED: 8,
  FAILED_PRECONDITION: 9,
  ABORTED: 10,
  OUT_OF_RANGE: 11,
  UNIMPLEMENTED: 12,
  INTERNAL: 13,
  UNAVAILABLE: 14,
  DATA_LOSS: 15,
  UNAUTHENTICATED: 16,
});
export type GrpcCode = (typeof GrpcCodeEnum.values)[number];

export const HTTP_STATUS_OF_CODE: Readonly<Record<GrpcCode, number>> = {
  OK: 200,
  CANCELLED: 499,
  UNKNOWN: 500,
  INVALID_ARGUMENT: 400,
  DEADLINE_EXCEEDED: 504,
  NOT_FOUND: 404,
  ALREADY_EXISTS: 409,
  PERMISSION_DENIED: 403,
  RESOURCE_EXHAUSTED: 429,
  FAILED_PRECONDITION: 400,
  ABORTED: 409,
  OUT_OF_RANGE: 400,
  UNIMPLEMENTED: 501,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DATA_LOSS: 500,
  UNAUTHENTICATED: 401,
};

/** A protovalidate violation: which field, which rule, what is wrong (normalised form). */
export interface Violation {
  field?: string;
  ruleId?: string;
  message?: string;
}

/**
 * A field path as protovalidate sends it: a string (`targets[0].email`, older releases), or a
 * structured `FieldPath { elements: [{ fieldName, index | stringKey | intKey | ... }] }`.
 */
export function fieldPathText(field: unknown): string | undefined {
  if (typeof field === 'string') return field;
  const elements = field && typeof field === 'object' ? (field as { elements?: unknown }).elements : undefined;
  if (!Array.isArray(elements)) return undefined;
  let out = '';
  for (const e of elements as Record<string, unknown>[]) {
    const name = typeof e?.fieldName === 'string' ? e.fieldName : typeof e?.fieldNumber === 'number' ? `#${e.fieldNumber}` : '?';
    out += out ? `.${name}` : name;
    const sub = e.index ?? e.stringKey ?? e.intKey ?? e.uintKey ?? e.boolKey;
    if (sub !== undefined) out += typeof e.stringKey === 'string' ? `[${JSON.stringify(e.stringKey)}]` : `[${String(sub)}]`;
  }
  return out;
}

/** A field path as the violations write it (protovalidate): `['targets', 0, 'email']` -> `targets[0].email`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else out += out ? `.${String(p)}` : String(p);
  }
  return out;
}

/**
 * A violation in any of its wire forms, normalised: `field` (string or structured path) or the
 * older `fieldPath`; `ruleId` or the older `constraintId`. Rule ids are never lost.
 */
export const Violation: z.ZodType<Violation, unknown> = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object') return raw;
  const r = raw as Record<string, unknown>;
  const field = fieldPathText(r.field) ?? fieldPathText(r.fieldPath);
  const ruleId = typeof r.ruleId === 'string' ? r.ruleId : typeof r.constraintId === 'string' ? r.constraintId : undefined;
  return { field, ruleId, message: typeof r.message === 'string' ? r.message : undefined };
}, z.object({ field: z.string().optional(), ruleId: z.string().optional(), message: z.string().optional() })) as unknown as z.ZodType<Violation, unknown>;

/** google.rpc.QuotaFailure violations: `{ subject, description }`. */
export const QuotaViolation = z.object({ subject: z.string().optional(), description: z.string().optional() });
export type QuotaViolation = z.infer<typeof QuotaViolation>;

/**
 * One entry of google.rpc.Status `details` (an Any in protojson: `@type` plus fields).
 * Known types: `type.googleapis.com/buf.validate.Violations` (`violations[]`),
 * `type.googleapis.com/google.rpc.ErrorInfo` (`reason`, `metadata`, e.g. the missing scope),
 * `type.googleapis.com/google.rpc.RetryInfo` (`retryDelay`), `type.googleapis.com/google.rpc.RequestInfo` (`requestId`),
 * `type.googleapis.com/google.rpc.QuotaFailure` (`violations[] { subject, description }`: a quota).
 * `violations` is read by type: field violations of a Violations detail, quota violations of a
 * QuotaFailure (kept raw otherwise).
 */
export const StatusDetail = z.looseObject({
  '@type': z.string(),
  /** Field violations (`field` a string or a structured path) or quota violations (`subject`, `description`), kept as sent. */
  violations: z
    .array(z.looseObject({ field: z.unknown().optional(), ruleId: z.string().optional(), message: z.string().optional(), subject: z.string().optional(), description: z.string().optional() }))
    .optional(),
  reason: z.string().optional(),
  domain: z.string().optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  retryDelay: z.string().optional(),
  requestId: z.string().optional(),
});
export type StatusDetail = z.infer<typeof StatusDetail>;

export const VIOLATIONS_TYPE = 'type.googleapis.com/buf.validate.Violations';
export const ERROR_INFO_TYPE = 'type.googleapis.com/google.rpc.ErrorInfo';
export const RETRY_INFO_TYPE = 'type.googleapis.com/google.rpc.RetryInfo';
export const REQUEST_INFO_TYPE = 'type.googleapis.com/google.rpc.RequestInfo';
export const QUOTA_FAILURE_TYPE = 'type.googleapis.com/google.rpc.QuotaFailure';
export const BAD_REQUEST_TYPE = 'type.googleapis.com/google.rpc.BadRequest';

/** The error body of every failed REST call: google.rpc.Status. `code` is the gRPC code number. */
export const Status = z.object({
  code: z.number().int(),
  message: z.string().default(''),
  details: z.array(StatusDetail).default([]),
});
export type Status = z.infer<typeof Status>;

/** `POST {base}/oauth2/token` response. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  expires_in: z.number().int().positive(),
  token_type: z.string(),
  scope: z.string().optional(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

/**
 * Every scope name dqform knows: spec part 5.4 plus the per-service ones of wire-facts. A token or
 * IAM answer may carry others: they are accepted and ignored (IamResponse takes any string).
 */
export const SCOPES = [
  'SCOPE_ISSUES_EDIT',
  'SCOPE_ISSUES_READ',
  'SCOPE_INCIDENTS_EDIT',
  'SCOPE_INCIDENTS_READ',
  'SCOPE_ENTITY_EDIT',
  'SCOPE_ENTITY_READ',
  'SCOPE_ENTITY_TYPE_EDIT',
  'SCOPE_ENTITY_TYPE_READ',
  'SCOPE_LINEAGE_EDIT',
  'SCOPE_LINEAGE_READ',
  'SCOPE_CODE_READ',
  'SCOPE_STATUS_READ',
  'SCOPE_DATACHECKS_SQLTESTS_EDIT',
  'SCOPE_DATACHECKS_SQLTESTS_READ',
  'SCOPE_DATACHECKS_SQLTESTS_AUDIT_READ',
  'SCOPE_DATACHECKS_TESTSUGGESTIONS_EDIT',
  'SCOPE_DATACHECKS_TESTSUGGESTIONS_READ',
  'SCOPE_DATACHECKS_TRIGGER',
  'SCOPE_EXECUTION_EDIT',
  'SCOPE_EXECUTION_LOG_EDIT',
  'SCOPE_EXECUTION_READ',
  'SCOPE_INTEGRATION_EDIT',
  'SCOPE_MCP_WRITE',
  'SCOPE_RECON_READ',
  'SCOPE_RECON_EDIT',
  'SCOPE_RECON_PROMOTE',
  'SCOPE_POLICIES_EDIT',
  'SCOPE_POLICIES_READ',
  'SCOPE_SAVED_VIEW_READ',
  'SCOPE_SAVED_VIEW_EDIT',
  'SCOPE_SAVED_VIEW_ADMIN',
  'SCOPE_FOLDERS_READ',
  'SCOPE_FOLDERS_EDIT',
  'SCOPE_DELIVERY_READ',
  // per-service and MCP scopes the real service has beyond the spec's list (wire-facts, decisions)
  'SCOPE_ALERTS_EDIT',
  'SCOPE_ALERTS_READ',
  'SCOPE_DOMAIN_EDIT',
  'SCOPE_DOMAIN_READ',
  'SCOPE_DATAPRODUCT_EDIT',
  'SCOPE_DATAPRODUCT_READ',
  'SCOPE_OWNERS_EDIT',
  'SCOPE_OWNERS_READ',
  'SCOPE_OWNERSHIP_EDIT',
  'SCOPE_OWNERSHIP_READ',
  'SCOPE_MONITORS_AUTOMATIC_EDIT',
  'SCOPE_INTEGRATION_READ',
  'SCOPE_MCP_READ',
  'SCOPE_SRE_AGENT',
] as const;
export const Scope = z.enum(SCOPES);
export type Scope = z.infer<typeof Scope>;

/** `GET /api/iam/v1`: how a tool learns its workspace. */
export const IamResponse = z.object({
  workspace: z.string(),
  scopes: z.array(z.string()),
  subject: z.string().optional(),
  clientType: z.string().optional(),
});
export type IamResponse = z.infer<typeof IamResponse>;
