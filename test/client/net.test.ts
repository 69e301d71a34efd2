/**
 * Network hardening (issues 21 and 23): TLS failures are not retried and say what is likely
 * wrong; one deadline per request attempt, body included (DQ_TIMEOUT); response bodies capped
 * (DQ_MAX_RESPONSE_MB); a truncated body is the server's fault; a proxy only for https to a host
 * that is not loopback. Every server here is a real one on 127.0.0.1 (port 0) that misbehaves on
 * purpose.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as https from 'node:https';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { z } from 'zod';
import {
  ApiError,
  ConfigError,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_TIMEOUT_MS,
  DqClient,
  type DqClientOptions,
  errorFromTransport,
  PlatformClient,
  proxyUsed,
  RequestTimeoutError,
  resolveLimits,
  ResponseTooLargeError,
  TlsError,
  UnavailableError,
} from '../../src/client';

const Ok = z.object({ ok: z.boolean() });
const TOKEN = JSON.stringify({ access_token: 'net-test-token-0123456789', token_type: 'Bearer', expires_in: 3600 });

interface Raw {
  url: string;
  /** Connections accepted. */
  connections: number;
  /** Requests seen, `METHOD path`. */
  requests: string[];
  close: () => Promise<void>;
}

/**
 * A plain-http server that answers the token endpoint and hands every other request to `api`
 * (which may never answer). Sockets are destroyed on close.
 */
async function raw(api: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Raw> {
  const sockets = new Set<net.Socket>();
  const out: Raw = { url: '', connections: 0, requests: [], close: async () => undefined };
  const server = http.createServer((req, res) => {
    out.requests.push(`${req.method} ${req.url}`);
    if (req.url?.startsWith('/oauth2/token')) {
      req.resume();
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(TOKEN);
      return;
    }
    api(req, res);
  });
  server.on('connection', (s) => {
    out.connections++;
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  out.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  out.close = async () => {
    for (const s of sockets) s.destroy();
    await new Promise<void>((r) => server.close(() => r()));
  };
  return out;
}

const servers: Raw[] = [];
const clients: DqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(api: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Raw> {
  const s = await raw(api);
  servers.push(s);
  return s;
}

/** A client whose retries are recorded, not slept: `sleeps` empty means no retry happened. */
function client(baseUrl: string, extra: Partial<DqClientOptions> = {}) {
  const sleeps: number[] = [];
  const c = new DqClient({
    baseUrl,
    clientId: 'net-id',
    clientSecret: 'net-secret-value-31337',
    ...extra,
    retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5, ...extra.retry },
  });
  clients.push(c);
  return { c, sleeps };
}

const failure = async (p: Promise<unknown>): Promise<ApiError> => {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ApiError);
  return e as ApiError;
};

const get = (c: DqClient) => c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });

