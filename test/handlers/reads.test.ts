/**
 * What each handler reads (which calls, which objects it keeps and how it keys them) and the
 * shared read helpers, against a recording fake client (fake-client.ts). Against a real
 * emulator: lifecycle.test.ts and the e2e suites.
 *
 * @gateway
 */
import { NotFoundError, UnavailableError } from '../../src/client/errors';
import { deriveId, namespaceTag } from '../../src/engine/identity';
import { HANDLERS } from '../../src/kinds/index';
import { isOurs, keepForNamespace, liveObject, readByKeys } from '../../src/kinds/shared/support';
import type { LiveObject, ReadQuery } from '../../src/kinds/shared/types';
import { UNMODELLED } from '../../schemas/platform/wire';
import { fakeClient } from './fake-client';

const WS = 'demo';
const NS = 'shop';
const mine = (name: string) => deriveId(WS, NS, 'dq_owner', name);
const theirs = (name: string) => deriveId(WS, 'other', 'dq_owner', name);
const UI = '0a000000-0000-4000-8000-0000000000ff';
const owns = (id: string) => id.replace(/^(owner|domain|dataproduct)-/, '').toLowerCase().startsWith(namespaceTag(WS, NS).slice(0, 8));
const q = (over: Partial<ReadQuery> = {}): ReadQuery => ({ workspace: WS, namespace: NS, keys: [], owns, ...over });
const keys = (objs: LiveObject[]) => objs.map((o) => o.key);

describe('liveObject', () => {
  test('lifts id, etag, configId, source and deploymentRuleId; empty strings count as absent', () => {
    const raw = { id: 'i1', etag: 'W/"1"', configId: 'shop', source: 'SOURCE_API', deploymentRuleId: 'r1', name: 'n' };
    expect(liveObject('k1', raw)).toEqual({ key: 'k1', id: 'i1', etag: 'W/"1"', configId: 'shop', source: 'SOURCE_API', deploymentRuleId: 'r1', raw });
    const bare = { id: '', etag: '', configId: '', source: '', deploymentRuleId: '' };
    expect(liveObject('k2', bare)).toEqual({ key: 'k2', id: 'k2', raw: bare });
    expect(liveObject('k3', { id: 7 as unknown as string })).toEqual({ key: 'k3', id: 'k3', raw: { id: 7 } });
  });

  test('what the read marked as not modelled makes the object unmanageable', () => {
    const raw = { id: 'i1' };
    Object.defineProperty(raw, UNMODELLED, { value: ['unknown field "x"'], enumerable: false });
    expect(liveObject('k', raw).unmanageable).toEqual(['unknown field "x"']);
    const none = { id: 'i2' };
    Object.defineProperty(none, UNMODELLED, { value: [], enumerable: false });
    expect(liveObject('k', none)).not.toHaveProperty('unmanageable');
  });
});

describe('readByKeys', () => {
  test('no keys: no request', async () => {
    const fetch = jest.fn();
    expect(await readByKeys([], fetch)).toEqual([]);
    expect(fetch).not.toHaveBeenCalled();
  });

  test('asks each key once, sorted; answers found keys keyed as asked (the server answers bare, lower-case ids)', async () => {
    const id = mine('a');
    const fetch = jest.fn(async (_ids: string[]) => ({ [id]: { id, etag: 'e1' }, zzz: { id: 'zzz' } }));
    const out = await readByKeys([`owner-${id.toUpperCase()}`, 'zzz', 'zzz', 'gone'], fetch);
    expect(fetch).toHaveBeenCalledWith(['gone', `owner-${id.toUpperCase()}`, 'zzz']);
    expect(out.map((o) => [o.key, o.id, o.etag])).toEqual([
      [`owner-${id.toUpperCase()}`, id, 'e1'],
      ['zzz', 'zzz', undefined],
    ]);
  });
});

