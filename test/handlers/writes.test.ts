/**
 * What each handler sends for create, update and delete (the operation, the body, the etag), and
 * how it treats the answers (NOT_FOUND on delete, per-item batch errors), against a recording
 * fake client (fake-client.ts). The same against a real emulator: lifecycle.test.ts.
 */
import { ConflictError, NotFoundError, ValidationError } from '../../src/client/errors';
import type { Change } from '../../schemas/plan';
import { HANDLERS } from '../../src/handlers/registry';
import type { HandlerContext } from '../../src/handlers/types';
import { fakeClient } from './fake-client';

const ctx: HandlerContext = { workspace: 'demo', namespace: 'shop' };
const ID = '0a000000-0000-4000-8000-0000000000aa';
const notFound = () => new NotFoundError({ method: 'DELETE', path: '/x', status: 404 });
const conflict = () => new ConflictError({ method: 'DELETE', path: '/x', status: 409 });

function change(type: string, action: Change['action'], after: Record<string, unknown> | null, over: Partial<Change> = {}): Change {
  return { address: `${type}.x`, type, action, id: ID, before: null, after, patch: [], reasons: [], sensitive: [], dependsOn: [], ...over };
}

describe('governance kinds: every field written explicitly, the plan etag on update and delete', () => {
  test('owner: contacts in their presence wrapper, present and empty when none are declared', async () => {
    const { client, calls } = fakeClient();
    const h = HANDLERS.dq_owner;
    await h.create(client, change('dq_owner', 'create', { title: 'Data team', contacts: [{ email: 'a@x.io' }] }), ctx);
    await h.update(client, change('dq_owner', 'update', { title: 'Data team' }, { etag: 'W/"o-3"' }), ctx);
    await h.delete(client, change('dq_owner', 'delete', null, { etag: 'W/"o-4"' }), ctx);
    expect(calls).toEqual([
      { op: 'owners.upsertOwner', args: [{ id: ID, title: 'Data team', contacts: { contacts: [{ email: 'a@x.io' }] } }] },
      { op: 'owners.upsertOwner', args: [{ id: ID, title: 'Data team', contacts: { contacts: [] } }, 'W/"o-3"'] },
      { op: 'owners.deleteOwner', args: [ID, 'W/"o-4"'] },
    ]);
  });

  test('domain: description, parent and definition cleared explicitly when the code declares none', async () => {
    const { client, calls } = fakeClient();
    const h = HANDLERS.dq_domain;
    await h.create(client, change('dq_domain', 'create', { name: 'Sales' }), ctx);
    await h.update(client, change('dq_domain', 'update', { name: 'Sales', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'q' }] } }, { etag: 'W/"d-2"' }), ctx);
    await h.delete(client, change('dq_domain', 'delete', null, { etag: 'W/"d-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'domains.upsert', args: [{ id: ID, name: 'Sales', description: '', parentId: '', definition: { parts: [] } }] },
      { op: 'domains.upsert', args: [{ id: ID, name: 'Sales', description: 'd', parentId: 'p', definition: { parts: [{ domainId: 'q' }] } }, 'W/"d-2"'] },
      { op: 'domains.delete', args: [ID, { etag: 'W/"d-3"' }] },
    ]);
  });

  test('data product: description, folder, priority and definition cleared explicitly when the code declares none', async () => {
    const { client, calls } = fakeClient();
    const h = HANDLERS.dq_data_product;
    await h.create(client, change('dq_data_product', 'create', { title: 'Orders' }), ctx);
    await h.update(client, change('dq_data_product', 'update', { title: 'Orders', description: 'd', folder: 'f', priority: 'PRIORITY_HIGH', definition: { parts: [{ dataproductId: 'q' }] } }, { etag: 'W/"p-2"' }), ctx);
    await h.delete(client, change('dq_data_product', 'delete', null, { etag: 'W/"p-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'dataProducts.upsert', args: [{ id: ID, title: 'Orders', description: '', folder: '', priority: 'PRIORITY_UNSPECIFIED', definition: { parts: [] } }] },
      { op: 'dataProducts.upsert', args: [{ id: ID, title: 'Orders', description: 'd', folder: 'f', priority: 'PRIORITY_HIGH', definition: { parts: [{ dataproductId: 'q' }] } }, 'W/"p-2"'] },
      { op: 'dataProducts.delete', args: [ID, { etag: 'W/"p-3"' }] },
    ]);
  });

  test('ownership: an empty alert when the code declares none (clears a removed one)', async () => {
    const { client, calls } = fakeClient();
    const h = HANDLERS.dq_ownership;
    const selection = { dataproductId: 'p1' };
    await h.create(client, change('dq_ownership', 'create', { ownerId: 'o1', selection }), ctx);
    await h.update(client, change('dq_ownership', 'update', { ownerId: 'o1', selection, alert: { severities: ['SEVERITY_ERROR'] } }, { etag: 'W/"s-2"' }), ctx);
    await h.delete(client, change('dq_ownership', 'delete', null, { etag: 'W/"s-3"' }), ctx);
    expect(calls).toEqual([
      { op: 'owners.upsertOwnership', args: [{ id: ID, ownerId: 'o1', selection, alert: { severities: [] } }] },
      { op: 'owners.upsertOwnership', args: [{ id: ID, ownerId: 'o1', selection, alert: { severities: ['SEVERITY_ERROR'] } }, 'W/"s-2"'] },
      { op: 'owners.deleteOwnership', args: [ID, 'W/"s-3"'] },
    ]);
  });
});

