/**
 * Fault injection over real HTTP: 429 + Retry-After, 503, dropped connections (before handling
 * and after the write: `dropAfter`), latency, slow bodies, requests held until the client gives up.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { FaultRule } from '../../schemas/model/emulator';
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

/** Polls the emulator's request counters until `pred` holds (an emulator-side signal, no fixed sleep). */
async function until(pred: (c: { inFlight: number }) => boolean, timeoutMs = 10_000): Promise<{ inFlight: number }> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const c = (await call(emu.url, 'GET', '/__emulator/requests')).body as { inFlight: number };
    if (pred(c) || Date.now() > end) return c;
    await new Promise((r) => setImmediate(r));
  }
}

test('a client gone during a latency fault ends its request: nothing waits forever for its body, nothing is written', async () => {
  await setFaults({ rules: [{ type: 'latency', latencyMs: 300, method: 'PUT', count: 1 }] });
  const body = JSON.stringify({ thing: { id: 'never', name: 'n' } });
  const u = new URL(emu.url);
  const req = http.request({ host: u.hostname, port: u.port, method: 'PUT', path: '/test/v1/things', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
  req.on('error', () => undefined);
  req.end(body);
  expect((await until((c) => c.inFlight === 1)).inFlight).toBe(1);
  req.destroy(); // the client dies while the server sleeps
  expect((await until((c) => c.inFlight === 0)).inFlight).toBe(0);
  expect((await call(emu.url, 'GET', '/test/v1/things/never', { token })).status).toBe(404);
});

test('hold: the request is never answered, counts as in flight until its client gives up, then ends', async () => {
  await setFaults({ rules: [{ type: 'hold', count: 1 }] });
  const ac = new AbortController();
  const held = fetch(`${emu.url}/api/iam/v1`, { headers: { authorization: `Bearer ${token}` }, signal: ac.signal });
  expect((await until((c) => c.inFlight === 1)).inFlight).toBe(1);
  ac.abort();
  await expect(held).rejects.toThrow();
  expect((await until((c) => c.inFlight === 0)).inFlight).toBe(0);
  expect((await call(emu.url, 'GET', '/__emulator/faults')).body.hits).toEqual({ hold: 1 });
  expect((await iam()).status).toBe(200);
});

test('hold: latencyMs caps the hold, then the connection is dropped', async () => {
  await setFaults({ rules: [{ type: 'hold', latencyMs: 50, count: 1 }] });
  await expect(fetch(`${emu.url}/api/iam/v1`, { headers: { authorization: `Bearer ${token}` } })).rejects.toThrow();
  expect((await call(emu.url, 'GET', '/__emulator/requests')).body.inFlight).toBe(0);
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

/** A PUT of a test thing over a fresh fetch: resolves to the response, rejects on a dropped connection. */
const putThing = (url: string, tok: string, thing: { id: string; name: string }, etag?: string) =>
  fetch(`${url}/test/v1/things`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${tok}`, 'content-type': 'application/json' },
    body: JSON.stringify({ thing, etag }),
  });

/** Awaits a request that must fail with a connection closed by the server (no response). */
async function expectDropped(p: Promise<Response>): Promise<void> {
  const err = await p.then(
    (r) => new Error(`expected a dropped connection, got HTTP ${r.status}`),
    (e: unknown) => e as Error & { cause?: { code?: string } },
  );
  expect((err as Error & { cause?: { code?: string } }).cause?.code).toBe('UND_ERR_SOCKET');
}

describe('dropAfter: the write is done, then the connection is dropped', () => {
  test('the client sees a dropped connection, the write took effect, a retry with the same etag is ABORTED', async () => {
    const first = await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da1', name: 'before' } } });
    expect(first.status).toBe(200);
    const etag: string = first.body.thing.etag;
    await setFaults({ rules: [{ type: 'dropAfter', count: 1, pathPrefix: '/test/v1/things', method: 'PUT' }] });

    await expectDropped(putThing(emu.url, token, { id: 'da1', name: 'after' }, etag));

    // the write took effect: new content, new etag
    const read = await call(emu.url, 'GET', '/test/v1/things/da1', { token });
    expect(read.status).toBe(200);
    expect(read.body.thing.name).toBe('after');
    expect(read.body.thing.etag).not.toBe(etag);
    expect(read.body.thing.etag).toBe('W/"da1-2"');
    // the client's blind retry with the etag it had: 409 ABORTED although its own write landed
    const retry = await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da1', name: 'after' }, etag } });
    expect(retry.status).toBe(409);
    expectStatus(retry.body, 10);
    const d = await call(emu.url, 'GET', '/__emulator/faults');
    expect(d.body.hits).toEqual({ dropAfter: 1 });
    expect(d.body.rules).toEqual([]); // spent
    expect((await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da1', name: 'again' }, etag: read.body.thing.etag } })).status).toBe(200);
  });

  test('reads, failed writes and requests off the filters pass and do not use up count', async () => {
    await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da2', name: 'v1' } } });
    await setFaults({ rules: [{ type: 'dropAfter', count: 1, pathPrefix: '/test/v1/things', method: 'PUT' }] });
    // a read under the prefix (other method) and a read of another path
    expect((await call(emu.url, 'GET', '/test/v1/things/da2', { token })).status).toBe(200);
    expect((await iam()).status).toBe(200);
    // a refused write (stale etag) and an invalid one are answered normally
    const stale = await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da2', name: 'v2' }, etag: 'W/"da2-99"' } });
    expect(stale.status).toBe(409);
    const bad = await call(emu.url, 'PUT', '/test/v1/things', { token, body: { thing: { id: 'da2', name: 'x'.repeat(30) } } });
    expect(bad.status).toBe(400);
    // a write under the prefix with another method (POST batch) is not hit either
    const batch = await call(emu.url, 'POST', '/test/v1/things/batch', { token, body: { things: [{ id: 'da3', name: 'b' }] } });
    expect(batch.status).toBe(200);
    let d = await call(emu.url, 'GET', '/__emulator/faults');
    expect(d.body.hits).toEqual({});
    expect(d.body.rules).toEqual([{ type: 'dropAfter', count: 1, remaining: 1, pathPrefix: '/test/v1/things', method: 'PUT' }]);
    // the first write that changes state is the one dropped
    await expectDropped(putThing(emu.url, token, { id: 'da2', name: 'v2' }));
    expect((await call(emu.url, 'GET', '/test/v1/things/da2', { token })).body.thing.name).toBe('v2');
    d = await call(emu.url, 'GET', '/__emulator/faults');
    expect(d.body.hits).toEqual({ dropAfter: 1 });
  });

  test('a drop rule firing on the same request wins: nothing is written and dropAfter stays armed', async () => {
    await setFaults({ rules: [{ type: 'dropAfter', count: 1 }, { type: 'drop', count: 1, method: 'PUT' }] });
    await expectDropped(putThing(emu.url, token, { id: 'da4', name: 'never' }));
    expect((await call(emu.url, 'GET', '/test/v1/things/da4', { token })).status).toBe(404);
    const d = await call(emu.url, 'GET', '/__emulator/faults');
    expect(d.body.hits).toEqual({ drop: 1 });
    expect(d.body.rules[0]).toEqual({ type: 'dropAfter', count: 1, remaining: 1 });
  });

  test('with a data file, the dropped write is durable: it survives a restart', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-emu-da-'));
    const dataFile = path.join(dir, 'emu.json');
    try {
      const a = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes, faults: { rules: [{ type: 'dropAfter', count: 1, method: 'PUT' }] } });
      try {
        const t = await tokenFor(a.url, 'demo-admin');
        await expectDropped(putThing(a.url, t, { id: 'durable', name: 'persisted' }));
        expect(fs.readFileSync(dataFile, 'utf8')).toContain('"persisted"');
      } finally {
        await a.close();
      }
      const b = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
      try {
        const t = await tokenFor(b.url, 'demo-admin');
        const r = await call(b.url, 'GET', '/test/v1/things/durable', { token: t });
        expect(r.status).toBe(200);
        expect(r.body.thing).toEqual({ id: 'durable', name: 'persisted', etag: 'W/"durable-1"' });
      } finally {
        await b.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  test('injector: a dropAfter is claimed once per count, even by concurrent requests; a cleared rule is not claimed', async () => {
    expect(FaultRule.parse({ type: 'dropAfter', count: 2, pathPrefix: '/api/', method: 'POST', rate: 0.5 }).type).toBe('dropAfter');
    const f = new FaultInjector();
    f.set({ rules: [{ type: 'dropAfter', count: 1 }] });
    const a = (await f.apply('POST', '/x')) as FaultOutcome & { kind: 'pass' };
    const b = (await f.apply('POST', '/x')) as FaultOutcome & { kind: 'pass' };
    expect(a.kind).toBe('pass');
    expect(typeof a.dropAfter).toBe('function');
    expect(typeof b.dropAfter).toBe('function');
    expect(a.dropAfter!()).toBe(true);
    expect(b.dropAfter!()).toBe(false); // the count was used up by the first
    expect(f.describe()).toEqual({ rules: [], hits: { dropAfter: 1 } });
    expect((await f.apply('POST', '/x')).kind).toBe('pass');

    f.set({ rules: [{ type: 'dropAfter' }] });
    const c = (await f.apply('POST', '/x')) as FaultOutcome & { kind: 'pass' };
    f.clear();
    expect(c.dropAfter!()).toBe(false);
  });
});
