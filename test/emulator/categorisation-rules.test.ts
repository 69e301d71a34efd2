/**
 * Check categorisation rules over real HTTP, through the client (wire-facts 10; spec 2.6 "Check
 * categories"): upsert, delete, batch-get, list, PreviewRule and ListRuleMatches over the
 * workspace's SQL tests, with precedence: the check's own category, its tool's, then rules by
 * priority. The platform-provided rule of the demo seed is read-only.
 *
 * @gateway
 */
import { PlatformClient, ConflictError, ValidationError } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { DEMO_GLOBAL_RULE_ID } from '../../src/emulator/routes/categorisation-rules';

let emu: RunningEmulator;
let client: PlatformClient;

const ORDERS = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } };
const R1 = '0d000000-0000-4000-8000-000000000001';
const R2 = '0d000000-0000-4000-8000-000000000002';

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  // three checks on fct_orders: one whose tool declares a category (not null: Completeness),
  // one with none, one with its own category
  const r = await client.sqlTests.batchUpsert([
    { id: 'cat-notnull', name: 'Order id set', template: { identifier: ORDERS, notNullTest: { columnNames: ['order_id'] } } },
    { id: 'cat-plain', name: 'Amounts positive', template: { identifier: ORDERS, businessRuleTest: { sqlExpression: 'amount >= 0' } } },
    { id: 'cat-explicit', name: 'Explicit amounts', category: 'Accuracy', template: { identifier: ORDERS, businessRuleTest: { sqlExpression: 'amount < 1e9' } } },
  ] as never);
  expect(r.errors).toEqual([]);
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
});

const sqlTestsRule = { dimension: 'TECHNICAL' as const, title: 'SQL tests', category: 'Correctness', matcher: { attributes: { checkTypes: ['sqlTest' as const] } }, priority: 10 };

describe('categorisation rules', () => {
  it('creates with an etag, merges an update, refuses a stale etag, deletes idempotently', async () => {
    const made = await client.categorisationRules.upsert({ id: R2, ...sqlTestsRule, title: 'temp' });
    expect(made).toMatchObject({ id: R2, scope: 'WORKSPACE', dimension: 'TECHNICAL', etag: `W/"${R2}-1"` });
    const renamed = await client.categorisationRules.upsert({ id: R2, title: 'temp 2' }, made.etag);
    expect(renamed).toMatchObject({ title: 'temp 2', category: 'Correctness', priority: 10 });
    await expect(client.categorisationRules.upsert({ id: R2, title: 'x' }, made.etag)).rejects.toBeInstanceOf(ConflictError);
    expect(Object.keys(await client.categorisationRules.batchGet([R2]))).toEqual([R2]);
    await client.categorisationRules.delete(R2, { etag: renamed.etag });
    await client.categorisationRules.delete(R2);
    expect(await client.categorisationRules.batchGet([R2])).toEqual({});
    // a hard delete: created again, the rule starts a new life (what a create's version check expects)
    expect((await client.categorisationRules.upsert({ id: R2, ...sqlTestsRule, title: 'again' })).etag).toBe(`W/"${R2}-1"`);
    await client.categorisationRules.delete(R2);
  });

  it('refuses a create without its required fields, and a bad expression, naming the field', async () => {
    const e = await client.categorisationRules.upsert({ id: R2, title: 't' }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(ValidationError);
    expect((e as ValidationError).violations.map((v) => v.field).sort()).toEqual(['category', 'dimension', 'matcher']);
    const bad = await client.categorisationRules.upsert({ id: R2, ...sqlTestsRule, matcher: { expression: 'with_name(' } }).catch((x: unknown) => x);
    expect((bad as ValidationError).violations[0].field).toBe('matcher.expression');
  });

  it('lists the platform-provided rule as GLOBAL, and refuses to edit or delete it', async () => {
    const all = await client.categorisationRules.list(50);
    expect(all.find((r) => r.id === DEMO_GLOBAL_RULE_ID)).toMatchObject({ scope: 'GLOBAL', dimension: 'TECHNICAL' });
    expect((await client.categorisationRules.list(50, { scope: 'WORKSPACE' })).some((r) => r.id === DEMO_GLOBAL_RULE_ID)).toBe(false);
    await expect(client.categorisationRules.upsert({ id: DEMO_GLOBAL_RULE_ID, title: 'mine' })).rejects.toThrow(/platform-provided/);
    await expect(client.categorisationRules.delete(DEMO_GLOBAL_RULE_ID)).rejects.toThrow(/platform-provided/);
    await expect(client.categorisationRules.upsert({ id: R2, ...sqlTestsRule, scope: 'GLOBAL' })).rejects.toThrow(/platform-provided/);
  });

  it('previews with precedence: the check\'s own category, then its tool\'s, then rules by priority', async () => {
    const p = await client.categorisationRules.preview({ ...sqlTestsRule, category: 'Validity' });
    expect(p).toMatchObject({ matchedCount: 3, categorisedCount: 1, changedCount: 1 });
    expect(p.changes).toEqual([{ checkId: 'sqltest-cat-plain', checkName: 'Amounts positive', checkType: 'sqlTest', from: '', to: 'Validity' }]);
    const byExpression = await client.categorisationRules.preview({ dimension: 'TECHNICAL', category: 'Validity', matcher: { expression: 'with_name("fct_orders")' } });
    expect(byExpression).toMatchObject({ matchedCount: 3, categorisedCount: 1 });
    await client.categorisationRules.upsert({ id: R1, ...sqlTestsRule });
    // a lower priority loses to R1; a higher one wins and changes Correctness to Validity
    expect(await client.categorisationRules.preview({ ...sqlTestsRule, category: 'Validity', priority: 5 })).toMatchObject({ categorisedCount: 0, changedCount: 0, changes: [] });
    const higher = await client.categorisationRules.preview({ ...sqlTestsRule, category: 'Validity', priority: 20 });
    expect(higher.changes).toEqual([{ checkId: 'sqltest-cat-plain', checkName: 'Amounts positive', checkType: 'sqlTest', from: 'Correctness', to: 'Validity' }]);
    // previewing R1 itself with a narrower matcher: the check it no longer matches loses its category
    const narrowed = await client.categorisationRules.preview({ id: R1, matcher: { attributes: { nameContains: 'explicit' } }, dimension: 'TECHNICAL' });
    expect(narrowed.changes).toEqual([{ checkId: 'sqltest-cat-plain', checkName: 'Amounts positive', checkType: 'sqlTest', from: 'Correctness', to: '' }]);
  });

  it('lists the checks a stored rule matches, saying which get their category from it', async () => {
    const m = await client.categorisationRules.listMatches(R1, 2);
    expect(m).toEqual([
      { checkId: 'sqltest-cat-explicit', checkName: 'Explicit amounts', checkType: 'sqlTest', category: 'Accuracy', applied: false },
      { checkId: 'sqltest-cat-notnull', checkName: 'Order id set', checkType: 'sqlTest', category: 'Completeness', applied: false },
      { checkId: 'sqltest-cat-plain', checkName: 'Amounts positive', checkType: 'sqlTest', category: 'Correctness', applied: true },
    ]);
  });
});
