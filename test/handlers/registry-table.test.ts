/**
 * Every handler's identity in one table: its type, the label the plan prints, whether the
 * namespace prunes it, and that only alerts have replace reasons. (Written for the survivors of
 * the mutation run of src/handlers, issue 12.)
 */
import { HANDLERS } from '../../src/handlers/registry';

test('type, label and pruning of every kind', () => {
  expect(Object.values(HANDLERS).map((h) => [h.type, h.label, h.prunable])).toEqual([
    ['dq_owner', 'owner', false],
    ['dq_domain', 'domain', false],
    ['dq_data_product', 'data product', false],
    ['dq_ownership', 'ownership', false],
    ['dq_alert', 'alert', true],
    ['dq_monitor_deployment_rule', 'monitor deployment rule', true],
    ['dq_sql_test', 'SQL test', true],
    ['dq_sql_test_deployment_rule', 'SQL-test deployment rule', true],
  ]);
  for (const [type, h] of Object.entries(HANDLERS)) expect(h.type).toBe(type);
});

test('replace reasons: a list for every kind, empty for all but alerts', () => {
  for (const h of Object.values(HANDLERS)) {
    const r = h.replaceReasons({ title: 'a' }, { title: 'b' });
    expect(Array.isArray(r)).toBe(true);
    if (h.type !== 'dq_alert') expect(r).toEqual([]);
  }
});
