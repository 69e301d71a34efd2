/**
 * Issue 27: when the desired state is resolved elsewhere (`resolveAsync`: the cold path on a
 * worker thread, src/cli/resolve-worker.ts), plan reads what needs nothing of it meanwhile (the
 * reads of a namespace declaring nothing) through {@link sharedCalls}, then reads for real: the
 * requests are those of a plan that resolves first, and so is the plan, unchanged or changed.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { desiredOf, plan, sharedCalls, type DesiredState } from '../../src/engine/reconcile';
import { resolveManifest } from '../../src/engine/resolve';
import { bulkDoc } from './fixtures/bulk';

let emu: RunningEmulator;
let client: PlatformClient;
const connect = () => PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });

const NS = 'elsewhere';
const SIZES = { sqlTests: 12, owners: 6, domains: 4, dataProducts: 4, ownerships: 8, alerts: 5, monitorRules: 3 };
const manifest = (version = 1) => manifestFromTerraformJson(bulkDoc(NS, SIZES, version), { stack: NS });

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = connect();
  const first = await plan(client, manifest());
  expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  expect((await apply(client, first)).failed).toEqual([]);
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function routes(): Promise<Record<string, number>> {
  return ((await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> }).routes;
}
const resetRequests = () => fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });

/** The manifest's desired state, resolved "elsewhere": once the emulator has seen the owners' list (or after 5 s). */
function elsewhere(version: number): DesiredState & { sawReads: () => boolean } {
  const inner = desiredOf(manifest(version));
  let saw = false;
  return {
    ...inner,
    sawReads: () => saw,
    resolve: () => {
      throw new Error('plan resolved on its own thread');
    },
    async resolveAsync(workspace) {
      const t0 = Date.now();
      while (!saw && Date.now() - t0 < 5000) {
        saw = ((await routes())['GET /api/owners/v1'] ?? 0) > 0;
        if (!saw) await new Promise((r) => setTimeout(r, 10));
      }
      return resolveManifest(manifest(version), workspace);
    },
  };
}

test.each([1, 2])('a plan resolved elsewhere (version %i) reads meanwhile: the same requests and the same plan', async (version) => {
  await resetRequests();
  const d = elsewhere(version);
  const early = await plan(client, d);
  const earlyRoutes = await routes();
  expect(d.sawReads()).toBe(true);
  await resetRequests();
  const late = await plan(client, manifest(version));
  expect(earlyRoutes).toEqual(await routes());
  expect(JSON.stringify(early)).toBe(JSON.stringify(late));
  if (version === 2) expect(early.summary.change).toBeGreaterThan(0);
});

test('sharedCalls: a call the other view made is answered by its promise, once', async () => {
  await resetRequests();
  const [a, b] = sharedCalls(client);
  const first = a.owners.listOwners(100);
  const second = b.owners.listOwners(100);
  expect(second).toBe(first);
  // a third call of the same is a new request (each view's calls are taken once)
  await b.owners.listOwners(100);
  expect((await routes())['GET /api/owners/v1']).toBe(2);
});

test('sharedCalls: calls whose arguments are not plain JSON are never shared', () => {
  const calls: unknown[][] = [];
  const fake = { svc: { get: (...a: unknown[]) => (calls.push(a), Promise.resolve(calls.length)) } } as unknown as PlatformClient;
  const [a, b] = sharedCalls(fake);
  const svc = (c: PlatformClient) => (c as unknown as { svc: { get: (...a: unknown[]) => Promise<number> } }).svc;
  const first = svc(a).get(new Set(['x']));
  // a Set is {} as JSON: shared, it would answer another Set's call
  expect(svc(b).get(new Set(['y']))).not.toBe(first);
  expect(svc(b).get({ ids: ['x'] })).not.toBe(svc(a).get({ ids: ['y'] }));
  expect(calls).toHaveLength(4);
});
