/**
 * What each handler sends for create, update and delete (the operation, the body, the etag), and
 * how it treats the answers (NOT_FOUND on delete, per-item batch errors), against a recording
 * fake client (fake-client.ts). The same against a real emulator: lifecycle.test.ts.
 *
 * @gateway
 */
import { noteRetry } from '../../src/client/attempts';
import { AlreadyExistsError, ConflictError, NotFoundError, ValidationError } from '../../src/client/errors';
import type { Change } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import type { HandlerContext } from '../../src/kinds/shared/types';
import { fakeClient } from './fake-client';

const ctx: HandlerContext = { workspace: 'demo', namespace: 'shop' };
const ID = '0a000000-0000-4000-8000-0000000000aa';
const notFound = () => new NotFoundError({ method: 'DELETE', path: '/x', status: 404 });
const conflict = () => new ConflictError({ method: 'DELETE', path: '/x', status: 409 });

function change(type: string, action: Change['action'], after: Record<string, unknown> | null, over: Partial<Change> = {}): Change {
  return { address: `${type}.x`, type, action, id: ID, before: null, after, patch: [], sensitive: [], dependsOn: [], ...over };
}

describe('governance kinds: every field written explicitly, the plan etag on update and delete', () => {
  /** Upserts answer the stored object; its etag `W/"<id>-<version>"` is checked. */
  const stored = (version: number) => async () => ({ etag: `W/"${ID}-${version}"` });

  test('owner: contacts in their presence wrapper, present and empty when none are declared', async () => {
    const { client, calls } = fakeClient({ 'owners.upsertOwner': stored(1) });
    const h = HANDLERS.dq_owner;
    await h.create(client, change('dq_owner', 'create', { title: 'Data team', contacts: [{ email: 'a@x.io' }] }), ctx);
    await h.update(client, change('dq_owner', 'update', { title: 'Data team' }, { etag: `W/"${ID}-0"` }), ctx);
    await h.delete(client, change('dq_owner', 'delete', null, { etag: 'W/"o-4"' }), ctx);
    expect(calls).toEqual([
      { op: 'owners.upsertOwner', args: [{ id: ID, title: 'Data team', contacts: { contacts: [{ email: 'a@x.io' }] } }, null] },
      { op: 'owners.upsertOwner', args: [{ id: ID, title: 'Data team', contacts: { contacts: [] } }, `W/"${ID}-0"`] },
      { op: 'owners.deleteOwner', args: [ID, 'W/"o-4"'] },
    ]);
  });

  test('domain: description, parent and definition cleared explicitly when the code declares none', async () => {
    const { client, calls } = fakeClient({ 'domains.upsert': stored(3) });
    const h = HANDLERS.dq_domain;
    await h.create(client, change('dq_domain', 'create', { name: 'Sales' }, { etag: `W/"${ID}-2"` }), ctx);
    await h.update(client, change('dq_domain', 'update', { name: 'Sales', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'q' }] } }, { etag: `W/"${ID}-2"` }), ctx);
    await h.delete(client, change('dq_domain', 'delete', null, { etag: 'W/"d-3"' }), ctx);
    expect(calls).toEqual([
      // a create over a soft-deleted object sends that object's etag (applier: compare-and-swap)
      { op: 'domains.upsert', args: [{ id: ID, name: 'Sales', description: '', parentId: '', definition: { parts: [] } }, `W/"${ID}-2"`] },
      { op: 'domains.upsert', args: [{ id: ID, name: 'Sales', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'q' }] } }, `W/"${ID}-2"`] },
      { op: 'domains.delete', args: [ID, { etag: 'W/"d-3"' }] },
    ]);
  });

  test('data product: description, folder, priority and definition cleared explicitly when the code declares none', async () => {
    const { client, calls } = fakeClient({ 'dataProducts.upsert': stored(1) });
    const h = HANDLERS.dq_data_product;
    await h.create(client, change('dq_data_product', 'create', { title: 'Orders' }), ctx);
    await h.update(client, change('dq_data_product', 'update', { title: 'Orders', description: 'd', folder: 'f', priority: 'PRIORITY_HIGH', definition: { parts: [{ dataproductId: 'q' }] } }, { etag: `W/"${ID}-0"` }), ctx);
    await h.delete(client, change('dq_data_product', 'delete', null, { etag: 'W/"p-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'dataProducts.upsert', args: [{ id: ID, title: 'Orders', description: '', folder: '', priority: 'PRIORITY_UNSPECIFIED', definition: { parts: [] } }, null] },
      { op: 'dataProducts.upsert', args: [{ id: ID, title: 'Orders', description: 'd', folder: 'f', priority: 'PRIORITY_HIGH', definition: { parts: [{ dataproductId: 'q' }] } }, `W/"${ID}-0"`] },
      { op: 'dataProducts.delete', args: [ID, { etag: 'W/"p-3"' }] },
    ]);
  });

  test('ownership: an empty alert when the code declares none (clears a removed one)', async () => {
    const { client, calls } = fakeClient({ 'owners.upsertOwnership': stored(1) });
    const h = HANDLERS.dq_ownership;
    const selection = { dataproductId: 'p1' };
    await h.create(client, change('dq_ownership', 'create', { ownerId: 'o1', selection }), ctx);
    await h.update(client, change('dq_ownership', 'update', { ownerId: 'o1', selection, alert: { severities: ['SEVERITY_ERROR'] } }, { etag: `W/"${ID}-0"` }), ctx);
    await h.delete(client, change('dq_ownership', 'delete', null, { etag: 'W/"s-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'owners.upsertOwnership', args: [{ id: ID, ownerId: 'o1', selection, alert: { severities: [] } }, null] },
      { op: 'owners.upsertOwnership', args: [{ id: ID, ownerId: 'o1', selection, alert: { severities: ['SEVERITY_ERROR'] } }, `W/"${ID}-0"`] },
      { op: 'owners.deleteOwnership', args: [ID, 'W/"s-3"'] },
    ]);
  });
});

