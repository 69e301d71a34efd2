/**
 * Pruning every kind by its namespace (issue 11), through the real handlers' normalisation and
 * the pure planner: domains, data products, owners and ownerships are the namespace's when their
 * id carries its tag; what a delete takes with it is shown; `removed` never deletes an object
 * made in the UI or tagged for another namespace; two stacks never share an object.
 */
import type { LiveObject } from '../../src/kinds/shared/types';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest, type SiblingStack } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { renderMarkdown, renderText } from '../../src/cli/render';
import type { ResourceType } from '../../schemas/model/manifest';
import { reasonsText } from '../../src/plan/reasons-text';

const WS = 'demo';
const NS = 'shop';
const tf = (resources: Record<string, unknown>, extra: Record<string, unknown> = {}, ns = NS) => ({ provider: { dq: [{ namespace: ns }] }, resource: resources, ...extra });
const mine = (type: ResourceType, name: string) => deriveId(WS, NS, type, name);
const theirs = (type: ResourceType, name: string) => deriveId(WS, 'billing', type, name);
const UI_OWNER = '5eed0000-0000-4000-8000-000000000e7a';
const UI_OWNERSHIP = '5eed0000-0000-4000-8000-0000000005e1';
const UI_DOMAIN = '5eed0000-0000-4000-8000-0000000d0a1a';

const obj = (id: string, raw: Record<string, unknown>, over: Partial<LiveObject> = {}): LiveObject => ({ key: id, id, etag: `W/"${id}-1"`, raw: { id, etag: `W/"${id}-1"`, ...raw }, ...over });
const owner = (id: string, title: string) => obj(id, { title, contacts: [], entityId: `owner-${id}` });
const ownership = (id: string, ownerId: string, selection: Record<string, unknown>, context = false) => obj(id, { ownerId, selection }, context ? { context: true } : {});
const domain = (id: string, name: string, more: Record<string, unknown> = {}, context = false) => obj(id, { name, ...more }, context ? { context: true } : {});
const product = (id: string, title: string) => obj(id, { title, entityId: `dataproduct-${id}` });

function planOf(doc: unknown, live: LiveState, siblings: SiblingStack[] = []) {
  const m = manifestFromTerraformJson(doc, { stack: NS });
  return computePlan({ resolution: resolveManifest(m, WS, { siblings }), live, handlers: HANDLERS, manifestHash: 'h', knownNamespaces: siblings.map((s) => s.namespace) });
}
const actions = (p: ReturnType<typeof planOf>) => p.changes.map((c) => `${c.action} ${c.address}`);

