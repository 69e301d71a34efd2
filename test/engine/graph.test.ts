/**
 * Execution order as a pure function of the plan's changes: parents before children, deletes
 * last in reverse kind order, and what a failed change blocks.
 */
import type { Change } from '../../schemas/model/plan';
import { dependentsOf, executionWaves } from '../../src/engine/graph';
import { mapLimit } from '../../src/engine/concurrency';

function ch(address: string, action: Change['action'], dependsOn: string[] = []): Change {
  const type = address.split('.')[0].replace(/\[.*$/, '');
  return { address, type, action, id: address, before: null, after: null, patch: [], sensitive: [], dependsOn };
}
const addresses = (waves: Change[][]) => waves.map((w) => w.map((c) => c.address));

describe('executionWaves', () => {
  test('independent writes form one wave, in address order whatever the input order', () => {
    const w = executionWaves([ch('dq_owner.b', 'create'), ch('dq_owner.a', 'update'), ch('dq_owner.c', 'replace')]);
    expect(addresses(w)).toEqual([['dq_owner.a', 'dq_owner.b', 'dq_owner.c']]);
  });

  test('a change waits for every write it depends on, transitively: one wave per level', () => {
    const w = executionWaves([
      ch('dq_alert.a', 'create', ['dq_ownership.o']),
      ch('dq_ownership.o', 'create', ['dq_owner.x', 'dq_data_product.p']),
      ch('dq_data_product.p', 'create', ['dq_owner.x']),
      ch('dq_owner.x', 'create'),
      ch('dq_owner.y', 'create'),
    ]);
    expect(addresses(w)).toEqual([['dq_owner.x', 'dq_owner.y'], ['dq_data_product.p'], ['dq_ownership.o'], ['dq_alert.a']]);
  });

  test('a dependency that is not written by the plan (noop, unmanaged, absent) does not delay', () => {
    const w = executionWaves([ch('dq_alert.a', 'update', ['dq_owner.x', 'dq_owner.gone']), ch('dq_owner.x', 'noop'), ch('dq_owner.u', 'unmanaged')]);
    expect(addresses(w)).toEqual([['dq_alert.a']]);
  });

  test('noops and unmanaged entries are never scheduled', () => {
    expect(executionWaves([ch('dq_owner.x', 'noop'), ch('dq_owner.u', 'unmanaged')])).toEqual([]);
  });

  test('deletes come after every write, one wave per kind, children kinds first (reverse manifest order)', () => {
    const w = executionWaves([
      ch('dq_owner.o2', 'delete'),
      ch('dq_alert.a', 'delete'),
      ch('dq_owner.o1', 'delete'),
      ch('dq_ownership.s', 'delete'),
      ch('dq_domain.d', 'delete'),
      ch('dq_sql_test_deployment_rule.r', 'delete'),
      ch('dq_owner.new', 'create'),
    ]);
    expect(addresses(w)).toEqual([
      ['dq_owner.new'],
      ['dq_sql_test_deployment_rule.r'],
      ['dq_alert.a'],
      ['dq_ownership.s'],
      ['dq_domain.d'],
      ['dq_owner.o1', 'dq_owner.o2'],
    ]);
  });

  test('a dependency cycle is a bug and says where', () => {
    expect(() => executionWaves([ch('dq_owner.a', 'create', ['dq_owner.b']), ch('dq_owner.b', 'create', ['dq_owner.a'])])).toThrow(/dependency cycle through dq_owner\.a/);
  });

  test('a diamond is scheduled once per change, at its deepest level', () => {
    const w = executionWaves([ch('dq_alert.z', 'create', ['dq_ownership.l', 'dq_ownership.r']), ch('dq_ownership.l', 'create', ['dq_owner.top']), ch('dq_ownership.r', 'create', ['dq_owner.top']), ch('dq_owner.top', 'create')]);
    expect(addresses(w)).toEqual([['dq_owner.top'], ['dq_ownership.l', 'dq_ownership.r'], ['dq_alert.z']]);
  });
});

describe('dependentsOf', () => {
  const changes = [
    ch('dq_owner.x', 'create'),
    ch('dq_data_product.p', 'create', ['dq_owner.x']),
    ch('dq_ownership.o', 'create', ['dq_data_product.p']),
    ch('dq_alert.a', 'create', ['dq_ownership.o']),
    ch('dq_alert.b', 'create', ['dq_owner.y']),
    ch('dq_owner.y', 'create'),
  ];

  test('everything that depends on the address, directly or through others', () => {
    expect([...dependentsOf('dq_owner.x', changes)].sort()).toEqual(['dq_alert.a', 'dq_data_product.p', 'dq_ownership.o']);
  });

  test('a leaf blocks nothing; the address itself is not its own dependent', () => {
    expect([...dependentsOf('dq_alert.a', changes)]).toEqual([]);
    expect(dependentsOf('dq_owner.y', changes).has('dq_owner.y')).toBe(false);
  });

  test('a middle node blocks only what is below it', () => {
    expect([...dependentsOf('dq_ownership.o', changes)]).toEqual(['dq_alert.a']);
  });
});

describe('mapLimit', () => {
  test('results keep the order of the items, whatever order they finish in', async () => {
    const out = await mapLimit([30, 10, 20], 3, async (ms) => {
      await new Promise((r) => setImmediate(r));
      if (ms === 30) await new Promise((r) => setImmediate(r));
      return ms * 2;
    });
    expect(out).toEqual([60, 20, 40]);
  });

  test('never more than `limit` in flight, and all of them run', async () => {
    let active = 0;
    let peak = 0;
    const seen: number[] = [];
    await mapLimit([1, 2, 3, 4, 5, 6, 7], 3, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      seen.push(n);
      active--;
    });
    expect(peak).toBe(3);
    expect(seen.sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  test('a limit below 1 still runs one at a time; an empty list runs nothing', async () => {
    let active = 0;
    let peak = 0;
    const out = await mapLimit([1, 2, 3], 0, async (n) => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active--;
      return n;
    });
    expect(out).toEqual([1, 2, 3]);
    expect(peak).toBe(1);
    expect(await mapLimit([], 4, async () => 1)).toEqual([]);
  });

  test('a limit above the number of items starts one worker per item', async () => {
    let active = 0;
    let peak = 0;
    await mapLimit([1, 2], 10, async () => {
      active++;
      peak = Math.max(peak, active);
      await new Promise((r) => setImmediate(r));
      active--;
    });
    expect(peak).toBe(2);
  });
});
