/**
 * The "was the namespace renamed?" helpers (renamed.ts) not covered by renamed.test.ts: when a
 * namespace owns nothing live (the only case where the warning is worth its reads), and where a
 * declared resource would live under another namespace (issue 23: reached before only through
 * the spawned CLI and the reconcile path).
 */
import { defaultFqn, deriveId } from '../../src/engine/identity';
import { candidateNamespaces, keysUnder, MAX_CANDIDATES, ownsNothing } from '../../src/engine/renamed';
import type { ResolvedResource } from '../../src/engine/resolve';

type Live = Parameters<typeof ownsNothing>[0];

describe('ownsNothing', () => {
  test('an alert, rule or SQL test owns by its configId', () => {
    expect(ownsNothing({ dq_alert: [{ key: 'a', id: 'a', configId: 'other', raw: {} }] } as Live, 'w', 'shop')).toBe(true);
    expect(ownsNothing({ dq_alert: [{ key: 'a', id: 'a', configId: 'other', raw: {} }, { key: 'b', id: 'b', configId: 'shop', raw: {} }] } as Live, 'w', 'shop')).toBe(false);
  });

  test('an owner, domain, data product or ownership owns by the tag its id carries, not by configId', () => {
    const mine = deriveId('w', 'shop', 'dq_owner', 't');
    expect(ownsNothing({ dq_owner: [{ key: mine, id: mine, raw: {} }] } as Live, 'w', 'shop')).toBe(false);
    expect(ownsNothing({ dq_owner: [{ key: mine, id: mine, raw: {} }] } as Live, 'w', 'other')).toBe(true);
    // the same tag in another workspace is another namespace
    expect(ownsNothing({ dq_owner: [{ key: mine, id: mine, raw: {} }] } as Live, 'w2', 'shop')).toBe(true);
    expect(ownsNothing({ dq_owner: [{ key: 'x', id: 'x', configId: 'shop', raw: {} }] } as Live, 'w', 'shop')).toBe(true);
  });

  test('objects read only as context (not listed as owned) do not count; no live state owns nothing', () => {
    const mine = deriveId('w', 'shop', 'dq_domain', 'd');
    expect(ownsNothing({ dq_domain: [{ key: mine, id: mine, raw: {}, context: true }] } as unknown as Live, 'w', 'shop')).toBe(true);
    expect(ownsNothing({}, 'w', 'shop')).toBe(true);
    expect(ownsNothing({ dq_alert: undefined } as Live, 'w', 'shop')).toBe(true);
  });
});

describe('keysUnder', () => {
  const r = (address: string, extra: Partial<ResolvedResource> = {}): ResolvedResource => {
    const [type, name] = address.split('.') as [ResolvedResource['type'], string];
    return { address, type, name, id: 'x', desired: {}, lifecycle: {}, dependsOn: [], ...extra };
  };

  test('derived identities under the candidate: alerts by fqn, the other kinds by derived id', () => {
    expect(keysUnder({ workspace: 'w', resources: [r('dq_alert.orders'), r('dq_owner.team')] }, 'old')).toEqual([
      { address: 'dq_alert.orders', type: 'dq_alert', key: defaultFqn('old', 'orders') },
      { address: 'dq_owner.team', type: 'dq_owner', key: deriveId('w', 'old', 'dq_owner', 'team') },
    ]);
  });

  test('pinned and imported identities are left out: they do not move with the namespace', () => {
    const rs = [r('dq_alert.pinned', { desired: { fqn: 'x.y' } }), r('dq_owner.pinned', { desired: { id: 'abc' } }), r('dq_owner.imported', { importedId: 'owner-1' }), r('dq_alert.idonly', { desired: { id: 'not-an-fqn' } })];
    expect(keysUnder({ workspace: 'w', resources: rs }, 'old').map((k) => k.address)).toEqual(['dq_alert.idonly']);
  });

  test('a moved resource is looked up under its old name', () => {
    expect(keysUnder({ workspace: 'w', resources: [r('dq_owner.new', { movedFrom: 'dq_owner.old_name' })] }, 'old')[0].key).toBe(deriveId('w', 'old', 'dq_owner', 'old_name'));
    expect(keysUnder({ workspace: 'w', resources: [r('dq_alert.new', { movedFrom: 'dq_alert.was' })] }, 'old')[0].key).toBe('old.was');
  });
});

test(`candidateNamespaces keeps the first ${MAX_CANDIDATES} in sorted order (each costs batch reads)`, () => {
  const names = Array.from({ length: MAX_CANDIDATES + 5 }, (_, i) => `ns${String(i).padStart(2, '0')}`);
  const live = { dq_sql_test: [...names].reverse().map((configId) => ({ configId })) } as unknown as Live;
  expect(candidateNamespaces(live, 'ns00')).toEqual(names.slice(1, MAX_CANDIDATES + 1));
});
