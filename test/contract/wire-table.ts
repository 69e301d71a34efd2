/**
 * The platform's request shapes, written by hand from the wire facts (`wire-facts.md`, and
 * `platform-api.md` where it is newer), independently of the client's zod schemas and of
 * src/client/services/ROUTES.md: what each operation the client uses takes. The contract tests
 * compare what the client really sends, and what the emulator accepts, with this table.
 *
 * - `body`: the request's top-level JSON keys (`body: "*"`), or `null` when the request has no
 *   body (GET, DELETE except alerts v2 Delete). `query`: the query parameter names allowed
 *   (dotted; `*` matches one or more segments). Path-bound fields are in the path only.
 * - `enums`: dotted paths (`[]` for every list item) that hold an enum: on the wire they must be
 *   numbers.
 * - `envelope`: a wrapper key the platform would NOT read (the form dqform used to send); the
 *   emulator must refuse it.
 */
export interface WireRow {
  op: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Path with `:params`. */
  path: string;
  body: readonly string[] | null;
  query?: readonly string[];
  enums?: readonly string[];
  envelope?: string;
  /**
   * Dotted paths (`[]` for list items, `*` for map values) of the objects that hold one template
   * test (a SQL test's `template`, a rule's `tests[]`), in the request (`request`) or the
   * response (`response`): the test must be one of {@link TEST_MESSAGES} with only its fields.
   */
  tests?: { request?: readonly string[]; response?: readonly string[] };
  /** wire-facts section (or spec part) the row comes from. */
  source: string;
}

const ALERT_FIELDS = ['name', 'fqn', 'template', 'issueLifecycle', 'schemaChange', 'incidentLifecycle', 'configId', 'source'];
const PAGE = ['pagination.cursor', 'pagination.pageSize'];
const RULE_ENUMS = ['deploymentRule.source', 'deploymentRule.staticConfig.severity', 'deploymentRule.staticConfig.sensitivity', 'deploymentRule.staticConfig.metricIds[]'];

