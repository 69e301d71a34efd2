/**
 * The client's gRPC calls over Node's own HTTP/2 (src/client/grpc-h2.ts, issue 27): what a server
 * that is not the emulator may answer (a proxy's or load balancer's HTTP status, a trailers-only
 * status, a compressed or malformed message) becomes the gRPC status grpc-js would report, and a
 * target reached through a proxy still goes through grpc-js. The emulator's answers (statuses,
 * details, deadlines, faults) are test/client/grpc.test.ts's.
 *
 * @gateway-exempt starts no emulator: plain node:http2 servers stand in for what sits in front of the platform
 */
import * as http2 from 'node:http2';
import type { AddressInfo } from 'node:net';
import { PREVIEW_METHODS } from '../../schemas/platform/grpc';
import { ApiError, PlatformClient, UnavailableError } from '../../src/client';
import { parseGrpcEndpoint } from '../../src/client/config';
import { codeOfHttpStatus, codeOfReset, H2Channel } from '../../src/client/grpc-h2';
import { proxied } from '../../src/client/grpc';

type Answer = (stream: http2.ServerHttp2Stream, headers: http2.IncomingHttpHeaders) => void;

async function serve(answer: Answer): Promise<{ endpoint: string; seen: http2.IncomingHttpHeaders[]; close: () => Promise<void> }> {
  const seen: http2.IncomingHttpHeaders[] = [];
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    seen.push(headers);
    stream.on('error', () => undefined); // the resets this suite makes
    stream.on('data', () => undefined);
    stream.on('end', () => answer(stream, headers));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    endpoint: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

async function call(endpoint: string, deadlineMs = 5000): Promise<unknown> {
  const ch = new H2Channel(parseGrpcEndpoint(endpoint));
  try {
    return await ch.call({ path: '/p.S/M', body: Buffer.from('0a0178', 'hex'), headers: { 'x-request-id': 'r1' }, deadlineMs, maxReceiveBytes: 16 });
  } finally {
    ch.close();
  }
}

it('sends a unary gRPC request: POST, the path, application/grpc, te: trailers, a deadline, one length-prefixed message', async () => {
  const s = await serve((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'x-request-id': 'answered' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.from([0, 0, 0, 0, 2, 8, 1]));
  });
  const server = s;
  try {
    const ch = new H2Channel(parseGrpcEndpoint(server.endpoint));
    const r = await ch.call({ path: '/p.S/M', body: Buffer.from('0a0178', 'hex'), headers: { authorization: 'Bearer t' }, deadlineMs: 5000, maxReceiveBytes: 16 });
    ch.close();
    expect(r).toEqual({ ok: true, body: Buffer.from([8, 1]), requestId: 'answered' });
    expect(server.seen[0]).toMatchObject({ ':method': 'POST', ':path': '/p.S/M', 'content-type': 'application/grpc', te: 'trailers', 'grpc-timeout': '5000m', authorization: 'Bearer t' });
  } finally {
    await server.close();
  }
});

it.each([
  ['a proxy answering 503 (no gRPC status)', ((stream) => stream.respond({ ':status': 503 }, { endStream: true })) as Answer, { code: 14, details: 'Received HTTP status code 503' }],
  ['a trailers-only status, percent-encoded message', ((stream) => stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '5', 'grpc-message': 'no%20such%20rule' }, { endStream: true })) as Answer, { code: 5, details: 'no such rule' }],
  ['a compressed message (never asked for)', ((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.from([1, 0, 0, 0, 1, 7]));
  }) as Answer, { code: 13 }],
  ['a message over the size limit', ((stream) => {
    stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
    stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
    stream.end(Buffer.concat([Buffer.from([0, 0, 0, 0, 64]), Buffer.alloc(64)]));
  }) as Answer, { code: 8 }],
  ['a stream reset without a status', ((stream) => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR)) as Answer, { code: 13 }],
])('%s: the status grpc-js would report', async (_why, answer, expected) => {
  const s = await serve(answer);
  try {
    expect(await call(s.endpoint)).toMatchObject({ ok: false, ...expected });
  } finally {
    await s.close();
  }
});

