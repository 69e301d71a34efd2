/**
 * Against the emulator: batch writes with per-item errors, previews, read request counts.
 *
 * @gateway
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { Change } from '../../schemas/model/plan';
import type { ResourceType } from '../../schemas/model/manifest';
import { handlerFor } from '../../src/kinds/index';
import type { HandlerContext } from '../../src/kinds/shared/types';

const ctx: HandlerContext = { workspace: 'demo', namespace: 'hdl-batch' };
let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
});

function change(type: ResourceType, address: string, id: string, action: Change['action'], desired: Record<string, unknown> | null, before: Record<string, unknown> | null = null): Change {
  const h = handlerFor(type);
  return Change.parse({ address, type, action, id, before, after: desired ? h.fromDesired(desired) : null });
}

const sqlTest = (i: number) => ({ name: `t${i}`, platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=DAILY', sqlExpression: `select ${i}` });

test('SQL tests writeMany: 250 tests in two chunks, then read back by one list request', async () => {
  const h = handlerFor('dq_sql_test');
  const changes = Array.from({ length: 250 }, (_, i) => change('dq_sql_test', `dq_sql_test.t${i}`, `hdl-batch-${String(i).padStart(3, '0')}`, 'create', sqlTest(i)));
  emu.app.resetRequestCounters();
  const errors = await h.writeMany!(client, changes, ctx);
  expect([...errors.keys()]).toEqual([]);
  const writes = Object.entries(emu.app.requestCounters().routes).filter(([k]) => k.startsWith('POST /api/datachecks/sqltests/v1') && !k.includes('by-id'));
  expect(writes.reduce((n, [, v]) => n + v, 0)).toBe(2);

  emu.app.resetRequestCounters();
  const live = await h.read(client, { ...ctx, keys: [] });
  const mine = live.filter((l) => l.configId === ctx.namespace);
  expect(mine).toHaveLength(250);
  const reads = Object.entries(emu.app.requestCounters().routes).filter(([k]) => k.startsWith('GET /api/datachecks/sqltests/v1'));
  expect(reads.reduce((n, [, v]) => n + v, 0)).toBe(1);
  for (const l of mine.slice(0, 5)) expect(h.fromLive(l.raw)).toEqual(h.fromDesired(sqlTest(Number(l.key.slice(-3)))));
});

test('SQL tests writeMany maps a per-item error to its address and keeps the others', async () => {
  const h = handlerFor('dq_sql_test');
  const good = change('dq_sql_test', 'dq_sql_test.good', 'hdl-batch-good', 'create', sqlTest(1));
  // the server refuses a bad RRULE per item, inside a 200
  const bad = Change.parse({ ...good, address: 'dq_sql_test.bad', id: 'hdl-batch-bad', after: { ...(good.after as object), recurrenceRule: 'NOT AN RRULE' } });
  const errors = await h.writeMany!(client, [good, bad], ctx);
  expect([...errors.keys()]).toEqual(['dq_sql_test.bad']);
  expect(errors.get('dq_sql_test.bad')!.message).toContain('dq_sql_test.bad');
  const live = await h.read(client, { ...ctx, keys: [] });
  expect(live.some((l) => l.key === 'hdl-batch-good')).toBe(true);
  expect(live.some((l) => l.key === 'hdl-batch-bad')).toBe(false);
});

test('alerts read: one list request and one batch-get request per 200 alerts', async () => {
  const h = handlerFor('dq_alert');
  for (let i = 0; i < 3; i++) await h.create(client, Change.parse({ address: `dq_alert.a${i}`, type: 'dq_alert', action: 'create', id: `hdl-batch.a${i}`, fqn: `hdl-batch.a${i}`, before: null, after: h.fromDesired({ name: `a${i}`, incidentLifecycle: { targets: [{ slack: { channel: '#x' } }], settings: { states: ['STATE_OPEN'] } } }) }), ctx);
  emu.app.resetRequestCounters();
  const live = await h.read(client, { ...ctx, keys: [] });
  expect(live.filter((l) => l.configId === ctx.namespace).map((l) => l.key)).toEqual(['hdl-batch.a0', 'hdl-batch.a1', 'hdl-batch.a2']);
  const c = emu.app.requestCounters().routes;
  expect(c['POST /api/alerts/v2/list']).toBe(1);
  expect(c['POST /api/alerts/v2/get']).toBe(1);
});

describe('previews', () => {
  const rule = { title: 'Mart monitors', queryConfig: { resolverQl: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } };
  const id = '0b000000-0000-4000-8000-000000000001';

  test('monitor rule: deploy overview before create, settings change and baseline reset on update, delete overview', async () => {
    const h = handlerFor('dq_monitor_deployment_rule');
    const create = change('dq_monitor_deployment_rule', 'dq_monitor_deployment_rule.mart', id, 'create', rule);
    const e1 = await h.preview!(client, create, ctx);
    expect(e1?.error).toBeUndefined();
    expect(e1?.source).toBe('deploy-overview');
    expect(e1!.monitorsToCreate.length).toBeGreaterThan(0);
    await h.create(client, create, ctx);
    const live = (await h.read(client, { ...ctx, keys: [id] })).find((l) => l.key === id)!;
    expect(h.fromLive(live.raw)).toEqual(h.fromDesired(rule));

    const changed = { ...rule, queryConfig: { ...rule.queryConfig, metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] } };
    const e2 = await h.preview!(client, change('dq_monitor_deployment_rule', 'dq_monitor_deployment_rule.mart', id, 'update', changed, h.fromLive(live.raw)), ctx);
    expect(e2?.error).toBeUndefined();
    expect(e2!.settingsChanges.length).toBeGreaterThan(0);
    expect(e2!.settingsChanges[0].to).toContain('ROW_COUNT,DELAY');
    expect(e2!.baselineResets.length).toBe(e2!.settingsChanges.length);

    const e3 = await h.preview!(client, change('dq_monitor_deployment_rule', 'dq_monitor_deployment_rule.mart', id, 'delete', null), ctx);
    expect(e3?.source).toBe('delete-overview');
    expect(e3!.monitorsToDelete.length).toBe(e1!.monitorsToCreate.length);
  });

  test('SQL-test rule: a rule with tests[] has no REST preview and is previewed over gRPC; an exclusive rule previews over REST; the delete overview loses history', async () => {
    const h = handlerFor('dq_sql_test_deployment_rule');
    const sid = '0b000000-0000-4000-8000-000000000002';
    const srule = { title: 'Orders tests', staticConfig: { path: 'wh-prod::mart::fct_orders', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'id not null', notNull: { columns: ['id'] } }] } };
    const c = change('dq_sql_test_deployment_rule', 'dq_sql_test_deployment_rule.o', sid, 'create', srule);
    const before = (await fetch(`${emu.url}/__emulator/requests`).then((r) => r.json())) as { routes: Record<string, number> };
    const e1 = await h.preview!(client, c, ctx);
    expect(e1?.source).toBe('sql-test-overview');
    expect(e1?.error).toBeUndefined();
    expect(e1!.testsToCreate).toEqual(['wh-prod::mart::fct_orders/id not null']);
    const after = (await fetch(`${emu.url}/__emulator/requests`).then((r) => r.json())) as { routes: Record<string, number> };
    // nothing was sent over REST for it; one gRPC call was
    expect(after.routes['GET /api/datachecks/sql-test-deployment-rules/v1/overview'] ?? 0).toBe(before.routes['GET /api/datachecks/sql-test-deployment-rules/v1/overview'] ?? 0);
    const grpcKey = 'GRPC /platform.datachecks.sqltests.v1.SqlTestsDeploymentRulesService/GetSqlTestDeployOverview';
    expect((after.routes[grpcKey] ?? 0) - (before.routes[grpcKey] ?? 0)).toBe(1);
    await h.create(client, c, ctx);
    const x = change('dq_sql_test_deployment_rule', 'dq_sql_test_deployment_rule.x', '0b000000-0000-4000-8000-000000000003', 'create', { title: 'no orders', exclusiveStaticConfig: { path: 'wh-prod::mart::fct_orders' } });
    const ex = await h.preview!(client, x, ctx);
    expect(ex?.error).toBeUndefined();
    expect(ex!.testsToDelete).toEqual(['wh-prod::mart::fct_orders/id not null']);
    const e2 = await h.preview!(client, change('dq_sql_test_deployment_rule', 'dq_sql_test_deployment_rule.o', sid, 'delete', null), ctx);
    expect(e2!.losesHistory).toBe(true);
    expect(e2!.testsToDelete).toEqual(['wh-prod::mart::fct_orders/id not null']);
  });

  test('an overview error is reported, not thrown', async () => {
    const h = handlerFor('dq_monitor_deployment_rule');
    const bad = change('dq_monitor_deployment_rule', 'dq_monitor_deployment_rule.bad', id, 'create', { ...rule, queryConfig: { ...rule.queryConfig, resolverQl: 'with_type(' } });
    const e = await h.preview!(client, bad, ctx);
    expect(e?.source).toBe('deploy-overview');
    expect(e?.error).toBeTruthy();
  });
});
