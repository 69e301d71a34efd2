/**
 * The governance kinds' handlers (owners, domains, data products, ownerships) against a recording
 * fake client: the exact write message each create/update sends (defaults for what code leaves
 * out), the calls each read, delete and import listing makes, and the comparable forms.
 */
import type { PlatformClient } from '../../src/client';
import type { Change } from '../../schemas/model/plan';
import { canonicalDataProduct, dataProductsHandler } from '../../src/kinds/data-product/handler';
import { canonicalDomain, canonicalParts, domainsHandler } from '../../src/kinds/domain/handler';
import { canonicalOwner, ownersHandler } from '../../src/kinds/owner/handler';
import { canonicalOwnership, ownershipsHandler } from '../../src/kinds/ownership/handler';
import type { HandlerContext, LiveObject, ReadQuery } from '../../src/kinds/shared/types';

type Json = Record<string, unknown>;
const ctx = {} as HandlerContext;
const change = (o: Partial<Change>): Change => ({ address: 'a.b', type: 't', action: 'update', id: 'id1', before: null, after: {}, patch: [], reasons: [], etag: 'W/"id1-3"', ...o }) as Change;
const next = (etag: string | undefined) => {
  const m = /^W\/"(.+)-(\d+)"$/.exec(etag ?? '');
  return m ? `W/"${m[1]}-${Number(m[2]) + 1}"` : 'W/"new-1"';
};
/** UUIDs (an entity-id prefix is stripped only before one). */
const D = 'abcdef01-1111-2222-3333-444455556666';
const M = 'abcdef02-1111-2222-3333-444455556666';
const X = 'abcdef03-1111-2222-3333-444455556666';
const Y = 'abcdef04-1111-2222-3333-444455556666';
const up = (s: string) => s.toUpperCase();
const notFound = () => Object.assign(new Error('gone'), { name: 'NotFoundError' });

/** A fake client whose services record `[call, ...args]` and answer from `data`. */
function fakeClient(data: { owners?: Json[]; domains?: Json[]; products?: Json[]; ownerships?: Record<string, Json[] | Error>; byId?: Record<string, Json> } = {}) {
  const calls: unknown[][] = [];
  const rec =
    (name: string, answer: (...a: unknown[]) => unknown) =>
    async (...a: unknown[]) => {
      calls.push([name, ...a]);
      return answer(...a);
    };
  const pick = (ids: unknown) => Object.fromEntries((ids as string[]).filter((i) => data.byId?.[i]).map((i) => [i, data.byId![i]]));
  const v2 = (n: string, items: Json[] | undefined) => ({
    list: rec(`${n}.list`, () => items ?? []),
    batchGet: rec(`${n}.batchGet`, pick),
    upsert: rec(`${n}.upsert`, (_w, etag) => ({ etag: next(etag as string | undefined) })),
    delete: rec(`${n}.delete`, () => undefined),
  });
  const client = {
    domains: v2('domains', data.domains),
    dataProducts: v2('dataProducts', data.products),
    owners: {
      listOwners: rec('listOwners', () => data.owners ?? []),
      batchGetOwners: rec('batchGetOwners', pick),
      upsertOwner: rec('upsertOwner', (_w, etag) => ({ etag: next(etag as string | undefined) })),
      deleteOwner: rec('deleteOwner', () => undefined),
      listOwnerships: rec('listOwnerships', (id) => {
        const v = data.ownerships?.[id as string];
        if (v instanceof Error) throw v;
        return v ?? [];
      }),
      batchGetOwnerships: rec('batchGetOwnerships', pick),
      upsertOwnership: rec('upsertOwnership', (_w, etag) => ({ etag: next(etag as string | undefined) })),
      deleteOwnership: rec('deleteOwnership', () => undefined),
    },
  } as unknown as PlatformClient;
  return { client, calls };
}
const q = (o: Partial<ReadQuery>): ReadQuery => ({ keys: [], ...o }) as ReadQuery;
const keysOf = (xs: LiveObject[]) => xs.map((x) => `${x.key}${x.context ? ' (context)' : ''}`);

