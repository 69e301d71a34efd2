/**
 * {@link DqClient}: the HTTP core every service module calls through.
 *
 * - one undici keep-alive {@link Pool} with a bounded number of connections, plus a
 *   {@link Limiter} bounding requests in flight, so `Promise.all` over 10,000 calls opens at
 *   most `connections` sockets and holds at most `maxConcurrency` requests at once;
 * - JSON in and out, `Authorization: Bearer` from the {@link TokenProvider}, an
 *   `x-request-id` per logical call (kept across retries);
 * - bodies validated with zod before sending ({@link RequestShapeError}) and sent in the wire
 *   form (schemas/platform/wire.ts `toWire`: enums as numbers); responses cleaned (`null` and zero values
 *   of optional fields read as absent, enum numbers as names: `decodeRead`) and parsed with zod
 *   (unknown fields tolerated; a wrong type is a {@link ResponseShapeError} naming method, path
 *   and the issue path; list and batch items are tolerant, see schemas/platform/wire.ts `tolerant`);
 * - retries per {@link RetryPolicy}; one token refetch on a 401;
 * - every log line and error passes through the redaction module.
 */
import { randomUUID } from 'node:crypto';
import type { Dispatcher, Pool } from 'undici';
import { z } from 'zod';
import { TokenResponse } from '../../schemas/platform/common';
import { decodeRead, toWire } from '../../schemas/platform/wire';
import { TOKEN_PATH, TokenProvider, tokenRequestBody } from './auth';
import { ClientConfig, DEFAULT_MAX_RESPONSE_BYTES, DEFAULT_TIMEOUT_MS, type GrpcConfig, isLoopbackHost, type PreviewTransport, type ProxyConfig } from './config';
import { GrpcTransport } from './grpc';
import { ApiError, type ApiErrorInit, errorFromResponse, errorFromTransport, RequestShapeError, RequestTimeoutError, ResponseShapeError, ResponseTooLargeError, UnauthenticatedError, zodIssues } from './errors';
import { Limiter } from './limiter';
import { isConnectFailure, Reachability } from './reachability';
import { redact, registerSecret } from './redact';
import { RetryPolicy, retryPolicy, withRetry } from './retry';

type ParseHeaders = (raw: readonly Buffer[]) => Record<string, string | string[] | undefined>;

/**
 * undici's Pool and its header parser, loaded without undici's index: the index also loads fetch,
 * WebSocket, cookies, mocks and caches (~75 ms of module loading against ~22 ms for these files
 * on the 2-core bench box; perf only). They are the very objects the index exports
 * (`require('undici').Pool === require('undici/lib/dispatcher/pool')`, `util.parseHeaders`); if
 * undici's layout ever differs, the index is used.
 */
function loadUndici(): { PoolImpl: typeof Pool; parseHeaders: ParseHeaders } {
  try {
    const PoolImpl = require('undici/lib/dispatcher/pool') as typeof Pool;
    const parseHeaders = (require('undici/lib/core/util') as { parseHeaders?: ParseHeaders }).parseHeaders;
    if (typeof PoolImpl === 'function' && typeof parseHeaders === 'function') return { PoolImpl, parseHeaders };
  } catch {
    // fall through to the public entry point
  }
  const u = require('undici') as typeof import('undici');
  return { PoolImpl: u.Pool, parseHeaders: u.util.parseHeaders as unknown as ParseHeaders };
}
const { PoolImpl, parseHeaders } = loadUndici();

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One traced HTTP exchange, transport failure or retry (`DQFORM_LOG=debug`, retry notes). It
 * never carries headers or bodies; `path` has passed through the redaction module.
 */
export interface HttpTrace {
  event: 'response' | 'transport-error' | 'retry';
  method: string;
  /** Path and query under the base URL. */
  path: string;
  /** The `x-request-id` sent (kept across retries of one call). */
  requestId: string;
  /** 1-based attempt of the call. */
  attempt: number;
  /** response: the HTTP status; retry: the status that caused it (0 for a transport error). */
  status?: number;
  /** response and transport-error: milliseconds from sending to the response. */
  ms?: number;
  /** retry: the wait before the next attempt, and the attempts allowed. */
  delayMs?: number;
  maxAttempts?: number;
  /** transport-error and retry: what went wrong (redacted). */
  error?: string;
}

