/**
 * Typed errors of the API client and the ONE factory that maps an HTTP failure to them
 * ({@link errorFromResponse}, {@link errorFromTransport}).
 *
 * Mapping (gRPC code from the google.rpc.Status body wins; the HTTP status is the fallback):
 *
 * | error | gRPC code | HTTP |
 * |---|---|---|
 * | {@link ValidationError} | INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE | 400, 422 |
 * | {@link UnauthenticatedError} | UNAUTHENTICATED | 401 |
 * | {@link PermissionDeniedError} | PERMISSION_DENIED | 403 |
 * | {@link NotFoundError} | NOT_FOUND | 404 |
 * | {@link ConflictError} | ABORTED (stale etag) | 409, 412 |
 * | {@link AlreadyExistsError} (a ConflictError) | ALREADY_EXISTS | — |
 * | {@link QuotaError} | RESOURCE_EXHAUSTED that is a quota (below) | — |
 * | {@link RateLimitedError} | any other RESOURCE_EXHAUSTED | 429 |
 * | {@link UnavailableError} | UNAVAILABLE, DEADLINE_EXCEEDED | 502, 503, 504, dropped connections |
 * | {@link ApiError} | anything else (INTERNAL, UNIMPLEMENTED, ...) | |
 *
 * RESOURCE_EXHAUSTED splits on its details: a `google.rpc.QuotaFailure` detail, or an ErrorInfo
 * whose `reason` contains `QUOTA` (e.g.
 * `QUOTA_EXCEEDED`, `INTEGRATION_QUOTA_EXCEEDED`) or a `quota`/`quota_limit` metadata key
 * makes it a {@link QuotaError}: a hard limit (the integrations-per-workspace quota) that waiting
 * does not lift, never retried. Everything else exhausted (no ErrorInfo, or reason
 * `RATE_LIMIT_EXCEEDED`), and every bare 429, is a {@link RateLimitedError}, retried after
 * `Retry-After` (seconds or HTTP date) or the RetryInfo `retryDelay`.
 *
 * Messages and `toJSON()` pass through {@link redact}: no credential or token is ever in them.
 * Server text in a message (the status message, violations, a plain error body, a request id)
 * is inert (schemas/tools/inert): control sequences removed, control, bidi and zero-width characters
 * shown as `\uXXXX`, line breaks escaped, so that no workflow command (`::error::`) starts a line.
 */
import { z } from 'zod';
import {
  BAD_REQUEST_TYPE,
  ERROR_INFO_TYPE,
  QUOTA_FAILURE_TYPE,
  GrpcCode,
  GrpcCodeEnum,
  HTTP_STATUS_OF_CODE,
  REQUEST_INFO_TYPE,
  RETRY_INFO_TYPE,
  Status,
  StatusDetail,
  VIOLATIONS_TYPE,
  Violation,
  fieldPath,
} from '../../schemas/platform/common';
import { decodeStatus } from '../../schemas/platform/grpc';
import { inertServerText } from '../../schemas/tools/inert';
import { redact, redactValue } from './redact';
import { DqformError } from '../../schemas/tools/errors';

/** Fields every API error carries. */
export interface ApiErrorInit {
  method: string;
  /** Request path with its query string (redacted on output). */
  path: string;
  /** HTTP status; 0 when no response was received. */
  status: number;
  grpcCode?: GrpcCode;
  /** `x-request-id` response header, RequestInfo detail, or the id the client sent. */
  requestId?: string;
  /** The server's message (redacted). */
  serverMessage?: string;
  details?: StatusDetail[];
  cause?: unknown;
  /** The request was refused before it was sent (a client-side check). */
  notSent?: boolean;
  /** `grpc` when the call went over gRPC: `status` is then the gateway's HTTP status for the code. */
  transport?: 'http' | 'grpc';
}

/** Base of every error raised at the HTTP boundary. */
export class ApiError extends DqformError {
  static override readonly code: string = 'api';
  override name = 'ApiError';
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly grpcCode: GrpcCode | undefined;
  readonly requestId: string | undefined;
  /** `grpc` for calls made over gRPC, `http` otherwise. */
  readonly transport: 'http' | 'grpc';
  /** The server's own message, redacted. */
  readonly serverMessage: string;
  /** google.rpc.Status details, redacted. */
  readonly details: StatusDetail[];
  /** True for errors the retry policy may retry (rate limits, unavailability). */
  readonly retryable: boolean = false;
  /**
   * Set by the retry loop when this is the last error of a call an earlier attempt of which may
   * have reached the server (its response was lost, or it failed there): a write that ends in a
   * failure to connect may still have landed.
   */
  mayHaveLanded = false;

