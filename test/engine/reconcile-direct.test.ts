/**
 * Planning helpers of reconcile.ts and bind.ts called directly (issue 23: they were reached only
 * through the spawned CLI, which the mutation run does not count): the "known after apply"
 * effects of a rule that depends on an object the plan creates, which kinds a credential can
 * read (and what the plan says when it cannot), and how a refused saved plan is worded.
 */
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { headsFirst, knownAfterApply, readableKinds } from '../../src/engine/reconcile';
import { PlanMismatchError, type PlanDifference } from '../../src/engine/bind';
import { unpreviewedChanges } from '../../src/engine/guards';
import type { ResourceHandler } from '../../src/kinds/shared/types';

describe('knownAfterApply', () => {
  test('names the dependency the plan creates, in the singular, with the overview of its kind', () => {
    const e = knownAfterApply('dq_monitor_deployment_rule', ['dq_data_product.orders']);
    expect(e.source).toBe('deploy-overview');
    expect(e.afterApply).toBe('it depends on dq_data_product.orders, which this plan creates; the platform can preview it only once that exists');
    // nothing is claimed about what it deletes: apply previews it once the dependency exists
    expect([e.monitorsToDelete, e.testsToDelete, e.error]).toEqual([[], [], undefined]);
  });

  test('several dependencies: all named, in the plural; a SQL-test rule uses the SQL-test overview', () => {
    const e = knownAfterApply('dq_sql_test_deployment_rule', ['dq_domain.a', 'dq_owner.b']);
    expect(e.source).toBe('sql-test-overview');
    expect(e.afterApply).toBe('it depends on dq_domain.a, dq_owner.b, which this plan creates; the platform can preview it only once they exist');
  });

  test('such a change is not "unpreviewed": the guard lets it through (apply previews it later)', () => {
    const c = { address: 'dq_monitor_deployment_rule.r', type: 'dq_monitor_deployment_rule', action: 'create' as const, effects: knownAfterApply('dq_monitor_deployment_rule', ['dq_domain.a']) };
    expect(unpreviewedChanges({ changes: [c as never] }, new Set(['dq_monitor_deployment_rule']))).toEqual([]);
  });
});

describe('headsFirst (the order previews are asked in)', () => {
  const c = (type: string, name: string) => ({ type, address: `${type}.${name}` }) as never;
  const addrs = (cs: readonly { address: string }[]) => cs.map((x) => x.address);

  test("each kind's first change first (in order of first appearance), then the others in their order", () => {
    const m = (n: string) => c('dq_monitor_deployment_rule', n);
    const s = (n: string) => c('dq_sql_test_deployment_rule', n);
    const k = (n: string) => c('dq_check_categorisation_rule', n);
    expect(addrs(headsFirst([m('a'), m('b'), m('c'), s('a'), s('b'), k('a')]))).toEqual([
      'dq_monitor_deployment_rule.a',
      'dq_sql_test_deployment_rule.a',
      'dq_check_categorisation_rule.a',
      'dq_monitor_deployment_rule.b',
      'dq_monitor_deployment_rule.c',
      'dq_sql_test_deployment_rule.b',
    ]);
  });

  test('one kind (or none): the same order, as a new array', () => {
    const one = [c('dq_monitor_deployment_rule', 'b'), c('dq_monitor_deployment_rule', 'a')];
    const out = headsFirst(one);
    expect(out).toEqual(one);
    expect(out).not.toBe(one);
    expect(headsFirst([])).toEqual([]);
  });
});