describe('keepForNamespace', () => {
  const all = [{ id: theirs('b') }, { id: mine('a'), etag: 'e' }, { id: UI }, { id: theirs('c') }, { id: mine('a') }];

  test("keeps the namespace's objects (by tag), sorted, once each (a page boundary may repeat one)", () => {
    const out = keepForNamespace(all, q());
    expect(keys(out)).toEqual([mine('a')]);
    expect(out[0]).not.toHaveProperty('context');
    expect(out[0].etag).toBe('e');
  });

  test('keeps the keys asked for, keyed as asked, not as context', () => {
    const out = keepForNamespace(all, q({ keys: [`owner-${UI.toUpperCase()}`] }));
    expect(keys(out).sort()).toEqual([mine('a'), `owner-${UI.toUpperCase()}`].sort());
    expect(out.find((o) => o.id === UI)).not.toHaveProperty('context');
  });

  test("keeps what `related` names as context only; drops the rest of the workspace", () => {
    const out = keepForNamespace(all, q(), (o) => o.id === theirs('c'));
    expect(out.map((o) => [o.key, o.context ?? false])).toEqual(
      [
        [mine('a'), false],
        [theirs('c'), true],
      ].sort((a, b) => ((a[0] as string) < (b[0] as string) ? -1 : 1)),
    );
  });

  test('without `owns` nothing is the namespace\'s', () => {
    expect(keepForNamespace(all, { keys: [] })).toEqual([]);
  });
});

describe('isOurs', () => {
  test.each([
    ['an id with the namespace tag', mine('a'), true],
    ['the same as owner-<ID>', `owner-${mine('a').toUpperCase()}`, true],
    ['an id the code declares', UI, true],
    ['an id of another namespace', theirs('a'), false],
    ['an empty id', '', false],
    ['not a string', 42, false],
  ])('%s', (_why, id, want) => {
    expect(isOurs({ owns, declaredIds: new Set([UI]) }, id)).toBe(want);
  });

  test('neither owns nor declaredIds: nothing is ours', () => {
    expect(isOurs({}, mine('a'))).toBe(false);
  });
});