it('a server that never answers: DEADLINE_EXCEEDED at the deadline, and the stream is cancelled', async () => {
  let cancelled = false;
  const s = await serve((stream) => stream.on('close', () => (cancelled = stream.rstCode === http2.constants.NGHTTP2_CANCEL)));
  try {
    expect(await call(s.endpoint, 200)).toMatchObject({ ok: false, code: 4 });
    await new Promise((r) => setTimeout(r, 100));
    expect(cancelled).toBe(true);
  } finally {
    await s.close();
  }
});

it('HTTP statuses of answers that are not gRPC, and stream resets, map as grpc-js maps them', () => {
  expect([400, 401, 403, 404, 429, 502, 503, 504, 500].map(codeOfHttpStatus)).toEqual([13, 16, 7, 12, 14, 14, 14, 14, 2]);
  const c = http2.constants;
  expect([c.NGHTTP2_REFUSED_STREAM, c.NGHTTP2_CANCEL, c.NGHTTP2_ENHANCE_YOUR_CALM, c.NGHTTP2_INADEQUATE_SECURITY, c.NGHTTP2_INTERNAL_ERROR, c.NGHTTP2_PROTOCOL_ERROR].map(codeOfReset)).toEqual([14, 1, 8, 7, 13, 13]);
});

it('through the client: a proxy\'s 503 is retried as UNAVAILABLE, a reset as INTERNAL', async () => {
  const s = await serve((stream) => stream.respond({ ':status': 503 }, { endStream: true }));
  const c = PlatformClient.create({ baseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y-secret' }, { grpc: { endpoint: s.endpoint }, retry: { maxAttempts: 2, scale: 0.001 } });
  (c.http.tokens as unknown as { getToken: () => Promise<string> }).getToken = async () => 'token';
  try {
    const e = await c.http.grpc.call(PREVIEW_METHODS.GetDeployDeleteOverview, { id: 'x' }).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(UnavailableError);
    expect((e as ApiError).transport).toBe('grpc');
    expect(s.seen).toHaveLength(2);
  } finally {
    await c.close();
    await s.close();
  }
  const r = await serve((stream) => stream.close(http2.constants.NGHTTP2_INTERNAL_ERROR));
  const c2 = PlatformClient.create({ baseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y-secret' }, { grpc: { endpoint: r.endpoint }, retry: { maxAttempts: 1 } });
  (c2.http.tokens as unknown as { getToken: () => Promise<string> }).getToken = async () => 'token';
  try {
    const e = await c2.http.grpc.call(PREVIEW_METHODS.GetDeployDeleteOverview, { id: 'x' }).then(() => undefined, (x: unknown) => x);
    expect(e).toBeInstanceOf(ApiError);
    expect((e as Error).message).toMatch(/INTERNAL/);
  } finally {
    await c2.close();
    await r.close();
  }
});

it('grpc-js (which tunnels) only for TLS to another host while a proxy variable grpc-js reads is set', () => {
  const remote = parseGrpcEndpoint('grpc.eu.platform.example:443');
  expect(proxied(remote, { https_proxy: 'http://proxy:3128' })).toBe(true);
  expect(proxied(remote, { grpc_proxy: 'http://proxy:3128' })).toBe(true);
  expect(proxied(remote, { http_proxy: 'http://proxy:3128' })).toBe(true);
  expect(proxied(remote, {})).toBe(false);
  expect(proxied(parseGrpcEndpoint('127.0.0.1:50051'), { https_proxy: 'http://proxy:3128' })).toBe(false);
  expect(proxied(parseGrpcEndpoint('http://10.0.0.5:8788'), { https_proxy: 'http://proxy:3128' })).toBe(false);
});
