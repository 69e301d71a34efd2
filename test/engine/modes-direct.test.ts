/**
 * Terraform's mode flags (src/engine/modes.ts) called directly with small fixtures: what
 * refresh-only reports as drift, which changes a targeted plan keeps (and in which direction a
 * destroy plan follows dependencies), the targeting warning's grammar, and what a destroy plan
 * says about declared objects. The CLI tests that also cover them are not counted by the
 * mutation run (issue 23).
 */
import { Change, type Diagnostic, type PlanRequest } from '../../schemas/model/plan';
import { because } from '../../src/engine/reasons';
import { asRefreshOnly, canonicalAddress, checkRequestedAddresses, destroyDeclared, narrowToTargets, targetingWarning } from '../../src/engine/modes';
import { deriveId } from '../../src/engine/identity';
import type { ResolvedResource, Resolution } from '../../src/engine/resolve';
import { reasonsText } from '../../src/plan/reasons-text';

const change = (c: Partial<Change> & Pick<Change, 'address' | 'action'>): Change =>
  Change.parse({ type: c.address.split('.')[0], id: 'id-' + c.address, before: null, after: null, ...c });

const resource = (address: string, extra: Partial<ResolvedResource> = {}): ResolvedResource => {
  const [type, name] = address.split('.') as [ResolvedResource['type'], string];
  return { address, type, name, id: deriveId('w', 'ns', type, name), desired: {}, lifecycle: {}, dependsOn: [], ...extra };
};
const resolution = (resources: ResolvedResource[]): Resolution => ({ workspace: 'w', namespace: 'ns', stack: 's', resources, removed: [], diagnostics: [] });
const request = (r: Partial<PlanRequest>): PlanRequest => ({ destroy: false, refreshOnly: false, targets: [], replace: [], ...r });

describe('asRefreshOnly', () => {
  test('every change that writes becomes drift seen from the code; unchanged and unmanaged objects stay as changes', () => {
    const changes = [
      change({ address: 'dq_owner.same', action: 'noop' }),
      change({ address: 'dq_owner.missing', action: 'create', after: { name: 'm' }, dependsOn: ['dq_domain.d'], etag: 'e1' }),
      change({ address: 'dq_owner.extra', action: 'delete', before: { name: 'x' }, reasonCodes: [{ code: 'text', text: 'not declared' }] }),
      change({ address: 'dq_owner.ui', action: 'unmanaged' }),
    ];
    const drift = asRefreshOnly(changes);
    // the plan keeps only what writes nothing
    expect(changes.map((c) => c.address)).toEqual(['dq_owner.same', 'dq_owner.ui']);
    // drift's own type (issue 24): how live differs, the code's object, live's, what apply would do
    expect(drift.map((d) => [d.address, d.difference, d.code, d.live, d.remedy])).toEqual([
      ['dq_owner.missing', 'absent', { name: 'm' }, null, 'create'],
      ['dq_owner.extra', 'undeclared', null, { name: 'x' }, 'delete'],
    ]);
    expect(reasonsText(drift[0])).toEqual(['declared in the code, but absent live: deleted outside dqform, or not created yet']);
    expect(reasonsText(drift[1])).toEqual(['not declared']);
    // drift is never applied: it depends on nothing, but keeps the concurrency marks it was read with
    expect('dependsOn' in drift[0]).toBe(false);
    expect(drift[0].etag).toBe('e1');
    expect(drift.every((d) => d.patch.length === 0)).toBe(true);
  });

  test('an update is reversed (before: the code, after: live), its patch from the code to live; only import and move notes survive', () => {
    const changes = [
      // typed reasons (issue 24): the codes decide what survives, not the prose
      change({
        address: 'dq_alert.a',
        action: 'update',
        before: { title: 'live' },
        after: { title: 'code' },
        ...because({ code: 'imported', label: 'alert', id: 'x' }, { code: 'fixed-field', text: 'title changed' }, { code: 'moved', from: 'dq_alert.b' }, { code: 'claims', namespace: 'y' }),
      }),
      change({ address: 'dq_alert.r', action: 'replace', before: { k: 1 }, after: { k: 2 }, ...because({ code: 'fixed-field', text: 'kind cannot change' }) }),
    ];
    const drift = asRefreshOnly(changes);
    expect(changes).toEqual([]);
    expect(drift[0]).toMatchObject({ difference: 'changed', remedy: 'update', code: { title: 'code' }, live: { title: 'live' }, patch: [{ op: 'replace', path: '/title', value: 'live' }] });
    expect(reasonsText(drift[0])).toEqual(['imported from existing alert "x"', 'moved from dq_alert.b: keeps its identity', 'claims it for namespace "y"']);
    expect(drift[0].reasonCodes?.map((r) => r.code)).toEqual(['imported', 'moved', 'claims']);
    // a replace shows as a change of live state, with what a normal apply would do about it
    expect(drift[1]).toMatchObject({ difference: 'changed', remedy: 'replace', code: { k: 2 }, live: { k: 1 }, reasonCodes: [{ code: 'drift-replaced' }] });
    expect(reasonsText(drift[1])).toEqual(['dqform apply replaces it: it cannot be updated in place']);
  });
});