describe('readableKinds', () => {
  const handlers = Object.fromEntries(RESOURCE_TYPES.map((t) => [t, { label: t.replace(/^dq_/, '').replace(/_/g, ' ') }])) as unknown as Record<ResourceType, ResourceHandler>;
  const declaring = (types: ResourceType[], removed: ResourceType[] = []) => ({
    namespace: 'shop',
    resources: types.map((type) => ({ type })) as never[],
    removed: removed.map((type) => ({ type })) as never[],
  });
  const ALL_READ = ['SCOPE_OWNERS_READ', 'SCOPE_DOMAIN_READ', 'SCOPE_DATAPRODUCT_READ', 'SCOPE_OWNERSHIP_READ', 'SCOPE_ALERTS_READ', 'SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_INTEGRATION_READ', 'SCOPE_SAVED_VIEW_READ', 'SCOPE_POLICIES_READ'];

  test('a credential that reads every kind reads them all, in the fixed kind order, without a word', () => {
    expect(readableKinds(declaring(['dq_alert']), ALL_READ, handlers)).toEqual({ types: [...RESOURCE_TYPES], diagnostics: [] });
    // one scope of any-of set is enough (MCP read covers most kinds; integrations take their own, wire-facts 8)
    expect(readableKinds(declaring([]), ['SCOPE_MCP_READ', 'SCOPE_ALERTS_READ', 'SCOPE_INTEGRATION_EDIT'], handlers).types).toEqual([...RESOURCE_TYPES]);
    expect(readableKinds(declaring([]), ['SCOPE_MCP_READ', 'SCOPE_ALERTS_READ'], handlers).types).toEqual(RESOURCE_TYPES.filter((t) => t !== 'dq_integration'));
  });

  test('a kind the stack declares but cannot read is an error; one it does not declare is skipped with a warning', () => {
    const granted = ALL_READ.filter((s) => s !== 'SCOPE_ALERTS_READ' && s !== 'SCOPE_OWNERS_READ');
    const r = readableKinds(declaring(['dq_alert']), granted, handlers);
    expect(r.types).toEqual(RESOURCE_TYPES.filter((t) => t !== 'dq_alert' && t !== 'dq_owner'));
    expect(r.diagnostics).toEqual(
      expect.arrayContaining([
        {
          severity: 'error',
          summary: 'these credentials cannot read alerts (they need one of SCOPE_ALERTS_READ), and this stack declares some',
          hint: 'Plan with a credential that has one of SCOPE_ALERTS_READ.',
        },
        {
          severity: 'warning',
          summary: 'these credentials cannot read owners (they need one of SCOPE_OWNERS_READ, SCOPE_SRE_AGENT, SCOPE_MCP_READ): owners of namespace "shop" that the code no longer declares are not listed, nor deleted',
          hint: 'Plan with a credential that has one of SCOPE_OWNERS_READ, SCOPE_SRE_AGENT, SCOPE_MCP_READ to see them.',
        },
      ]),
    );
    expect(r.diagnostics).toHaveLength(2);
  });

  test('a kind only removed (a removed block) counts as declared: it must be readable', () => {
    const r = readableKinds(declaring([], ['dq_alert']), ALL_READ.filter((s) => s !== 'SCOPE_ALERTS_READ'), handlers);
    expect(r.diagnostics.map((d) => d.severity)).toEqual(['error']);
  });
});

describe('PlanMismatchError', () => {
  const diff = (i: number, cause: PlanDifference['cause'] = 'live'): PlanDifference => ({ address: `dq_owner.o${String(i).padStart(2, '0')}`, why: 'it changed since the plan', cause });

  test('at most 20 differences are listed, then how many more', () => {
    const e = new PlanMismatchError(Array.from({ length: 23 }, (_, i) => diff(i)));
    const lines = e.message.split('\n');
    expect(lines).toHaveLength(1 + 20 + 1);
    expect(lines[20]).toBe('  dq_owner.o19: it changed since the plan');
    expect(lines[21]).toBe('  ... and 3 more');
    expect(e.addresses).toHaveLength(23);
  });

  test('exactly 20 differences are all listed, with no "more" line', () => {
    const e = new PlanMismatchError(Array.from({ length: 20 }, (_, i) => diff(i)));
    expect(e.message.split('\n')).toHaveLength(21);
    expect(e.message).not.toContain('more');
  });

  test('the hint says what to do: plan again from the code when it changed, never edit a plan file otherwise', () => {
    expect(new PlanMismatchError([diff(1, 'code')]).hint).toBe('Plan again from the current code, review it, and apply that plan (in CI: re-run the plan for this commit).');
    expect(new PlanMismatchError([diff(1, 'live')]).hint).toBe('Plan again (dqform plan --out FILE), review it, and apply the new plan; never edit a plan file by hand.');
    expect(new PlanMismatchError([diff(1, 'plan')]).name).toBe('PlanMismatchError');
  });

  test('the addresses are named once each, the plan as a whole not among them', () => {
    const e = new PlanMismatchError([diff(1), diff(1, 'plan'), { address: '(plan)', why: 'x', cause: 'code' }]);
    expect(e.addresses).toEqual(['dq_owner.o01']);
  });
});
