/**
 * Errors raised by emulator route handlers and how they become google.rpc.Status bodies.
 *
 * A handler throws an {@link EmulatorError} (usually through one of the helpers below); the
 * server turns it into `{ code, message, details }` with the gateway's HTTP status
 * ({@link HTTP_STATUS_OF_CODE}). Anything else thrown is an INTERNAL error (a bug).
 */
import type { z } from 'zod';
import { fromQuery, unknownKeys } from '../../schemas/platform/wire';
import {
  ERROR_INFO_TYPE,
  fieldPath,
  GrpcCodeEnum,
  HTTP_STATUS_OF_CODE,
  QUOTA_FAILURE_TYPE,
  VIOLATIONS_TYPE,
  type BatchItemError,
  type GrpcCode,
  type Status,
  type StatusDetail,
  type Violation,
} from '../../schemas/platform/common';

/** A failure with a gRPC code, a message and google.rpc.Status details. */
export class EmulatorError extends Error {
  /** The gRPC code name, e.g. `INVALID_ARGUMENT`. */
  readonly code: GrpcCode;
  /** Status details (`@type` plus fields). */
  readonly details: StatusDetail[];
  /** Extra response headers (e.g. `retry-after`). */
  readonly headers: Record<string, string>;

  constructor(code: GrpcCode, message: string, details: StatusDetail[] = [], headers: Record<string, string> = {}) {
    super(message);
    this.name = 'EmulatorError';
    this.code = code;
    this.details = details;
    this.headers = headers;
  }

  /** The HTTP status the gateway answers for this code. */
  get httpStatus(): number {
    return HTTP_STATUS_OF_CODE[this.code];
  }

  /** The google.rpc.Status body. */
  toStatus(): Status {
    return { code: GrpcCodeEnum.numbers[this.code], message: this.message, details: this.details };
  }
}

/** A protovalidate violation as the emulator reports it (every field set). */
export interface EmulatorViolation extends Violation {
  field: string;
  ruleId: string;
  message: string;
}

/** INVALID_ARGUMENT with a `buf.validate.Violations` detail. The message lists the violations. */
export function invalidArgument(message: string, violations: EmulatorViolation[] = []): EmulatorError {
  const details = (violations.length ? [{ '@type': VIOLATIONS_TYPE, violations }] : []) as StatusDetail[];
  const text = violations.length
    ? `${message}: ${violations.map((v) => (v.field ? `${v.field}: ${v.message} [${v.ruleId}]` : `${v.message} [${v.ruleId}]`)).join('; ')}`
    : message;
  return new EmulatorError('INVALID_ARGUMENT', text, details);
}

/** FAILED_PRECONDITION (HTTP 400): the request is valid but the state forbids it. */
export function failedPrecondition(message: string, violations: EmulatorViolation[] = []): EmulatorError {
  const details = (violations.length ? [{ '@type': VIOLATIONS_TYPE, violations }] : []) as StatusDetail[];
  return new EmulatorError('FAILED_PRECONDITION', message, details);
}

/** NOT_FOUND (HTTP 404). */
export function notFound(message: string): EmulatorError {
  return new EmulatorError('NOT_FOUND', message);
}

/** ABORTED (HTTP 409): a stale etag. */
export function aborted(message: string): EmulatorError {
  return new EmulatorError('ABORTED', message, [{ '@type': ERROR_INFO_TYPE, reason: 'ETAG_MISMATCH', metadata: {} }]);
}

/** ALREADY_EXISTS (HTTP 409). */
export function alreadyExists(message: string): EmulatorError {
  return new EmulatorError('ALREADY_EXISTS', message);
}

/**
 * RESOURCE_EXHAUSTED (HTTP 429) for a hard quota: a `google.rpc.QuotaFailure` detail (what the
 * platform sends; clients must not retry it) and an ErrorInfo `QUOTA_EXCEEDED`.
 */