  constructor(init: ApiErrorInit, summary?: string) {
    const method = init.method.toUpperCase();
    const path = redact(init.path);
    const serverMessage = redact(inertServerText(init.serverMessage ?? ''));
    const outcome = init.notSent ? 'not sent' : init.transport === 'grpc' ? `failed: ${init.grpcCode ?? 'UNKNOWN'}` : `failed: ${init.status || 'no response'}${init.grpcCode ? ` ${init.grpcCode}` : ''}`;
    const head = `${method} ${path} ${outcome}`;
    const text = [head, summary ?? serverMessage].filter((s) => s).join(': ');
    // the whole message is inert: subclasses' summaries hold server text too (violations, scopes, shape issues)
    super(redact(inertServerText(init.requestId ? `${text} (request id ${init.requestId})` : text)), { cause: init.cause });
    this.method = method;
    this.path = path;
    this.status = init.status;
    this.grpcCode = init.grpcCode;
    this.requestId = init.requestId;
    this.transport = init.transport ?? 'http';
    this.serverMessage = serverMessage;
    this.details = redactValue(init.details ?? []);
  }

  /** Extra fields of subclasses for {@link toJSON}. */
  protected extra(): Record<string, unknown> {
    return {};
  }

  /** A redacted, deterministic (sorted keys) serialisation. */
  toJSON(): Record<string, unknown> {
    const cause = this.cause;
    const value: Record<string, unknown> = {
      name: this.name,
      message: this.message,
      method: this.method,
      path: this.path,
      status: this.status,
      grpcCode: this.grpcCode,
      requestId: this.requestId,
      serverMessage: this.serverMessage || undefined,
      details: this.details.length ? this.details : undefined,
      retryable: this.retryable,
      transport: this.transport === 'grpc' ? 'grpc' : undefined,
      cause: cause instanceof Error ? { name: cause.name, message: cause.message, code: (cause as { code?: unknown }).code } : cause,
      ...this.extra(),
    };
    return sortKeys(redactValue(value)) as Record<string, unknown>;
  }
}

/** Invalid request: INVALID_ARGUMENT, FAILED_PRECONDITION, OUT_OF_RANGE (HTTP 400). */
export class ValidationError extends ApiError {
  static override readonly code: string = 'api.validation';
  override name = 'ValidationError';
  /** protovalidate violations: `ruleId` (e.g. `update_settings.at_least_one_facet`), `field` path, message. */
  readonly violations: Violation[];
  constructor(init: ApiErrorInit) {
    const violations = collectViolations(init.details ?? []);
    const v = violations.map((x) => `${x.field ?? '(request)'}: ${x.message ?? x.ruleId ?? 'invalid'}${x.ruleId ? ` [${x.ruleId}]` : ''}`);
    super(init, [redact(init.serverMessage ?? ''), ...v].filter((s) => s).join('; ') || undefined);
    this.violations = redactValue(violations);
  }
  /** The rule ids of every violation. */
  get ruleIds(): string[] {
    return this.violations.flatMap((v) => (v.ruleId ? [v.ruleId] : []));
  }
  protected override extra() {
    return { violations: this.violations };
  }
}

/** UNAUTHENTICATED / 401: bad credentials or an expired token the client could not refresh. */
export class UnauthenticatedError extends ApiError {
  static override readonly code: string = 'api.unauthenticated';
  override name = 'UnauthenticatedError';
}

/** PERMISSION_DENIED / 403; {@link missingScope} names the scope when the server says which. */
export class PermissionDeniedError extends ApiError {
  static override readonly code: string = 'api.permission-denied';
  override name = 'PermissionDeniedError';
  readonly missingScope: string | undefined;
  constructor(init: ApiErrorInit) {
    const scope = findScope(init);
    super(init, scope ? `${redact(init.serverMessage ?? 'permission denied')} (the credentials lack ${scope})` : undefined);
    this.missingScope = scope;
  }
  protected override extra() {
    return { missingScope: this.missingScope };
  }
}

