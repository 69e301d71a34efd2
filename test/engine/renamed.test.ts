/**
 * The rename warning's words and threshold, and the deterministic JSON helper. (Written for the
 * uncovered mutants of the mutation run of src/engine, issue 12.)
 */
import { sortKeysDeep } from '../../src/engine/keys';
import { candidateNamespaces, renameWarning } from '../../src/engine/renamed';

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

test("candidateNamespaces: configIds seen live, never this namespace nor one another stack of the app declares", () => {
  const live = { dq_alert: [{ configId: 'prod' }, { configId: 'old-name' }, { configId: 'staging' }], dq_sql_test: [{ configId: 'other' }] } as unknown as Parameters<typeof candidateNamespaces>[0];
  expect(candidateNamespaces(live, 'staging', ['prod'])).toEqual(['old-name', 'other']);
  expect(candidateNamespaces(live, 'staging')).toEqual(['old-name', 'other', 'prod']);
});
