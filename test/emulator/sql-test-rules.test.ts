/**
 * SQL-test deployment rules of the emulator over real HTTP: deploy, computed overviews, delete.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { BatchGetSqlTestRulesResponse, ListSqlTestRulesResponse, ListSqlTestsResponse, SqlTestDeployOverviewResponse, SqlTestDeploymentRuleWrite, SqlTestOverviewRequest } from '../../schemas/platform/sql-tests';
import { toQuery } from '../../schemas/platform/wire';
import { prepareRule, SQL_TEST_RULES_COLLECTION } from '../../src/emulator/routes/sql-test-rules';
import { planRuleChange, type SqlTestRule } from '../../src/emulator/sql-test-placement';
import type { SqlTest, SqlTestDeployOverview } from '../../schemas/platform/sql-tests';
import { buildCatalog } from '../../src/emulator/catalog';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { Collection } from '../../src/emulator/store';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

const RULES = '/api/datachecks/sql-test-deployment-rules/v1';
const TESTS = '/api/datachecks/sqltests/v1';
const catalog = buildCatalog('demo');
const isTable = (type: string) => /_(TABLE|VIEW)$/.test(type);
/** Table and view paths of the demo catalog matching `pred` (computed independently of the emulator). */
const tablePaths = (pred: (path: string, name: string) => boolean) => catalog.entities.filter((e) => isTable(e.type) && pred(e.path, e.name)).map((e) => e.path).sort();

let emu: RunningEmulator;
let admin: string;
let reader: string;

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo' });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
});
afterAll(async () => {
  await emu.close();
});
beforeEach(async () => {
  expect((await call(emu.url, 'POST', '/__emulator/reset', { body: {} })).status).toBe(200);
});

/** wire-facts 6 / grpc-facts `recurrence_rule`: a rule's schedule, when set, carries an inline DTSTART: */
const DAILY_AT_6 = 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=6';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
type Rule = Record<string, any>;

/** A query rule deploying `tests` (default: one notNull test) on `resolverQl`'s selection. */
function queryRule(n: number, resolverQl: string, settings: Record<string, unknown> = {}, extra: Rule = {}): Rule {
  return {
    id: uuid(n),
    title: `rule ${n}`,
    configId: 'ns-sql',
    queryConfig: { resolverQl, recurrenceRule: DAILY_AT_6, tests: [{ name: 'ids not null', notNullTest: { columnNames: ['id'] } }], ...settings },
    ...extra,
  };
}

