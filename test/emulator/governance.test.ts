/**
 * Domains v2, data products v2, owners and ownerships v1 over real HTTP (spec 2.6, 4.1, 7; upstream facts).
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { randomUUID } from 'node:crypto';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ERROR_INFO_TYPE, VIOLATIONS_TYPE } from '../../schemas/platform/common';
import { ListDataProductsResponse, ListDomainsResponse, ListOwnershipsResponse, ListOwnersResponse } from '../../schemas/platform/governance';
import { Collection } from '../../src/emulator/store';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

let emu: RunningEmulator;
let admin: string;
let reader: string;

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'empty' });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
});
afterAll(async () => {
  await emu?.close();
});

const api = (method: string, path: string, body?: unknown, token = admin) => call(emu.url, method, path, { token, body });
function ruleIds(body: { details?: { '@type': string; violations?: { ruleId?: string }[] }[] }): string[] {
  return (body.details ?? []).filter((d) => d['@type'] === VIOLATIONS_TYPE).flatMap((d) => (d.violations ?? []).map((v) => v.ruleId ?? ''));
}
async function domain(d: Record<string, unknown>, etag?: string) {
  const r = await api('POST', '/api/domains/v2', { ...d, etag });
  expect(r.status).toBe(200);
  return r.body.domain;
}
async function dataproduct(d: Record<string, unknown>) {
  const r = await api('POST', '/api/dataproducts/v2', d);
  expect(r.status).toBe(200);
  return r.body.dataproduct;
}
async function owner(o: Record<string, unknown>) {
  const r = await api('POST', '/api/owners/v1', o);
  expect(r.status).toBe(200);
  return r.body.owner;
}

describe('domains v2', () => {
  it('creates with a prefixed or bare id (stored bare), merges omitted fields, replaces a present-but-empty definition', async () => {
    const id = randomUUID();
    const d = await domain({ id: `domain-${id}`, name: 'Sales', description: 'desc', definition: { parts: [{ entityId: 'e1' }, { query: { resolverQl: 'with_name( "orders" )' } }] } });
    expect(d.id).toBe(id);
    expect(d.source).toBe('SOURCE_NATIVE');
    expect(d.definition.parts[1].query.renderedResolverQl).toBe('with_name("orders")');
    expect(d.etag).toBe(`W/"${id}-1"`);
    const renamed = await domain({ id, name: 'Sales 2' });
    expect(renamed.description).toBe('desc');
    expect(renamed.definition).toEqual(d.definition);
    expect(renamed.createdAt).toBe(d.createdAt);
    const emptied = await domain({ id, definition: { parts: [] } });
    expect(emptied.definition).toEqual({ parts: [] });
    expect(emptied.name).toBe('Sales 2');
  });

  const invalid: { reason: string; body: Record<string, unknown>; status: number; ruleId: string }[] = [
    { reason: 'name is required on create', body: { id: randomUUID() }, status: 400, ruleId: 'upsert.name.required' },
    { reason: 'the id must be a UUID', body: { id: 'not-a-uuid', name: 'x' }, status: 400, ruleId: 'upsert.id' },
    { reason: 'the parent must exist', body: { id: randomUUID(), name: 'x', parentId: randomUUID() }, status: 400, ruleId: 'domain.parent_exists' },
    { reason: 'bad ResolverQL in a query part', body: { id: randomUUID(), name: 'x', definition: { parts: [{ query: { resolverQl: 'nope(' } }] } }, status: 400, ruleId: 'upsert.query.resolver_ql' },
    { reason: 'the envelope form is refused (an undeclared key)', body: { domain: { id: randomUUID(), name: 'x' } }, status: 400, ruleId: 'upsert.unknown_field' },
    { reason: 'an unknown key is refused', body: { id: randomUUID(), name: 'x', colour: 'red' }, status: 400, ruleId: 'upsert.unknown_field' },
    { reason: 'an unknown nested key is refused', body: { id: randomUUID(), name: 'x', definition: { parts: [{ entityId: 'e', weight: 1 }] } }, status: 400, ruleId: 'upsert.unknown_field' },
  ];
  it.each(invalid)('refuses: $reason', async ({ body, status, ruleId }) => {
    const r = await api('POST', '/api/domains/v2', body);
    expect(r.status).toBe(status);
    expect(ruleIds(r.body)).toContain(ruleId);
  });

  it('a stale etag is ABORTED (409)', async () => {
    const id = randomUUID();
    const d = await domain({ id, name: 'A' });
    await domain({ id, name: 'B' });
    const r = await api('POST', '/api/domains/v2', { id, name: 'C', etag: d.etag });
    expect(r.status).toBe(409);
    expectStatus(r.body, 10);
  });

  const loops: { reason: string; build: (a: string, b: string, c: string) => Promise<Record<string, unknown>> }[] = [
    { reason: 'a domain as its own parent', build: async (a) => ({ id: a, parentId: a }) },
    { reason: 'a domain as its own member', build: async (a) => ({ id: a, definition: { parts: [{ domainId: a }] } }) },
    {
      reason: 'a parent cycle a <- b <- c, then a.parent = c',
      build: async (a, b, c) => {
        await domain({ id: b, name: 'b', parentId: a });
        await domain({ id: c, name: 'c', parentId: b });
        return { id: a, parentId: c };
      },
    },
    {
      reason: 'membership cycle a contains b, then b contains a (prefixed id)',
      build: async (a, b) => {
        await domain({ id: b, name: 'b' });
        await domain({ id: a, definition: { parts: [{ domainId: b }] } });
        return { id: b, definition: { parts: [{ domainId: `domain-${a}` }] } };
      },
    },
    {
      reason: 'mixed: b is a child of a, then a becomes a member of b',
      build: async (a, b) => {
        await domain({ id: b, name: 'b', parentId: a });
        return { id: b, definition: { parts: [{ domainId: a }] } };
      },
    },
  ];
  it.each(loops)('refuses a loop: $reason', async ({ build }) => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await domain({ id: a, name: 'a' });
    const write = await build(a, b, c);
    const r = await api('POST', '/api/domains/v2', write);
    expect(r.status).toBe(400);
    expectStatus(r.body, 9);
    expect(ruleIds(r.body)).toEqual(['domain.no_cycle']);
    expect(r.body.message).toContain('loop');
  });

  it('a domain write checks for loops without a pass over every domain (issue 27: linear setups)', async () => {
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    await domain({ id: a, name: 'a' });
    await domain({ id: b, name: 'b', parentId: a });
    const values = jest.spyOn(Collection.prototype, 'values');
    const filter = jest.spyOn(Collection.prototype, 'filter');
    try {
      await domain({ id: c, name: 'c', parentId: b });
      const loop = await api('POST', '/api/domains/v2', { id: a, parentId: c });
      expect(ruleIds(loop.body)).toEqual(['domain.no_cycle']);
      expect(loop.body.message).toContain(`${a} -> ${b} -> ${c} -> ${a}`);
      expect(values).not.toHaveBeenCalled();
      expect(filter).not.toHaveBeenCalled();
    } finally {
      values.mockRestore();
      filter.mockRestore();
    }
  });

  it('accepts a containment that is not a loop (a parent of b, a also lists b)', async () => {
    const [a, b] = [randomUUID(), randomUUID()];
    await domain({ id: a, name: 'a' });
    await domain({ id: b, name: 'b', parentId: a });
    const r = await domain({ id: a, definition: { parts: [{ domainId: b }] } });
    expect(r.definition.parts).toEqual([{ id: expect.stringMatching(/^p-[0-9a-f]{12}$/), domainId: b }]);
  });

  it('deletes softly and idempotently; batch-get omits deleted unless includeDeleted; purge refused while sub-domains exist', async () => {
    const [p, child] = [randomUUID(), randomUUID()];
    const parent = await domain({ id: p, name: 'parent' });
    await domain({ id: child, name: 'child', parentId: p });
    const stale = await api('POST', '/api/domains/v2/delete', { id: p, etag: 'W/"stale"' });
    expect(stale.status).toBe(409);
    expect((await api('POST', '/api/domains/v2/delete', { id: p, etag: parent.etag })).status).toBe(200);
    expect((await api('POST', '/api/domains/v2/delete', { id: p })).status).toBe(200);
    expect((await api('POST', '/api/domains/v2/delete', { id: randomUUID() })).status).toBe(200);
    const got = await api('POST', '/api/domains/v2/batch-get', { ids: [p, child, randomUUID()] });
    expect(Object.keys(got.body.domains)).toEqual([child]);
    const withDeleted = await api('POST', '/api/domains/v2/batch-get', { ids: [`domain-${p}`], includeDeleted: true });
    expect(typeof withDeleted.body.domains[p].deletedAt).toBe('string');
    const purge = await api('POST', '/api/domains/v2/delete', { id: p, purge: true });
    expect(purge.status).toBe(400);
    expectStatus(purge.body, 9);
    expect(purge.body.message).toContain(child);
    await api('POST', '/api/domains/v2/delete', { id: child });
    expect((await api('POST', '/api/domains/v2/delete', { id: p, purge: true })).status).toBe(200);
    expect((await api('POST', '/api/domains/v2/batch-get', { ids: [p], includeDeleted: true })).body.domains).toEqual({});
  });

  it('batch-get takes 1..200 ids', async () => {
    expect((await api('POST', '/api/domains/v2/batch-get', { ids: [] })).status).toBe(400);
    expect((await api('POST', '/api/domains/v2/batch-get', { ids: Array.from({ length: 201 }, () => randomUUID()) })).status).toBe(400);
  });
});

describe('paging (fresh emulator)', () => {
  it('lists domains over several pages in id order, skipping deleted ones', async () => {
    const e = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'empty' });
    try {
      const t = await tokenFor(e.url, 'demo-admin');
      const ids = Array.from({ length: 7 }, () => randomUUID()).sort();
      for (const id of ids) expect((await call(e.url, 'POST', '/api/domains/v2', { token: t, body: { id, name: id.slice(0, 8) } })).status).toBe(200);
      await call(e.url, 'POST', '/api/domains/v2/delete', { token: t, body: { id: ids[3] } });
      const seen: string[] = [];
      let cursor = '';
      let pages = 0;
      do {
        const r = await call(e.url, 'GET', `/api/domains/v2?pagination.pageSize=2${cursor ? `&pagination.cursor=${encodeURIComponent(cursor)}` : ''}`, { token: t });
        expect(r.status).toBe(200);
        expect(r.body.pageInfo.count).toBe(r.body.domains.length);
        seen.push(...r.body.domains.map((d: { id: string }) => d.id));
        cursor = r.body.pageInfo.lastId;
        pages++;
      } while (cursor);
      expect(pages).toBe(3);
      expect(seen).toEqual(ids.filter((_, i) => i !== 3));
      const bad = await call(e.url, 'GET', '/api/domains/v2?pagination.pageSize=abc', { token: t });
      expect(bad.status).toBe(400);
    } finally {
      await e.close();
    }
  });
});

describe('data products v2', () => {
  it('creates with entityId dataproduct-<uuid>, merges, clears folder with "", lists and soft-deletes', async () => {
    const id = randomUUID();
    const dp = await dataproduct({ id: `dataproduct-${id}`, title: 'Orders', folder: 'f/x', priority: 'PRIORITY_P1', definition: { parts: [{ query: { resolverQl: 'with_type( "table" )' } }] } });
    expect(dp.id).toBe(id);
    expect(dp.entityId).toBe(`dataproduct-${id}`);
    expect(dp.definition.parts[0].query.renderedResolverQl).toBe('with_type("table")');
    const next = await dataproduct({ id, folder: '', priority: 3 });
    expect(next.folder).toBeUndefined();
    expect(next.priority).toBe('PRIORITY_P3');
    expect(next.title).toBe('Orders');
    expect(next.definition).toEqual(dp.definition);
    const listed = await api('GET', '/api/dataproducts/v2');
    expect(listed.body.dataproducts.map((d: { id: string }) => d.id)).toContain(id);
    const stale = await api('POST', '/api/dataproducts/v2', { id, title: 'x', etag: dp.etag });
    expect(stale.status).toBe(409);
    expect((await api('POST', '/api/dataproducts/v2/delete', { id })).status).toBe(200);
    expect((await api('POST', '/api/dataproducts/v2/batch-get', { ids: [id] })).body.dataproducts).toEqual({});
    expect((await api('GET', '/api/dataproducts/v2')).body.dataproducts.map((d: { id: string }) => d.id)).not.toContain(id);
  });

  it('title is required on create; domain parts may name existing data products only', async () => {
    const r = await api('POST', '/api/dataproducts/v2', { id: randomUUID() });
    expect(r.status).toBe(400);
    expect(ruleIds(r.body)).toContain('upsert.title.required');
    const dp = await dataproduct({ id: randomUUID(), title: 'p' });
    const ok = await domain({ id: randomUUID(), name: 'with dp', definition: { parts: [{ dataproductId: dp.entityId }] } });
    expect(ok.definition.parts).toEqual([{ id: expect.any(String), dataproductId: dp.id }]);
    const missing = await api('POST', '/api/domains/v2', { id: randomUUID(), name: 'x', definition: { parts: [{ dataproductId: randomUUID() }] } });
    expect(ruleIds(missing.body)).toContain('domain.member_exists');
  });
});

describe('owners and ownerships v1', () => {
  it('upserts an owner: entityId owner-<uuid>, contacts wrapper absent = keep, present and empty = clear', async () => {
    const id = randomUUID();
    const o = await owner({ id: `owner-${id}`, title: 'Team', contacts: { contacts: [{ slack: { channel: '#team' } }] } });
    expect(o.id).toBe(id);
    expect(o.entityId).toBe(`owner-${id}`);
    expect(o.contacts).toEqual([{ slack: { channel: '#team' } }]);
    const kept = await owner({ id, title: 'Team 2' });
    expect(kept.contacts).toEqual(o.contacts);
    const cleared = await owner({ id, contacts: { contacts: [] } });
    expect(cleared.contacts).toEqual([]);
    expect(cleared.title).toBe('Team 2');
    const stale = await api('POST', '/api/owners/v1', { id, title: 'x', etag: o.etag });
    expect(stale.status).toBe(409);
    const noTitle = await api('POST', '/api/owners/v1', { id: randomUUID() });
    expect(ruleIds(noTitle.body)).toContain('upsert_owner.title.required');
    const wrapped = await api('POST', '/api/owners/v1', { owner: { id: randomUUID(), title: 'x' } });
    expect(wrapped.status).toBe(400);
    expect(ruleIds(wrapped.body)).toEqual(['upsert_owner.unknown_field']);
  });

  it('ownerships: owner must exist, a data product moves between owners, lists page, owner delete cascades', async () => {
    const [o1, o2] = [await owner({ id: randomUUID(), title: 'one' }), await owner({ id: randomUUID(), title: 'two' })];
    const dpId = randomUUID();
    const unknown = await api('POST', `/api/owners/v1/${randomUUID()}/ownerships`, { id: randomUUID(), selection: { dataproductId: dpId } });
    expect(unknown.status).toBe(404);
    expectStatus(unknown.body, 5);

    const s1 = randomUUID();
    const first = await api('POST', `/api/owners/v1/${o1.entityId}/ownerships`, { id: s1, selection: { dataproductId: `dataproduct-${dpId}` }, alert: { severities: [2] } });
    expect(first.status).toBe(200);
    expect(first.body.ownership.ownerId).toBe(o1.id);
    expect(first.body.ownership.selection).toEqual({ dataproductId: dpId });
    expect(first.body.ownership.alert).toEqual({ severities: ['SEVERITY_ERROR'] });
    const q = await api('POST', `/api/owners/v1/${o1.id}/ownerships`, { id: randomUUID(), selection: { query: { resolverQl: 'with_tag( "pii" )' } } });
    expect(q.body.ownership.selection.query.renderedResolverQl).toBe('with_tag("pii")');
    const third = await api('POST', `/api/owners/v1/${o1.id}/ownerships`, { id: randomUUID(), selection: { query: { resolverQl: 'with_tag("x")' } } });
    expect(third.status).toBe(200);
    // wire-facts 1: `ownerId` is declared (bound to the path); in a `body: "*"` request the gateway
    // accepts it in the body too, and the path wins ("that field is then not read from the body")
    const same = await api('POST', `/api/owners/v1/${o1.id}/ownerships`, { id: randomUUID(), ownerId: o1.id, selection: { query: { resolverQl: 'with_tag("y")' } } });
    expect(same.status).toBe(200);
    expect(same.body.ownership.ownerId).toBe(o1.id);
    const mismatchId = randomUUID();
    const mismatch = await api('POST', `/api/owners/v1/${o1.id}/ownerships`, { id: mismatchId, ownerId: o2.id, selection: { query: { resolverQl: 'with_tag("z")' } } });
    expect(mismatch.status).toBe(200);
    expect(mismatch.body.ownership.ownerId).toBe(o1.id);
    // (undone, so the paging below sees the owner's three ownerships)
    expect((await api('POST', '/api/owners/v1/ownerships/delete', { id: mismatchId })).status).toBe(200);
    expect((await api('POST', '/api/owners/v1/ownerships/delete', { id: same.body.ownership.id })).status).toBe(200);

    // Paging over the owner's ownerships (3 items, pages of 2).
    const p1 = await api('GET', `/api/owners/v1/${o1.id}/ownerships?pagination.pageSize=2`);
    expect(p1.body.ownerships).toHaveLength(2);
    expect(p1.body.pageInfo.lastId).not.toBe('');
    const p2 = await api('GET', `/api/owners/v1/${o1.id}/ownerships?pagination.pageSize=2&pagination.cursor=${p1.body.pageInfo.lastId}`);
    expect(p2.body.ownerships).toHaveLength(1);
    expect(p2.body.pageInfo.lastId).toBe('');

    // Owning the data product elsewhere moves it.
    const s2 = randomUUID();
    const moved = await api('POST', `/api/owners/v1/${o2.id}/ownerships`, { id: s2, selection: { dataproductId: dpId } });
    expect(moved.status).toBe(200);
    const batch = await api('POST', '/api/owners/v1/ownerships/batch-get', { ids: [s1, s2, randomUUID()] });
    expect(Object.keys(batch.body.ownerships)).toEqual([s2]);

    // Stale etag and delete of an ownership.
    const del = await api('POST', '/api/owners/v1/ownerships/delete', { id: s2, etag: 'W/"stale"' });
    expect(del.status).toBe(409);
    expect((await api('POST', '/api/owners/v1/ownerships/delete', { id: s2, etag: moved.body.ownership.etag })).status).toBe(200);
    expect((await api('POST', '/api/owners/v1/ownerships/delete', { id: s2 })).status).toBe(200);

    // Owner delete cascades to its ownerships.
    const ownedIds = [q.body.ownership.id, third.body.ownership.id];
    expect((await api('POST', '/api/owners/v1/delete', { id: o1.entityId, etag: o1.etag })).status).toBe(200);
    expect((await api('POST', '/api/owners/v1/ownerships/batch-get', { ids: ownedIds })).body.ownerships).toEqual({});
    expect((await api('POST', '/api/owners/v1/batch-get', { ids: [o1.id, o2.id] })).body.owners).toEqual({ [o2.id]: expect.objectContaining({ title: 'two' }) });
    expect((await api('GET', `/api/owners/v1/${o1.id}/ownerships`)).status).toBe(404);
    expect((await api('POST', '/api/owners/v1/delete', { id: o1.id })).status).toBe(200);
  });

  it('ListOwners pages', async () => {
    for (let i = 0; i < 3; i++) await owner({ id: randomUUID(), title: `o${i}` });
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const r = await api('GET', `/api/owners/v1?pagination.pageSize=1${cursor ? `&pagination.cursor=${cursor}` : ''}`);
      seen.push(...r.body.owners.map((o: { id: string }) => o.id));
      cursor = r.body.pageInfo.lastId;
      pages++;
    } while (cursor);
    expect(pages).toBeGreaterThanOrEqual(3);
    expect(seen).toEqual([...seen].sort());
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('scopes', () => {
  const reads: [string, string, unknown][] = [
    ['GET', '/api/domains/v2', undefined],
    ['POST', '/api/domains/v2/batch-get', { ids: [randomUUID()] }],
    ['GET', '/api/dataproducts/v2', undefined],
    ['POST', '/api/dataproducts/v2/batch-get', { ids: [randomUUID()] }],
    ['GET', '/api/owners/v1', undefined],
    ['POST', '/api/owners/v1/batch-get', { ids: [randomUUID()] }],
    ['POST', '/api/owners/v1/ownerships/batch-get', { ids: [randomUUID()] }],
  ];
  it.each(reads)('the reader can %s %s', async (method, path, body) => {
    expect((await api(method, path, body, reader)).status).toBe(200);
  });

  const writes: [string, unknown][] = [
    ['/api/domains/v2', { id: randomUUID(), name: 'x' }],
    ['/api/domains/v2/delete', { id: randomUUID() }],
    ['/api/dataproducts/v2', { id: randomUUID(), title: 'x' }],
    ['/api/dataproducts/v2/delete', { id: randomUUID() }],
    ['/api/owners/v1', { id: randomUUID(), title: 'x' }],
    ['/api/owners/v1/delete', { id: randomUUID() }],
    [`/api/owners/v1/${randomUUID()}/ownerships`, { id: randomUUID(), selection: { dataproductId: 'x' } }],
    ['/api/owners/v1/ownerships/delete', { id: randomUUID() }],
  ];
  it.each(writes)('the reader cannot POST %s (403 naming the service scope and SCOPE_MCP_WRITE)', async (path, body) => {
    const r = await api('POST', path, body, reader);
    expect(r.status).toBe(403);
    const s = expectStatus(r.body, 7);
    expect(s.message).toMatch(/SCOPE_(DOMAIN|DATAPRODUCT|OWNERS|OWNERSHIP)_EDIT or SCOPE_MCP_WRITE/);
    expect(s.details.find((d) => d['@type'] === ERROR_INFO_TYPE)?.metadata?.scope).toMatch(/^SCOPE_(DOMAIN|DATAPRODUCT|OWNERS|OWNERSHIP)_EDIT$/);
  });
});

describe('demo seed', () => {
  it('has a UI-made domain and owner (native source); list bodies parse with the shared schemas', async () => {
    const demo = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo' });
    try {
      const t = await tokenFor(demo.url, 'demo-reader');
      const w = await tokenFor(demo.url, 'demo-admin');
      const dp = randomUUID();
      await call(demo.url, 'POST', '/api/dataproducts/v2', { token: w, body: { id: dp, title: 'p', priority: 5, definition: { parts: [{ entityId: 'e' }] } } });
      const ownerId = (await call(demo.url, 'GET', '/api/owners/v1', { token: t })).body.owners[0].id;
      await call(demo.url, 'POST', `/api/owners/v1/${ownerId}/ownerships`, { token: w, body: { id: randomUUID(), selection: { dataproductId: dp } } });
      const shapes = [
        ['/api/domains/v2', ListDomainsResponse],
        ['/api/dataproducts/v2', ListDataProductsResponse],
        ['/api/owners/v1', ListOwnersResponse],
        [`/api/owners/v1/${ownerId}/ownerships`, ListOwnershipsResponse],
      ] as const;
      for (const [path, schema] of shapes) {
        const r = await call(demo.url, 'GET', path, { token: t });
        expect(r.status).toBe(200);
        expect(schema.safeParse(r.body).success).toBe(true);
      }
      const d = (await call(demo.url, 'GET', '/api/domains/v2', { token: t })).body.domains;
      expect(d.some((x: { source: string; name: string }) => x.source === 'SOURCE_NATIVE' && x.name.includes('UI'))).toBe(true);
      const o = (await call(demo.url, 'GET', '/api/owners/v1', { token: t })).body.owners;
      expect(o.some((x: { source: string; entityId: string; title: string }) => x.source === 'SOURCE_NATIVE' && x.title.includes('UI') && x.entityId.startsWith('owner-'))).toBe(true);
    } finally {
      await demo.close();
    }
  });
});
