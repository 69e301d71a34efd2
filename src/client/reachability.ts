/**
 * Fail fast when the platform is gone. Retrying each call on its own (5 attempts, backoff up to
 * a minute) is right for a blip, but when the server is down every call of an apply retries and
 * fails on its own: the issue saw 56 s and 215 identical ECONNREFUSED lines.
 *
 * The client counts consecutive failures to connect (refused, unknown host, unreachable, connect
 * timeout: not a dropped response, which a retry may well recover). After {@link
 * ReachabilityOptions.failures} in a row spanning at least {@link ReachabilityOptions.afterMs}
 * (a server restarting within that time is ridden out by the retries), the platform counts as
 * gone for the rest of the client's life: every call, and every pending retry, fails at once
 * with {@link PlatformUnreachableError}, which is not retried. Any answer resets the count.
 */
import { ApiError, type ApiErrorInit } from './errors';
import { redact } from './redact';

/** The connect-phase error codes: nothing reached the server. */
const CONNECT_FAILURES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'UND_ERR_CONNECT_TIMEOUT', 'ECONNABORTED']);

/** The error code of a transport failure (`cause.code`), if any. */
function codeOf(e: ApiError): string | undefined {
  const cause = (e as { cause?: { code?: unknown } }).cause;
  return typeof cause?.code === 'string' ? cause.code : undefined;
}

/** Whether an error is a failure to connect (see the module comment). */
export function isConnectFailure(e: unknown): boolean {
  return e instanceof ApiError && e.status === 0 && CONNECT_FAILURES.has(codeOf(e) ?? '');
}

/** The platform stopped answering: no call is made any more (see the module comment). Not retried. */
export class PlatformUnreachableError extends ApiError {
  static override readonly code: string = 'api.unreachable';
  override name = 'PlatformUnreachableError';
  constructor(
    init: ApiErrorInit,
    /** One line for a user: where, what, for how long. */
    readonly summary: string,
  ) {
    super(init, summary);
    // one line for a user: not "GET /path failed: ...", the call that met it does not matter
    this.message = redact(summary);
  }
}

export interface ReachabilityOptions {
  /** Consecutive connect failures before the platform counts as gone (default 3). */
  failures: number;
  /** ... and for at least this long (default 2000 ms). */
  afterMs: number;
  now: () => number;
}

/** The connect-failure counter of one client. */
export class Reachability {
  private streak = 0;
  private since: number | undefined;
  private last: ApiError | undefined;
  private gone: string | undefined;
  /** Whether a retry of this streak was already noted (one note per outage, not one per call). */
  announced = false;

  constructor(
    private readonly where: string,
    private readonly opts: ReachabilityOptions,
  ) {}

  /** Throws {@link PlatformUnreachableError} once the platform counts as gone. */
  check(method: string, path: string): void {
    if (this.gone) throw new PlatformUnreachableError({ method, path, status: 0, grpcCode: 'UNAVAILABLE' }, this.gone);
  }

  /** An answer (any status): the platform is there. */
  success(): void {
    this.streak = 0;
    this.since = undefined;
    this.announced = false;
  }

  /**
   * A transport failure: counted when it is a connect failure. Returns the error to throw: the
   * given one, or a {@link PlatformUnreachableError} when this failure makes the platform gone.
   */
  failure(e: ApiError, method: string, path: string): ApiError {
    if (this.gone) return new PlatformUnreachableError({ method, path, status: 0, grpcCode: 'UNAVAILABLE', cause: e }, this.gone);
    if (!isConnectFailure(e)) return e;
    this.streak++;
    this.since ??= this.opts.now();
    this.last = e;
    const spanMs = this.opts.now() - this.since;
    if (this.streak < this.opts.failures || spanMs < this.opts.afterMs) return e;
    const cause = (this.last as { cause?: { message?: unknown } }).cause;
    this.gone = `the platform at ${this.where} is not answering: ${this.streak} connection attempts in a row failed over ${(spanMs / 1000).toFixed(1)}s (${codeOf(e)}${typeof cause?.message === 'string' ? `: ${cause.message}` : ''})`;
    return new PlatformUnreachableError({ method, path, status: 0, grpcCode: 'UNAVAILABLE', cause: e }, this.gone);
  }
}
