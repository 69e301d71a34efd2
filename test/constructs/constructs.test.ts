/** One test per construct: its props land in the synthesised JSON as the engine expects. */
import type { App } from 'cdktf';
import {
  Alert, Contact, DataProduct, Domain, DqStack, Entity, MonitorDeploymentRule, Owner, Ownership, Query, SqlTest, SqlTestDeploymentRule, Target, type MonitorSettingsProps,
} from '../../constructs';
import { synth, type TfJson } from './synth';

const rule: MonitorSettingsProps = { severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] };
function one(build: (s: DqStack) => void, props: { region?: 'eu' | 'us' | 'au'; baseUrl?: string } = {}): TfJson {
  return synth((app: App) => build(new DqStack(app, 's', { namespace: 'ns', ...props })), 's').json;
}
const strip = (r: Record<string, unknown>) => {
  const { '//': _m, ...rest } = r;
  return rest;
};

it('DqStack: provider block, required provider, relative local backend', () => {
  const json = one(() => undefined, { region: 'us', baseUrl: 'http://127.0.0.1:1234' });
  expect(json.provider.dq).toEqual([{ namespace: 'ns', region: 'us', base_url: 'http://127.0.0.1:1234' }]);
  expect(json.terraform).toEqual({ backend: { local: { path: 'terraform.s.tfstate' } }, required_providers: { dq: { source: 'dqform/dq', version: '0.1.0' } } });
});

it('Owner: title, contacts, pinned id; references are id and entity_id tokens', () => {
  let o!: Owner;
  const json = one((s) => {
    o = new Owner(s, 'team', { id: '0e6c3b1a-1111-4a4a-8b8b-222222222222', title: 'Team', contacts: [Contact.email(['a@b.co']), Contact.slack('#t'), Contact.msTeams('c1'), Contact.users(['u@b.co'])] });
  });
  expect(strip(json.resource.dq_owner.team)).toEqual({
    id: '0e6c3b1a-1111-4a4a-8b8b-222222222222',
    title: 'Team',
    contacts: [{ email: { recipient_emails: ['a@b.co'] } }, { slack: { channel: '#t' } }, { ms_teams: { channel_id: 'c1' } }, { users: { user_emails: ['u@b.co'] } }],
  });
  expect(o.node.path).toBe('s/team');
});

it('Domain: name, description, parent, parts of every kind; a data product with domain joins its parts', () => {
  const json = one((s) => {
    const top = new Domain(s, 'top', { name: 'Top' });
    const sub = new Domain(s, 'sub', { name: 'Sub', description: 'd', parent: top, parts: [{ entityId: 'e1' }, { query: Query.withTag('gold') }] });
    top.addPart({ domain: sub });
    new DataProduct(s, 'dp', { title: 'DP', domain: top });
    new Domain(s, 'pinned_parent', { name: 'P', parent: 'domain-123', parts: [] });
  });
  expect(strip(json.resource.dq_domain.sub)).toEqual({
    name: 'Sub', description: 'd', parent_id: '${dq_domain.top.id}',
    definition: { parts: [{ entity_id: 'e1' }, { query: { resolver_ql: 'with_tag("gold")' } }] },
  });
  expect(strip(json.resource.dq_domain.top)).toEqual({ name: 'Top', definition: { parts: [{ domain_id: '${dq_domain.sub.id}' }, { dataproduct_id: '${dq_data_product.dp.id}' }] } });
  expect(strip(json.resource.dq_domain.pinned_parent)).toEqual({ name: 'P', parent_id: 'domain-123', definition: { parts: [] } });
});

it('DataProduct: title, description, folder, priority, parts', () => {
  const json = one((s) => new DataProduct(s, 'dp', { title: 'DP', description: 'x', folder: 'f', priority: 'PRIORITY_P2', parts: [{ entityId: 'e' }, { query: 'with_name("orders")' }] }));
  expect(strip(json.resource.dq_data_product.dp)).toEqual({
    title: 'DP', description: 'x', folder: 'f', priority: 'PRIORITY_P2',
    definition: { parts: [{ entity_id: 'e' }, { query: { resolver_ql: 'with_name("orders")' } }] },
  });
});

