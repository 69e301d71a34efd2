/**
 * The alert, monitor-rule and SQL-test handlers against a recording fake client: the write bodies,
 * the read's calls and order, replace reasons and conflict messages word for word. In-process.
 */
import { AlreadyExistsError, type PlatformClient } from '../../src/client';
import type { Change } from '../../schemas/model/plan';
import { alertsHandler, canonicalAlert } from '../../src/kinds/alert/handler';
import { hasConfigId } from '../../src/kinds/descriptors';
import type { HandlerContext } from '../../src/kinds/shared/types';
import { canonicalSqlTest, dropDefaultTimezone, sqlTestsHandler } from '../../src/kinds/sql-test/handler';
import { noteRetry } from '../../src/client/attempts';
import { SqlTestDeployOverview, sqlTestRuleToWire, sqlTestToWire } from '../../schemas/platform/sql-tests';
import { DeploymentOverview } from '../../schemas/platform/deployment-rules';
import { Effects } from '../../schemas/model/plan';
import { canonicalRule, configKind, metricsText, monitorDeploymentRulesHandler, renderSettings, ruleWrite } from '../../src/kinds/monitor-deployment-rule/handler';
import { canonicalLiveSqlTestRule, canonicalSqlTestRule, sqlTestDeploymentRulesHandler, sqlTestRuleWrite } from '../../src/kinds/sql-test-deployment-rule/handler';

type Json = Record<string, unknown>;
const ctx = { namespace: 'ns' } as HandlerContext;
const change = (o: Partial<Change>): Change => ({ address: 'dq_alert.a', type: 'dq_alert', action: 'create', id: 'f.q.n', before: null, after: {}, patch: [], reasons: [], ...o }) as Change;
const exists = () => new AlreadyExistsError({ method: 'post', path: '/alerts', status: 409 } as ConstructorParameters<typeof AlreadyExistsError>[0]);

function fakeAlerts(o: { ids?: string[]; byId?: Record<string, Json>; createError?: Error; byFqn?: Json } = {}) {
  const calls: unknown[][] = [];
  const client = {
    alerts: {
      list: async () => (calls.push(['list']), o.ids ?? []),
      batchGet: async (refs: { id?: string; fqn?: string }[]) => {
        calls.push(['batchGet', refs]);
        if (refs[0]?.fqn !== undefined) return o.byFqn ? { x: o.byFqn } : {};
        return Object.fromEntries(refs.filter((r) => o.byId?.[r.id!]).map((r) => [r.id, o.byId![r.id!]]));
      },
      create: async (w: Json) => {
        calls.push(['create', w]);
        if (o.createError) throw o.createError;
        return { ...w, id: 'new', etag: 'W/"new-1"' };
      },
      upsert: async (w: Json, etag?: string) => (calls.push(['upsert', w, etag]), { ...w, id: 'u', etag: 'W/"u-2"' }),
      delete: async (ref: Json, etag?: string) => void calls.push(['delete', ref, etag]),
      toggleEnabled: async (ref: Json, enabled: boolean) => void calls.push(['toggleEnabled', ref, enabled]),
    },
  } as unknown as PlatformClient;
  return { client, calls };
}

const body = { trigger: { resolverQl: 'Q' }, targets: [{ slack: { channel: '#a' } }] };