/** NOT_FOUND / 404. */
export class NotFoundError extends ApiError {
  static override readonly code: string = 'api.not-found';
  override name = 'NotFoundError';
}

/** ABORTED / 409 / 412: the object changed since its etag was read (or a concurrent write). */
export class ConflictError extends ApiError {
  static override readonly code: string = 'api.conflict';
  override name = 'ConflictError';
}

/** ALREADY_EXISTS: a create for a key that is taken. */
export class AlreadyExistsError extends ConflictError {
  static override readonly code: string = 'api.conflict.already-exists';
  override name = 'AlreadyExistsError';
}

/** RESOURCE_EXHAUSTED that is a quota (see module doc): not retried. */
export class QuotaError extends ApiError {
  static override readonly code: string = 'api.quota';
  override name = 'QuotaError';
  /** ErrorInfo reason, e.g. `QUOTA_EXCEEDED`. */
  readonly reason: string | undefined;
  constructor(init: ApiErrorInit) {
    super(init);
    this.reason = errorInfo(init.details ?? [])?.reason;
  }
  protected override extra() {
    return { reason: this.reason };
  }
}

/** A retryable failure that may say when to retry ({@link retryAfterMs}). */
export abstract class RetryAfterError extends ApiError {
  static override readonly code: string = 'api.retryable';
  override readonly retryable = true;
  /** From `Retry-After` (seconds or HTTP date) or RetryInfo `retryDelay`; undefined if neither. */
  readonly retryAfterMs: number | undefined;
  constructor(init: ApiErrorInit, retryAfterMs?: number) {
    super(init);
    this.retryAfterMs = retryAfterMs;
  }
  protected override extra() {
    return { retryAfterMs: this.retryAfterMs };
  }
}

/** 429 / RESOURCE_EXHAUSTED that is not a quota: retried after {@link retryAfterMs}. */
export class RateLimitedError extends RetryAfterError {
  static override readonly code: string = 'api.rate-limited';
  override name = 'RateLimitedError';
}

/** 502/503/504, UNAVAILABLE, DEADLINE_EXCEEDED, or a dropped/refused connection (status 0). */
export class UnavailableError extends RetryAfterError {
  static override readonly code: string = 'api.unavailable';
  override name = 'UnavailableError';
}

/** A body that does not match its schema: {@link issues}, each problem with its path. */
export abstract class ShapeError extends ApiError {
  static override readonly code: string = 'api.shape';
  /** Each problem with its path, e.g. `alerts.a1.targets[0]`. */
  readonly issues: { path: string; message: string }[];
  constructor(init: ApiErrorInit, issues: { path: string; message: string }[], what: string) {
    super(init, `${what}: ${issues.map((i) => `${i.path || '(root)'}: ${i.message}`).join('; ')}`);
    this.issues = issues;
  }
  protected override extra() {
    return { issues: this.issues };
  }
}

/** A 2xx response whose body does not match the expected schema. Never retried. */
export class ResponseShapeError extends ShapeError {
  static override readonly code: string = 'api.response-shape';
  override name = 'ResponseShapeError';
  constructor(init: ApiErrorInit, issues: { path: string; message: string }[]) {
    super(init, issues, 'unexpected response shape');
  }
}

/** A request body that fails its schema before it is sent (a caller bug; nothing was sent). */
export class RequestShapeError extends ShapeError {
  static override readonly code: string = 'api.request-shape';
  override name = 'RequestShapeError';
  constructor(init: ApiErrorInit, issues: { path: string; message: string }[]) {
    super({ ...init, notSent: true }, issues, 'request body is invalid');
  }
}

/** Formats zod issues as `{ path: "a.b[0]", message }`. */
export function zodIssues(error: z.ZodError): { path: string; message: string }[] {
  return error.issues.map((i) => ({ path: formatPath(i.path), message: i.message }));
}

/** `['a', 0, 'b']` -> `a[0].b` (the violations' field path: {@link fieldPath}). */
export const formatPath: (path: readonly PropertyKey[]) => string = fieldPath;

