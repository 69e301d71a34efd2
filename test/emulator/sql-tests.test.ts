/**
 * SQL tests service of the emulator, over real HTTP.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { BatchGetSqlTestsResponse, BatchUpsertSqlTestsResponse, ListSqlTestsResponse } from '../../schemas/platform/sql-tests';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { isIanaTimeZone, rruleProblem } from '../../src/emulator/sql-test-placement';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

const BASE = '/api/datachecks/sqltests/v1';
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

/** A valid SQL test write. */
function sqlTest(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    name: `test ${id}`,
    platform: { warehouseAccount: { account: 'acme-retail', database: 'wh-prod' } },
    sqlExpression: 'select count(*) from orders where id is null',
    recurrenceRule: 'FREQ=DAILY;BYHOUR=6',
    ...extra,
  };
}

const upsert = async (tests: unknown[], token = admin) => call(emu.url, 'POST', BASE, { token, body: { sqlTests: tests } });
const get = async (ids: string[]) => BatchGetSqlTestsResponse.parse((await call(emu.url, 'POST', `${BASE}/by-id`, { token: admin, body: { ids } })).body).sqlTests;
const list = async (query: string, token = admin) => {
  const r = await call(emu.url, 'GET', `${BASE}?${query}`, { token });
  expect(r.status).toBe(200);
  return ListSqlTestsResponse.parse(r.body);
};