/**
 * undici's EnvHttpProxyAgent (HTTP_PROXY, HTTPS_PROXY, NO_PROXY), loaded only when a proxy is
 * configured. Through undici's index: the proxy agent tunnels with `Dispatcher#connect`, which
 * the index attaches to the dispatchers' prototype.
 */
function loadProxyAgent(): typeof import('undici').EnvHttpProxyAgent {
  return (require('undici') as typeof import('undici')).EnvHttpProxyAgent;
}

/** A query parameter value; nested objects flatten to dotted keys, arrays repeat the key. */
export type QueryValue = string | number | boolean | null | undefined | readonly QueryValue[] | { readonly [k: string]: QueryValue };

/** One API call. */
export interface CallOptions<Res extends z.ZodType> {
  method: HttpMethod;
  /** Path under the base URL, starting with `/`; callers encode path segments ({@link seg}). */
  path: string;
  /**
   * Query parameters (sorted when encoded; see {@link encodeQuery}), or ready `[name, value]`
   * pairs (schemas/platform/wire.ts `toQuery`, sent in their order).
   */
  query?: Record<string, QueryValue> | readonly (readonly [string, string])[];
  /** JSON body. Allowed on DELETE (alerts v2 Delete has one); other DELETEs use `query`. */
  body?: unknown;
  /** Validates (and canonicalises) `body` before anything is sent; the body goes in its wire form (enums as numbers). */
  requestSchema?: z.ZodType;
  /** Parses the 2xx response body (an empty body parses as `{}`). */
  responseSchema: Res;
  /**
   * May the call be repeated safely? GET, PUT, DELETE, batch reads, upserts and deploys: yes.
   * A create that mints an id (integrations Create): no, and it is never retried.
   */
  idempotent: boolean;
}

/** Construction options of {@link DqClient}. */
export interface DqClientOptions extends ClientConfig {
  /**
   * Sockets in the keep-alive pool (default 32, as many as requests in flight: a plan lists
   * ownerships with one call per owner, 1,250 at 10,000 objects, and at 10 ms per round trip 8
   * sockets made that ~1.6 s of waiting, 32 make it ~0.4 s).
   */
  connections?: number;
  /** Requests in flight at once, across all callers (default 32). */
  maxConcurrency?: number;
  /** Retry tunables; `scale` shortens every delay (tests). */
  retry?: Partial<RetryPolicy>;
  /** Receives one redacted line per request, response, retry and token fetch. */
  onLog?: (line: string) => void;
  /** Receives every response, transport failure and retry as a structured, redacted event. */
  onTrace?: (t: HttpTrace) => void;
  /**
   * The events `onTrace` wants (default: all). An event it does not want is never made: a
   * `response` event is one per request, its path (with the query) redacted (issue 27: ~4 ms of
   * a 10,000-object plan whose CLI prints responses only with DQFORM_LOG=debug).
   */
  traceEvents?: readonly HttpTrace['event'][];
  /**
   * Proxies (see config.ts `resolveProxy`): requests go through undici's EnvHttpProxyAgent,
   * which tunnels to the base URL through the proxy unless `noProxy` matches its host. Used only
   * for an https base URL whose host is not loopback ({@link proxyUsed}): the client secret never
   * crosses a proxy in cleartext.
   */
  proxy?: ProxyConfig;
  /** Refresh the token this long before it expires (default 60 s). */
  tokenMarginMs?: number;
  /** Clock (ms) for token expiry and Retry-After dates. */
  now?: () => number;
  /**
   * The deadline of one request attempt: connect, headers and the whole body (`DQ_TIMEOUT`;
   * default 15 s). Past it the attempt fails with {@link RequestTimeoutError}, not retried.
   */
  timeoutMs?: number;
  /** The largest response body read (`DQ_MAX_RESPONSE_MB`; default 64 MiB): past it, {@link ResponseTooLargeError}. */
  maxResponseBytes?: number;
  /** undici's own idle timeouts (default: 5 s past the deadline); the deadline bounds the whole attempt anyway. */
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  /** Fail fast when the platform is gone (src/client/reachability.ts); default 3 failures over 2 s. */
  unreachableAfter?: { failures?: number; afterMs?: number };
  /** `User-Agent` header (default `dqform`). */
  userAgent?: string;
  /** The gRPC preview settings ({@link GrpcConfig}; `PlatformClient.fromEnv` reads them from `DQ_GRPC_*`). */
  grpc?: GrpcConfig;
}

interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** The typed HTTP client core. Create one per process and {@link close} it when done. */
export class DqClient {
  readonly baseUrl: string;
  readonly tokens: TokenProvider;
  readonly limiter: Limiter;
  /** Connect failures in a row: the platform counts as gone after a few (fail fast). */
  readonly reach: Reachability;
  private readonly pool: Pool | Dispatcher;
  private readonly origin: string;
  private readonly onTrace: ((t: HttpTrace) => void) | undefined;
  private readonly traced: ReadonlySet<HttpTrace['event']>;
  private readonly prefix: string;
  private readonly policy: RetryPolicy;
  private readonly onLog: ((line: string) => void) | undefined;
  private readonly now: () => number;
  private readonly opts: DqClientOptions;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private grpcTransport: GrpcTransport | undefined;
  /** Requests sent and not yet answered or failed (see {@link close}). */
  private inFlight = 0;

  constructor(opts: DqClientOptions) {
    this.opts = opts;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = opts.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    registerSecret(opts.clientSecret);
    const url = new URL(opts.baseUrl);
    this.baseUrl = opts.baseUrl.replace(/\/+$/, '');
    this.prefix = url.pathname.replace(/\/+$/, '');
    this.origin = url.origin;
    const poolOptions = {
      connections: opts.connections ?? 32,
      pipelining: 1,
      keepAliveTimeout: 10_000,
      // a safety net behind the deadline, never before it
      headersTimeout: opts.headersTimeoutMs ?? this.timeoutMs + 5_000,
      bodyTimeout: opts.bodyTimeoutMs ?? this.timeoutMs + 5_000,
    };
    if (opts.proxy) for (const u of [opts.proxy.httpProxy, opts.proxy.httpsProxy]) if (u) registerSecret(proxyPassword(u));
    const proxy = proxyUsed(opts.baseUrl, opts.proxy);
    if (proxy) {
      // Explicit values ('' for none) so that undici does not read process.env behind our back;
      // never an http proxy: plain http is never proxied.
      const EnvHttpProxyAgent = loadProxyAgent();
      this.pool = new EnvHttpProxyAgent({ ...poolOptions, httpProxy: '', httpsProxy: proxy, noProxy: opts.proxy?.noProxy ?? '' });
    } else this.pool = new PoolImpl(url.origin, poolOptions);
    this.onTrace = opts.onTrace;
    this.traced = new Set(opts.traceEvents ?? ['response', 'transport-error', 'retry']);
    this.limiter = new Limiter(opts.maxConcurrency ?? 32);
    this.now = opts.now ?? Date.now;
    this.policy = retryPolicy({ now: this.now, ...opts.retry });
    this.onLog = opts.onLog;
    this.reach = new Reachability(url.origin, { failures: opts.unreachableAfter?.failures ?? 3, afterMs: opts.unreachableAfter?.afterMs ?? 2000, now: this.now });
    this.tokens = new TokenProvider(() => this.fetchToken(), { marginMs: opts.tokenMarginMs, now: this.now });
  }

  /** Writes a redacted log line to `onLog`. */
  log(line: string): void {
    if (this.onLog) this.onLog(redact(line));
  }

  /** Whether {@link log} writes anywhere (a line nobody reads need not be made). */
  get logs(): boolean {
    return this.onLog !== undefined;
  }