describe('alerts: identity and read', () => {
  it('is the configId-pruned dq_alert kind', () => {
    expect([alertsHandler.type, alertsHandler.label, hasConfigId(alertsHandler.type)]).toEqual(['dq_alert', 'alert', true]);
  });

  it('reads nothing more for an empty workspace', async () => {
    const { client, calls } = fakeAlerts();
    expect(await alertsHandler.read(client, { keys: [] } as never)).toEqual([]);
    expect(calls).toEqual([['list']]);
  });

  it('batch-gets the distinct ids sorted, in chunks of 200, and answers by fqn, sorted', async () => {
    const ids = Array.from({ length: 401 }, (_, i) => `id${String(i).padStart(3, '0')}`);
    const byId = Object.fromEntries(ids.map((id, i) => [id, { id, fqn: `fqn-${String(400 - i).padStart(3, '0')}`, etag: `W/"${id}-1"` }]));
    const { client, calls } = fakeAlerts({ ids: [...ids].reverse().concat(['id000']), byId });
    const read = await alertsHandler.read(client, { keys: [] } as never);
    expect(read).toHaveLength(401);
    expect(read[0]).toMatchObject({ key: 'fqn-000', id: 'id400', etag: 'W/"id400-1"' });
    expect(read.map((r) => r.key)).toEqual([...read.map((r) => r.key)].sort());
    const gets = calls.filter((c) => c[0] === 'batchGet') as [string, { id: string }[]][];
    expect(gets.map((g) => g[1].length)).toEqual([200, 200, 1]);
    expect(gets[0][1][0]).toEqual({ id: 'id000' });
    expect(gets[2][1]).toEqual([{ id: 'id400' }]);
  });
});

describe('alerts: comparable form and replace reasons', () => {
  it('drops identity, keeps the kind’s trigger as ResolverQL, drops empty template and settings', () => {
    expect(canonicalAlert({ id: 'i', fqn: 'f', etag: 'e', createdAt: 't', configId: 'ns', source: 'SOURCE_API', name: 'N', template: {}, issueLifecycle: { trigger: { resolverQl: 'Q' }, settings: {} } })).toEqual({
      name: 'N',
      issueLifecycle: { trigger: { resolverQl: 'Q' } },
    });
    expect(canonicalAlert({ name: 'N', template: { x: 1 }, schemaChange: { settings: { a: 1 } } })).toEqual({ name: 'N', template: { x: 1 }, schemaChange: { settings: { a: 1 } } });
  });

  it('replaces when the kind changes', () => {
    expect(alertsHandler.replaceReasons({ issueLifecycle: {} }, { schemaChange: {} })).toEqual(['the alert kind changes from issueLifecycle to schemaChange; the API cannot change an alert\'s kind in place']);
    expect(alertsHandler.replaceReasons({}, { schemaChange: {} })).toEqual([]);
  });

  it('replaces when the owner of an issue or schema-change alert changes, not of an incident alert', () => {
    const o = (ownerPath?: string, ownershipId?: string) => ({ owner: { ownerPath, ownershipId } });
    expect(alertsHandler.replaceReasons({ issueLifecycle: o('a', 's1') }, { issueLifecycle: o('b', 's1') })).toEqual(['issueLifecycle.owner changes from a (ownership s1) to b (ownership s1); an alert\'s owner is fixed at create']);
    expect(alertsHandler.replaceReasons({ schemaChange: {} }, { schemaChange: o('b') })).toEqual(['schemaChange.owner changes from (none) to b (ownership ); an alert\'s owner is fixed at create']);
    expect(alertsHandler.replaceReasons({ schemaChange: o(undefined, 's') }, { schemaChange: o('', 's') })).toEqual([]);
    expect(alertsHandler.replaceReasons({ issueLifecycle: o('a') }, { issueLifecycle: o('a') })).toEqual([]);
    expect(alertsHandler.replaceReasons({ incidentLifecycle: o('a') }, { incidentLifecycle: o('b') })).toEqual([]);
  });
});