describe('narrowToTargets', () => {
  // a -> b -> c (a depends on b, b on c); d stands alone
  const res = resolution([resource('dq_owner.a', { dependsOn: ['dq_owner.b'] }), resource('dq_owner.b', { dependsOn: ['dq_owner.c'] }), resource('dq_owner.c'), resource('dq_owner.d')]);
  const all = ['a', 'b', 'c', 'd'].map((n) => change({ address: `dq_owner.${n}`, action: 'create' }));
  const kept = (r: Partial<PlanRequest>) => narrowToTargets(all, request(r), res).map((c) => c.address);

  test('a target keeps its own change and those of what it depends on, transitively, in plan order', () => {
    expect(kept({ targets: ['dq_owner.a'] })).toEqual(['dq_owner.a', 'dq_owner.b', 'dq_owner.c']);
    expect(kept({ targets: ['dq_owner.b'] })).toEqual(['dq_owner.b', 'dq_owner.c']);
    expect(kept({ targets: ['dq_owner.d'] })).toEqual(['dq_owner.d']);
  });

  test('a --replace address is kept like a target', () => {
    expect(kept({ replace: ['dq_owner.c'] })).toEqual(['dq_owner.c']);
    expect(kept({ targets: ['dq_owner.d'], replace: ['dq_owner.b'] })).toEqual(['dq_owner.b', 'dq_owner.c', 'dq_owner.d']);
  });

  test('in a destroy plan a target keeps what depends on it (destroyed first), transitively, not what it depends on', () => {
    expect(kept({ destroy: true, targets: ['dq_owner.c'] })).toEqual(['dq_owner.a', 'dq_owner.b', 'dq_owner.c']);
    expect(kept({ destroy: true, targets: ['dq_owner.b'] })).toEqual(['dq_owner.a', 'dq_owner.b']);
    expect(kept({ destroy: true, targets: ['dq_owner.a'] })).toEqual(['dq_owner.a']);
  });

  test('a target of a live object the code does not declare keeps just that change', () => {
    const live = change({ address: 'dq_owner["x"]', action: 'delete' });
    expect(narrowToTargets([...all, live], request({ targets: ['dq_owner["x"]'] }), res).map((c) => c.address)).toEqual(['dq_owner["x"]']);
  });
});

describe('targetingWarning', () => {
  test('one target: singular verb; several: plural, sorted and without repeats', () => {
    expect(targetingWarning(request({ targets: ['dq_owner.a'] })).summary).toBe('resource targeting is in effect: this plan holds only the changes of dq_owner.a and of what it depends on');
    expect(targetingWarning(request({ targets: ['dq_owner.b', 'dq_owner.a', 'dq_owner.b'] })).summary).toBe(
      'resource targeting is in effect: this plan holds only the changes of dq_owner.a, dq_owner.b and of what they depend on',
    );
  });

  test('a destroy plan speaks of what depends on the targets', () => {
    expect(targetingWarning(request({ destroy: true, targets: ['dq_owner.a'] })).summary).toBe('resource targeting is in effect: this plan holds only the changes of dq_owner.a and of what it is depended on by');
    expect(targetingWarning(request({ destroy: true, targets: ['dq_owner.a', 'dq_owner.b'] })).summary).toBe(
      'resource targeting is in effect: this plan holds only the changes of dq_owner.a, dq_owner.b and of what they are depended on by',
    );
  });

  test('it is a warning with the advice to plan without --target afterwards', () => {
    const w = targetingWarning(request({ targets: ['dq_owner.a'] }));
    expect(w.severity).toBe('warning');
    expect(w.hint).toBe('Run dqform plan without --target afterwards to see what else differs.');
    expect(w.detail).toMatch(/not for routine use/);
  });
});