describe('governance: the version the upsert answers is checked', () => {
  const h = HANDLERS.dq_owner;
  const owner = { title: 'Data team' };

  test('a version that jumped is a conflict naming the object; nothing is read back without a retry', async () => {
    const { client, calls } = fakeClient({ 'owners.upsertOwner': { etag: `W/"${ID}-2"` } });
    await expect(h.create(client, change('dq_owner', 'create', owner), ctx)).rejects.toThrow(
      `conflict: the owner "${ID}" was written by someone else while dqform wrote it (the platform answered version 2, expected 1 after a new object)`,
    );
    expect(calls.map((c) => c.op)).toEqual(['owners.upsertOwner']);
  });

  test('an update answering one version more than the plan etag is fine; two more is a conflict', async () => {
    const one = fakeClient({ 'owners.upsertOwner': { etag: `W/"${ID}-8"` } });
    await expect(h.update(one.client, change('dq_owner', 'update', owner, { etag: `W/"${ID}-7"` }), ctx)).resolves.toBeUndefined();
    const two = fakeClient({ 'owners.upsertOwner': { etag: `W/"${ID}-9"` } });
    await expect(h.update(two.client, change('dq_owner', 'update', owner, { etag: `W/"${ID}-7"` }), ctx)).rejects.toThrow('answered version 9, expected 8 after version 7');
  });

  test("a write the client retried is read back: dqform's own landed first attempt is not a conflict", async () => {
    const retried = (answer: unknown) => async () => {
      noteRetry(); // the client's retry of this call (its first attempt landed)
      return answer;
    };
    const same = fakeClient({ 'owners.upsertOwner': retried({ etag: `W/"${ID}-2"` }), 'owners.batchGetOwners': { [ID]: { id: ID, title: 'Data team', etag: `W/"${ID}-2"` } } });
    await expect(h.create(same.client, change('dq_owner', 'create', HANDLERS.dq_owner.fromDesired(owner)), ctx)).resolves.toBeUndefined();
    expect(same.calls.map((c) => c.op)).toEqual(['owners.upsertOwner', 'owners.batchGetOwners']);
    expect(same.calls[1].args).toEqual([[ID]]);
    const other = fakeClient({ 'owners.upsertOwner': retried({ etag: `W/"${ID}-2"` }), 'owners.batchGetOwners': { [ID]: { id: ID, title: 'Someone else' } } });
    await expect(h.create(other.client, change('dq_owner', 'create', HANDLERS.dq_owner.fromDesired(owner)), ctx)).rejects.toThrow('answered version 2');
    const gone = fakeClient({ 'owners.upsertOwner': retried({ etag: `W/"${ID}-2"` }), 'owners.batchGetOwners': {} });
    await expect(h.create(gone.client, change('dq_owner', 'create', HANDLERS.dq_owner.fromDesired(owner)), ctx)).rejects.toThrow('answered version 2');
  });

  test.each([
    ['dq_domain', 'domains.upsert', 'domains.batchGet', { name: 'Sales' }, 'domain'],
    ['dq_data_product', 'dataProducts.upsert', 'dataProducts.batchGet', { title: 'Orders' }, 'data product'],
    ['dq_ownership', 'owners.upsertOwnership', 'owners.batchGetOwnerships', { ownerId: 'o1', selection: { dataproductId: 'p1' } }, 'ownership'],
    ['dq_owner', 'owners.upsertOwner', 'owners.batchGetOwners', { title: 'Team' }, 'owner'],
  ] as const)('%s: the same check, read back by its own batch get (prefixed ids found bare)', async (type, write, get, after, label) => {
    const handler = HANDLERS[type];
    const jumped = fakeClient({ [write]: { etag: `W/"${ID}-3"` } });
    await expect(handler.update(jumped.client, change(type, 'update', after, { etag: `W/"${ID}-1"` }), ctx)).rejects.toThrow(`the ${label} "${ID}" was written by someone else`);
    const desired = handler.fromDesired(after);
    const retried = fakeClient({
      [write]: async () => (noteRetry(), { etag: `W/"${ID}-3"` }),
      [get]: { [ID]: { id: ID, ...after } },
    });
    await expect(handler.update(retried.client, change(type, 'update', desired, { etag: `W/"${ID}-1"` }), ctx)).resolves.toBeUndefined();
    expect(retried.calls[1]).toEqual({ op: get, args: [[ID]] });
  });
});

