/**
 * loadPlan: a plan file is refused, word for word, when it is of another format version, not a
 * plan, holds unknown resource types or repeats an address; the rename warning's words; and the
 * deterministic JSON helper. (Written for the uncovered mutants of the mutation run of src/engine,
 * issue 12: only spawned CLI tests reached these.)
 */
import { Change, Plan, PLAN_FORMAT_VERSION } from '../../schemas/plan';
import { loadPlan, PlanRefusedError } from '../../src/engine/applier';
import { sortKeysDeep } from '../../src/engine/keys';
import { renameWarning } from '../../src/engine/renamed';

const HINT = 'Create the plan with `dqform plan --out FILE`; do not edit it by hand.';
const change = (address: string, type = address.split('.')[0]) => Change.parse({ address, type, action: 'create', id: `id-${address}`, before: null, after: { title: 't' } });
const plan = (changes: Change[]) =>
  JSON.parse(
    JSON.stringify(
      Plan.parse({ formatVersion: PLAN_FORMAT_VERSION, workspace: 'w', namespace: 'ns', stack: 'ns', manifestHash: 'h', changes, summary: { add: changes.length, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 } }),
    ),
  ) as Record<string, unknown>;

function refusal(json: unknown): PlanRefusedError {
  try {
    loadPlan(json);
  } catch (e) {
    expect(e).toBeInstanceOf(PlanRefusedError);
    return e as PlanRefusedError;
  }
  throw new Error('expected a PlanRefusedError');
}

describe('loadPlan', () => {
  test('a good plan loads', () => {
    expect(loadPlan(plan([change('dq_owner.a')])).changes.map((c) => c.address)).toEqual(['dq_owner.a']);
  });

  test('a newer format: use the dqform that made it', () => {
    const e = refusal({ ...plan([]), formatVersion: PLAN_FORMAT_VERSION + 1 });
    expect(e.message).toBe(`this plan was written by a newer dqform (plan format ${PLAN_FORMAT_VERSION + 1}); this dqform reads format ${PLAN_FORMAT_VERSION}`);
    expect(e.hint).toBe('Use the dqform version that made the plan (or a newer one), or plan again with this one.');
  });

  test('an older format: plan again', () => {
    const e = refusal({ ...plan([]), formatVersion: PLAN_FORMAT_VERSION - 1 });
    expect(e.message).toBe(`this plan was written by an older dqform (plan format ${PLAN_FORMAT_VERSION - 1}); this dqform reads format ${PLAN_FORMAT_VERSION}`);
    expect(e.hint).toBe('Plan again with this dqform version and apply that plan.');
  });

  test('not a plan: the first three schema problems', () => {
    const e = refusal({ formatVersion: PLAN_FORMAT_VERSION });
    expect(e.message).toMatch(new RegExp(`^not a dqform plan \\(format ${PLAN_FORMAT_VERSION}\\): [a-zA-Z]+: [^;]+; [a-zA-Z]+: [^;]+; [a-zA-Z]+: [^;]+$`));
    expect(e.hint).toBe(HINT);
    expect(refusal([]).message).toMatch(/^not a dqform plan \(format \d+\): : /);
  });

  test('unknown resource types: the first three named, the rest counted, every address kept', () => {
    const bad = ['a', 'b', 'c', 'd'].map((n) => change(`dq_thing.${n}`, 'dq_thing'));
    const e = refusal(plan([change('dq_owner.ok'), ...bad]));
    expect(e.message).toBe(
      'not a dqform plan: changes.1 (dq_thing.a): unknown resource type "dq_thing"; changes.2 (dq_thing.b): unknown resource type "dq_thing"; changes.3 (dq_thing.c): unknown resource type "dq_thing"; and 1 more (dqform manages dq_owner, dq_domain, dq_data_product, dq_ownership, dq_alert, dq_monitor_deployment_rule, dq_sql_test, dq_sql_test_deployment_rule)',
    );
    expect(e.addresses).toEqual(['dq_thing.a', 'dq_thing.b', 'dq_thing.c', 'dq_thing.d']);
    expect(e.hint).toBe(HINT);
  });

  test('a repeated address: the first three repeats named, the rest counted, each address once', () => {
    const e = refusal(plan(['a', 'a', 'b', 'b', 'a', 'c', 'c'].map((n) => change(`dq_owner.${n}`))));
    expect(e.message).toBe(
      'not a dqform plan: changes.1 (dq_owner.a) repeats changes.0; changes.3 (dq_owner.b) repeats changes.2; changes.4 (dq_owner.a) repeats changes.0; and 1 more (a plan has one change per address)',
    );
    expect(e.addresses).toEqual(['dq_owner.a', 'dq_owner.b', 'dq_owner.c']);
    expect(e.hint).toBe(HINT);
  });
});

describe('renameWarning', () => {
  test('the namespace owning most addresses is named, the others listed, long lists cut at five', () => {
    const addrs = ['dq_owner.f', 'dq_owner.e', 'dq_owner.d', 'dq_owner.c', 'dq_owner.b', 'dq_owner.a', 'dq_owner.g'];
    const w = renameWarning('shop2', new Map([['shop', addrs], ['zeta', addrs.slice(0, 4)], ['alpha', addrs.slice(0, 4)], ['tiny', ['dq_owner.a']]]), 8);
    expect(w).toEqual({
      severity: 'warning',
      summary: 'namespace "shop2" owns nothing here, but namespace "shop" owns 7 object(s) at the same addresses (dq_owner.a, dq_owner.b, dq_owner.c, dq_owner.d, dq_owner.e, and 2 more): was the namespace renamed?',
      detail: 'Also at these addresses: namespace "alpha" (4), namespace "zeta" (4).',
      hint: 'To keep managing those objects, set the namespace back to "shop". Ids and configIds carry their namespace, so "shop2" cannot take them over: applying this plan creates new objects beside them. To migrate, apply here, then delete the old ones by planning namespace "shop" with nothing declared (or dqform destroy there).',
    });
  });

  test('half the addresses is enough; fewer, or none, is no warning', () => {
    expect(renameWarning('n', new Map([['old', ['dq_owner.a', 'dq_owner.b']]]), 4)?.summary).toBe(
      'namespace "n" owns nothing here, but namespace "old" owns 2 object(s) at the same addresses (dq_owner.a, dq_owner.b): was the namespace renamed?',
    );
    expect(renameWarning('n', new Map([['old', ['dq_owner.a', 'dq_owner.b']]]), 4)?.detail).toBeUndefined();
    expect(renameWarning('n', new Map([['old', ['dq_owner.a']]]), 3)).toBeUndefined();
    expect(renameWarning('n', new Map([['old', []]]), 0)).toBeUndefined();
  });
});

test('sortKeysDeep sorts keys at every depth, keeps arrays in order, drops undefined, leaves scalars', () => {
  const out = sortKeysDeep({ b: 1, a: { d: [{ z: 1, y: 2 }], c: undefined }, n: null });
  expect(JSON.stringify(out)).toBe('{"a":{"d":[{"y":2,"z":1}]},"b":1,"n":null}');
  expect(sortKeysDeep('s')).toBe('s');
  expect(sortKeysDeep(null)).toBeNull();
});
