/**
 * Emulator state survives restarts through the data file (atomic writes, durable before answering).
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../src/emulator';
import { call, coreRoutes, tokenFor } from './core-helpers';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-emu-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

test('restart keeps every object and etag; versions continue', async () => {
  const dataFile = path.join(dir, 'state', 'emu.json');
  const a = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const t1 = await tokenFor(a.url, 'demo-admin');
  const w = await call(a.url, 'PUT', '/test/v1/things', { token: t1, body: { thing: { id: 'keep', name: 'first' } } });
  const w2 = await call(a.url, 'PUT', '/test/v1/things', { token: t1, body: { thing: { id: 'keep', name: 'second' }, etag: w.body.thing.etag } });
  await call(a.url, 'PUT', '/test/v1/things', { token: t1, body: { thing: { id: 'other', name: 'o' } } });
  // Durable before the response: the file already holds the write.
  expect(fs.readFileSync(dataFile, 'utf8')).toContain('"second"');
  await a.close();
  expect(fs.readdirSync(path.dirname(dataFile))).toEqual(['emu.json']);

  const b = await startEmulator({ port: 0, seed: 'demo', dataFile, discoverRoutes: false, routes: coreRoutes });
  try {
    expect(b.app.seed).toBe('empty'); // the file's seed wins
    const t2 = await tokenFor(b.url, 'demo-admin');
    // Tokens are not persisted: the old one is unknown after a restart.
    expect((await call(b.url, 'GET', '/test/v1/things/keep', { token: t1 })).status).toBe(401);
    const r = await call(b.url, 'GET', '/test/v1/things/keep', { token: t2 });
    expect(r.body.thing).toEqual(w2.body.thing);
    expect(r.body.thing.etag).toBe('W/"keep-2"');
    expect((await call(b.url, 'GET', '/test/v1/things/other', { token: t2 })).status).toBe(200);
    const stale = await call(b.url, 'PUT', '/test/v1/things', { token: t2, body: { thing: { id: 'keep', name: 'x' }, etag: w.body.thing.etag } });
    expect(stale.status).toBe(409);
    const next = await call(b.url, 'PUT', '/test/v1/things', { token: t2, body: { thing: { id: 'keep', name: 'third' }, etag: 'W/"keep-2"' } });
    expect(next.body.thing.etag).toBe('W/"keep-3"');
  } finally {
    await b.close();
  }
});

test('concurrent writes are all durable (coalesced writes)', async () => {
  const dataFile = path.join(dir, 'emu.json');
  const a = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const t = await tokenFor(a.url, 'demo-admin');
  const ids = Array.from({ length: 40 }, (_, i) => `c${String(i).padStart(2, '0')}`);
  const rs = await Promise.all(ids.map((id) => call(a.url, 'PUT', '/test/v1/things', { token: t, body: { thing: { id, name: id } } })));
  expect(rs.every((r) => r.status === 200)).toBe(true);
  // Every acknowledged write is already in the file (no close needed).
  const text = fs.readFileSync(dataFile, 'utf8');
  for (const id of ids) expect(text).toContain(`"${id}"`);
  const writes = a.app.persistence!.stats.writes;
  expect(writes).toBeGreaterThan(0);
  expect(writes).toBeLessThanOrEqual(ids.length);
  console.log(`40 concurrent writes -> ${writes} file writes`);
  await a.close();
});

test('a deleted object stays deleted and its etag is never reused after restart', async () => {
  const dataFile = path.join(dir, 'emu.json');
  const ws = 'demo';
  const a = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const t = await tokenFor(a.url, 'demo-admin');
  await call(a.url, 'PUT', '/test/v1/things', { token: t, body: { thing: { id: 'd', name: 'd' } } });
  // Delete through the store inside a request-less context, then flush explicitly.
  a.app.store.workspace(ws).collection('things').delete('d');
  await a.app.flush();
  await a.close();
  const b = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const t2 = await tokenFor(b.url, 'demo-admin');
  expect((await call(b.url, 'GET', '/test/v1/things/d', { token: t2 })).status).toBe(404);
  const r = await call(b.url, 'PUT', '/test/v1/things', { token: t2, body: { thing: { id: 'd', name: 'again' } } });
  expect(r.body.thing.etag).toBe('W/"d-2"');
  await b.close();
});

test('50,000 objects: write-after-mutation cost and reload (timings printed, not asserted)', async () => {
  const dataFile = path.join(dir, 'big.json');
  const a = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const things = a.app.store.workspace('demo').collection<{ id: string; name: string; tags: string[] }>('things');
  for (let i = 0; i < 50_000; i++) {
    const id = `big-${String(i).padStart(6, '0')}`;
    things.put(id, { id, name: `thing ${i}`, tags: ['alpha', 'beta', `t${i % 17}`] });
  }
  let t0 = performance.now();
  await a.app.flush();
  const first = performance.now() - t0;
  const t = await tokenFor(a.url, 'demo-admin');
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    t0 = performance.now();
    const r = await call(a.url, 'PUT', '/test/v1/things', { token: t, body: { thing: { id: `big-${String(i).padStart(6, '0')}`, name: `changed ${i}` } } });
    expect(r.status).toBe(200);
    times.push(performance.now() - t0);
  }
  const bytes = fs.statSync(dataFile).size;
  await a.close();
  t0 = performance.now();
  const b = await startEmulator({ port: 0, seed: 'empty', dataFile, discoverRoutes: false, routes: coreRoutes });
  const load = performance.now() - t0;
  expect(b.app.store.workspace('demo').collection('things').count).toBe(50_000);
  expect(b.app.store.workspace('demo').collection<{ name: string }>('things').get('big-000003')?.name).toBe('changed 3');
  await b.close();
  console.log(
    `50k objects, ${(bytes / 1e6).toFixed(1)} MB: first full write ${first.toFixed(0)} ms; ` +
      `single-object PUT round trips incl. durable write ${times.map((x) => x.toFixed(0)).join(', ')} ms; reload ${load.toFixed(0)} ms`,
  );
});