describe('batch upsert', () => {
  test('creates, then updates the same ids (createdIds / updatedIds)', async () => {
    const first = await upsert([sqlTest('up-a'), sqlTest('up-b')]);
    expect(first.status).toBe(200);
    expect(BatchUpsertSqlTestsResponse.parse(first.body)).toEqual({ createdIds: ['up-a', 'up-b'], updatedIds: [], errors: [] });
    const second = await upsert([sqlTest('up-a', { name: 'renamed' }), sqlTest('up-c')]);
    expect(BatchUpsertSqlTestsResponse.parse(second.body)).toEqual({ createdIds: ['up-c'], updatedIds: ['up-a'], errors: [] });
    const got = await get(['up-a']);
    expect(got['up-a'].name).toBe('renamed');
  });

  test('defaults: timezone UTC, source SOURCE_API; no etag (SQL tests have none upstream); the recurrence rule is optional', async () => {
    await upsert([sqlTest('def-a')]);
    const a1 = (await call(emu.url, 'POST', `${BASE}/by-id`, { token: admin, body: { ids: ['def-a'] } })).body.sqlTests['def-a'];
    expect(a1.timezone).toBe('UTC');
    expect(a1.source).toBe('SOURCE_API');
    expect(a1.etag).toBeUndefined();
    const { recurrenceRule: _r, ...onDemand } = sqlTest('def-b');
    expect((await upsert([onDemand])).body).toEqual({ createdIds: ['def-b'], updatedIds: [], errors: [] });
    expect((await get(['def-b']))['def-b'].recurrenceRule).toBeUndefined();
  });

  test('full-state: an omitted optional field is cleared', async () => {
    await upsert([sqlTest('fs-a', { description: 'checks ids', annotations: [{ name: 'team', values: ['crm'] }], severity: 'SEVERITY_ERROR', timezone: 'Europe/Paris' })]);
    expect((await get(['fs-a']))['fs-a']).toMatchObject({ description: 'checks ids', severity: 'SEVERITY_ERROR', timezone: 'Europe/Paris' });
    await upsert([sqlTest('fs-a')]);
    const after = (await get(['fs-a']))['fs-a'];
    expect(after.description).toBeUndefined();
    expect(after.annotations).toBeUndefined();
    expect(after.severity).toBeUndefined();
    expect(after.timezone).toBe('UTC');
  });

  test('a template test is stored with its identifier and kind', async () => {
    const template = { identifier: { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } }, uniqueTest: { columnNames: ['order_id'] } };
    const { sqlExpression: _dropped, ...base } = sqlTest('tpl-a');
    expect((await upsert([{ ...base, template }])).body.createdIds).toEqual(['tpl-a']);
    expect((await get(['tpl-a']))['tpl-a'].template).toEqual(template);
  });

  // Each bad item is reported inside a 200; the good item of the same batch is still written.
  const badItems: { reason: string; item: Record<string, unknown>; expectInReason: string }[] = [
    { reason: 'junk RRULE', item: sqlTest('bad-rrule', { recurrenceRule: 'every day please' }), expectInReason: 'batch_upsert.recurrence_rule.valid' },
    { reason: 'RRULE without FREQ', item: sqlTest('bad-nofreq', { recurrenceRule: 'BYHOUR=6' }), expectInReason: 'FREQ is required' },
    { reason: 'RRULE with an unknown FREQ', item: sqlTest('bad-freq', { recurrenceRule: 'FREQ=SOMETIMES' }), expectInReason: 'batch_upsert.recurrence_rule.valid' },
    { reason: 'RRULE with an out-of-range BYHOUR', item: sqlTest('bad-hour', { recurrenceRule: 'FREQ=DAILY;BYHOUR=25' }), expectInReason: 'BYHOUR' },
    { reason: 'not an IANA time zone', item: sqlTest('bad-tz', { timezone: 'Mars/Olympus' }), expectInReason: 'batch_upsert.timezone.valid' },
    { reason: 'name missing', item: { ...sqlTest('bad-name'), name: undefined }, expectInReason: 'batch_upsert.name' },
    { reason: 'both sqlExpression and template', item: sqlTest('bad-oneof', { template: { identifier: { custom: { id: 'x' } }, notNullTest: { columnNames: ['a'] } } }), expectInReason: 'exactly one of sqlExpression, template' },
    { reason: "a template test key without the wire's Test suffix", item: sqlTest('bad-key', { sqlExpression: undefined, template: { identifier: { custom: { id: 'x' } }, notNull: { columns: ['a'] } } }), expectInReason: 'batch_upsert.unknown_field' },
    { reason: 'an undeclared field', item: sqlTest('bad-field', { owner: 'me' }), expectInReason: 'unknown field "owner"' },
    { reason: 'platform with two keys', item: sqlTest('bad-platform', { platform: { unknown: {}, integrationId: 'x' } }), expectInReason: 'sqlTests[0].platform' },
  ];
  test.each(badItems)('per-item error in a 200: $reason', async ({ item, expectInReason }) => {
    const good = sqlTest(`good-for-${String(item.id)}`);
    const r = await upsert([item, good]);
    expect(r.status).toBe(200);
    const body = BatchUpsertSqlTestsResponse.parse(r.body);
    expect(body.createdIds).toEqual([good.id]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].id).toBe(item.id);
    expect(body.errors[0].reason).toMatch(/^INVALID_ARGUMENT: /);
    expect(body.errors[0].reason).toContain(expectInReason);
    expect(await get([String(item.id)])).toEqual({});
  });

  test('a duplicate id in one batch: the second is an error, the first is written', async () => {
    const body = BatchUpsertSqlTestsResponse.parse((await upsert([sqlTest('dup-a'), sqlTest('dup-a', { name: 'second' })])).body);
    expect(body.createdIds).toEqual(['dup-a']);
    expect(body.errors).toEqual([{ id: 'dup-a', reason: expect.stringContaining('batch_upsert.sql_tests.unique_ids') }]);
    expect((await get(['dup-a']))['dup-a'].name).toBe('test dup-a');
  });

  test('an item that is not an object gets a positional id', async () => {
    const body = BatchUpsertSqlTestsResponse.parse((await upsert([42])).body);
    expect(body.errors).toEqual([{ id: 'sqlTests[0]', reason: expect.stringMatching(/^INVALID_ARGUMENT/) }]);
  });

  test('a body without sqlTests is a 400 with violations', async () => {
    const r = await call(emu.url, 'POST', BASE, { token: admin, body: {} });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 3).details[0].violations?.[0].field).toBe('sqlTests');
  });

  test('2,000 tests in one batch are all created, and listed in pages of 1,000', async () => {
    const tests = Array.from({ length: 2000 }, (_, i) => sqlTest(`bulk-${String(i).padStart(4, '0')}`, { configId: 'bulk' }));
    const body = BatchUpsertSqlTestsResponse.parse((await upsert(tests)).body);
    expect(body.errors).toEqual([]);
    expect(body.createdIds).toHaveLength(2000);
    const p1 = await list('configsFilter.ids=bulk&pagination.pageSize=1000');
    const p2 = await list(`configsFilter.ids=bulk&pagination.pageSize=1000&pagination.cursor=${encodeURIComponent(p1.pageInfo!.lastId!)}`);
    expect(p1.sqlTests).toHaveLength(1000);
    expect(p2.sqlTests).toHaveLength(1000);
    expect(p2.pageInfo?.lastId).toBe('');
  });
});

