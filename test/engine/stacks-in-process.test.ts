/**
 * The checks that span the stacks of one app, in process (test/cli/stacks.test.ts runs them
 * through the CLI, which the mutation runs cannot see): an id pinned or imported with another
 * namespace's tag, two stacks sharing a namespace, two stacks declaring one object; each word for
 * word, in the stacks' sorted order. (Written for the survivors of the mutation run of src/engine,
 * issue 12.)
 */
import { deriveId } from '../../src/engine/identity';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';

const tf = (ns: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({ provider: { dq: [{ namespace: ns }] }, resource: resources, ...extra });
const alert = (name: string) => ({ name, fqn: 'x.y', issue_lifecycle: { trigger: { resolver_ql: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } });

test('foreign tags, a shared namespace and objects declared twice', () => {
  const billingTeam = deriveId('demo', 'billing', 'dq_owner', 'team');
  const zetaOwner = deriveId('demo', 'zeta', 'dq_owner', 'q');
  const shop = manifestFromTerraformJson(
    tf('shop', { dq_owner: { team: { title: 'T', id: billingTeam, '//': { metadata: { path: 'shop/team' } } }, imp: { title: 'I' } }, dq_alert: { a: alert('a') } }, { import: [{ to: 'dq_owner.imp', id: zetaOwner }] }),
    { stack: 'shop' },
  );
  const billing = manifestFromTerraformJson(tf('billing', { dq_owner: { team: { title: 'T' } }, dq_alert: { b: alert('b') } }), { stack: 'billing-stack' });
  const shop2 = manifestFromTerraformJson(tf('shop', { dq_owner: { z: { title: 'Z' } } }), { stack: 'a-shop2' });
  const siblings = [
    { stack: 'billing-stack', namespace: 'billing', manifest: billing },
    { stack: 'shop', namespace: 'shop', manifest: shop },
    { stack: 'a-shop2', namespace: 'shop', manifest: shop2 },
  ];
  const errors = resolveManifest(shop, 'demo', { siblings }).diagnostics.filter((d) => d.severity === 'error');
  const fight = 'Declare it in one stack only; in the other, drop it (removed { from, id, lifecycle { destroy = false } } leaves it in place).';
  expect(errors).toEqual([
    {
      severity: 'error',
      summary: `imported id "${zetaOwner}" carries the tag of another namespace, not of namespace "shop" (this stack): two stacks would manage one object`,
      address: 'dq_owner.imp',
      hint: 'An object belongs to the namespace its id is tagged with. Manage it in the stack of that namespace, or drop the import block so that this stack creates its own object.',
    },
    {
      severity: 'error',
      summary: `pinned id "${billingTeam}" carries the tag of namespace "billing" (stack "billing-stack" of this app), not of namespace "shop" (this stack): two stacks would manage one object`,
      address: 'dq_owner.team',
      source: 'shop/team',
      field: 'id',
      hint: 'An object belongs to the namespace its id is tagged with. Manage it in stack "billing-stack", or drop the pinned id so that this stack creates its own object.',
    },
    { severity: 'error', summary: 'stacks "shop" and "a-shop2" both use namespace "shop": each would delete what only the other declares', hint: 'Give every stack its own namespace.' },
    {
      severity: 'error',
      summary: 'dq_alert.a (stack "shop", namespace "shop") and dq_alert.b (stack "billing-stack", namespace "billing") declare the same alert fqn "x.y": two stacks would fight over it',
      address: 'dq_alert.a',
      hint: fight,
    },
    {
      severity: 'error',
      summary: `dq_owner.team (stack "shop", namespace "shop") and dq_owner.team (stack "billing-stack", namespace "billing") declare the same owner "${billingTeam}": two stacks would fight over it`,
      address: 'dq_owner.team',
      source: 'shop/team',
      hint: fight,
    },
  ]);
});

test('without siblings none of these checks speak', () => {
  const m = manifestFromTerraformJson(tf('shop', { dq_owner: { team: { title: 'T' } }, dq_alert: { a: alert('a') } }), { stack: 'shop' });
  expect(resolveManifest(m, 'demo').diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
});
