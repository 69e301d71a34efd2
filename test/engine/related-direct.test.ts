/**
 * What the plan says about live objects beyond their fields (related.ts): who manages an object,
 * how a person knows it, and what the platform does to other objects when one is deleted, in a
 * fixed order. The review of a delete relies on these words (issue 23: in-process tests beside
 * the CLI ones).
 */
import { deriveId } from '../../src/engine/identity';
import { cascadeEffects, cascadeOf, LiveIndex } from '../../src/engine/related';
import { selectionName } from '../../src/kinds/ownership/descriptor';
import type { LiveObject } from '../../src/kinds/shared/types';

/** A UUID (the `owner-`/`domain-`/`dataproduct-` prefixes are stripped only before one). */
const U = (n: number) => `${String(n).padStart(8, 'a')}-0000-4000-8000-000000000000`;
const obj = (id: string, raw: Record<string, unknown>, extra: Partial<LiveObject> = {}): LiveObject => ({ key: id, id, raw: { id, ...raw }, ...extra });

describe('managedBy', () => {
  const mine = deriveId('w', 'shop', 'dq_owner', 'a');
  const dev = deriveId('w', 'dev', 'dq_owner', 'b');
  const far = deriveId('w', 'far', 'dq_owner', 'c');
  const ix = new LiveIndex({ dq_alert: [obj('x', {}, { configId: 'dev' })] }, 'w', 'shop');

  test('kinds with configId: this namespace, another by name, or made in the UI', () => {
    expect(ix.managedBy('dq_alert', obj('a', {}, { configId: 'shop' }))).toBe('this namespace');
    expect(ix.managedBy('dq_alert', obj('a', {}, { configId: 'dev' }))).toBe('namespace "dev"');
    expect(ix.managedBy('dq_alert', obj('a', {}))).toBe('made in the UI');
  });

  test('kinds without configId: by the tag of the id, named when the namespace is known here', () => {
    expect(ix.managedBy('dq_owner', obj(mine, {}))).toBe('this namespace');
    expect(ix.managedBy('dq_owner', obj(dev, {}))).toBe('namespace "dev"');
    expect(ix.managedBy('dq_owner', obj(far, {}))).toBe('another namespace');
    expect(new LiveIndex({}, 'w', 'shop', ['far']).managedBy('dq_owner', obj(far, {}))).toBe('namespace "far"');
    expect(ix.managedBy('dq_owner', obj('ui-made', {}))).toBe('made in the UI');
  });

  test('known namespaces: those seen live and given, sorted, never this one', () => {
    expect(new LiveIndex({ dq_alert: [obj('a', {}, { configId: 'zeta' }), obj('b', {}, { configId: 'shop' })] }, 'w', 'shop', ['alpha', 'shop']).knownNamespaces).toEqual(['alpha', 'zeta']);
  });
});

describe('names', () => {
  const ix = new LiveIndex({ dq_owner: [obj(U(1), { title: 'Live team' })], dq_data_product: [obj(U(2), { name: 'Orders' })] }, 'w', 'shop');

  test('an object by its kind and title or name; none without one', () => {
    expect(ix.nameOf('dq_alert', { name: 'Orders late' })).toBe('alert "Orders late"');
    expect(ix.nameOf('dq_owner', { title: 'Team' })).toBe('owner "Team"');
    expect(ix.nameOf('dq_owner', { title: '' })).toBeUndefined();
    expect(ix.nameOf('dq_owner', null)).toBeUndefined();
    expect(ix.nameOf('dq_sql_test_deployment_rule', { name: 'r' })).toBe('SQL-test deployment rule "r"');
  });

  test("an ownership by its owner's title and the data product it selects; the code's title wins over live's", () => {
    const raw = { ownerId: `owner-${U(1).toUpperCase()}`, selection: { dataproductId: `dataproduct-${U(2)}` } };
    expect(ix.nameOf('dq_ownership', raw)).toBe('ownership of "Live team" over data product "Orders"');
    ix.declare('dq_owner', U(1), { title: 'Code team' });
    expect(ix.displayName('dq_ownership', raw)).toBe('ownership of "Code team" over data product "Orders"');
    expect(ix.displayName('dq_ownership', { ownerId: 'o9', selection: { dataproductId: 'p9' } })).toBe('ownership of owner o9 over data product p9');
    expect(ix.displayName('dq_ownership', { selection: { query: { resolverQl: 'table = "t"' } } })).toBe('ownership of owner ? over table = "t"');
    const titleOf = () => undefined;
    expect(selectionName({ selection: { query: { renderedResolverQl: 'a', resolverQl: 'b' } } }, titleOf)).toBe('a');
    expect(selectionName({}, titleOf)).toBe('a query');
  });

  test('an object without a name shows its id', () => {
    expect(ix.displayName('dq_owner', { id: 'o7' })).toBe('owner "o7"');
    expect(ix.displayName('dq_alert', { fqn: 'shop.a' })).toBe('alert "shop.a"');
  });
});

