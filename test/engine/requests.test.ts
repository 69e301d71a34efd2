/**
 * Reading live state costs list and batch calls per kind, never one GET per object: a plan over
 * 1,000 unchanged objects of mixed kinds makes at most the floor (per kind, ceil(N / 200) list or
 * batch calls) plus 5 requests (token, iam and the alert list that precedes its batch get).
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

it('a plan over 1,000 unchanged objects of mixed kinds costs at most the floor plus 5 requests', async () => {
  const doc = bulkDoc('bulk', { sqlTests: 300, owners: 250, domains: 150, ownerships: 150, alerts: 100, monitorRules: 50 });
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
    expect(again.summary).toEqual({ add: 0, change: 0, replace: 0, destroy: 0, unchanged: 1000, unmanaged: 0 });
  } finally {
    await reader.close();
  }
  const r = await requests();
  const floor = Object.values(counts).reduce((a, n) => a + Math.ceil(n / 200), 0);
  console.log(`plan over 1,000 unchanged objects: ${r.total} requests (floor ${floor}, bound ${floor + 5})\n${JSON.stringify(r.routes, null, 2)}`);
  expect(floor).toBe(8);
  expect(r.total).toBeLessThanOrEqual(floor + 5);
  // never one GET per object: no route is called more than its kind's chunk count
  for (const [route, n] of Object.entries(r.routes)) expect([route, n <= 2]).toEqual([route, true]);
});
