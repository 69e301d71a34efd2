/**
 * {@link GrpcTransport}: the client's gRPC side, for the four rule preview calls only.
 *
 * - `@grpc/grpc-js` and the `.proto` subset load on the first gRPC call, never before: a plan
 *   without such a rule pays nothing. The first call yields to the event loop before each
 *   synchronous load ({@link GrpcTransport.warm}), so that requests already under way (the REST
 *   previews started with it) are sent, and their answers read, while the stack loads; the
 *   channel then starts connecting at once.
 * - One channel per client, to `DQ_GRPC_ENDPOINT` or the base URL's host on port 443; TLS
 *   unless the host is loopback (or the endpoint says `http://`).
 * - Requests are encoded strictly from protojson (schemas/platform/grpc.ts): a field the subset lacks is
 *   a {@link RequestShapeError} naming it, "not sent".
 * - The token is the REST client's ({@link TokenProvider}: one cache, one refresh), sent as
 *   `authorization: Bearer <token>` metadata, never logged; UNAUTHENTICATED refetches it once.
 * - A deadline per attempt; failures go through {@link errorFromGrpcStatus} (the REST error
 *   factory) and the REST {@link RetryPolicy}: the preview calls are NO_SIDE_EFFECTS, so
 *   UNAVAILABLE, DEADLINE_EXCEEDED and rate limits are retried with backoff.
 * - Bounded by the REST client's {@link Limiter} (one budget of requests in flight).
 */
import { randomUUID } from 'node:crypto';
import type * as GrpcJs from '@grpc/grpc-js';
import {
  DEFAULT_GRPC_PACKAGE,
  methodPath,
  ProtoShapeError,
  protoRegistry,
  STATUS_DETAILS_KEY,
  type JsonObject,
  type PreviewMethod,
} from '../../schemas/platform/grpc';
import type { TokenProvider } from './auth';
import { defaultGrpcTarget, isLoopbackHost, parseGrpcEndpoint, type GrpcConfig, type GrpcTarget } from './config';
import { ApiError, errorFromGrpcStatus, RequestShapeError, ResponseShapeError, UnauthenticatedError } from './errors';
import type { Limiter } from './limiter';
import { type RetryPolicy, withRetry } from './retry';

/** What the transport borrows from the REST client. */
export interface GrpcTransportDeps {
  baseUrl: string;
  tokens: TokenProvider;
  limiter: Limiter;
  policy: RetryPolicy;
  /** A redacting log sink. */
  log: (line: string) => void;
  now: () => number;
  userAgent: string;
}

/** Default deadline of one attempt. */
export const DEFAULT_GRPC_DEADLINE_MS = 30_000;

function grpcJs(): typeof GrpcJs {
  return require('@grpc/grpc-js') as typeof GrpcJs;
}

/** Calls the preview methods over one channel. */
export class GrpcTransport {
  readonly target: GrpcTarget;
  readonly packagePrefix: string;
  readonly deadlineMs: number;
  private channel: GrpcJs.Client | undefined;
  private closed = false;
  private warming: Promise<void> | undefined;

  constructor(
    private readonly deps: GrpcTransportDeps,
    config: GrpcConfig = {},
  ) {
    this.target = config.endpoint ? parseGrpcEndpoint(config.endpoint) : defaultGrpcTarget(deps.baseUrl);
    this.packagePrefix = config.packagePrefix ?? DEFAULT_GRPC_PACKAGE;
    this.deadlineMs = config.deadlineMs ?? DEFAULT_GRPC_DEADLINE_MS;
  }

  /** The wire path of `m`, with this client's package prefix. */
  pathOf(m: PreviewMethod): string {
    return methodPath(this.packagePrefix, m);
  }

  /**
   * One preview call: `request` in protojson (enum names or numbers), the response in protojson
   * (enums as numbers, unknown fields skipped).
   * @throws RequestShapeError (not sent) when the request has a field the subset lacks;
   *   ApiError subclasses from the status otherwise (retryable ones only after the retries).
   */
  async call(m: PreviewMethod, request: JsonObject): Promise<JsonObject> {
    await this.warm();
    const path = this.pathOf(m);
    const requestId = randomUUID();
    const reg = protoRegistry();
    let bytes: Buffer;
    try {
      bytes = reg.encode(m.requestType, request);
    } catch (e) {
      if (!(e instanceof ProtoShapeError)) throw e;
      throw new RequestShapeError({ method: 'GRPC', path, status: 0, requestId, transport: 'grpc' }, [{ path: e.path, message: e.message.slice(e.path.length + 2) }]);
    }
    const raw = await withRetry(
      this.deps.policy,
      true, // the four preview calls are NO_SIDE_EFFECTS (grpc-facts section 1)
      async (attempt) => {
        let refetched = false;
        for (;;) {
          const token = await this.deps.tokens.getToken();
          try {
            return await this.deps.limiter.run(() => this.once(path, bytes, token, requestId, attempt));
          } catch (e) {
            if (e instanceof UnauthenticatedError && !refetched) {
              refetched = true;
              this.deps.tokens.invalidate(token);
              this.deps.log(`GRPC ${path}: UNAUTHENTICATED, refetching the access token once`);
              continue;
            }
            throw e;
          }
        }
      },
      (e) => this.deps.log(`retry GRPC ${path} in ${e.delayMs}ms after ${e.error.grpcCode} (attempt ${e.attempt + 1}/${this.deps.policy.maxAttempts})`),
    );
    try {
      return reg.decode(m.responseType, raw.body);
    } catch (cause) {
      throw new ResponseShapeError({ method: 'GRPC', path, status: 200, requestId: raw.requestId ?? requestId, cause, transport: 'grpc' }, [{ path: '', message: `not a ${m.responseType}: ${(cause as Error).message}` }]);
    }
  }