describe('owners', () => {
  it('upserts title and the contacts in their presence wrapper, empty when none', async () => {
    const { client, calls } = fakeClient();
    await ownersHandler.update(client, change({ after: { title: 'T', contacts: [{ slack: { channel: '#a' } }], description: 'dropped' } }), ctx);
    await ownersHandler.update(client, change({ id: 'id2', etag: 'W/"id2-1"', after: { title: 'U' } }), ctx);
    expect(calls).toEqual([
      ['upsertOwner', { id: 'id1', title: 'T', contacts: { contacts: [{ slack: { channel: '#a' } }] } }, 'W/"id1-3"'],
      ['upsertOwner', { id: 'id2', title: 'U', contacts: { contacts: [] } }, 'W/"id2-1"'],
    ]);
  });

  it('reads by listing every page of 1000, deletes with the etag', async () => {
    const { client, calls } = fakeClient({ owners: [{ id: 'ns-1' }, { id: 'x' }] });
    expect(keysOf(await ownersHandler.read(client, q({ owns: (id) => id.startsWith('ns-') })))).toEqual(['ns-1']);
    await ownersHandler.delete(client, change({ action: 'delete', etag: 'e' }), ctx);
    expect(calls).toEqual([['listOwners', 1000], ['deleteOwner', 'id1', 'e']]);
  });

  it('compares without the server’s bookkeeping', () => {
    expect(canonicalOwner({ id: 'i', etag: 'e', entityId: 'owner-i', createdAt: 't', title: 'T', contacts: [] })).toEqual({ title: 'T' });
  });
});

describe('domains', () => {
  it('upserts every field, with defaults that clear what code no longer declares', async () => {
    const { client, calls } = fakeClient();
    await domainsHandler.update(client, change({ after: { name: 'N' } }), ctx);
    await domainsHandler.create(client, change({ action: 'create', etag: undefined, after: { name: 'M', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'x' }] } } }), ctx);
    expect(calls).toEqual([
      ['domains.upsert', { id: 'id1', name: 'N', description: '', parentId: '', definition: { parts: [] } }, 'W/"id1-3"'],
      ['domains.upsert', { id: 'id1', name: 'M', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'x' }] } }, undefined],
    ]);
  });

  it('reads the namespace’s domains and, as context, those whose parent or parts are ours or declared', async () => {
    const domains = [
      { id: 'ns-a' },
      { id: 'child', parentId: 'ns-a' },
      { id: 'holds-dp', definition: { parts: [{ dataproductId: 'ns-p' }] } },
      { id: 'holds-d', definition: { parts: [{ domainId: 'DECL' }] } },
      { id: 'unrelated', parentId: 'zzz', definition: { parts: [{ domainId: 'zzz' }] } },
      { id: 'no-parts', definition: {} },
    ];
    const { client, calls } = fakeClient({ domains });
    const read = await domainsHandler.read(client, q({ owns: (id) => id.startsWith('ns-'), declaredIds: new Set(['decl']) }));
    expect(keysOf(read)).toEqual(['child (context)', 'holds-d (context)', 'holds-dp (context)', 'ns-a']);
    expect(calls).toEqual([['domains.list', 1000]]);
  });

  it('reads keys only by batch get and deletes with the etag', async () => {
    const { client, calls } = fakeClient({ byId: { k1: { id: 'k1', etag: 'e1' } } });
    expect(keysOf(await domainsHandler.read(client, q({ keys: ['k1', 'k0'], keysOnly: true })))).toEqual(['k1']);
    await domainsHandler.delete(client, change({ action: 'delete', etag: 'e' }), ctx);
    expect(calls).toEqual([
      ['domains.batchGet', ['k0', 'k1'], { includeDeleted: undefined }],
      ['domains.delete', 'id1', { etag: 'e' }],
    ]);
  });

  it('compares parents and members bare and lower-case, parts without their id, no parts as absent', () => {
    expect(canonicalDomain({ id: 'i', name: 'N', parentId: `domain-${up(D)}`, definition: { parts: [{ id: 'p1', domainId: `Domain-${X}` }, { id: 'p2', dataproductId: `DATAPRODUCT-${up(Y)}` }] } })).toEqual({
      name: 'N',
      parentId: D,
      definition: { parts: [{ domainId: X }, { dataproductId: Y }] },
    });
    expect(canonicalDomain({ name: 'N', definition: { parts: [] } })).toEqual({ name: 'N' });
    expect(canonicalDomain({ name: 'N' })).toEqual({ name: 'N' });
    expect(canonicalParts(undefined)).toBeUndefined();
    expect(canonicalParts('x')).toBe('x');
    const noParts = { parts: 'x' };
    expect(canonicalParts(noParts)).toBe(noParts);
    expect(canonicalParts({ other: 1, parts: [{ query: { resolverQl: 'Q' } }] })).toEqual({ other: 1, parts: [{ query: { resolverQl: 'Q' } }] });
  });
});