it('Ownership: by data product or by query, owner reference, alert settings', () => {
  const json = one((s) => {
    const o = new Owner(s, 'o', { title: 'O' });
    const dp = new DataProduct(s, 'dp', { title: 'DP' });
    new Ownership(s, 'by_dp', { owner: o, dataProduct: dp, alert: { severities: ['SEVERITY_FATAL'], isDisabled: false } });
    new Ownership(s, 'by_query', { owner: o, query: 'with_type("table")', id: '9f1c2d3e-0000-4000-8000-000000000001' });
  });
  expect(strip(json.resource.dq_ownership.by_dp)).toEqual({ owner_id: '${dq_owner.o.id}', selection: { dataproduct_id: '${dq_data_product.dp.id}' }, alert: { severities: ['SEVERITY_FATAL'], is_disabled: false } });
  expect(strip(json.resource.dq_ownership.by_query)).toEqual({ id: '9f1c2d3e-0000-4000-8000-000000000001', owner_id: '${dq_owner.o.id}', selection: { query: { resolver_ql: 'with_type("table")' } } });
});

it('Alert: the three kinds, targets, pinned fqn, template, disabled; query models when ResolverQL cannot say it', () => {
  const json = one((s) => {
    const o = new Owner(s, 'o', { title: 'O' });
    const own = new Ownership(s, 'own', { owner: o, query: 'with_type("table")' });
    new Alert(s, 'issues', {
      name: 'Issues', isDisabled: true, fqn: 'custom.fqn', template: { title: 't' },
      issueLifecycle: {
        trigger: Query.identifiers(Entity.warehouseAccountTable({ account: 'a', database: 'd', schema: 's', table: 't' })),
        targets: [Target.webhook('w'), Target.msTeams('m'), Target.owner(o), Target.owner('owner-1')],
        settings: { severities: ['SEVERITY_WARN'], grouping: { noGrouping: {} }, ongoing: { stream: {} }, allowSqlTestAuditLink: true },
        owner: own,
      },
    });
    new Alert(s, 'schema', { name: 'Schema', schemaChange: { trigger: Query.not(Query.withName('tmp')), targets: [Target.slack('#s')] } });
    new Alert(s, 'incidents', { name: 'Inc', incidentLifecycle: { targets: [Target.slack('#i')], settings: { states: ['STATE_OPEN'] } } });
  });
  expect(strip(json.resource.dq_alert.issues)).toEqual({
    name: 'Issues', is_disabled: true, fqn: 'custom.fqn', template: { title: 't' },
    issue_lifecycle: {
      trigger: { query: { parts: [{ identifier_list: { identifiers: [{ warehouse_account_table: { account: 'a', database: 'd', schema: 's', table: 't' } }] } }] } },
      targets: [{ webhook: { webhook_id: 'w' } }, { ms_teams: { channel: 'm' } }, { owner: { owner_path: '${dq_owner.o.entity_id}' } }, { owner: { owner_path: 'owner-1' } }],
      settings: { severities: ['SEVERITY_WARN'], grouping: { no_grouping: {} }, ongoing: { stream: {} }, allow_sql_test_audit_link: true },
      owner: { owner_path: '${dq_owner.o.entity_id}', ownership_id: '${dq_ownership.own.id}' },
    },
  });
  expect(strip(json.resource.dq_alert.schema)).toEqual({ name: 'Schema', schema_change: { trigger: { resolver_ql: 'not(with_name("tmp"))' }, targets: [{ slack: { channel: '#s' } }], settings: {} } });
  expect(strip(json.resource.dq_alert.incidents)).toEqual({ name: 'Inc', incident_lifecycle: { targets: [{ slack: { channel: '#i' } }], settings: { states: ['STATE_OPEN'] } } });
});

