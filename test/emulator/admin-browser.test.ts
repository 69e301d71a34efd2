/**
 * The emulator's admin endpoints refuse what a web page in the user's browser could send
 * (issue 12: `POST /__emulator/reset` with an `Origin` header and a `text/plain` body wiped the
 * `--data` file). The browser is on loopback too, so "loopback only" is not enough: a request
 * with an `Origin` header, or a body / content type other than JSON, is 403 and changes nothing.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { browserRequestProblem } from '../../src/emulator/admin';

let emu: RunningEmulator;
let dir: string;
let dataFile: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-admin-'));
  dataFile = path.join(dir, 'state.json');
  emu = await startEmulator({ port: 0, seed: 'demo', dataFile });
  // a write through the API puts the (seeded) demo workspace in the data file: the state a page must not wipe
  const c = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  await c.owners.upsertOwner({ id: '0f0f0f0f-0000-4000-8000-000000000001', title: 'Kept' });
  await c.close();
  expect(fs.readFileSync(dataFile, 'utf8')).toContain('ui.orders-freshness');
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Sends one raw request (full control of the headers, as a browser would set them). */
function send(method: string, p: string, headers: Record<string, string>, body?: string): Promise<{ status: number; body: string }> {
  const u = new URL(emu.url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: u.hostname, port: u.port, method, path: p, headers: { connection: 'close', ...headers } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d: string) => (text += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const demoAlertExists = () => emu.app.store.workspace('demo').collection('alerts').filter(() => true).length === 1;

describe('requests a web page could send are refused (403) and change nothing', () => {
  const CASES: [string, string, string, Record<string, string>, string | undefined][] = [
    ['a form post (the classic CSRF)', 'POST', '/__emulator/reset', { origin: 'https://evil.example', 'content-type': 'application/x-www-form-urlencoded' }, 'seed=empty'],
    ['fetch with a text/plain body (a "simple" cross-origin request, no preflight)', 'POST', '/__emulator/reset', { origin: 'https://evil.example', 'content-type': 'text/plain;charset=UTF-8' }, '{"seed":"empty"}'],
    ['text/plain without an Origin header (an old browser, or one that strips it)', 'POST', '/__emulator/reset', { 'content-type': 'text/plain' }, '{"seed":"empty"}'],
    ['multipart form data', 'POST', '/__emulator/reset', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['a body without any content type (sendBeacon of a blob)', 'POST', '/__emulator/reset', {}, '{"seed":"empty"}'],
    ['JSON, but with an Origin header (a page that got past CORS would still carry it)', 'POST', '/__emulator/reset', { origin: 'http://localhost:3000', 'content-type': 'application/json' }, '{"seed":"empty"}'],
    ['a bodiless POST from a page (fetch no-cors always sends Origin)', 'POST', '/__emulator/reset', { origin: 'null' }, undefined],
    ['clearing faults from a page', 'DELETE', '/__emulator/faults', { origin: 'https://evil.example' }, undefined],
    ['reading the counters from a page', 'GET', '/__emulator/requests', { origin: 'https://evil.example' }, undefined],
  ];
  it.each(CASES)('%s', async (_why, method, p, headers, body) => {
    const before = fs.readFileSync(dataFile, 'utf8');
    const r = await send(method, p, headers, body);
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body).message).toMatch(/Origin|content-type application\/json/);
    expect(demoAlertExists()).toBe(true);
    expect(fs.readFileSync(dataFile, 'utf8')).toBe(before);
  });
});

describe('what tools send still works', () => {
  it('JSON from a tool (no Origin) resets; a bodiless POST and a GET work', async () => {
    expect((await send('GET', '/__emulator/requests', {})).status).toBe(200);
    expect((await send('POST', '/__emulator/requests/reset', {})).status).toBe(200);
    expect((await send('POST', '/__emulator/faults', { 'content-type': 'application/json; charset=utf-8' }, '{"rules":[]}')).status).toBe(200);
    expect(demoAlertExists()).toBe(true);
    const r = await send('POST', '/__emulator/reset', { 'content-type': 'application/json' }, '{"seed":"empty"}');
    expect(r.status).toBe(200);
    expect(demoAlertExists()).toBe(false);
  });
});

describe('browserRequestProblem (unit)', () => {
  it.each<[Record<string, string>, number, RegExp | undefined, string]>([
    [{}, 0, undefined, 'no Origin, no body: a tool'],
    [{ 'content-type': 'application/json' }, 2, undefined, 'JSON'],
    [{ 'content-type': 'Application/JSON; charset=utf-8' }, 2, undefined, 'media type compared case-insensitively, parameters ignored'],
    [{ origin: 'x' }, 0, /Origin/, 'any Origin'],
    [{ 'content-type': 'text/plain' }, 0, /content-type/, 'a non-JSON type even without a body'],
    [{}, 5, /body only with content-type/, 'a body without a type'],
  ])('%j, body %d -> %p (%s)', (headers, len, expected) => {
    const got = browserRequestProblem(headers, len);
    if (expected === undefined) expect(got).toBeUndefined();
    else expect(got).toMatch(expected);
  });
});