describe('batch get', () => {
  test('returns a map keyed by id and omits missing ids', async () => {
    await upsert([sqlTest('bg-a'), sqlTest('bg-b')]);
    const got = await get(['bg-a', 'nope', 'bg-b']);
    expect(Object.keys(got).sort()).toEqual(['bg-a', 'bg-b']);
    expect(got['bg-a'].id).toBe('bg-a');
  });

  // wire-facts 5 and 6: BatchGet `ids[]` (no limit declared): the platform takes 201, so must the emulator
  test.each([
    ['SQL tests', `${BASE}/by-id`, 'sqlTests'],
    ['SQL-test rules', '/api/datachecks/sql-test-deployment-rules/v1/by-id', 'deploymentRules'],
  ])('%s: BatchGet takes more than 200 ids', async (_what, path, key) => {
    const r = await call(emu.url, 'POST', path, { token: admin, body: { ids: Array.from({ length: 201 }, (_, i) => `x${i}`) } });
    expect(r.status).toBe(200);
    expect(r.body[key]).toEqual({});
  });
});

describe('list', () => {
  beforeAll(async () => {
    const tests = Array.from({ length: 25 }, (_, i) =>
      sqlTest(`ls-${String(i).padStart(2, '0')}`, {
        configId: i % 2 === 0 ? 'ns-even' : 'ns-odd',
        annotations: i % 5 === 0 ? [{ name: 'tier', values: ['1'] }] : i % 5 === 1 ? [{ name: 'tier', values: ['2'] }, { name: 'pii', values: [] }] : [],
        source: i === 24 ? 'SOURCE_APP' : undefined,
      }),
    );
    expect((await upsert(tests)).body.errors).toEqual([]);
  });

  test('pages over several pages in id order; the last page has an empty lastId', async () => {
    const seen: string[] = [];
    let cursor = '';
    let pages = 0;
    do {
      const page = await list(`configsFilter.ids=ns-even&configsFilter.ids=ns-odd&pagination.pageSize=10${cursor ? `&pagination.cursor=${encodeURIComponent(cursor)}` : ''}`);
      pages++;
      expect(page.pageInfo?.count).toBe(page.sqlTests.length);
      seen.push(...page.sqlTests.map((t) => t.id));
      cursor = page.pageInfo?.lastId ?? '';
    } while (cursor && pages < 10);
    expect(pages).toBe(3);
    expect(seen).toEqual(Array.from({ length: 25 }, (_, i) => `ls-${String(i).padStart(2, '0')}`));
  });

  const filters: { reason: string; query: string; expected: number[] }[] = [
    { reason: 'configsFilter keeps one namespace', query: 'configsFilter.ids=ns-odd', expected: [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23] },
    { reason: 'annotation by name matches any value', query: 'configsFilter.ids=ns-even&configsFilter.ids=ns-odd&annotations.name=tier', expected: [0, 1, 5, 6, 10, 11, 15, 16, 20, 21] },
    { reason: 'annotation name and value', query: 'configsFilter.ids=ns-even&configsFilter.ids=ns-odd&annotations.name=tier&annotations.values=1', expected: [0, 5, 10, 15, 20] },
    { reason: 'an annotation without values', query: 'configsFilter.ids=ns-even&configsFilter.ids=ns-odd&annotations.name=pii', expected: [1, 6, 11, 16, 21] },
    { reason: 'annotations and configsFilter combine', query: 'configsFilter.ids=ns-even&annotations.name=tier&annotations.values=1', expected: [0, 10, 20] },
    { reason: 'ids', query: 'ids=ls-03&ids=ls-07&ids=missing', expected: [3, 7] },
    { reason: 'sources by name', query: 'configsFilter.ids=ns-even&sources=SOURCE_APP', expected: [24] },
    { reason: 'sources by number', query: 'configsFilter.ids=ns-even&sources=0', expected: [24] },
    // wire-facts 5: `configIds` is deprecated but declared: the platform accepts it (it filters as configsFilter.ids)
    { reason: 'the deprecated configIds parameter', query: 'configIds=ns-odd', expected: [1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23] },
  ];
  test.each(filters)('filter: $reason', async ({ query, expected }) => {
    const page = await list(`${query}&pagination.pageSize=100`);
    expect(page.sqlTests.map((t) => t.id)).toEqual(expected.map((i) => `ls-${String(i).padStart(2, '0')}`));
  });

  test.each([
    { reason: 'unknown source', query: 'sources=SOURCE_MOON', ruleId: 'list.sources' },
    { reason: 'negative page size', query: 'pagination.pageSize=-1', ruleId: 'list.pagination.pageSize' },
    { reason: 'an unknown parameter', query: 'annotations=tier', ruleId: 'list.message_parameter' },
    { reason: 'a misspelled parameter', query: 'configFilter.ids=x', ruleId: 'list.unknown_field' },
  ])('bad parameter is INVALID_ARGUMENT: $reason', async ({ query, ruleId }) => {
    const r = await call(emu.url, 'GET', `${BASE}?${query}`, { token: admin });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 3).details[0].violations?.[0].ruleId).toBe(ruleId);
  });
});