describe('TLS failures are not retried and say what is likely wrong', () => {
  test('https:// to a plain-http server: one connection, no retry, "is DQ_BASE_URL plain http?", no OpenSSL text', async () => {
    const s = await server((_req, res) => res.end('{"ok":true}'));
    const { c, sleeps } = client(s.url.replace('http://', 'https://'));
    const started = Date.now();
    const err = await failure(get(c));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(err).toBeInstanceOf(TlsError);
    expect(err.retryable).toBe(false);
    expect(sleeps).toEqual([]);
    expect(s.connections).toBe(1);
    const host = new URL(s.url).host;
    expect(err.message).toContain(`TLS handshake with ${host} failed: the server did not answer in TLS`);
    expect(err.message).toContain('Is DQ_BASE_URL plain http?');
    const everything = `${err.message} ${JSON.stringify(err.toJSON())}`;
    expect(everything).not.toMatch(/SSL routines|ssl3_|error:[0-9A-F]{8}|wrong version number/i);
  });

  test('a certificate no trusted CA signed: names the host and what failed (unknown CA), no retry', async () => {
    const dir = path.join(__dirname, 'fixtures');
    const sockets = new Set<net.Socket>();
    let connections = 0;
    const tlsServer = https.createServer({ key: fs.readFileSync(path.join(dir, 'self-signed.key.pem')), cert: fs.readFileSync(path.join(dir, 'self-signed.cert.pem')) }, (_req, res) => res.end(TOKEN));
    tlsServer.on('connection', (sock: net.Socket) => {
      connections++;
      sockets.add(sock);
    });
    await new Promise<void>((r) => tlsServer.listen(0, '127.0.0.1', r));
    try {
      const port = (tlsServer.address() as AddressInfo).port;
      const { c, sleeps } = client(`https://127.0.0.1:${port}`);
      const err = await failure(get(c));
      expect(err).toBeInstanceOf(TlsError);
      expect(sleeps).toEqual([]);
      expect(connections).toBe(1);
      expect(err.message).toContain(`TLS handshake with 127.0.0.1:${port} failed: its certificate`);
      expect(err.message).toMatch(/unknown CA/);
      expect(err.message).toContain('NODE_EXTRA_CA_CERTS');
      expect(JSON.stringify(err.toJSON())).not.toMatch(/SSL routines|error:[0-9A-F]{8}/);
    } finally {
      for (const sock of sockets) sock.destroy();
      await new Promise<void>((r) => tlsServer.close(() => r()));
    }
  });

  test('a certificate for another name (Node: ERR_TLS_CERT_ALTNAME_INVALID) is a TlsError naming the host and the mismatch', () => {
    const cause = Object.assign(new Error("Hostname/IP does not match certificate's altnames: Host: x. is not in the cert's altnames: DNS:dq.test"), { code: 'ERR_TLS_CERT_ALTNAME_INVALID' });
    const err = errorFromTransport({ method: 'GET', path: '/api/x', origin: 'https://platform.example:8443' }, cause);
    expect(err).toBeInstanceOf(TlsError);
    expect(err.retryable).toBe(false);
    expect(err.message).toBe(
      "GET /api/x failed: no response: TLS handshake with platform.example:8443 failed: its certificate is not valid for that host name (certificate name mismatch) (ERR_TLS_CERT_ALTNAME_INVALID). Check DQ_BASE_URL's host name; for a private CA, point NODE_EXTRA_CA_CERTS at its PEM file",
    );
    expect(JSON.stringify(err.toJSON())).not.toContain('altnames');
  });
});

