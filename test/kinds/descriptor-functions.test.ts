/**
 * The functions in the kinds' descriptors (what a delete takes along, how an ownership is named in
 * a plan and in imported code) and the handler registry helpers, with exact outputs.
 */
import { dataProductDescriptor } from '../../src/kinds/data-product/descriptor';
import { domainDescriptor } from '../../src/kinds/domain/descriptor';
import { allows, handlerFor, HANDLERS, WRITE_SCOPES } from '../../src/kinds/index';
import { monitorDeploymentRuleDescriptor } from '../../src/kinds/monitor-deployment-rule/descriptor';
import { ownershipDescriptor, selectionName } from '../../src/kinds/ownership/descriptor';
import { sameScopes, type TitleOf } from '../../src/kinds/shared/descriptor';

const titles: Record<string, string> = { 'dq_owner:o1': 'Data team', 'dq_data_product:p1': 'Orders' };
const titleOf: TitleOf = (type, id) => titles[`${type}:${String(id)}`];

describe('references', () => {
  it('domains: parent, member domains, member products', () => {
    const raw = { parentId: 'p', definition: { parts: [{ domainId: 'd1' }, { dataproductId: 'x1' }, { domainId: 'd2' }] } };
    expect(domainDescriptor.references!.map((r) => [r.to, r.effect, r.ids(raw)])).toEqual([
      ['dq_domain', 'loses-parent', ['p']],
      ['dq_domain', 'loses-member', ['d1', undefined, 'd2']],
      ['dq_data_product', 'loses-member', [undefined, 'x1', undefined]],
    ]);
    expect(domainDescriptor.references!.map((r) => r.ids({}))).toEqual([[undefined], [], []]);
    expect(domainDescriptor.parentField).toBe('parentId');
  });

  it('monitor rules: the product of a product rule', () => {
    const [r] = monitorDeploymentRuleDescriptor.references!;
    expect([r.to, r.effect, r.ids({ productConfig: { productId: 'p' } }), r.ids({})]).toEqual(['dq_data_product', 'loses-selection', ['p'], [undefined]]);
    expect(monitorDeploymentRuleDescriptor.preview).toEqual({ source: 'deploy-overview', overlapping: true });
  });

  it('ownerships: deleted with their owner, lose their product', () => {
    const [owner, product] = ownershipDescriptor.references!;
    expect([owner.to, owner.effect, owner.ids({ ownerId: 'o1' })]).toEqual(['dq_owner', 'deleted', ['o1']]);
    expect(owner.name!({ selection: { dataproductId: 'p1' } }, titleOf)).toBe('ownership over data product "Orders"');
    expect([product.to, product.effect, product.ids({ selection: { dataproductId: 'p1' } }), product.ids({})]).toEqual(['dq_data_product', 'loses-selection', ['p1'], [undefined]]);
    expect(dataProductDescriptor.references ?? []).toEqual([]);
  });
});

describe('ownership names', () => {
  it('selectionName: the product by title, else by id; a query by its ResolverQL; else "a query"', () => {
    expect(selectionName({ selection: { dataproductId: 'p1' } }, titleOf)).toBe('data product "Orders"');
    expect(selectionName({ selection: { dataproductId: 'p9' } }, titleOf)).toBe('data product p9');
    expect(selectionName({ selection: { query: { renderedResolverQl: 'R', resolverQl: 'Q' } } }, titleOf)).toBe('R');
    expect(selectionName({ selection: { query: { resolverQl: 'Q' } } }, titleOf)).toBe('Q');
    expect(selectionName({ selection: { query: { resolverQl: '' } } }, titleOf)).toBe('a query');
    expect(selectionName({ selection: { query: {} } }, titleOf)).toBe('a query');
    expect(selectionName({ selection: { dataproductId: 3 } }, titleOf)).toBe('a query');
    expect(selectionName({}, titleOf)).toBe('a query');
  });

  it('describe: the owner by title, else by id, else "?"', () => {
    const d = ownershipDescriptor.describe!;
    expect(d({ ownerId: 'o1', selection: { dataproductId: 'p1' } }, titleOf)).toBe('ownership of "Data team" over data product "Orders"');
    expect(d({ ownerId: 'o9', selection: { query: { resolverQl: 'Q' } } }, titleOf)).toBe('ownership of owner o9 over Q');
    expect(d({}, titleOf)).toBe('ownership of owner ? over a query');
  });

  it('namedAfter: owner_owns_product, or _selection; nothing without a named owner', () => {
    const n = ownershipDescriptor.namedAfter!;
    const names: Record<string, string> = { 'dq_owner:o1': 'team', 'dq_data_product:p1': 'orders' };
    const nameOf: TitleOf = (type, id) => names[`${type}:${String(id)}`];
    expect(n({ ownerId: 'o1', selection: { dataproductId: 'p1' } }, nameOf)).toBe('team_owns_orders');
    expect(n({ ownerId: 'o1', selection: { query: {} } }, nameOf)).toBe('team_owns_selection');
    expect(n({ ownerId: 'o1' }, nameOf)).toBe('team_owns_selection');
    expect(n({ ownerId: 'o9', selection: { dataproductId: 'p1' } }, nameOf)).toBeUndefined();
  });
});

describe('scopes and the handler registry', () => {
  it('sameScopes: the write set for create, update and delete; a batch set only when given', () => {
    expect(sameScopes(['W'], ['R'])).toStrictEqual({ read: ['R'], create: ['W'], update: ['W'], delete: ['W'] });
    expect(sameScopes(['W'], ['R'], ['B'])).toStrictEqual({ read: ['R'], create: ['W'], update: ['W'], delete: ['W'], batch: ['B'] });
  });

  it('allows: any scope of the need, nothing needed for none', () => {
    expect(allows(['a', 'b'], ['c', 'b'])).toBe(true);
    expect(allows(new Set(['a']), ['b'])).toBe(false);
    expect(allows([], [])).toBe(true);
    expect(allows(['a'], [])).toBe(true);
  });

  it('handlerFor: the kind’s handler; an unknown type is an error naming it', () => {
    expect(handlerFor('dq_owner')).toBe(HANDLERS.dq_owner);
    expect(handlerFor('dq_owner').type).toBe('dq_owner');
    expect(() => handlerFor('dq_widget')).toThrow('no handler for resource type dq_widget');
  });

  it('WRITE_SCOPES: the union of create, update and delete, without repeats', () => {
    expect(WRITE_SCOPES.dq_alert).toEqual(['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE']);
    expect(WRITE_SCOPES.dq_domain).toEqual(['SCOPE_DOMAIN_EDIT', 'SCOPE_MCP_WRITE']);
  });
});
