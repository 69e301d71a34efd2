/**
 * `dqform emulator --port 0` as a child process: prints the URL it listens on, serves the API,
 * and stops with exit 0 on SIGTERM.
 *
 * @gateway
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as path from 'node:path';
import { baseEnv, LAUNCHER, ROOT, STACK_FRAME } from './helpers';

const TSX_CLI = path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs');

interface Started {
  child: ChildProcess;
  url: string | undefined;
  out: () => string;
  err: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Spawns the emulator and resolves once it printed its banner (with the URL), or exited, or 15 s passed. */
function startChild(argv: string[]): Promise<Started> {
  const child = spawn(process.execPath, argv, { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
  return new Promise((resolve) => {
    const done = (url: string | undefined) => {
      clearTimeout(timer);
      resolve({ child, url, out: () => out, err: () => err, exited });
    };
    const timer = setTimeout(() => done(undefined), 15_000);
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      // The banner ends with the stop hint: wait for all of it.
      if (m && out.includes('Press Ctrl-C to stop.')) done(m[1]);
    });
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    void exited.then(() => done(undefined));
  });
}

async function stop(s: Started): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGTERM');
  return s.exited;
}

async function expectServes(url: string): Promise<void> {
  const res = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'client_credentials', client_id: 'demo-reader', client_secret: 'demo-secret' }).toString(),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { access_token?: string };
  expect(typeof body.access_token).toBe('string');
}

it('dqform emulator --port 0 prints its URL, serves tokens, and stops on SIGTERM with exit 0', async () => {
  // tsx's own launcher (ESM and CJS hooks), as `npx tsx bin/dqform.js` or a developer would run it.
  const s = await startChild([TSX_CLI, LAUNCHER, 'emulator', '--port', '0', '--seed', 'empty']);
  try {
    expect(s.err()).toBe('');
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.out()).toMatch(/DQ_BASE_URL=http:\/\/127\.0\.0\.1:\d+/);
    await expectServes(s.url!);
  } finally {
    const exit = await stop(s);
    expect(exit).toEqual({ code: 0, signal: null });
  }
  expect(s.out()).toMatch(/stopping\.\.\.\nstopped\n?$/);
});

// On a checkout without dist/, `node bin/dqform.js emulator` runs the sources through tsx's
// CommonJS hook; the emulator must load through require (a regression test for an ESM import).
it('dqform emulator runs through bin/dqform.js on a fresh clone (no dist/): prints its URL', async () => {
  const s = await startChild([LAUNCHER, 'emulator', '--port', '0', '--seed', 'empty']);
  try {
    expect(s.err()).not.toMatch(/Internal error/);
    expect(s.err()).not.toMatch(STACK_FRAME);
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  } finally {
    await stop(s);
  }
});

// Issue 12: a web page the user opens could POST to the emulator's admin endpoints (the browser
// is on loopback too). Against `dqform emulator --data FILE`, as a user runs it: a reset with an
// Origin header or a text/plain body (a "simple" cross-site request) is 403 and the file keeps
// its content; the same reset as a tool sends it (JSON, no Origin) still works.
it('dqform emulator --data FILE: a reset a web page could send is refused (403) and the data file keeps its content', async () => {
  const fs = await import('node:fs');
  const os = await import('node:os');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-emu-admin-'));
  const data = path.join(dir, 'state.json');
  const s = await startChild([LAUNCHER, 'emulator', '--port', '0', '--no-grpc', '--seed', 'demo', '--data', data]);
  try {
    expect(s.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    // a write makes the seeded workspace durable in the data file
    const token = ((await (await fetch(`${s.url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=demo-admin&client_secret=demo-secret' })).json()) as { access_token: string }).access_token;
    const put = await fetch(`${s.url}/api/owners/v1`, { method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ id: '0e0e0e0e-0000-4000-8000-000000000001', title: 'Kept' }) });
    expect(put.status).toBe(200);
    const before = fs.readFileSync(data, 'utf8');
    expect(before).toContain('Kept');

    const page: Record<string, string>[] = [
      { origin: 'http://evil.example', 'content-type': 'application/json' },
      { 'content-type': 'text/plain' },
      { origin: 'null', 'content-type': 'text/plain' },
    ];
    for (const headers of page) {
      const r = await fetch(`${s.url}/__emulator/reset`, { method: 'POST', headers, body: '{}' });
      expect([headers, r.status]).toEqual([headers, 403]);
    }
    expect(fs.readFileSync(data, 'utf8')).toBe(before);

    const tool = await fetch(`${s.url}/__emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(tool.status).toBe(200);
  } finally {
    const exit = await stop(s);
    expect(exit).toEqual({ code: 0, signal: null });
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
