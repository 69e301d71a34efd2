/**
 * comparePlans (bind.ts): the words of the differences not pinned elsewhere: which fields differ
 * (at most five, then how many more), a change of content without one of etag, an fqn edited, an
 * action that differs because live state moved, and the headline of the refusal for each kind
 * of cause. (Issue 23: the mutation run of src/engine.)
 */
import { Change, Plan } from '../../schemas/model/plan';
import { comparePlans, PlanMismatchError } from '../../src/engine/bind';

const change = (address: string, action: Change['action'], extra: Partial<Change> = {}): Change =>
  Change.parse({
    address,
    type: address.split(/[.[]/)[0],
    action,
    id: `id-${address}`,
    before: action === 'create' ? null : { title: 'old', a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 },
    after: action === 'delete' ? null : { title: 'new', a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 },
    etag: action === 'create' ? undefined : 'W/"x-1"',
    ...extra,
  });
const planOf = (changes: Change[]): Plan =>
  Plan.parse({ formatVersion: 1, workspace: 'demo', namespace: 'ns', stack: 'ns', manifestHash: 'h1', changes, summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 } });
const whys = (s: Change[], f: Change[]) => comparePlans(planOf(s), planOf(f)).differences.map((d) => `${d.address}: ${d.why} [${d.cause}]`);

test('the fields of after that differ (in the order of the JSON patch): five named, then how many more', () => {
  const edited = { title: 'x', a: 2, b: 2, c: 2, d: 2, e: 2, f: 2 };
  expect(whys([change('dq_owner.t', 'update', { after: edited })], [change('dq_owner.t', 'update')])).toEqual([
    'dq_owner.t: the saved plan would write something other than what the code says (f, e, d, c, b, and 2 more) [plan]',
  ]);
  const five = { title: 'x', a: 2, b: 2, c: 2, d: 2, e: 1, f: 1 };
  expect(whys([change('dq_owner.t', 'update', { after: five })], [change('dq_owner.t', 'update')])).toEqual([
    'dq_owner.t: the saved plan would write something other than what the code says (d, c, b, a, title) [plan]',
  ]);
});

test('an after that is no object on one side: no field list', () => {
  expect(whys([change('dq_owner.t', 'update', { after: null })], [change('dq_owner.t', 'update')])).toEqual(['dq_owner.t: the saved plan would write something other than what the code says [plan]']);
});

test('live content moved without an etag change (a kind without etags): the fields read that differ; the fingerprint alone names none', () => {
  expect(whys([change('dq_owner.t', 'update')], [change('dq_owner.t', 'update', { before: { title: 'older', a: 1, b: 1, c: 1, d: 1, e: 1, f: 1 } })])).toEqual(['dq_owner.t: it changed since the plan (title) [live]']);
  expect(whys([change('dq_owner.t', 'update', { liveHash: 'h-a' })], [change('dq_owner.t', 'update', { liveHash: 'h-b' })])).toEqual(['dq_owner.t: it changed since the plan [live]']);
});

test('an etag that appeared or went away is named as none', () => {
  expect(whys([change('dq_owner.t', 'update', { etag: undefined })], [change('dq_owner.t', 'update')])).toEqual(['dq_owner.t: it changed since the plan (etag none then, W/"x-1" now) [live]']);
  expect(whys([change('dq_owner.t', 'update')], [change('dq_owner.t', 'update', { etag: undefined })])).toEqual(['dq_owner.t: it changed since the plan (etag W/"x-1" then, none now) [live]']);
});

test('an fqn edited by hand: the objects are named by fqn', () => {
  expect(whys([change('dq_alert.a', 'update', { fqn: 'ns.other' })], [change('dq_alert.a', 'update', { fqn: 'ns.a' })])).toEqual(['dq_alert.a: the saved plan acts on dq_alert "ns.other", a plan made now on dq_alert "ns.a" [plan]']);
  expect(whys([change('dq_alert.a', 'update', { type: 'dq_owner' })], [change('dq_alert.a', 'update')])).toEqual(['dq_alert.a: the saved plan acts on dq_owner "id-dq_alert.a", a plan made now on dq_alert "id-dq_alert.a" [plan]']);
});

test('an action that differs while the object read moved: "it changed since the plan", a live cause', () => {
  expect(whys([change('dq_owner.t', 'update')], [change('dq_owner.t', 'replace', { etag: 'W/"x-2"' })])).toEqual(['dq_owner.t: the saved plan would update it, a plan made now would replace it (it changed since the plan) [live]']);
  // a write now and a noop then, the object unmoved: the file was edited
  expect(whys([change('dq_owner.t', 'noop')], [change('dq_owner.t', 'update')])).toEqual(['dq_owner.t: the saved plan would leave it unchanged, a plan made now would update it [plan]']);
});

test('a noop or unmanaged entry on both sides is never compared', () => {
  expect(whys([change('dq_owner.t', 'noop', { etag: 'a' })], [change('dq_owner.t', 'noop', { etag: 'b' })])).toEqual([]);
  expect(whys([change('dq_owner.t', 'unmanaged')], [])).toEqual([]);
  expect(whys([], [change('dq_owner.t', 'noop')])).toEqual([]);
});

test('the plan as a whole: namespace and workspace differences, each with its cause', () => {
  const s = planOf([]);
  const f = { ...planOf([]), namespace: 'other', workspace: 'w2' };
  expect(comparePlans(s, f).differences).toEqual([
    { address: '(plan)', why: 'it was made for workspace "demo", these credentials act in "w2"', cause: 'plan' },
    { address: '(plan)', why: 'it was made for namespace "ns", the code now declares "other"', cause: 'code' },
  ]);
});

test('the headline of a refusal follows the causes: code wins, then edited, then stale', () => {
  const d = (cause: 'code' | 'live' | 'plan') => ({ address: 'dq_owner.t', why: 'w', cause });
  expect(new PlanMismatchError([d('live'), d('plan'), d('code')]).message).toBe('the code changed since the plan; apply refuses it and wrote nothing:\n  dq_owner.t: w\n  dq_owner.t: w\n  dq_owner.t: w');
  expect(new PlanMismatchError([d('live'), d('plan')]).message.split(';')[0]).toBe('the saved plan is not what dqform would do now (the plan file was edited, or live state changed since it was made)');
  expect(new PlanMismatchError([d('live')]).message.split(';')[0]).toBe('stale plan: live state changed since the plan was made');
  expect(new PlanMismatchError([d('plan')]).hint).toBe('Plan again (dqform plan --out FILE), review it, and apply the new plan; never edit a plan file by hand.');
});
