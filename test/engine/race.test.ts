/**
 * Saved plans against a moving world: a live change after the plan makes apply refuse before its
 * first write (StalePlanError naming the object, no write at all); two applies racing on one
 * object: one wins, the other reports a stale plan or a conflict, and the winner's write stays.
 *
 * @gateway
 */
import { startEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import type { Plan } from '../../schemas/model/plan';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { apply, StalePlanError } from '../../src/engine/applier';
import { loadPlan, writePlan } from '../../src/plan/file';
import { deriveId } from '../../src/engine/identity';
import { bulkDoc } from './fixtures/bulk';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

async function requests(): Promise<Record<string, number>> {
  return ((await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> }).routes;
}
const resetRequests = () => fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
/** A plan as `dqform plan --out` saves it and `dqform apply FILE` reads it back. */
const saved = (p: Plan): Plan => loadPlan(JSON.parse(writePlan(p)));
const manifest = (doc: Record<string, unknown>) => manifestFromTerraformJson(doc, { stack: String((doc.provider as { dq: { namespace: string }[] }).dq[0].namespace) });

/** Routes that only read: the stale check may call these and nothing else. */
const READ_ROUTES = new Set([
  'POST /oauth2/token',
  'GET /api/iam/v1',
  'POST /api/alerts/v2/list',
  'POST /api/alerts/v2/get',
  'POST /api/owners/v1/batch-get',
  'POST /api/owners/v1/ownerships/batch-get',
  'POST /api/domains/v2/batch-get',
  'POST /api/datachecks/sqltests/v1/by-id',
  'POST /api/datachecks/sql-test-deployment-rules/v1/by-id',
  'GET /api/datachecks/sqltests/v1',
  'GET /api/monitors/automated/v1/deployment-rules',
  'GET /api/datachecks/sql-test-deployment-rules/v1',
]);

describe('a saved plan, then a live change, then apply', () => {
  const sizes = { sqlTests: 4, owners: 4, domains: 2, ownerships: 2, alerts: 3, monitorRules: 2 };

  it.each([
    ['an owner (etag)', 'dq_owner.o0002', async (ns: string) => {
      await client.owners.upsertOwner({ id: deriveId('demo', ns, 'dq_owner', 'o0002'), title: 'edited in the UI' });
    }],
    ['a SQL test (no etag: content fingerprint)', 'dq_sql_test.t0001', async (ns: string) => {
      const id = deriveId('demo', ns, 'dq_sql_test', 't0001');
      const t = (await client.sqlTests.list({ configsFilter: { ids: [ns] } })).find((x) => x.id === id)!;
      await client.sqlTests.batchUpsert([{ ...(t as object), name: 'edited in the UI' } as never]);
    }],
  ])('%s: refused naming the object, and no write at all', async (_what, address, tamper) => {
    const ns = `stale-${address.split('.')[0].replace(/_/g, '-')}`;
    const v1 = manifest(bulkDoc(ns, sizes, 1));
    const created = await apply(client, await plan(client, v1));
    expect(created.failed).toEqual([]);

    const v2 = manifest(bulkDoc(ns, sizes, 2));
    const p = saved(await plan(client, v2));
    expect(p.summary.change).toBe(15); // every title/name changes (ownerships have none)
    await tamper(ns);

    await resetRequests();
    const err = await apply(client, p).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as StalePlanError).addresses).toEqual([address]);
    expect((err as Error).message).toContain(`${address}: `);
    const routes = await requests();
    expect(Object.keys(routes).filter((r) => !READ_ROUTES.has(r))).toEqual([]);

    // live state: still v1 everywhere (the tampered object keeps its edit)
    const after = await plan(client, v1);
    const drifted = after.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged').map((c) => c.address);
    expect(drifted).toEqual([address]);
  });
});

describe('two applies racing on one object', () => {
  const ownerDoc = (ns: string, title: string) => ({ provider: { dq: [{ namespace: ns }] }, resource: { dq_owner: { team: { title } } } });
  const alertDoc = (ns: string, name: string) => ({
    provider: { dq: [{ namespace: ns }] },
    resource: { dq_alert: { a: { name, issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#race' } }], settings: { severities: [2] } } } } },
  });

  it('back to back: the first wins, the second is refused as stale, the first write stays', async () => {
    const ns = 'race-seq';
    await apply(client, await plan(client, manifest(ownerDoc(ns, 'base'))));
    const pa = saved(await plan(client, manifest(ownerDoc(ns, 'from A'))));
    const pb = saved(await plan(client, manifest(ownerDoc(ns, 'from B'))));
    expect(pa.changes[0].etag).toBe(pb.changes[0].etag);
    expect((await apply(client, pa)).applied).toEqual([{ address: 'dq_owner.team', action: 'update', ms: expect.any(Number) }]);
    const err = await apply(client, pb).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as StalePlanError).addresses).toEqual(['dq_owner.team']);
    const id = deriveId('demo', ns, 'dq_owner', 'team');
    expect((await client.owners.batchGetOwners([id]))[id].title).toBe('from A');
  });

  it.each([
    ['an owner', ownerDoc, 'dq_owner.team'],
    ['an alert', alertDoc, 'dq_alert.a'],
  ] as const)('concurrently on %s: exactly one wins, the other reports a stale plan or a conflict, nothing is lost', async (_what, doc, address) => {
    const ns = `race-${address.split('.')[0].replace(/_/g, '-')}`;
    await apply(client, await plan(client, manifest(doc(ns, 'base'))));
    const pa = saved(await plan(client, manifest(doc(ns, 'from A'))));
    const pb = saved(await plan(client, manifest(doc(ns, 'from B'))));
    // two clients, as two CI jobs would have
    const other = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
    try {
      await other.iam.get(); // both hold a token: their stale checks overlap, so the etag decides
      const [ra, rb] = await Promise.allSettled([apply(client, pa), apply(other, pb)]);
      const outcome = (r: PromiseSettledResult<Awaited<ReturnType<typeof apply>>>) => {
        if (r.status === 'rejected') {
          expect(r.reason).toBeInstanceOf(StalePlanError);
          return 'stale';
        }
        if (r.value.failed.length) {
          expect(r.value.failed).toHaveLength(1);
          expect(r.value.failed[0].address).toBe(address);
          expect(r.value.failed[0].error).toMatch(/etag|conflict|aborted|changed/i);
          return 'conflict';
        }
        expect(r.value.applied).toEqual([{ address, action: 'update', ms: expect.any(Number) }]);
        return 'won';
      };
      const oa = outcome(ra);
      const ob = outcome(rb);
      expect([oa, ob].filter((o) => o === 'won')).toHaveLength(1);
      const winner = oa === 'won' ? 'from A' : 'from B';
      // the winner's write is what live state holds: planning the winner's code is empty
      const check = await plan(client, manifest(doc(ns, winner)));
      expect(check.changes.filter((c) => c.action !== 'unmanaged').map((c) => [c.address, c.action])).toEqual([[address, 'noop']]);
    } finally {
      await other.close();
    }
  });
});