  /**
   * Loads the gRPC stack (grpc-js, the proto registry) and makes the channel, one part per turn
   * of the event loop: each load is synchronous (tens of ms), and other requests in flight (the
   * REST previews) would wait for it unsent or unanswered. Only a warm-up: a part that fails is
   * left to the call, which fails as it always did (a missing descriptor, a closed transport).
   */
  private warm(): Promise<void> {
    return (this.warming ??= (async () => {
      const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
      const tries = [grpcJs, protoRegistry, () => (this.closed ? undefined : this.client().getChannel().getConnectivityState(true))];
      for (const part of tries) {
        await turn();
        try {
          part();
        } catch {
          // the call meets it again, and reports it
        }
      }
    })());
  }

  /** Closes the channel (calls in flight fail). */
  close(): void {
    this.closed = true;
    this.channel?.close();
    this.channel = undefined;
  }

  private client(): GrpcJs.Client {
    if (this.closed) throw new Error('the gRPC transport is closed');
    if (!this.channel) {
      const grpc = grpcJs();
      const creds = this.target.tls ? grpc.credentials.createSsl() : grpc.credentials.createInsecure();
      this.channel = new grpc.Client(this.target.target, creds, {
        'grpc.primary_user_agent': this.deps.userAgent,
        'grpc.max_receive_message_length': 64 * 1024 * 1024,
        // our RetryPolicy retries; grpc-js' own retries would multiply the attempts
        'grpc.enable_retries': 0,
        // no channelz bookkeeping (call counters and timestamps per call): nothing here serves it
        'grpc.enable_channelz': 0,
        // grpc-js reads http_proxy/https_proxy by itself: never for plaintext or loopback (the
        // token would cross the proxy in cleartext, or leave the machine)
        ...(this.target.tls && !isLoopbackHost(this.target.host) ? {} : { 'grpc.enable_http_proxy': 0 }),
      });
    }
    return this.channel;
  }

  /** One attempt. Resolves the raw response bytes; rejects with an ApiError. */
  private once(path: string, bytes: Buffer, token: string, requestId: string, attempt: number): Promise<{ body: Buffer; requestId: string | undefined }> {
    const grpc = grpcJs();
    const started = this.deps.now();
    this.deps.log(`-> GRPC ${path} ${this.target.target}${this.target.tls ? '' : ' (plaintext)'} (request id ${requestId}, attempt ${attempt})`);
    const metadata = new grpc.Metadata();
    metadata.set('authorization', `Bearer ${token}`);
    metadata.set('x-request-id', requestId);
    return new Promise((resolve, reject) => {
      let answeredId: string | undefined;
      const call = this.client().makeUnaryRequest<Buffer, Buffer>(
        path,
        (b) => b,
        (b) => b,
        bytes,
        metadata,
        { deadline: Date.now() + this.deadlineMs },
        (err, value) => {
          if (!err) {
            this.deps.log(`<- OK GRPC ${path} (${this.deps.now() - started}ms)`);
            resolve({ body: value ?? Buffer.alloc(0), requestId: answeredId });
            return;
          }
          const trailer = err.metadata?.get(STATUS_DETAILS_KEY)[0];
          const header = err.metadata?.get('x-request-id')[0];
          const apiErr: ApiError = errorFromGrpcStatus({
            path,
            code: err.code ?? grpc.status.UNKNOWN,
            // grpc-js appends an empty "Resolution note:" to connection failures
            message: (err.details ?? err.message).replace(/\s*Resolution note:\s*$/, ''),
            statusDetails: Buffer.isBuffer(trailer) ? trailer : undefined,
            requestId: typeof header === 'string' ? header : answeredId,
            sentRequestId: requestId,
            now: this.deps.now(),
          });
          this.deps.log(`<- GRPC ${path}: ${apiErr.message}`);
          reject(apiErr);
        },
      );
      call.on('metadata', (h: GrpcJs.Metadata) => {
        const v = h.get('x-request-id')[0];
        if (typeof v === 'string') answeredId = v;
      });
    });
  }
}
