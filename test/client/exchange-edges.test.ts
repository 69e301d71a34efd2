/**
 * The client's own dispatch handler (src/client/http.ts `exchangeOnce`, `Deadline`) against
 * misbehaving real servers on 127.0.0.1 (port 0): a deadline passing while the request waits in
 * the pool's queue, a body cut short for reads and creates, and no credential in any error, log
 * line or trace of these paths. (net.test.ts covers headers and trickled bodies at the deadline,
 * the size cap and the truncated message.)
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { ApiError, DqClient, type DqClientOptions, type HttpTrace, RequestTimeoutError, ResponseTooLargeError, UnavailableError } from '../../src/client';

const Ok = z.object({ ok: z.boolean() });
const SECRET = 'exchange-secret-value-4711';
const ACCESS = 'exchange-access-token-0123456789';
const TOKEN = JSON.stringify({ access_token: ACCESS, token_type: 'Bearer', expires_in: 3600 });

interface Srv {
  url: string;
  requests: string[];
  close: () => Promise<void>;
}

const servers: Srv[] = [];
const clients: DqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(api: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Srv> {
  const sockets = new Set<net.Socket>();
  const out: Srv = { url: '', requests: [], close: async () => undefined };
  const s = http.createServer((req, res) => {
    out.requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/oauth2/token')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(TOKEN);
      return;
    }
    api(req, res);
  });
  s.on('connection', (sock) => {
    sockets.add(sock);
    sock.on('close', () => sockets.delete(sock));
  });
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  out.url = `http://127.0.0.1:${(s.address() as AddressInfo).port}`;
  out.close = async () => {
    for (const sock of sockets) sock.destroy();
    await new Promise<void>((r) => s.close(() => r()));
  };
  servers.push(out);
  return out;
}

function client(baseUrl: string, extra: Partial<DqClientOptions> = {}) {
  const sleeps: number[] = [];
  const logs: string[] = [];
  const traces: HttpTrace[] = [];
  const c = new DqClient({
    baseUrl,
    clientId: 'exchange-id',
    clientSecret: SECRET,
    onLog: (l) => logs.push(l),
    onTrace: (t) => traces.push(t),
    ...extra,
    retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5, ...extra.retry },
  });
  clients.push(c);
  return { c, sleeps, logs, traces };
}

const failure = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

const timeouts = (): number => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

describe('the deadline', () => {
  test('passing while the request waits in the pool queue (connection limit) fails it then and never sends it later; no timer is left', async () => {
    const held: http.ServerResponse[] = [];
    const s = await server((req, res) => {
      if (req.url === '/api/slow') held.push(res); // never answers: holds the only connection
      else res.end('{"ok":true}');
    });
    const { c, sleeps } = client(s.url, { timeoutMs: 400, connections: 1, maxConcurrency: 4 });
    await c.tokens.getToken();
    const before = timeouts();
    const started = Date.now();
    const [slow, queued] = await Promise.all([
      failure(c.call({ method: 'GET', path: '/api/slow', responseSchema: Ok, idempotent: true })),
      failure(c.call({ method: 'GET', path: '/api/queued', responseSchema: Ok, idempotent: true })),
    ]);
    expect(Date.now() - started).toBeLessThan(3000);
    expect(slow).toBeInstanceOf(RequestTimeoutError);
    expect(queued).toBeInstanceOf(RequestTimeoutError);
    expect(sleeps).toEqual([]);
    // the slow request's connection is gone: the queued one would now get a connection
    await new Promise((r) => setTimeout(r, 300));
    expect(s.requests.filter((r) => r.startsWith('GET /api/'))).toEqual(['GET /api/slow']);
    expect(timeouts()).toBeLessThanOrEqual(before);
    // the pool still serves a fresh call after both deadlines
    await expect(c.call({ method: 'GET', path: '/api/after', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
  });
  test('passing while connecting (a TLS handshake the server never answers) fails the call at the deadline, not retried, and close() does not wait for the connect', async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((sock) => void sockets.push(sock)); // accepts, never says a word
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    try {
      const url = `https://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      const c = new DqClient({ baseUrl: url, clientId: 'exchange-id', clientSecret: SECRET, timeoutMs: 400, retry: { sleep: async () => undefined } });
      const started = Date.now();
      const err = await failure(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
      expect(err).toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(sockets).toHaveLength(1);
      const closing = Date.now();
      await c.close();
      expect(Date.now() - closing).toBeLessThan(2000);
    } finally {
      sockets.forEach((x) => x.destroy());
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });
});

describe('a body cut short mid-body (fewer bytes than declared)', () => {
  const cutShort = (res: http.ServerResponse, req: http.IncomingMessage): void => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
    res.write(`{"ok":true,"echo":"${String(req.headers.authorization)}`);
    setTimeout(() => req.socket.destroy(), 20);
  };

  test('a GET is retried (and answered the second time)', async () => {
    let n = 0;
    const s = await server((req, res) => {
      req.resume();
      if (++n === 1) cutShort(res, req);
      else res.end('{"ok":true}');
    });
    const { c, sleeps } = client(s.url);
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(s.requests.filter((r) => r === 'GET /api/x')).toHaveLength(2);
    expect(sleeps).toHaveLength(1);
  });

  test('a create (not idempotent) is sent once and says the response was truncated', async () => {
    const s = await server((req, res) => {
      req.resume();
      cutShort(res, req);
    });
    const { c, sleeps } = client(s.url);
    const err = await failure(c.call({ method: 'POST', path: '/api/create', body: { a: 1 }, responseSchema: Ok, idempotent: false }));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain('sent a truncated response');
    expect(s.requests.filter((r) => r === 'POST /api/create')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });
});

describe('no credential in the errors, log lines or traces of the transport failures', () => {
  test.each([
    ['the deadline', { timeoutMs: 300 }, (_req: http.IncomingMessage, _res: http.ServerResponse): void => undefined, RequestTimeoutError],
    [
      'a truncated body',
      { retry: { maxAttempts: 2 } },
      (req: http.IncomingMessage, res: http.ServerResponse): void => {
        res.writeHead(200, { 'content-length': '500' });
        res.write(`{"echo":"${String(req.headers.authorization)} ${SECRET}`);
        setTimeout(() => req.socket.destroy(), 20);
      },
      UnavailableError,
    ],
    [
      'a body past the cap',
      { maxResponseBytes: 1024 },
      (req: http.IncomingMessage, res: http.ServerResponse): void => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(`{"echo":"${String(req.headers.authorization)} ${SECRET}${' '.repeat(4096)}"}`);
      },
      ResponseTooLargeError,
    ],
  ])('%s', async (_why, extra, api, kind) => {
    const s = await server(api);
    const { c, logs, traces } = client(s.url, extra as Partial<DqClientOptions>);
    const err = await failure(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }));
    expect(err).toBeInstanceOf(kind);
    const seen = [err.message, String(err.stack), JSON.stringify(err.toJSON()), String((err as { cause?: unknown }).cause), ...logs, JSON.stringify(traces)].join('\n');
    expect(traces.some((t) => t.event === 'transport-error')).toBe(true);
    expect(seen).not.toContain(SECRET);
    expect(seen).not.toContain(ACCESS);
  });
});
