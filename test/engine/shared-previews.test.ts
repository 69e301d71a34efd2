/**
 * sharedPreviewsWarning: the platform previews each rule alone; rules written by one plan divide
 * assets among themselves, so the plan warns, naming the assets several previews list and the
 * exclusive rules it writes. Table-driven, pure.
 */
import { Change } from '../../schemas/plan';
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