describe('pruning by the namespace tag', () => {
  const live: LiveState = {
    dq_owner: [owner(mine('dq_owner', 'team'), 'Data team')],
    dq_ownership: [
      ownership(mine('dq_ownership', 'orders'), mine('dq_owner', 'team'), { dataproductId: mine('dq_data_product', 'orders') }),
      ownership(UI_OWNERSHIP, mine('dq_owner', 'team'), { query: { resolverQl: 'with_tag("pii")', renderedResolverQl: 'with_tag("pii")' } }, true),
    ],
    dq_data_product: [product(mine('dq_data_product', 'orders'), 'Orders')],
    dq_domain: [domain(mine('dq_domain', 'sales'), 'Sales'), domain(UI_DOMAIN, 'EMEA (made in the UI)', { parentId: mine('dq_domain', 'sales') }, true)],
  };

  it.each<[string, Record<string, unknown>, string[]]>([
    ['everything declared: no changes', {
      dq_owner: { team: { title: 'Data team' } },
      dq_data_product: { orders: { title: 'Orders' } },
      dq_ownership: { orders: { owner_id: '${dq_owner.team.id}', selection: { dataproduct_id: '${dq_data_product.orders.id}' } } },
      dq_domain: { sales: { name: 'Sales' } },
    }, ['noop dq_data_product.orders', 'noop dq_domain.sales', 'noop dq_owner.team', 'noop dq_ownership.orders']],
    ['the ownership removed from code: only it is deleted; the UI-made ownership of the same owner is neither deleted nor listed', {
      dq_owner: { team: { title: 'Data team' } },
      dq_data_product: { orders: { title: 'Orders' } },
      dq_domain: { sales: { name: 'Sales' } },
    }, ['noop dq_data_product.orders', 'noop dq_domain.sales', 'noop dq_owner.team', `delete dq_ownership["${mine('dq_ownership', 'orders')}"]`]],
    ['nothing declared: all four kinds pruned, UI-made and context objects untouched', {}, [
      `delete dq_data_product["${mine('dq_data_product', 'orders')}"]`,
      `delete dq_domain["${mine('dq_domain', 'sales')}"]`,
      `delete dq_owner["${mine('dq_owner', 'team')}"]`,
      `delete dq_ownership["${mine('dq_ownership', 'orders')}"]`,
    ]],
  ])('%s', (_why, resources, want) => {
    expect(actions(planOf(tf(resources), live))).toEqual(want);
  });

  it('objects made in the UI or tagged for another namespace are never pruned (the read drops them; if handed over anyway, still not)', () => {
    const p = planOf(tf({}), { dq_owner: [owner(UI_OWNER, 'Made in the UI'), owner(theirs('dq_owner', 'team'), 'Billing team')], dq_domain: [domain(UI_DOMAIN, 'UI')] });
    expect(p.changes).toEqual([]);
    expect(p.diagnostics).toEqual([]);
  });

  it('a delete shows what goes with it, and names what is deleted', () => {
    const p = planOf(tf({}), live);
    const by = (a: string) => p.changes.find((c) => c.address.startsWith(a))!;
    expect(reasonsText(by('dq_owner['))).toEqual(['owner "Data team" is no longer declared in namespace "shop"']);
    expect(reasonsText(by('dq_ownership['))).toEqual(['ownership of "Data team" over data product "Orders" is no longer declared in namespace "shop"']);
    expect(by('dq_owner[').effects?.cascade).toEqual([
      { effect: 'deleted', type: 'dq_ownership', id: mine('dq_ownership', 'orders'), name: 'ownership over data product "Orders"', managedBy: 'this namespace', alsoDeleted: true },
      { effect: 'deleted', type: 'dq_ownership', id: UI_OWNERSHIP, name: 'ownership over with_tag("pii")', managedBy: 'made in the UI', alsoDeleted: false },
    ]);
    expect(by('dq_domain[').effects?.cascade).toEqual([
      { effect: 'loses-parent', type: 'dq_domain', id: UI_DOMAIN, name: 'domain "EMEA (made in the UI)"', managedBy: 'made in the UI', alsoDeleted: false },
    ]);
    expect(by('dq_data_product[').effects?.cascade).toEqual([
      { effect: 'loses-selection', type: 'dq_ownership', id: mine('dq_ownership', 'orders'), name: 'ownership of "Data team" over data product "Orders"', managedBy: 'this namespace', alsoDeleted: true },
    ]);
    const text = renderText(p);
    expect(text).toContain('! deleted with it: 2 ownership(s): ownership over data product "Orders" (this namespace, also deleted by this plan), ownership over with_tag("pii") (made in the UI)');
    expect(text).toContain('left with a deleted parent domain: 1 domain(s): domain "EMEA (made in the UI)" (made in the UI)');
    expect(renderMarkdown(p)).toContain(`\`dq_owner["${mine('dq_owner', 'team')}"]\` (owner "Data team") will be destroyed, and with it 2 objects (1 not deleted by this plan)`);
  });

  it('a domain listing a deleted data product or domain as a member, and a product rule of it, are shown', () => {
    const pid = mine('dq_data_product', 'orders');
    const ruleId = theirs('dq_monitor_deployment_rule', 'r');
    const p = planOf(tf({}), {
      dq_data_product: [product(pid, 'Orders')],
      dq_domain: [domain(UI_DOMAIN, 'Retail', { definition: { parts: [{ dataproductId: pid }] } }, true)],
      dq_monitor_deployment_rule: [{ key: ruleId, id: ruleId, configId: 'billing', raw: { id: ruleId, title: 'Orders monitors', configId: 'billing', productConfig: { productId: `dataproduct-${pid}` } } }],
    });
    const c = p.changes.find((x) => x.type === 'dq_data_product')!;
    expect(c.effects?.cascade.map((x) => `${x.effect} ${x.name} (${x.managedBy})`)).toEqual([
      'loses-member domain "Retail" (made in the UI)',
      'loses-selection monitor deployment rule "Orders monitors" (namespace "billing")',
    ]);
  });
});

