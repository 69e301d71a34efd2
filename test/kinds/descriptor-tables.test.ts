/** Exact contents of the tables derived from the kind descriptors (src/kinds/descriptors.ts). */
import * as d from '../../src/kinds/descriptors';

describe('descriptor tables', () => {
  it('lists the kinds in dependency order', () => {
    expect(d.KINDS.map((k) => k.type)).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule', 'dq_integration', 'dq_saved_view', 'dq_check_categorisation_rule']);
    expect(d.kindOf('dq_alert')?.type).toBe('dq_alert');
    expect(d.kindOf('aws_s3_bucket')).toBeUndefined();
  });

  it('splits ownership into configId-pruned and tag-pruned kinds', () => {
    expect(d.PRUNABLE_TYPES).toEqual(['dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(d.TAG_PRUNED_TYPES).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_integration', 'dq_saved_view', 'dq_check_categorisation_rule']);
    expect(d.hasConfigId('dq_sql_test')).toBe(true);
    expect(d.hasConfigId('dq_owner')).toBe(false);
    expect(d.hasConfigId('nope')).toBe(false);
  });

  it('knows identity, concurrency and references', () => {
    expect([...d.ETAGLESS]).toEqual(['dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(d.UUID_KINDS).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_monitor_deployment_rule', 'dq_sql_test_deployment_rule', 'dq_saved_view', 'dq_check_categorisation_rule']);
    expect([...d.FQN_KEYED]).toEqual(['dq_alert']);
    expect(d.isFqnKeyed('dq_alert')).toBe(true);
    expect(d.isFqnKeyed('dq_owner')).toBe(false);
    expect(d.ENTITY_ID_PREFIX).toEqual({ dq_owner: 'owner-', dq_domain: 'domain-', dq_data_product: 'dataproduct-' });
    expect(d.TYPES_WITH_ENTITY_ID).toEqual(['dq_owner', 'dq_domain', 'dq_data_product']);
    expect([...d.DELETES_DEPENDENTS]).toEqual(['dq_owner']);
    expect(d.TYPE_PREFIX).toBe('dq_');
  });

  it('strips only known entity prefixes before a uuid, case-insensitively', () => {
    expect(d.stripEntityPrefix('domain-0123abcd-0000')).toBe('0123abcd-0000');
    expect(d.stripEntityPrefix('DataProduct-0123abcd-0000')).toBe('0123abcd-0000');
    expect(d.stripEntityPrefix('alert-0123abcd-0000')).toBe('alert-0123abcd-0000');
    expect(d.stripEntityPrefix('x-owner-0123abcd-0000')).toBe('x-owner-0123abcd-0000');
    expect(d.stripEntityPrefix('owner-0123abcg-0000')).toBe('owner-0123abcg-0000');
  });
});
