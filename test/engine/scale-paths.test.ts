/**
 * The planner's paths that were linear or worse in the number of changes for nothing (issue 27,
 * the 100,000-object namespace): each answers what the longer path answered.
 * - `repointedAway` with the `keptByKey` index (the cascades of many deletes: one index, not a
 *   search of every change per object in a cascade) answers what the search answers;
 * - `checkRequestedAddresses` with nothing asked for reports nothing (and builds nothing);
 * - the applier's `lookup` (live checks, read-backs) finds per change the object a search of the
 *   kind's list met first, by key or id, from an index (the search per change was quadratic: an
 *   apply of 100,000 objects spent minutes in it);
 * - `dependentsOf` from the `dependentsIndex` (the executor's, made once) answers what the walk of
 *   every change per level answered (the executor calls it per failed write: quadratic when a
 *   large apply fails many).
 */
import { Change } from '../../schemas/model/plan';
import { repointedAway } from '../../src/engine/planner';
import { keptByKey } from '../../src/engine/phases/cascades';
import { checkRequestedAddresses } from '../../src/engine/modes';
import { dependentsIndex, dependentsOf } from '../../src/engine/graph';
import type { Resolution } from '../../src/engine/resolve';
import { lookup } from '../../src/engine/apply-checks';
import { HANDLERS } from '../../src/kinds/index';
import type { LiveObject, ReadQuery } from '../../src/kinds/shared/types';
import type { PlatformClient } from '../../src/client';

const ch = (address: string, action: Change['action'], extra: Partial<Change> = {}): Change =>
  Change.parse({ address, type: address.split(/[.[]/)[0], action, id: 'id-' + address, before: null, after: null, ...extra });

test('repointedAway with the index answers what the search answers (ids in any form, the first of two changes of one object)', () => {
  const owner = { type: 'dq_owner', id: 'owner-0a1b2c3d-0000-8000-8000-000000000001' };
  const other = 'owner-99999999-0000-8000-8000-000000000002';
  const same = '0A1B2C3D-0000-8000-8000-000000000001';
  const actions = ['update', 'noop', 'delete', 'create', 'replace'] as const;
  const changes: Change[] = [];
  for (let i = 0; i < 40; i++) {
    const id = `${i % 3 ? 'ownership-' : ''}${(i % 10).toString(16).padStart(8, '0')}-0000-8000-8000-000000000000`;
    const after = { ownerId: i % 4 ? other : same };
    changes.push(ch(`dq_ownership.o${i}`, actions[i % actions.length], { id: i % 2 ? id.toUpperCase() : id, after }));
    if (i % 7 === 0) changes.push(ch(`dq_alert.a${i}`, 'update', { id, after }));
  }
  const index = keptByKey(changes);
  let repointed = 0;
  for (let i = 0; i < 12; i++) {
    for (const type of ['dq_ownership', 'dq_alert']) {
      const x = { type, id: `ownership-${(i % 10).toString(16).padStart(8, '0')}-0000-8000-8000-000000000000` };
      for (const o of [owner, { ...owner, type: 'dq_domain' }]) {
        const want = repointedAway(x, o, changes);
        expect({ x, o, got: repointedAway(x, o, changes, index) }).toEqual({ x, o, got: want });
        if (want) repointed++;
      }
    }
  }
  // both answers occur
  expect(repointed).toBeGreaterThan(0);
  expect(repointed).toBeLessThan(48);
});

test('checkRequestedAddresses: nothing asked for, nothing reported; an unknown target still is', () => {
  const resolution = { resources: [{ address: 'dq_owner.a' }], removed: [] } as unknown as Resolution;
  const changes = [ch('dq_owner.a', 'noop')];
  const diags: { summary: string }[] = [];
  checkRequestedAddresses({ destroy: false, refreshOnly: false, targets: [], replace: [] }, resolution, changes, diags as never);
  expect(diags).toEqual([]);
  checkRequestedAddresses({ destroy: false, refreshOnly: false, targets: ['dq_owner.b'], replace: [] }, resolution, changes, diags as never);
  expect(diags.map((d) => d.summary)).toEqual(['--target dq_owner.b: neither the code nor live state has an object at this address']);
});

test('lookup: the first object whose key or id is the change\'s id, per kind, as the search found it', async () => {
  const owners: LiveObject[] = [];
  for (let i = 0; i < 3000; i++) owners.push({ key: `k${i}`, id: i % 5 === 0 ? `k${i + 1}` : `id${i}`, raw: { n: i } } as unknown as LiveObject);
  const domains: LiveObject[] = [{ key: 'k1', id: 'd1', raw: {} } as unknown as LiveObject];
  const asked: ReadQuery[] = [];
  const fake = (objs: LiveObject[]) => ({ read: async (_c: unknown, q: ReadQuery) => (asked.push(q), objs) });
  const handlers = { ...HANDLERS, dq_owner: { ...HANDLERS.dq_owner, ...fake(owners) }, dq_domain: { ...HANDLERS.dq_domain, ...fake(domains) } } as typeof HANDLERS;
  const ids = ['k0', 'k1', 'k6', 'id7', 'k2999', 'id2999', 'nope', 'd1'];
  const changes = [...ids.map((id, i) => ({ address: `dq_owner.o${i}`, type: 'dq_owner', id, action: 'update' })), { address: 'dq_domain.d', type: 'dq_domain', id: 'k1', action: 'delete' }] as unknown as Change[];
  const find = await lookup({} as PlatformClient, { workspace: 'ws', namespace: 'shop' }, changes, handlers, false);
  const search = (c: Change) => (c.type === 'dq_owner' ? owners : domains).find((o) => o.key === c.id || o.id === c.id);
  for (const c of changes) expect({ c: c.address, got: find(c) }).toEqual({ c: c.address, got: search(c) });
  // k1 is owner 0's id and owner 1's key: owner 0 comes first; nope is no one's
  expect((find(changes[1])!.raw as { n: number }).n).toBe(0);
  expect(find(changes[6])).toBeUndefined();
  expect(asked.every((q) => q.keysOnly)).toBe(true);
});

/** dependentsOf as it was: every change scanned per level of the walk (the reference). */
function referenceDependents(address: string, changes: readonly Change[]): Set<string> {
  const out = new Set<string>();
  let frontier = [address];
  while (frontier.length) {
    const next: string[] = [];
    for (const c of changes) {
      if (out.has(c.address)) continue;
      if (c.dependsOn.some((d) => frontier.includes(d))) {
        out.add(c.address);
        next.push(c.address);
      }
    }
    frontier = next;
  }
  return out;
}

test('dependentsOf with the index answers what the walk of every change answered (chains, diamonds, cycles, one address twice)', () => {
  let seed = 27;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  for (let round = 0; round < 30; round++) {
    const n = 5 + Math.floor(rnd() * 40);
    const addr = (i: number) => `dq_owner.o${i}`;
    const changes = Array.from({ length: n }, (_x, i) => {
      const deps = Array.from({ length: Math.floor(rnd() * 3) }, () => addr(Math.floor(rnd() * n)));
      return { address: addr(i % (n - 2)), dependsOn: deps } as unknown as Change;
    });
    const index = dependentsIndex(changes);
    for (let i = 0; i < n; i++) {
      const want = [...referenceDependents(addr(i), changes)].sort();
      expect({ round, i, got: [...dependentsOf(addr(i), changes, index)].sort() }).toEqual({ round, i, got: want });
      expect([...dependentsOf(addr(i), changes)].sort()).toEqual(want);
    }
  }
});
