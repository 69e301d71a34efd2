/**
 * The harness checks itself: a first apply of owners, an ownership, a domain, a data product,
 * a monitor rule and a SQL-test rule matches its plan exactly (every object and every monitor
 * and test the rules place), the next plan is empty, and a plan that hides an effect or an
 * object is caught (missing and unexpected lines).
 *
 * @gateway
 */
import type { Plan } from '../../schemas/model/plan';
import { compareWithPlan, startEmulatorProcess, stateDiff, Scenario, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

const OWNER = { title: 'Team', contacts: [{ email: { recipient_emails: ['t@example.com'] } }] };
const RESOURCES = {
  dq_owner: { team: OWNER },
  dq_ownership: { mart: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } },
  dq_domain: { sales: { name: 'Sales' } },
  dq_data_product: { orders: { title: 'Orders', priority: 'PRIORITY_P2' } },
  dq_monitor_deployment_rule: {
    mart: { title: 'Mart', query_config: { resolver_ql: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } },
  },
  dq_sql_test_deployment_rule: {
    ids: { title: 'Ids', static_config: { path: 'wh-prod::mart::fct_orders', recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'ids', not_null: { columns: ['order_id'] } }] } },
  },
};

it('harness: a first apply does exactly what its plan says, and a plan that hides something is caught', async () => {
  const s = new Scenario(emu);
  try {
    s.stack('harness', RESOURCES);
    const { run: planRun, plan } = await s.plan();
    expect(planRun.code).toBe(0);
    expect(plan).toBeDefined();
    const r = await s.applyChecked(plan!, ['apply', s.path('plan.json')]);
    expect(r.run.code).toBe(0);
    expect({ missing: r.missing, unexpected: r.unexpected }).toEqual({ missing: [], unexpected: [] });
    // the rules placed monitors and tests, and the plan said which
    expect(r.happened.filter((l) => l.startsWith('monitor+ ')).length).toBeGreaterThan(0);
    expect(r.happened.filter((l) => l.startsWith('test+ ')).length).toBeGreaterThan(0);
    expect(r.happened.filter((l) => l.startsWith('create ')).length).toBe(6);

    // a plan that hides a monitor and an ownership: both are caught
    const hidden = JSON.parse(JSON.stringify(plan)) as Plan;
    hidden.changes = hidden.changes.filter((c) => c.type !== 'dq_ownership');
    const rule = hidden.changes.find((c) => c.type === 'dq_monitor_deployment_rule')!;
    const dropped = rule.effects!.monitorsToCreate.shift()!;
    const cmp = compareWithPlan(hidden, r.before, r.after);
    expect(cmp.missing).toEqual([]);
    expect(cmp.unexpected).toEqual(expect.arrayContaining([expect.stringMatching(/^create dq_ownership /), `monitor+ ${rule.id.toLowerCase()} ${dropped}`]));
    // and a plan that claims more than happened: the claim is missing
    const claims = JSON.parse(JSON.stringify(plan)) as Plan;
    claims.changes.find((c) => c.type === 'dq_monitor_deployment_rule')!.effects!.monitorsToDelete.push('wh-prod::mart::nowhere');
    expect(compareWithPlan(claims, r.before, r.after).missing).toEqual([`monitor- ${rule.id.toLowerCase()} wh-prod::mart::nowhere`]);

    // the next plan is empty, and nothing changes without an apply
    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
    expect(stateDiff(r.after, await emu.state())).toEqual([]);
  } finally {
    s.remove();
  }
});