describe('data products', () => {
  it('upserts every field with its default', async () => {
    const { client, calls } = fakeClient();
    await dataProductsHandler.update(client, change({ after: { title: 'P' } }), ctx);
    expect(calls).toEqual([['dataProducts.upsert', { id: 'id1', title: 'P', description: '', folder: '', priority: 'PRIORITY_UNSPECIFIED', definition: { parts: [] } }, 'W/"id1-3"']]);
  });

  it('compares parts bare and an empty definition as absent', () => {
    expect(canonicalDataProduct({ id: 'i', entityId: 'dataproduct-i', title: 'P', definition: { parts: [{ id: 'x', domainId: `DOMAIN-${up(X)}` }] } })).toEqual({ title: 'P', definition: { parts: [{ domainId: X }] } });
    expect(canonicalDataProduct({ title: 'P', definition: { parts: [] } })).toEqual({ title: 'P' });
    expect(canonicalDataProduct({ title: 'P' })).toEqual({ title: 'P' });
  });
});

describe('ownerships', () => {
  it('upserts owner, selection and an alert that defaults to no severities', async () => {
    const { client, calls } = fakeClient();
    await ownershipsHandler.update(client, change({ after: { ownerId: 'o', selection: { dataproductId: 'p' } } }), ctx);
    await ownershipsHandler.update(client, change({ after: { ownerId: 'o', selection: { query: { resolverQl: 'Q' } }, alert: { severities: ['HIGH'] } } }), ctx);
    expect(calls).toEqual([
      ['upsertOwnership', { id: 'id1', ownerId: 'o', selection: { dataproductId: 'p' }, alert: { severities: [] } }, 'W/"id1-3"'],
      ['upsertOwnership', { id: 'id1', ownerId: 'o', selection: { query: { resolverQl: 'Q' } }, alert: { severities: ['HIGH'] } }, 'W/"id1-3"'],
    ]);
  });

  it('lists the ownerships of declared owners and of the namespace’s owners (not context ones), then batch-gets keys not found', async () => {
    const { client, calls } = fakeClient({
      ownerships: { [D]: [{ id: 'ns-1', ownerId: D }, { id: 'ui-1', ownerId: `owner-${up(D)}` }], [M]: [{ id: 'ns-2', ownerId: M }], gone: notFound() },
      byId: { far: { id: 'far', ownerId: 'elsewhere' } },
    });
    const owners: LiveObject[] = [
      { key: M, id: `owner-${up(M)}`, raw: {} },
      { key: 'ctx', id: 'ctx', raw: {}, context: true },
      { key: 'gone', id: 'gone', raw: {} },
    ];
    const read = await ownershipsHandler.read(
      client,
      q({ keys: ['far', 'ns-1', 'nowhere'], desired: [{ ownerId: `owner-${up(D)}` }, { ownerId: '' }, { ownerId: 3 }, {}], owns: (id) => id.startsWith('ns-'), readOf: async () => owners }),
    );
    expect(keysOf(read)).toEqual(['far', 'ns-1', 'ns-2', 'ui-1 (context)']);
    expect(calls).toEqual([
      ['listOwnerships', D, 1000],
      ['listOwnerships', M, 1000],
      ['listOwnerships', 'gone', 1000],
      ['batchGetOwnerships', ['far', 'nowhere']],
    ]);
  });

  it('uses the owners read before when there is no readOf, and makes no batch get when nothing is missing', async () => {
    const { client, calls } = fakeClient({ ownerships: { b: [{ id: 'ns-9', ownerId: 'b' }] } });
    const read = await ownershipsHandler.read(client, q({ keys: ['ns-9'], before: { dq_owner: [{ key: 'b', id: 'b', raw: {} }] } as unknown as ReadQuery['before'] }));
    expect(keysOf(read)).toEqual(['ns-9']);
    expect(calls).toEqual([['listOwnerships', 'b', 1000]]);
    const none = fakeClient();
    expect(await ownershipsHandler.read(none.client, q({}))).toEqual([]);
    expect(none.calls).toEqual([]);
  });

  it('passes an error other than NOT_FOUND from a listing through', async () => {
    const { client } = fakeClient({ ownerships: { bad: new Error('server down') } });
    await expect(ownershipsHandler.read(client, q({ desired: [{ ownerId: 'bad' }] }))).rejects.toThrow('server down');
  });

  it('import lists every owner’s ownerships, owners in order', async () => {
    const { client, calls } = fakeClient({ ownerships: { a: [{ id: 'x1', ownerId: 'a' }], b: [{ id: 'x2', ownerId: 'b' }] } });
    const listed = await ownershipsHandler.listAll!(client, async (t) => (t === 'dq_owner' ? [{ key: 'b', raw: {} }, { key: 'a', raw: {} }] : []));
    expect(listed).toEqual([
      { key: 'x1', raw: { id: 'x1', ownerId: 'a' } },
      { key: 'x2', raw: { id: 'x2', ownerId: 'b' } },
    ]);
    expect(calls).toEqual([
      ['listOwnerships', 'a', 1000],
      ['listOwnerships', 'b', 1000],
    ]);
  });

  it('compares owner and product ids bare and an empty alert as absent', () => {
    expect(canonicalOwnership({ id: 'i', etag: 'e', ownerId: `OWNER-${up(D)}`, selection: { dataproductId: `DataProduct-${X}` }, alert: { severities: [] } })).toEqual({ ownerId: D, selection: { dataproductId: X } });
    expect(canonicalOwnership({ ownerId: 'a', selection: { query: { resolverQl: 'Q' } }, alert: { severities: ['HIGH'] } })).toEqual({ ownerId: 'a', selection: { query: { resolverQl: 'Q' } }, alert: { severities: ['HIGH'] } });
    expect(canonicalOwnership({ title: 'x' })).toEqual({ title: 'x' });
  });
});

describe('ownerships: a failing listing while the owners are still read', () => {
  it('is the read\'s failure, not an unhandled rejection (no listing left without a handler)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const { client } = fakeClient({ ownerships: { bad: new Error('server down') } });
      // the owners' read takes longer than the declared owner's listing takes to fail
      const readOf = () => new Promise<readonly LiveObject[]>((resolve) => setTimeout(() => resolve([]), 30));
      await expect(ownershipsHandler.read(client, q({ desired: [{ ownerId: 'bad' }], readOf }))).rejects.toThrow('server down');
      // the owners' read fails too (the server is gone): the listing's failure is not left unhandled either
      const gone = fakeClient({ ownerships: { bad: new Error('server down') } });
      const readOfGone = () => new Promise<readonly LiveObject[]>((_, reject) => setTimeout(() => reject(new Error('owners gone')), 30));
      await expect(ownershipsHandler.read(gone.client, q({ desired: [{ ownerId: 'bad' }], readOf: readOfGone }))).rejects.toThrow('owners gone');
      await new Promise((r) => setTimeout(r, 20));
      expect(unhandled).toEqual([]);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});
