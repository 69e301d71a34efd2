/**
 * The emulator answers only requests addressed to this machine (the Host header: loopback names
 * and addresses, the bound address, DQ_EMULATOR_ALLOWED_HOSTS), so a web page that rebinds its
 * DNS name to 127.0.0.1 cannot use the public demo credentials; and it warns when bound beyond
 * loopback (issue 23).
 *
 * @gateway-exempt asserts the Host check and the bind warning (statuses and log lines), no response body's encoding
 */
import { EventEmitter } from 'node:events';
import * as http from 'node:http';
import { DEMO_ADMIN, DEMO_SECRET, exposureWarning, hostHeaderName, runEmulatorCli, startEmulator, type RunningEmulator } from '../../src/emulator';

let emu: RunningEmulator;
const logs: string[] = [];
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty', grpc: false, allowedHosts: ['emu.internal'], log: (l) => logs.push(l) });
});
afterAll(() => emu.close());

/** A token request with the public demo credentials, sent with the given Host header. */
function tokenWithHost(url: string, host: string | undefined): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  const body = `grant_type=client_credentials&client_id=${DEMO_ADMIN}&client_secret=${DEMO_SECRET}`;
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'content-length': String(Buffer.byteLength(body)), connection: 'close' };
    if (host !== undefined) headers.host = host;
    const req = http.request({ host: u.hostname, port: u.port, method: 'POST', path: '/oauth2/token', headers, setHost: host === undefined ? false : undefined }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

test.each([
  ['127.0.0.1 with its port', (port: string) => `127.0.0.1:${port}`],
  ['localhost', (port: string) => `localhost:${port}`],
  ['LOCALHOST without a port', () => 'LOCALHOST'],
  ['[::1]', (port: string) => `[::1]:${port}`],
  ['another 127/8 address', () => '127.0.0.2'],
  ['a name allowed by the operator', (port: string) => `emu.internal:${port}`],
])('answers a request addressed to %s', async (_why, host) => {
  const r = await tokenWithHost(emu.url, host(String(emu.port)));
  expect(r.status).toBe(200);
  expect(JSON.parse(r.body)).toHaveProperty('access_token');
});

test.each([
  ['a rebinding attacker\'s name', (port: string) => `attacker.example:${port}`],
  ['a *.localhost name (not loopback unless resolved locally)', (port: string) => `app.localhost:${port}`],
  ['a public address', () => '203.0.113.7'],
  ['a malformed Host', () => 'a b'],
])('refuses a request addressed to %s: 403 PERMISSION_DENIED, no token issued', async (_why, host) => {
  const before = logs.length;
  const r = await tokenWithHost(emu.url, host(String(emu.port)));
  expect(r.status).toBe(403);
  const status = JSON.parse(r.body) as { code: number; message: string };
  expect(status.code).toBe(7);
  expect(status.message).toContain('the emulator answers only requests addressed to this machine');
  expect(status.message).toContain('DQ_EMULATOR_ALLOWED_HOSTS');
  expect(r.body).not.toContain('access_token');
  expect(logs.slice(before).join('\n')).toMatch(/refused a request for Host/);
});

test('refuses a request without a Host header', async () => {
  const r = await tokenWithHost(emu.url, undefined);
  expect([400, 403]).toContain(r.status);
  expect(r.body).not.toContain('access_token');
});

test('hostHeaderName takes the name out of name:port and [v6]:port', () => {
  expect(hostHeaderName('Example.COM:8080')).toBe('example.com');
  expect(hostHeaderName('[::1]:99')).toBe('::1');
  expect(hostHeaderName('127.0.0.1')).toBe('127.0.0.1');
  expect(hostHeaderName('a b')).toBeUndefined();
  expect(hostHeaderName(undefined)).toBeUndefined();
});

test('a loopback bind gives no warning; a bind beyond loopback does, naming the address and the risk', () => {
  for (const h of ['127.0.0.1', 'localhost', '::1']) expect(exposureWarning(h)).toBeUndefined();
  expect(exposureWarning('0.0.0.0')).toBe(
    'warning: the emulator is bound to 0.0.0.0, beyond this machine: anyone who can reach it can use the public demo credentials over plain http (bind 127.0.0.1, the default, unless this network is trusted)',
  );
});

test('dqform emulator --host 0.0.0.0 prints the warning on stderr, and still refuses a foreign Host', async () => {
  const out: string[] = [];
  const err: string[] = [];
  const signals = new EventEmitter();
  let running: RunningEmulator | undefined;
  let done: Promise<number> | undefined;
  await new Promise<void>((resolve) => {
    done = runEmulatorCli(['--host', '0.0.0.0', '--port', '0', '--no-grpc', '--seed', 'empty'], {
      out: (l) => out.push(l),
      err: (l) => err.push(l),
      signals,
      onStarted: (e) => {
        running = e;
        resolve();
      },
    });
  });
  try {
    expect(err.join('\n')).toContain('warning: the emulator is bound to 0.0.0.0, beyond this machine');
    const local = running!.url.replace('0.0.0.0', '127.0.0.1');
    expect((await tokenWithHost(local, `127.0.0.1:${running!.port}`)).status).toBe(200);
    expect((await tokenWithHost(local, `attacker.example:${running!.port}`)).status).toBe(403);
  } finally {
    signals.emit('SIGTERM');
    expect(await done).toBe(0);
  }
});

test('the default bind (127.0.0.1) prints no warning', async () => {
  const err: string[] = [];
  const signals = new EventEmitter();
  let done: Promise<number> | undefined;
  await new Promise<void>((resolve) => {
    done = runEmulatorCli(['--port', '0', '--no-grpc', '--seed', 'empty'], { out: () => undefined, err: (l) => err.push(l), signals, onStarted: () => resolve() });
  });
  signals.emit('SIGTERM');
  expect(await done).toBe(0);
  expect(err).toEqual([]);
});