describe('governance reads', () => {
  test('owners: the full list (page size 1000) kept for the namespace; keysOnly: a batch get of the keys only (deleted ones when asked)', async () => {
    const { client, calls } = fakeClient({ 'owners.listOwners': [{ id: mine('a') }, { id: UI }], 'owners.batchGetOwners': { [UI]: { id: UI, deletedAt: '2026-01-01T00:00:00Z' } } });
    expect(keys(await HANDLERS.dq_owner.read(client, q()))).toEqual([mine('a')]);
    const deleted = await HANDLERS.dq_owner.read(client, q({ keys: [UI], keysOnly: true, includeDeleted: true }));
    expect(deleted.map((o) => [o.key, o.deleted])).toEqual([[UI, true]]);
    await HANDLERS.dq_owner.read(client, q({ keys: [UI], keysOnly: true }));
    expect(calls).toEqual([
      { op: 'owners.listOwners', args: [1000] },
      { op: 'owners.batchGetOwners', args: [[UI], { includeDeleted: true }] },
      { op: 'owners.batchGetOwners', args: [[UI], {}] },
    ]);
  });

  test.each([
    ['dq_domain', 'domains'],
    ['dq_data_product', 'dataProducts'],
  ] as const)('%s: the full list kept for the namespace; keysOnly: a batch get (deleted ones when asked)', async (type, service) => {
    const { client, calls } = fakeClient({ [`${service}.list`]: [{ id: mine('a') }, { id: UI }], [`${service}.batchGet`]: { [UI]: { id: UI } } });
    expect(keys(await HANDLERS[type].read(client, q()))).toEqual([mine('a')]);
    const got = await HANDLERS[type].read(client, q({ keys: [UI], keysOnly: true, includeDeleted: true }));
    expect(got.map((o) => [o.key, o.deleted])).toEqual([[UI, undefined]]);
    expect(calls).toEqual([
      { op: `${service}.list`, args: [1000] },
      { op: `${service}.batchGet`, args: [[UI], { includeDeleted: true }] },
    ]);
  });

  test("domains: a domain whose parent or member is the namespace's (or declared) is read as context", async () => {
    const parent = deriveId(WS, NS, 'dq_domain', 'p');
    const declared = '0a000000-0000-4000-8000-00000000000d';
    const product = deriveId(WS, NS, 'dq_data_product', 'x');
    const list = [
      { id: 'c1-ui-child', parentId: `domain-${parent}` },
      { id: 'c2-ui-member', definition: { parts: [{ domainId: parent }] } },
      { id: 'c3-ui-product-member', definition: { parts: [{ dataproductId: product }] } },
      { id: 'c4-ui-declared-member', definition: { parts: [{ domainId: declared }] } },
      { id: 'c5-ui-unrelated', parentId: UI, definition: { parts: [{ domainId: UI }] } },
      { id: 'c6-ui-no-parts' },
    ];
    const { client } = fakeClient({ 'domains.list': list });
    const out = await HANDLERS.dq_domain.read(client, q({ declaredIds: new Set([declared]) }));
    expect(out.map((o) => [o.key, o.context])).toEqual([
      ['c1-ui-child', true],
      ['c2-ui-member', true],
      ['c3-ui-product-member', true],
      ['c4-ui-declared-member', true],
    ]);
  });

  describe('ownerships: through their owners', () => {
    const oA = mine('a');
    const oB = '0a000000-0000-4000-8000-0000000000b0';
    const s = (id: string, ownerId: string) => ({ id, ownerId, selection: { dataproductId: 'p' } });

    test("lists the ownerships of the namespace's owners and of the owners declared ownerships name", async () => {
      const sMine = deriveId(WS, NS, 'dq_ownership', 's1');
      const { client, calls } = fakeClient({
        'owners.listOwnerships': (ownerId: unknown) => (ownerId === oA ? [s(sMine, oA), s('ui-1', oA)] : [s('ui-2', oB)]),
      });
      const before = { dq_owner: [{ key: oA, id: oA, raw: {} }, { key: 'ctx', id: 'ctx-owner', raw: {}, context: true }] };
      const out = await HANDLERS.dq_ownership.read(client, q({ before, desired: [{ ownerId: `owner-${oB.toUpperCase()}` }, { ownerId: '' }, {}] }));
      // each owner once (bare, lower-case), in id order
      expect(calls.map((c) => c.args)).toEqual([
        [oB, 1000],
        [oA, 1000],
      ]);
      // the namespace's ownership, and every other ownership of those owners as context
      expect(out.map((o) => [o.key, o.context ?? false])).toEqual(
        [
          [sMine, false],
          ['ui-1', true],
          ['ui-2', true],
        ].sort((x, y) => ((x[0] as string) < (y[0] as string) ? -1 : 1)),
      );
    });

    test('an owner that is gone holds nothing; other failures are thrown', async () => {
      const gone = fakeClient({ 'owners.listOwnerships': new NotFoundError({ method: 'GET', path: '/o', status: 404 }) });
      expect(await HANDLERS.dq_ownership.read(gone.client, q({ desired: [{ ownerId: oB }] }))).toEqual([]);
      const down = fakeClient({ 'owners.listOwnerships': new UnavailableError({ method: 'GET', path: '/o', status: 503 }) });
      await expect(HANDLERS.dq_ownership.read(down.client, q({ desired: [{ ownerId: oB }] }))).rejects.toBeInstanceOf(UnavailableError);
    });

    test('keys no listed owner holds are batch-got (once each, sorted); none missing: no batch get', async () => {
      const { client, calls } = fakeClient({
        'owners.listOwnerships': [s('k1', oA)],
        'owners.batchGetOwnerships': { k3: s('k3', UI) },
      });
      const out = await HANDLERS.dq_ownership.read(client, q({ keys: ['k3', 'k1', 'k2', 'k3'], desired: [{ ownerId: oA }] }));
      expect(calls.map((c) => c.op)).toEqual(['owners.listOwnerships', 'owners.batchGetOwnerships']);
      expect(calls[1].args).toEqual([['k2', 'k3']]);
      expect(keys(out)).toEqual(['k1', 'k3']);
      const all = fakeClient({ 'owners.listOwnerships': [s('k1', oA)] });
      await HANDLERS.dq_ownership.read(all.client, q({ keys: ['k1'], desired: [{ ownerId: oA }] }));
      expect(all.calls.map((c) => c.op)).toEqual(['owners.listOwnerships']);
    });

    test('keysOnly: a batch get of the keys (deleted ones when asked), nothing listed', async () => {
      const { client, calls } = fakeClient({ 'owners.batchGetOwnerships': { k1: s('k1', oA) } });
      expect(keys(await HANDLERS.dq_ownership.read(client, q({ keys: ['k1'], keysOnly: true, includeDeleted: true, desired: [{ ownerId: oA }] })))).toEqual(['k1']);
      expect(calls).toEqual([{ op: 'owners.batchGetOwnerships', args: [['k1'], { includeDeleted: true }] }]);
    });
  });
});