export const WIRE: readonly WireRow[] = [
  // alerts v2: wire-facts 3, spec 4.1 / 4.3 / 4.4
  { op: 'alerts.create', method: 'POST', path: '/api/alerts/v2', body: ALERT_FIELDS, enums: ['source', 'issueLifecycle.settings.severities[]'], envelope: 'alert', source: 'wire 3' },
  { op: 'alerts.upsert', method: 'PUT', path: '/api/alerts/v2', body: [...ALERT_FIELDS, 'etag'], enums: ['source', 'issueLifecycle.settings.severities[]'], envelope: 'alert', source: 'spec 4.1, wire 3' },
  // Rename, UpdateTargets, UpdateTemplate, ToggleEnabled: wire-facts 3 declares no etag (the spec none either)
  { op: 'alerts.rename', method: 'POST', path: '/api/alerts/v2/rename', body: ['identifier', 'name'], source: 'wire 3' },
  { op: 'alerts.updateSettings', method: 'POST', path: '/api/alerts/v2/settings', body: ['identifier', 'trigger', 'issueLifecycle', 'schemaChange', 'incidentLifecycle', 'etag'], enums: ['issueLifecycle.severities[]'], source: 'spec 4.4' },
  { op: 'alerts.updateTargets', method: 'POST', path: '/api/alerts/v2/targets', body: ['identifier', 'targets'], source: 'wire 3' },
  { op: 'alerts.updateTemplate', method: 'POST', path: '/api/alerts/v2/template', body: ['identifier', 'template'], source: 'wire 3' },
  { op: 'alerts.toggleEnabled', method: 'POST', path: '/api/alerts/v2/toggle', body: ['identifier', 'isEnabled'], source: 'wire 3' },
  { op: 'alerts.toggleIncidentOwnerAlert', method: 'POST', path: '/api/alerts/v2/incident-owner', body: ['isEnabled'], source: 'wire 3' },
  { op: 'alerts.sendTestAlert', method: 'POST', path: '/api/alerts/v2/test', body: ['name', 'kind', 'targets'], enums: ['kind'], source: 'wire 3' },
  { op: 'alerts.list', method: 'POST', path: '/api/alerts/v2/list', body: ['owner'], source: 'wire 3' },
  { op: 'alerts.batchGet', method: 'POST', path: '/api/alerts/v2/get', body: ['identifiers'], source: 'wire 3' },
  { op: 'alerts.delete', method: 'DELETE', path: '/api/alerts/v2', body: ['identifier', 'etag'], source: 'spec 4.3' },
  // automated-monitor deployment rules: wire-facts 4
  { op: 'deploymentRules.deploy', method: 'POST', path: '/api/monitors/automated/v1/deployment-rules/deployed', body: ['deploymentRule'], enums: RULE_ENUMS, envelope: 'rule', source: 'wire 4' },
  { op: 'deploymentRules.batchDeploy', method: 'POST', path: '/api/monitors/automated/v1/deployment-rules/batch/deployed', body: ['deploymentRules'], enums: ['deploymentRules[].staticConfig.severity'], envelope: 'rules', source: 'wire 4' },
  { op: 'deploymentRules.list', method: 'GET', path: '/api/monitors/automated/v1/deployment-rules', body: null, query: ['sources', 'configsFilter.ids', 'ruleIds', 'ruleTypes', ...PAGE], enums: ['sources[]', 'ruleTypes[]'], source: 'wire 4' },
  { op: 'deploymentRules.batchGet', method: 'GET', path: '/api/monitors/automated/v1/deployment-rules/batch', body: null, query: ['ids'], source: 'wire 4' },
  { op: 'deploymentRules.deployOverview', method: 'GET', path: '/api/monitors/automated/v1/deployment-rule', body: null, query: ['deploymentRule.*'], enums: RULE_ENUMS, source: 'wire 1, 4' },
  { op: 'deploymentRules.deleteOverview', method: 'GET', path: '/api/monitors/automated/v1/deployment-rule/:id/deleted', body: null, query: [], source: 'wire 4' },
  { op: 'deploymentRules.delete', method: 'DELETE', path: '/api/monitors/automated/v1/deployment-rule/:id', body: null, query: [], source: 'wire 4' },
  // SQL tests: wire-facts 5
  { op: 'sqlTests.batchUpsert', method: 'POST', path: '/api/datachecks/sqltests/v1', body: ['sqlTests', 'sqlTestIdsToReset'], enums: ['sqlTests[].severity', 'sqlTests[].source'], tests: { request: ['sqlTests[].template'] }, source: 'wire 5; grpc-facts 4.2' },
  { op: 'sqlTests.batchGet', method: 'POST', path: '/api/datachecks/sqltests/v1/by-id', body: ['ids'], tests: { response: ['sqlTests.*.template'] }, source: 'wire 5; grpc-facts 4.2' },
  { op: 'sqlTests.list', method: 'GET', path: '/api/datachecks/sqltests/v1', body: null, query: ['annotations.name', 'annotations.values', 'integrationIds', 'ids', 'configsFilter.ids', 'sources', ...PAGE], enums: ['sources[]'], source: 'wire 5' },
  { op: 'sqlTests.batchDelete', method: 'DELETE', path: '/api/datachecks/sqltests/v1', body: null, query: ['ids'], source: 'wire 5' },
  // SQL-test deployment rules: wire-facts 6
  { op: 'sqlTestRules.deploy', method: 'POST', path: '/api/datachecks/sql-test-deployment-rules/v1/deployed', body: ['deploymentRule'], enums: ['deploymentRule.source', 'deploymentRule.staticConfig.severity'], envelope: 'rule', tests: { request: ['deploymentRule.staticConfig.tests[]'] }, source: 'wire 6; grpc-facts 4.1, 4.2' },
  { op: 'sqlTestRules.batchDeploy', method: 'POST', path: '/api/datachecks/sql-test-deployment-rules/v1/batch/deployed', body: ['deploymentRules'], envelope: 'rules', tests: { request: ['deploymentRules[].staticConfig.tests[]'] }, source: 'wire 6; grpc-facts 4.1, 4.2' },
  { op: 'sqlTestRules.batchGet', method: 'POST', path: '/api/datachecks/sql-test-deployment-rules/v1/by-id', body: ['ids'], tests: { response: ['deploymentRules.*.staticConfig.tests[]'] }, source: 'wire 6; grpc-facts 4.2' },
  { op: 'sqlTestRules.list', method: 'GET', path: '/api/datachecks/sql-test-deployment-rules/v1', body: null, query: ['sources', 'configsFilter.ids', 'ruleIds', 'ruleTypes', ...PAGE], enums: ['sources[]'], tests: { response: ['deploymentRules[].staticConfig.tests[]'] }, source: 'wire 6; grpc-facts 4.2' },
  { op: 'sqlTestRules.overview', method: 'GET', path: '/api/datachecks/sql-test-deployment-rules/v1/overview', body: null, query: ['deploymentRule.*'], enums: ['deploymentRule.source'], source: 'wire 1, 6' },
  { op: 'sqlTestRules.deleteOverview', method: 'GET', path: '/api/datachecks/sql-test-deployment-rules/v1/:id/deleted', body: null, query: [], source: 'wire 6' },
  { op: 'sqlTestRules.delete', method: 'DELETE', path: '/api/datachecks/sql-test-deployment-rules/v1/:id', body: null, query: [], source: 'wire 6' },
  { op: 'sqlTestRules.batchDelete', method: 'DELETE', path: '/api/datachecks/sql-test-deployment-rules/v1/batch', body: null, query: ['ids'], source: 'wire 6' },
  // domains v2, data products v2: wire-facts 7
  { op: 'domains.upsert', method: 'POST', path: '/api/domains/v2', body: ['id', 'name', 'description', 'parentId', 'source', 'definition', 'etag', 'actor'], envelope: 'domain', source: 'wire 7' },
  { op: 'domains.batchGet', method: 'POST', path: '/api/domains/v2/batch-get', body: ['ids', 'includeDeleted', 'excludeDefinition'], source: 'wire 7' },
  { op: 'domains.list', method: 'GET', path: '/api/domains/v2', body: null, query: [...PAGE, 'parentId', 'includeDeleted', 'excludeDefinition'], source: 'wire 7' },
  { op: 'domains.delete', method: 'POST', path: '/api/domains/v2/delete', body: ['id', 'purge', 'etag', 'actor'], source: 'wire 7' },
  { op: 'dataProducts.upsert', method: 'POST', path: '/api/dataproducts/v2', body: ['id', 'title', 'description', 'folder', 'priority', 'source', 'definition', 'etag', 'actor'], enums: ['priority'], envelope: 'dataproduct', source: 'wire 7' },
  { op: 'dataProducts.batchGet', method: 'POST', path: '/api/dataproducts/v2/batch-get', body: ['ids', 'includeDeleted', 'excludeDefinition'], source: 'wire 7' },
  { op: 'dataProducts.list', method: 'GET', path: '/api/dataproducts/v2', body: null, query: [...PAGE, 'folder', 'priorities', 'includeDeleted', 'excludeDefinition'], enums: ['priorities[]'], source: 'wire 7' },
  { op: 'dataProducts.delete', method: 'POST', path: '/api/dataproducts/v2/delete', body: ['id', 'purge', 'etag', 'actor'], source: 'wire 7' },
  // owners and ownerships v1: wire-facts 7b
  { op: 'owners.upsertOwner', method: 'POST', path: '/api/owners/v1', body: ['id', 'title', 'contacts', 'source', 'etag', 'actor'], envelope: 'owner', source: 'wire 7b' },
  { op: 'owners.upsertOwnership', method: 'POST', path: '/api/owners/v1/:owner_id/ownerships', body: ['id', 'selection', 'alert', 'etag', 'actor'], enums: ['alert.severities[]'], envelope: 'ownership', source: 'wire 7b' },
  { op: 'owners.batchGetOwners', method: 'POST', path: '/api/owners/v1/batch-get', body: ['ids', 'includeDeleted'], source: 'wire 7b' },
  { op: 'owners.batchGetOwnerships', method: 'POST', path: '/api/owners/v1/ownerships/batch-get', body: ['ids', 'includeDeleted'], source: 'wire 7b' },
  { op: 'owners.listOwners', method: 'GET', path: '/api/owners/v1', body: null, query: [...PAGE, 'includeDeleted'], source: 'wire 7b' },
  { op: 'owners.listOwnerships', method: 'GET', path: '/api/owners/v1/:owner_id/ownerships', body: null, query: [...PAGE, 'includeDeleted'], source: 'wire 7b' },
  { op: 'owners.deleteOwnership', method: 'POST', path: '/api/owners/v1/ownerships/delete', body: ['id', 'etag', 'actor'], source: 'wire 7b' },
  { op: 'owners.deleteOwner', method: 'POST', path: '/api/owners/v1/delete', body: ['id', 'purge', 'etag', 'actor'], source: 'wire 7b' },
  // check categorisation rules v2: wire-facts 10 (preview and matches: spec 4.1 paths, shapes a choice)
  { op: 'categorisationRules.upsert', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules', body: ['id', 'dimension', 'scope', 'title', 'category', 'matcher', 'priority', 'etag', 'actor'], enums: ['dimension'], envelope: 'rule', source: 'wire 10' },
  { op: 'categorisationRules.delete', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules/delete', body: ['id', 'etag', 'actor'], source: 'wire 10' },
  { op: 'categorisationRules.batchGet', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules/batch-get', body: ['ids'], source: 'wire 10' },
  { op: 'categorisationRules.list', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules/list', body: ['dimension', 'scope', 'pagination'], enums: ['dimension', 'scope'], source: 'wire 10' },
  { op: 'categorisationRules.preview', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules/preview', body: ['rule', 'exampleCount'], enums: ['rule.dimension'], source: 'spec 4.1 (choice: body)' },
  { op: 'categorisationRules.listMatches', method: 'POST', path: '/api/entities/v2/checks/categorisation-rules/matches', body: ['id', 'pagination'], source: 'spec 4.1 (choice: body)' },
  // integrations v1: wire-facts 8
  { op: 'integrations.create', method: 'POST', path: '/api/integrations/v1', body: ['title', 'config'], envelope: 'integration', source: 'wire 8' },
  { op: 'integrations.update', method: 'PUT', path: '/api/integrations/v1/:integration_id', body: ['title', 'config', 'etag'], envelope: 'integration', source: 'wire 8' },
  { op: 'integrations.disable', method: 'POST', path: '/api/integrations/v1/:integration_id/disable', body: [], source: 'wire 8' },
  { op: 'integrations.enable', method: 'POST', path: '/api/integrations/v1/:integration_id/enable', body: [], source: 'wire 8' },
  { op: 'integrations.batchGet', method: 'POST', path: '/api/integrations/v1/by-id', body: ['integrationIds'], source: 'wire 8' },
  { op: 'integrations.list', method: 'GET', path: '/api/integrations/v1', body: null, query: ['disabled'], source: 'wire 8' },
  { op: 'integrations.delete', method: 'DELETE', path: '/api/integrations/v1/:integration_id', body: null, query: ['etag'], source: 'wire 8' },
  // saved views v1: wire-facts 10 (every operation POST, body "*"; inner shapes a choice: schemas/platform/saved-views.ts)
  { op: 'savedViews.upsert', method: 'POST', path: '/api/saved-views/v1', body: ['id', 'title', 'description', 'context', 'selection', 'config', 'visibility', 'grants', 'etag'], enums: ['visibility', 'grants.grants[].permission'], envelope: 'view', source: 'wire 10' },
  { op: 'savedViews.batchGet', method: 'POST', path: '/api/saved-views/v1/batch-get', body: ['ids'], source: 'wire 10' },
  { op: 'savedViews.list', method: 'POST', path: '/api/saved-views/v1/list', body: ['scopes', 'context', 'onlyPinned', 'pagination'], enums: ['scopes[]'], source: 'wire 10' },
  { op: 'savedViews.delete', method: 'POST', path: '/api/saved-views/v1/delete', body: ['id', 'etag'], source: 'wire 10' },
  // queries v1: wire-facts 9
  { op: 'queries.translateResolverQl', method: 'POST', path: '/api/queries/v1/translate-resolver-ql', body: ['resolverQl'], source: 'wire 9' },
  { op: 'queries.resolveQuery', method: 'POST', path: '/api/queries/v1/resolve', body: ['resolverQl', 'query', 'pagination'], source: 'wire 9' },
  // IAM (upstream-facts) and catalog reads (spec 4.1; shapes a choice)
  { op: 'iam.get', method: 'GET', path: '/api/iam/v1', body: null, query: [], source: 'upstream' },
  { op: 'entities.list', method: 'GET', path: '/api/entities/v1', body: null, query: PAGE, source: 'spec 4.1 (choice: parameters)' },
  { op: 'entities.search', method: 'GET', path: '/api/entities/v1/search', body: null, query: ['searchQuery', ...PAGE], source: 'spec 4.1 (choice: parameters)' },
  { op: 'entities.batchGet', method: 'POST', path: '/api/entities/v1/by-id', body: ['ids'], source: 'spec 4.1 (choice: body)' },
];

/**
 * The template-test messages (grpc-facts 4.2, shared by a SQL test's `template` and a rule's
 * `RuleTest`) as the gateway's proto3 JSON names them: the oneof member's key -> the message's
 * fields. Written from the facts' tables, not from schemas/platform/sql-test-kinds.ts.
 */
export const TEST_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  notNullTest: ['columnNames', 'selectColumns'],
  emptyTest: ['columnNames', 'selectColumns'],
  acceptedValuesTest: ['columnName', 'acceptedValues', 'selectColumns'],
  rejectedValuesTest: ['columnName', 'rejectedValues', 'selectColumns'],
  uniqueTest: ['columnNames', 'timePartitionColumnName', 'timeWindowSeconds'],
  freshnessTest: ['timePartitionColumnName', 'timeWindowSeconds', 'selectColumns'],
  minMaxTest: ['columnName', 'minValue', 'maxValue', 'strictly', 'selectColumns'],
  relativeTimeTest: ['columnName', 'relativeColumnName', 'selectColumns'],
  businessRuleTest: ['sqlExpression', 'selectColumns'],
  minValueTest: ['columnName', 'minValue', 'strictly', 'selectColumns'],
  maxValueTest: ['columnName', 'maxValue', 'strictly', 'selectColumns'],
  relationshipsTest: ['references', 'ignoreNulls', 'timePartitionColumn', 'timeWindowSeconds', 'selectColumns'],
  businessQueryTest: ['sqlQuery'],
};
/** Fields of the messages inside some tests: `SqlValue`, `RelationshipReference`, `RelationshipColumn`. */
export const TEST_INNER_MESSAGES: Readonly<Record<string, readonly string[]>> = {
  acceptedValues: ['stringLiteral', 'expression'],
  rejectedValues: ['stringLiteral', 'expression'],
  minValue: ['stringLiteral', 'expression'],
  maxValue: ['stringLiteral', 'expression'],
  references: ['entity', 'columns'],
  'references.columns': ['source', 'reference'],
};
/** Keys next to the test in the objects that hold one: a SQL test's template and a rule test. */
export const TEST_HOLDER_FIELDS = ['identifier', 'name', 'description', 'severity'];

/** Enum value names of the platform and of dqform's neutral stand-ins: none may travel on the wire. */
export const ENUM_NAME = /^(SEVERITY|ALERT_SEVERITY|SENSITIVITY|METRIC_ID|DELAY_MODEL|PRIORITY|SOURCE|QUERY_OPERAND|STATE|ENTITY_TYPE|RULE_TYPE|SQL_TEST_RULE_TYPE|TEST_ALERT_KIND)_[A-Z0-9_]+$/;
