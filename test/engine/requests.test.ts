/**
 * Reading live state costs list and batch calls per kind, never one GET per object: a plan over
 * 1,000 unchanged objects of mixed kinds (all eight, ownerships included) makes at most the
 * floor plus 5 requests.
 *
 * The floor: the requests any stateless reader of this API needs to find what the namespace owns
 * (pruning must see objects the code no longer names, so every kind is listed):
 * - one list per kind with a workspace-wide list (alert ids, monitor rules, SQL tests, SQL-test
 *   rules, owners, domains, data products): `ceil(N_kind / 1000)` pages, at least 1 each;
 * - alerts' batch get: `ceil(alerts / 200)`;
 * - ownerships have no workspace-wide list: one ListOwnerships per owner the namespace owns or
 *   names (`ceil(n_owner / 1000)` pages each, so 1 per owner here).
 * The 5 on top cover the token, the IAM call and slack. Every route stays within its own share.
 *
 * @gateway
 */
import { startEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { apply } from '../../src/engine/applier';
import { bulkDoc, declaredCounts } from './fixtures/bulk';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
});
afterAll(async () => {
  await emu.close();
});

async function requests(): Promise<{ total: number; routes: Record<string, number> }> {
  return (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { total: number; routes: Record<string, number> };
}

const connect = () => PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
const PAGE = 1000;
const BATCH = 200;
const pages = (n: number) => Math.max(1, Math.ceil(n / PAGE));

it('a plan over 1,000 unchanged objects of mixed kinds costs at most the floor plus 5 requests', async () => {
  const doc = bulkDoc('bulk', { sqlTests: 250, owners: 200, domains: 100, dataProducts: 100, ownerships: 200, alerts: 100, monitorRules: 50 });
  const counts = declaredCounts(doc);
  expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(1000);
  const manifest = manifestFromTerraformJson(doc, { stack: 'bulk' });

  const writer = connect();
  try {
    const first = await plan(writer, manifest);
    expect(first.diagnostics).toEqual([]);
    expect(first.summary.add).toBe(1000);
    const res = await apply(writer, first);
    expect(res.failed).toEqual([]);
    expect(res.applied).toHaveLength(1000);
  } finally {
    await writer.close();
  }

  // a fresh client: its token request is counted too
  await fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
  const reader = connect();
  try {
    const again = await plan(reader, manifest);
    expect(again.summary).toEqual({ import: 0, add: 0, change: 0, replace: 0, destroy: 0, unchanged: 1000, unmanaged: 0 });
  } finally {
    await reader.close();
  }
  const r = await requests();
  const n = (t: string) => counts[t] ?? 0;
  const share: Record<string, number> = {
    'POST /api/alerts/v2/list': 1,
    'POST /api/alerts/v2/get': Math.ceil(n('dq_alert') / BATCH),
    'GET /api/monitors/automated/v1/deployment-rules': pages(n('dq_monitor_deployment_rule')),
    'GET /api/datachecks/sqltests/v1': pages(n('dq_sql_test')),
    'GET /api/datachecks/sql-test-deployment-rules/v1': pages(n('dq_sql_test_deployment_rule')),
    'GET /api/owners/v1': pages(n('dq_owner')),
    'GET /api/domains/v2': pages(n('dq_domain')),
    'GET /api/dataproducts/v2': pages(n('dq_data_product')),
    // every owner of the namespace is scanned (200), each holding at most 1,000 ownerships
    'GET /api/owners/v1/:owner_id/ownerships': n('dq_owner'),
  };
  const floor = Object.values(share).reduce((a, b) => a + b, 0);
  console.log(`plan over 1,000 unchanged objects: ${r.total} requests (floor ${floor}, bound ${floor + 5})\n${JSON.stringify(r.routes, null, 2)}`);
  expect(floor).toBe(1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 200);
  expect(r.total).toBeLessThanOrEqual(floor + 5);
  // never one request per object of a kind: each route within its share (token and IAM: once)
  for (const [route, count] of Object.entries(r.routes)) expect([route, count]).toEqual([route, Math.min(count, share[route] ?? 1)]);
});