/** What the factory needs from a failed response. */
export interface FailedResponse {
  method: string;
  path: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** Raw body text (may be empty or not JSON). */
  body: string;
  /** The id the client sent, used when the server echoes none. */
  sentRequestId?: string;
  /** Clock for HTTP-date Retry-After. */
  now?: number;
  /** `grpc` when the failure is a gRPC status (see {@link errorFromGrpcStatus}). */
  transport?: 'http' | 'grpc';
}

/** THE error factory: maps a non-2xx response to a typed {@link ApiError}. */
export function errorFromResponse(res: FailedResponse): ApiError {
  const status = parseStatusBody(res.body);
  const details = status?.details ?? [];
  const header = (n: string) => {
    const v = res.headers[n];
    return Array.isArray(v) ? v[0] : v;
  };
  const requestInfo = details.find((d) => d['@type'] === REQUEST_INFO_TYPE)?.requestId;
  const requestId = header('x-request-id') ?? requestInfo ?? res.sentRequestId;
  const grpcCode = status ? (GrpcCodeEnum.names[status.code] ?? undefined) : undefined;
  const init: ApiErrorInit = {
    method: res.method,
    path: res.path,
    status: res.status,
    grpcCode,
    requestId,
    serverMessage: status?.message ?? (status ? '' : plainMessage(res.body)),
    details,
    transport: res.transport,
  };
  const retryAfterMs = parseRetryAfter(header('retry-after'), res.now ?? Date.now()) ?? retryInfoDelay(details);

  switch (grpcCode) {
    case 'INVALID_ARGUMENT':
    case 'FAILED_PRECONDITION':
    case 'OUT_OF_RANGE':
      return new ValidationError(init);
    case 'UNAUTHENTICATED':
      return new UnauthenticatedError(init);
    case 'PERMISSION_DENIED':
      return new PermissionDeniedError(init);
    case 'NOT_FOUND':
      return new NotFoundError(init);
    case 'ABORTED':
      return new ConflictError(init);
    case 'ALREADY_EXISTS':
      return new AlreadyExistsError(init);
    case 'RESOURCE_EXHAUSTED':
      return isQuota(details) ? new QuotaError(init) : new RateLimitedError(init, retryAfterMs);
    case 'UNAVAILABLE':
    case 'DEADLINE_EXCEEDED':
      return new UnavailableError(init, retryAfterMs);
    case undefined:
      break;
    default:
      // A code the table does not single out (INTERNAL, UNIMPLEMENTED, ...): fall through to
      // the HTTP status only for the statuses that are retryable by nature.
      if (![429, 502, 503, 504].includes(res.status)) return new ApiError(init);
  }
  switch (res.status) {
    case 400:
    case 422:
      return new ValidationError(init);
    case 401:
      return new UnauthenticatedError(init);
    case 403:
      return new PermissionDeniedError(init);
    case 404:
      return new NotFoundError(init);
    case 409:
    case 412:
      return new ConflictError(init);
    case 429:
      return new RateLimitedError(init, retryAfterMs);
    case 502:
    case 503:
    case 504:
      return new UnavailableError(init, retryAfterMs);
    default:
      return new ApiError(init);
  }
}

/** A failed gRPC call: its status code, message, trailer and headers. */
export interface FailedGrpcCall {
  /** The method path, `/<package>.<Service>/<Method>`. */
  path: string;
  /** The numeric status code. */
  code: number;
  /** The status message. */
  message: string;
  /** The `grpc-status-details-bin` trailer (a google.rpc.Status), if any. */
  statusDetails?: Uint8Array;
  /** `x-request-id` the server answered, if any. */
  requestId?: string;
  /** The id the client sent. */
  sentRequestId?: string;
  now?: number;
}

/**
 * THE error factory for gRPC: the status becomes the google.rpc.Status body a REST call would
 * have answered (details decoded from the trailer: violations, ErrorInfo, RetryInfo,
 * RequestInfo) with the gateway's HTTP status for the code, and goes through
 * {@link errorFromResponse}, so a gRPC failure is the same typed error, retried (or not) by the
 * same policy. Connection failures and an expired deadline arrive as UNAVAILABLE and
 * DEADLINE_EXCEEDED statuses: {@link UnavailableError}.
 */