describe('kinds with configId: the whole workspace', () => {
  test('alerts: every id listed, then batch-got in chunks of 200 (4 at a time), keyed by fqn and sorted', async () => {
    const ids = Array.from({ length: 450 }, (_, i) => `a${String(i).padStart(3, '0')}`);
    let inFlight = 0;
    let peak = 0;
    const { client, calls } = fakeClient({
      'alerts.list': [...ids].reverse().concat(ids.slice(0, 3)),
      'alerts.batchGet': async (chunk: unknown) => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setImmediate(r));
        inFlight--;
        return Object.fromEntries((chunk as { id: string }[]).map(({ id }) => [id, { id, fqn: `shop.${id}`, configId: 'shop' }]));
      },
    });
    const out = await HANDLERS.dq_alert.read(client, q());
    const gets = calls.filter((c) => c.op === 'alerts.batchGet').map((c) => (c.args[0] as { id: string }[]).map((x) => x.id));
    expect(gets.map((g) => g.length)).toEqual([200, 200, 50]);
    expect(gets.flat()).toEqual(ids);
    expect(peak).toBeGreaterThan(1);
    expect(peak).toBeLessThanOrEqual(4);
    expect(out).toHaveLength(450);
    expect(out[0]).toMatchObject({ key: 'shop.a000', id: 'a000', configId: 'shop' });
    expect(keys(out)).toEqual(ids.map((i) => `shop.${i}`));
  });

  test('alerts: sorted by fqn, whatever order the ids sort in and the batch answers come in', async () => {
    // fqns sort the other way round from the ids (and the answers come in id order)
    const ids = Array.from({ length: 5 }, (_, i) => `a${i}`);
    const { client } = fakeClient({
      'alerts.list': ids,
      'alerts.batchGet': (chunk: unknown) => Object.fromEntries((chunk as { id: string }[]).map(({ id }) => [id, { id, fqn: `shop.z${9 - Number(id.slice(1))}`, configId: 'shop' }])),
    });
    expect(keys(await HANDLERS.dq_alert.read(client, q()))).toEqual(['shop.z5', 'shop.z6', 'shop.z7', 'shop.z8', 'shop.z9']);
  });

  test('alerts: an empty workspace costs one list call', async () => {
    const { client, calls } = fakeClient({ 'alerts.list': [] });
    expect(await HANDLERS.dq_alert.read(client, q())).toEqual([]);
    expect(calls.map((c) => c.op)).toEqual(['alerts.list']);
  });

  test.each([
    ['dq_monitor_deployment_rule', 'deploymentRules.list'],
    ['dq_sql_test', 'sqlTests.list'],
    ['dq_sql_test_deployment_rule', 'sqlTestRules.list'],
  ] as const)('%s: one unfiltered list (page size 1000), keyed by id and sorted', async (type, op) => {
    const { client, calls } = fakeClient({ [op]: [{ id: 'r2', configId: 'x' }, { id: 'r1', deploymentRuleId: 'd' }] });
    const out = await HANDLERS[type].read(client, q({ keys: ['ignored'] }));
    expect(calls).toEqual([{ op, args: [{}, 1000] }]);
    expect(out.map((o) => [o.key, o.configId, o.deploymentRuleId])).toEqual([
      ['r1', undefined, 'd'],
      ['r2', 'x', undefined],
    ]);
  });

  test.each([
    ['dq_sql_test', 'sqlTests.batchGet'],
    ['dq_sql_test_deployment_rule', 'sqlTestRules.batchGet'],
  ] as const)('%s keysOnly (the applier re-reads what it writes): a batch get of those ids only', async (type, op) => {
    const { client, calls } = fakeClient({ [op]: { r1: { id: 'r1', configId: 'shop' } } });
    const out = await HANDLERS[type].read(client, q({ keys: ['r1', 'gone'], keysOnly: true }));
    expect(calls).toEqual([{ op, args: [['gone', 'r1']] }]);
    expect(out.map((o) => [o.key, o.configId])).toEqual([['r1', 'shop']]);
  });

  test('monitor rules keysOnly still list (BatchGet needs a narrower scope than List)', async () => {
    const { client, calls } = fakeClient({ 'deploymentRules.list': [{ id: 'r1' }] });
    expect(keys(await HANDLERS.dq_monitor_deployment_rule.read(client, q({ keys: ['r1'], keysOnly: true })))).toEqual(['r1']);
    expect(calls.map((c) => c.op)).toEqual(['deploymentRules.list']);
  });
});

describe('(added for the mutation run of src/handlers) reads come back sorted by key, whatever order the platform lists them in', () => {
  test.each([
    ['dq_sql_test', 'sqlTests.list'],
    ['dq_sql_test_deployment_rule', 'sqlTestRules.list'],
    ['dq_monitor_deployment_rule', 'deploymentRules.list'],
  ] as const)('%s', async (type, op) => {
    const ids = ['c3', 'a1', 'b2', 'a0'];
    const { client } = fakeClient({ [op]: ids.map((id) => ({ id, title: id })) });
    const out = await HANDLERS[type].read(client, q());
    expect(keys(out)).toEqual(['a0', 'a1', 'b2', 'c3']);
  });
});
