/**
 * Building blocks shared by every wire and manifest schema.
 *
 * Conventions of the platform's JSON (protojson, see spec/upstream-facts.md):
 * - keys are lowerCamelCase; unknown response keys are tolerated (`z.object` strips them);
 * - a oneof is an object with exactly one of its keys present ({@link oneof});
 * - enums are accepted as names or integers and always parse to the canonical name
 *   ({@link protoEnum}); they are written back as names.
 */
import { z } from 'zod';

/** A protobuf enum: accepts the value's name or its number, parses to the name. */
export interface ProtoEnum<N extends string> {
  /** The schema: input `N | number`, output `N`. */
  schema: z.ZodType<N, N | number>;
  /** Name → number. */
  numbers: Readonly<Record<N, number>>;
  /** Number → name. */
  names: Readonly<Record<number, N>>;
  /** The names in declaration order. */
  values: readonly N[];
  /** The name of the zero value (`<PREFIX>_UNSPECIFIED`), if the enum has one. */
  unspecified: N | undefined;
}

/**
 * Declares a protobuf enum from its name → number table. The schema accepts either form
 * (the spec's GET responses carry integers, writes may carry names) and outputs the name.
 */
export function protoEnum<const T extends Record<string, number>>(table: T): ProtoEnum<Extract<keyof T, string>> {
  type N = Extract<keyof T, string>;
  const values = Object.keys(table) as N[];
  const names: Record<number, N> = {};
  for (const n of values) names[table[n]] = n;
  const nameSchema = z.enum(values as [N, ...N[]]);
  const schema = z.codec(z.union([nameSchema, z.number().int()]), nameSchema, {
    decode: (v) => (typeof v === 'number' ? ((names[v] ?? String(v)) as N) : v),
    encode: (v) => v,
  }) as unknown as z.ZodType<N, N | number>;
  const unspecified = values.find((v) => table[v] === 0);
  return { schema, numbers: table as unknown as Record<N, number>, names, values, unspecified };
}

/** The enum without its zero value: "zero values are refused where a value is required". */
export function required<N extends string>(e: ProtoEnum<N>): z.ZodType<N, N | number> {
  return e.schema.refine((v) => v !== e.unspecified, {
    message: `a value is required (${e.unspecified ?? 'zero'} is refused); one of ${e.values.filter((v) => v !== e.unspecified).join(', ')}`,
  }) as unknown as z.ZodType<N, N | number>;
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
  return z
    .object({ ...base, ...(partial as { [K in keyof S]: z.ZodOptional<S[K]> }) })
    .superRefine((v, ctx) => {
      const issue = oneofIssue(v as Record<string, unknown>, keys, opts.optional ?? false);
      if (issue) ctx.addIssue({ code: 'custom', message: issue, params: { oneof: keys } });
    });
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

/** A protovalidate violation: which field, which rule, what is wrong. */
export const Violation = z.object({
  field: z.string().optional(),
  ruleId: z.string().optional(),
  message: z.string().optional(),
});
export type Violation = z.infer<typeof Violation>;

/**
 * One entry of google.rpc.Status `details` (an Any in protojson: `@type` plus fields).
 * Known types: `type.googleapis.com/buf.validate.Violations` (`violations[]`),
 * `type.googleapis.com/google.rpc.ErrorInfo` (`reason`, `metadata`, e.g. the missing scope),
 * `type.googleapis.com/google.rpc.RetryInfo` (`retryDelay`), `type.googleapis.com/google.rpc.RequestInfo` (`requestId`).
 */
export const StatusDetail = z.looseObject({
  '@type': z.string(),
  violations: z.array(Violation).optional(),
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

/** Every scope name of spec part 5.4, plus the ones the wire and gRPC facts name. */
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
  // Not in spec part 5.4; named by wire-facts.md and grpc-facts.md as any-of scopes of the
  // deployment-rule operations and the preview calls.
  'SCOPE_MONITORS_AUTOMATIC_EDIT',
  'SCOPE_MCP_READ',
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
