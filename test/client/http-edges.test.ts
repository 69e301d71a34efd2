/**
 * The HTTP client's less travelled paths: bodies that are not JSON (API and token endpoint),
 * every status the token endpoint refuses credentials with, and calls through a proxy (with its
 * password kept out of every output). (Written for the survivors and uncovered mutants of the
 * full mutation run of src/client, issue 12.)
 */
import * as http from 'http';
import * as net from 'net';
import type { AddressInfo } from 'net';
import { z } from 'zod';
import { ApiError, redact, ResponseShapeError, UnauthenticatedError } from '../../src/client';
import * as redactModule from '../../src/client/redact';
import { makeClient, serverPerTest } from './helpers/client';

const Ok = z.object({ ok: z.boolean() });

const t = serverPerTest();
const client = (extra: Parameters<typeof makeClient>[1] = {}) => t.client(extra);

const fails = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

describe('bodies that are not JSON', () => {
  test('a 2xx API response that is not JSON is a ResponseShapeError at the root, with the parse error as its cause', async () => {
    t.server.on('GET', '/api/x', () => ({ body: '<html>ok</html>', headers: { 'x-request-id': 'srv-1' } }));
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).issues).toEqual([{ path: '', message: 'response body is not JSON (truncated or not JSON: the server is at fault)' }]);
    expect(err.status).toBe(200);
    expect(err.requestId).toBe('srv-1');
    expect(err.message).toBe('GET /api/x failed: 200: unexpected response shape: (root): response body is not JSON (truncated or not JSON: the server is at fault) (request id srv-1)');
    expect(err.cause).toBeInstanceOf(SyntaxError);
  });

  test('a token response that is not JSON is a ResponseShapeError of the token endpoint', async () => {
    t.server.tokenHook = () => ({ body: 'not json' });
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.path).toMatch(/\/oauth2\/token$/);
    expect((err as ResponseShapeError).issues).toEqual([{ path: '', message: 'token response is not JSON' }]);
    expect(err.method).toBe('POST');
    expect(err.cause).toBeInstanceOf(SyntaxError);
    expect(t.server.requests).toHaveLength(0);
  });

  test('a token response of the wrong shape names the field, and its token is redacted all the same', async () => {
    t.server.tokenHook = () => ({ json: { access_token: 'leaky-token-value-123456', expires_in: 'soon' } });
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect((err as ResponseShapeError).issues.map((i) => i.path)).toContain('expires_in');
    expect(redact('x leaky-token-value-123456 y')).toBe('x [REDACTED] y');
    expect(JSON.stringify(err.toJSON())).not.toContain('leaky-token-value-123456');
  });
});

describe('the token endpoint refusing the credentials', () => {
  test.each([400, 401, 403])('%i is an UnauthenticatedError that names the variables to check and keeps the server message', async (status) => {
    t.server.tokenHook = () => ({ status, json: { error: 'invalid_client', error_description: 'nope' } });
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect(err.status).toBe(status);
    expect(err.serverMessage).toBe('the token endpoint refused the client credentials (check DQ_CLIENT_ID and DQ_CLIENT_SECRET): invalid_client: nope');
    expect(t.server.tokenRequests).toHaveLength(1);
  });

  test('without a server message it says only what to check', async () => {
    t.server.tokenHook = () => ({ status: 401, body: '' });
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err.serverMessage).toBe('the token endpoint refused the client credentials (check DQ_CLIENT_ID and DQ_CLIENT_SECRET)');
  });

  test('a 404 of the token endpoint is not a credentials problem', async () => {
    t.server.tokenHook = () => ({ status: 404, json: { code: 5, message: 'no such route', details: [] } });
    const { client: c } = client();
    const err = await fails(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).not.toBeInstanceOf(UnauthenticatedError);
    expect(err.status).toBe(404);
    expect(err.serverMessage).toBe('no such route');
  });
});

