/**
 * comparePlans (pure): what makes a saved plan differ from a plan made now from the same
 * desired state and live state, and what does not. Table-driven, no emulator.
 */
import { Change, Plan, type Effects } from '../../schemas/model/plan';
import { comparePlans, PlanMismatchError } from '../../src/engine/bind';
import { preflight } from '../../src/engine/applier';

type Edit = (p: Plan) => void;

function change(address: string, action: Change['action'], extra: Partial<Change> = {}): Change {
  const type = address.split('.')[0].replace(/\[.*$/, '');
  return Change.parse({
    address,
    type,
    action,
    id: `id-${address}`,
    before: action === 'create' ? null : { title: 'old' },
    after: action === 'delete' || action === 'unmanaged' ? null : { title: 'new' },
    etag: action === 'create' ? undefined : 'W/"x-1"',
    ...extra,
  });
}
const ruleEffects = (e: Partial<Effects>): Effects => ({
  source: 'deploy-overview',
  monitorsToCreate: [],
  monitorsToDelete: [],
  activeMonitors: 0,
  settingsChanges: [],
  baselineResets: [],
  skipped: [],
  testsToCreate: [],
  testsToUpdate: [],
  testsToDelete: [],
  testsToKeep: [],
  losesHistory: false,
  cascade: [],
  ...e,
});

function base(): Plan {
  return Plan.parse({
    formatVersion: 1,
    workspace: 'demo',
    namespace: 'ns',
    stack: 'ns',
    manifestHash: 'h1',
    changes: [
      change('dq_owner.team', 'update'),
      change('dq_owner.new', 'create'),
      change('dq_owner["gone"]', 'delete'),
      change('dq_owner.same', 'noop', { before: { title: 'x' }, after: { title: 'x' } }),
      change('dq_alert["ui.a"]', 'unmanaged'),
      change('dq_monitor_deployment_rule.r', 'update', { effects: ruleEffects({ monitorsToDelete: ['a', 'b'], monitorsToCreate: ['c'] }) }),
    ],
    summary: { add: 1, change: 2, replace: 0, destroy: 1, unchanged: 1, unmanaged: 1 },
  });
}
const at = (p: Plan, address: string) => p.changes.find((c) => c.address === address)!;

describe('comparePlans', () => {
  it('a plan equals itself (and its JSON round trip)', () => {
    const p = base();
    expect(comparePlans(p, Plan.parse(JSON.parse(JSON.stringify(p))))).toEqual({ differences: [], notes: [] });
  });

  const refused: [string, Edit, Edit, RegExp, 'code' | 'live' | 'plan'][] = [
    ['a value edited by hand in after', (s) => ((at(s, 'dq_owner.team').after as Record<string, unknown>).title = 'edited'), () => undefined, /^dq_owner\.team: the saved plan would write something other than what the code says \(title\)$/, 'plan'],
    ['a delete added by hand (a plan made now does not have it)', (s) => s.changes.push(change('dq_owner["ui-made"]', 'delete')), () => undefined, /^dq_owner\["ui-made"\]: the saved plan would delete it, a plan made now does not have it$/, 'plan'],
    ['an unmanaged object turned into a delete by hand', (s) => (at(s, 'dq_alert["ui.a"]').action = 'delete'), () => undefined, /^dq_alert\["ui\.a"\]: the saved plan would delete it, a plan made now would leave it alone \(not managed here\)$/, 'plan'],
    ['a noop turned into an update by hand', (s) => (at(s, 'dq_owner.same').action = 'update'), () => undefined, /^dq_owner\.same: the saved plan would update it, a plan made now would leave it unchanged$/, 'plan'],
    ['a create turned into an update by hand', (s) => (at(s, 'dq_owner.new').action = 'update'), () => undefined, /^dq_owner\.new: the saved plan would update it, a plan made now would create it$/, 'plan'],
    ['a write dropped from the plan by hand', (s) => (s.changes = s.changes.filter((c) => c.address !== 'dq_owner.new')), () => undefined, /^dq_owner\.new: a plan made now would create it, the saved plan does not have it$/, 'plan'],
    ['the id edited by hand', (s) => (at(s, 'dq_owner.team').id = 'other'), () => undefined, /^dq_owner\.team: the saved plan acts on dq_owner "other", a plan made now on dq_owner "id-dq_owner\.team"$/, 'plan'],
    ['dependencies edited by hand', (s) => (at(s, 'dq_owner.team').dependsOn = ['dq_owner.new']), () => undefined, /^dq_owner\.team: its dependencies differ/, 'plan'],
    ['the etag moved (someone wrote since)', () => undefined, (f) => (at(f, 'dq_owner.team').etag = 'W/"x-2"'), /^dq_owner\.team: it changed since the plan \(etag W\/"x-1" then, W\/"x-2" now\)$/, 'live'],
    ['content changed on a kind without etags', () => undefined, (f) => Object.assign(at(f, 'dq_owner.team'), { etag: 'W/"x-1"', before: { title: 'older' }, liveHash: 'other' }), /^dq_owner\.team: it changed since the plan \(title\)$/, 'live'],
    ['an object created since the plan (create then, update now)', () => undefined, (f) => Object.assign(at(f, 'dq_owner.new'), { action: 'update', before: { title: 'someone' }, etag: 'W/"y-1"' }), /^dq_owner\.new: the saved plan would create it, a plan made now would update it \(it was created since the plan\)$/, 'live'],
    ['an object deleted since the plan (update then, create now)', () => undefined, (f) => Object.assign(at(f, 'dq_owner.team'), { action: 'create', before: null, etag: undefined }), /^dq_owner\.team: the saved plan would update it, a plan made now would create it \(it was deleted since the plan\)$/, 'live'],
    ['a rule now deletes more monitors than reviewed', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.monitorsToDelete = ['a', 'b', 'z']), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(monitorsToDelete: now also z\)$/, 'live'],
    ['an owner now takes an ownership more with it', () => undefined, (f) => (at(f, 'dq_owner["gone"]').effects = ruleEffects({ source: 'cascade', cascade: [{ effect: 'deleted', type: 'dq_ownership', id: 'o1', name: 'n', managedBy: 'made in the UI', alsoDeleted: false }] })), /^dq_owner\["gone"\]: what it deletes downstream changed since the plan \(cascade: now also dq_ownership:o1\)$/, 'live'],
    ['effects previewed then, unknown now', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects = ruleEffects({ error: 'effects unknown: 503' })), /^dq_monitor_deployment_rule\.r: its effects were previewed for the review but cannot be previewed now \(effects unknown: 503\)$/, 'live'],
    ['the code changed (manifest hash)', () => undefined, (f) => (f.manifestHash = 'h2'), /^\(plan\): the code changed since the plan/, 'code'],
    ['another workspace', (s) => (s.workspace = 'other'), () => undefined, /^\(plan\): it was made for workspace "other", these credentials act in "demo"$/, 'plan'],
    ['another stack', () => undefined, (f) => (f.stack = 'ns2'), /^\(plan\): it was made for stack "ns", not "ns2"$/, 'code'],
    // (the rows below were added for survivors of the mutation run of src/engine)
    ['an import block added to the saved plan by hand', (s) => (at(s, 'dq_owner.team').importedId = 'owner-x'), () => undefined, /^dq_owner\.team: its import or move differs from what the code says$/, 'plan'],
    ['a moved-from edited by hand', (s) => (at(s, 'dq_owner.team').movedFrom = 'dq_owner.old'), () => undefined, /^dq_owner\.team: its import or move differs from what the code says$/, 'plan'],
    ['a rule previewed then, with no preview now at all', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects = undefined), /^dq_monitor_deployment_rule\.r: its effects were previewed for the review but cannot be previewed now \(no preview\)$/, 'live'],
    ['monitors deleted now and no longer deleted, long lists cut at five', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.monitorsToDelete = ['a', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6']), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(monitorsToDelete: now also m1, m2, m3, m4, m5, and 1 more; no longer b\)$/, 'live'],
    ['monitors no longer deleted only', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.monitorsToDelete = ['a']), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(monitorsToDelete: no longer b\)$/, 'live'],
    ['a SQL-test rule now loses its history', (s) => (at(s, 'dq_monitor_deployment_rule.r').effects!.losesHistory = false), (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.losesHistory = true), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(losesHistory: false -> true\)$/, 'live'],
    // issue 23: the saved-vs-fresh comparison must count SQL tests a change deletes (a missed defect)
    ['a SQL-test rule now deletes a SQL test the review did not show', () => undefined, (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.testsToDelete = ['t-orders-not-null']), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(testsToDelete: now also t-orders-not-null\)$/, 'live'],
    ['a SQL-test rule no longer deletes a reviewed SQL test, and deletes another', (s) => (at(s, 'dq_monitor_deployment_rule.r').effects!.testsToDelete = ['t1']), (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.testsToDelete = ['t2']), /^dq_monitor_deployment_rule\.r: what it deletes downstream changed since the plan \(testsToDelete: now also t2; no longer t1\)$/, 'live'],
  ];
  it.each(refused)('refused: %s', (_why, editSaved, editFresh, expected, cause) => {
    const s = base();
    const f = base();
    editSaved(s);
    editFresh(f);
    const { differences } = comparePlans(s, f);
    expect(differences.map((d) => `${d.address}: ${d.why}`)).toEqual([expect.stringMatching(expected)]);
    expect(differences[0].cause).toBe(cause);
  });

  const allowed: [string, Edit, number][] = [
    ['more monitors to create than reviewed (the catalog grew): a note, not a refusal', (f) => (at(f, 'dq_monitor_deployment_rule.r').effects!.monitorsToCreate = ['c', 'd']), 1],
    ['reasons and sensitive pointers differ (rendering only)', (f) => Object.assign(at(f, 'dq_owner.team'), { reasons: ['other words'], sensitive: ['/x'] }), 0],
    ['a noop whose live object moved (nothing is written to it)', (f) => (at(f, 'dq_owner.same').etag = 'W/"x-9"'), 0],
  ];
  it('baseline resets and cascades compare as sets, and only deletions of the cascade count (mutation run survivors)', () => {
    const cascade = (ids: string[], effect: 'deleted' | 'loses-selection' = 'deleted') => ids.map((id) => ({ effect, type: 'dq_ownership' as const, id, name: id, managedBy: 'made in the UI', alsoDeleted: false }));
    const s = base();
    const f = base();
    at(s, 'dq_monitor_deployment_rule.r').effects!.baselineResets = [{ assetPath: 'a', reason: 'x' }, { assetPath: 'b', reason: 'y' }];
    at(f, 'dq_monitor_deployment_rule.r').effects!.baselineResets = [{ assetPath: 'b', reason: 'y' }, { assetPath: 'a', reason: 'x' }];
    at(s, 'dq_owner["gone"]').effects = ruleEffects({ source: 'cascade', cascade: cascade(['o1', 'o2']) });
    at(f, 'dq_owner["gone"]').effects = ruleEffects({ source: 'cascade', cascade: [...cascade(['o2', 'o1']), ...cascade(['p1'], 'loses-selection')] });
    expect(comparePlans(s, f).differences).toEqual([]);
    at(f, 'dq_monitor_deployment_rule.r').effects!.baselineResets = [{ assetPath: 'a', reason: 'x' }, { assetPath: 'c', reason: 'z' }];
    expect(comparePlans(s, f).differences.map((d) => d.why)).toEqual(['what it deletes downstream changed since the plan (baselineResets: now also c; no longer b)']);
  });

  it('differences are listed by address, whichever plan holds them', () => {
    const s = base();
    const f = base();
    (at(s, 'dq_owner.team').after as Record<string, unknown>).title = 'edited';
    s.changes.push(change('dq_alert["a.z"]', 'delete'));
    f.changes.push(change('dq_domain.b', 'create'));
    expect(comparePlans(s, f).differences.map((d) => d.address)).toEqual(['dq_alert["a.z"]', 'dq_domain.b', 'dq_owner.team']);
  });

  it('the note says how the creations moved on', () => {
    const f = base();
    at(f, 'dq_monitor_deployment_rule.r').effects!.monitorsToCreate = ['c', 'd', 'e'];
    at(f, 'dq_monitor_deployment_rule.r').effects!.testsToCreate = ['t1'];
    expect(comparePlans(base(), f).notes).toEqual([
      { address: 'dq_monitor_deployment_rule.r', why: 'what it creates downstream changed since the plan (1 -> 3 monitor(s) to create, 0 -> 1 test(s) to create)', cause: 'live' },
    ]);
  });

  it.each(allowed)('allowed: %s', (_why, editFresh, notes) => {
    const f = base();
    editFresh(f);
    const cmp = comparePlans(base(), f);
    expect(cmp.differences).toEqual([]);
    expect(cmp.notes).toHaveLength(notes);
  });

  it('effects cut from a saved plan by hand: no difference to compare, the unpreviewed guard refuses the saved plan instead', () => {
    const s = base();
    at(s, 'dq_monitor_deployment_rule.r').effects = undefined;
    expect(comparePlans(s, base()).differences).toEqual([]);
    expect(() => preflight(s)).toThrow(/dq_monitor_deployment_rule\.r \(the plan carries no preview of it\)/);
  });

  it('effects unknown now are no difference when --allow-unpreviewed waived the guard', () => {
    const f = base();
    at(f, 'dq_monitor_deployment_rule.r').effects = ruleEffects({ error: 'effects unknown: 503' });
    expect(comparePlans(base(), f, { allowUnpreviewed: true }).differences).toEqual([]);
  });
});

describe('PlanMismatchError', () => {
  it.each([
    [[{ address: 'a', why: 'x', cause: 'live' as const }], /^stale plan: live state changed since the plan was made; apply refuses it and wrote nothing:\n {2}a: x$/],
    [[{ address: 'a', why: 'x', cause: 'plan' as const }, { address: 'b', why: 'y', cause: 'live' as const }], /^the saved plan is not what dqform would do now/],
    [[{ address: '(plan)', why: 'x', cause: 'code' as const }, { address: 'b', why: 'y', cause: 'plan' as const }], /^the code changed since the plan/],
  ])('headline by cause %#', (diffs, headline) => {
    const e = new PlanMismatchError(diffs);
    expect(e.message).toMatch(headline);
    expect(e.addresses).toEqual(diffs.map((d) => d.address).filter((a) => a !== '(plan)'));
  });
});
