/**
 * Issue 25, `dq_check_categorisation_rule` end to end: the spawned CLI against an emulator child,
 * a YAML workspace (`categorisationRules:`). Plan (the preview: how many checks each rule would
 * categorise, from the emulator's PreviewRule; the platform-provided rule listed as not managed),
 * apply exactly as planned, plan again empty, drift after a change made in the platform, prune
 * (with the checks that lose the rule's category), created again, import round trip.
 *
 * @gateway
 */
import { reasonsText } from '../../src/plan/reasons-text';
import * as fs from 'node:fs';
import { PlatformClient } from '../../src/client';
import { DEMO_GLOBAL_RULE_ID } from '../../src/emulator/routes/categorisation-rules';
import type { Plan } from '../../schemas/model/plan';
import { startEmulatorProcess, Scenario, type EmulatorProcess } from './harness';

jest.setTimeout(240_000);

let emu: EmulatorProcess;
let client: PlatformClient;
const ORDERS = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } };

beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  // the workspace's checks: a tool-categorised test (not null: Completeness), an uncategorised
  // one, one with its own category
  const r = await client.sqlTests.batchUpsert([
    { id: 'lc-notnull', name: 'Order id set', template: { identifier: ORDERS, notNullTest: { columnNames: ['order_id'] } } },
    { id: 'lc-plain', name: 'Amounts positive', template: { identifier: ORDERS, businessRuleTest: { sqlExpression: 'amount >= 0' } } },
    { id: 'lc-explicit', name: 'Explicit amounts', category: 'Accuracy', template: { identifier: ORDERS, businessRuleTest: { sqlExpression: 'amount < 1e9' } } },
  ] as never);
  expect(r.errors).toEqual([]);
});
afterAll(async () => {
  await client?.close();
  await emu?.stop();
});

const YAML = (withPii: boolean) => `namespace: catrules
categorisationRules:
  sql_tests:
    dimension: TECHNICAL
    title: SQL tests
    category: Correctness
    matcher:
      attributes:
        checkTypes: [sqlTest]
    priority: 10
${
  withPii
    ? `  orders_governance:
    dimension: GOVERNANCE
    title: Orders checks
    category: Finance
    matcher: 'with_name("fct_orders")'
`
    : ''
}`;

const changeOf = (p: Plan, address: string) => p.changes.find((c) => c.address === address)!;