/** A CONNECT proxy that records what it was asked and requires Basic credentials. */
async function startProxy(user: string, pass: string): Promise<{ url: string; connects: string[]; auths: (string | undefined)[]; close: () => Promise<void> }> {
  const connects: string[] = [];
  const auths: (string | undefined)[] = [];
  const proxy = http.createServer((_req, res) => {
    res.writeHead(405);
    res.end();
  });
  const sockets = new Set<net.Socket>();
  proxy.on('connect', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    sockets.add(socket);
    connects.push(req.url ?? '');
    auths.push(req.headers['proxy-authorization']);
    if (req.headers['proxy-authorization'] !== `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`) {
      socket.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
      return;
    }
    const [host, port] = (req.url ?? '').split(':');
    const upstream = net.connect(Number(port), host, () => {
      socket.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      if (head.length) upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => socket.destroy());
    socket.on('error', () => upstream.destroy());
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const url = `http://${user}:${encodeURIComponent(pass)}@127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  return {
    url,
    connects,
    auths,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => proxy.close(() => r()));
    },
  };
}

describe('a proxy', () => {
  test('a loopback base URL never goes through it (the secret would cross it in cleartext), and its password is a secret', async () => {
    const pass = 'proxy-pa55word/with-slash';
    const proxy = await startProxy('pu', pass);
    try {
      t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
      const { client: c } = client({ proxy: { httpProxy: proxy.url } });
      await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
      expect(proxy.connects).toEqual([]);
      expect(t.server.tokenRequests).toHaveLength(1);
      expect(redact(`via ${pass} and ${encodeURIComponent(pass)}`)).toBe('via [REDACTED] and [REDACTED]');
    } finally {
      await proxy.close();
    }
  });

  test('NO_PROXY hosts are reached directly', async () => {
    const proxy = await startProxy('pu', 'proxy-pa55word-2');
    try {
      t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
      const { client: c } = client({ proxy: { httpProxy: proxy.url, noProxy: '127.0.0.1' } });
      await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
      expect(proxy.connects).toEqual([]);
    } finally {
      await proxy.close();
    }
  });

  test('an https-only proxy is not used for an http base URL', async () => {
    const proxy = await startProxy('pu', 'proxy-pa55word-3');
    try {
      t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
      const { client: c } = client({ proxy: { httpsProxy: proxy.url } });
      await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
      expect(proxy.connects).toEqual([]);
    } finally {
      await proxy.close();
    }
  });
});

describe('debug log and trace lines', () => {
  test('each exchange is logged both ways, with the request id, the attempt and the status; tokens say when they expire', async () => {
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const now = { t: 1000 };
    const traces: unknown[] = [];
    const { client: c, logs } = client({ now: () => now.t, onTrace: (t) => traces.push(t) });
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    const rid = t.server.requests[0].headers['x-request-id'];
    expect(logs).toEqual([
      expect.stringMatching(/^-> POST \/oauth2\/token \(request id [0-9a-f-]{36}, attempt 1\)$/),
      '<- 200 POST /oauth2/token (0ms)',
      'obtained an access token (expires in 3600s)',
      `-> GET /api/x (request id ${rid}, attempt 1)`,
      '<- 200 GET /api/x (0ms)',
    ]);
    expect(traces).toContainEqual({ event: 'response', method: 'GET', path: '/api/x', requestId: rid, attempt: 1, status: 200, ms: 0 });
  });

  test('onTrace gets only the events it asks for; a response event it does not want is never made, nor its path redacted', async () => {
    t.server.on('GET', '/api/x', (_r, n) => (n % 2 === 1 ? 'drop' : { json: { ok: true } }));
    const redacts = jest.spyOn(redactModule, 'redact');
    /** The events of a call (dropped once, then answered; the token's left out), and how often its path was redacted. */
    const run = async (traceEvents?: ('response' | 'transport-error' | 'retry')[]) => {
      redacts.mockClear();
      const traces: { event: string; path: string }[] = [];
      const { client: c } = client({ onLog: undefined, onTrace: (e) => traces.push(e), traceEvents });
      await expect(c.call({ method: 'GET', path: '/api/x?q=a-long-rule-query', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
      return { events: traces.filter((e) => e.path.startsWith('/api/x')).map((e) => e.event), pathRedactions: redacts.mock.calls.filter(([x]) => x === '/api/x?q=a-long-rule-query').length };
    };
    try {
      // the dropped attempt's error redacts the path once, each event made once more
      expect(await run()).toEqual({ events: ['transport-error', 'retry', 'response'], pathRedactions: 4 });
      expect(await run(['retry'])).toEqual({ events: ['retry'], pathRedactions: 2 });
    } finally {
      redacts.mockRestore();
    }
  });

  test('a retried token request is logged with its status; a dropped connection with its error', async () => {
    t.server.tokenHook = (n) => (n === 1 ? { status: 503, json: { code: 14, message: 'busy', details: [] } } : undefined);
    t.server.on('GET', '/api/x', (_r, n) => (n === 1 ? 'drop' : { json: { ok: true } }));
    const traces: { event: string; error?: string }[] = [];
    const { client: c, logs } = client({ onTrace: (t) => traces.push(t as { event: string; error?: string }) });
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(logs).toContainEqual(expect.stringMatching(/^retry POST \/oauth2\/token in \d+ms after 503$/));
    expect(logs).toContainEqual(expect.stringMatching(/^<- GET \/api\/x: GET \/api\/x failed: no response UNAVAILABLE: connection failed/));
    expect(logs).toContainEqual(expect.stringMatching(/^retry GET \/api\/x in \d+ms after UNAVAILABLE \(attempt 2\/\d+\)$/));
    const dropped = traces.find((t) => t.event === 'transport-error');
    expect(dropped?.error).toMatch(/^GET \/api\/x failed: no response UNAVAILABLE: connection failed/);
  });
});