describe('one deadline per request attempt, body included (DQ_TIMEOUT)', () => {
  test('the default is 15 s and a body cap of 64 MiB; DQ_TIMEOUT and DQ_MAX_RESPONSE_MB change them', () => {
    expect(resolveLimits({})).toEqual({ timeoutMs: 15_000, maxResponseBytes: 64 * 1024 * 1024 });
    expect(DEFAULT_TIMEOUT_MS).toBe(15_000);
    expect(DEFAULT_MAX_RESPONSE_BYTES).toBe(64 * 1024 * 1024);
    expect(resolveLimits({ DQ_TIMEOUT: '2.5', DQ_MAX_RESPONSE_MB: '8' })).toEqual({ timeoutMs: 2500, maxResponseBytes: 8 * 1024 * 1024 });
  });

  test.each([['abc'], ['0'], ['-3'], ['1e3'], ['3601'], ['15s']])('DQ_TIMEOUT=%j is a ConfigError naming the variable', (value) => {
    let err: unknown;
    try {
      resolveLimits({ DQ_TIMEOUT: value });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables).toEqual(['DQ_TIMEOUT']);
    expect((err as Error).message).toContain(`DQ_TIMEOUT "${value}" is not a number of seconds`);
  });

  test.each([['513'], ['2048'], ['0'], ['1.5']])('DQ_MAX_RESPONSE_MB=%j is a ConfigError (at most 512: V8 cannot hold a larger string)', (value) => {
    expect(() => resolveLimits({ DQ_MAX_RESPONSE_MB: value })).toThrow(`DQ_MAX_RESPONSE_MB "${value}" is not a whole number of MiB between 1 and 512`);
  });

  test('DQ_MAX_RESPONSE_MB=512 is the largest accepted', () => {
    expect(resolveLimits({ DQ_MAX_RESPONSE_MB: '512' }).maxResponseBytes).toBe(512 * 1024 * 1024);
  });

  test('an invalid DQ_TIMEOUT stops PlatformClient.fromEnv before anything is sent', () => {
    expect(() => PlatformClient.fromEnv({ DQ_CLIENT_ID: 'a', DQ_CLIENT_SECRET: 'b', DQ_BASE_URL: 'http://127.0.0.1:1', DQ_TIMEOUT: 'soon' })).toThrow(/DQ_TIMEOUT "soon"/);
    expect(() => PlatformClient.fromEnv({ DQ_CLIENT_ID: 'a', DQ_CLIENT_SECRET: 'b', DQ_BASE_URL: 'http://127.0.0.1:1', DQ_MAX_RESPONSE_MB: '0' })).toThrow(/DQ_MAX_RESPONSE_MB "0"/);
  });

  test('a server that accepts and never answers fails at the deadline (DQ_TIMEOUT from the environment), not retried', async () => {
    const s = await server(() => undefined); // never answers
    const pc = PlatformClient.fromEnv({ DQ_CLIENT_ID: 'a', DQ_CLIENT_SECRET: 'net-secret-2', DQ_BASE_URL: s.url, DQ_TIMEOUT: '0.4' });
    clients.push(pc.http);
    const started = Date.now();
    const err = await failure(get(pc.http));
    const took = Date.now() - started;
    expect(err).toBeInstanceOf(RequestTimeoutError);
    expect(took).toBeGreaterThanOrEqual(350);
    expect(took).toBeLessThan(3000);
    expect(s.requests.filter((r) => r.startsWith('GET /api/x'))).toHaveLength(1);
    expect(err.message).toContain(`no complete response from ${new URL(s.url).host} within 0.4s (DQ_TIMEOUT=0.4)`);
    expect(err.mayHaveLanded).toBe(true);
  });

  test('a server trickling its body a byte at a time fails at the deadline (undici\'s idle timeout alone never trips)', async () => {
    const timers: NodeJS.Timeout[] = [];
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{');
      timers.push(setInterval(() => res.write(' '), 100));
    });
    try {
      const { c, sleeps } = client(s.url, { timeoutMs: 600 });
      const started = Date.now();
      const err = await failure(get(c));
      expect(err).toBeInstanceOf(RequestTimeoutError);
      expect(Date.now() - started).toBeLessThan(3000);
      expect(sleeps).toEqual([]);
    } finally {
      timers.forEach(clearInterval);
    }
  });
});

describe('response bodies are capped', () => {
  test('a declared length past the cap is refused before reading, naming the server as at fault', async () => {
    const s = await server((_req, res) => {
      // declares 2 GB, sends a little and then holds the connection
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(2 * 1024 ** 3) });
      res.write('{"ok":');
    });
    const { c, sleeps } = client(s.url, { maxResponseBytes: 4096 });
    const err = await failure(get(c));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.retryable).toBe(false);
    expect(sleeps).toEqual([]);
    expect(err.message).toContain(`${new URL(s.url).host} sent a response body larger than`);
    expect(err.message).toContain(`it declared ${2 * 1024 ** 3} bytes`);
    expect(err.message).toContain('the server (or a proxy in between) is at fault');
  });

  test('a streamed (chunked) body is cut off at the cap, never buffered whole', async () => {
    let written = 0;
    const s = await server((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      const pump = () => {
        // at most 64 MiB from the server, far more than the 1 MiB cap of the client
        while (written < 64 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('error', () => undefined);
      pump();
    });
    const { c } = client(s.url, { maxResponseBytes: 1024 * 1024 });
    const err = await failure(get(c));
    expect(err).toBeInstanceOf(ResponseTooLargeError);
    expect(err.message).toContain('larger than 1 MiB');
    expect(written).toBeLessThan(64 * 1024 * 1024);
  });
});