export function errorFromGrpcStatus(call: FailedGrpcCall): ApiError {
  const code = GrpcCodeEnum.names[call.code] ?? 'UNKNOWN';
  let body: { code: number; message: string; details: unknown[] } = { code: call.code, message: call.message, details: [] };
  if (call.statusDetails && call.statusDetails.length > 0) {
    try {
      const rich = decodeStatus(call.statusDetails);
      if (rich.code === call.code) body = { code: call.code, message: rich.message || call.message, details: rich.details };
    } catch {
      // an unreadable trailer: code and message still hold
    }
  }
  return errorFromResponse({
    method: 'GRPC',
    path: call.path,
    status: HTTP_STATUS_OF_CODE[code],
    headers: call.requestId ? { 'x-request-id': call.requestId } : {},
    body: JSON.stringify(body),
    sentRequestId: call.sentRequestId,
    now: call.now,
    transport: 'grpc',
  });
}

/**
 * A server that broke the protocol in a way no retry mends (a cursor that repeats, paging that
 * never ends): the server's fault, reported as such (not as a bug in dqform).
 */
export class ServerMisbehaviourError extends DqformError {
  static override readonly code: string = 'server-misbehaviour';
  override name = 'ServerMisbehaviourError';
  override readonly hint: string = "This is a fault of the server (or of a proxy in between), not a bug in dqform; report it to the platform's operators.";
}

/** The platform's host:port of a base URL or origin, for messages. */
function hostOf(origin: string | undefined): string {
  if (!origin) return 'the server';
  try {
    return new URL(origin).host;
  } catch {
    return 'the server';
  }
}

/** Certificate verification codes (Node/OpenSSL) and what each means, for {@link TlsError}. */
const CERT_PROBLEMS: Record<string, string> = {
  ERR_TLS_CERT_ALTNAME_INVALID: 'is not valid for that host name (certificate name mismatch)',
  DEPTH_ZERO_SELF_SIGNED_CERT: 'is self-signed, and no CA this machine trusts vouches for it (unknown CA)',
  SELF_SIGNED_CERT_IN_CHAIN: 'chains to a self-signed CA this machine does not trust (unknown CA)',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'is not signed by a CA this machine trusts (unknown CA)',
  UNABLE_TO_GET_ISSUER_CERT: 'is not signed by a CA this machine trusts (unknown CA)',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'is not signed by a CA this machine trusts (unknown CA)',
  CERT_UNTRUSTED: 'is not trusted by this machine (unknown CA)',
  CERT_HAS_EXPIRED: 'has expired',
  CERT_NOT_YET_VALID: 'is not valid yet (check this machine\'s clock)',
  CERT_REVOKED: 'has been revoked',
  CERT_SIGNATURE_FAILURE: 'has an invalid signature',
};

/** OpenSSL codes of a peer that does not speak TLS at all (most often a plain-http server). */
const NOT_TLS = new Set(['ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG', 'ERR_SSL_HTTP_REQUEST', 'ERR_SSL_UNKNOWN_PROTOCOL', 'ERR_SSL_RECORD_LAYER_FAILURE']);

/**
 * The TLS handshake failed: the server does not speak TLS, or its certificate does not verify.
 * A retry cannot mend either: never retried. The message names the host and what failed, never
 * OpenSSL's own text (`cause` keeps only the error code).
 */
export class TlsError extends ApiError {
  static override readonly code: string = 'api.tls';
  override name = 'TlsError';
  /** The Node/OpenSSL error code, e.g. `ERR_TLS_CERT_ALTNAME_INVALID`. */
  readonly tlsCode: string;
  constructor(init: ApiErrorInit, code: string, summary: string) {
    super({ ...init, cause: { code } }, summary);
    this.tlsCode = code;
  }
  protected override extra() {
    return { code: this.tlsCode };
  }
}

/** The TLS failure a transport error is, if it is one. */
export function tlsProblem(code: string | undefined, origin: string | undefined): string | undefined {
  if (!code) return undefined;
  const host = hostOf(origin);
  if (NOT_TLS.has(code)) {
    return `TLS handshake with ${host} failed: the server did not answer in TLS (${code}). Is DQ_BASE_URL plain http? Use http:// for a server without TLS (this machine only), or check the port`;
  }
  const problem = CERT_PROBLEMS[code];
  if (problem) {
    return `TLS handshake with ${host} failed: its certificate ${problem} (${code}). Check DQ_BASE_URL's host name; for a private CA, point NODE_EXTRA_CA_CERTS at its PEM file`;
  }
  return undefined;
}