  /**
   * Performs one API call: validates the body, sends it with a bearer token, retries
   * retryable failures of idempotent calls, refetches the token once on a 401, maps failures
   * through the error factory and parses the response.
   *
   * @throws ApiError subclasses (never with a credential in message or JSON).
   */
  async call<Res extends z.ZodType>(o: CallOptions<Res>): Promise<z.output<Res>> {
    const pathWithQuery = o.query ? `${o.path}${encodeQuery(o.query)}` : o.path;
    const requestId = randomUUID();
    let bodyText: string | undefined;
    if (o.body !== undefined) {
      let body: unknown = o.body;
      if (o.requestSchema) {
        const parsed = o.requestSchema.safeParse(body);
        if (!parsed.success) {
          throw new RequestShapeError({ method: o.method, path: pathWithQuery, status: 0, requestId }, zodIssues(parsed.error));
        }
        body = toWire(o.requestSchema, parsed.data);
      }
      bodyText = JSON.stringify(body);
    }
    const raw = await withRetry(
      this.policy,
      o.idempotent,
      async (attempt): Promise<RawResponse> => {
        let refetched = false;
        for (;;) {
          // the cached token without a wait (every call but the first few)
          const token = this.tokens.current() ?? (await this.tokens.getToken());
          const res = await this.send(o.method, pathWithQuery, requestId, attempt, bodyText, `Bearer ${token}`, bodyText !== undefined ? 'application/json' : undefined);
          if (res.status === 401 && !refetched) {
            refetched = true;
            this.tokens.invalidate(token);
            this.log(`${o.method} ${pathWithQuery}: 401, refetching the access token once`);
            continue;
          }
          if (res.status < 200 || res.status >= 300) {
            throw errorFromResponse({ method: o.method, path: pathWithQuery, status: res.status, headers: res.headers, body: res.body, sentRequestId: requestId, now: this.now() });
          }
          return res;
        }
      },
      (e) => {
        this.log(`retry ${o.method} ${pathWithQuery} in ${e.delayMs}ms after ${e.error.status || e.error.grpcCode} (attempt ${e.attempt + 1}/${this.policy.maxAttempts})`);
        if (!this.announceRetry(e.error)) return;
        this.trace({ event: 'retry', method: o.method, path: pathWithQuery, requestId, attempt: e.attempt, status: e.error.status, delayMs: e.delayMs, maxAttempts: this.policy.maxAttempts, error: e.error.message });
      },
    );
    return this.parse(o.method, pathWithQuery, requestId, raw, o.responseSchema);
  }

  /** Hands a redacted trace event to `onTrace` (if it wants the event). */
  private trace(t: HttpTrace): void {
    if (this.onTrace && this.traced.has(t.event)) this.onTrace({ ...t, path: redact(t.path), ...(t.error !== undefined ? { error: redact(t.error) } : {}) });
  }

  /** Which transport the overview methods use for previews (`auto` unless configured). */
  get previewTransport(): PreviewTransport {
    return this.opts.grpc?.previewTransport ?? 'auto';
  }

  /** Why gRPC previews are not tried at all, when they are not ({@link GrpcConfig.unavailable}). */
  get grpcUnavailable(): string | undefined {
    return this.opts.grpc?.unavailable;
  }

  /**
   * The gRPC transport of the preview calls, created on first use (grpc-js itself loads on the
   * first call). It shares this client's token cache, retry policy and request limiter.
   * @throws ConfigError for an unusable endpoint.
   */
  get grpc(): GrpcTransport {
    this.grpcTransport ??= new GrpcTransport(
      { baseUrl: this.baseUrl, tokens: this.tokens, limiter: this.limiter, policy: this.policy, log: (l) => this.log(l), now: this.now, userAgent: this.opts.userAgent ?? 'dqform' },
      this.opts.grpc,
    );
    return this.grpcTransport;
  }

  /** Whether to note a retry: while the platform does not accept connections, once per outage, not once per call. */
  private announceRetry(e: ApiError): boolean {
    if (!isConnectFailure(e)) return true;
    if (this.reach.announced) return false;
    this.reach.announced = true;
    return true;
  }

  /**
   * Closes the connection pool (pending requests finish first) and the gRPC channel. With no
   * request of this client in flight, the pool is destroyed instead: what it may still hold are
   * requests whose deadline passed before they got a connection (queued, connecting), already
   * failed to their callers; closing would wait for their connect (undici's 10 s connect timeout).
   */
  async close(): Promise<void> {
    this.grpcTransport?.close();
    if (this.inFlight === 0) await this.pool.destroy();
    else await this.pool.close();
  }

  private parse<Res extends z.ZodType>(method: string, path: string, requestId: string, raw: RawResponse, schema: Res): z.output<Res> {
    const init = { method, path, status: raw.status, requestId: headerValue(raw.headers, 'x-request-id') ?? requestId };
    let json: unknown = {};
    if (raw.body.trim() !== '') {
      try {
        json = JSON.parse(raw.body);
      } catch (cause) {
        throw new ResponseShapeError({ ...init, cause }, [{ path: '', message: 'response body is not JSON (truncated or not JSON: the server is at fault)' }]);
      }
    }
    return this.parseValue(init, json, schema);
  }

