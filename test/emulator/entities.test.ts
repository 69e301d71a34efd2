/**
 * Entity reads, lineage and the incident batch lookup over real HTTP against the demo catalog.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { startEmulator } from '../../src/emulator';
import type { RunningEmulator } from '../../src/emulator';
import { BatchEntityIncidentsResponse, GetLineageResponse, ListEntitiesResponse, type Entity } from '../../schemas/platform/entities';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

let emu: RunningEmulator;
let reader: string;

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo' });
  emu.app.addCredential('entities-only', 'secret-y', ['SCOPE_ENTITY_READ'], 'demo');
  // demo-reader holds realistic per-service read scopes (no lineage, no incidents): a reader of everything here
  emu.app.addCredential('catalog-reader', 'secret-z', ['SCOPE_ENTITY_READ', 'SCOPE_LINEAGE_READ', 'SCOPE_INCIDENTS_READ'], 'demo');
  reader = await tokenFor(emu.url, 'catalog-reader', 'secret-z');
});
afterAll(async () => {
  await emu.close();
});

async function pages(path: string, pageSize: number): Promise<{ entities: Entity[]; pages: number }> {
  const out: Entity[] = [];
  let cursor = '';
  let n = 0;
  for (;;) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await call(emu.url, 'GET', `${path}${sep}pagination.pageSize=${pageSize}${cursor ? `&pagination.cursor=${encodeURIComponent(cursor)}` : ''}`, { token: reader });
    expect(r.status).toBe(200);
    const page = ListEntitiesResponse.parse(r.body);
    expect(page.pageInfo?.count).toBe(page.entities.length);
    out.push(...page.entities);
    n++;
    cursor = page.pageInfo?.lastId ?? '';
    if (!cursor) return { entities: out, pages: n };
  }
}

test('ListEntities pages over the whole catalog in path order, each entity once', async () => {
  const all = await pages('/api/entities/v1', 1000);
  expect(all.pages).toBe(1);
  expect(all.entities.length).toBeGreaterThan(200);
  const paged = await pages('/api/entities/v1', 50);
  expect(paged.pages).toBe(Math.ceil(all.entities.length / 50));
  expect(paged.entities.map((e) => e.entityId)).toEqual(all.entities.map((e) => e.entityId));
  const paths = paged.entities.map((e) => e.path);
  expect(paths).toEqual([...paths].sort());
  expect(new Set(paths).size).toBe(paths.length);
});

test.each([
  { q: 'fct_orders', reason: 'a name substring' },
  { q: 'WH-DEV::RAW', reason: 'a path substring, case-insensitive' },
])('SearchEntities matches $reason', async ({ q }) => {
  const all = (await pages('/api/entities/v1', 1000)).entities;
  const want = all.filter((e) => e.name.toLowerCase().includes(q.toLowerCase()) || e.path.toLowerCase().includes(q.toLowerCase())).map((e) => e.path);
  expect(want.length).toBeGreaterThan(1);
  const got = await pages(`/api/entities/v1/search?searchQuery=${encodeURIComponent(q)}`, 2);
  expect(got.entities.map((e) => e.path)).toEqual(want);
});

test('BatchGetEntities returns known identifiers in request order and omits unknown ones', async () => {
  const all = (await pages('/api/entities/v1', 1000)).entities;
  const a = all.find((e) => e.path === 'wh-prod::mart::fct_orders')!;
  const b = all.find((e) => e.path === 'orchestrator::ingest_erp')!;
  const r = await call(emu.url, 'POST', '/api/entities/v1/by-id', {
    token: reader,
    body: { ids: [b.id, { custom: { id: 'nope' } }, a.id, b.id] },
  });
  expect(r.status).toBe(200);
  expect(r.body.entities.map((e: Entity) => e.path)).toEqual([b.path, a.path]);
  const bad = await call(emu.url, 'POST', '/api/entities/v1/by-id', { token: reader, body: { ids: [{}] } });
  expect(bad.status).toBe(400);
});

describe('GetLineage', () => {
  const start = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'agg_daily_revenue' } };

  test.each([
    { dir: 'LINEAGE_DIRECTION_UPSTREAM', has: 'wh-prod::raw::refunds', hasNot: 'bi::retail::revenue_overview', reason: 'upstream reaches the raw tables, not the dashboards' },
    { dir: 'LINEAGE_DIRECTION_DOWNSTREAM', has: 'bi::retail::revenue_overview', hasNot: 'wh-prod::raw::refunds', reason: 'downstream reaches the dashboards only' },
  ])('POST: $reason', async ({ dir, has, hasNot }) => {
    const list = (await pages('/api/entities/v1', 1000)).entities;
    const r = await call(emu.url, 'POST', '/api/lineage/v1', { token: reader, body: { startPoint: { entities: { entities: [start] } }, lineageDirection: dir } });
    expect(r.status).toBe(200);
    const l = GetLineageResponse.parse(r.body).lineage;
    expect(l.nodes[0].position).toBe('NODE_POSITION_START_NODE');
    const paths = l.nodes.map((n) => list.find((e) => e.entityId === n.ids[0].entityId)!.path);
    expect(paths[0]).toBe('wh-prod::mart::agg_daily_revenue');
    expect(paths).toContain(has);
    expect(paths).not.toContain(hasNot);
    for (const d of l.nodeDependencies) {
      expect(d.sourceNodeIdx).toBeLessThan(l.nodes.length);
      expect(d.targetNodeIdx).toBeLessThan(l.nodes.length);
    }
  });

  test('maxDepth 1 keeps direct neighbours only', async () => {
    const r = await call(emu.url, 'POST', '/api/lineage/v1', { token: reader, body: { startPoint: { entities: { entities: [start] } }, maxDepth: 1 } });
    const l = GetLineageResponse.parse(r.body).lineage;
    // the transform model building it (upstream) and the dashboard reading it (downstream)
    expect(l.nodes).toHaveLength(3);
    expect(l.nodeDependencies).toHaveLength(2);
  });

  test('GET with the flattened identifier answers integer enums', async () => {
    const q = Object.entries(start.warehouseAccountTable).map(([k, v]) => `startPoint.entityColumns.id.warehouseAccountTable.${k}=${encodeURIComponent(v)}`);
    const r = await call(emu.url, 'GET', `/api/lineage/v1?${q.join('&')}&lineageDirection=1&maxDepth=2`, { token: reader });
    expect(r.status).toBe(200);
    expect(r.body.lineage.nodes[0].position).toBe(1);
    expect(r.body.lineage.nodes.slice(1).every((n: { position: number }) => n.position === 2)).toBe(true);
  });

  test('an unknown start entity is NOT_FOUND; a scope without SCOPE_LINEAGE_READ is refused', async () => {
    const r = await call(emu.url, 'POST', '/api/lineage/v1', { token: reader, body: { startPoint: { entities: { entities: [{ custom: { id: 'nope' } }] } } } });
    expect(r.status).toBe(404);
    expectStatus(r.body, 5);
    const token = await tokenFor(emu.url, 'entities-only', 'secret-y');
    const f = await call(emu.url, 'POST', '/api/lineage/v1', { token, body: { startPoint: { entities: { entities: [start] } } } });
    expect(f.status).toBe(403);
    expect(expectStatus(f.body, 7).message).toContain('SCOPE_LINEAGE_READ');
  });
});

test('incident batch lookup answers an empty responses list (no incidents in the emulator), scope SCOPE_INCIDENTS_READ', async () => {
  const r = await call(emu.url, 'GET', '/api/incidents/v1/batch?incidentIds=a&incidentIds=b', { token: reader });
  expect(r.status).toBe(200);
  expect(BatchEntityIncidentsResponse.parse(r.body)).toEqual({ responses: [] });
  const token = await tokenFor(emu.url, 'entities-only', 'secret-y');
  const f = await call(emu.url, 'GET', '/api/incidents/v1/batch?incidentIds=a', { token });
  expect(f.status).toBe(403);
  expect(expectStatus(f.body, 7).message).toContain('SCOPE_INCIDENTS_READ');
});