async function deploy(rule: Rule, token = admin): Promise<void> {
  const r = await call(emu.url, 'POST', `${RULES}/deployed`, { token, body: { deploymentRule: rule } });
  expect(r.status).toBe(200);
  expect(r.body).toEqual({});
}
/** The rule's scalar fields as dotted query parameters (exclusive rules; a rule with tests[] has no such form). */
const dotted = (rule: Rule) =>
  toQuery(SqlTestOverviewRequest, { deploymentRule: rule })
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`)
    .join('&');
/**
 * The deploy overview of `rule`: over REST for rules without tests (exclusive ones); a rule that
 * holds `tests[]` cannot travel in a GET query string (wire-facts section 6), so its overview is
 * computed in-process with the same placement code the route uses (the gRPC path carries it).
 */
async function overview(rule: Rule, token = admin, on: RunningEmulator = emu): Promise<SqlTestDeployOverview> {
  const cfg = rule.queryConfig ?? rule.staticConfig;
  if (!cfg) {
    const r = await call(on.url, 'GET', `${RULES}/overview?${dotted(rule)}`, { token });
    expect(r.status).toBe(200);
    return SqlTestDeployOverviewResponse.parse(r.body).overview;
  }
  const store = on.app.store.workspace('demo');
  const prepared = prepareRule(SqlTestDeploymentRuleWrite.parse(rule), 'deploymentRule.', 'overview');
  const rules = store.collection<SqlTestRule>(SQL_TEST_RULES_COLLECTION).values();
  const current = store.collection<SqlTest>('sqlTests').filter((t) => !!t.deploymentRuleId);
  return planRuleChange(on.app.catalog, rules, current, { deploy: prepared }).overview;
}
async function deleteOverview(id: string): Promise<SqlTestDeployOverview> {
  const r = await call(emu.url, 'GET', `${RULES}/${id}/deleted`, { token: admin });
  expect(r.status).toBe(200);
  return SqlTestDeployOverviewResponse.parse(r.body).overview;
}
/** Every SQL test of the workspace, by id. */
async function allTests(): Promise<Map<string, SqlTest & { etag?: string }>> {
  const out = new Map<string, SqlTest & { etag?: string }>();
  let cursor = '';
  do {
    const r = await call(emu.url, 'GET', `${TESTS}?pagination.pageSize=1000${cursor ? `&pagination.cursor=${encodeURIComponent(cursor)}` : ''}`, { token: admin });
    const page = ListSqlTestsResponse.parse(r.body);
    for (const t of r.body.sqlTests) out.set(t.id, t);
    cursor = page.pageInfo?.lastId ?? '';
  } while (cursor);
  return out;
}
const testsOf = async (ruleId: string) => [...(await allTests()).values()].filter((t) => t.deploymentRuleId === ruleId);
const paths = (refs: { tablePath: string }[]) => [...new Set(refs.map((r) => r.tablePath))].sort();
const counts = (o: SqlTestDeployOverview) => ({
  create: o.testsToCreate.length,
  update: o.testsToUpdate.length,
  delete: o.testsToDelete.length,
  keep: o.testsToKeep.length,
});

const ORDERS = 'with_name("orders")';
const orderTables = tablePaths((_p, name) => name.toLowerCase().includes('orders'));

describe('deploy and its overview', () => {
  test('the overview of a new rule lists one create per table and test, and skips non-tables with a reason', async () => {
    const rule = queryRule(1, ORDERS, { tests: [{ name: 'a', notNullTest: { columnNames: ['id'] } }, { name: 'b', uniqueTest: { columnNames: ['id'] } }] });
    const o = await overview(rule);
    expect(orderTables.length).toBeGreaterThan(2);
    expect(counts(o)).toEqual({ create: orderTables.length * 2, update: 0, delete: 0, keep: 0 });
    expect(paths(o.testsToCreate)).toEqual(orderTables);
    expect(o.testsToCreate[0]).toEqual({ tablePath: orderTables[0], sqlTestPath: `${uuid(1)}:${orderTables[0]}:a`, testName: 'a' });
    const nonTables = catalog.entities.filter((e) => !isTable(e.type) && e.name.toLowerCase().includes('orders'));
    expect(o.skippedTables.map((s) => s.tablePath)).toEqual(nonTables.map((e) => e.path).sort());
    for (const s of o.skippedTables) expect(s.reason).toMatch(/^not a table or view \(ENTITY_TYPE_/);
    // a preview writes nothing
    expect(await testsOf(uuid(1))).toEqual([]);
  });

  test('deploy creates exactly the previewed tests, bound to each table, with settings from the rule', async () => {
    const rule = queryRule(2, ORDERS, {
      severity: 'SEVERITY_WARNING',
      saveFailures: true,
      tests: [
        { name: 'nn', notNullTest: { columnNames: ['order_id'] } },
        { name: 'fresh', description: 'loaded daily', severity: 'SEVERITY_ERROR', freshnessTest: { timePartitionColumnName: 'loaded_at', timeWindowSeconds: '86400' } },
      ],
    });
    const preview = await overview(rule);
    await deploy(rule);
    const tests = await testsOf(uuid(2));
    expect(tests.map((t) => t.id).sort()).toEqual(preview.testsToCreate.map((r) => r.sqlTestPath).sort());
    const onOrders = tests.filter((t) => t.id.startsWith(`${uuid(2)}:wh-prod::raw::orders:`));
    const entity = catalog.byPath('wh-prod::raw::orders')!;
    expect(onOrders.find((t) => t.name === 'nn')).toEqual({
      id: `${uuid(2)}:wh-prod::raw::orders:nn`,
      name: 'nn',
      severity: 'SEVERITY_WARNING',
      platform: { warehouseAccount: { account: entity.id.warehouseAccountTable!.account, database: 'wh-prod' } },
      recurrenceRule: DAILY_AT_6,
      timezone: 'UTC',
      saveFailures: true,
      configId: 'ns-sql',
      source: 'SOURCE_API',
      template: { identifier: entity.id, notNullTest: { columnNames: ['order_id'] } },
      deploymentRuleId: uuid(2),
    });
    expect(onOrders.find((t) => t.name === 'fresh')).toMatchObject({ severity: 'SEVERITY_ERROR', description: 'loaded daily' });

    const got = BatchGetSqlTestRulesResponse.parse((await call(emu.url, 'POST', `${RULES}/by-id`, { token: admin, body: { ids: [uuid(2), uuid(999)] } })).body);
    expect(Object.keys(got.deploymentRules)).toEqual([uuid(2)]);
    expect(got.deploymentRules[uuid(2)]).toMatchObject({ testCount: orderTables.length * 2, source: 'SOURCE_API', configId: 'ns-sql' });
    expect(got.deploymentRules[uuid(2)].queryConfig).toMatchObject({ renderedResolverQl: 'with_name("orders")', query: { parts: [{ withNameSearch: { searchQuery: 'orders' } }] } });
  });

  test('the overview right after a deploy has nothing to create, update or delete', async () => {
    const rule = queryRule(3, ORDERS);
    await deploy(rule);
    const o = await overview(rule);
    expect(counts(o)).toEqual({ create: 0, update: 0, delete: 0, keep: 0 });
    // redeploying the same rule changes no test
    const before = await testsOf(uuid(3));
    await deploy(rule);
    expect(await testsOf(uuid(3))).toEqual(before);
  });

  test('a ResolverQL that is spelled differently but means the same is stored canonically and changes nothing', async () => {
    await deploy(queryRule(4, ORDERS));
    const o = await overview(queryRule(4, ' with_name( "orders" ) '));
    expect(counts(o)).toEqual({ create: 0, update: 0, delete: 0, keep: 0 });
  });

  // Redeploying a changed rule: each case starts from queryRule(10, ORDERS) with tests nn + uq.
  const base = () => queryRule(10, ORDERS, { tests: [{ name: 'nn', notNullTest: { columnNames: ['id'] } }, { name: 'uq', uniqueTest: { columnNames: ['id'] } }] });
  const n = orderTables.length;
  const prodOrderTables = orderTables.filter((p) => p.startsWith('wh-prod::'));
  const changes: { reason: string; change: (r: Rule) => Rule; expected: ReturnType<typeof counts>; after: number; detachedAfter?: number }[] = [
    {
      reason: 'changing a rule test severity updates it on every table',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, tests: [{ ...r.queryConfig.tests[0], severity: 'SEVERITY_ERROR' }, r.queryConfig.tests[1]] } }),
      expected: { create: 0, update: n, delete: 0, keep: 0 },
      after: 2 * n,
    },
    {
      reason: 'changing the schedule updates every test',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=HOURLY', timezone: 'Europe/Paris' } }),
      expected: { create: 0, update: 2 * n, delete: 0, keep: 0 },
      after: 2 * n,
    },
    {
      reason: 'a new rule test is created on every table',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, tests: [...r.queryConfig.tests, { name: 'biz', businessRuleTest: { sqlExpression: 'amount >= 0' } }] } }),
      expected: { create: n, update: 0, delete: 0, keep: 0 },
      after: 3 * n,
    },
    {
      reason: 'a removed rule test is deleted from every table',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, tests: [r.queryConfig.tests[0]] } }),
      expected: { create: 0, update: 0, delete: n, keep: 0 },
      after: n,
    },
    {
      reason: 'a narrower selection deletes the tests of tables no longer matched',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, resolverQl: 'and(with_name("orders"),in_folder("folder-wh-prod"))' } }),
      expected: { create: 0, update: 0, delete: 2 * (n - prodOrderTables.length), keep: 0 },
      after: 2 * prodOrderTables.length,
    },
    {
      reason: 'with keepRemovedTests, tests of tables no longer matched are kept (detached from the rule)',
      change: (r) => ({ ...r, queryConfig: { ...r.queryConfig, keepRemovedTests: true, resolverQl: 'and(with_name("orders"),in_folder("folder-wh-prod"))' } }),
      expected: { create: 0, update: 0, delete: 0, keep: 2 * (n - prodOrderTables.length) },
      after: 2 * prodOrderTables.length,
      detachedAfter: 2 * (n - prodOrderTables.length),
    },
  ];
  test.each(changes)('redeploy: $reason', async ({ change, expected, after, detachedAfter }) => {
    expect(prodOrderTables.length).toBeGreaterThan(0);
    expect(prodOrderTables.length).toBeLessThan(n);
    await deploy(base());
    const before = await allTests();
    const changed = change(base());
    const o = await overview(changed);
    expect(counts(o)).toEqual(expected);
    await deploy(changed);
    const now = await allTests();
    const mine = [...now.values()].filter((t) => t.deploymentRuleId === uuid(10));
    expect(mine).toHaveLength(after);
    for (const ref of o.testsToUpdate) expect(now.get(ref.sqlTestPath!)).not.toEqual(before.get(ref.sqlTestPath!));
    for (const ref of o.testsToCreate) expect(now.get(ref.sqlTestPath!)?.deploymentRuleId).toBe(uuid(10));
    for (const ref of o.testsToDelete) expect(now.has(ref.sqlTestPath!)).toBe(false);
    for (const ref of o.testsToKeep) expect(now.get(ref.sqlTestPath!)?.deploymentRuleId).toBeUndefined();
    expect([...now.values()].filter((t) => t.id.startsWith(uuid(10)) && !t.deploymentRuleId)).toHaveLength(detachedAfter ?? 0);
    expect(counts(await overview(changed))).toEqual({ create: 0, update: 0, delete: 0, keep: 0 });
  });

  test('a static rule selects the asset at its path and everything below it', async () => {
    const raw = tablePaths((p) => p.startsWith('wh-prod::raw::'));
    const rule = { id: uuid(20), title: 'raw', staticConfig: { path: 'wh-prod::raw', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'nn', notNullTest: { columnNames: ['id'] } }] } };
    expect(paths((await overview(rule)).testsToCreate)).toEqual(raw);
    const single = { ...rule, staticConfig: { ...rule.staticConfig, path: 'wh-prod::raw::orders' } };
    expect(paths((await overview(single)).testsToCreate)).toEqual(['wh-prod::raw::orders']);
    const folder = { ...rule, staticConfig: { ...rule.staticConfig, path: 'folder-wh-prod::raw' } };
    expect(paths((await overview(folder)).testsToCreate)).toEqual(raw);
    const nowhere = await overview({ ...rule, staticConfig: { ...rule.staticConfig, path: 'wh-nowhere::x' } });
    expect(nowhere.testsToCreate).toEqual([]);
    expect(nowhere.skippedTables).toEqual([{ tablePath: 'wh-nowhere::x', reason: 'no catalog asset or folder at path wh-nowhere::x' }]);
  });

  test('a given query is replaced by the translation of resolverQl (resolverQl wins)', async () => {
    await deploy(queryRule(21, ORDERS, { query: { parts: [{ withNameSearch: { searchQuery: 'customers' } }] } }));
    expect(paths((await testsOf(uuid(21))).map((t) => ({ tablePath: t.id.slice(uuid(21).length + 1, -':ids not null'.length) })))).toEqual(orderTables);
    const got = (await call(emu.url, 'POST', `${RULES}/by-id`, { token: admin, body: { ids: [uuid(21)] } })).body.deploymentRules[uuid(21)];
    expect(got.queryConfig.query).toEqual({ parts: [{ withNameSearch: { searchQuery: 'orders' } }] });
  });
});

describe('placement cost (issue 27: linear setups)', () => {
  test('deploying a rule that touches no exclusive rule, and listing rules, pass over no other rule or test', async () => {
    const exclusive = { id: uuid(41), title: 'no pii', exclusiveQueryConfig: { resolverQl: 'with_annotation("pii")' } };
    const raw = tablePaths((p) => p.startsWith('wh-prod::raw::'));
    const claimed = raw.filter((p) => catalog.entities.find((e) => e.path === p)!.annotations.some((x) => x.name === 'pii'));
    const perRule = raw.length - claimed.length;
    const rawRule = (n: number) => ({ id: uuid(n), title: `raw ${n}`, staticConfig: { path: 'wh-prod::raw', recurrenceRule: DAILY_AT_6, tests: [{ name: 'nn', notNullTest: { columnNames: ['id'] } }] } });
    expect(claimed.length).toBeGreaterThan(0);
    expect(perRule).toBeGreaterThan(0);
    await deploy(exclusive);
    await deploy(rawRule(42));
    const values = jest.spyOn(Collection.prototype, 'values');
    const filter = jest.spyOn(Collection.prototype, 'filter');
    try {
      await deploy(rawRule(43));
      const r = await call(emu.url, 'POST', `${RULES}/batch/deployed`, { token: admin, body: { deploymentRules: [rawRule(44), rawRule(45)] } });
      expect(r.body.errors).toEqual([]);
      const listed = ListSqlTestRulesResponse.parse((await call(emu.url, 'GET', RULES, { token: admin })).body);
      const got = await call(emu.url, 'POST', `${RULES}/by-id`, { token: admin, body: { ids: [uuid(44)] } });
      expect(values).not.toHaveBeenCalled();
      expect(filter).not.toHaveBeenCalled();
      // the exclusive rule's claims still apply to the rules deployed meanwhile, and testCount counts each rule's tests
      expect(Object.fromEntries(listed.deploymentRules.map((x) => [x.id, x.testCount]))).toEqual({ [uuid(41)]: 0, [uuid(42)]: perRule, [uuid(43)]: perRule, [uuid(44)]: perRule, [uuid(45)]: perRule });
      expect(got.body.deploymentRules[uuid(44)].testCount).toBe(perRule);
    } finally {
      values.mockRestore();
      filter.mockRestore();
    }
    expect(await testsOf(uuid(45))).toHaveLength(perRule);
  });
});

describe('exclusive rules', () => {
  const raw = tablePaths((p) => p.startsWith('wh-prod::raw::'));
  const piiRaw = catalog.entities.filter((e) => e.path.startsWith('wh-prod::raw::') && e.annotations.some((a) => a.name === 'pii')).map((e) => e.path).sort();
  const staticRule = { id: uuid(30), title: 'raw', staticConfig: { path: 'wh-prod::raw', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'nn', notNullTest: { columnNames: ['id'] } }] } };
  const exclusive = { id: uuid(31), title: 'no pii', exclusiveQueryConfig: { resolverQl: 'with_annotation("pii")' } };

  test('an exclusive rule removes its tables from another rule, and deleting it gives them back', async () => {
    expect(piiRaw.length).toBeGreaterThan(0);
    await deploy(staticRule);
    expect(await testsOf(uuid(30))).toHaveLength(raw.length);

    const o = await overview(exclusive);
    expect(counts(o)).toEqual({ create: 0, update: 0, delete: piiRaw.length, keep: 0 });
    expect(paths(o.testsToDelete)).toEqual(piiRaw);
    await deploy(exclusive);
    expect((await testsOf(uuid(30))).map((t) => t.id.slice(uuid(30).length + 1, -':nn'.length)).sort()).toEqual(raw.filter((p) => !piiRaw.includes(p)));
    expect(await testsOf(uuid(31))).toEqual([]);

    // the other rule's own overview now skips the claimed tables, naming the exclusive rule
    const again = await overview(staticRule);
    expect(counts(again)).toEqual({ create: 0, update: 0, delete: 0, keep: 0 });
    expect(again.skippedTables).toEqual(piiRaw.map((p) => ({ tablePath: p, reason: `claimed by exclusive rule ${uuid(31)}` })));

    // a rule deployed later does not get the claimed tables either
    const later = { ...staticRule, id: uuid(32), title: 'later' };
    expect(paths((await overview(later)).testsToCreate)).toEqual(raw.filter((p) => !piiRaw.includes(p)));

    // deleting the exclusive rule re-creates the other rule's tests on them
    const del = await deleteOverview(uuid(31));
    expect(counts(del)).toEqual({ create: piiRaw.length, update: 0, delete: 0, keep: 0 });
    expect(paths(del.testsToCreate)).toEqual(piiRaw);
    expect((await call(emu.url, 'DELETE', `${RULES}/${uuid(31)}`, { token: admin })).status).toBe(200);
    expect(await testsOf(uuid(30))).toHaveLength(raw.length);
  });

  test('an exclusive static rule claims its path', async () => {
    await deploy(staticRule);
    const o = await overview({ id: uuid(33), title: 'not orders', exclusiveStaticConfig: { path: 'wh-prod::raw::orders' } });
    expect(o.testsToDelete).toEqual([{ tablePath: 'wh-prod::raw::orders', sqlTestPath: `${uuid(30)}:wh-prod::raw::orders:nn`, testName: 'nn' }]);
  });
});

describe('delete', () => {
  test('the delete overview lists every test the rule deployed; delete removes them and the rule', async () => {
    await deploy(queryRule(40, ORDERS));
    const o = await deleteOverview(uuid(40));
    expect(counts(o)).toEqual({ create: 0, update: 0, delete: orderTables.length, keep: 0 });
    expect(paths(o.testsToDelete)).toEqual(orderTables);
    expect((await call(emu.url, 'DELETE', `${RULES}/${uuid(40)}`, { token: admin })).body).toEqual({});
    expect([...(await allTests()).keys()].filter((id) => id.startsWith(uuid(40)))).toEqual([]);
    expect((await call(emu.url, 'POST', `${RULES}/by-id`, { token: admin, body: { ids: [uuid(40)] } })).body).toEqual({ deploymentRules: {} });
  });

  test('keepRemovedTests: the delete overview lists them as kept; delete leaves them, detached and editable', async () => {
    await deploy(queryRule(41, ORDERS, { keepRemovedTests: true }));
    const o = await deleteOverview(uuid(41));
    expect(counts(o)).toEqual({ create: 0, update: 0, delete: 0, keep: orderTables.length });
    // Delete takes no field but the path id (wire-facts): no override parameter
    expect((await call(emu.url, 'GET', `${RULES}/${uuid(41)}/deleted?keepRemovedTests=false`, { token: admin })).status).toBe(400);
    await call(emu.url, 'DELETE', `${RULES}/${uuid(41)}`, { token: admin });
    const kept = [...(await allTests()).values()].filter((t) => t.id.startsWith(uuid(41)));
    expect(kept).toHaveLength(orderTables.length);
    for (const t of kept) expect(t.deploymentRuleId).toBeUndefined();
    const { etag: _e, ...write } = kept[0];
    const r = await call(emu.url, 'POST', TESTS, { token: admin, body: { sqlTests: [{ ...write, name: 'mine now' }] } });
    expect(r.body).toEqual({ createdIds: [], updatedIds: [kept[0].id], errors: [] });
  });

  test('deleting an unknown rule is success (idempotent), its delete overview NOT_FOUND; the batch delete treats unknown ids as success', async () => {
    const r = await call(emu.url, 'DELETE', `${RULES}/${uuid(42)}`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({});
    expectStatus((await call(emu.url, 'GET', `${RULES}/${uuid(42)}/deleted`, { token: admin })).body, 5);
    expect((await call(emu.url, 'GET', `${RULES}/${uuid(42)}/deleted`, { token: admin })).status).toBe(404);
    await deploy(queryRule(43, ORDERS));
    const b = await call(emu.url, 'DELETE', `${RULES}/batch?ids=${uuid(43)}&ids=${uuid(42)}`, { token: admin });
    expect(b.status).toBe(200);
    expect(b.body).toEqual({});
    expect(await testsOf(uuid(43))).toEqual([]);
  });
});

describe('tests made by a rule', () => {
  test('refuse direct edit and delete (per-item FAILED_PRECONDITION), and stay unchanged', async () => {
    await deploy(queryRule(50, ORDERS));
    const [t] = await testsOf(uuid(50));
    const { deploymentRuleId: _d, ...write } = t;
    const up = await call(emu.url, 'POST', TESTS, { token: admin, body: { sqlTests: [{ ...write, name: 'hijacked' }] } });
    expect(up.status).toBe(200);
    expect(up.body.createdIds).toEqual([]);
    expect(up.body.errors).toEqual([{ id: t.id, reason: expect.stringMatching(new RegExp(`^FAILED_PRECONDITION: .*${uuid(50)}`)) }]);
    const del = await call(emu.url, 'DELETE', `${TESTS}?ids=${encodeURIComponent(t.id)}`, { token: admin });
    expect(del.body.errors).toEqual([{ id: t.id, reason: expect.stringMatching(/^FAILED_PRECONDITION/) }]);
    expect((await allTests()).get(t.id)).toEqual(t);
  });
});

describe('validation', () => {
  const cases: { reason: string; rule: Rule; field: string; ruleId: string }[] = [
    { reason: 'bad ResolverQL', rule: queryRule(60, 'with_name("orders"'), field: 'deploymentRule.queryConfig.resolverQl', ruleId: 'deploy.queryConfig.resolver_ql' },
    { reason: 'unknown ResolverQL function', rule: queryRule(60, 'with_colour("red")'), field: 'deploymentRule.queryConfig.resolverQl', ruleId: 'deploy.queryConfig.resolver_ql' },
    { reason: 'bad ResolverQL in an exclusive rule', rule: { id: uuid(60), title: 'x', exclusiveQueryConfig: { resolverQl: 'not(' } }, field: 'deploymentRule.exclusiveQueryConfig.resolverQl', ruleId: 'deploy.exclusiveQueryConfig.resolver_ql' },
    { reason: 'junk RRULE', rule: queryRule(60, ORDERS, { recurrenceRule: 'daily at six' }), field: 'deploymentRule.queryConfig.recurrenceRule', ruleId: 'deploy.recurrence_rule.valid' },
    // grpc-facts `recurrence_rule`: "when set must contain an inline DTSTART:" (the platform refuses the plain form for rules)
    { reason: 'a plain RRULE without DTSTART: (query config)', rule: queryRule(60, ORDERS, { recurrenceRule: 'FREQ=DAILY;BYHOUR=7' }), field: 'deploymentRule.queryConfig.recurrenceRule', ruleId: 'deploy.recurrence_rule.dtstart' },
    { reason: 'a plain RRULE without DTSTART: (static config)', rule: { id: uuid(60), title: 's', staticConfig: { path: 'wh-prod::raw', recurrenceRule: 'RRULE:FREQ=DAILY', tests: [{ name: 'nn', notNullTest: { columnNames: ['id'] } }] } }, field: 'deploymentRule.staticConfig.recurrenceRule', ruleId: 'deploy.recurrence_rule.dtstart' },
    { reason: 'a DTSTART;TZID= start (not the inline DTSTART: form)', rule: queryRule(60, ORDERS, { recurrenceRule: 'DTSTART;TZID=Europe/Paris:20260101T070000\nRRULE:FREQ=DAILY' }), field: 'deploymentRule.queryConfig.recurrenceRule', ruleId: 'deploy.recurrence_rule.dtstart' },
    { reason: 'a DTSTART: that is no date', rule: queryRule(60, ORDERS, { recurrenceRule: 'DTSTART:tomorrow\nRRULE:FREQ=DAILY' }), field: 'deploymentRule.queryConfig.recurrenceRule', ruleId: 'deploy.recurrence_rule.valid' },
    { reason: 'unknown time zone', rule: queryRule(60, ORDERS, { timezone: 'Nowhere/Land' }), field: 'deploymentRule.queryConfig.timezone', ruleId: 'deploy.timezone.valid' },
    { reason: 'two tests with one name', rule: queryRule(60, ORDERS, { tests: [{ name: 'x', notNullTest: { columnNames: ['a'] } }, { name: 'x', uniqueTest: { columnNames: ['a'] } }] }), field: 'deploymentRule.queryConfig.tests[1].name', ruleId: 'deploy.tests.unique_names' },
    { reason: 'neither query nor resolverQl', rule: queryRule(60, '', {}), field: 'deploymentRule.queryConfig.query', ruleId: 'deploy.queryConfig.selection_required' },
    { reason: 'no tests', rule: queryRule(60, ORDERS, { tests: [] }), field: 'deploymentRule.queryConfig.tests', ruleId: 'deploy.deploymentRule.queryConfig.tests' },
    { reason: 'id is not a UUID', rule: { ...queryRule(60, ORDERS), id: 'not-a-uuid' }, field: 'deploymentRule.id', ruleId: 'deploy.deploymentRule.id' },
    { reason: 'title too long', rule: { ...queryRule(60, ORDERS), title: 'x'.repeat(101) }, field: 'deploymentRule.title', ruleId: 'deploy.deploymentRule.title' },
  ];
  test.each(cases)('deploy refuses it with INVALID_ARGUMENT and a rule id: $reason', async ({ rule, field, ruleId }) => {
    const r = await call(emu.url, 'POST', `${RULES}/deployed`, { token: admin, body: { deploymentRule: rule } });
    expect(r.status).toBe(400);
    const v = expectStatus(r.body, 3).details[0].violations ?? [];
    expect(v).toContainEqual(expect.objectContaining({ field, ruleId }));
    // the REST overview refuses an exclusive rule the same way (rules with tests have no REST form)
    if (rule.exclusiveQueryConfig) {
      const o = await call(emu.url, 'GET', `${RULES}/overview?${dotted(rule)}`, { token: admin });
      expect(o.status).toBe(400);
      expect(expectStatus(o.body, 3).details[0].violations).toContainEqual(expect.objectContaining({ field, ruleId: ruleId.replace(/^deploy\./, 'overview.') }));
    }
    expect(await allTests()).toEqual(new Map());
  });

  // what the platform accepts for a rule's schedule: an inline DTSTART: and an RRULE line; empty = on demand
  test.each([
    ['DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY'],
    ['DTSTART:20260101T070000\nRRULE:FREQ=DAILY;BYHOUR=7'],
    ['DTSTART:20260101\r\nRRULE:FREQ=WEEKLY;BYDAY=MO'],
    [undefined],
  ])('deploy accepts the schedule %j', async (recurrenceRule) => {
    const { recurrenceRule: _r, ...rest } = queryRule(62, ORDERS).queryConfig as Rule;
    await deploy({ ...queryRule(62, ORDERS), queryConfig: { ...rest, ...(recurrenceRule === undefined ? {} : { recurrenceRule }) } });
    const got = (await call(emu.url, 'POST', `${RULES}/by-id`, { token: admin, body: { ids: [uuid(62)] } })).body.deploymentRules[uuid(62)];
    expect(got.queryConfig.recurrenceRule).toBe(recurrenceRule);
    // the tests it deploys carry the rule's schedule, which BatchUpsert of SQL tests also accepts
    const made = [...(await allTests()).values()].filter((t) => (t as Rule).deploymentRuleId === uuid(62));
    expect(made.length).toBeGreaterThan(0);
    for (const t of made) expect((t as Rule).recurrenceRule).toBe(recurrenceRule);
    expect((await call(emu.url, 'DELETE', `${RULES}/${uuid(62)}`, { token: admin })).status).toBe(200);
  });

  test.each([
    { reason: 'no rule parameters', query: '', ruleId: 'overview.deploymentRule' },
    { reason: 'the rule as a JSON value', query: `?deploymentRule=${encodeURIComponent(JSON.stringify({ id: uuid(61), title: 'x', exclusiveStaticConfig: { path: 'a' } }))}`, ruleId: 'overview.message_parameter' },
    { reason: 'tests as a JSON value (a repeated message has no query form)', query: `?deploymentRule.id=${uuid(61)}&deploymentRule.title=x&deploymentRule.queryConfig.resolverQl=with_name(%22orders%22)&deploymentRule.queryConfig.tests=${encodeURIComponent('[{"name":"n","notNullTest":{"columnNames":["id"]}}]')}`, ruleId: 'overview.message_parameter' },
    { reason: 'the old `rule` parameter', query: '?rule=%7B%7D', ruleId: 'overview.unknown_field' },
  ])('overview: $reason', async ({ query, ruleId }) => {
    const r = await call(emu.url, 'GET', `${RULES}/overview${query}`, { token: admin });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 3).details[0].violations?.map((v) => v.ruleId)).toContain(ruleId);
  });
});

describe('batch deploy, batch get, list', () => {
  test('batch deploy reports per-item errors in a 200 and deploys the rest', async () => {
    const r = await call(emu.url, 'POST', `${RULES}/batch/deployed`, {
      token: admin,
      body: { deploymentRules: [queryRule(70, ORDERS), queryRule(71, 'with_name('), queryRule(72, 'with_name("customers")')] },
    });
    expect(r.status).toBe(200);
    expect(r.body.deployedIds).toEqual([uuid(70), uuid(72)]);
    expect(r.body.errors).toEqual([{ id: uuid(71), reason: expect.stringMatching(/^INVALID_ARGUMENT: .*batch_deploy\.queryConfig\.resolver_ql/) }]);
    expect((await testsOf(uuid(70))).length).toBe(orderTables.length);
    expect((await testsOf(uuid(72))).length).toBeGreaterThan(0);
  });

  test('list pages over several pages and filters by configsFilter, sources and ruleIds; testCount is set', async () => {
    for (let i = 0; i < 5; i++) await deploy(queryRule(80 + i, 'with_name("fct_orders")', {}, { configId: i < 3 ? 'ns-a' : 'ns-b', source: i === 4 ? 'SOURCE_APP' : undefined }));
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const r = await call(emu.url, 'GET', `${RULES}?pagination.pageSize=2${cursor ? `&pagination.cursor=${cursor}` : ''}`, { token: admin });
      const page = ListSqlTestRulesResponse.parse(r.body);
      seen.push(...page.deploymentRules.map((x) => x.id));
      for (const x of page.deploymentRules) expect(x.testCount).toBe(tablePaths((_p, name) => name.includes('fct_orders')).length);
      cursor = page.pageInfo?.lastId ?? '';
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual([80, 81, 82, 83, 84].map(uuid));

    const ids = async (q: string) => ListSqlTestRulesResponse.parse((await call(emu.url, 'GET', `${RULES}?${q}`, { token: admin })).body).deploymentRules.map((x) => x.id);
    expect(await ids('configsFilter.ids=ns-b')).toEqual([uuid(83), uuid(84)]);
    expect(await ids('sources=SOURCE_APP')).toEqual([uuid(84)]);
    expect(await ids('sources=SOURCE_API&configsFilter.ids=ns-b')).toEqual([uuid(83)]);
    expect(await ids(`ruleIds=${uuid(81)}&ruleIds=${uuid(99)}`)).toEqual([uuid(81)]);
  });

  // wire-facts 2: "SQL-test rule List with no pagination or `pageSize` 0 returns ALL rules"
  test.each(['', '&pagination.pageSize=0'])('list without a page size answers every rule and no cursor (%s)', async (paging) => {
    const many = Array.from({ length: 105 }, (_, i) => ({ id: uuid(1000 + i), title: `x${i}`, configId: 'ns-all', exclusiveStaticConfig: { path: `wh-prod::none::t${i}` } }));
    const d = await call(emu.url, 'POST', `${RULES}/batch/deployed`, { token: admin, body: { deploymentRules: many } });
    expect(d.body.errors).toEqual([]);
    const page = ListSqlTestRulesResponse.parse((await call(emu.url, 'GET', `${RULES}?configsFilter.ids=ns-all${paging}`, { token: admin })).body);
    expect(page.deploymentRules.map((x) => x.id)).toEqual(many.map((x) => x.id));
    expect(page.pageInfo?.lastId ?? '').toBe('');
  });
});

describe('scopes', () => {
  test('SCOPE_MCP_WRITE alone may deploy and delete a rule (spec part 4), not batch deploy', async () => {
    emu.app.addCredential('mcp-writer', 'mcp-secret', ['SCOPE_MCP_WRITE'], 'demo');
    const mcp = await tokenFor(emu.url, 'mcp-writer', 'mcp-secret');
    await deploy(queryRule(93, ORDERS), mcp);
    expect(await testsOf(uuid(93))).toHaveLength(orderTables.length);
    expect((await call(emu.url, 'POST', `${RULES}/batch/deployed`, { token: mcp, body: { deploymentRules: [queryRule(94, ORDERS)] } })).status).toBe(403);
    expect((await call(emu.url, 'DELETE', `${RULES}/${uuid(93)}`, { token: mcp })).status).toBe(200);
    expect(await testsOf(uuid(93))).toEqual([]);
  });

  test('the reader can preview and read', async () => {
    await deploy(queryRule(90, ORDERS));
    expect((await overview({ id: uuid(91), title: 'x', exclusiveQueryConfig: { resolverQl: ORDERS } }, reader)).testsToDelete).toHaveLength(orderTables.length);
    expect((await call(emu.url, 'GET', `${RULES}/${uuid(90)}/deleted`, { token: reader })).status).toBe(200);
    expect((await call(emu.url, 'GET', RULES, { token: reader })).status).toBe(200);
    expect((await call(emu.url, 'POST', `${RULES}/by-id`, { token: reader, body: { ids: [uuid(90)] } })).status).toBe(200);
  });

  test.each([
    { reason: 'deploy', method: 'POST', path: `${RULES}/deployed`, body: { deploymentRule: queryRule(92, ORDERS) } },
    { reason: 'batch deploy', method: 'POST', path: `${RULES}/batch/deployed`, body: { deploymentRules: [queryRule(92, ORDERS)] } },
    { reason: 'delete', method: 'DELETE', path: `${RULES}/${uuid(92)}`, body: undefined },
    { reason: 'batch delete', method: 'DELETE', path: `${RULES}/batch?ids=${uuid(92)}`, body: undefined },
  ])('the reader cannot write ($reason): 403 naming SCOPE_DATACHECKS_SQLTESTS_EDIT', async ({ method, path, body }) => {
    const r = await call(emu.url, method, path, { token: reader, body });
    expect(r.status).toBe(403);
    expect(expectStatus(r.body, 7).message).toContain('SCOPE_DATACHECKS_SQLTESTS_EDIT');
  });
});

describe('a large catalog', () => {
  test('overview, deploy and delete overview over the size-10000 catalog agree', async () => {
    const big = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo', seedSize: 10000 });
    try {
      const token = await tokenFor(big.url, 'demo-admin');
      const bigCatalog = buildCatalog('demo', { size: 10000 });
      const tables = bigCatalog.entities.filter((e) => e.type.endsWith('_TABLE')).length;
      const rule = queryRule(100, 'with_type("table")');
      const get = async (path: string) => SqlTestDeployOverviewResponse.parse((await call(big.url, 'GET', path, { token })).body).overview;
      const before = await overview(rule, token, big);
      expect(before.testsToCreate).toHaveLength(tables);
      expect((await call(big.url, 'POST', `${RULES}/deployed`, { token, body: { deploymentRule: rule } })).status).toBe(200);
      const after = await overview(rule, token, big);
      expect(counts(after)).toEqual({ create: 0, update: 0, delete: 0, keep: 0 });
      expect((await get(`${RULES}/${uuid(100)}/deleted`)).testsToDelete).toHaveLength(tables);
    } finally {
      await big.close();
    }
  });
});