  /**
   * Parses a response value (REST JSON, or a gRPC response decoded to protojson) with its
   * schema: the one read path of both transports. @throws ResponseShapeError.
   */
  parseValue<Res extends z.ZodType>(init: Pick<ApiErrorInit, 'method' | 'path' | 'status' | 'requestId' | 'transport'>, json: unknown, schema: Res): z.output<Res> {
    const parsed = decodeRead(schema, json);
    if (!parsed.success) throw new ResponseShapeError(init, zodIssues(parsed.error));
    return parsed.data;
  }

  private async send(
    method: HttpMethod,
    pathWithQuery: string,
    requestId: string,
    attempt: number,
    body: string | undefined,
    authorization: string | undefined,
    contentType: string | undefined,
  ): Promise<RawResponse> {
    return this.limiter.run(async () => {
      this.reach.check(method, pathWithQuery);
      const started = this.now();
      if (this.onLog) this.log(`-> ${method} ${pathWithQuery} (request id ${requestId}, attempt ${attempt})`);
      let res: RawResponse;
      // One deadline for the whole attempt: connect, headers and every byte of the body (undici's
      // own timeouts are idle timeouts: a byte every 20 s would never trip them).
      const deadline = new Deadline();
      const timer = setTimeout(expire, this.timeoutMs, deadline);
      const exchange: Exchange = { midBody: false };
      // one object, in the order they were always sent (no spread of the per-call ones)
      const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.opts.userAgent ?? 'dqform', 'x-request-id': requestId };
      if (authorization !== undefined) headers.authorization = authorization;
      if (contentType !== undefined) headers['content-type'] = contentType;
      this.inFlight++;
      try {
        res = await exchangeOnce(this.pool, { origin: this.origin, method, path: this.prefix + pathWithQuery, headers, body }, deadline, exchange, this.maxResponseBytes, { method, path: pathWithQuery, requestId }, this.origin);
      } catch (caught) {
        const init = { method, path: pathWithQuery, status: 0, requestId };
        const cause = deadline.aborted && !(caught instanceof ApiError) ? new RequestTimeoutError(init, this.timeoutMs, this.origin) : caught;
        const err = errorFromTransport({ method, path: pathWithQuery, sentRequestId: requestId, origin: this.origin, midBody: exchange.midBody }, cause);
        this.log(`<- ${method} ${pathWithQuery}: ${err.message}`);
        this.trace({ event: 'transport-error', method, path: pathWithQuery, requestId, attempt, ms: this.now() - started, error: err.message });
        throw this.reach.failure(err, method, pathWithQuery);
      } finally {
        this.inFlight--;
        clearTimeout(timer);
      }
      this.reach.success();
      if (this.onLog) this.log(`<- ${res.status} ${method} ${pathWithQuery} (${this.now() - started}ms)`);
      if (this.onTrace && this.traced.has('response')) this.trace({ event: 'response', method, path: pathWithQuery, requestId, attempt, status: res.status, ms: this.now() - started });
      return res;
    });
  }

  private async fetchToken(): Promise<TokenResponse> {
    const requestId = randomUUID();
    const raw = await withRetry(
      this.policy,
      true,
      async (attempt) => {
        const res = await this.send('POST', TOKEN_PATH, requestId, attempt, tokenRequestBody(this.opts.clientId, this.opts.clientSecret), undefined, 'application/x-www-form-urlencoded');
        if (res.status < 200 || res.status >= 300) {
          const err = errorFromResponse({ method: 'POST', path: TOKEN_PATH, status: res.status, headers: res.headers, body: res.body, sentRequestId: requestId, now: this.now() });
          if (res.status === 400 || res.status === 401 || res.status === 403) {
            throw new UnauthenticatedError(
              {
                method: 'POST',
                path: TOKEN_PATH,
                status: res.status,
                grpcCode: err.grpcCode,
                requestId: err.requestId,
                serverMessage: `the token endpoint refused the client credentials (check DQ_CLIENT_ID and DQ_CLIENT_SECRET)${err.serverMessage ? `: ${err.serverMessage}` : ''}`,
                details: err.details,
              },
            );
          }
          throw err;
        }
        return res;
      },
      (e) => {
        this.log(`retry POST ${TOKEN_PATH} in ${e.delayMs}ms after ${e.error.status || e.error.grpcCode}`);
        if (!this.announceRetry(e.error)) return;
        this.trace({ event: 'retry', method: 'POST', path: TOKEN_PATH, requestId, attempt: e.attempt, status: e.error.status, delayMs: e.delayMs, maxAttempts: this.policy.maxAttempts, error: e.error.message });
      },
    );
    let json: unknown;
    try {
      json = JSON.parse(raw.body);
    } catch (cause) {
      throw new ResponseShapeError({ method: 'POST', path: TOKEN_PATH, status: raw.status, requestId, cause }, [{ path: '', message: 'token response is not JSON' }]);
    }
    // Register before validating so that a malformed response never leaks the token in an issue.
    if (json && typeof json === 'object' && typeof (json as { access_token?: unknown }).access_token === 'string') {
      registerSecret((json as { access_token: string }).access_token);
    }
    const parsed = TokenResponse.safeParse(json);
    if (!parsed.success) throw new ResponseShapeError({ method: 'POST', path: TOKEN_PATH, status: raw.status, requestId }, zodIssues(parsed.error));
    this.log(`obtained an access token (expires in ${parsed.data.expires_in}s)`);
    return parsed.data;
  }
}