it('MonitorDeploymentRule: query, exclusive query, static, exclusive static, product', () => {
  const json = one((s) => {
    const dp = new DataProduct(s, 'dp', { title: 'DP' });
    new MonitorDeploymentRule(s, 'q', { title: 'Q', id: '5b0e0000-0000-4000-8000-000000000002', queryConfig: { ...rule, query: Query.withType(['table', 'view']), keepDeletedMonitors: true } });
    new MonitorDeploymentRule(s, 'xq', { title: 'XQ', exclusiveQueryConfig: { query: 'with_name("tmp")' } });
    new MonitorDeploymentRule(s, 'st', { title: 'ST', staticConfig: { ...rule, path: 'wh-prod::mart::orders' } });
    new MonitorDeploymentRule(s, 'xs', { title: 'XS', exclusiveStaticConfig: { path: 'wh-prod::raw::tmp' } });
    new MonitorDeploymentRule(s, 'p', { title: 'P', productConfig: { ...rule, product: dp, self: { all: {} } } });
  });
  const r = json.resource.dq_monitor_deployment_rule;
  expect(strip(r.q)).toEqual({ id: '5b0e0000-0000-4000-8000-000000000002', title: 'Q', query_config: { resolver_ql: 'with_type(["table","view"])', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'], keep_deleted_monitors: true } });
  expect(strip(r.xq)).toEqual({ title: 'XQ', exclusive_query_config: { resolver_ql: 'with_name("tmp")' } });
  expect(strip(r.st)).toEqual({ title: 'ST', static_config: { path: 'wh-prod::mart::orders', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } });
  expect(strip(r.xs)).toEqual({ title: 'XS', exclusive_static_config: { path: 'wh-prod::raw::tmp' } });
  expect(strip(r.p)).toEqual({ title: 'P', product_config: { product_id: '${dq_data_product.dp.id}', self: { all: {} }, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } });
});

it('SqlTest: expression and template forms with every optional field', () => {
  const json = one((s) => {
    new SqlTest(s, 'expr', { name: 'E', description: 'd', severity: 'SEVERITY_INFO', platform: { warehouseAccount: { account: 'a', database: 'd' } }, recurrenceRule: 'FREQ=DAILY', timezone: 'UTC', annotations: [{ name: 'k', values: ['v'] }], saveFailures: true, sqlExpression: 'select 1' });
    new SqlTest(s, 'tpl', { name: 'T', id: 'my-test', platform: { integrationId: 'i' }, recurrenceRule: 'FREQ=HOURLY', template: { identifier: Entity.relationalTable({ host: 'h', database: 'd', schema: 's', table: 't' }), minMax: { column: 'c', min: 0, max: 10 } } });
  });
  expect(strip(json.resource.dq_sql_test.expr)).toEqual({ name: 'E', description: 'd', severity: 'SEVERITY_INFO', platform: { warehouse_account: { account: 'a', database: 'd' } }, recurrence_rule: 'FREQ=DAILY', timezone: 'UTC', annotations: [{ name: 'k', values: ['v'] }], save_failures: true, sql_expression: 'select 1' });
  expect(strip(json.resource.dq_sql_test.tpl)).toEqual({ id: 'my-test', name: 'T', platform: { integration_id: 'i' }, recurrence_rule: 'FREQ=HOURLY', template: { identifier: { relational_table: { host: 'h', database: 'd', schema: 's', table: 't' } }, min_max: { column: 'c', min: 0, max: 10 } } });
});

it('SqlTestDeploymentRule: query and static configs with tests', () => {
  const json = one((s) => {
    new SqlTestDeploymentRule(s, 'q', { title: 'Q', queryConfig: { query: 'with_type("table")', tests: [{ name: 'nn', notNull: { columns: ['id'] } }], recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', keepRemovedTests: true } });
    new SqlTestDeploymentRule(s, 'st', { title: 'S', staticConfig: { path: 'wh-prod::mart::orders', tests: [{ name: 'bq', businessQuery: { sqlQuery: 'select 1' } }], recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=WEEKLY' } });
    new SqlTestDeploymentRule(s, 'x', { title: 'X', exclusiveStaticConfig: { path: 'p' } });
  });
  const r = json.resource.dq_sql_test_deployment_rule;
  expect(strip(r.q)).toEqual({ title: 'Q', query_config: { resolver_ql: 'with_type("table")', tests: [{ name: 'nn', not_null: { columns: ['id'] } }], recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', keep_removed_tests: true } });
  expect(strip(r.st)).toEqual({ title: 'S', static_config: { path: 'wh-prod::mart::orders', tests: [{ name: 'bq', business_query: { sql_query: 'select 1' } }], recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=WEEKLY' } });
  expect(strip(r.x)).toEqual({ title: 'X', exclusive_static_config: { path: 'p' } });
});

it('lifecycle, moved and import blocks come from cdktf', () => {
  const json = one((s) => {
    const d = new Domain(s, 'renamed', { name: 'D', lifecycle: { preventDestroy: true, ignoreChanges: ['description'] } });
    d.moveFromId('dq_domain.old_name');
    const o = new Owner(s, 'adopted', { title: 'O' });
    o.importFrom('2c6d0000-0000-4000-8000-000000000003');
  });
  expect(json.resource.dq_domain.renamed.lifecycle).toEqual({ prevent_destroy: true, ignore_changes: ['description'] });
  expect(json.moved).toEqual([{ from: 'dq_domain.old_name', to: 'dq_domain.renamed' }]);
  expect(json.import).toEqual([{ id: '2c6d0000-0000-4000-8000-000000000003', to: 'dq_owner.adopted' }]);
});

it('Entity has a builder for each of the 18 identifier variants', () => {
  const built = [
    Entity.transformCoreNode({ integrationId: 'i', nodeId: 'n' }), Entity.transformCloudNode({ projectId: 'p', accountId: 'a', nodeId: 'n' }),
    Entity.warehouseProjectTable({ project: 'p', dataset: 'd', table: 't' }), Entity.warehouseAccountTable({ account: 'a', database: 'd', schema: 's', table: 't' }),
    Entity.warehouseClusterTable({ cluster: 'c', database: 'd', schema: 's', table: 't' }), Entity.relationalTable({ host: 'h', database: 'd', schema: 's', table: 't' }),
    Entity.mysqlLikeTable({ host: 'h', schema: 's', table: 't' }), Entity.columnStoreTable({ host: 'h', schema: 's', table: 't' }),
    Entity.orchestrationDag({ integrationId: 'i', dagId: 'd' }), Entity.orchestrationTask({ integrationId: 'i', dagId: 'd', taskId: 't' }),
    Entity.custom({ id: 'c' }), Entity.dataproduct({ id: 'd' }), Entity.platformPath({ path: 'p' }),
    Entity.lakehouseTable({ workspace: 'w', catalog: 'c', schema: 's', table: 't' }), Entity.queryEngineTable({ host: 'h', catalog: 'c', schema: 's', table: 't' }),
    Entity.sqlModel({ integrationId: 'i', fqn: 'f' }), Entity.sqlAudit({ integrationId: 'i', fqn: 'f', auditId: 'a' }),
    Entity.monitor({ monitoredId: Entity.custom({ id: 'c' }), monitorId: 'm', integrationId: 'i' }),
  ];
  expect(new Set(built.map((b) => Object.keys(b)[0])).size).toBe(18);
});

it('DqStack.removed: Terraform removed blocks with lifecycle.destroy, an id when given, any dq_* kind', () => {
  const json = one((s) => {
    s.removed('dq_owner.old_team');
    s.removed('dq_alert.kept', { id: 'ns.kept', destroy: false });
    s.removed('dq_domain.legacy', { destroy: false });
  }) as TfJson & { removed: unknown };
  expect(json.removed).toEqual([
    { from: 'dq_alert.kept', id: 'ns.kept', lifecycle: { destroy: false } },
    { from: 'dq_domain.legacy', lifecycle: { destroy: false } },
    { from: 'dq_owner.old_team', lifecycle: { destroy: true } },
  ]);
});