/**
 * One request attempt passed its deadline (`DQ_TIMEOUT`): no complete response in time (the
 * server accepted and did not answer, or sent its body too slowly). Not retried: the deadline
 * is the time the user allows one request; a write that timed out may have landed
 * (`mayHaveLanded` is set).
 */
export class RequestTimeoutError extends ApiError {
  static override readonly code: string = 'api.timeout';
  override name = 'RequestTimeoutError';
  constructor(init: ApiErrorInit, readonly timeoutMs: number, origin?: string) {
    super({ ...init, grpcCode: 'DEADLINE_EXCEEDED' }, `no complete response from ${hostOf(origin)} within ${timeoutMs / 1000}s (DQ_TIMEOUT=${timeoutMs / 1000}): the server accepted the request but did not finish answering; raise DQ_TIMEOUT if the platform is known to be this slow`);
    this.mayHaveLanded = true;
  }
  protected override extra() {
    return { timeoutMs: this.timeoutMs };
  }
}

/** A response body larger than the cap (`DQ_MAX_RESPONSE_MB`): the server's fault, never retried. */
export class ResponseTooLargeError extends ApiError {
  static override readonly code: string = 'api.response-too-large';
  override name = 'ResponseTooLargeError';
  constructor(init: ApiErrorInit, readonly maxBytes: number, declared?: number, origin?: string) {
    super(
      init,
      `${hostOf(origin)} sent a response body larger than ${maxBytes / (1024 * 1024)} MiB${declared !== undefined ? ` (it declared ${declared} bytes)` : ''}: no platform response is this large, the server (or a proxy in between) is at fault; reading stopped (DQ_MAX_RESPONSE_MB raises the cap)`,
    );
  }
  protected override extra() {
    return { maxBytes: this.maxBytes };
  }
}

/** Maps a transport failure (reset, refused, closed, timeout) to an {@link UnavailableError}; a TLS failure to a {@link TlsError}. */
export function errorFromTransport(req: { method: string; path: string; sentRequestId?: string; origin?: string; midBody?: boolean }, cause: unknown): ApiError {
  if (cause instanceof ApiError) return cause;
  const code = (cause as { code?: string } | undefined)?.code;
  const tls = tlsProblem(code, req.origin);
  if (tls) return new TlsError({ method: req.method, path: req.path, status: 0, requestId: req.sentRequestId }, code!, tls);
  const msg = cause instanceof Error ? cause.message : String(cause);
  return new UnavailableError({
    method: req.method,
    path: req.path,
    status: 0,
    grpcCode: 'UNAVAILABLE',
    requestId: req.sentRequestId,
    serverMessage: req.midBody
      ? `connection failed in the middle of the response body${code ? ` (${code})` : ''}: ${hostOf(req.origin)} sent a truncated response (${msg})`
      : `connection failed${code ? ` (${code})` : ''}: ${msg}`,
    cause,
  });
}

/** Parses `Retry-After`: delta seconds or an HTTP date; undefined when absent or unparsable. */
export function parseRetryAfter(value: string | undefined, now: number = Date.now()): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  const t = Date.parse(v);
  if (Number.isNaN(t)) return undefined;
  return Math.max(0, t - now);
}

/** RetryInfo `retryDelay` (protojson Duration, e.g. `"1.5s"`) in ms. */
export function retryInfoDelay(details: StatusDetail[]): number | undefined {
  const d = details.find((x) => x['@type'] === RETRY_INFO_TYPE)?.retryDelay;
  if (d === undefined) return undefined;
  const m = /^(\d+(?:\.\d+)?)s$/.exec(String(d).trim());
  return m ? Math.round(Number(m[1]) * 1000) : undefined;
}

function parseStatusBody(body: string): Status | undefined {
  if (!body) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    return undefined;
  }
  // Some gateways wrap the status: `{ "error": { code, message, details } }`.
  if (json && typeof json === 'object' && 'error' in json && typeof (json as { error: unknown }).error === 'object') {
    json = (json as { error: unknown }).error;
  }
  const parsed = Status.safeParse(json);
  if (parsed.success) return parsed.data;
  // Keep the message if the details are malformed.
  const loose = z.object({ code: z.number().int(), message: z.string().default('') }).safeParse(json);
  return loose.success ? { ...loose.data, details: [] } : undefined;
}

