/**
 * The governance family's and the rule family's handler wiring (src/kinds/shared/governance.ts,
 * rule.ts) against a recording fake service: the write messages, which call each handler method
 * makes with which arguments, and what it answers. In-process, no emulator.
 */
import type { PlatformClient } from '../../src/client';
import type { Change } from '../../schemas/model/plan';
import { domainDescriptor } from '../../src/kinds/domain/descriptor';
import { governanceHandler, v2Service, writeOf, type GovernanceService } from '../../src/kinds/shared/governance';
import { ruleHandler, ruleWrites, type RuleService } from '../../src/kinds/shared/rule';
import { monitorDeploymentRuleDescriptor } from '../../src/kinds/monitor-deployment-rule/descriptor';
import { ItemWriteError } from '../../src/kinds/shared/support';
import type { HandlerContext, ReadQuery } from '../../src/kinds/shared/types';

type Json = Record<string, unknown>;
type Stored = { id: string; etag?: string; source?: unknown; title?: string; parentId?: string };

const client = {} as PlatformClient;
const ctx = {} as HandlerContext;
const change = (o: Partial<Change>): Change => ({ address: 'dq_domain.d', type: 'dq_domain', action: 'update', id: 'id1', before: null, after: null, patch: [], reasons: [], ...o }) as Change;
const notFound = () => Object.assign(new Error('gone'), { name: 'NotFoundError' });

describe('writeOf', () => {
  it('writes id then the fields in their order, the desired value or its default', () => {
    const w = writeOf<Json>(change({ after: { description: 'x', title: 'T', extra: 1, parentId: null } }), { title: undefined, description: '', parentId: '', definition: { parts: [] } });
    expect(w).toStrictEqual({ id: 'id1', title: 'T', description: 'x', parentId: '', definition: { parts: [] } });
    expect(Object.keys(w)).toEqual(['id', 'title', 'description', 'parentId', 'definition']);
    const none = writeOf<Json>(change({ after: {} }), { title: undefined, description: '' });
    expect(none).toStrictEqual({ id: 'id1', title: undefined, description: '' });
    expect(Object.keys(none)).toEqual(['id', 'title', 'description']);
  });

  it('refuses a change without a desired value, naming the address', () => {
    expect(() => writeOf(change({ after: null, action: 'create' }), {})).toThrow('dq_domain.d: create without a desired value (after)');
  });
});

describe('v2Service', () => {
  it('passes the page size, ids, options, write, etag and the delete etag through', async () => {
    const calls: unknown[][] = [];
    const svc = v2Service<Json, Stored>(() => ({
      list: async (n) => (calls.push(['list', n]), [{ id: 'a' }]),
      batchGet: async (ids, opts) => (calls.push(['batchGet', ids, opts]), { a: { id: 'a' } }),
      upsert: async (w, etag) => (calls.push(['upsert', w, etag]), { etag: 'e2' }),
      delete: async (id, opts) => void calls.push(['delete', id, opts]),
    }));
    expect(await svc.list!(client)).toEqual([{ id: 'a' }]);
    expect(await svc.batchGet(client, ['a'], { includeDeleted: true })).toEqual({ a: { id: 'a' } });
    expect(await svc.upsert(client, { id: 'a' }, 'e1')).toEqual({ etag: 'e2' });
    await svc.delete(client, 'a', 'e3');
    expect(calls).toEqual([
      ['list', 1000],
      ['batchGet', ['a'], { includeDeleted: true }],
      ['upsert', { id: 'a' }, 'e1'],
      ['delete', 'a', { etag: 'e3' }],
    ]);
  });
});

function fakeService(items: Stored[], opts: { deleteError?: Error; upsertEtag?: string } = {}) {
  const calls: unknown[][] = [];
  const s: GovernanceService<Json, Stored> = {
    list: async () => (calls.push(['list']), items),
    batchGet: async (_c, ids, o) => (calls.push(['batchGet', ids, o]), Object.fromEntries(items.filter((i) => ids.includes(i.id)).map((i) => [i.id, i]))),
    upsert: async (_c, w, etag) => (calls.push(['upsert', w, etag]), { etag: opts.upsertEtag }),
    delete: async (_c, id, etag) => {
      calls.push(['delete', id, etag]);
      if (opts.deleteError) throw opts.deleteError;
    },
  };
  return { s, calls };
}

const canonical = (o: Json): Json => ({ canon: o.title });
const q = (o: Partial<ReadQuery>): ReadQuery => ({ keys: [], ...o }) as ReadQuery;