describe('alerts', () => {
  const issue = { name: 'Orders', issueLifecycle: { trigger: { resolverQl: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }] } };

  test('create upserts by fqn with the namespace as configId and SOURCE_API, without an etag', async () => {
    const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'W/"a-1"' } });
    await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', issue, { id: 'shop.orders', fqn: 'shop.orders' }), ctx);
    expect(calls).toEqual([{ op: 'alerts.upsert', args: [{ ...issue, fqn: 'shop.orders', configId: 'shop', source: 'SOURCE_API' }, null] }]);
  });

  test('update carries the plan etag; the fqn falls back to the change id', async () => {
    const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'W/"a-2"' } });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', issue, { id: 'shop.orders', etag: 'W/"a-1"' }), ctx);
    expect(calls).toEqual([{ op: 'alerts.upsert', args: [{ ...issue, fqn: 'shop.orders', configId: 'shop', source: 'SOURCE_API' }, 'W/"a-1"'] }]);
  });

  test('isDisabled is not sent in the upsert; a disabled alert is then toggled off with the etag the upsert answered', async () => {
    const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'W/"a-2"' } });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', { ...issue, isDisabled: true }, { id: 'shop.orders', fqn: 'shop.orders', etag: 'W/"a-1"' }), ctx);
    expect(calls.map((c) => c.op)).toEqual(['alerts.upsert', 'alerts.toggleEnabled']);
    expect(calls[0].args[0]).not.toHaveProperty('isDisabled');
    expect(calls[1].args).toEqual([{ fqn: 'shop.orders' }, false, 'W/"a-2"']);
  });

  test('an alert enabled again is toggled on', async () => {
    const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'W/"a-2"', isDisabled: true } });
    await HANDLERS.dq_alert.update(client, change('dq_alert', 'update', issue, { id: 'shop.orders', etag: 'W/"a-1"' }), ctx);
    expect(calls[1]).toEqual({ op: 'alerts.toggleEnabled', args: [{ fqn: 'shop.orders' }, true, 'W/"a-2"'] });
  });

  test('no toggle when the stored flag already matches', async () => {
    for (const [stored, want] of [
      [true, true],
      [false, false],
      [undefined, false],
    ] as const) {
      const { client, calls } = fakeClient({ 'alerts.upsert': { fqn: 'shop.orders', etag: 'e', ...(stored === undefined ? {} : { isDisabled: stored }) } });
      await HANDLERS.dq_alert.create(client, change('dq_alert', 'create', { ...issue, ...(want ? { isDisabled: true } : {}) }, { id: 'shop.orders' }), ctx);
      expect(calls.map((c) => c.op)).toEqual(['alerts.upsert']);
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
  const after = { name: 'T', sqlExpression: 'select 1', notNull: { column: 'a' } };

  test('create and update send the test with identity, namespace, source, in the wire template keys', async () => {
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': { errors: [] } });
    await h.create(client, change('dq_sql_test', 'create', after), ctx);
    await h.update(client, change('dq_sql_test', 'update', after), ctx);
    expect(calls.map((c) => c.op)).toEqual(['sqlTests.batchUpsert', 'sqlTests.batchUpsert']);
    const sent = (calls[0].args[0] as Record<string, unknown>[])[0];
    expect(sent).toMatchObject({ id: ID, configId: 'shop', source: 'SOURCE_API', name: 'T' });
    expect(calls[1].args).toEqual(calls[0].args);
  });

  test("a per-item error of the single upsert is thrown, naming the address", async () => {
    const { client } = fakeClient({ 'sqlTests.batchUpsert': { errors: [{ id: ID, reason: 'bad sql' }] } });
    await expect(h.create(client, change('dq_sql_test', 'create', after), ctx)).rejects.toThrow(`dq_sql_test.x (${ID}): bad sql`);
    await expect(h.update(client, change('dq_sql_test', 'update', after), ctx)).rejects.toThrow('bad sql');
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
    const { client, calls } = fakeClient({ 'sqlTests.batchUpsert': { errors: [{ id: 't2', reason: 'bad' }] } });
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
