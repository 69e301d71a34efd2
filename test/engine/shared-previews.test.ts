/**
 * sharedPreviewsWarning: the platform previews each rule alone; rules written by one plan divide
 * assets among themselves, so the plan warns, naming the assets several previews list and the
 * exclusive rules it writes. Table-driven, pure.
 */
import { Change } from '../../schemas/model/plan';
import { sharedPreviewsWarning } from '../../src/engine/planner';

const rule = (name: string, action: Change['action'], after: Record<string, unknown>, monitorsToCreate: string[] = []): Change =>
  Change.parse({ address: `dq_monitor_deployment_rule.${name}`, type: 'dq_monitor_deployment_rule', action, id: name, before: null, after, effects: { source: 'deploy-overview', monitorsToCreate } });
const query = { queryConfig: { resolverQl: 'x' } };

it.each<[string, Change[], RegExp[] | undefined]>([
  ['one rule: its preview is exact', [rule('a', 'create', query, ['t1'])], undefined],
  ['two rules, distinct assets, no exclusive rule: nothing to say', [rule('a', 'create', query, ['t1']), rule('b', 'update', query, ['t2'])], undefined],
  ['an unchanged rule does not count', [rule('a', 'create', query, ['t1']), rule('b', 'noop', { exclusiveStaticConfig: { path: 't1' } })], undefined],
  ['an asset in two previews', [rule('a', 'create', query, ['t1', 't2']), rule('b', 'create', query, ['t2'])], [/t2 \(dq_monitor_deployment_rule\.a, dq_monitor_deployment_rule\.b\)/]],
  [
    'an exclusive rule written beside a rule that creates monitors',
    [rule('a', 'create', query, ['t1']), rule('x', 'create', { exclusiveStaticConfig: { path: 'wh::t1' } }), rule('q', 'create', { exclusiveQueryConfig: { resolverQl: 'y' } })],
    [/wh::t1 \(dq_monitor_deployment_rule\.x\)/, /dq_monitor_deployment_rule\.q \(by its query\)/],
  ],
])('%s', (_why, changes, expected) => {
  const w = sharedPreviewsWarning(changes);
  if (!expected) return expect(w).toBeUndefined();
  expect(w?.severity).toBe('warning');
  expect(w?.summary).toMatch(/rules written together divide assets among themselves: fewer monitors may be created than the previews list/);
  for (const e of expected) expect(w?.detail).toMatch(e);
});

describe('the warning word for word (issue 23: the mutation run)', () => {
  const HINT = 'Nothing is deleted that the plan does not show. To see exact previews, apply the exclusive rules (or the rules that claim shared assets) first, then plan the others.';
  const summary = (n: number) => `the platform previews each of the ${n} monitor rule changes alone, and rules written together divide assets among themselves: fewer monitors may be created than the previews list`;

  it('shared assets sorted, each with the rules that list it; at most ten, then how many more', () => {
    const assets = Array.from({ length: 12 }, (_, i) => `t${String(i).padStart(2, '0')}`);
    const w = sharedPreviewsWarning([rule('b', 'update', query, [...assets].reverse()), rule('a', 'replace', query, assets), rule('c', 'delete', query, assets)]);
    expect(w).toEqual({
      severity: 'warning',
      summary: summary(2),
      detail: `assets in the previews of several of them: ${assets
        .slice(0, 10)
        .map((a) => `${a} (dq_monitor_deployment_rule.b, dq_monitor_deployment_rule.a)`)
        .join('; ')}; and 2 more`,
      hint: HINT,
    });
  });

  it('exactly ten shared assets: no "more"', () => {
    const assets = Array.from({ length: 10 }, (_, i) => `t${i}`);
    expect(sharedPreviewsWarning([rule('a', 'create', query, assets), rule('b', 'create', query, assets)])?.detail).not.toMatch(/more/);
  });

  it('shared assets and exclusive rules: both parts, joined; a static exclusive rule without a path is named by its query', () => {
    const w = sharedPreviewsWarning([rule('a', 'create', query, ['t1']), rule('b', 'create', query, ['t1']), rule('x', 'create', { exclusiveStaticConfig: {} })]);
    expect(w?.summary).toBe(summary(3));
    expect(w?.detail).toBe('assets in the previews of several of them: t1 (dq_monitor_deployment_rule.a, dq_monitor_deployment_rule.b). exclusive rules, which the other rules\' previews do not account for: dq_monitor_deployment_rule.x (by its query)');
  });

  it('an exclusive rule beside rules that create nothing: no warning; beside one whose effects are known after apply: a warning', () => {
    const afterApply = Change.parse({ ...rule('a', 'create', query), effects: { source: 'deploy-overview', afterApply: 'it depends on dq_data_product.p, which this plan creates' } });
    const excl = rule('x', 'create', { exclusiveStaticConfig: { path: 'wh::t1' } });
    expect(sharedPreviewsWarning([rule('a', 'create', query), excl])).toBeUndefined();
    expect(sharedPreviewsWarning([afterApply, excl])?.detail).toBe("exclusive rules, which the other rules' previews do not account for: wh::t1 (dq_monitor_deployment_rule.x)");
  });

  it('rules of a kind whose previews do not overlap, and a single rule change, say nothing', () => {
    const sql = (name: string) => Change.parse({ address: `dq_sql_test_deployment_rule.${name}`, type: 'dq_sql_test_deployment_rule', action: 'create', id: name, before: null, after: {}, effects: { source: 'sql-test-overview', monitorsToCreate: ['t1'] } });
    expect(sharedPreviewsWarning([sql('a'), sql('b')])).toBeUndefined();
    expect(sharedPreviewsWarning([rule('a', 'create', query, ['t1']), rule('b', 'unmanaged', query, ['t1'])])).toBeUndefined();
  });
});
