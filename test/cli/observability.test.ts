/**
 * What a user sees of slow and failing HTTP, spawned as a user would against an emulator on
 * port 0: progress for slow writes and retries noted during apply, durations in the apply
 * report, `DQFORM_LOG=debug` tracing every HTTP call to stderr without a token or a secret, and
 * `HTTP_PROXY`/`HTTPS_PROXY` used only for https to another host (never for loopback or plain
 * http), through a small CONNECT/forward proxy started here.
 *
 * @gateway
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { alert, dqform, STACK_FRAME, Workspace, type Run } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'obs-S3cret-5ab1e';
const PROXY_PASSWORD = 'proxy-Pa55-e7c1';
const workspaces: Workspace[] = [];
const runs: Run[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('obs-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});
afterEach(() => emu.app.faults.clear());

function workspace(ns: string, name = 'A'): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, { dq_alert: { a: alert(name) } });
  return w;
}

async function cli(ws: Workspace, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  const r = await dqform(args, { cwd: ws.dir, env: { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'obs-writer', DQ_CLIENT_SECRET: SECRET, ...env }, timeoutMs: 40_000 });
  runs.push(r);
  return r;
}

/** Every access token the emulator has issued so far (to prove none is printed). */
function issuedTokens(): string[] {
  return [...(emu.app.auth as unknown as { tokens: Map<string, unknown> }).tokens.keys()];
}

describe('apply: slow writes, retries and durations', () => {
  it('a slow write reports "still updating ... [Ns elapsed]", a 503 is retried and noted, and the report gives durations', async () => {
    const ws = workspace('obs-slow');
    expect((await cli(ws, ['apply', '--auto-approve'])).code).toBe(0);
    ws.stack('obs-slow', { dq_alert: { a: alert('A renamed') } });
    expect((await cli(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    // Only the update (alerts upsert: PUT) is hit: first a 503, then 3 s of latency on the retry.
    emu.app.faults.set({
      rules: [
        { type: 'unavailable', method: 'PUT', pathPrefix: '/api/', count: 1 },
        { type: 'latency', method: 'PUT', pathPrefix: '/api/', latencyMs: 3000 },
      ],
    });
    const r = await cli(ws, ['apply', 'plan.json'], { DQFORM_PROGRESS_SECONDS: '1' });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/^retrying PUT \/api\/\S+ in \d+\.\ds after HTTP 503 \(attempt 2 of \d+\)$/m);
    expect(r.err).toMatch(/^still updating dq_alert\.a \.\.\. \[\d+s elapsed\]$/m);
    const took = /^ {2}update dq_alert\.a: done in (\d+\.\d)s \[id=[^\]]+\]$/m.exec(r.out);
    expect(took).not.toBeNull();
    // The write took the injected latency at least.
    expect(Number(took![1])).toBeGreaterThanOrEqual(3);
    expect(r.out).toMatch(/^Apply complete: 1 applied, 0 failed, 0 not attempted\. Took \d+\.\ds\.$/m);
  }, 60_000);

  it('DQFORM_PROGRESS_SECONDS must be a number', async () => {
    const ws = workspace('obs-knob');
    const r = await cli(ws, ['apply', '--auto-approve'], { DQFORM_PROGRESS_SECONDS: 'often' });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/DQFORM_PROGRESS_SECONDS must be a number of seconds, got "often"/);
  });
});

describe('DQFORM_LOG=debug', () => {
  it('traces every HTTP call to stderr (method, path, status, duration, request id), never a token or a secret; without it, nothing', async () => {
    const ws = workspace('obs-debug');
    const before = emu.app.requestCounters().total;
    const [debug, quiet] = await Promise.all([cli(ws, ['plan', '--format', 'json'], { DQFORM_LOG: 'debug' }), cli(ws, ['plan', '--format', 'json'])]);
    const served = emu.app.requestCounters().total - before;
    expect(debug.code).toBe(0);
    expect(JSON.parse(debug.out)).toMatchObject({ stack: 'obs-debug' });
    const lines = debug.err.split('\n').filter((l) => l.startsWith('debug: http '));
    for (const l of lines) expect(l).toMatch(/^debug: http (GET|POST|PUT|DELETE) \/\S* -> \d{3} in \d+ms \(request id [0-9a-f-]{36}\)$/);
    expect(lines.some((l) => l.startsWith('debug: http POST /oauth2/token -> 200'))).toBe(true);
    expect(lines.some((l) => l.startsWith('debug: http GET /api/iam/v1 -> 200'))).toBe(true);
    // Both runs made the same calls; the emulator served them all, each traced once.
    expect(lines.length * 2).toBe(served);
    expect(quiet.err).not.toMatch(/debug:/);
    const tokens = issuedTokens();
    expect(tokens.length).toBeGreaterThan(0);
    for (const t of tokens) expect(debug.err).not.toContain(t);
    expect(debug.err).not.toContain(SECRET);
    expect(debug.err).not.toMatch(/Bearer|authorization|client_secret/i);
  });

  it('an unknown level is a warning, not silence', async () => {
    const ws = workspace('obs-level');
    const r = await cli(ws, ['plan'], { DQFORM_LOG: 'verbose' });
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/Warning: DQFORM_LOG="verbose" is not a level dqform knows; use DQFORM_LOG=debug/);
  });
});