/** Encodes one path segment. */
export function seg(value: string): string {
  return encodeURIComponent(value);
}

/**
 * Encodes query parameters as `?a=1&b=x&b=y`: keys sorted, nested objects flattened to dotted
 * keys (`pagination.cursor`), arrays repeated (`ids=a&ids=b`), objects inside arrays
 * JSON-encoded, `undefined`/`null` skipped. Returns `''` when nothing remains.
 */
export function encodeQuery(query: Record<string, QueryValue> | readonly (readonly [string, string])[]): string {
  if (Array.isArray(query)) {
    const given = query as readonly (readonly [string, string])[];
    return given.length === 0 ? '' : `?${given.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
  }
  const pairs: [string, string][] = [];
  const walk = (key: string, v: QueryValue): void => {
    if (v === undefined || v === null) return;
    if (Array.isArray(v)) {
      for (const x of v as readonly QueryValue[]) {
        if (x === undefined || x === null) continue;
        pairs.push([key, typeof x === 'object' ? JSON.stringify(x) : String(x)]);
      }
      return;
    }
    if (typeof v === 'object') {
      for (const k of Object.keys(v).sort()) walk(key ? `${key}.${k}` : k, (v as Record<string, QueryValue>)[k]);
      return;
    }
    pairs.push([key, String(v)]);
  };
  walk('', query as unknown as QueryValue);
  if (pairs.length === 0) return '';
  return `?${pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&')}`;
}

/** The reason a request's deadline aborts it (mapped to {@link RequestTimeoutError}). */
class DeadlinePassed extends Error {
  override name = 'DeadlinePassed';
}

/**
 * The deadline of one request attempt, which aborts its exchange ({@link exchangeOnce}; it was
 * undici's `signal`, which takes an AbortSignal or an EventEmitter: `on`/`once`/`removeListener`
 * of `'abort'`, `aborted`, `reason`): this is the smallest such emitter. Not an AbortController: its signal is an
 * EventTarget, and creating it, adding undici's listener and removing it again cost more than
 * anything else the client does per request above raw undici (issue 27; perf only).
 */
class Deadline {
  aborted = false;
  reason: unknown = undefined;
  private listeners: (() => void)[] | undefined;

  on(event: string, fn: () => void): this {
    if (event === 'abort') (this.listeners ??= []).push(fn);
    return this;
  }

  once(event: string, fn: () => void): this {
    return this.on(event, fn);
  }

  addListener(event: string, fn: () => void): this {
    return this.on(event, fn);
  }

  removeListener(event: string, fn: () => void): this {
    const i = event === 'abort' && this.listeners ? this.listeners.indexOf(fn) : -1;
    if (i >= 0) this.listeners?.splice(i, 1);
    return this;
  }

  off(event: string, fn: () => void): this {
    return this.removeListener(event, fn);
  }

  /** Aborts once: every listener is called once, then dropped. */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    const ls = this.listeners ?? [];
    this.listeners = undefined;
    for (const l of ls) l();
  }
}

/** What one attempt's exchange got to: past the response's headers (a failure then is mid-body). */
interface Exchange {
  midBody: boolean;
}

/**
 * One request through the pool's `dispatch`, its answer gathered by a handler: the status, the
 * headers (undici's `parseHeaders`, as its `request` gives them) and the body as text, at most
 * `max` bytes (a larger declared length is refused at the headers, a longer body when it grows
 * past `max`: never buffered whole). undici's `request` made an async resource, a response
 * stream and its listeners per response (issue 27: ~30-50 ms CPU over a 10,000-object plan's
 * 1,136 reads; perf only). The deadline aborts the exchange as undici's `signal` did; a body cut
 * short is undici's error (`onError`), as its stream reported it.
 */
function exchangeOnce(
  pool: Dispatcher,
  opts: Dispatcher.DispatchOptions,
  deadline: Deadline,
  at: Exchange,
  max: number,
  init: Omit<ApiErrorInit, 'status'>,
  origin: string,
): Promise<RawResponse> {
  return new Promise<RawResponse>((resolve, reject) => {
    let done = false;
    let abort: ((err: Error) => void) | undefined;
    let status = 0;
    let headers: Record<string, string | string[] | undefined> = {};
    const chunks: Buffer[] = [];
    let size = 0;
    const fail = (e: unknown): void => {
      if (done) return;
      done = true;
      reject(e);
    };
    /** Refuses the answer and stops the exchange (undici then reports the abort to onError: ignored). */
    const refuse = (e: Error): void => {
      fail(e);
      abort?.(e);
    };
    const onDeadline = (): void => {
      const reason = deadline.reason instanceof Error ? deadline.reason : new DeadlinePassed();
      if (abort) abort(reason);
      else fail(reason);
    };
    deadline.on('abort', onDeadline);
    const handler: Dispatcher.DispatchHandler = {
      onConnect(a: (err?: Error) => void) {
        abort = a;
        if (deadline.aborted) onDeadline();
      },
      onHeaders(statusCode: number, rawHeaders: Buffer[]) {
        if (statusCode < 200) return true;
        status = statusCode;
        headers = parseHeaders(rawHeaders);
        at.midBody = true;
        const declared = Number(headerValue(headers, 'content-length'));
        if (Number.isFinite(declared) && declared > max) {
          refuse(new ResponseTooLargeError({ ...init, status }, max, declared, origin));
          return false;
        }
        return true;
      },
      onData(chunk: Buffer) {
        if (done) return false;
        size += chunk.length;
        if (size > max) {
          refuse(new ResponseTooLargeError({ ...init, status }, max, undefined, origin));
          return false;
        }
        chunks.push(chunk);
        return true;
      },
      onComplete() {
        deadline.removeListener('abort', onDeadline);
        if (done) return;
        done = true;
        // one chunk (most answers): decoded as it is, not copied into a new buffer first
        resolve({ status, headers, body: chunks.length === 1 ? chunks[0].toString('utf8') : Buffer.concat(chunks, size).toString('utf8') });
      },
      onError(err: Error) {
        deadline.removeListener('abort', onDeadline);
        fail(err);
      },
    } as Dispatcher.DispatchHandler;
    try {
      pool.dispatch(opts, handler);
    } catch (e) {
      deadline.removeListener('abort', onDeadline);
      fail(e);
    }
  });
}

/** The deadline timer's callback (one function for every request, no closure per request). */
function expire(d: Deadline): void {
  d.abort(new DeadlinePassed());
}

/**
 * The proxy a client for `baseUrl` uses, if any: only for https to a host that is not loopback
 * (plain http would hand the client secret to the proxy in cleartext; loopback never leaves the
 * machine), and not when `noProxy` names the host (undici checks that). HTTPS_PROXY, else
 * HTTP_PROXY (tunnelled with CONNECT, so the proxy sees only TLS).
 */
export function proxyUsed(baseUrl: string, proxy: ProxyConfig | undefined): string | undefined {
  if (!proxy) return undefined;
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:' || isLoopbackHost(url.hostname)) return undefined;
  return proxy.httpsProxy ?? proxy.httpProxy;
}

/** The password of a proxy URL (`http://user:pass@proxy:3128`), registered as a secret. */
function proxyPassword(u: string): string | undefined {
  try {
    return decodeURIComponent(new URL(u).password) || undefined;
  } catch {
    return undefined;
  }
}

function headerValue(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