function plainMessage(body: string): string {
  const t = body.trim();
  if (!t) return '';
  try {
    const j = JSON.parse(t) as Record<string, unknown>;
    // OAuth2 error bodies: { error, error_description }
    if (typeof j.error === 'string') return [j.error, typeof j.error_description === 'string' ? j.error_description : ''].filter(Boolean).join(': ');
    if (typeof j.message === 'string') return j.message;
  } catch {
    /* not JSON */
  }
  return t.length > 300 ? `${t.slice(0, 300)}…` : t;
}

function errorInfo(details: StatusDetail[]): StatusDetail | undefined {
  return details.find((d) => d['@type'] === ERROR_INFO_TYPE);
}

function isQuota(details: StatusDetail[]): boolean {
  if (details.some((d) => d['@type'] === QUOTA_FAILURE_TYPE)) return true;
  const info = errorInfo(details);
  if (!info) return false;
  if (info.reason && /QUOTA/i.test(info.reason)) return true;
  return Object.keys(info.metadata ?? {}).some((k) => /^quota/i.test(k));
}

/**
 * Field violations of every `buf.validate.Violations` detail (and of details of an unnamed type
 * that carry violations), normalised by {@link Violation}: `field` as a string whether the server
 * sent a string or a structured path, rule ids kept. QuotaFailure and BadRequest details are
 * not field violations of this kind (BadRequest's `fieldViolations` are read separately).
 */
function collectViolations(details: StatusDetail[]): Violation[] {
  const out: Violation[] = [];
  for (const d of details) {
    if (d['@type'] === QUOTA_FAILURE_TYPE) continue;
    if (d['@type'] === VIOLATIONS_TYPE || (d['@type'] !== BAD_REQUEST_TYPE && Array.isArray(d.violations))) {
      for (const raw of d.violations ?? []) {
        const v = Violation.safeParse(raw);
        if (v.success) out.push(v.data);
      }
    }
    const fieldViolations = (d as Record<string, unknown>).fieldViolations;
    if (d['@type'] === BAD_REQUEST_TYPE && Array.isArray(fieldViolations)) {
      for (const f of fieldViolations as Record<string, unknown>[]) {
        out.push({ field: typeof f.field === 'string' ? f.field : undefined, message: typeof f.description === 'string' ? f.description : undefined, ruleId: typeof f.reason === 'string' ? f.reason : undefined });
      }
    }
  }
  return out;
}

function findScope(init: ApiErrorInit): string | undefined {
  const info = errorInfo(init.details ?? []);
  const md = info?.metadata ?? {};
  for (const k of ['scope', 'requiredScope', 'required_scope', 'missingScope', 'missing_scope']) if (md[k]) return md[k];
  const m = /\bSCOPE_[A-Z_]+\b/.exec(init.serverMessage ?? '');
  return m?.[0];
}

function sortKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).sort()) {
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined) out[k] = sortKeys(x);
  }
  return out;
}

/**
 * A deploy/delete overview that cannot be asked over REST: the gateway's GET carries a rule only
 * as dotted scalar query parameters, and this rule holds a repeated message (a monitor rule's
 * `metricOptions`, a SQL-test rule's `tests[]`, a structured query with no ResolverQL rendering)
 * or an empty message marker. Thrown BEFORE anything is sent; the plan shows "effects unknown".
 * With `DQ_PREVIEW_TRANSPORT=auto` the client then asks over gRPC; if that fails too, the error is
 * again a PreviewUnavailableError, naming both, with the gRPC failure as its `cause`
 * (src/client/services/previews.ts).
 */
export class PreviewUnavailableError extends DqformError {
  static override readonly code: string = 'preview-unavailable';
  override name = 'PreviewUnavailableError';
  constructor(
    /** The operation's path (no query). */
    readonly path: string,
    /** The field that has no query form, e.g. `deploymentRule.queryConfig.metricOptions`. */
    readonly field: string,
    /** Why it has none. */
    readonly reason: string,
  ) {
    super(`cannot be previewed over REST: ${field} ${reason}`);
  }
  toJSON(): Record<string, unknown> {
    return { name: this.name, message: this.message, path: this.path, field: this.field, reason: this.reason };
  }
}