/** A minimal HTTP proxy: CONNECT tunnels and absolute-form forwarding; records what it was asked. */
async function startProxy(): Promise<{ url: string; seen: { method: string; target: string; auth?: string }[]; close: () => Promise<void> }> {
  const seen: { method: string; target: string; auth?: string }[] = [];
  const sockets = new Set<net.Socket>();
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', target: req.url ?? '', auth: req.headers['proxy-authorization'] as string | undefined });
    const target = new URL(req.url ?? '');
    const headers = { ...req.headers };
    delete headers['proxy-authorization'];
    const up = http.request({ host: target.hostname, port: target.port, path: target.pathname + target.search, method: req.method, headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    seen.push({ method: 'CONNECT', target: req.url ?? '', auth: req.headers['proxy-authorization'] as string | undefined });
    const [host, port] = (req.url ?? '').split(':');
    if (host !== '127.0.0.1') {
      // this machine only: no test traffic leaves it
      client.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
      return;
    }
    const up = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      up.write(head);
      up.pipe(client);
      client.pipe(up);
    });
    for (const s of [up, client]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', res));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((res) => {
        for (const s of sockets) s.destroy();
        server.close(() => res());
      }),
  };
}

describe('proxies', () => {
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  beforeAll(async () => {
    proxy = await startProxy();
  });
  afterAll(() => proxy.close());
  beforeEach(() => {
    proxy.seen.length = 0;
  });

  it('HTTP_PROXY with a plain-http loopback DQ_BASE_URL: nothing goes through the proxy (the secret would cross it in cleartext); the password is never printed', async () => {
    const ws = workspace('obs-proxy');
    const withAuth = proxy.url.replace('http://', `http://dq-user:${PROXY_PASSWORD}@`);
    const [upper, lower] = await Promise.all([
      cli(ws, ['plan', '--detailed-exitcode'], { HTTP_PROXY: withAuth, HTTPS_PROXY: withAuth, DQFORM_LOG: 'debug' }),
      cli(ws, ['plan', '--detailed-exitcode'], { http_proxy: withAuth, https_proxy: withAuth }),
    ]);
    for (const r of [upper, lower]) {
      expect(r.code).toBe(2);
      expect(r.out).toMatch(/Plan: 1 to add/);
      expect(r.out + r.err).not.toContain(PROXY_PASSWORD);
    }
    expect(proxy.seen).toEqual([]);
  });

  it('https to a host that is not this machine goes through HTTPS_PROXY (a CONNECT tunnel): a proxy that is down or malformed is exit 1 with a diagnostic naming the problem, not the password', async () => {
    const ws = workspace('obs-baddy');
    const remote = { DQ_BASE_URL: 'https://platform.invalid' };
    const [tunnelled, down, malformed] = await Promise.all([
      cli(ws, ['plan'], { ...remote, HTTPS_PROXY: proxy.url }),
      cli(ws, ['plan'], { ...remote, HTTP_PROXY: `http://u:${PROXY_PASSWORD}@127.0.0.1:9` }),
      cli(ws, ['plan'], { HTTPS_PROXY: 'not a url' }),
    ]);
    expect(tunnelled.code).toBe(1);
    expect(proxy.seen.map((x) => `${x.method} ${x.target}`)).toContain('CONNECT platform.invalid:443');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/ECONNREFUSED|connection failed|proxy/i);
    expect(malformed.code).toBe(1);
    expect(malformed.err).toMatch(/HTTPS_PROXY is not an http\(s\) URL/);
    for (const r of [tunnelled, down, malformed]) {
      expect(r.err).not.toMatch(STACK_FRAME);
      expect(r.out + r.err).not.toContain(PROXY_PASSWORD);
    }
  });
});

it('no run printed the client secret', () => {
  expect(runs.length).toBeGreaterThan(8);
  for (const r of runs) expect(r.out + r.err).not.toContain(SECRET);
});
