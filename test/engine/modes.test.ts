/**
 * Terraform's mode flags in the pure planner (src/engine/modes.ts): --target, --replace,
 * destroy, --refresh-only, and the addresses they name. Planned from the golden inputs
 * (test/golden/plan/<case>) with the real handlers, so the cases read like the goldens.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DEFAULT_REQUEST, Plan, type PlanRequest } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { computePlan, hasChanges, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { canonicalAddress, checkRequestedAddresses } from '../../src/engine/modes';
import { deriveId } from '../../src/engine/identity';
import { renderMarkdown, renderText, summaryLine } from '../../src/cli/render';
import { writePlan } from '../../src/plan/file';
import { renderPlanJson } from '../../src/plan/json';
import { reasonsText } from '../../src/plan/reasons-text';

const ROOT = path.join(__dirname, '..', 'golden', 'plan');
const read = (c: string, f: string): unknown => JSON.parse(fs.readFileSync(path.join(ROOT, c, f), 'utf8'));

function planOf(inputs: string, request: Partial<PlanRequest> = {}, edit?: (doc: { resource: Record<string, Record<string, Record<string, unknown>>> }) => void): Plan {
  const doc = read(inputs, 'desired.json') as { resource: Record<string, Record<string, Record<string, unknown>>> };
  edit?.(doc);
  const m = manifestFromTerraformJson(doc, { stack: inputs });
  return computePlan({ resolution: resolveManifest(m, 'demo'), live: read(inputs, 'live.json') as LiveState, handlers: HANDLERS, manifestHash: manifestHash(m), request: { ...DEFAULT_REQUEST, ...request } });
}
const actions = (p: Plan) => Object.fromEntries(p.changes.filter((c) => c.action !== 'noop').map((c) => [c.address, c.action]));
const errors = (p: Plan) => p.diagnostics.filter((d) => d.severity === 'error');

describe('canonicalAddress: what --target and --replace accept', () => {
  it.each<[string, string, string]>([
    ['a declared address', 'dq_alert.orders', 'dq_alert.orders'],
    ['a live object, as the plan prints it', 'dq_alert["shop.retired"]', 'dq_alert["shop.retired"]'],
    ['single quotes (easier in a shell)', "dq_alert['shop.retired']", 'dq_alert["shop.retired"]'],
    ['no quotes', 'dq_owner[a8f9bf66-659d-8e78-aed6-3bb780d5dfe5]', 'dq_owner["a8f9bf66-659d-8e78-aed6-3bb780d5dfe5"]'],
    ['surrounding blanks', '  dq_alert.orders ', 'dq_alert.orders'],
  ])('%s: %s', (_why, text, canonical) => expect(canonicalAddress(text)).toBe(canonical));

  it.each<[string, string, RegExp]>([
    ['a type that is not a dqform kind, with a suggestion', 'dq_alrt.orders', /dq_alrt is not a dqform resource type; did you mean dq_alert\?/],
    ['a Terraform type of another provider', 'aws_instance.web', /aws_instance is not a dqform resource type/],
    ['a type without a name', 'dq_alert', /is not a resource address: write TYPE\.NAME/],
    ['a module path', 'module.x.dq_alert.y', /is not a resource address/],
    ['an empty key', 'dq_alert[""]', /the key in brackets is empty/],
  ])('refuses %s: %s', (_why, text, message) => expect(() => canonicalAddress(text)).toThrow(message));
});

describe('--target', () => {
  it('keeps the targeted change and the changes of what it depends on, says so, and records the targets', () => {
    const p = planOf('references', { targets: ['dq_alert.team_issues'] });
    // the alert targets the owner (owner_path = ${dq_owner.team.entity_id}): both are created; the domains and the ownership are not
    expect(actions(p)).toEqual({ 'dq_alert.team_issues': 'create', 'dq_owner.team': 'create' });
    expect(p.options.targets).toEqual(['dq_alert.team_issues']);
    expect(p.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: expect.stringMatching(/^resource targeting is in effect/) })]);
    expect(renderText(p)).toMatch(/^Targeted \(partial plan\): dq_alert\.team_issues, with what it depends on$/m);
    expect(summaryLine(p)).toBe('Plan: 2 to add, 0 to change, 0 to destroy.');
  });

  it('a live object the code does not declare can be targeted by the address the plan prints; the rest is left out, "not managed here" too', () => {
    const p = planOf('actions', { targets: ['dq_alert["shop.retired"]'] });
    expect(p.changes.map((c) => [c.address, c.action])).toEqual([['dq_alert["shop.retired"]', 'delete']]);
  });

  it.each<[string, string, RegExp]>([
    ['a typo of a declared address', 'dq_alert.ordrs', /Did you mean dq_alert\.orders\?/],
    ['a live object named by its fqn instead of its address', 'dq_alert["shop.retird"]', /Did you mean dq_alert\["shop\.retired"\]\?/],
    ['an owner named by its title', 'dq_owner["Old team"]', /Did you mean dq_owner\.old_team\?/],
  ])('an unknown address is an error with a "did you mean": %s', (_why, target, hint) => {
    const p = planOf('actions', { targets: [target] });
    expect(errors(p)).toEqual([expect.objectContaining({ summary: `--target ${target}: neither the code nor live state has an object at this address`, hint: expect.stringMatching(hint) })]);
  });

  it('an address nothing resembles gets the address forms instead of a guess', () => {
    const p = planOf('actions', { targets: ['dq_domain.nothing_like_it'] });
    expect(errors(p)[0].hint).toMatch(/TYPE\.NAME for an object the code declares, TYPE\["KEY"\] for one it does not/);
  });

  it('a preventDestroy error holds only for a change the targeted plan keeps', () => {
    const guarded = (doc: { resource: Record<string, Record<string, Record<string, unknown>>> }) => void (doc.resource.dq_alert.freshness.lifecycle = { prevent_destroy: true });
    expect(errors(planOf('actions', {}, guarded)).map((d) => d.address)).toEqual(['dq_alert.freshness']); // replaced: forbidden
    expect(errors(planOf('actions', { targets: ['dq_alert.orders'] }, guarded))).toEqual([]);
    expect(errors(planOf('actions', { targets: ['dq_alert.freshness'] }, guarded)).map((d) => d.address)).toEqual(['dq_alert.freshness']);
  });

  it('marks "also deleted by this plan" only for what the targeted plan deletes', () => {
    const owner = deriveId('demo', 'shop', 'dq_owner', 'old_team');
    const full = planOf('governance-pruning');
    const targeted = planOf('governance-pruning', { targets: [`dq_owner["${owner}"]`] });
    const cascade = (p: Plan) => p.changes.find((c) => c.type === 'dq_owner' && c.action === 'delete')!.effects!.cascade.map((x) => x.alsoDeleted);
    expect(cascade(full)).toEqual([true, false]);
    expect(cascade(targeted)).toEqual([false, false]); // the ownership's own delete is not in the targeted plan
  });
});

describe('--replace', () => {
  it('replaces an object that would be updated or left unchanged, with the reason, and records it', () => {
    const p = planOf('actions', { replace: ['dq_alert.orders'] });
    const c = p.changes.find((x) => x.address === 'dq_alert.orders')!;
    expect(c.action).toBe('replace');
    expect(reasonsText(c)).toEqual(['replacement requested with --replace']);
    expect(p.options.replace).toEqual(['dq_alert.orders']);
    const unchanged = planOf('no-changes', { replace: ['dq_alert.orders'] });
    expect(unchanged.changes.find((x) => x.address === 'dq_alert.orders')?.action).toBe('replace');
    expect(hasChanges(unchanged)).toBe(true);
  });

  it.each<[string, string, Partial<PlanRequest>, RegExp]>([
    ['an object the plan destroys', 'actions', { replace: ['dq_alert["shop.retired"]'] }, /only an object the code declares can be replaced \(this plan destroys it\)/],
    ['an object not managed here', 'actions', { replace: ['dq_alert["ui.made-by-hand"]'] }, /only an object the code declares can be replaced \(this plan does not manage it\)/],
    ['an object declared removed', 'actions', { replace: ['dq_owner.old_team'] }, /only an object the code declares can be replaced/],
    ['an unknown address', 'actions', { replace: ['dq_alert.order'] }, /neither the code nor live state/],
    ['an object with preventDestroy', 'no-changes', { replace: ['dq_alert.orders'] }, /lifecycle\.preventDestroy forbids destroying it/],
  ])('is an error for %s', (_why, inputs, request, message) => {
    const p = planOf(inputs, request, (doc) => {
      if (inputs === 'no-changes') doc.resource.dq_alert.orders.lifecycle = { prevent_destroy: true };
    });
    expect(errors(p).map((d) => d.summary).join('\n')).toMatch(message);
  });

  it('of an object that does not exist yet: a warning, and the object is created', () => {
    const p = planOf('actions', { replace: ['dq_alert.new_orders'] });
    expect(p.changes.find((x) => x.address === 'dq_alert.new_orders')?.action).toBe('create');
    expect(p.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', summary: expect.stringMatching(/nothing to replace: it will be created/) })]);
  });
});

describe('destroy', () => {
  it('deletes everything the namespace owns, declarations by their own address, and keeps what is not its own', () => {
    const p = planOf('actions', { destroy: true });
    expect(actions(p)).toEqual({
      'dq_alert.freshness': 'delete',
      'dq_alert.orders': 'delete',
      'dq_alert["shop.retired"]': 'delete',
      'dq_owner.old_team': 'delete', // declared removed (destroy = true)
      'dq_owner.team': 'delete',
      'dq_sql_test.nulls': 'delete',
      'dq_alert["billing.invoices"]': 'unmanaged',
      'dq_alert["ui.made-by-hand"]': 'unmanaged',
      'dq_sql_test["c0ffee00-0000-4000-8000-000000000001"]': 'unmanaged',
    });
    expect(reasonsText(p.changes.find((c) => c.address === 'dq_alert.orders')!)).toEqual(['destroy: everything namespace "shop" owns is deleted']);
    expect(p.options.destroy).toBe(true);
    expect(renderText(p)).toMatch(/^dqform destroy plan for namespace "shop"/);
  });

  it('with nothing owned, says so', () => {
    const p = planOf('references', { destroy: true });
    expect(hasChanges(p)).toBe(false);
    expect(renderText(p)).toContain('No changes. Namespace "shop" owns nothing to destroy.');
  });

  it('a declared object with preventDestroy is an error', () => {
    const p = planOf('prevent-destroy', { destroy: true });
    expect(errors(p)).toEqual([expect.objectContaining({ address: 'dq_alert.orders', summary: expect.stringMatching(/lifecycle\.preventDestroy forbids destroying this object/) })]);
  });

  it('a declared governance object whose pinned id carries no namespace tag stays, with a warning', () => {
    const pinned = 'b0000000-0000-4000-8000-00000000beef';
    const doc = read('governance-pruning', 'desired.json') as { resource: Record<string, Record<string, Record<string, unknown>>> };
    doc.resource.dq_owner.pinned = { id: pinned, title: 'Pinned', contacts: [] };
    const live = read('governance-pruning', 'live.json') as LiveState;
    live.dq_owner = [...(live.dq_owner ?? []), { key: pinned, id: pinned, raw: { id: pinned, title: 'Pinned', contacts: [] } }];
    const m = manifestFromTerraformJson(doc, { stack: 's' });
    const p = computePlan({ resolution: resolveManifest(m, 'demo'), live, handlers: HANDLERS, manifestHash: 'h', request: { ...DEFAULT_REQUEST, destroy: true } });
    expect(p.changes.some((c) => c.id === pinned)).toBe(false);
    expect(p.diagnostics).toEqual([expect.objectContaining({ severity: 'warning', address: 'dq_owner.pinned', summary: expect.stringMatching(/^stays in place: destroy deletes only what namespace "shop" owns/) })]);
  });

  it('with --target, keeps the target and what depends on it (it must go too), not what it depends on', () => {
    const p = planOf('governance-pruning', { destroy: true, targets: ['dq_owner.team'] });
    expect(actions(p)).toEqual({ 'dq_owner.team': 'delete', 'dq_ownership.team_owns_orders': 'delete' });
    const q = planOf('governance-pruning', { destroy: true, targets: ['dq_ownership.team_owns_orders'] });
    expect(actions(q)).toEqual({ 'dq_ownership.team_owns_orders': 'delete' });
  });
});

describe('--refresh-only', () => {
  const p = planOf('actions', { refreshOnly: true });

  it('proposes nothing: every difference is drift, seen from the code towards live state', () => {
    expect(hasChanges(p)).toBe(false);
    expect(p.summary).toMatchObject({ add: 0, change: 0, replace: 0, destroy: 0, import: 0 });
    // drift has its own type (issue 24): how live differs, not a change's action read backwards
    expect(Object.fromEntries(p.drift.map((c) => [c.address, c.difference]))).toEqual({
      'dq_alert.freshness': 'changed', // live holds another kind of alert
      'dq_alert.orders': 'changed',
      'dq_alert.new_orders': 'absent', // declared, absent live
      'dq_alert["shop.retired"]': 'undeclared', // live, not declared
      'dq_owner.old_team': 'undeclared',
    });
    const orders = p.drift.find((c) => c.address === 'dq_alert.orders')!;
    expect(orders.patch).toEqual([{ op: 'replace', path: '/name', value: 'Orders' }]); // code "Orders v2" -> live "Orders"
    expect(p.drift.every((c) => !('effects' in c))).toBe(true);
  });

  it('says what it means and that apply writes nothing', () => {
    const text = renderText(p);
    expect(text).toMatch(/^dqform refresh-only plan for namespace "shop"/);
    expect(text).toContain('# dq_alert.orders (alert "Orders v2") has changed outside dqform');
    expect(text).toContain('~ name: code "Orders v2", live "Orders"');
    expect(text).toContain('# dq_alert.new_orders (alert "New orders") is absent live');
    expect(text).toContain('apply writes nothing for it');
    expect(summaryLine(p)).toBe('Refresh-only: 5 object(s) differ from the code (2 changed outside dqform, 1 absent live, 2 live but not declared). Nothing to apply.');
    expect(renderMarkdown(p)).toContain('<details><summary><code>dq_alert</code>: 4 difference(s)</summary>');
  });

  it('a preventDestroy object whose live kind differs is drift, not an error (nothing is destroyed)', () => {
    expect(errors(planOf('prevent-destroy', { refreshOnly: true }))).toEqual([]);
    expect(errors(planOf('prevent-destroy'))).toHaveLength(1);
  });

  it('with live state equal to the code', () => {
    const q = planOf('no-changes', { refreshOnly: true });
    expect(q.drift).toEqual([]);
    expect(summaryLine(q)).toBe('Refresh-only: live state matches the code. Nothing to apply.');
  });
});

describe('the plan JSON records the options and stays readable', () => {
  it('options are sorted and deduplicated, so equal requests give equal plans', () => {
    const a = planOf('actions', { targets: ['dq_owner.old_team', 'dq_alert.orders'], replace: ['dq_alert.orders'] });
    const b = planOf('actions', { targets: ['dq_alert.orders', 'dq_owner.old_team', 'dq_alert.orders'], replace: ['dq_alert.orders'] });
    expect(a.options.targets).toEqual(['dq_alert.orders', 'dq_owner.old_team']);
    expect(renderPlanJson(b)).toBe(renderPlanJson(a));
  });

  it('a plan saved before options existed reads as a plan made without them', () => {
    const old = JSON.parse(writePlan(planOf('actions'))) as Record<string, unknown>;
    delete old.options;
    delete old.drift;
    delete (old.summary as Record<string, unknown>).import;
    for (const c of old.changes as Record<string, unknown>[]) delete c.name;
    const back = Plan.parse(old);
    expect(back.options).toEqual(DEFAULT_REQUEST);
    expect(back.drift).toEqual([]);
    expect(summaryLine(back)).toBe('Plan: 2 to add, 1 to change, 3 to destroy.');
  });
});

describe('(added for the mutation run of src/engine) what a misspelt --target or --replace suggests', () => {
  const resolution = { resources: [{ address: 'dq_alert.orders' }, { address: 'dq_owner.team' }], removed: [] } as never;
  const changes = [
    { address: 'dq_alert.orders', type: 'dq_alert', id: 'a1b2', fqn: 'shop.orders', action: 'noop' },
    { address: 'dq_owner.team', type: 'dq_owner', id: 'owner-id-1', name: 'dq_owner.team "Data Team"', action: 'noop' },
  ] as never;
  const hint = (target: string) => {
    const diags: { hint?: string }[] = [];
    checkRequestedAddresses({ ...DEFAULT_REQUEST, targets: [target] } as PlanRequest, resolution, changes, diags as never);
    return diags.map((d) => d.hint);
  };
  test.each([
    ['dq_alert["Shop.Orders"]', 'Did you mean dq_alert.orders?'],
    ['dq_alert["A1B2"]', 'Did you mean dq_alert.orders?'],
    ['dq_owner["data team"]', 'Did you mean dq_owner.team?'],
    ['dq_owner.teem', 'Did you mean dq_owner.team?'],
  ])('%s -> %s', (target, want) => {
    expect(hint(target)).toEqual([want]);
  });
  test('an address nothing resembles gets the form to use', () => {
    expect(hint('dq_domain["zzzzzzzzzz"]')).toEqual([
      'Give the address as the plan prints it: TYPE.NAME for an object the code declares, TYPE["KEY"] for one it does not (run dqform plan to see them).',
    ]);
  });
});
