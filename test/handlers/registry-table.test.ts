/**
 * Every handler's identity in one table: its type, the label the plan prints, whether the
 * namespace prunes it, and that only alerts have replace reasons. (Written for the survivors of
 * the mutation run of src/handlers, issue 12.)
 *
 * @gateway
 */
import { HANDLERS, SCOPES } from '../../src/kinds/index';
import { hasConfigId } from '../../src/kinds/descriptors';

test('type, label and pruning of every kind', () => {
  expect(Object.values(HANDLERS).map((h) => [h.type, h.label, hasConfigId(h.type)])).toEqual([
    ['dq_owner', 'owner', false],
    ['dq_domain', 'domain', false],
    ['dq_data_product', 'data product', false],
    ['dq_ownership', 'ownership', false],
    ['dq_alert', 'alert', true],
    ['dq_monitor_deployment_rule', 'monitor deployment rule', true],
    ['dq_sql_test', 'SQL test', true],
    ['dq_sql_test_deployment_rule', 'SQL-test deployment rule', true],
    ['dq_integration', 'integration', false],
    ['dq_saved_view', 'saved view', false],
    ['dq_check_categorisation_rule', 'check categorisation rule', false],
  ]);
  for (const [type, h] of Object.entries(HANDLERS)) expect(h.type).toBe(type);
});

test('replace reasons: a list for every kind, empty for all but alerts', () => {
  for (const h of Object.values(HANDLERS)) {
    const r = h.replaceReasons({ title: 'a' }, { title: 'b' });
    expect(Array.isArray(r)).toBe(true);
    if (h.type !== 'dq_alert') expect(r).toEqual([]);
  }
});

test('the scope sets apply checks before the first write, as wire-facts lists them per operation (any one of a set suffices)', () => {
  const gov = (edit: string, read: string) => ({ read: [read, 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'], create: [edit, 'SCOPE_MCP_WRITE'], update: [edit, 'SCOPE_MCP_WRITE'], delete: [edit, 'SCOPE_MCP_WRITE'] });
  expect(SCOPES).toEqual({
    dq_owner: gov('SCOPE_OWNERS_EDIT', 'SCOPE_OWNERS_READ'),
    dq_domain: gov('SCOPE_DOMAIN_EDIT', 'SCOPE_DOMAIN_READ'),
    dq_data_product: gov('SCOPE_DATAPRODUCT_EDIT', 'SCOPE_DATAPRODUCT_READ'),
    dq_ownership: gov('SCOPE_OWNERSHIP_EDIT', 'SCOPE_OWNERSHIP_READ'),
    // Create: wire-facts 3 ALERTS_EDIT, spec 4.1 MCP_WRITE; Upsert (update): spec 4.1 MCP_WRITE only
    dq_alert: { read: ['SCOPE_ALERTS_READ'], create: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'], update: ['SCOPE_MCP_WRITE'], delete: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'] },
    dq_monitor_deployment_rule: {
      read: ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_READ'],
      create: ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'],
      update: ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'],
      delete: ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'],
      batch: ['SCOPE_MONITORS_AUTOMATIC_EDIT'],
    },
    dq_sql_test: {
      read: ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'],
      create: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
      update: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
      delete: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
      batch: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
    },
    dq_sql_test_deployment_rule: {
      read: ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'],
      create: ['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'],
      update: ['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'],
      delete: ['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'],
      batch: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
    },
    // wire-facts 8: writes INTEGRATION_EDIT; BatchGet and List INTEGRATION_READ or INTEGRATION_EDIT
    dq_integration: { read: ['SCOPE_INTEGRATION_READ', 'SCOPE_INTEGRATION_EDIT'], create: ['SCOPE_INTEGRATION_EDIT'], update: ['SCOPE_INTEGRATION_EDIT'], delete: ['SCOPE_INTEGRATION_EDIT'] },
    // wire-facts 10; spec note 8: edit covers the credential's own views, admin all of them
    dq_saved_view: {
      read: ['SCOPE_SAVED_VIEW_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'],
      create: ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE'],
      update: ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE'],
      delete: ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE'],
    },
    // wire-facts 10: rules Upsert/Delete POLICIES_EDIT or MCP_WRITE; reads "the read set" (categories': POLICIES_READ, POLICIES_EDIT, SRE_AGENT, MCP_READ)
    dq_check_categorisation_rule: {
      read: ['SCOPE_POLICIES_READ', 'SCOPE_POLICIES_EDIT', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'],
      create: ['SCOPE_POLICIES_EDIT', 'SCOPE_MCP_WRITE'],
      update: ['SCOPE_POLICIES_EDIT', 'SCOPE_MCP_WRITE'],
      delete: ['SCOPE_POLICIES_EDIT', 'SCOPE_MCP_WRITE'],
    },
  });
});