export function quotaExceeded(message: string, subject: string, description: string): EmulatorError {
  return new EmulatorError('RESOURCE_EXHAUSTED', message, [
    { '@type': QUOTA_FAILURE_TYPE, violations: [{ subject, description }] },
    { '@type': ERROR_INFO_TYPE, reason: 'QUOTA_EXCEEDED', metadata: { quota: subject } },
  ]);
}

/** RESOURCE_EXHAUSTED (HTTP 429) without a quota detail: rate limiting. `retryAfterSeconds` adds a Retry-After header. */
export function resourceExhausted(message: string, retryAfterSeconds?: number): EmulatorError {
  if (retryAfterSeconds === undefined) return new EmulatorError('RESOURCE_EXHAUSTED', message);
  return new EmulatorError(
    'RESOURCE_EXHAUSTED',
    message,
    [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${retryAfterSeconds}s` }],
    { 'retry-after': String(retryAfterSeconds) },
  );
}

/** PERMISSION_DENIED (HTTP 403). With `scope`, names it in the message and an ErrorInfo detail. */
export function permissionDenied(message: string, scope?: string): EmulatorError {
  const details: StatusDetail[] = scope ? [{ '@type': ERROR_INFO_TYPE, reason: 'MISSING_SCOPE', metadata: { scope } }] : [];
  return new EmulatorError('PERMISSION_DENIED', message, details);
}

/** UNAUTHENTICATED (HTTP 401). */
export function unauthenticated(message: string): EmulatorError {
  return new EmulatorError('UNAUTHENTICATED', message);
}

/** UNAVAILABLE (HTTP 503). */
export function unavailable(message: string): EmulatorError {
  return new EmulatorError('UNAVAILABLE', message);
}

/** INTERNAL (HTTP 500): a bug in the emulator. */
export function internal(message: string): EmulatorError {
  return new EmulatorError('INTERNAL', message);
}

/** What a request's handler threw, as an answer: the EmulatorError itself, else INTERNAL (the stack logged under the request id). */
export function asEmulatorError(e: unknown, log: (line: string) => void, requestId: string): EmulatorError {
  if (e instanceof EmulatorError) return e;
  log(`internal error ${requestId}: ${(e as Error)?.stack ?? String(e)}`);
  return internal(`internal emulator error: ${(e as Error)?.message ?? String(e)}`);
}

/** The protovalidate field path of a zod issue path: `targets[0].email`. */
export { fieldPath };

/**
 * Turns a zod error into violations. The rule id is `<operation>.<field>` (the field path with
 * indexes dropped, e.g. `upsert.targets.email`), or `<operation>.<zod issue code>` for
 * whole-message issues (e.g. `upsert.custom`). A custom issue may set `params.ruleId` to name
 * its own rule id (e.g. `update_settings.at_least_one_facet`).
 */
export function zodViolations(error: z.ZodError, operation: string): EmulatorViolation[] {
  return error.issues.map((issue) => {
    const field = fieldPath(issue.path);
    const named = (issue as { params?: { ruleId?: unknown } }).params?.ruleId;
    const bare = issue.path.filter((p) => typeof p !== 'number').map(String).join('.');
    const oneof = (issue as { params?: { oneof?: unknown } }).params?.oneof !== undefined;
    const ruleId = typeof named === 'string' ? named : oneof ? `${operation}${bare ? `.${bare}` : ''}.oneof` : bare ? `${operation}.${bare}` : `${operation}.${issue.code}`;
    return { field, ruleId, message: issue.message };
  });
}

/**
 * The emulator is STRICT where the real gateway is lenient (wire-facts, decisions): a request key
 * the operation does not declare, at any depth, is 400 INVALID_ARGUMENT naming it (rule id
 * `<operation>.unknown_field`), so a client that drifts from the wire shape (an envelope such as
 * `{ domain: {...} }`, a misplaced `etag`) fails in tests instead of being silently ignored.
 */
export function refuseUnknownKeys(schema: z.ZodType, body: unknown, operation: string): void {
  const unknown = unknownKeys(schema, body ?? {});
  if (unknown.length === 0) return;
  throw invalidArgument(
    `invalid ${operation} request: unknown field${unknown.length > 1 ? 's' : ''} ${unknown.map((k) => `"${k}"`).join(', ')} (the operation does not declare ${unknown.length > 1 ? 'them' : 'it'})`,
    unknown.map((k) => ({ field: k, ruleId: `${operation}.unknown_field`, message: `unknown field "${k}"` })),
  );
}

/**
 * Validates `body` with `schema`, strictly: unknown keys are refused ({@link refuseUnknownKeys}),
 * then on a zod failure throws INVALID_ARGUMENT with violations (see {@link zodViolations}).
 * Returns the parsed (output) value.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, operation: string): z.output<S> {
  refuseUnknownKeys(schema, body, operation);
  const r = schema.safeParse(body ?? {});
  if (r.success) return r.data as z.output<S>;
  throw invalidArgument(`invalid ${operation} request`, zodViolations(r.error, operation));
}

/**
 * A `body: "*"` request's body without its path-bound fields (`ownerId` of UpsertOwnership,
 * `integrationId` of an integration Update): the request declares them, so the gateway accepts
 * them in the body, and then fills them from the path, which wins (wire-facts 1 "path
 * variables": "that field is then not read from the body"). A value that is no string is kept
 * (and refused by the schema as any undeclared key).
 */
export function withoutPathFields(body: unknown, fields: readonly string[]): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const out = { ...(body as Record<string, unknown>) };
  for (const f of fields) if (typeof out[f] === 'string') delete out[f];
  return out;
}

/**
 * Reads a GET/DELETE request's query parameters against its request schema (dotted names,
 * repeated keys, enums as names or numbers), strictly: an unknown parameter, or one that names a
 * message (e.g. `deploymentRule=<json>`) instead of a scalar field, is 400 INVALID_ARGUMENT.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: URLSearchParams, operation: string): z.output<S> {
  const read = fromQuery(schema, query.entries());
  const bad = [
    ...read.unknown.map((k) => ({ field: k, ruleId: `${operation}.unknown_field`, message: `unknown query parameter "${k}"` })),
    ...read.messages.map((k) => ({
      field: k,
      ruleId: `${operation}.message_parameter`,
      message: `"${k}" is a message: a query string sets only its scalar fields (dotted names such as ${k}.id=...), never a JSON value`,
    })),
  ];
  if (bad.length) throw invalidArgument(`invalid ${operation} request`, bad);
  const r = schema.safeParse(read.value);
  if (r.success) return r.data as z.output<S>;
  throw invalidArgument(`invalid ${operation} request`, zodViolations(r.error, operation));
}

/** The reason string of a per-item batch error: `<CODE>: <message>`. */
export function batchReason(err: unknown): string {
  if (err instanceof EmulatorError) return `${err.code}: ${err.message}`;
  return `INTERNAL: ${err instanceof Error ? err.message : String(err)}`;
}

/**
 * Runs `fn` for each item of a batch write; an {@link EmulatorError} thrown for one item
 * becomes a per-item `{ id, reason }` entry of `errors` instead of failing the request.
 * Other exceptions (bugs) propagate.
 */
export function runBatch<I, R>(
  items: readonly I[],
  idOf: (item: I, index: number) => string,
  fn: (item: I, index: number) => R,
): { results: { id: string; result: R }[]; errors: BatchItemError[] } {
  const results: { id: string; result: R }[] = [];
  const errors: BatchItemError[] = [];
  items.forEach((item, i) => {
    const id = idOf(item, i);
    try {
      results.push({ id, result: fn(item, i) });
    } catch (e) {
      if (!(e instanceof EmulatorError)) throw e;
      errors.push({ id, reason: batchReason(e) });
    }
  });
  return { results, errors };
}