describe('alerts', () => {
  const issue = { name: 'Orders', issueLifecycle: { trigger: { resolverQl: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }] } };
  const write = { ...issue, fqn: 'shop.orders', configId: 'shop', source: 'SOURCE_API' };
  const taken = () => new AlreadyExistsError({ method: 'POST', path: '/api/alerts/v2', status: 409, grpcCode: 'ALREADY_EXISTS' });

  test('create uses Create (a taken fqn is refused) with the namespace as configId and SOURCE_API', async () => {
    const { client, calls } = fakeClient({ 'alerts.create': { fqn: 'shop.orders', etag: 'W/"a-1"' } });
    await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', issue, { id: 'shop.orders', fqn: 'shop.orders' }), ctx);
    expect(calls).toEqual([{ op: 'alerts.create', args: [write] }]);
  });

  test('an fqn taken by someone else is a conflict naming who holds it; nothing is overwritten', async () => {
    const cases: [Record<string, unknown> | undefined, string][] = [
      [{ ...issue, fqn: 'shop.orders', configId: 'other' }, 'namespace "other"'],
      [{ ...issue, fqn: 'shop.orders' }, 'someone in the UI'],
      [{ ...issue, fqn: 'shop.orders', source: 'SOURCE_APP' }, 'someone in the UI'],
      [{ ...issue, fqn: 'shop.orders', source: 'SOURCE_API' }, 'an API client outside dqform'],
      [{ ...issue, name: 'Different', fqn: 'shop.orders', configId: 'shop' }, 'namespace "shop"'],
      [undefined, 'someone else'],
    ];
    for (const [found, who] of cases) {
      const { client, calls } = fakeClient({ 'alerts.create': taken(), 'alerts.batchGet': found ? { a1: found } : {} });
      await expect(HANDLERS.dq_alert.create(client, change('dq_alert', 'create', HANDLERS.dq_alert.fromDesired(issue), { id: 'shop.orders' }), ctx)).rejects.toThrow(
        `conflict: an alert with fqn "shop.orders" was created by ${who} after the plan; dqform did not overwrite it. Plan again: adopt it with an import block, or pin another fqn`,
      );
      expect(calls.map((c) => c.op)).toEqual(['alerts.create', 'alerts.batchGet']);
      expect(calls[1].args).toEqual([[{ fqn: 'shop.orders' }]]);
    }
  });

  /**
   * A fake alerts service holding one alert (id `a1`, etag `W/"a1-<n>"`): Create and Upsert store
   * and answer it, BatchGet answers it by id, ToggleEnabled sets the flag and bumps the version
   * when it changes. `meddle` runs before each call of `when` (someone else's write in between).
   */
  function alertWorld(
    start: Record<string, unknown> | undefined,
    meddle?: { when: string; nth?: number; apply: (a: Record<string, unknown>) => Record<string, unknown> | undefined },
    opts: { taken?: boolean; retriedToggle?: boolean; toggleKeepsVersion?: boolean } = {},
  ) {
    let cur: Record<string, unknown> | undefined = start ? { id: 'a1', ...start } : undefined;
    let version = 1;
    const seen: Record<string, number> = {};
    const at = () => (cur ? { ...cur, etag: `W/"a1-${version}"` } : undefined);
    const hook = (op: string) => {
      seen[op] = (seen[op] ?? 0) + 1;
      if (meddle && meddle.when === op && (meddle.nth ?? 1) === seen[op] && cur) {
        cur = meddle.apply(cur);
        version++;
      }
    };
    return fakeClient({
      'alerts.create': (w: Record<string, unknown>) => {
        hook('alerts.create');
        if (opts.taken) throw taken();
        cur = { ...w, id: 'a1' };
        return at();
      },
      'alerts.upsert': (w: Record<string, unknown>) => {
        hook('alerts.upsert');
        cur = { ...w, id: 'a1', ...(cur?.isDisabled !== undefined ? { isDisabled: cur.isDisabled } : {}) };
        version++;
        return at();
      },
      'alerts.batchGet': (ids: { id?: string }[]) => {
        hook('alerts.batchGet');
        const a = at();
        return a && ids.some((i) => i.id === 'a1' || i.id === undefined) ? { a1: a } : {};
      },
      'alerts.toggleEnabled': (_i: unknown, isEnabled: boolean) => {
        hook('alerts.toggleEnabled');
        // a retry whose first attempt landed: the flag was already set by the first attempt
        if (opts.retriedToggle) noteRetry();
        if (cur && (cur.isDisabled ?? false) !== !isEnabled) {
          cur = { ...cur, isDisabled: !isEnabled };
          if (!opts.toggleKeepsVersion) version++;
        }
        return undefined;
      },
    });
  }
  const mineAt = { ...issue, fqn: 'shop.orders', configId: 'shop' };

  test('an identical alert of this namespace at the fqn (an equal create won the race) counts as done, then the flag is set', async () => {
    const { client, calls } = alertWorld({ ...mineAt, isDisabled: false }, undefined, { taken: true });
    await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', { ...HANDLERS.dq_alert.fromDesired(issue), isDisabled: true }, { id: 'shop.orders' }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['alerts.create', 'alerts.batchGet', 'alerts.batchGet', 'alerts.toggleEnabled', 'alerts.batchGet']);
    // ToggleEnabled declares no etag (wire-facts 3): none is sent; the alert is addressed by id
    expect(calls[3].args).toEqual([{ id: 'a1' }, false]);
  });

  test('the enabled flag is not part of the sameness: an identical alert found disabled counts as done and is toggled on', async () => {
    const { client, calls } = alertWorld({ ...mineAt, isDisabled: true }, undefined, { taken: true });
    await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', HANDLERS.dq_alert.fromDesired(issue), { id: 'shop.orders' }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['alerts.create', 'alerts.batchGet', 'alerts.batchGet', 'alerts.toggleEnabled', 'alerts.batchGet']);
    expect(calls[3].args).toEqual([{ id: 'a1' }, true]);
  });

  test('other create failures are reported as they are', async () => {
    const { client } = fakeClient({ 'alerts.create': conflict() });
    await expect(HANDLERS.dq_alert.create(client, change('dq_alert', 'create', issue), ctx)).rejects.toBeInstanceOf(ConflictError);
  });

  test('update upserts with the plan etag; the fqn falls back to the change id', async () => {
    const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'W/"a-2"' } });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', issue, { id: 'shop.orders', etag: 'W/"a-1"' }), ctx);
    expect(calls).toEqual([{ op: 'alerts.upsert', args: [write, 'W/"a-1"'] }]);
  });

  test('isDisabled is not sent in the write; a disabled alert is then read, toggled off without an etag, and read back', async () => {
    const u = alertWorld({ ...mineAt });
    await HANDLERS.dq_alert.update(u.client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', fqn: 'shop.orders', etag: 'W/"a1-1"' }), ctx);
    const c = alertWorld(undefined);
    await HANDLERS.dq_alert.create(c.client, change('dq_alert', 'create', { ...issue, isDisabled: true }, { id: 'shop.orders' }), ctx);
    for (const { calls } of [u, c]) {
      expect(calls.map((x) => x.op).slice(1)).toEqual(['alerts.batchGet', 'alerts.toggleEnabled', 'alerts.batchGet']);
      expect(calls[0].args[0]).not.toHaveProperty('isDisabled');
      expect(calls[1].args).toEqual([[{ id: 'a1' }]]);
      expect(calls[2].args).toEqual([{ id: 'a1' }, false]);
    }
  });

  test('an alert enabled again is toggled on', async () => {
    const { client, calls } = alertWorld({ ...mineAt, isDisabled: true });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', issue, { id: 'shop.orders', etag: 'W/"a1-1"' }), ctx);
    expect(calls[2]).toEqual({ op: 'alerts.toggleEnabled', args: [{ id: 'a1' }, true] });
  });

  // ToggleEnabled has no server-side precondition (wire-facts 3): before, the handler sent an
  // etag the gateway drops and trusted it; now it reads and compares right before and after
  const raced: { reason: string; when: string; nth?: number; apply: (a: Record<string, unknown>) => Record<string, unknown> | undefined; toggled: boolean; why: RegExp }[] = [
    { reason: 'renamed between the write and the toggle', when: 'alerts.batchGet', apply: (a) => ({ ...a, name: 'renamed in the UI' }), toggled: false, why: /holds something other than what dqform wrote.*checked right before dqform disabled it; not disabled/ },
    { reason: 'deleted between the write and the toggle', when: 'alerts.batchGet', apply: () => undefined, toggled: false, why: /the alert is gone.*not disabled/ },
    { reason: 'switched by someone else between the write and the toggle', when: 'alerts.batchGet', apply: (a) => ({ ...a, isDisabled: true }), toggled: false, why: /the alert is disabled \(someone else switched it\)/ },
    { reason: 'written again by someone else (same content) between the write and the toggle', when: 'alerts.batchGet', apply: (a) => ({ ...a }), toggled: false, why: /version 3, expected 2 \(someone else wrote it in between\)/ },
    { reason: 'renamed right after the toggle', when: 'alerts.batchGet', nth: 2, apply: (a) => ({ ...a, name: 'renamed in the UI' }), toggled: true, why: /holds something other than what dqform wrote.*read back after dqform disabled it/ },
    { reason: 'switched back right after the toggle', when: 'alerts.batchGet', nth: 2, apply: (a) => ({ ...a, isDisabled: false }), toggled: true, why: /the alert is enabled \(someone else switched it\), read back after/ },
  ];
  test.each(raced)('a toggle guard that holds: $reason is a conflict', async ({ when, nth, apply, toggled, why }) => {
    const { client, calls } = alertWorld({ ...mineAt }, { when, nth, apply });
    const err = await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', etag: 'W/"a1-1"' }), ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).name).toBe('WriteConflictError');
    expect((err as Error).message).toMatch(why);
    expect(calls.some((c) => c.op === 'alerts.toggleEnabled')).toBe(toggled);
  });

  test('a toggle that does not count as a new version reads back as done (whether it does is not stated)', async () => {
    const { client, calls } = alertWorld({ ...mineAt }, undefined, { toggleKeepsVersion: true });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', etag: 'W/"a1-1"' }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['alerts.upsert', 'alerts.batchGet', 'alerts.toggleEnabled', 'alerts.batchGet']);
  });

  test('a retried toggle (its first attempt may have landed) is judged by content and flag, not by the version', async () => {
    // the toggle answered after a retry, and someone else's same-content write bumped the version once more
    const { client, calls } = alertWorld({ ...mineAt }, { when: 'alerts.batchGet', nth: 2, apply: (a) => ({ ...a }) }, { retriedToggle: true });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', etag: 'W/"a1-1"' }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['alerts.upsert', 'alerts.batchGet', 'alerts.toggleEnabled', 'alerts.batchGet']);
    // without the retry, the same answer is a conflict (the version jumped by two)
    const plain = alertWorld({ ...mineAt }, { when: 'alerts.batchGet', nth: 2, apply: (a) => ({ ...a }) });
    await expect(HANDLERS.dq_alert.update(plain.client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', etag: 'W/"a1-1"' }), ctx)).rejects.toThrow(/version 4, expected 2 or 3/);
  });

  test('no toggle when the stored flag already matches', async () => {
    for (const [stored, want] of [
      [true, true],
      [false, false],
      [undefined, false],
    ] as const) {
      const { client, calls } = fakeClient({ 'alerts.create': { fqn: 'shop.orders', etag: 'e', ...(stored === undefined ? {} : { isDisabled: stored }) } });
      await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', { ...issue, ...(want ? { isDisabled: true } : {}) }, { id: 'shop.orders' }), ctx);
      expect(calls.map((c) => c.op)).toEqual(['alerts.create']);
    }
  });

  test('delete by fqn with the plan etag', async () => {
    const { client, calls } = fakeClient();
    await HANDLERS.dq_alert.delete(client, change('dq_alert', 'delete', null, { id: 'shop.orders', fqn: 'shop.old', etag: 'W/"a-9"' }), ctx);
    await HANDLERS.dq_alert.delete(client, change('dq_alert', 'delete', null, { id: 'shop.orders', etag: 'W/"a-9"' }), ctx);
    expect(calls).toEqual([
      { op: 'alerts.delete', args: [{ fqn: 'shop.old' }, 'W/"a-9"'] },
      { op: 'alerts.delete', args: [{ fqn: 'shop.orders' }, 'W/"a-9"'] },
    ]);
  });

  test('create or update without a desired value is a bug, named by address', async () => {
    const { client } = fakeClient();
    await expect(HANDLERS.dq_alert.create(client, change('dq_alert', 'create', null), ctx)).rejects.toThrow('dq_alert.x: create without a desired value (after)');
  });
});

describe('rules: Deploy with identity, namespace and source; no etag', () => {
  test.each([
    ['dq_monitor_deployment_rule', 'deploymentRules', { title: 'r', staticConfig: { path: 'wh::a' } }],
    ['dq_sql_test_deployment_rule', 'sqlTestRules', { title: 't', staticConfig: { path: 'wh::a', tests: [] } }],
  ] as const)('%s', async (type, service, after) => {
    const { client, calls } = fakeClient();
    const h = HANDLERS[type];
    await h.create(client, change(type, 'create', after), ctx);
    await h.update(client, change(type, 'update', after, { etag: 'ignored' }), ctx);
    await h.delete(client, change(type, 'delete', null), ctx);
    const body = { ...after, id: ID, configId: 'shop', source: 'SOURCE_API' };
    expect(calls).toEqual([
      { op: `${service}.deploy`, args: [body] },
      { op: `${service}.deploy`, args: [body] },
      { op: `${service}.delete`, args: [ID] },
    ]);
  });

  test.each([
    ['dq_monitor_deployment_rule', 'deploymentRules'],
    ['dq_sql_test_deployment_rule', 'sqlTestRules'],
  ] as const)('%s writeMany: one BatchDeploy, per-item errors by address (bare or prefixed ids), nothing for nothing', async (type, service) => {
    const other = '0a000000-0000-4000-8000-0000000000bb';
    const { client, calls } = fakeClient({ [`${service}.batchDeploy`]: { items: [ID], errors: [{ id: other.toUpperCase(), reason: 'invalid path' }] } });
    const h = HANDLERS[type];
    const a = change(type, 'create', { title: 'a' }, { address: `${type}.a` });
    const b = change(type, 'update', { title: 'b' }, { address: `${type}.b`, id: other });
    const errors = await h.writeMany!(client, [a, b], ctx);
    expect([...errors.keys()]).toEqual([`${type}.b`]);
    expect(errors.get(`${type}.b`)!.message).toBe(`${type}.b (${other.toUpperCase()}): invalid path`);
    expect(calls).toHaveLength(1);
    expect(calls[0].op).toBe(`${service}.batchDeploy`);
    expect((calls[0].args[0] as { id: string }[]).map((r) => r.id)).toEqual([ID, other]);
    expect(await h.writeMany!(client, [], ctx)).toEqual(new Map());
    expect(calls).toHaveLength(1);
  });
});

describe('SQL tests: BatchUpsert and BatchDelete of one', () => {
  const h = HANDLERS.dq_sql_test;
  const after = { name: 'T', sqlExpression: 'select 1', template: { notNull: { columns: ['a'] } } };
  const answer = (over: Record<string, unknown> = {}) => ({ items: [], errors: [], createdIds: [], updatedIds: [], ...over });

  test('create and update send the test with identity, namespace, source, its template test as the platform\'s message', async () => {
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': (tests: unknown) => answer({ createdIds: (tests as { id: string }[]).map((t) => t.id) }) });
    await h.create(client, change('dq_sql_test', 'create', after), ctx);
    const up = fakeClient({ 'sqlTests.batchUpsert': (tests: unknown) => answer({ updatedIds: (tests as { id: string }[]).map((t) => t.id) }) });
    await h.update(up.client, change('dq_sql_test', 'update', after), ctx);
    expect(calls.map((c) => c.op)).toEqual(['sqlTests.batchUpsert']);
    const sent = (calls[0].args[0] as Record<string, unknown>[])[0];
    expect(sent).toEqual({ id: ID, configId: 'shop', source: 'SOURCE_API', name: 'T', sqlExpression: 'select 1', template: { notNullTest: { columnNames: ['a'] } } });
    expect(up.calls[0].args).toEqual(calls[0].args);
  });

  test('a per-item error of the single upsert is thrown, naming the address', async () => {
    const { client } = fakeClient({ 'sqlTests.batchUpsert': answer({ errors: [{ id: ID, reason: 'bad sql' }] }) });
    await expect(h.create(client, change('dq_sql_test', 'create', after), ctx)).rejects.toThrow(`dq_sql_test.x (${ID}): bad sql`);
    await expect(h.update(client, change('dq_sql_test', 'update', after), ctx)).rejects.toThrow('bad sql');
  });

  test('a create the platform reports as an update replaced a test made since the plan: a conflict', async () => {
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': answer({ updatedIds: [ID.toUpperCase()] }) });
    await expect(h.create(client, change('dq_sql_test', 'create', after), ctx)).rejects.toThrow(
      `conflict: the SQL test "${ID}" was created by someone else after the plan, and this write replaced it (the platform reported an update, not a create). Plan again and review what live state holds now`,
    );
    expect(calls.map((c) => c.op)).toEqual(['sqlTests.batchUpsert']);
  });

  test('an update the platform reports as a create re-made a test deleted since the plan: a conflict', async () => {
    const { client } = fakeClient({ 'sqlTests.batchUpsert': answer({ createdIds: [ID] }) });
    await expect(h.update(client, change('dq_sql_test', 'update', after), ctx)).rejects.toThrow(
      `conflict: the SQL test "${ID}" was deleted by someone else after the plan, and this write made it again (the platform reported a create, not an update). Plan again`,
    );
  });

  test("when the client retried, a surprising answer is read back: dqform's own first attempt is not a conflict", async () => {
    const live = { id: ID, configId: 'shop', name: 'T', sqlExpression: 'select 1', template: { notNullTest: { columnNames: ['a'] } } };
    const retried = (over: Record<string, unknown>) => async () => (noteRetry(), answer(over));
    const own = fakeClient({ 'sqlTests.batchUpsert': retried({ updatedIds: [ID] }), 'sqlTests.batchGet': { [ID]: live } });
    await expect(h.create(own.client, change('dq_sql_test', 'create', h.fromDesired(after)), ctx)).resolves.toBeUndefined();
    expect(own.calls.map((c) => c.op)).toEqual(['sqlTests.batchUpsert', 'sqlTests.batchGet']);
    expect(own.calls[1].args).toEqual([[ID]]);
    for (const found of [{ [ID]: { ...live, configId: 'other' } }, { [ID]: { ...live, sqlExpression: 'select 2' } }, {}]) {
      const other = fakeClient({ 'sqlTests.batchUpsert': retried({ updatedIds: [ID] }), 'sqlTests.batchGet': found });
      await expect(h.create(other.client, change('dq_sql_test', 'create', h.fromDesired(after)), ctx)).rejects.toThrow('was created by someone else after the plan');
    }
  });

  test('an expected answer needs no read back, even after a retry; a failed item is not also a conflict', async () => {
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': async () => (noteRetry(), answer({ createdIds: [ID] })) });
    await h.create(client, change('dq_sql_test', 'create', after), ctx);
    expect(calls.map((c) => c.op)).toEqual(['sqlTests.batchUpsert']);
    const failed = fakeClient({ 'sqlTests.batchUpsert': answer({ updatedIds: [ID], errors: [{ id: ID, reason: 'bad sql' }] }) });
    await expect(h.create(failed.client, change('dq_sql_test', 'create', after), ctx)).rejects.toThrow(`dq_sql_test.x (${ID}): bad sql`);
  });

  test('delete: a per-item "not found" is success, any other per-item error is thrown', async () => {
    const ok = fakeClient({ 'sqlTests.batchDelete': { errors: [{ id: ID, reason: 'NOT_FOUND: no such test' }] } });
    await h.delete(ok.client, change('dq_sql_test', 'delete', null), ctx);
    expect(ok.calls).toEqual([{ op: 'sqlTests.batchDelete', args: [[ID]] }]);
    const bad = fakeClient({ 'sqlTests.batchDelete': { errors: [{ id: ID, reason: 'permission denied' }] } });
    await expect(h.delete(bad.client, change('dq_sql_test', 'delete', null), ctx)).rejects.toThrow(`dq_sql_test.x (${ID}): permission denied`);
    const none = fakeClient({ 'sqlTests.batchDelete': { errors: [] } });
    await expect(h.delete(none.client, change('dq_sql_test', 'delete', null), ctx)).resolves.toBeUndefined();
  });

  test('writeMany maps per-item errors to addresses; nothing is sent for nothing', async () => {
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': answer({ createdIds: ['t1'], errors: [{ id: 't2', reason: 'bad' }] }) });
    const errs = await h.writeMany!(client, [change('dq_sql_test', 'create', after, { address: 'dq_sql_test.a', id: 't1' }), change('dq_sql_test', 'create', after, { address: 'dq_sql_test.b', id: 't2' })], ctx);
    expect([...errs.keys()]).toEqual(['dq_sql_test.b']);
    expect(await h.writeMany!(client, [], ctx)).toEqual(new Map());
    expect(calls).toHaveLength(1);
  });
});

describe('delete: NOT_FOUND is success; other failures are reported', () => {
  const ops: Record<string, string> = {
    dq_owner: 'owners.deleteOwner',
    dq_domain: 'domains.delete',
    dq_data_product: 'dataProducts.delete',
    dq_ownership: 'owners.deleteOwnership',
    dq_alert: 'alerts.delete',
    dq_monitor_deployment_rule: 'deploymentRules.delete',
    dq_sql_test_deployment_rule: 'sqlTestRules.delete',
    dq_sql_test: 'sqlTests.batchDelete',
  };
  test.each(Object.entries(ops))('%s', async (type, op) => {
    const h = HANDLERS[type as keyof typeof HANDLERS];
    const gone = fakeClient({ [op]: notFound() });
    await expect(h.delete(gone.client, change(type, 'delete', null), ctx)).resolves.toBeUndefined();
    const moved = fakeClient({ [op]: conflict() });
    await expect(h.delete(moved.client, change(type, 'delete', null), ctx)).rejects.toBeInstanceOf(ConflictError);
    const bad = fakeClient({ [op]: new ValidationError({ method: 'DELETE', path: '/x', status: 400 }) });
    await expect(h.delete(bad.client, change(type, 'delete', null), ctx)).rejects.toBeInstanceOf(ValidationError);
  });

  test('an error that only says its name is NotFoundError (another copy of the client) counts too', async () => {
    const e = Object.assign(new Error('gone'), { name: 'NotFoundError' });
    const { client } = fakeClient({ 'owners.deleteOwner': e });
    await expect(HANDLERS.dq_owner.delete(client, change('dq_owner', 'delete', null), ctx)).resolves.toBeUndefined();
  });
});
