/**
 * A misbehaving server, as a user meets it through the spawned CLI (issues 21 and 23): a page
 * cursor that repeats, a server that never answers, https:// to a plain-http server. Each is a
 * diagnostic naming the server as at fault or what is likely wrong: exit 1, quickly, never
 * "Internal error ... a bug in dqform", never a stack trace.
 *
 * @gateway
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { alert, dqform, STACK_FRAME, Workspace, type Run } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'faults-S3cret-77a1';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('faults-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

function workspace(ns: string): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, { dq_alert: { a: alert('A') } });
  return w;
}

const cli = (ws: Workspace, args: string[], env: Record<string, string>): Promise<Run> =>
  dqform(args, { cwd: ws.dir, env: { DQ_CLIENT_ID: 'faults-writer', DQ_CLIENT_SECRET: SECRET, ...env }, timeoutMs: 40_000 });

/** A server on 127.0.0.1 port 0; its sockets are destroyed on close. */
async function listen(server: http.Server): Promise<{ url: string; close: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

test('a server that repeats a page cursor: "the platform misbehaved", after a bounded number of requests, not an internal error', async () => {
  const LOOP = 'loop-cursor-1';
  let looped = 0;
  // The emulator behind a reverse proxy that answers every list page with the same next cursor.
  const front = await listen(
    http.createServer((req, res) => {
      if ((req.url ?? '').includes(`pagination.cursor=${LOOP}`)) looped++;
      const up = http.request(`${emu.url}${req.url}`, { method: req.method, headers: { ...req.headers, host: new URL(emu.url).host } }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () => {
          let body = Buffer.concat(chunks).toString('utf8');
          try {
            const json = JSON.parse(body) as Record<string, unknown>;
            if (json && typeof json === 'object' && 'pageInfo' in json) body = JSON.stringify({ ...json, pageInfo: { lastId: LOOP } });
          } catch {
            /* not JSON: passed on as it is */
          }
          const headers = { ...r.headers };
          delete headers['content-length'];
          delete headers['transfer-encoding'];
          res.writeHead(r.statusCode ?? 502, { ...headers, 'content-length': Buffer.byteLength(body) });
          res.end(body);
        });
      });
      up.on('error', () => res.destroy());
      req.pipe(up);
    }),
  );
  try {
    const r = await cli(workspace('faults-loop'), ['plan'], { DQ_BASE_URL: front.url });
    expect(r.code).toBe(1);
    expect(r.err).toContain('Error: the platform misbehaved: the server returned the page cursor "loop-cursor-1" twice');
    expect(r.err).toContain('not a bug in dqform');
    expect(r.err).not.toMatch(/Internal error/);
    expect(r.err).not.toMatch(STACK_FRAME);
    // detected when it repeats: one request with the looping cursor per list, not thousands
    expect(looped).toBeGreaterThan(0);
    expect(looped).toBeLessThan(50);
  } finally {
    await front.close();
  }
});

test('a server that accepts and never answers: exit 1 at DQ_TIMEOUT, naming the deadline', async () => {
  const silent = await listen(http.createServer(() => undefined));
  try {
    const started = Date.now();
    const r = await cli(workspace('faults-silent'), ['plan'], { DQ_BASE_URL: silent.url, DQ_TIMEOUT: '1' });
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(r.code).toBe(1);
    expect(r.err).toContain('within 1s (DQ_TIMEOUT=1)');
    expect(r.err).not.toMatch(/Internal error|retrying/);
    expect(r.err).not.toMatch(STACK_FRAME);
  } finally {
    await silent.close();
  }
});

test('an invalid DQ_TIMEOUT is a configuration error naming the variable', async () => {
  const r = await cli(workspace('faults-badtimeout'), ['plan'], { DQ_BASE_URL: emu.url, DQ_TIMEOUT: 'fast' });
  expect(r.code).toBe(1);
  expect(r.err).toContain('DQ_TIMEOUT "fast" is not a number of seconds');
  expect(r.err).not.toMatch(STACK_FRAME);
});

test('https:// to the plain-http emulator: exit 1 at once, "Is DQ_BASE_URL plain http?", no retry, no OpenSSL text', async () => {
  const started = Date.now();
  const r = await cli(workspace('faults-tls'), ['plan'], { DQ_BASE_URL: emu.url.replace('http://', 'https://') });
  expect(Date.now() - started).toBeLessThan(8_000);
  expect(r.code).toBe(1);
  expect(r.err).toContain('Is DQ_BASE_URL plain http?');
  expect(r.err).not.toMatch(/retrying|SSL routines|ssl3_|wrong version number|Internal error/i);
  expect(r.err).not.toMatch(STACK_FRAME);
});
