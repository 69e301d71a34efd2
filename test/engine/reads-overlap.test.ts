/**
 * Issue 27: plan begins the live reads that need nothing of the code (the handlers' `startRead`:
 * the workspace-wide lists) before it resolves the code, so their network time overlaps the
 * resolution. What it reads, the requests it makes and the plan stay the same; a bad manifest
 * is reported before any failure of a read begun early, and such a read, left unused, leaves no
 * unhandled rejection.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { desiredOf, plan, readLiveState, type DesiredState } from '../../src/engine/reconcile';
import { resolveManifest, type Resolution } from '../../src/engine/resolve';
import { carriesTag, bareId } from '../../src/engine/identity';
import { HANDLERS } from '../../src/kinds/index';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import type { ResourceHandler } from '../../src/kinds/shared/types';
import { bulkDoc } from './fixtures/bulk';

let emu: RunningEmulator;
let client: PlatformClient;
const connect = (retry = {}) => PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000, ...retry } });

const NS = 'overlap';
const DOC = bulkDoc(NS, { sqlTests: 12, owners: 6, domains: 4, dataProducts: 4, ownerships: 8, alerts: 5, monitorRules: 3 });
const manifest = () => manifestFromTerraformJson(DOC, { stack: NS });

beforeAll(async () => {
  // the demo seed: objects of every kind outside the namespace (integrations, categorisation rules, saved views, ...)
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = connect();
  const first = await plan(client, manifest());
  expect(first.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const r = await apply(client, first);
  expect(r.failed).toEqual([]);
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function routes(): Promise<Record<string, number>> {
  return ((await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> }).routes;
}
const resetRequests = () => fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
/** The handlers as they were before issue 27: no read is begun before the code is resolved. */
const withoutStart = Object.fromEntries(RESOURCE_TYPES.map((t) => [t, { ...HANDLERS[t], startRead: undefined }])) as Record<ResourceType, ResourceHandler>;

test('every kind that begins its read early ends it with what read answers, making the same requests', async () => {
  const resolution = resolveManifest(manifest(), 'demo');
  const started = RESOURCE_TYPES.filter((t) => HANDLERS[t].startRead);
  // every kind whose read lists the workspace begins it early; ownerships wait for the owners
  expect(started).toEqual(RESOURCE_TYPES.filter((t) => t !== 'dq_ownership'));
  for (const type of started) {
    const keys = resolution.resources.filter((r) => r.type === type).map((r) => r.importedId ?? r.id);
    const q = {
      workspace: 'demo',
      namespace: NS,
      keys: [...keys].sort(),
      desired: resolution.resources.filter((r) => r.type === type).map((r) => r.desired),
      declaredIds: new Set(resolution.resources.map((r) => String(bareId(r.id)).toLowerCase())),
      owns: (id: string) => carriesTag(id, 'demo', NS),
    };
    await resetRequests();
    const read = await HANDLERS[type].read(client, q);
    const readRoutes = await routes();
    await resetRequests();
    const begun = await HANDLERS[type].startRead!(client, { workspace: 'demo', namespace: NS }).end(q);
    expect([type, begun]).toEqual([type, read]);
    expect([type, await routes()]).toEqual([type, readRoutes]);
  }
});

test('a plan with its reads begun early is the plan without, with the same requests', async () => {
  await resetRequests();
  const early = await plan(client, manifest());
  const earlyRoutes = await routes();
  await resetRequests();
  const late = await plan(client, manifest(), { handlers: withoutStart });
  expect(await routes()).toEqual(earlyRoutes);
  expect(JSON.stringify(early)).toBe(JSON.stringify(late));
  expect(early.summary.unchanged).toBe(Object.values(DOC.resource as Record<string, object>).reduce((n, o) => n + Object.keys(o).length, 0));
});

/** A desired state whose resolution waits until the emulator has seen `until` requests (or 5 s), then answers `answer`. */
function waitingDesired(until: (r: Record<string, number>) => boolean, answer: (workspace: string) => Resolution): DesiredState & { sawReads: () => boolean } {
  const inner = desiredOf(manifest());
  let saw = false;
  return {
    ...inner,
    sawReads: () => saw,
    resolve: () => {
      throw new Error('plan resolved without giving its reads a turn');
    },
    async resolveInTurns(workspace) {
      const t0 = Date.now();
      while (!saw && Date.now() - t0 < 5000) {
        saw = until(await routes());
        if (!saw) await new Promise((r) => setTimeout(r, 10));
      }
      return answer(workspace);
    },
  };
}