describe('destroyDeclared', () => {
  test("a declared object's deletion takes its address, source and the destroy reason; preventDestroy makes a guard error naming it", () => {
    const kept = resource('dq_owner.keep', { source: 'app/keep', lifecycle: { preventDestroy: true } });
    const plain = resource('dq_owner.plain', { source: 'app/plain' });
    const changes = [
      change({ address: `dq_owner["${kept.id}"]`, type: 'dq_owner', action: 'delete', id: kept.id.toUpperCase() }),
      change({ address: `dq_owner["${plain.id}"]`, type: 'dq_owner', action: 'delete', id: `owner-${plain.id}` }),
      change({ address: 'dq_owner["other"]', type: 'dq_owner', action: 'delete', id: 'other' }),
      change({ address: 'dq_owner.x', action: 'noop', id: plain.id }),
    ];
    const diags: Diagnostic[] = [];
    const guards: Diagnostic[] = [];
    destroyDeclared(changes, resolution([kept, plain]), {}, diags, guards);
    // matched by bare, lower-case id: the platform accepts both forms
    expect(changes.map((c) => [c.address, c.source])).toEqual([
      ['dq_owner.keep', 'app/keep'],
      ['dq_owner.plain', 'app/plain'],
      ['dq_owner["other"]', undefined],
      ['dq_owner.x', undefined],
    ]);
    expect(reasonsText(changes[1])).toEqual(['destroy: everything namespace "ns" owns is deleted']);
    expect(reasonsText(changes[2])).toEqual([]);
    expect(guards).toEqual([
      {
        severity: 'error',
        summary: 'lifecycle.preventDestroy forbids destroying this object, and this plan destroys everything namespace "ns" owns',
        address: 'dq_owner.keep',
        source: 'app/keep',
        hint: 'Destroy the other objects with --target, or drop preventDestroy deliberately first.',
      },
    ]);
    expect(diags).toEqual([]);
  });

  test('a declared object whose pinned id carries no namespace tag stays in place, with a warning, only when it is live and of a tag-pruned kind', () => {
    const pinned = resource('dq_owner.pinned', { id: 'pinned-1', source: 'app/pinned' });
    const absent = resource('dq_owner.absent', { id: 'pinned-2' });
    const alert = resource('dq_alert.a', { id: 'shop.a' });
    const tagged = resource('dq_owner.tagged');
    const live = {
      dq_owner: [
        { key: 'pinned-1', id: 'pinned-1', raw: {} },
        { key: tagged.id, id: tagged.id, raw: {} },
      ],
      dq_alert: [{ key: 'shop.a', id: 'shop.a', raw: {} }],
    };
    const diags: Diagnostic[] = [];
    destroyDeclared([], resolution([pinned, absent, alert, tagged]), live, diags, []);
    expect(diags).toEqual([
      {
        severity: 'warning',
        summary: 'stays in place: destroy deletes only what namespace "ns" owns, and this object\'s id pinned-1 carries no namespace tag (pinned or adopted)',
        address: 'dq_owner.pinned',
        source: 'app/pinned',
        detail: 'dqform cannot tell such an id from an object made in the UI, and never deletes those.',
        hint: 'Delete it in the platform itself if it must go.',
      },
    ]);
  });

  test('an adopted (imported) id is the one checked and matched', () => {
    const adopted = resource('dq_owner.adopted', { importedId: 'ui-made' });
    const diags: Diagnostic[] = [];
    const changes = [change({ address: 'dq_owner["ui-made"]', type: 'dq_owner', action: 'delete', id: 'ui-made' })];
    destroyDeclared(changes, resolution([adopted]), { dq_owner: [{ key: 'ui-made', id: 'ui-made', raw: {} }] }, diags, []);
    expect(changes[0].address).toBe('dq_owner.adopted');
    expect(diags.map((d) => d.summary)).toEqual(['stays in place: destroy deletes only what namespace "ns" owns, and this object\'s id ui-made carries no namespace tag (pinned or adopted)']);
  });
});