it('plans with the preview, applies as planned, is empty after, shows drift, prunes and imports back', async () => {
  const s = new Scenario(emu);
  try {
    fs.writeFileSync(s.path('dqform.yaml'), YAML(true));

    // plan: each rule previewed by the platform; the platform-provided rule listed, not managed
    const first = await s.plan(['--file', 'dqform.yaml']);
    expect(first.run.code).toBe(0);
    const p = first.plan!;
    expect(changeOf(p, 'dq_check_categorisation_rule.sql_tests')).toMatchObject({
      action: 'create',
      effects: { source: 'categorisation-preview', checksMatched: 3, checksCategorised: 1, categoryChangeCount: 1, categoryChanges: [{ check: 'Amounts positive', from: '', to: 'Correctness' }] },
    });
    expect(changeOf(p, 'dq_check_categorisation_rule.orders_governance').effects).toMatchObject({ checksMatched: 3, checksCategorised: 3, categoryChangeCount: 3 });
    expect(first.run.out).toContain('checks categorised: 1 (of 3 matched); category changes: 1 (Amounts positive: none -> Correctness)');
    const global = p.changes.find((c) => c.id === DEMO_GLOBAL_RULE_ID)!;
    expect(global).toMatchObject({ action: 'unmanaged', type: 'dq_check_categorisation_rule' });
    expect(reasonsText(global).join(' ')).toMatch(/platform-provided \(scope GLOBAL\)/);
    const md = await s.run(['show', first.file, '--format', 'markdown']);
    expect(md.out).toContain('checks categorised: 1 (of 3 matched)');

    // apply does exactly what the plan said
    const applied = await s.applyChecked(p, ['apply', first.file]);
    expect(applied.run.code).toBe(0);
    expect(applied.missing).toEqual([]);
    expect(applied.unexpected).toEqual([]);
    expect(applied.happened.filter((l) => l.includes('dq_check_categorisation_rule'))).toHaveLength(2);

    // plan again: nothing to do; the preview of an unchanged rule is not asked
    const again = await s.run(['plan', '--file', 'dqform.yaml', '--detailed-exitcode']);
    expect(again.code).toBe(0);

    // drift: a change made in the platform
    const id = changeOf(p, 'dq_check_categorisation_rule.sql_tests').id;
    const live = (await client.categorisationRules.batchGet([id]))[id];
    await client.categorisationRules.upsert({ id, category: 'Correctness (UI)' }, live.etag);
    const drift = await s.run(['drift', '--file', 'dqform.yaml']);
    expect(drift.code).toBe(2);
    expect(drift.out).toContain('Correctness (UI)');
    const fix = await s.plan(['--file', 'dqform.yaml']);
    expect(changeOf(fix.plan!, 'dq_check_categorisation_rule.sql_tests')).toMatchObject({ action: 'update', effects: { categoryChanges: [{ check: 'Amounts positive', from: 'Correctness (UI)', to: 'Correctness' }] } });
    expect((await s.run(['apply', fix.file])).code).toBe(0);

    // prune: a rule the code no longer declares is deleted; the plan names the checks losing its category
    fs.writeFileSync(s.path('dqform.yaml'), YAML(false));
    const prune = await s.plan(['--file', 'dqform.yaml']);
    const governanceId = changeOf(p, 'dq_check_categorisation_rule.orders_governance').id;
    const gone = prune.plan!.changes.find((c) => c.action === 'delete')!;
    expect(gone.id).toBe(governanceId);
    expect(gone).toMatchObject({ action: 'delete', effects: { source: 'categorisation-preview', categoryChangeCount: 3 } });
    expect(prune.run.out).toContain("checks losing this rule's category: 3 (");
    const pruned = await s.applyChecked(prune.plan!, ['apply', prune.file]);
    expect(pruned.run.code).toBe(0);
    expect(pruned.unexpected).toEqual([]);
    expect(pruned.happened).toEqual([`delete dq_check_categorisation_rule ${gone.id}`]);
    expect((await client.categorisationRules.batchGet([DEMO_GLOBAL_RULE_ID]))[DEMO_GLOBAL_RULE_ID]).toBeDefined();

    // declared again: created again at the same id (a hard delete leaves nothing to conflict with)
    fs.writeFileSync(s.path('dqform.yaml'), YAML(true));
    const back = await s.plan(['--file', 'dqform.yaml']);
    expect(changeOf(back.plan!, 'dq_check_categorisation_rule.orders_governance')).toMatchObject({ action: 'create', id: governanceId });
    const recreated = await s.applyChecked(back.plan!, ['apply', back.file]);
    expect([recreated.run.code, recreated.missing, recreated.unexpected]).toEqual([0, [], []]);

    // import round trip: the namespace's rule (never the platform's) comes back as YAML that plans empty
    const imported = await s.run(['import', '--namespace', 'catrules', '--out', 'imported.yaml']);
    expect(imported.code).toBe(0);
    const text = fs.readFileSync(s.path('imported.yaml'), 'utf8');
    expect(text).toContain('categorisationRules:');
    expect(text).not.toContain(DEMO_GLOBAL_RULE_ID);
    const replan = await s.run(['plan', '--file', 'imported.yaml', '--detailed-exitcode']);
    expect(replan.code).toBe(0);
    const ts = await s.run(['import', '--namespace', 'catrules', '--out', 'main.ts', '--format', 'ts']);
    expect(ts.code).toBe(0);
    expect(fs.readFileSync(s.path('main.ts'), 'utf8')).toContain('new CheckCategorisationRule(');
  } finally {
    s.remove();
  }
});