describe('alerts: writes', () => {
  it('creates with the fqn, the namespace as configId and SOURCE_API, without isDisabled', async () => {
    const { client, calls } = fakeAlerts();
    await alertsHandler.create(client, change({ fqn: 'the.fqn', after: { name: 'N', isDisabled: false, issueLifecycle: body } }), ctx);
    expect(calls).toEqual([['create', { name: 'N', issueLifecycle: body, fqn: 'the.fqn', configId: 'ns', source: 'SOURCE_API' }]]);
    const b = fakeAlerts();
    await alertsHandler.create(b.client, change({ after: { name: 'N' } }), ctx);
    expect(b.calls).toEqual([['create', { name: 'N', fqn: 'f.q.n', configId: 'ns', source: 'SOURCE_API' }]]);
  });

  it('updates with the plan’s etag and deletes by fqn (else id) with it', async () => {
    const { client, calls } = fakeAlerts();
    await alertsHandler.update(client, change({ action: 'update', fqn: 'x.y', etag: 'W/"u-1"', after: { name: 'N' } }), ctx);
    await alertsHandler.delete(client, change({ action: 'delete', fqn: 'x.y', etag: 'e' }), ctx);
    await alertsHandler.delete(client, change({ action: 'delete', etag: 'e2' }), ctx);
    expect(calls).toEqual([
      ['upsert', { name: 'N', fqn: 'x.y', configId: 'ns', source: 'SOURCE_API' }, 'W/"u-1"'],
      ['delete', { fqn: 'x.y' }, 'e'],
      ['delete', { fqn: 'f.q.n' }, 'e2'],
    ]);
  });

  it('a create that meets a taken fqn names who holds it and overwrites nothing', async () => {
    const cases: [Json | undefined, string][] = [
      [undefined, 'someone else'],
      [{ id: 'o', fqn: 'f.q.n', configId: 'other', name: 'N' }, 'namespace "other"'],
      [{ id: 'o', fqn: 'f.q.n', name: 'N' }, 'someone in the UI'],
      [{ id: 'o', fqn: 'f.q.n', name: 'N', source: 'SOURCE_APP' }, 'someone in the UI'],
      [{ id: 'o', fqn: 'f.q.n', name: 'N', source: 'SOURCE_API' }, 'an API client outside dqform'],
      [{ id: 'o', fqn: 'f.q.n', name: 'other', configId: 'ns' }, 'namespace "ns"'],
    ];
    for (const [found, who] of cases) {
      const { client, calls } = fakeAlerts({ createError: exists(), byFqn: found });
      await expect(alertsHandler.create(client, change({ after: { name: 'N' } }), ctx)).rejects.toThrow(
        `conflict: an alert with fqn "f.q.n" was created by ${who} after the plan; dqform did not overwrite it. Plan again: adopt it with an import block, or pin another fqn`,
      );
      expect(calls.map((c) => c[0])).toEqual(['create', 'batchGet']);
      expect(calls[1]).toEqual(['batchGet', [{ fqn: 'f.q.n' }]]);
    }
  });

  it('a create that meets the identical alert of this namespace counts as done; other errors pass through', async () => {
    const { client, calls } = fakeAlerts({ createError: exists(), byFqn: { id: 'o', fqn: 'f.q.n', name: 'N', configId: 'ns', etag: 'W/"o-1"' } });
    await expect(alertsHandler.create(client, change({ after: { name: 'N' } }), ctx)).resolves.toBeUndefined();
    expect(calls.map((c) => c[0])).toEqual(['create', 'batchGet']);
    const b = fakeAlerts({ createError: new Error('boom') });
    await expect(alertsHandler.create(b.client, change({ after: { name: 'N' } }), ctx)).rejects.toThrow('boom');
  });
});

