/** Fault injection over real HTTP: 429 + Retry-After, 503, dropped connections, latency, slow bodies. */
import { FaultInjector, type FaultOutcome } from '../../src/emulator/faults';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { call, coreRoutes, expectStatus, tokenFor } from './core-helpers';

let emu: RunningEmulator;
let token: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty', discoverRoutes: false, routes: coreRoutes });
  token = await tokenFor(emu.url, 'demo-admin');
});
afterEach(async () => {
  await call(emu.url, 'DELETE', '/__emulator/faults');
});
afterAll(() => emu.close());

const iam = () => call(emu.url, 'GET', '/api/iam/v1', { token });
const setFaults = async (cfg: unknown) => {
  const r = await call(emu.url, 'POST', '/__emulator/faults', { body: cfg });
  expect(r.status).toBe(200);
  return r.body;
};

test('429 with Retry-After for the next N requests, then normal again', async () => {
  await setFaults({ rules: [{ type: 'rateLimit', count: 2, retryAfterSeconds: 3 }] });
  for (let i = 0; i < 2; i++) {
    const r = await iam();
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('3');
    const s = expectStatus(r.body, 8);
    expect(s.details).toEqual([{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '3s' }]);
    expect(r.headers.get('x-request-id')).toBeTruthy();
  }
  expect((await iam()).status).toBe(200);
});

test('503 UNAVAILABLE at rate 1', async () => {
  await setFaults({ rules: [{ type: 'unavailable', rate: 1 }] });
  for (let i = 0; i < 3; i++) {
    const r = await iam();
    expect(r.status).toBe(503);
    expectStatus(r.body, 14);
  }
});

test('dropped connection: the socket closes without a response', async () => {
  await setFaults({ rules: [{ type: 'drop', count: 1 }] });
  await expect(fetch(`${emu.url}/api/iam/v1`, { headers: { authorization: `Bearer ${token}` } })).rejects.toThrow();
  expect((await iam()).status).toBe(200);
});

test('latency delays the response; hits are counted', async () => {
  await setFaults({ rules: [{ type: 'latency', latencyMs: 200, count: 1 }] });
  const t0 = performance.now();
  expect((await iam()).status).toBe(200);
  expect(performance.now() - t0).toBeGreaterThanOrEqual(190);
  const d = await call(emu.url, 'GET', '/__emulator/faults');
  expect(d.body.hits).toEqual({ latency: 1 });
});

test('slow response still delivers the whole body', async () => {
  await setFaults({ rules: [{ type: 'slow', latencyMs: 50 }] });
  const r = await iam();
  expect(r.status).toBe(200);
  expect(r.body.workspace).toBe('demo');
});

test('path prefix and method restrict a rule; token and admin endpoints are never faulted', async () => {
  await setFaults({ rules: [{ type: 'unavailable', pathPrefix: '/api/iam', method: 'GET' }, { type: 'unavailable', pathPrefix: '/oauth2' }] });
  expect((await iam()).status).toBe(503);
  expect((await call(emu.url, 'POST', '/api/iam/v1', { token })).status).toBe(404); // other method: not faulted
  expect(await tokenFor(emu.url, 'demo-reader')).toMatch(/\./);
  await setFaults({ rules: [{ type: 'drop' }] });
  expect((await call(emu.url, 'GET', '/__emulator/requests')).status).toBe(200);
});

test('a bad fault config is refused with violations', async () => {
  const r = await call(emu.url, 'POST', '/__emulator/faults', { body: { rules: [{ type: 'explode', rate: 2 }] } });
  expect(r.status).toBe(400);
  const s = expectStatus(r.body, 3);
  expect(s.details[0].violations?.map((v) => v.field)).toEqual(['rules[0].type', 'rules[0].rate']);
});

test('faults from startEmulator options', async () => {
  const e = await startEmulator({ port: 0, seed: 'empty', discoverRoutes: false, routes: coreRoutes, faults: { rules: [{ type: 'unavailable', count: 1 }] } });
  try {
    const t = await tokenFor(e.url, 'demo-admin');
    expect((await call(e.url, 'GET', '/api/iam/v1', { token: t })).status).toBe(503);
    expect((await call(e.url, 'GET', '/api/iam/v1', { token: t })).status).toBe(200);
  } finally {
    await e.close();
  }
});

test('a rate draws from a seeded PRNG: same seed, same sequence', async () => {
  const run = async (seed: number) => {
    const f = new FaultInjector();
    f.set({ seed, rules: [{ type: 'unavailable', rate: 0.5 }] });
    const out: string[] = [];
    for (let i = 0; i < 40; i++) out.push(((await f.apply('GET', '/x')) as FaultOutcome).kind);
    return out;
  };
  const a = await run(42);
  expect(await run(42)).toEqual(a);
  expect(a).toContain('error');
  expect(a).toContain('pass');
  expect(await run(7)).not.toEqual(a);
});
