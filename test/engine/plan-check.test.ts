/**
 * The plan file's self-check (plan-check.ts, issue 23): `show` renders a change's `patch` and the
 * plan's `summary`, apply compares only the checked fields, so a plan file whose patch or
 * summary disagrees with its own before/after/actions must be named field by field on reading.
 * Tested in-process (the CLI tests that cover it are not counted by the mutation run).
 */
import { Change, Drift, Plan } from '../../schemas/model/plan';
import { derivedDriftPatch, derivedPatch, planSummary, selfDisagreements } from '../../src/engine/plan-check';

const change = (c: Partial<Change> & Pick<Change, 'address' | 'action'>): Change =>
  Change.parse({ type: c.address.split('.')[0], id: 'id-' + c.address, before: null, after: null, ...c });

const plan = (changes: Change[], drift: Drift[] = []): Plan =>
  Plan.parse({ formatVersion: 1, workspace: 'w', namespace: 'n', stack: 's', manifestHash: 'h', changes, drift, summary: planSummary(changes) });

describe('derivedPatch', () => {
  test('an update or a replace carries the difference from before to after', () => {
    // what `show` prints for a change of a title must be exactly that field
    for (const action of ['update', 'replace'] as const) {
      expect(derivedPatch({ action, before: { title: 'a', keep: 1 }, after: { title: 'b', keep: 1 } })).toEqual([{ op: 'replace', path: '/title', value: 'b' }]);
    }
  });

  test('creates, deletes, noops and unmanaged objects carry no patch, even when before and after differ', () => {
    // a create's "after" is the whole object: the plan shows it as such, not as a patch
    for (const action of ['create', 'delete', 'noop', 'unmanaged'] as const) {
      expect(derivedPatch({ action, before: { a: 1 }, after: { a: 2 } })).toEqual([]);
    }
  });

  test('a null before or after is read as an empty object (an update from nothing adds every field)', () => {
    expect(derivedPatch({ action: 'update', before: null, after: { a: 1 } })).toEqual([{ op: 'add', path: '/a', value: 1 }]);
    expect(derivedPatch({ action: 'update', before: { a: 1 }, after: null })).toEqual([{ op: 'remove', path: '/a' }]);
  });
});

describe('planSummary', () => {
  test('counts each action, replaces on their own, and only imports that write', () => {
    // the summary line a reviewer reads: an import that changes nothing is not "to import"
    const s = planSummary([
      change({ address: 'dq_owner.a', action: 'create' }),
      change({ address: 'dq_owner.b', action: 'create' }),
      change({ address: 'dq_owner.c', action: 'update', importedId: 'x' }),
      change({ address: 'dq_owner.d', action: 'update' }),
      change({ address: 'dq_owner.e', action: 'replace', importedId: 'y' }),
      change({ address: 'dq_owner.f', action: 'delete', importedId: 'z' }),
      change({ address: 'dq_owner.g', action: 'delete' }),
      change({ address: 'dq_owner.h', action: 'delete' }),
      change({ address: 'dq_owner.i', action: 'noop', importedId: 'q' }),
      change({ address: 'dq_owner.j', action: 'unmanaged' }),
    ]);
    expect(s).toEqual({ import: 2, add: 2, change: 2, replace: 1, destroy: 3, unchanged: 1, unmanaged: 1 });
  });

  test('an empty plan counts zero everywhere', () => {
    expect(planSummary([])).toEqual({ import: 0, add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 });
  });
});

describe('selfDisagreements', () => {
  const update = () => change({ address: 'dq_alert.x', action: 'update', before: { a: 1, b: 1 }, after: { a: 2, b: 2 }, patch: derivedPatch({ action: 'update', before: { a: 1, b: 1 }, after: { a: 2, b: 2 } }) });

  test('a plan dqform writes agrees with itself, whatever the order of its patch operations', () => {
    const u = update();
    u.patch = [...u.patch].reverse();
    expect(selfDisagreements(plan([u, change({ address: 'dq_owner.o', action: 'create', after: { name: 'o' } })]))).toEqual([]);
  });

  test('a patch operation removed by hand is named by list, index and address', () => {
    // it would hide a field apply writes
    const u = update();
    u.patch = u.patch.slice(0, 1);
    const p = plan([change({ address: 'dq_owner.o', action: 'noop' }), u]);
    expect(selfDisagreements(p)).toEqual(['changes.1 (dq_alert.x): its patch is not the difference between its before and after']);
  });

  test('a patch value edited by hand is named, as is a patch added to a create', () => {
    const u = update();
    u.patch = u.patch.map((o) => ({ ...o, value: 99 }));
    const c = change({ address: 'dq_owner.o', action: 'create', after: { a: 1 }, patch: [{ op: 'add', path: '/a', value: 1 }] });
    expect(selfDisagreements(plan([c, u]))).toEqual([
      'changes.0 (dq_owner.o): its patch is not the difference between its before and after',
      'changes.1 (dq_alert.x): its patch is not the difference between its before and after',
    ]);
  });

  test("a refresh-only plan's drift is checked too, under its own name", () => {
    // drift's own type (issue 24): its patch goes from the code's object to live's
    const d = Drift.parse({ address: 'dq_alert.x', type: 'dq_alert', difference: 'changed', remedy: 'update', id: 'x', code: { a: 1 }, live: { a: 2 }, patch: derivedDriftPatch({ difference: 'changed', code: { a: 1 }, live: { a: 2 } }) });
    expect(d.patch).toEqual([{ op: 'replace', path: '/a', value: 2 }]);
    expect(selfDisagreements(plan([], [d]))).toEqual([]);
    d.patch = [];
    expect(selfDisagreements(plan([], [d]))).toEqual(['drift.0 (dq_alert.x): its patch is not the difference between its code and live']);
  });

  test('a summary that hides deletes is named with the count its changes give', () => {
    const p = plan([change({ address: 'dq_owner.a', action: 'delete' }), change({ address: 'dq_owner.b', action: 'delete' })]);
    p.summary.destroy = 0;
    p.summary.add = 1;
    expect(selfDisagreements(p)).toEqual(['summary.add is 1, and its changes count 0', 'summary.destroy is 0, and its changes count 2']);
  });

  test('a summary that hides an import that writes is named', () => {
    const p = plan([change({ address: 'dq_owner.a', action: 'update', importedId: 'i' })]);
    p.summary.import = 0;
    expect(selfDisagreements(p)).toEqual(['summary.import is 0, and its changes count 1']);
  });
});