describe('governanceHandler', () => {
  it('takes type and label from the descriptor (and carries no prunable flag: the ownership policy of its descriptor says it), canonical both ways, no replace reasons', () => {
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: fakeService([]).s });
    expect([h.type, h.label, 'prunable' in h]).toEqual(['dq_domain', 'domain', false]);
    expect(h.fromLive({ title: 'a' })).toEqual({ canon: 'a' });
    expect(h.fromDesired({ title: 'b' })).toEqual({ canon: 'b' });
    expect(h.replaceReasons({}, {})).toEqual([]);
  });

  it('lists the workspace for import, or uses the kind’s own listAll, or has none', async () => {
    const { s } = fakeService([{ id: 'a', source: 'SOURCE_UI', title: 't' }]);
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s });
    expect(await h.listAll!(client, async () => [])).toEqual([{ key: 'a', source: 'SOURCE_UI', raw: { id: 'a', source: 'SOURCE_UI', title: 't' } }]);
    const own = async () => [];
    expect(governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s, listAll: own }).listAll).toBe(own);
    expect(governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: { ...s, list: undefined } }).listAll).toBeUndefined();
  });

  it('reads keys only by batch get (passing includeDeleted), else what the namespace owns and related context', async () => {
    const items = [{ id: 'dqns-1', etag: 'e1' }, { id: 'other', etag: 'e2' }, { id: 'rel', parentId: 'dqns-1' }, { id: 'asked' }];
    const { s, calls } = fakeService(items);
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s, related: () => (o) => o.parentId === 'dqns-1' });
    const byKeys = await h.read(client, q({ keys: ['other', 'missing'], keysOnly: true, includeDeleted: true }));
    expect(byKeys.map((o) => [o.key, o.etag])).toEqual([['other', 'e2']]);
    expect(calls).toEqual([['batchGet', ['missing', 'other'], { includeDeleted: true }]]);
    const owned = await h.read(client, q({ keys: ['asked'], owns: (id) => id.startsWith('dqns-') }));
    expect(owned.map((o) => [o.key, o.context ?? false])).toEqual([
      ['asked', false],
      ['dqns-1', false],
      ['rel', true],
    ]);
    expect(calls[1]).toEqual(['list']);
    const noRelated = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s });
    expect((await noRelated.read(client, q({ owns: (id) => id.startsWith('dqns-') }))).map((o) => o.key)).toEqual(['dqns-1']);
  });

  it('reads through the kind’s readOwned when it has one', async () => {
    const { s, calls } = fakeService([{ id: 'a' }]);
    const readOwned = jest.fn(async () => [{ key: 'k', id: 'k', raw: {} }]);
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s, readOwned });
    const query = q({ keys: ['x'] });
    expect(await h.read(client, query)).toEqual([{ key: 'k', id: 'k', raw: {} }]);
    expect(readOwned).toHaveBeenCalledWith(client, query);
    expect(calls).toEqual([]);
  });

  it('creates and updates by one upsert of the kind’s write message with the change’s etag', async () => {
    const { s, calls } = fakeService([], { upsertEtag: 'W/"id1-4"' });
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: (c) => ({ id: c.id, w: 1 }), service: s });
    await h.update(client, change({ etag: 'W/"id1-3"', after: { title: 'T' } }), ctx);
    expect(calls).toEqual([['upsert', { id: 'id1', w: 1 }, 'W/"id1-3"']]);
    const first = fakeService([], { upsertEtag: 'W/"id1-1"' });
    const h2 = governanceHandler({ descriptor: domainDescriptor, canonical, write: (c) => ({ id: c.id, w: 2 }), service: first.s });
    await h2.create(client, change({ action: 'create', after: { title: 'T' }, etag: undefined }), ctx);
    expect(first.calls).toEqual([['upsert', { id: 'id1', w: 2 }, undefined]]);
  });

  it('reports a write whose answered version skips one as a conflict naming the label and id', async () => {
    const { s } = fakeService([], { upsertEtag: 'W/"id1-6"' });
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: s });
    await expect(h.update(client, change({ etag: 'W/"id1-3"', after: { title: 'T' } }), ctx)).rejects.toThrow(
      'conflict: the domain "id1" was written by someone else while dqform wrote it (the platform answered version 6, expected 4 after version 3)',
    );
  });

  it('deletes with the etag; NOT_FOUND is success, other errors are not', async () => {
    const a = fakeService([], { deleteError: notFound() });
    const h = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: a.s });
    await expect(h.delete(client, change({ action: 'delete', etag: 'e9' }), ctx)).resolves.toBeUndefined();
    expect(a.calls).toEqual([['delete', 'id1', 'e9']]);
    const b = fakeService([], { deleteError: new Error('boom') });
    const h2 = governanceHandler({ descriptor: domainDescriptor, canonical, write: () => ({}), service: b.s });
    await expect(h2.delete(client, change({ action: 'delete' }), ctx)).rejects.toThrow('boom');
  });
});