describe('batch delete', () => {
  test('deletes the named tests; unknown ids are success (idempotent)', async () => {
    await upsert([sqlTest('del-a'), sqlTest('del-b'), sqlTest('del-c')]);
    const r = await call(emu.url, 'DELETE', `${BASE}?ids=del-a&ids=del-b&ids=never-existed`, { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ errors: [] });
    expect(Object.keys(await get(['del-a', 'del-b', 'del-c']))).toEqual(['del-c']);
    const again = await call(emu.url, 'DELETE', `${BASE}?ids=del-a`, { token: admin });
    expect(again.body).toEqual({ errors: [] });
  });

  test('a re-created test is created again; a DELETE with a body is refused (its fields are query parameters)', async () => {
    await upsert([sqlTest('del-etag')]);
    await call(emu.url, 'DELETE', `${BASE}?ids=del-etag`, { token: admin });
    expect((await upsert([sqlTest('del-etag')])).body.createdIds).toEqual(['del-etag']);
    const withBody = await call(emu.url, 'DELETE', BASE, { token: admin, body: { ids: ['del-etag'] } });
    expect(withBody.status).toBe(400);
    expect(Object.keys(await get(['del-etag']))).toEqual(['del-etag']);
  });
});

describe('scopes', () => {
  test('the reader can list and batch get', async () => {
    await upsert([sqlTest('scope-a')]);
    expect((await list('ids=scope-a', reader)).sqlTests.map((t) => t.id)).toEqual(['scope-a']);
    expect((await call(emu.url, 'POST', `${BASE}/by-id`, { token: reader, body: { ids: ['scope-a'] } })).status).toBe(200);
  });

  test.each([
    { reason: 'batch upsert', method: 'POST', path: BASE, body: { sqlTests: [sqlTest('scope-b')] } },
    { reason: 'batch delete', method: 'DELETE', path: `${BASE}?ids=scope-a`, body: undefined },
  ])('the reader cannot write ($reason): 403 naming SCOPE_DATACHECKS_SQLTESTS_EDIT', async ({ method, path, body }) => {
    const r = await call(emu.url, method, path, { token: reader, body });
    expect(r.status).toBe(403);
    expect(expectStatus(r.body, 7).message).toContain('SCOPE_DATACHECKS_SQLTESTS_EDIT');
    expect(Object.keys(await get(['scope-a', 'scope-b']))).toEqual(['scope-a']);
  });

  test('no token is 401', async () => {
    expect((await call(emu.url, 'GET', BASE)).status).toBe(401);
  });
});

