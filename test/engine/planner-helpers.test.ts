/**
 * Small exported helpers of the planner (planner.ts) that other parts decide on: which changes
 * write (apply, the exit code of plan --detailed-exitcode), the address of a live object, why an
 * object cannot be managed, and whether an ownership in an owner's cascade is re-pointed first
 * (so the platform does not delete it). Issue 23: in-process tests for what the CLI tests cover.
 */
import { Change, type Plan } from '../../schemas/model/plan';
import { getPointer, hasChanges, isWrite, liveAddress, repointedAway, unmanageableText } from '../../src/engine/planner';

const ch = (address: string, action: Change['action'], extra: Partial<Change> = {}): Change =>
  Change.parse({ address, type: address.split(/[.[]/)[0], action, id: 'id-' + address, before: null, after: null, ...extra });

test('create, update, replace and delete write; noop and unmanaged do not', () => {
  expect((['create', 'update', 'replace', 'delete', 'noop', 'unmanaged'] as const).map((a) => isWrite(ch('dq_owner.a', a)))).toEqual([true, true, true, true, false, false]);
});

test('a plan has changes when any change writes', () => {
  const plan = (changes: Change[]) => ({ changes }) as unknown as Plan;
  expect(hasChanges(plan([ch('dq_owner.a', 'noop'), ch('dq_alert["x"]', 'unmanaged')]))).toBe(false);
  expect(hasChanges(plan([ch('dq_owner.a', 'noop'), ch('dq_owner.b', 'delete')]))).toBe(true);
  expect(hasChanges(plan([]))).toBe(false);
});

test('a live object nobody declares is addressed by its key, quoted as JSON', () => {
  expect(liveAddress('dq_alert', 'shop.retired')).toBe('dq_alert["shop.retired"]');
  expect(liveAddress('dq_owner', 'a"b')).toBe('dq_owner["a\\"b"]');
});

test('why an object cannot be managed lists everything it carries that this version does not model', () => {
  expect(unmanageableText({ unmanageable: ['unknown field x', 'unknown enum value 7'] })).toBe('cannot be managed by this version: unknown field x; unknown enum value 7');
  expect(unmanageableText({})).toBe('cannot be managed by this version: ');
});

test('getPointer reads a JSON pointer, undefined past a scalar or a missing key', () => {
  const o = { a: { b: [{ c: 1 }] }, s: 'x' };
  expect(getPointer(o, '/a/b/0/c')).toBe(1);
  expect(getPointer(o, '/s/length')).toBeUndefined();
  expect(getPointer(o, '/nope/x')).toBeUndefined();
  expect(getPointer(o, '')).toBe(o);
});

describe('repointedAway', () => {
  const owner = { type: 'dq_owner', id: 'owner-0a1b2c3d-0000-8000-8000-000000000001' };
  const own = (action: Change['action'], ownerId: string) => ch('dq_ownership.x', action, { id: 'OWNERSHIP-1', after: { ownerId } });

  test('an ownership the plan moves to another owner is not deleted with the old one', () => {
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, owner, [own('update', 'owner-99999999-0000-8000-8000-000000000002')])).toBe(true);
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, owner, [own('noop', '99999999-0000-8000-8000-000000000002')])).toBe(true);
  });

  test('one that stays with the owner (whatever the id form) is deleted with it', () => {
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, owner, [own('update', '0A1B2C3D-0000-8000-8000-000000000001')])).toBe(false);
  });

  test('only updates and noops of that ownership count; other kinds never', () => {
    for (const a of ['delete', 'create', 'replace'] as const) expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, owner, [own(a, 'owner-other')])).toBe(false);
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-2' }, owner, [own('update', 'owner-other')])).toBe(false);
    expect(repointedAway({ type: 'dq_alert', id: 'ownership-1' }, owner, [own('update', 'owner-other')])).toBe(false);
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, { ...owner, type: 'dq_domain' }, [own('update', 'owner-other')])).toBe(false);
    expect(repointedAway({ type: 'dq_ownership', id: 'ownership-1' }, owner, [ch('dq_ownership.x', 'update', { id: 'ownership-1', after: { ownerId: 7 } })])).toBe(false);
  });
});
