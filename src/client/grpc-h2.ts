/**
 * A unary gRPC call over Node's own HTTP/2 (`node:http2`), for {@link GrpcTransport}: the gRPC
 * protocol of a unary call (gRPC over HTTP/2: `POST /<service>/<method>`, `content-type:
 * application/grpc`, `te: trailers`, `grpc-timeout`, one length-prefixed message each way, the
 * status in the trailers or in a trailers-only answer) without grpc-js. What the four preview
 * calls use of grpc-js is that much; loading grpc-js and its channel stack cost a plan's first
 * gRPC preview ~39 ms of CPU and its first call ~18 ms, and each call ~0.75 ms against ~0.37
 * (issue 27, the 10% changed plan). grpc-js stays for a target reached through a proxy
 * (src/client/grpc.ts `proxied`), which it tunnels.
 *
 * One session per transport, opened on the first call, reopened after it closes or fails; it
 * holds the process open only while calls are in flight.
 */
import * as http2 from 'node:http2';
import type { GrpcTarget } from './config';

/** How a call ended when it did not answer a message: a gRPC status, as grpc-js reports it. */
export interface H2Failure {
  code: number;
  details: string;
  /** `grpc-status-details-bin`, decoded. */
  statusDetails: Buffer | undefined;
  /** `x-request-id` of the answer, when it had one. */
  requestId: string | undefined;
}

/** The status codes used here (grpc's `status`). */
const OK = 0;
const CANCELLED = 1;
const UNKNOWN = 2;
const DEADLINE_EXCEEDED = 4;
const RESOURCE_EXHAUSTED = 8;
const INTERNAL = 13;
const UNAVAILABLE = 14;

/** An answer that is not gRPC (a proxy's or a load balancer's): its HTTP status as a gRPC code (the gRPC HTTP/2 spec's table). */
export function codeOfHttpStatus(status: number): number {
  if (status === 400) return INTERNAL;
  if (status === 401) return 16; // UNAUTHENTICATED
  if (status === 403) return 7; // PERMISSION_DENIED
  if (status === 404) return 12; // UNIMPLEMENTED
  if (status === 429 || status === 502 || status === 503 || status === 504) return UNAVAILABLE;
  return UNKNOWN;
}

/** A stream reset without a gRPC status: its HTTP/2 error code as the gRPC code grpc-js reports. */
export function codeOfReset(rst: number): number {
  const c = http2.constants;
  if (rst === c.NGHTTP2_REFUSED_STREAM) return UNAVAILABLE;
  if (rst === c.NGHTTP2_CANCEL) return CANCELLED;
  if (rst === c.NGHTTP2_ENHANCE_YOUR_CALM) return RESOURCE_EXHAUSTED;
  if (rst === c.NGHTTP2_INADEQUATE_SECURITY) return 7; // PERMISSION_DENIED
  return INTERNAL;
}