describe('a misbehaving server is named as at fault', () => {
  test('a body cut short (fewer bytes than declared) says the response was truncated by the server', async () => {
    const s = await server((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"ok":tr');
      setTimeout(() => req.socket.destroy(), 20);
    });
    const { c } = client(s.url, { retry: { maxAttempts: 1 } });
    const err = await failure(get(c));
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.message).toContain(`${new URL(s.url).host} sent a truncated response`);
  });

  test('a 2xx body that is not JSON says the server is at fault', async () => {
    const s = await server((_req, res) => res.end('{"ok": tru'));
    const { c } = client(s.url);
    const err = await failure(get(c));
    expect(err.message).toContain('response body is not JSON (truncated or not JSON: the server is at fault)');
  });
});

describe('credentials never cross a proxy in cleartext', () => {
  const proxy = { httpProxy: 'http://proxy.example:3128', httpsProxy: 'http://proxy.example:3129', noProxy: undefined };
  test.each([
    ['https to a remote host: the https proxy', 'https://platform.example', proxy, 'http://proxy.example:3129'],
    ['https to a remote host, only HTTP_PROXY set: tunnelled through it', 'https://platform.example', { httpProxy: 'http://p:1' }, 'http://p:1'],
    ['plain http to a remote host (DQ_ALLOW_INSECURE): never proxied', 'http://platform.example', proxy, undefined],
    ['plain http to loopback: never proxied', 'http://127.0.0.1:8787', proxy, undefined],
    ['https to loopback: never proxied', 'https://localhost:8443', proxy, undefined],
    ['https to [::1]: never proxied', 'https://[::1]:8443', proxy, undefined],
    ['no proxy configured', 'https://platform.example', undefined, undefined],
  ])('%s', (_why, baseUrl, p, expected) => {
    expect(proxyUsed(baseUrl, p)).toBe(expected);
  });

  test('HTTP_PROXY set and a plain-http loopback DQ_BASE_URL: the proxy sees nothing, the call goes direct', async () => {
    const seen: string[] = [];
    const proxyServer = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? ''}`);
      res.writeHead(502);
      res.end();
    });
    proxyServer.on('connect', (req: http.IncomingMessage, sock: net.Socket) => {
      seen.push(`CONNECT ${req.url}`);
      sock.destroy();
    });
    await new Promise<void>((r) => proxyServer.listen(0, '127.0.0.1', r));
    try {
      const s = await server((_req, res) => res.end('{"ok":true}'));
      const proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
      const pc = PlatformClient.fromEnv({ DQ_CLIENT_ID: 'a', DQ_CLIENT_SECRET: 'net-secret-3', DQ_BASE_URL: s.url, HTTP_PROXY: proxyUrl, http_proxy: proxyUrl });
      clients.push(pc.http);
      await expect(get(pc.http)).resolves.toEqual({ ok: true });
      expect(seen).toEqual([]);
      expect(s.requests).toEqual(['POST /oauth2/token', 'GET /api/x']);
    } finally {
      proxyServer.closeAllConnections();
      await new Promise<void>((r) => proxyServer.close(() => r()));
    }
  });

  test('https to a host that is not loopback goes through the proxy (CONNECT, so the proxy sees only TLS)', async () => {
    const seen: string[] = [];
    const proxyServer = http.createServer((req, res) => {
      seen.push(`${req.method} ${req.url}`);
      res.writeHead(502);
      res.end();
    });
    proxyServer.on('connect', (req: http.IncomingMessage, sock: net.Socket) => {
      seen.push(`CONNECT ${req.url}`);
      sock.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
    });
    await new Promise<void>((r) => proxyServer.listen(0, '127.0.0.1', r));
    try {
      const proxyUrl = `http://127.0.0.1:${(proxyServer.address() as AddressInfo).port}`;
      const { c } = client('https://platform.invalid:8443', { proxy: { httpProxy: proxyUrl }, retry: { maxAttempts: 1 } });
      await failure(get(c));
      expect(seen).toEqual(['CONNECT platform.invalid:8443']);
    } finally {
      proxyServer.closeAllConnections();
      await new Promise<void>((r) => proxyServer.close(() => r()));
    }
  });
});