describe('removed blocks', () => {
  const tagged = mine('dq_owner', 'team');
  const live: LiveState = { dq_owner: [owner(tagged, 'Data team'), owner(UI_OWNER, 'Made in the UI'), owner(theirs('dq_owner', 'team'), 'Billing team')] };
  const removed = (from: string, id?: string, destroy = true) => ({ removed: [{ from, ...(id ? { id } : {}), lifecycle: { destroy } }] });

  it.each<[string, Record<string, unknown>, string[], RegExp | undefined]>([
    ['destroy = false keeps a tagged object from being pruned, and says to keep the block', removed('dq_owner.team', undefined, false), ['forget dq_owner.team'], undefined],
    ['destroy = true deletes a tagged one', removed('dq_owner.team'), ['delete dq_owner.team'], undefined],
    ['never a UI-made owner, even named by id', removed('dq_owner.ui', UI_OWNER), [`delete dq_owner["${tagged}"]`], /owner "Made in the UI" \("5eed0000-0000-4000-8000-000000000e7a"\) was made in the UI, not by namespace "shop": dqform never deletes it/],
    ['never one tagged for another namespace', removed('dq_owner.b', theirs('dq_owner', 'team')), [`delete dq_owner["${tagged}"]`], /owner "Billing team" .* is managed by another namespace, not namespace "shop"/],
    ['destroy = false on a UI-made owner: left alone, no error', removed('dq_owner.ui', UI_OWNER, false), ['forget dq_owner.ui', `delete dq_owner["${tagged}"]`], undefined],
  ])('%s', (_why, extra, want, error) => {
    const p = planOf(tf({}, extra), live);
    expect(actions(p)).toEqual(want);
    const errors = p.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary);
    if (error) expect(errors).toEqual([expect.stringMatching(error)]);
    else expect(errors).toEqual([]);
  });

  it('destroy = false: the reason says the object stays and the block must stay', () => {
    const p = planOf(tf({}, removed('dq_owner.team', undefined, false)), live);
    expect(reasonsText(p.changes[0])).toEqual([
      'removed with destroy = false: owner "Data team" stays in place, no longer managed; keep the removed block while it exists (it carries this namespace\'s tag, so without the block the next plan deletes it)',
    ]);
    expect(renderText(p)).toMatch(/Not managed here \(1, never changed by this stack\):\n {2}\? dq_owner\.team \(owner "[^"]+"\): removed with destroy = false/);
  });

  it('works for alerts too: destroy = false keeps an alert of the namespace', () => {
    const fqn = 'shop.a';
    const a: LiveObject = { key: fqn, id: 'a1', configId: NS, raw: { id: 'a1', fqn, name: 'A', configId: NS, issueLifecycle: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } } };
    expect(actions(planOf(tf({}), { dq_alert: [a] }))).toEqual(['delete dq_alert["shop.a"]']);
    expect(actions(planOf(tf({}, removed('dq_alert.a', undefined, false)), { dq_alert: [a] }))).toEqual(['forget dq_alert.a']);
  });
});