const LISTS = ['GET /api/owners/v1', 'GET /api/domains/v2', 'GET /api/dataproducts/v2', 'GET /api/datachecks/sqltests/v1', 'POST /api/alerts/v2/list'];

test('the lists are sent while the code is being resolved', async () => {
  await resetRequests();
  const d = waitingDesired((r) => LISTS.every((l) => (r[l] ?? 0) > 0), (w) => resolveManifest(manifest(), w));
  const p = await plan(client, d);
  expect(d.sawReads()).toBe(true);
  expect(p.diagnostics).toEqual([]);
  expect(p.summary.add + p.summary.change + p.summary.destroy).toBe(0);
});

describe('a bad manifest and a failing read', () => {
  let unhandled: unknown[];
  const onUnhandled = (e: unknown) => unhandled.push(e);
  beforeEach(() => {
    unhandled = [];
    process.on('unhandledRejection', onUnhandled);
  });
  afterEach(async () => {
    process.off('unhandledRejection', onUnhandled);
    await fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' });
  });

  const failOwners = () =>
    fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [{ type: 'unavailable', path: '/api/owners/v1', method: 'GET' }] }) });
  const withError = (w: string): Resolution => {
    const r = resolveManifest(manifest(), w);
    r.diagnostics.push({ severity: 'error', summary: 'dq_owner.o0000: a problem of the code' });
    return r;
  };

  test('the resolution errors are the plan, not the failure of the list begun before them; nothing is left unhandled', async () => {
    await failOwners();
    await resetRequests();
    const once = connect({ maxAttempts: 1 });
    try {
      // the owners' list has failed before the resolution ends
      const d = waitingDesired((r) => (r['GET /api/owners/v1'] ?? 0) > 0, withError);
      const p = await plan(once, d);
      expect(d.sawReads()).toBe(true);
      expect(p.diagnostics.map((x) => x.summary)).toEqual(['dq_owner.o0000: a problem of the code']);
      // the plan of those errors, as a plan that reads nothing before resolving makes it
      const late = await plan(once, { ...desiredOf(manifest()), resolve: withError, resolveInTurns: undefined }, { handlers: withoutStart });
      expect(JSON.stringify(p)).toBe(JSON.stringify(late));
      await new Promise((r) => setTimeout(r, 50));
      expect(unhandled).toEqual([]);
    } finally {
      await once.close();
    }
  });

  test('a plan of code with errors returns once the reads it began have ended: none outlives it', async () => {
    await resetRequests();
    // the errors are known at once: the reads begun have barely started
    const p = await plan(client, { ...desiredOf(manifest()), resolveInTurns: async (w) => withError(w) });
    expect(p.diagnostics.map((x) => x.summary)).toEqual(['dq_owner.o0000: a problem of the code']);
    const at = await routes();
    // every read begun went to its end (the alerts' batch gets follow their list)
    expect(at['POST /api/alerts/v2/get']).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 100));
    expect(await routes()).toEqual(at);
  });

  test('code without errors: the failure of a list begun early is the plan failure, as it was', async () => {
    await failOwners();
    const once = connect({ maxAttempts: 1 });
    try {
      const failure = (e: Error) => e.message.replace(/request id [0-9a-f-]+/, 'request id X');
      const early = await plan(once, manifest()).catch(failure);
      const late = await plan(once, manifest(), { handlers: withoutStart }).catch(failure);
      expect(typeof early).toBe('string');
      expect(early).toBe(late);
      expect(String(early)).toMatch(/503|unavailable/i);
      expect(unhandled).toEqual([]);
    } finally {
      await once.close();
    }
  });

  test('readLiveState without reads begun early reads as before', async () => {
    const r = resolveManifest(manifest(), 'demo');
    const live = await readLiveState(client, r, HANDLERS);
    expect(live.dq_owner?.filter((o) => !o.context).length).toBe(6);
  });
});