describe('alerts: enabling and disabling', () => {
  const stored = { id: 'new', fqn: 'f.q.n', name: 'N', configId: 'ns', source: 'SOURCE_API', etag: 'W/"new-1"' };

  it('toggles after a create that wants it disabled, checked before and read back after', async () => {
    let n = 0;
    const { client, calls } = fakeAlerts();
    (client.alerts as unknown as Json).batchGet = async (refs: Json[]) => {
      calls.push(['batchGet', refs]);
      n++;
      return { new: n === 1 ? stored : { ...stored, isDisabled: true, etag: 'W/"new-2"' } };
    };
    await alertsHandler.create(client, change({ after: { name: 'N', isDisabled: true } }), ctx);
    expect(calls.map((c) => c[0])).toEqual(['create', 'batchGet', 'toggleEnabled', 'batchGet']);
    expect(calls[1]).toEqual(['batchGet', [{ id: 'new' }]]);
    expect(calls[2]).toEqual(['toggleEnabled', { id: 'new' }, false]);
  });

  it('refuses to toggle an alert changed since the write, and says so', async () => {
    const { client, calls } = fakeAlerts({ byId: { new: { ...stored, name: 'renamed' } } });
    await expect(alertsHandler.create(client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow(
      'conflict: the alert holds something other than what dqform wrote (someone else wrote it at the same time), checked right before dqform disabled it; not disabled. Plan again and review what live state holds now',
    );
    expect(calls.map((c) => c[0])).toEqual(['create', 'batchGet']);
    const gone = fakeAlerts();
    await expect(alertsHandler.create(gone.client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow('conflict: the alert is gone (deleted by someone else), checked right before dqform disabled it');
    const moved = fakeAlerts({ byId: { new: { ...stored, etag: 'W/"new-3"' } } });
    await expect(alertsHandler.create(moved.client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow('conflict: the alert is at version 3, expected 1 (someone else wrote it in between)');
    const flipped = fakeAlerts({ byId: { new: { ...stored, isDisabled: true } } });
    await expect(alertsHandler.create(flipped.client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow('conflict: the alert is disabled (someone else switched it)');
  });

  it('reports what the read-back finds after the toggle', async () => {
    const { client } = fakeAlerts();
    let n = 0;
    (client.alerts as unknown as Json).batchGet = async () => (++n === 1 ? { new: stored } : { new: { ...stored, isDisabled: true, etag: 'W/"new-4"' } });
    await expect(alertsHandler.create(client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow(
      'conflict: the alert is at version 4, expected 1 or 2 (someone else wrote it in between), read back after dqform disabled it. Plan again and review what live state holds now',
    );
    const b = fakeAlerts();
    let m = 0;
    (b.client.alerts as unknown as Json).batchGet = async () => (++m === 1 ? { new: stored } : { new: stored });
    await expect(alertsHandler.create(b.client, change({ after: { name: 'N', isDisabled: true } }), ctx)).rejects.toThrow('conflict: the alert is enabled (someone else switched it), read back after dqform disabled it');
  });

  it('enables a disabled alert on update; makes no toggle when the flag already matches', async () => {
    const { client, calls } = fakeAlerts();
    let n = 0;
    const disabledStored = { id: 'u', fqn: 'f', name: 'N', etag: 'W/"u-2"', isDisabled: true };
    (client.alerts as unknown as Json).upsert = async (w: Json, etag?: string) => (calls.push(['upsert', w, etag]), disabledStored);
    (client.alerts as unknown as Json).batchGet = async () => (++n === 1 ? { u: disabledStored } : { u: { ...disabledStored, isDisabled: false } });
    await alertsHandler.update(client, change({ action: 'update', after: { name: 'N' } }), ctx);
    expect(calls.map((c) => c[0])).toEqual(['upsert', 'toggleEnabled']);
    expect(calls[1]).toEqual(['toggleEnabled', { id: 'u' }, true]);
    const same = fakeAlerts();
    await alertsHandler.update(same.client, change({ action: 'update', after: { name: 'N', isDisabled: false } }), ctx);
    expect(same.calls.map((c) => c[0])).toEqual(['upsert']);
  });
});

describe('SQL tests', () => {
  type Res = { errors: { id: string; reason: string }[]; createdIds: string[]; updatedIds: string[] };
  function fakeSql(o: { res?: Res; retry?: boolean; live?: Record<string, Json>; list?: Json[]; delErrors?: { id: string; reason: string }[] } = {}) {
    const calls: unknown[][] = [];
    const client = {
      sqlTests: {
        list: async (f: Json, n: number) => (calls.push(['list', f, n]), o.list ?? []),
        batchGet: async (ids: string[]) => (calls.push(['batchGet', ids]), Object.fromEntries(ids.filter((i) => o.live?.[i]).map((i) => [i, o.live![i]]))),
        batchUpsert: async (ws: Json[]) => {
          calls.push(['batchUpsert', ws]);
          if (o.retry) noteRetry();
          return o.res ?? { errors: [], createdIds: ws.map((w) => w.id as string), updatedIds: [] };
        },
        batchDelete: async (ids: string[]) => (calls.push(['batchDelete', ids]), { errors: o.delErrors ?? [] }),
      },
    } as unknown as PlatformClient;
    return { client, calls };
  }
  const t = { title: 'T', template: { identifier: { tablePath: 'a.b' }, notNull: { columns: ['c'] } } };
  const wire = sqlTestToWire(t);
  const sc = (o: Partial<Change>) => change({ type: 'dq_sql_test', address: 'dq_sql_test.t', id: 'T1', after: t, ...o });

  it('drops only the default timezone', () => {
    expect(dropDefaultTimezone({ a: 1, timezone: 'UTC' })).toEqual({ a: 1 });
    const other = { a: 1, timezone: 'Europe/Paris' };
    expect(dropDefaultTimezone(other)).toBe(other);
    expect(canonicalSqlTest({ id: 'i', configId: 'n', source: 's', deploymentRuleId: 'd', timezone: 'UTC', title: 'T' })).toEqual({ title: 'T' });
  });

  it('writes the platform message with id, namespace and SOURCE_API; create and update go through one batch upsert', async () => {
    const { client, calls } = fakeSql();
    await sqlTestsHandler.create(client, sc({}), ctx);
    expect(calls).toEqual([['batchUpsert', [{ ...wire, id: 'T1', configId: 'ns', source: 'SOURCE_API' }]]]);
    expect(await sqlTestsHandler.writeMany!(client, [], ctx)).toEqual(new Map());
    expect(calls).toHaveLength(1);
    const u = fakeSql({ res: { errors: [], createdIds: [], updatedIds: ['t2'] } });
    await sqlTestsHandler.update(u.client, sc({ action: 'update', id: 'T2' }), ctx);
    expect(u.calls).toEqual([['batchUpsert', [{ ...wire, id: 'T2', configId: 'ns', source: 'SOURCE_API' }]]]);
  });

  it('an update the platform reports as a create, and a create it reports as an update, are conflicts', async () => {
    const up = fakeSql({ res: { errors: [], createdIds: ['t2'], updatedIds: [] } });
    await expect(sqlTestsHandler.update(up.client, sc({ action: 'update', id: 'T2' }), ctx)).rejects.toThrow(
      'conflict: the SQL test "T2" was deleted by someone else after the plan, and this write made it again (the platform reported a create, not an update). Plan again',
    );
    const cr = fakeSql({ res: { errors: [], createdIds: [], updatedIds: ['T1'] } });
    await expect(sqlTestsHandler.create(cr.client, sc({}), ctx)).rejects.toThrow(
      'conflict: the SQL test "T1" was created by someone else after the plan, and this write replaced it (the platform reported an update, not a create). Plan again and review what live state holds now',
    );
    expect(cr.calls.map((c) => c[0])).toEqual(['batchUpsert']);
  });

  it('a per-item error wins over the surprise; after a retry, a test holding what was written counts as written', async () => {
    const err = fakeSql({ res: { errors: [{ id: 'T1', reason: 'bad sql' }], createdIds: [], updatedIds: ['T1'] } });
    await expect(sqlTestsHandler.create(err.client, sc({}), ctx)).rejects.toThrow('dq_sql_test.t (T1): bad sql');
    const mine = fakeSql({ retry: true, res: { errors: [], createdIds: [], updatedIds: ['T1'] }, live: { T1: { ...wire, id: 'T1', configId: 'ns' } } });
    await expect(sqlTestsHandler.create(mine.client, sc({}), ctx)).resolves.toBeUndefined();
    expect(mine.calls.map((c) => c[0])).toEqual(['batchUpsert', 'batchGet']);
    expect(mine.calls[1]).toEqual(['batchGet', ['T1']]);
    const theirs = fakeSql({ retry: true, res: { errors: [], createdIds: [], updatedIds: ['T1'] }, live: { T1: { ...wire, id: 'T1', configId: 'other' } } });
    await expect(sqlTestsHandler.create(theirs.client, sc({}), ctx)).rejects.toThrow('conflict: the SQL test "T1" was created by someone else');
    const changed = fakeSql({ retry: true, res: { errors: [], createdIds: [], updatedIds: ['T1'] }, live: { T1: { ...wire, title: 'X', id: 'T1', configId: 'ns' } } });
    await expect(sqlTestsHandler.create(changed.client, sc({}), ctx)).rejects.toThrow('conflict: the SQL test "T1" was created by someone else');
  });

  it('deletes by batch; a not-found reason is success, another reason an error naming the address', async () => {
    const ok = fakeSql({ delErrors: [{ id: 'T1', reason: 'NOT_FOUND: no such test' }] });
    await expect(sqlTestsHandler.delete(ok.client, sc({ action: 'delete' }), ctx)).resolves.toBeUndefined();
    expect(ok.calls).toEqual([['batchDelete', ['T1']]]);
    const bad = fakeSql({ delErrors: [{ id: 'T1', reason: 'in use by a rule' }] });
    await expect(sqlTestsHandler.delete(bad.client, sc({ action: 'delete' }), ctx)).rejects.toThrow('dq_sql_test.t (T1): in use by a rule');
  });

  it('reads the list sorted, or only the keys, in dqform’s shape', async () => {
    const { client, calls } = fakeSql({ list: [{ ...wire, id: 'b' }, { ...wire, id: 'a' }], live: { k: { ...wire, id: 'k' } } });
    const all = await sqlTestsHandler.read(client, { keys: [] } as never);
    expect(all.map((o) => o.key)).toEqual(['a', 'b']);
    expect(all[0].unmanageable).toBeUndefined();
    expect(sqlTestsHandler.fromLive(all[0].raw)).toEqual(canonicalSqlTest(t));
    const some = await sqlTestsHandler.read(client, { keys: ['k'], keysOnly: true } as never);
    expect(some.map((o) => o.key)).toEqual(['k']);
    expect(calls).toEqual([['list', {}, 1000], ['batchGet', ['k']]]);
  });
});

describe('monitor deployment rules', () => {
  const P = 'abcdef01-1111-2222-3333-444455556666';
  function fakeRules(o: { list?: Json[]; fail?: Error } = {}) {
    const calls: unknown[][] = [];
    const client = {
      deploymentRules: {
        list: async (f: Json, n: number) => (calls.push(['list', f, n]), o.list ?? []),
        deployOverview: async (w: Json) => {
          calls.push(['deployOverview', w]);
          if (o.fail) throw o.fail;
          return DeploymentOverview.parse({ monitorsToCreateFor: ['b', 'a'] });
        },
        deleteOverview: async (id: string) => (calls.push(['deleteOverview', id]), DeploymentOverview.parse({ monitorsToDeleteFor: ['x'] })),
      },
    } as unknown as PlatformClient;
    return { client, calls };
  }
  const rc = (o: Partial<Change>) => change({ type: 'dq_monitor_deployment_rule', address: 'dq_monitor_deployment_rule.r', id: 'R1', after: { title: 'T', staticConfig: { x: 1 } }, ...o });

  it('finds the config kind a rule holds', () => {
    expect(configKind({ title: 't', productConfig: {} })).toBe('productConfig');
    expect(configKind({ staticConfig: {}, queryConfig: {} })).toBe('queryConfig');
    expect(configKind({ title: 't' })).toBeUndefined();
    expect(configKind({ a: 1, b: 2 }, ['b', 'a'])).toBe('b');
  });

  it('compares the product bare and lower-case, query configs as ResolverQL, without identity', () => {
    expect(canonicalRule({ id: 'i', configId: 'n', source: 's', monitorCount: 3, title: 'T', productConfig: { productId: `DATAPRODUCT-${P.toUpperCase()}`, x: 1 } })).toEqual({ title: 'T', productConfig: { productId: P, x: 1 } });
    expect(canonicalRule({ productConfig: { productId: 7 } })).toEqual({ productConfig: { productId: 7 } });
    expect(canonicalRule({ queryConfig: { resolverQl: 'Q', query: { parts: [] } } })).toEqual({ queryConfig: { resolverQl: 'Q' } });
    expect(canonicalRule({ exclusiveQueryConfig: { resolverQl: 'Q', query: { parts: [] } } })).toEqual({ exclusiveQueryConfig: { resolverQl: 'Q' } });
    expect(canonicalRule({ staticConfig: { productId: 'X' } })).toEqual({ staticConfig: { productId: 'X' } });
  });

  it('writes the rule with id, namespace and SOURCE_API', () => {
    expect(ruleWrite(rc({}), ctx)).toEqual({ title: 'T', staticConfig: { x: 1 }, id: 'R1', configId: 'ns', source: 'SOURCE_API' });
    expect(ruleWrite(rc({ after: { id: 'other', configId: 'x', source: 'y' } }), ctx)).toEqual({ id: 'R1', configId: 'ns', source: 'SOURCE_API' });
  });

  it('metrics and settings as short text', () => {
    expect(metricsText(undefined)).toBe('-');
    expect(metricsText([])).toBe('-');
    expect(metricsText([99, 'METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'])).toBe('ROW_COUNT,DELAY,unknown(99)');
    expect(renderSettings({})).toBe('-/-/-');
  });

  it('reads every rule by one list, sorted by id', async () => {
    const { client, calls } = fakeRules({ list: [{ id: 'b', configId: 'ns' }, { id: 'a' }] });
    const read = await monitorDeploymentRulesHandler.read(client, { keys: [] } as never);
    expect(read.map((r) => [r.key, r.configId])).toEqual([
      ['a', undefined],
      ['b', 'ns'],
    ]);
    expect(calls).toEqual([['list', {}, 1000]]);
    expect(monitorDeploymentRulesHandler.replaceReasons({}, {})).toEqual([]);
    expect([monitorDeploymentRulesHandler.type, hasConfigId(monitorDeploymentRulesHandler.type)]).toEqual(['dq_monitor_deployment_rule', true]);
  });

  it('previews a write by its deploy overview, a delete by the delete overview, a failure as effects unknown', async () => {
    const { client, calls } = fakeRules();
    expect(await monitorDeploymentRulesHandler.preview!(client, rc({}), ctx)).toMatchObject({ source: 'deploy-overview', monitorsToCreate: ['a', 'b'] });
    expect(await monitorDeploymentRulesHandler.preview!(client, rc({ action: 'delete' }), ctx)).toMatchObject({ source: 'delete-overview', monitorsToDelete: ['x'] });
    expect(calls).toEqual([
      ['deployOverview', { title: 'T', staticConfig: { x: 1 }, id: 'R1', configId: 'ns', source: 'SOURCE_API' }],
      ['deleteOverview', 'R1'],
    ]);
    const bad = fakeRules({ fail: new Error('GET /x?secret=1 failed (request id abc)') });
    expect(await monitorDeploymentRulesHandler.preview!(bad.client, rc({}), ctx)).toEqual(Effects.parse({ source: 'deploy-overview', error: 'effects unknown: GET /x failed' }));
  });
});

describe('SQL-test deployment rules', () => {
  function fakeStr(o: { list?: Json[]; live?: Record<string, Json>; fail?: Error } = {}) {
    const calls: unknown[][] = [];
    const client = {
      sqlTestRules: {
        list: async (f: Json, n: number) => (calls.push(['list', f, n]), o.list ?? []),
        batchGet: async (ids: string[]) => (calls.push(['batchGet', ids]), Object.fromEntries(ids.filter((i) => o.live?.[i]).map((i) => [i, o.live![i]]))),
        overview: async (w: Json) => {
          calls.push(['overview', w]);
          if (o.fail) throw o.fail;
          return SqlTestDeployOverview.parse({ testsToCreate: [{ tablePath: 't', testName: 'n' }] });
        },
        deleteOverview: async (id: string) => {
          calls.push(['deleteOverview', id]);
          if (o.fail) throw o.fail;
          return SqlTestDeployOverview.parse({ testsToDelete: [{ tablePath: 't', testName: 'n' }] });
        },
      },
    } as unknown as PlatformClient;
    return { client, calls };
  }
  const rule = { title: 'r', queryConfig: { resolverQl: 'Q', timezone: 'UTC', tests: [{ testName: 'n', notNull: { columns: ['c'] } }] } };
  const wire = sqlTestRuleToWire(rule);
  const rc = (o: Partial<Change>) => change({ type: 'dq_sql_test_deployment_rule', address: 'dq_sql_test_deployment_rule.r', id: 'S1', after: rule, ...o });

  it('compares without identity and the default timezone of its config; reads live tests in dqform’s shape', () => {
    expect(canonicalSqlTestRule({ id: 'i', configId: 'n', source: 's', testCount: 2, ...rule })).toEqual({ title: 'r', queryConfig: { resolverQl: 'Q', tests: [{ testName: 'n', notNull: { columns: ['c'] } }] } });
    expect(canonicalSqlTestRule({ staticConfig: { timezone: 'Europe/Paris' } })).toEqual({ staticConfig: { timezone: 'Europe/Paris' } });
    expect(canonicalSqlTestRule({ staticConfig: { timezone: 'UTC', query: 'kept' } })).toEqual({ staticConfig: { query: 'kept' } });
    expect(canonicalSqlTestRule({ title: 't' })).toEqual({ title: 't' });
    expect(canonicalLiveSqlTestRule(wire)).toEqual(canonicalSqlTestRule(rule));
  });

  it('writes the platform message with id, namespace and SOURCE_API', () => {
    expect(sqlTestRuleWrite(rc({}), ctx)).toEqual({ ...wire, id: 'S1', configId: 'ns', source: 'SOURCE_API' });
  });

  it('reads the list sorted, or only the keys', async () => {
    const { client, calls } = fakeStr({ list: [{ ...wire, id: 'b' }, { ...wire, id: 'a' }], live: { k: { ...wire, id: 'k' } } });
    expect((await sqlTestDeploymentRulesHandler.read(client, { keys: [] } as never)).map((o) => o.key)).toEqual(['a', 'b']);
    expect((await sqlTestDeploymentRulesHandler.read(client, { keys: ['k'], keysOnly: true } as never)).map((o) => o.key)).toEqual(['k']);
    expect(calls).toEqual([['list', {}, 1000], ['batchGet', ['k']]]);
  });

  it('previews by overview or delete overview; a failure is effects unknown, losing history only on delete', async () => {
    const { client, calls } = fakeStr();
    expect(await sqlTestDeploymentRulesHandler.preview!(client, rc({}), ctx)).toMatchObject({ source: 'sql-test-overview', testsToCreate: ['t/n'], losesHistory: false });
    expect(await sqlTestDeploymentRulesHandler.preview!(client, rc({ action: 'delete' }), ctx)).toMatchObject({ source: 'sql-test-delete-overview', testsToDelete: ['t/n'], losesHistory: true });
    expect(calls).toEqual([
      ['overview', { ...wire, id: 'S1', configId: 'ns', source: 'SOURCE_API' }],
      ['deleteOverview', 'S1'],
    ]);
    const bad = fakeStr({ fail: new Error('down') });
    expect(await sqlTestDeploymentRulesHandler.preview!(bad.client, rc({}), ctx)).toEqual(Effects.parse({ source: 'sql-test-overview', error: 'effects unknown: down', losesHistory: false }));
    expect(await sqlTestDeploymentRulesHandler.preview!(bad.client, rc({ action: 'delete' }), ctx)).toEqual(Effects.parse({ source: 'sql-test-delete-overview', error: 'effects unknown: down', losesHistory: true }));
  });
});