describe('ruleWrites', () => {
  function fakeRules(opts: { errors?: { id: string; reason: string }[]; deleteError?: Error } = {}) {
    const calls: unknown[][] = [];
    const svc: RuleService<Json> = {
      deploy: async (r) => void calls.push(['deploy', r]),
      delete: async (id) => {
        calls.push(['delete', id]);
        if (opts.deleteError) throw opts.deleteError;
      },
      batchDeploy: async (rs) => (calls.push(['batchDeploy', rs]), { errors: opts.errors ?? [] }),
    };
    return { svc, calls };
  }
  const write = (c: Change, x: HandlerContext) => ({ id: c.id, ctx: x === ctx });

  it('create and update deploy the write message', async () => {
    const { svc, calls } = fakeRules();
    const w = ruleWrites(write, () => svc);
    await w.create!(client, change({ id: 'r1' }), ctx);
    await w.update!(client, change({ id: 'r2' }), ctx);
    expect(calls).toEqual([
      ['deploy', { id: 'r1', ctx: true }],
      ['deploy', { id: 'r2', ctx: true }],
    ]);
  });

  it('delete by id; NOT_FOUND is success, other errors are not', async () => {
    const a = fakeRules({ deleteError: notFound() });
    await expect(ruleWrites(write, () => a.svc).delete(client, change({ id: 'r1' }), ctx)).resolves.toBeUndefined();
    expect(a.calls).toEqual([['delete', 'r1']]);
    const b = fakeRules({ deleteError: new Error('denied') });
    await expect(ruleWrites(write, () => b.svc).delete(client, change({ id: 'r1' }), ctx)).rejects.toThrow('denied');
  });

  it('writeMany: no call for none; one batch deploy; per-item errors by address', async () => {
    const a = fakeRules();
    const w = ruleWrites(write, () => a.svc);
    expect(await w.writeMany!(client, [], ctx)).toEqual(new Map());
    expect(a.calls).toEqual([]);
    const b = fakeRules({ errors: [{ id: 'r2', reason: 'bad query' }] });
    const out = await ruleWrites(write, () => b.svc).writeMany!(client, [change({ id: 'r1', address: 'dq_x.a' }), change({ id: 'r2', address: 'dq_x.b' })], ctx);
    expect(b.calls).toEqual([
      [
        'batchDeploy',
        [
          { id: 'r1', ctx: true },
          { id: 'r2', ctx: true },
        ],
      ],
    ]);
    expect([...out.keys()]).toEqual(['dq_x.b']);
    const e = out.get('dq_x.b');
    expect(e).toBeInstanceOf(ItemWriteError);
    expect(e?.message).toBe('dq_x.b (r2): bad query');
  });
});

describe('ruleHandler', () => {
  const calls: unknown[][] = [];
  const svc: RuleService<Json> = {
    deploy: async (r) => void calls.push(['deploy', r]),
    delete: async (id) => void calls.push(['delete', id]),
    batchDeploy: async (rs) => (calls.push(['batchDeploy', rs]), { errors: [] }),
  };
  const read = async () => [];
  const h = ruleHandler<Json, string>({
    descriptor: monitorDeploymentRuleDescriptor,
    read,
    fromLive: (o) => ({ live: o }),
    fromDesired: (o) => ({ desired: o }),
    write: (c) => ({ id: c.id }),
    service: () => svc,
    preview: {
      sources: { deploy: 'deploy-overview', delete: 'delete-overview' },
      deployOverview: async (_c, ch) => `deploy ${ch.id}`,
      deleteOverview: async (_c, id) => {
        throw new Error(`no overview of ${id}`);
      },
      effects: (source, ov) => ({ source, summary: ov }) as never,
      failed: () => ({ losesHistory: true }),
    },
  });

  it("takes the descriptor's type and label and the kind's read and forms; never a replace", () => {
    expect([h.type, h.label]).toEqual([monitorDeploymentRuleDescriptor.type, monitorDeploymentRuleDescriptor.label]);
    expect(h.read).toBe(read);
    expect(h.fromLive({ a: 1 })).toEqual({ live: { a: 1 } });
    expect(h.fromDesired({ a: 1 })).toEqual({ desired: { a: 1 } });
    expect(h.replaceReasons({ a: 1 }, { a: 2 })).toEqual([]);
  });

  it("writes through the kind's service and previews from its overviews (a failed one is an error effect)", async () => {
    await h.create(client, change({ id: 'r1' }), ctx);
    await h.delete(client, change({ id: 'r2' }), ctx);
    expect(calls).toEqual([
      ['deploy', { id: 'r1' }],
      ['delete', 'r2'],
    ]);
    expect(await h.preview!(client, change({ id: 'r1', action: 'create' }), ctx)).toEqual({ source: 'deploy-overview', summary: 'deploy r1' });
    const failed = await h.preview!(client, change({ id: 'r2', action: 'delete' }), ctx);
    expect(failed).toMatchObject({ source: 'delete-overview', losesHistory: true });
    expect(failed?.error).toBeDefined();
  });
});
