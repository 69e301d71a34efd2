/**
 * `dqform list` and `dqform output` in-process (src/engine/list.ts, pure): which objects of a plan
 * read from live the namespace manages, their titles, and the ids of the code's objects. The CLI
 * around them is test/cli (a spawned or in-process CLI against an emulator).
 */
import type { Change, Drift, Plan } from '../../schemas/model/plan';
import { KINDS_LISTED, kindOfType, managedObjects, outputsOf } from '../../src/engine/list';

const change = (address: string, action: Change['action'], before: unknown, extra: Partial<Change> = {}): Change =>
  ({ address, type: address.slice(0, address.indexOf('.')), id: `id-${address}`, action, before, after: null, patch: [], ...extra }) as Change;
const drift = (address: string, difference: Drift['difference'], live: unknown, extra: Partial<Drift> = {}): Drift =>
  ({ address, type: address.slice(0, address.indexOf('.')), id: `id-${address}`, difference, remedy: 'update', code: null, live, patch: [], sensitive: [], ...extra }) as Drift;
const plan = (changes: Change[], drifts: Drift[] = []): Plan => ({ stack: 'prod', namespace: 'team', changes, drift: drifts }) as unknown as Plan;

const P = plan(
  [
    change('dq_owner.updated', 'update', { title: 'Updated' }),
    change('dq_owner.created', 'create', null),
    change('dq_owner.deleted', 'delete', { title: 'Deleted' }),
    change('dq_owner.unmanaged', 'unmanaged', { title: 'Theirs' }),
    change('dq_owner.forgotten', 'forget', { title: 'Forgotten' }),
    change('dq_alert.same', 'noop', { name: 'Alert name', title: 7 }, { name: 'alert "Same"' }),
    change('dq_alert.adopting', 'update', { name: 'Being adopted' }, { importedId: 'ui.x' }),
    change('dq_alert.adopted', 'noop', { name: 'Adopted' }, { importedId: 'ui.y' }),
    change('dq_domain.replaced', 'replace', { foo: 1 }, { name: 'domain "Replaced"' }),
    change('dq_domain.untitled', 'noop', {}),
    change('dq_domain.odd', 'noop', 'not an object: not live'),
  ],
  [
    drift('dq_sql_test.changed', 'changed', { name: 'Changed' }),
    drift('dq_sql_test.absent', 'absent', null),
    drift('dq_sql_test.undeclared', 'undeclared', { title: 'Undeclared' }),
    drift('dq_sql_test.claimed', 'changed', { name: 'Claimed' }, { importedId: 't-1' }),
    drift('dq_sql_test.nameless', 'changed', { n: 1 }),
  ],
);

test('kinds are types without dq_', () => {
  expect(kindOfType('dq_alert')).toBe('alert');
  expect(kindOfType('dq_sql_test_deployment_rule')).toBe('sql_test_deployment_rule');
  expect(kindOfType('aws_thing')).toBe('aws_thing');
  expect(KINDS_LISTED).toEqual(['owner', 'domain', 'data_product', 'ownership', 'alert', 'monitor_deployment_rule', 'sql_test', 'sql_test_deployment_rule', 'integration', 'saved_view', 'check_categorisation_rule']);
});

test('managedObjects: what the namespace manages and live holds, declared or not, sorted by address, titled from live', () => {
  const row = (address: string, title: string, declared: boolean) => ({ address, kind: kindOfType(address.slice(0, address.indexOf('.'))), id: `id-${address}`, title, declared, stack: 'prod', namespace: 'team' });
  expect(managedObjects(P)).toEqual([
    row('dq_alert.adopted', 'Adopted', true),
    row('dq_alert.same', 'alert "Same"', true),
    row('dq_domain.replaced', 'domain "Replaced"', true),
    row('dq_domain.untitled', '', true),
    row('dq_owner.deleted', 'Deleted', false),
    row('dq_owner.updated', 'Updated', true),
    row('dq_sql_test.changed', 'Changed', true),
    row('dq_sql_test.nameless', '', true),
    row('dq_sql_test.undeclared', 'Undeclared', false),
  ]);
  expect(managedObjects(P, 'owner').map((o) => o.address)).toEqual(['dq_owner.deleted', 'dq_owner.updated']);
  expect(managedObjects(P, 'sql_test').map((o) => o.address)).toEqual(['dq_sql_test.changed', 'dq_sql_test.nameless', 'dq_sql_test.undeclared']);
  expect(managedObjects(P, 'saved_view')).toEqual([]);
});

test('outputsOf: ids of the declared objects that exist, adopted ones included; declared ones not created yet apart', () => {
  expect(outputsOf(P)).toEqual({
    outputs: {
      'dq_alert.adopted': 'id-dq_alert.adopted',
      'dq_alert.adopting': 'id-dq_alert.adopting',
      'dq_alert.same': 'id-dq_alert.same',
      'dq_domain.replaced': 'id-dq_domain.replaced',
      'dq_domain.untitled': 'id-dq_domain.untitled',
      'dq_owner.updated': 'id-dq_owner.updated',
      'dq_sql_test.changed': 'id-dq_sql_test.changed',
      'dq_sql_test.claimed': 'id-dq_sql_test.claimed',
      'dq_sql_test.nameless': 'id-dq_sql_test.nameless',
    },
    absent: ['dq_domain.odd', 'dq_owner.created', 'dq_sql_test.absent'],
  });
  expect(Object.keys(outputsOf(plan([change('dq_owner.b', 'noop', {}), change('dq_owner.a', 'noop', {}), change('dq_owner.c', 'create', null), change('dq_owner.a2', 'create', null)])).outputs)).toEqual(['dq_owner.a', 'dq_owner.b']);
  expect(outputsOf(plan([change('dq_owner.c', 'create', null), change('dq_owner.a', 'create', null)])).absent).toEqual(['dq_owner.a', 'dq_owner.c']);
  expect(outputsOf(plan([]))).toEqual({ outputs: {}, absent: [] });
});