describe('identity blocks and two stacks', () => {
  it('moved and import blocks without pins make ONE info line per plan', () => {
    const p = planOf(
      tf(
        { dq_owner: { b: { title: 'B' }, c: { title: 'C' } }, dq_domain: { d: { name: 'D' } } },
        { moved: [{ from: 'dq_owner.a', to: 'dq_owner.b' }, { from: 'dq_domain.x', to: 'dq_domain.d' }], import: [{ to: 'dq_owner.c', id: UI_OWNER }] },
      ),
      { dq_owner: [owner(UI_OWNER, 'C')] },
    );
    expect(p.diagnostics.map((d) => [d.severity, d.summary])).toEqual([
      ['info', '2 moved and 1 import block(s) hold the identity of their objects: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)'],
    ]);
    expect(p.diagnostics[0].detail).toBe(
      `dq_domain.d: moved from dq_domain.x, or pin id = "${mine('dq_domain', 'x')}"; dq_owner.b: moved from dq_owner.a, or pin id = "${mine('dq_owner', 'a')}"; dq_owner.c: imported "${UI_OWNER}", or pin id = "${UI_OWNER}"`,
    );
    expect(renderText(p)).toMatch(/^Info: 2 moved and 1 import block\(s\)/m);
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    ['a pinned id tagged for another namespace', { dq_owner: { t: { id: theirs('dq_owner', 'team'), title: 'T' } } }, /pinned id ".*" carries the tag of namespace "billing" \(stack "billing" of this app\), not of namespace "shop" \(this stack\)/],
    ['an imported id tagged for another namespace', { dq_domain: { d: { name: 'D' } }, import: undefined }, /imported id ".*" carries the tag of namespace "billing"/],
  ])('%s is an error naming both', (_why, resources, re) => {
    const extra = 'import' in resources ? { import: [{ to: 'dq_domain.d', id: theirs('dq_domain', 'd') }] } : {};
    const { import: _i, ...res } = resources;
    const sib: SiblingStack = { stack: 'billing', namespace: 'billing', manifest: manifestFromTerraformJson(tf({}, {}, 'billing'), { stack: 'billing' }) };
    const p = planOf(tf(res, extra), { dq_domain: [domain(theirs('dq_domain', 'd'), 'D')] }, [sib]);
    expect(p.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary)).toEqual([expect.stringMatching(re)]);
  });

  it('an id tagged for a namespace this app does not declare still refuses, naming "another namespace"', () => {
    const p = planOf(tf({ dq_owner: { t: { id: deriveId(WS, 'nobody-here', 'dq_owner', 'x'), title: 'T' } } }), {});
    expect(p.diagnostics.map((d) => d.summary)).toEqual([expect.stringMatching(/carries the tag of another namespace, not of namespace "shop"/)]);
  });

  it('two stacks declaring the same pinned object, or sharing a namespace, are errors naming both', () => {
    const pinned = '11111111-1111-4111-8111-111111111111';
    const other = manifestFromTerraformJson(tf({ dq_owner: { theirs: { id: pinned, title: 'X' } } }, {}, 'billing'), { stack: 'billing' });
    const p = planOf(tf({ dq_owner: { mine: { id: `owner-${pinned}`, title: 'X' } } }), {}, [{ stack: 'billing', namespace: 'billing', manifest: other }]);
    expect(p.diagnostics.map((d) => d.summary)).toEqual([
      `dq_owner.mine (stack "shop", namespace "shop") and dq_owner.theirs (stack "billing", namespace "billing") declare the same owner "${pinned}": two stacks would fight over it`,
    ]);
    const same = manifestFromTerraformJson(tf({}, {}, NS), { stack: 'shop-copy' });
    const q = planOf(tf({}), {}, [{ stack: 'shop-copy', namespace: NS, manifest: same }]);
    expect(q.diagnostics.map((d) => d.summary)).toEqual(['stacks "shop" and "shop-copy" both use namespace "shop": each would delete what only the other declares']);
  });
});
