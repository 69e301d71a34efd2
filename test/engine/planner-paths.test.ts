/**
 * computePlan through the real handlers, every branch a user meets, asserted whole: the exact
 * diagnostic (summary, hint, detail, address) of removed blocks that find nothing or what is not
 * the namespace's, import blocks, forced replaces, objects this version cannot model, SQL tests
 * of a rule; the exact change (reasons, etag, liveHash, fqn) of deletes, unmanaged entries and
 * pruning; the plan's options and the order of its diagnostics. (Issue 23: the engine's
 * in-process tests, so that a mutation of any of these paths is caught.)
 */
import type { LiveObject } from '../../src/kinds/shared/types';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { DEFAULT_REQUEST, type PlanRequest } from '../../schemas/model/plan';
import type { ResourceType } from '../../schemas/model/manifest';
import { reasonsText } from '../../src/plan/reasons-text';
import { toPlanFile } from '../../src/plan/file';

const WS = 'demo';
const NS = 'shop';
const tf = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ provider: { dq: [{ namespace: NS }] }, resource: resources, ...extra });
const mine = (type: ResourceType, name: string) => deriveId(WS, NS, type, name);
const UI_OWNER = '5eed0000-0000-4000-8000-000000000e7a';

function planOf(doc: unknown, live: LiveState, request: Partial<PlanRequest> = {}) {
  const m = manifestFromTerraformJson(doc, { stack: NS });
  return computePlan({ resolution: resolveManifest(m, WS), live, handlers: HANDLERS, manifestHash: 'h', request: { ...DEFAULT_REQUEST, ...request } });
}
const owner = (id: string, title: string, over: Partial<LiveObject> = {}): LiveObject => ({ key: id, id, etag: `W/"${id}-1"`, raw: { id, title, contacts: [], etag: `W/"${id}-1"`, entityId: `owner-${id}` }, ...over });
const trigger = { resolverQl: 'with_type("table")', renderedResolverQl: 'with_type("table")' };
const alert = (fqn: string, over: Partial<LiveObject> = {}, raw: Record<string, unknown> = {}): LiveObject => {
  const configId = 'configId' in over ? over.configId : NS;
  return {
    key: fqn,
    id: `id-${fqn}`,
    etag: `W/"${fqn}-1"`,
    configId,
    raw: { id: `id-${fqn}`, fqn, name: `Alert ${fqn}`, etag: `W/"${fqn}-1"`, configId, issueLifecycle: { trigger, targets: [{ slack: { channel: '#data' } }], settings: { severities: ['SEVERITY_ERROR'] } }, ...raw },
    ...over,
  };
};
const alertConfig = (name: string) => ({ name, issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#data' } }], settings: { severities: ['SEVERITY_ERROR'] } } });
const removed = (from: string, opts: { id?: string; destroy?: boolean } = {}) => ({ removed: [{ from, ...(opts.id ? { id: opts.id } : {}), lifecycle: { destroy: opts.destroy ?? true } }] });

describe('removed declarations that find nothing', () => {
  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    [
      'destroy = true, id derived from the address: says how to name a pinned id',
      removed('dq_owner.gone'),
      {
        severity: 'warning',
        summary: `declared removed, but no owner "${mine('dq_owner', 'gone')}" exists: nothing to delete`,
        address: 'dq_owner.gone',
        hint: 'If its id was pinned, moved or imported, give that id in the removed declaration (removed { from, id }); otherwise drop the declaration.',
      },
    ],
    [
      'destroy = false, id given: it may be gone already',
      removed('dq_owner.gone', { id: UI_OWNER, destroy: false }),
      {
        severity: 'warning',
        summary: `declared removed (destroy = false), but no owner "${UI_OWNER}" exists: nothing to leave in place`,
        address: 'dq_owner.gone',
        hint: 'It may be gone already; drop the removed declaration.',
      },
    ],
  ])('%s', (_why, extra, diag) => {
    const p = planOf(tf({}, extra), {});
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([diag]);
  });

  it('with live state unread (the code has errors), nothing is said about existence', () => {
    const m = manifestFromTerraformJson(tf({ dq_owner: { t: { title: 'T' } } }, { ...removed('dq_owner.gone'), import: [{ to: 'dq_owner.t', id: UI_OWNER }] }), { stack: NS });
    const p = computePlan({ resolution: resolveManifest(m, WS), live: {}, handlers: HANDLERS, manifestHash: 'h', liveUnread: true });
    expect(p.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    expect(p.changes).toEqual([]);
  });
});

describe('removed declarations of objects that are not the namespace\'s', () => {
  it('a UI-made owner: refused, with why dqform cannot tell it from a UI-made one', () => {
    const p = planOf(tf({}, removed('dq_owner.ui', { id: UI_OWNER })), { dq_owner: [owner(UI_OWNER, 'Made in the UI')] });
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([
      {
        severity: 'error',
        summary: `declared removed, but owner "Made in the UI" ("${UI_OWNER}") was made in the UI, not by namespace "shop": dqform never deletes it`,
        address: 'dq_owner.ui',
        detail: 'Its id carries no namespace tag, so dqform cannot tell it from an object made in the UI (a pinned or adopted id looks the same), and never deletes those.',
        hint: 'Drop the removed declaration, or make it removed { from, id, lifecycle { destroy = false } } (cdktf: stack.removed(address, { id, destroy: false })) to stop managing it; delete it in the platform itself if it must go.',
      },
    ]);
  });

  it('an alert of another namespace: refused, naming that namespace, without the tag detail', () => {
    const p = planOf(tf({}, removed('dq_alert.x', { id: 'other.x' })), { dq_alert: [alert('other.x', { configId: 'other' })] });
    // claimed by the removed block: neither deleted nor listed again as not managed here
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([
      expect.objectContaining({
        severity: 'error',
        summary: 'declared removed, but alert "Alert other.x" ("other.x") is managed by namespace "other", not namespace "shop": dqform never deletes it',
        address: 'dq_alert.x',
        detail: undefined,
      }),
    ]);
  });

  it('an object this version cannot model: never deleted, says to upgrade or leave it in place', () => {
    const id = mine('dq_owner', 'team');
    const p = planOf(tf({}, removed('dq_owner.team')), { dq_owner: [owner(id, 'Data team', { unmanageable: ['unknown field "badge"', 'unknown enum X'] })] });
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([
      {
        severity: 'error',
        summary: `declared removed, but owner "Data team" ("${id}") cannot be managed by this version: unknown field "badge"; unknown enum X`,
        address: 'dq_owner.team',
        hint: 'dqform never deletes an object it cannot model; upgrade dqform, or make it removed with destroy = false.',
      },
    ]);
    // with destroy = false it is left in place, no error
    const kept = planOf(tf({}, removed('dq_owner.team', { destroy: false })), { dq_owner: [owner(id, 'Data team', { unmanageable: ['x'] })] });
    expect(kept.diagnostics).toEqual([]);
    expect(kept.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['forget dq_owner.team']);
  });
});

describe('removed declarations that act', () => {
  it('destroy = true of an alert of the namespace: a delete with the fqn, etag, live hash and reason', () => {
    const p = planOf(tf({}, removed('dq_alert.orders')), { dq_alert: [alert('shop.orders')] });
    expect(p.diagnostics).toEqual([]);
    expect(p.changes).toHaveLength(1);
    expect(p.changes[0]).toMatchObject({ address: 'dq_alert.orders', type: 'dq_alert', action: 'delete', id: 'shop.orders', fqn: 'shop.orders', after: null, patch: [], etag: 'W/"shop.orders-1"', dependsOn: [] });
    expect(reasonsText(p.changes[0])).toEqual(['declared removed: alert "Alert shop.orders"']);
    expect(p.changes[0].liveHash).toMatch(/\S/);
    expect(p.changes[0].before).toMatchObject({ name: 'Alert shop.orders' });
    expect(p.summary).toMatchObject({ add: 0, change: 0, destroy: 1 });
  });

  it('destroy = false of an alert of the namespace: forget, saying its configId would prune it without the block', () => {
    const p = planOf(tf({}, removed('dq_alert.orders', { destroy: false })), { dq_alert: [alert('shop.orders')] });
    expect(p.changes.map((c) => [c.action, c.address, c.id, c.fqn, reasonsText(c)])).toEqual([
      [
        'forget',
        'dq_alert.orders',
        'shop.orders',
        'shop.orders',
        ['removed with destroy = false: alert "Alert shop.orders" stays in place, no longer managed; keep the removed block while it exists (it has this namespace as configId, so without the block the next plan deletes it)'],
      ],
    ]);
    expect(p.changes[0].etag).toBeUndefined();
  });

  it("destroy = false of what is not the namespace's: unmanaged, with no advice to keep the block", () => {
    const p = planOf(tf({}, removed('dq_owner.ui', { id: UI_OWNER, destroy: false })), { dq_owner: [owner(UI_OWNER, 'Made in the UI')] });
    expect(p.changes.map((c) => reasonsText(c))).toEqual([['removed with destroy = false: owner "Made in the UI" stays in place, no longer managed']]);
  });
});

describe('declared objects', () => {
  it('an import block that finds nothing: an error naming the id and what to check', () => {
    const p = planOf(tf({ dq_owner: { t: { title: 'T' } } }, { import: [{ to: 'dq_owner.t', id: UI_OWNER }] }), {});
    expect(p.changes).toEqual([]);
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      { severity: 'error', summary: `import block: no owner "${UI_OWNER}" exists to import`, address: 'dq_owner.t', hint: 'Check the id (or fqn for alerts) in the import block.' },
    ]);
  });

  it('--replace of an object that does not exist: a warning, and a create', () => {
    const p = planOf(tf({ dq_owner: { t: { title: 'T' } } }), {}, { replace: ['dq_owner.t'] });
    expect(p.changes.map((c) => `${c.action} ${c.address}`)).toEqual(['create dq_owner.t']);
    expect(p.diagnostics).toEqual([{ severity: 'warning', summary: '--replace dq_owner.t: the owner does not exist yet, so there is nothing to replace: it will be created', address: 'dq_owner.t' }]);
  });

  it('--replace of an unchanged object: a replace with the reason, whatever the diff', () => {
    const id = mine('dq_owner', 't');
    const p = planOf(tf({ dq_owner: { t: { title: 'T' } } }), { dq_owner: [owner(id, 'T')] }, { replace: ['dq_owner.t', 'dq_owner.t'] });
    expect(p.changes.map((c) => [c.action, c.patch])).toEqual([['replace', []]]);
    expect(reasonsText(p.changes[0]).length).toBe(1);
    expect(p.options).toEqual({ destroy: false, refreshOnly: false, targets: [], replace: ['dq_owner.t'] });
  });

  it('a declared object this version cannot model: an error with what it would drop and what to do', () => {
    const id = mine('dq_owner', 't');
    const p = planOf(tf({ dq_owner: { t: { title: 'T' } } }), { dq_owner: [owner(id, 'T', { unmanageable: ['unknown field "badge"'] })] });
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([
      {
        severity: 'error',
        summary: `the owner "${id}" cannot be managed by this version: unknown field "badge"`,
        address: 'dq_owner.t',
        detail: 'Writing it would drop what the platform holds and this version does not model.',
        hint: 'Upgrade dqform, or stop declaring this object (pin another id/fqn) and leave it to the platform.',
      },
    ]);
  });

  it('an import block of an alert another namespace manages: refused, naming both namespaces', () => {
    const p = planOf(tf({ dq_alert: { a: alertConfig('A') } }, { import: [{ to: 'dq_alert.a', id: 'other.a' }] }), { dq_alert: [alert('other.a', { configId: 'other' })] });
    expect(p.changes.filter((c) => c.address === 'dq_alert.a')).toEqual([]);
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      {
        severity: 'error',
        summary:
          'import block: the alert "other.a" is managed by namespace "other", not by namespace "shop" (this stack): two stacks would manage one object, and dqform never writes another namespace\'s objects',
        address: 'dq_alert.a',
        hint: 'Manage it in the stack of namespace "other", or drop the import block so that this stack creates its own object.',
      },
    ]);
  });

  it.each<[string, Partial<LiveObject>, string]>([
    ['another namespace', { configId: 'other' }, 'namespace "other"'],
    ['the UI (no source: the proto3 default)', { configId: undefined }, 'the UI'],
    ['another API client', { configId: undefined, source: 'SOURCE_API' }, 'no namespace'],
  ])('a declared alert whose fqn exists, managed by %s: refused with how to adopt', (_why, over, who) => {
    const p = planOf(tf({ dq_alert: { a: { ...alertConfig('A'), fqn: 'x.a' } } }), { dq_alert: [alert('x.a', over)] });
    expect(p.changes.filter((c) => c.address === 'dq_alert.a')).toEqual([]);
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      { severity: 'error', summary: `a alert "x.a" already exists and is managed by ${who}`, address: 'dq_alert.a', hint: 'Adopt it with an import block (cdktf importFrom), or pin a different id/fqn.' },
    ]);
  });

  it('an imported UI-made alert equal to the code is an update that claims it, with the reason', () => {
    const p = planOf(tf({ dq_alert: { a: alertConfig('Alert ui.a') } }, { import: [{ to: 'dq_alert.a', id: 'ui.a' }] }), { dq_alert: [alert('ui.a', { configId: undefined })] });
    const c = p.changes.find((x) => x.address === 'dq_alert.a')!;
    expect([c.action, c.id, c.fqn, c.importedId, c.patch]).toEqual(['update', 'ui.a', 'ui.a', 'ui.a', []]);
    expect(reasonsText(c)).toEqual(['imported from existing alert "ui.a" (was made in the UI)', 'claims it for namespace "shop"']);
  });

  it('an import block of an alert of the namespace itself: a noop, the reason without "was"', () => {
    const p = planOf(tf({ dq_alert: { a: alertConfig('Alert shop.old') } }, { import: [{ to: 'dq_alert.a', id: 'shop.old' }] }), { dq_alert: [alert('shop.old')] });
    const c = p.changes.find((x) => x.address === 'dq_alert.a')!;
    expect([c.action, c.id, c.fqn, reasonsText(c)]).toEqual(['noop', 'shop.old', 'shop.old', ['imported from existing alert "shop.old"']]);
  });

  it('a SQL test deployed by a rule cannot be declared: an error naming the rule', () => {
    const id = 'cdcdcdcd-cdcd-4dcd-8dcd-cdcdcdcdcdcd';
    const config = { id, name: 'T', platform: { warehouse_account: { account: 'a', database: 'd' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: 'select 1' };
    const live: LiveState = { dq_sql_test: [{ key: id, id, configId: NS, deploymentRuleId: 'rule-9', raw: { id, name: 'T', sqlExpression: 'select 1', configId: NS } }] };
    const p = planOf(tf({ dq_sql_test: { t: config } }), live);
    expect(p.changes).toEqual([]);
    expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      { severity: 'error', summary: `SQL test "${id}" is deployed by SQL-test rule rule-9 and cannot be managed directly`, address: 'dq_sql_test.t', hint: 'Pin another id, or manage the test through its rule.' },
    ]);
  });

  it('preventDestroy on a replace: an error naming why it replaces; none in a refresh-only plan', () => {
    const doc = tf({ dq_alert: { orders: { name: 'Orders', schema_change: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#data' } }] }, lifecycle: { prevent_destroy: true } } } });
    const live = { dq_alert: [alert('shop.orders')] };
    const p = planOf(doc, live);
    const c = p.changes.find((x) => x.address === 'dq_alert.orders')!;
    expect(c.action).toBe('replace');
    const errors = p.diagnostics.filter((d) => d.severity === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ address: 'dq_alert.orders', hint: 'Revert the change, or drop preventDestroy deliberately.' });
    expect(errors[0].summary).toBe(`this change replaces the alert (${reasonsText(c).join('; ')}), and lifecycle.preventDestroy forbids destroying it`);
    const refresh = planOf(doc, live, { refreshOnly: true });
    expect(refresh.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  });
});

describe('pruning and what is not managed here', () => {
  it.each<[string, Partial<LiveObject>, string]>([
    ['another namespace', { configId: 'other' }, 'managed by namespace "other"'],
    ['the UI', { configId: undefined, source: 'SOURCE_APP' }, 'made in the UI'],
    ['no source at all (the proto3 default: the UI)', { configId: undefined }, 'made in the UI'],
    ['another API client', { configId: undefined, source: 'SOURCE_API' }, 'not managed by dqform'],
  ])('an undeclared alert of %s: listed unmanaged, with the fqn and why', (_why, over, reason) => {
    const p = planOf(tf({}), { dq_alert: [alert('x.a', over)] });
    expect(p.changes.map((c) => ({ address: c.address, action: c.action, id: c.id, fqn: c.fqn, reasons: reasonsText(c), after: c.after, etag: c.etag }))).toEqual([
      { address: 'dq_alert["x.a"]', action: 'unmanaged', id: 'x.a', fqn: 'x.a', reasons: [reason], after: null, etag: undefined },
    ]);
    expect(p.summary).toMatchObject({ destroy: 0, unmanaged: 1 });
  });

  it('an undeclared alert of the namespace: deleted, with the fqn, etag and the reason', () => {
    const p = planOf(tf({}), { dq_alert: [alert('shop.a')] });
    expect(p.changes.map((c) => ({ address: c.address, action: c.action, id: c.id, fqn: c.fqn, reasons: reasonsText(c), etag: c.etag }))).toEqual([
      { address: 'dq_alert["shop.a"]', action: 'delete', id: 'shop.a', fqn: 'shop.a', reasons: ['alert "Alert shop.a" is no longer declared in namespace "shop"'], etag: 'W/"shop.a-1"' },
    ]);
    expect(p.changes[0].liveHash).toMatch(/\S/);
  });

  it('an undeclared alert of the namespace this version cannot model: listed, never deleted', () => {
    const p = planOf(tf({}), { dq_alert: [alert('shop.a', { unmanageable: ['unknown variant "pagerDuty"'] })] });
    expect(p.changes.map((c) => [c.action, c.address, reasonsText(c), c.fqn])).toEqual([['unmanaged', 'dq_alert["shop.a"]', ['cannot be managed by this version: unknown variant "pagerDuty"'], 'shop.a']]);
  });

  it('a SQL test made by a rule is neither pruned nor listed', () => {
    const id = 'cdcdcdcd-cdcd-4dcd-8dcd-cdcdcdcdcdcd';
    const p = planOf(tf({}), { dq_sql_test: [{ key: id, id, configId: NS, deploymentRuleId: 'rule-9', raw: { id, name: 'T', sqlExpression: 'select 1', configId: NS } }] });
    expect(p.changes).toEqual([]);
  });

  it('owners: one tagged for the namespace is deleted (no fqn), a context one and a UI-made one are not even listed', () => {
    const tagged = mine('dq_owner', 'old');
    const ctx = mine('dq_owner', 'ctx');
    const p = planOf(tf({}), { dq_owner: [owner(tagged, 'Old team'), owner(ctx, 'Ctx', { context: true }), owner(UI_OWNER, 'UI')] });
    expect(p.changes.map((c) => ({ address: c.address, action: c.action, id: c.id, fqn: c.fqn, reasons: reasonsText(c), etag: c.etag }))).toEqual([
      { address: `dq_owner["${tagged}"]`, action: 'delete', id: tagged, fqn: undefined, reasons: ['owner "Old team" is no longer declared in namespace "shop"'], etag: `W/"${tagged}-1"` },
    ]);
  });

  it('an owner tagged for the namespace that this version cannot model: listed unmanaged, never deleted', () => {
    const tagged = mine('dq_owner', 'old');
    const p = planOf(tf({}), { dq_owner: [owner(tagged, 'Old team', { unmanageable: ['unknown field "x"'] })] });
    expect(p.changes.map((c) => [c.action, c.address, reasonsText(c), c.fqn])).toEqual([['unmanaged', `dq_owner["${tagged}"]`, ['cannot be managed by this version: unknown field "x"'], undefined]]);
  });
});

describe('the plan as a whole', () => {
  it('options: targets and replace are deduplicated and sorted; diagnostics are ordered by address, then summary', () => {
    const p = planOf(
      tf({ dq_owner: { b: { title: 'B' }, a: { title: 'A' } } }, { removed: [{ from: 'dq_owner.z' }, { from: 'dq_alert.y' }] }),
      {},
      { targets: ['dq_owner.b', 'dq_owner.a', 'dq_owner.b', 'dq_owner.z', 'dq_alert.y'], replace: ['dq_owner.b', 'dq_owner.a', 'dq_owner.a'] },
    );
    expect(p.options).toEqual({ destroy: false, refreshOnly: false, targets: ['dq_alert.y', 'dq_owner.a', 'dq_owner.b', 'dq_owner.z'], replace: ['dq_owner.a', 'dq_owner.b'] });
    const keys = p.diagnostics.map((d) => `${d.address ?? ''}${d.summary}`);
    expect(keys).toEqual([...keys].sort((x, y) => x.localeCompare(y)));
    expect(p.diagnostics.map((d) => [d.severity, d.address])).toEqual([
      ['warning', 'dq_alert.y'],
      ['warning', 'dq_owner.a'],
      ['warning', 'dq_owner.b'],
      ['warning', 'dq_owner.z'],
      ['warning', undefined],
    ]);
    expect(p.diagnostics[4].summary).toBe('resource targeting is in effect: this plan holds only the changes of dq_alert.y, dq_owner.a, dq_owner.b, dq_owner.z and of what they depend on');
    expect(p.changes.map((c) => c.address)).toEqual(['dq_owner.a', 'dq_owner.b']);
  });

  it('the plan names its workspace, namespace, stack and manifest hash', () => {
    const p = planOf(tf({}), {});
    expect([toPlanFile(p).formatVersion, p.workspace, p.namespace, p.stack, p.manifestHash, p.changes, p.drift]).toEqual([1, WS, NS, NS, 'h', [], []]);
  });
});

describe('a replace takes its cascade with it', () => {
  const ownerId = mine('dq_owner', 'team');
  const ownershipId = mine('dq_ownership', 'mine');
  const UI_OWNERSHIP = '5eed0000-0000-4000-8000-0000000005e1';
  const sel = { query: { resolverQl: 'with_tag("x")', renderedResolverQl: 'with_tag("x")' } };
  const ownership = (id: string, context = false): LiveObject => ({ key: id, id, etag: `W/"${id}-1"`, raw: { id, ownerId, selection: sel, etag: `W/"${id}-1"` }, ...(context ? { context: true } : {}) });
  const live: LiveState = { dq_owner: [owner(ownerId, 'Team')], dq_ownership: [ownership(ownershipId), ownership(UI_OWNERSHIP, true)] };
  const doc = tf({ dq_owner: { team: { title: 'Team' } }, dq_ownership: { mine: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("x")' } } } } });

  it('an ownership the plan keeps is replaced after its owner; a UI-made one is deleted for good, counted in the owner\'s effects', () => {
    const p = planOf(doc, live, { replace: ['dq_owner.team'] });
    expect(p.diagnostics).toEqual([]);
    const own = p.changes.find((c) => c.address === 'dq_ownership.mine')!;
    expect([own.action, own.dependsOn, reasonsText(own)]).toEqual(['replace', ['dq_owner.team'], ['the platform deletes it with dq_owner.team, which this plan replaces: created again after it']]);
    const team = p.changes.find((c) => c.address === 'dq_owner.team')!;
    expect(team.action).toBe('replace');
    expect(team.effects?.source).toBe('cascade');
    expect(team.effects?.cascade.map((x) => [x.effect, x.type, x.id, x.alsoDeleted])).toEqual([
      ['deleted', 'dq_ownership', UI_OWNERSHIP, false],
      ['deleted', 'dq_ownership', ownershipId, true],
    ]);
  });

  it('without --replace nothing is replaced and nothing cascades', () => {
    const p = planOf(doc, live);
    expect(p.changes.map((c) => [c.address, c.action, c.effects])).toEqual([
      ['dq_owner.team', 'noop', undefined],
      ['dq_ownership.mine', 'noop', undefined],
    ]);
  });

  it('an owner deleted (no longer declared) shows the ownerships that go with it, its own and the UI-made one', () => {
    const p = planOf(tf({}), live);
    const team = p.changes.find((c) => c.type === 'dq_owner')!;
    expect(team.action).toBe('delete');
    expect(team.effects?.cascade.map((x) => [x.id, x.alsoDeleted])).toEqual([
      [UI_OWNERSHIP, false],
      [ownershipId, true],
    ]);
  });
});

describe('lifecycle.ignore_changes', () => {
  const id = mine('dq_owner', 't');
  const live: LiveState = { dq_owner: [owner(id, 'Live title')] };

  it('"all": the live object is kept as it is, whatever the code says', () => {
    const p = planOf(tf({ dq_owner: { t: { title: 'Code title', lifecycle: { ignore_changes: 'all' } } } }), live);
    expect(p.changes.map((c) => [c.action, c.patch, (c.after as { title: string }).title])).toEqual([['noop', [], 'Live title']]);
  });

  it('a field the live object does not have: the code\'s value is dropped, not written', () => {
    const p = planOf(tf({ dq_data_product: { p: { title: 'P', description: 'from code', lifecycle: { ignore_changes: ['description'] } } } }), {
      dq_data_product: [{ key: mine('dq_data_product', 'p'), id: mine('dq_data_product', 'p'), raw: { id: mine('dq_data_product', 'p'), title: 'P', entityId: `dataproduct-${mine('dq_data_product', 'p')}` } }],
    });
    expect(p.changes.map((c) => [c.action, c.after])).toEqual([['noop', expect.not.objectContaining({ description: expect.anything() })]]);
  });

  it('another field still changes', () => {
    const p = planOf(tf({ dq_owner: { t: { title: 'Code title', lifecycle: { ignore_changes: ['contacts'] } } } }), live);
    expect(p.changes.map((c) => [c.action, c.patch])).toEqual([['update', [{ op: 'replace', path: '/title', value: 'Code title' }]]]);
  });
});

describe('change names', () => {
  it('every change but an unchanged one is named for a person: by the code\'s title, else live\'s', () => {
    const keep = mine('dq_owner', 'keep');
    const upd = mine('dq_owner', 'upd');
    const gone = mine('dq_owner', 'gone');
    const p = planOf(tf({ dq_owner: { keep: { title: 'Keep' }, upd: { title: 'New title' }, add: { title: 'Added' } } }), {
      dq_owner: [owner(keep, 'Keep'), owner(upd, 'Old title'), owner(gone, 'Gone team')],
      dq_alert: [alert('ui.x', { configId: undefined })],
    });
    expect(p.changes.map((c) => [c.address, c.action, c.name])).toEqual([
      ['dq_alert["ui.x"]', 'unmanaged', 'alert "Alert ui.x"'],
      ['dq_owner.add', 'create', 'owner "Added"'],
      ['dq_owner.keep', 'noop', undefined],
      ['dq_owner.upd', 'update', 'owner "New title"'],
      [`dq_owner["${gone}"]`, 'delete', 'owner "Gone team"'],
    ]);
  });
});

describe('what is left out of changes that write nothing (mutation run survivors)', () => {
  it('unmanaged and deleted entries carry no patch, no sensitive pointers and no dependencies', () => {
    const kept = planOf(tf({}, removed('dq_alert.orders', { destroy: false })), { dq_alert: [alert('shop.orders')] });
    const pruned = planOf(tf({}), { dq_alert: [alert('shop.a'), alert('x.b', { configId: 'other' })] });
    for (const c of [...kept.changes, ...pruned.changes]) expect([c.address, c.patch, c.sensitive, c.dependsOn]).toEqual([c.address, [], [], []]);
    expect(pruned.changes.map((c) => c.action)).toEqual(['delete', 'unmanaged']);
  });

  it('the "no namespace tag" detail is only for a tag-pruned kind made in the UI: not for a UI-made alert, nor an owner of another namespace', () => {
    const ui = planOf(tf({}, removed('dq_alert.x', { id: 'ui.x' })), { dq_alert: [alert('ui.x', { configId: undefined })] });
    expect(ui.diagnostics).toEqual([expect.objectContaining({ summary: 'declared removed, but alert "Alert ui.x" ("ui.x") was made in the UI, not by namespace "shop": dqform never deletes it', detail: undefined })]);
    const theirs = deriveId(WS, 'billing', 'dq_owner', 'team');
    const other = planOf(tf({}, removed('dq_owner.b', { id: theirs })), { dq_owner: [owner(theirs, 'Billing team')] });
    expect(other.diagnostics).toEqual([expect.objectContaining({ summary: `declared removed, but owner "Billing team" ("${theirs}") is managed by another namespace, not namespace "shop": dqform never deletes it`, detail: undefined })]);
  });
});
