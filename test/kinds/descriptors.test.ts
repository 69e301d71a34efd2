/**
 * The per-kind tables the engine reads are derived from the kinds' descriptors (issue 24): they
 * must say exactly what the hand-written tables they replace said.
 */
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import { DELETES_DEPENDENTS, deletingReference, REFERENCES, ENTITY_ID_PREFIX, ETAGLESS, FQN_KEYED, hasConfigId, KINDS, kindOf, LABEL, PRUNABLE_TYPES, SCOPES, stripEntityPrefix, TAG_PRUNED_TYPES, TYPES_WITH_ENTITY_ID, UUID_KINDS } from '../../src/kinds/descriptors';
import { HANDLERS } from '../../src/kinds/index';
import { bareId } from '../../src/engine/identity';

describe('kind descriptors', () => {
  it('list every resource type once, in the manifest dependency order', () => {
    expect(KINDS.map((k) => k.type)).toEqual(RESOURCE_TYPES);
    expect(Object.keys(HANDLERS)).toEqual(RESOURCE_TYPES);
  });

  it('derive the ownership tables (configId vs the id tag)', () => {
    expect(PRUNABLE_TYPES).toEqual(['dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(TAG_PRUNED_TYPES).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_integration', 'dq_saved_view', 'dq_check_categorisation_rule']);
    for (const t of RESOURCE_TYPES) expect('prunable' in HANDLERS[t]).toBe(false);
    expect(hasConfigId('dq_widget')).toBe(false);
  });

  it('derive concurrency and identity tables', () => {
    expect([...ETAGLESS]).toEqual(['dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(UUID_KINDS).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_monitor_deployment_rule', 'dq_sql_test_deployment_rule', 'dq_saved_view', 'dq_check_categorisation_rule']);
    expect([...FQN_KEYED]).toEqual(['dq_alert']);
    expect(ENTITY_ID_PREFIX).toEqual({ dq_owner: 'owner-', dq_domain: 'domain-', dq_data_product: 'dataproduct-' });
    expect(TYPES_WITH_ENTITY_ID).toEqual(['dq_owner', 'dq_domain', 'dq_data_product']);
    expect(kindOf('dq_widget')).toBeUndefined();
  });

  it('label each kind as its handler does', () => {
    for (const t of RESOURCE_TYPES) expect(LABEL[t]).toBe(HANDLERS[t].label);
    expect(LABEL.dq_sql_test_deployment_rule).toBe('SQL-test deployment rule');
  });

  it('strip entity-id prefixes in one place (engine and handlers alike)', () => {
    const u = '0a1b2c3d-0000-4000-8000-000000000001';
    for (const p of ['owner-', 'DOMAIN-', 'dataproduct-']) expect(stripEntityPrefix(`${p}${u}`)).toBe(u);
    expect(stripEntityPrefix(`ownership-${u}`)).toBe(`ownership-${u}`);
    expect(stripEntityPrefix('owner-not-a-uuid')).toBe('owner-not-a-uuid');
    expect(bareId(`owner-${u}`)).toBe(u);
  });

  it('keep the scope sets per operation, rules batching with the edit scope only', () => {
    expect(SCOPES.dq_alert.update).toEqual(['SCOPE_MCP_WRITE']);
    expect(SCOPES.dq_monitor_deployment_rule.batch).toEqual(['SCOPE_MONITORS_AUTOMATIC_EDIT']);
    expect(SCOPES.dq_owner.batch).toBeUndefined();
  });

  it('declare the cascade references the engine used to hard-code', () => {
    expect(REFERENCES.map(({ from, ref }) => `${from} -> ${ref.to}: ${ref.effect}`)).toEqual([
      'dq_domain -> dq_domain: loses-parent',
      'dq_domain -> dq_domain: loses-member',
      'dq_domain -> dq_data_product: loses-member',
      'dq_ownership -> dq_owner: deleted',
      'dq_ownership -> dq_data_product: loses-selection',
      'dq_monitor_deployment_rule -> dq_data_product: loses-selection',
    ]);
    expect([...DELETES_DEPENDENTS]).toEqual(['dq_owner']);
    expect(deletingReference('dq_ownership', 'dq_owner')?.ids({ ownerId: 'o1' })).toEqual(['o1']);
    expect(deletingReference('dq_domain', 'dq_owner')).toBeUndefined();
    expect(kindOf('dq_monitor_deployment_rule')?.preview).toEqual({ source: 'deploy-overview', overlapping: true });
    expect(kindOf('dq_sql_test_deployment_rule')?.preview).toEqual({ source: 'sql-test-overview', overlapping: false });
  });
});