describe('canonicalAddress: quoted keys (Stryker survivors of modes.ts)', () => {
  test('a JSON-quoted key is unescaped; only a fully quoted key is read as JSON', () => {
    expect(canonicalAddress('dq_alert["a\\"b"]')).toBe('dq_alert["a\\"b"]');
    expect(canonicalAddress('dq_alert[ "shop.x" ]')).toBe('dq_alert["shop.x"]');
    // quotes that do not enclose the whole key are part of it
    expect(canonicalAddress('dq_alert["a"b]')).toBe('dq_alert["\\"a\\"b"]');
    expect(canonicalAddress("dq_alert['a'b]")).toBe('dq_alert["\'a\'b"]');
    expect(canonicalAddress("dq_alert[a'b']")).toBe('dq_alert["a\'b\'"]');
  });

  test('an empty key is refused, quoted or not', () => {
    expect(() => canonicalAddress('dq_alert[""]')).toThrow('"dq_alert[""]": the key in brackets is empty');
    expect(() => canonicalAddress("dq_alert['']")).toThrow('the key in brackets is empty');
    expect(() => canonicalAddress('dq_alert[ ]')).toThrow('the key in brackets is empty');
  });
});

describe('checkRequestedAddresses without live state', () => {
  test("a live object's address is not checked when live state was not read; a declared one still is", () => {
    const diags: Diagnostic[] = [];
    checkRequestedAddresses(request({ targets: ['dq_owner["x"]', 'dq_owner.nope'] }), resolution([resource('dq_owner.a')]), [], diags, false);
    expect(diags.map((d) => d.summary)).toEqual(['--target dq_owner.nope: neither the code nor live state has an object at this address']);
    checkRequestedAddresses(request({ targets: ['dq_owner["x"]'] }), resolution([resource('dq_owner.a')]), [], diags);
    expect(diags.map((d) => d.address)).toEqual(['dq_owner.nope', 'dq_owner["x"]']);
  });

  test('--replace of a declared-removed address: only declared objects can be replaced', () => {
    const diags: Diagnostic[] = [];
    const res = { ...resolution([]), removed: [{ address: 'dq_owner.gone', type: 'dq_owner' as const, id: 'i', destroy: true }] };
    checkRequestedAddresses(request({ replace: ['dq_owner.gone'] }), res, [], diags);
    expect(diags).toEqual([
      { severity: 'error', summary: '--replace dq_owner.gone: only an object the code declares can be replaced (it is declared removed)', address: 'dq_owner.gone', hint: 'Declare it in the code to replace it, or drop --replace.' },
    ]);
  });

  test('a live object named by its id, fqn or display name suggests its address', () => {
    const live = [
      change({ address: 'dq_owner["u1"]', type: 'dq_owner', action: 'delete', id: 'Owner-ID', name: 'owner "Data Team"' }),
      change({ address: 'dq_alert["shop.a"]', type: 'dq_alert', action: 'unmanaged', id: 'x', fqn: 'Shop.A' }),
    ];
    const hint = (t: string) => {
      const diags: Diagnostic[] = [];
      checkRequestedAddresses(request({ targets: [t] }), resolution([]), live, diags);
      return diags[0]?.hint;
    };
    expect(hint('dq_owner["OWNER-id"]')).toBe('Did you mean dq_owner["u1"]?'); // by id, whatever its case
    expect(hint('dq_owner["data team"]')).toBe('Did you mean dq_owner["u1"]?');
    expect(hint('dq_alert["SHOP.A"]')).toBe('Did you mean dq_alert["shop.a"]?');
  });
});
