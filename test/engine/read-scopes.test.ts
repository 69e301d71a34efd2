/**
 * checkReadScopes (applier.ts): apply reads every object of the plan again before writing, so a
 * credential that cannot read a kind the plan holds is refused before any write, naming the
 * scope it needs and the objects (issue 23: tested only through the spawned CLI before).
 */
import { Change, type Plan } from '../../schemas/model/plan';
import { checkReadScopes, PlanRefusedError } from '../../src/engine/applier';

const ch = (address: string, action: Change['action']): Change => Change.parse({ address, type: address.split('.')[0], action, id: 'id-' + address, before: null, after: null });
const labels = { dq_alert: { label: 'alert' }, dq_owner: { label: 'owner' } } as unknown as Parameters<typeof checkReadScopes>[2];
const ALL_READ = ['SCOPE_OWNERS_READ', 'SCOPE_DOMAIN_READ', 'SCOPE_DATAPRODUCT_READ', 'SCOPE_OWNERSHIP_READ', 'SCOPE_ALERTS_READ', 'SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_DATACHECKS_SQLTESTS_READ'];

function refusal(plan: Pick<Plan, 'changes'>, scopes: string[]): PlanRefusedError | undefined {
  try {
    checkReadScopes(plan, scopes, labels);
  } catch (e) {
    return e as PlanRefusedError;
  }
  return undefined;
}

test('a credential that reads every kind the plan holds passes', () => {
  expect(refusal({ changes: [ch('dq_alert.a', 'update'), ch('dq_owner.o', 'create')] }, ALL_READ)).toBeUndefined();
  // any scope of the any-of set is enough
  expect(refusal({ changes: [ch('dq_owner.o', 'delete')] }, ['SCOPE_MCP_READ'])).toBeUndefined();
});

test('an unreadable kind the plan holds is refused, naming the scopes needed, how many objects and the first five', () => {
  const changes = ['a', 'b', 'c', 'd', 'e', 'f', 'g'].map((n) => ch(`dq_alert.${n}`, n === 'a' ? 'noop' : 'update'));
  const e = refusal({ changes: [...changes, ch('dq_owner.o', 'create')] }, ALL_READ.filter((s) => s !== 'SCOPE_ALERTS_READ'));
  expect(e).toBeInstanceOf(PlanRefusedError);
  expect(e!.message).toBe(
    'these credentials cannot read alerts (they need one of SCOPE_ALERTS_READ), and the plan holds 7 of them (dq_alert.a, dq_alert.b, dq_alert.c, dq_alert.d, dq_alert.e, and 2 more): apply reads each object again before writing, so nothing was written',
  );
  expect(e!.hint).toBe('Apply with a credential that has the read scopes above as well as the write scopes (plan with the same credential names the same scopes).');
  expect(e!.addresses).toEqual(changes.map((c) => c.address));
});

test('unmanaged objects are not read again, so they do not need the scope; kinds the plan does not hold need nothing', () => {
  expect(refusal({ changes: [ch('dq_alert["ui.a"]', 'unmanaged')] }, [])).toBeUndefined();
  expect(refusal({ changes: [] }, [])).toBeUndefined();
});

test('several unreadable kinds: one line each, in kind order, exactly five objects listed without "more"', () => {
  const owners = ['1', '2', '3', '4', '5'].map((n) => ch(`dq_owner.o${n}`, 'update'));
  const e = refusal({ changes: [ch('dq_alert.a', 'delete'), ...owners] }, []);
  expect(e!.message).toBe(
    'these credentials cannot read owners (they need one of SCOPE_OWNERS_READ, SCOPE_SRE_AGENT, SCOPE_MCP_READ), and the plan holds 5 of them (dq_owner.o1, dq_owner.o2, dq_owner.o3, dq_owner.o4, dq_owner.o5);\n' +
      '  these credentials cannot read alerts (they need one of SCOPE_ALERTS_READ), and the plan holds 1 of them (dq_alert.a): apply reads each object again before writing, so nothing was written',
  );
  expect(e!.addresses).toEqual([...owners.map((c) => c.address), 'dq_alert.a']);
});