describe('cascadeOf', () => {
  test("deleting an owner deletes its ownerships (whatever the id form), marked when the plan deletes them too", () => {
    const live = {
      dq_ownership: [obj('s2', { ownerId: `owner-${U(1).toUpperCase()}`, selection: { dataproductId: 'p' } }), obj('s1', { ownerId: U(1), selection: { query: { resolverQl: 'q' } } }), obj('s3', { ownerId: U(3) })],
      dq_data_product: [obj('p', { name: 'Orders' })],
    };
    const c = cascadeOf('dq_owner', `owner-${U(1)}`, new LiveIndex(live, 'w', 'shop'), new Set(['dq_ownership\u0000s1']));
    expect(c.map((x) => [x.effect, x.id, x.name, x.alsoDeleted, x.managedBy])).toEqual([
      ['deleted', 's2', 'ownership over data product "Orders"', false, 'made in the UI'],
      ['deleted', 's1', 'ownership over q', true, 'made in the UI'],
    ]);
    expect(cascadeEffects(c)?.source).toBe('cascade');
    expect(cascadeEffects([])).toBeUndefined();
  });

  test('deleting a domain: sub-domains lose their parent, domains lose it as a member; the domain itself is not in its own cascade', () => {
    const live = {
      dq_domain: [
        obj(U(1), { name: 'Root', parentId: `domain-${U(1)}`, definition: { parts: [{ domainId: U(1) }] } }),
        obj('d3', { name: 'Child B', parentId: U(1) }),
        obj('d2', { name: 'Child A', parentId: U(1).toUpperCase() }),
        obj('d4', { name: 'Group', definition: { parts: [{ domainId: U(9) }, { domainId: `domain-${U(1)}` }] } }),
      ],
    };
    const c = cascadeOf('dq_domain', U(1), new LiveIndex(live, 'w', 'shop'), new Set());
    expect(c.map((x) => [x.effect, x.name])).toEqual([
      ['loses-member', 'domain "Group"'],
      ['loses-parent', 'domain "Child A"'],
      ['loses-parent', 'domain "Child B"'],
    ]);
  });

  test('deleting a data product: ownerships and product rules lose their selection, domains lose a member; other kinds have no cascade', () => {
    const live = {
      dq_ownership: [obj('s1', { ownerId: 'o', selection: { dataproductId: `dataproduct-${U(5).toUpperCase()}` } })],
      dq_owner: [obj('o', { title: 'T' })],
      dq_domain: [obj('d', { name: 'D', definition: { parts: [{ dataproductId: U(5) }] } })],
      dq_monitor_deployment_rule: [obj('r', { name: 'R', productConfig: { productId: U(5) } }), obj('r2', { name: 'R2', productConfig: { productId: U(6) } })],
      dq_data_product: [obj(U(5), { name: 'P' })],
    };
    const ix = new LiveIndex(live, 'w', 'shop');
    expect(cascadeOf('dq_data_product', U(5), ix, new Set()).map((x) => [x.effect, x.type, x.name])).toEqual([
      ['loses-member', 'dq_domain', 'domain "D"'],
      ['loses-selection', 'dq_monitor_deployment_rule', 'monitor deployment rule "R"'],
      ['loses-selection', 'dq_ownership', 'ownership of "T" over data product "P"'],
    ]);
    expect(cascadeOf('dq_alert', 'p', ix, new Set())).toEqual([]);
    expect(cascadeOf('dq_ownership', 's1', ix, new Set())).toEqual([]);
  });
});
