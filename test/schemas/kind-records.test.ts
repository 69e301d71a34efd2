/**
 * Each kind's record (schemas/model/kind.ts), exported by its file in schemas/model/kinds/, is the
 * one place the schemas layer and the constructs learn of a resource type (issue 24): the
 * manifest's types, the YAML sections and the provider schema's entity ids are derived from the
 * records.
 */
import { KIND_RECORDS, RESOURCE_SCHEMAS, RESOURCE_TYPES } from '../../schemas/model/manifest';
import { SECTION_OF, YAML_ENTRY_SCHEMAS, YAML_SECTIONS } from '../../schemas/model/dqform-yaml';
import { DesiredDomain, YamlDomain } from '../../schemas/model/kinds/governance';
import { DesiredIntegration, YamlIntegration } from '../../schemas/model/kinds/integrations';
import { YamlCategorisationRule } from '../../schemas/model/kinds/categorisation-rules';
import { TYPES_WITH_ENTITY_ID as CONSTRUCT_ENTITY_ID_TYPES } from '../../constructs/codegen/provider-schema';
import { ENTITY_ID_PREFIX, TYPES_WITH_ENTITY_ID } from '../../src/kinds/descriptors';
import { SCHEMA_KIND_LOADERS } from '../../schemas/model/kinds.generated';

describe('kind records', () => {
  it('give the resource types in dependency order, each with its desired shape', () => {
    expect(RESOURCE_TYPES).toEqual(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership', 'dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule', 'dq_integration', 'dq_saved_view', 'dq_check_categorisation_rule']);
    expect(KIND_RECORDS.map((k) => k.type)).toEqual(RESOURCE_TYPES);
    for (const k of KIND_RECORDS) expect(RESOURCE_SCHEMAS[k.type as keyof typeof RESOURCE_SCHEMAS]).toBe(k.desired);
    expect(RESOURCE_SCHEMAS.dq_domain).toBe(DesiredDomain);
    expect(RESOURCE_SCHEMAS.dq_integration).toBe(DesiredIntegration);
  });

  it('are loaded once: a later read of a desired schema does not load the record again (issue 27: the bundle copies a module per require)', () => {
    const loader = SCHEMA_KIND_LOADERS.find((l) => l.type === 'dq_saved_view')!;
    const load = jest.spyOn(loader, 'load');
    try {
      const first = RESOURCE_SCHEMAS.dq_saved_view;
      for (let i = 0; i < 5; i++) expect(RESOURCE_SCHEMAS.dq_saved_view).toBe(first);
      // the first test read it already: loaded before this test, or at most once in it
      expect(load.mock.calls.length).toBeLessThanOrEqual(1);
    } finally {
      load.mockRestore();
    }
  });

  it('give the YAML sections, in the same order, and their entry shapes', () => {
    expect(YAML_SECTIONS).toEqual({
      owners: 'dq_owner',
      domains: 'dq_domain',
      dataProducts: 'dq_data_product',
      ownerships: 'dq_ownership',
      alerts: 'dq_alert',
      monitorDeploymentRules: 'dq_monitor_deployment_rule',
      sqlTests: 'dq_sql_test',
      sqlTestDeploymentRules: 'dq_sql_test_deployment_rule',
      integrations: 'dq_integration',
      savedViews: 'dq_saved_view',
      categorisationRules: 'dq_check_categorisation_rule',
    });
    expect(Object.keys(YAML_SECTIONS)).toEqual(RESOURCE_TYPES.map((t) => SECTION_OF[t]));
    expect(YAML_ENTRY_SCHEMAS.dq_domain).toBe(YamlDomain);
    expect(YAML_ENTRY_SCHEMAS.dq_integration).toBe(YamlIntegration);
    expect(YAML_ENTRY_SCHEMAS.dq_check_categorisation_rule).toBe(YamlCategorisationRule);
  });

  it('are where the constructs and the kinds learn which types have an entity id, and its prefix', () => {
    expect(CONSTRUCT_ENTITY_ID_TYPES).toEqual(['dq_owner', 'dq_domain', 'dq_data_product']);
    expect(CONSTRUCT_ENTITY_ID_TYPES).toEqual(TYPES_WITH_ENTITY_ID);
    expect(Object.fromEntries(KIND_RECORDS.filter((k) => k.entityIdPrefix).map((k) => [k.type, k.entityIdPrefix]))).toEqual(ENTITY_ID_PREFIX);
  });
});