describe('schedule checks (pure)', () => {
  const rrules: { reason: string; text: string; ok: boolean }[] = [
    { reason: 'daily at six', text: 'FREQ=DAILY;BYHOUR=6', ok: true },
    { reason: 'RRULE: prefix and lower case', text: 'RRULE:freq=weekly;byday=MO,WE', ok: true },
    { reason: 'monthly on the last day', text: 'FREQ=MONTHLY;BYMONTHDAY=-1', ok: true },
    { reason: 'interval and until', text: 'FREQ=HOURLY;INTERVAL=4;UNTIL=20300101T000000Z', ok: true },
    // the RFC 5545 form with an inline start (what SQL-test rules need, grpc-facts `recurrence_rule`); before: "unknown recurrence rule part DTSTART"
    { reason: 'inline DTSTART: then RRULE:', text: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', ok: true },
    { reason: 'inline DTSTART with a zone, CRLF', text: 'DTSTART;TZID=Europe/Paris:20260101T070000\r\nRRULE:FREQ=DAILY', ok: true },
    { reason: 'DTSTART without an RRULE', text: 'DTSTART:20260101T000000Z', ok: false },
    { reason: 'DTSTART that is no date', text: 'DTSTART:soon\nRRULE:FREQ=DAILY', ok: false },
    { reason: 'two RRULE lines', text: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY\nRRULE:FREQ=WEEKLY', ok: false },
    { reason: 'empty', text: '', ok: false },
    { reason: 'no FREQ', text: 'BYHOUR=6', ok: false },
    { reason: 'prose', text: 'every day at 6', ok: false },
    { reason: 'unknown part', text: 'FREQ=DAILY;WHEN=NOW', ok: false },
    { reason: 'FREQ twice', text: 'FREQ=DAILY;FREQ=WEEKLY', ok: false },
    { reason: 'COUNT and UNTIL together', text: 'FREQ=DAILY;COUNT=3;UNTIL=20300101', ok: false },
    { reason: 'zero interval', text: 'FREQ=DAILY;INTERVAL=0', ok: false },
    { reason: 'bad weekday', text: 'FREQ=WEEKLY;BYDAY=XX', ok: false },
  ];
  test.each(rrules)('rruleProblem: $reason', ({ text, ok }) => {
    expect(rruleProblem(text) === undefined).toBe(ok);
  });
  test.each([
    { tz: 'UTC', ok: true },
    { tz: 'Europe/Paris', ok: true },
    { tz: 'America/Argentina/Buenos_Aires', ok: true },
    { tz: 'Mars/Olympus', ok: false },
    { tz: '', ok: false },
    { tz: '../etc/passwd', ok: false },
  ])('isIanaTimeZone($tz) is $ok', ({ tz, ok }) => {
    expect(isIanaTimeZone(tz)).toBe(ok);
  });
});