/** `grpc-message` is percent-encoded (gRPC HTTP/2 spec). */
function decodeMessage(v: unknown): string {
  if (typeof v !== 'string') return '';
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

const first = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** What {@link H2Channel.call} needs of the transport. */
export interface H2CallOptions {
  path: string;
  body: Buffer;
  headers: Record<string, string>;
  deadlineMs: number;
  maxReceiveBytes: number;
}

/** One HTTP/2 session to `target`, for unary gRPC calls. */
export class H2Channel {
  private session: http2.ClientHttp2Session | undefined;
  private active = 0;
  private closed = false;

  constructor(private readonly target: GrpcTarget) {}

  /** Ends the session (calls in flight fail). */
  close(): void {
    this.closed = true;
    this.session?.destroy();
    this.session = undefined;
  }

  private open(): http2.ClientHttp2Session {
    if (this.closed) throw new Error('the gRPC transport is closed');
    const s = this.session;
    if (s && !s.closed && !s.destroyed) return s;
    const authority = `${this.target.tls ? 'https' : 'http'}://${this.target.target}`;
    const session = http2.connect(authority, this.target.tls ? { ALPNProtocols: ['h2'] } : {});
    // a failed or closed session is dropped: the next call opens another (its streams fail on their own)
    const drop = () => {
      if (this.session === session) this.session = undefined;
    };
    session.on('error', drop);
    session.on('close', drop);
    session.on('goaway', drop);
    this.session = session;
    return session;
  }

  /** One unary call: the answer's message, or the status it failed with (never throws). */
  call(o: H2CallOptions): Promise<{ ok: true; body: Buffer; requestId: string | undefined } | ({ ok: false } & H2Failure)> {
    return new Promise((resolve) => {
      let settled = false;
      let requestId: string | undefined;
      let httpStatus = 200;
      let status: number | undefined;
      let message = '';
      let details: Buffer | undefined;
      const chunks: Buffer[] = [];
      let received = 0;
      let session: http2.ClientHttp2Session;
      let stream: http2.ClientHttp2Stream;
      const deadline: { timer?: NodeJS.Timeout } = {};
      const finish = (r: { ok: true; body: Buffer; requestId: string | undefined } | ({ ok: false } & H2Failure)) => {
        if (settled) return;
        settled = true;
        if (deadline.timer) clearTimeout(deadline.timer);
        if (--this.active === 0) session?.unref();
        resolve(r);
      };
      const fail = (code: number, text: string) => finish({ ok: false, code, details: text, statusDetails: details, requestId });
      const frame = Buffer.allocUnsafe(5 + o.body.length);
      frame[0] = 0;
      frame.writeUInt32BE(o.body.length, 1);
      o.body.copy(frame, 5);
      this.active++;
      try {
        session = this.open();
        session.ref();
        stream = session.request({
          ':method': 'POST',
          ':path': o.path,
          'content-type': 'application/grpc',
          te: 'trailers',
          'grpc-timeout': `${Math.max(1, Math.ceil(o.deadlineMs))}m`,
          ...o.headers,
        });
      } catch (e) {
        fail(UNAVAILABLE, (e as Error).message);
        return;
      }
      deadline.timer = setTimeout(() => {
        fail(DEADLINE_EXCEEDED, 'Deadline exceeded');
        stream.close(http2.constants.NGHTTP2_CANCEL);
      }, o.deadlineMs);
      const readStatus = (h: http2.IncomingHttpHeaders) => {
        const s = first(h['grpc-status']);
        if (s !== undefined) {
          status = Number(s);
          message = decodeMessage(first(h['grpc-message']));
          const bin = first(h['grpc-status-details-bin']);
          if (typeof bin === 'string' && bin) details = Buffer.from(bin, 'base64');
        }
      };
      stream.on('response', (h) => {
        httpStatus = Number(h[':status']);
        const id = first(h['x-request-id']);
        if (typeof id === 'string') requestId = id;
        readStatus(h); // a trailers-only answer
      });
      stream.on('trailers', readStatus);
      stream.on('data', (d: Buffer) => {
        received += d.length;
        if (received > o.maxReceiveBytes + 5) {
          fail(RESOURCE_EXHAUSTED, `Received message larger than max (${received - 5} vs. ${o.maxReceiveBytes})`);
          stream.close(http2.constants.NGHTTP2_CANCEL);
          return;
        }
        chunks.push(d);
      });
      // a reset stream is told by its code when it closes; anything else is the connection's
      stream.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ERR_HTTP2_STREAM_ERROR') fail(UNAVAILABLE, e.message);
      });
      stream.on('close', () => {
        if (settled) return;
        if (status === undefined) {
          if (httpStatus !== 200) return fail(codeOfHttpStatus(httpStatus), `Received HTTP status code ${httpStatus}`);
          return fail(codeOfReset(stream.rstCode), `the stream closed without a status (HTTP/2 code ${stream.rstCode})`);
        }
        if (status !== OK) return fail(status, message);
        const all = Buffer.concat(chunks);
        if (all.length < 5) return fail(INTERNAL, 'the answer holds no message');
        if (all[0] !== 0) return fail(INTERNAL, 'the answer is compressed, which this client did not ask for');
        const len = all.readUInt32BE(1);
        if (all.length !== 5 + len) return fail(INTERNAL, `the answer's message is ${all.length - 5} bytes, its prefix says ${len}`);
        finish({ ok: true, body: all.subarray(5), requestId });
      });
      stream.end(frame);
    });
  }
}
