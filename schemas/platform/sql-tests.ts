/**
 * SQL tests and SQL-test deployment rules (upstream facts "SQL tests", "SQL-test deployment rules").
 */
import { z } from 'zod';
import { BatchItemError, ConfigsFilter, Empty, oneof, PageInfo, Pagination, protoEnum, Source, Uuid, withOneof } from './common';
import { tolerant } from './wire';
import { setLastCheckPasses } from '../tools/zod-walk';
import { TEST_KIND_MAPPINGS, testFromWire, testToWire, wireTestMessages, type WireTestKey } from './sql-test-kinds';
import { EntityIdentifier, Query } from './entities';
import { Severity } from './deployment-rules';

/**
 * The data platform a SQL test runs on: exactly one key (wire-facts 8.2; neutral names, the
 * real wire keys are the data systems' own, "neutral keys stay").
 */
const d = (text: string) => z.string().describe(text);
const HOST = d('database host name');
const DATABASE = d('database the test runs in');
export const DataPlatform = oneof({
  warehouseProject: z.object({ project: d('warehouse project the test runs in') }).describe('a project/dataset warehouse'),
  warehouseAccount: z.object({ account: d('warehouse account'), database: DATABASE }).describe('an account/database/schema warehouse'),
  warehouseCluster: z.object({ cluster: d('warehouse cluster'), database: DATABASE }).describe('a cluster/database/schema warehouse'),
  relational: z.object({ host: HOST, database: DATABASE }).describe('a relational database'),
  mysqlLike: z.object({ host: HOST }).describe('a MySQL-like database'),
  columnStore: z.object({ host: HOST, schema: d('schema the test runs in') }).describe('a column store'),
  lakehouse: z.object({ workspace: d('lakehouse workspace') }).describe('a lakehouse'),
  queryEngine: z.object({ coordinator: d('coordinator host of the query engine').optional() }).describe('a query engine'),
  transformCloud: z
    .object({ apiEndpoint: d('API endpoint of the transformation cloud'), accountId: d('transformation cloud account id'), projectId: d('transformation cloud project id') })
    .describe('a transformation cloud project'),
  sqlModel: z.object({ defaultDatabaseInstance: d('database instance the models run in by default') }).describe('a SQL model project'),
  embeddedAnalytics: z.object({ account: d('account of the embedded analytics database').optional() }).describe('an embedded analytics database'),
  enterpriseRelational: z.object({ host: HOST, database: DATABASE }).describe('an enterprise relational database'),
  serviceRelational: z.object({ host: HOST, serviceName: d('database service name') }).describe('a relational database addressed by service name'),
  serverlessQuery: z.object({ instance: d('serverless query instance'), catalog: d('catalog') }).describe('a serverless query service'),
  analyticsSuite: z
    .object({ instance: d('analytics suite instance'), workspaceId: d('workspace id').optional(), tenantId: d('tenant id').optional() })
    .describe('an analytics suite'),
  unknown: Empty.describe('a platform this version cannot name (kept as read)'),
  integrationId: z.string().min(1).describe('the platform integration the test runs through (its id)'),
});
export type DataPlatform = z.infer<typeof DataPlatform>;

const column = z.string().min(1).describe('the column tested');
const columns = z.array(z.string().min(1)).min(1).describe('the columns tested');

/**
 * The template tests, by the names dqform's code and YAML use (`notNull`, ...); each names its
 * column(s). On the wire each is the platform's own message under a key ending in `Test`
 * (`notNullTest: { columnNames }`, grpc-facts 4.2): ./sql-test-kinds.ts holds those messages and
 * the one mapping both ways ({@link sqlTestToWire}, {@link sqlTestFromWire}, and the rule forms).
 */
export const templateTests = {
  notNull: z.object({ columns }).describe('fails on rows where a column is null'),
  empty: z.object({ columns }).describe('fails on rows where a column is empty'),
  acceptedValues: z.object({ column, values: z.array(z.string()).min(1).describe('the only values allowed') }).describe('fails on values outside a list'),
  rejectedValues: z.object({ column, values: z.array(z.string()).min(1).describe('values that must not appear') }).describe('fails on values from a list'),
  unique: z.object({ columns }).describe('fails on duplicate values (of the columns together)'),
  freshness: z
    .object({
      column,
      timePartition: z.string().optional().describe('time partition column, to scan recent partitions only'),
      maxDelaySeconds: z.number().int().positive().describe('the newest value may be at most this many seconds old'),
    })
    .superRefine((v, ctx) => {
      // the platform's FreshnessTest names one time column (`column` here): nothing to send this as
      if (v.timePartition !== undefined)
        ctx.addIssue({ code: 'custom', path: ['timePartition'], message: "has no counterpart in the platform's freshness test (it names one time column, `column`): remove it" });
    })
    .describe('fails when the newest timestamp is too old'),
  minMax: z.object({ column, min: z.number().describe('smallest value allowed'), max: z.number().describe('largest value allowed') }).describe('fails on values outside [min, max]'),
  relativeTime: z.object({ column, relativeColumn: z.string().min(1).describe('the column it must not be earlier than') }).describe('fails where column is earlier than relativeColumn'),
  businessRule: z.object({ sqlExpression: z.string().min(1).describe('SQL condition every row must satisfy') }).describe('fails on rows breaking a SQL condition'),
  minValue: z.object({ column, value: z.number().describe('smallest value allowed') }).describe('fails on values below a minimum'),
  maxValue: z.object({ column, value: z.number().describe('largest value allowed') }).describe('fails on values above a maximum'),
  relationships: z
    .object({ column, targetTable: z.string().min(1).describe('the referenced table'), targetColumn: z.string().min(1).describe('the referenced column') })
    .describe('fails on values missing from another table (a foreign key)'),
  businessQuery: z.object({ sqlQuery: z.string().min(1).describe('SQL query; every row it returns is a failure') }).describe('fails on the rows a SQL query returns'),
};
export type TemplateTestKind = keyof typeof templateTests;
export const TEMPLATE_TEST_KINDS = Object.keys(templateTests) as TemplateTestKind[];
/** The wire key of a template test: `notNull` -> `notNullTest`. */
export const WIRE_TEST_KEY = Object.fromEntries(TEMPLATE_TEST_KINDS.map((k) => [k, TEST_KIND_MAPPINGS[k].wire])) as Record<TemplateTestKind, WireTestKey>;
/** The template tests on the wire: the platform's messages (grpc-facts 4.2). */
export const wireTemplateTests = wireTestMessages;
export const WIRE_TEMPLATE_TEST_KINDS = Object.keys(wireTestMessages) as WireTestKey[];
export const TemplateTest = oneof(templateTests);
export type TemplateTest = z.infer<typeof TemplateTest>;

type Json = Record<string, unknown>;
const isJson = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

/** A SQL test (dqform's shape) with its template test as the platform's message: a copy. @throws TestMappingError. */
export function sqlTestToWire(test: Json): Json {
  return isJson(test.template) ? { ...test, template: testToWire(test.template, 'template') } : test;
}
/**
 * A read SQL test with its template test in dqform's shape: a copy. Never throws: what dqform
 * does not model is listed in `problems` (the test is then kept as read).
 */
export function sqlTestFromWire(test: Json): { value: Json; problems: string[] } {
  const problems: string[] = [];
  const value = isJson(test.template) ? { ...test, template: testFromWire(test.template, 'template', problems) } : test;
  return { value, problems };
}

/** A template SQL test (dqform's names): the table it checks and one template test. */
export const SqlTestTemplate = withOneof({ identifier: EntityIdentifier.describe('the table the test checks') }, templateTests);
export type SqlTestTemplate = z.infer<typeof SqlTestTemplate>;
/** The same on the wire: `{ identifier, <kind>Test: {...} }`. */
export const WireSqlTestTemplate = withOneof({ identifier: EntityIdentifier }, wireTemplateTests);
export type WireSqlTestTemplate = z.infer<typeof WireSqlTestTemplate>;

export const SqlTestAnnotation = z.object({
  name: z.string().min(1).max(50).describe('annotation name'),
  values: z.array(z.string()).default([]).describe('annotation values'),
});
export type SqlTestAnnotation = z.infer<typeof SqlTestAnnotation>;

/** An evaluator of a SQL test (wire-facts section 5). */
export const SqlTestEvaluator = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]+$/),
  name: z.string().min(1),
  sqlExpression: z.string().min(1),
  severity: Severity.optional(),
});

/**
 * Fields of a SQL test on the wire. Upsert is full-state: an omitted optional field is cleared.
 * `recurrenceRule` is optional (empty: run on demand).
 */
export const sqlTestWriteFields = {
  /** The caller's key and the upsert key. */
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(255),
  description: z.string().optional(),
  severity: Severity.optional(),
  platform: DataPlatform.optional(),
  /** iCal RRULE, e.g. `FREQ=DAILY;BYHOUR=6`; absent: on demand. */
  recurrenceRule: z.string().optional(),
  /** IANA time zone; default UTC. */
  timezone: z.string().optional(),
  annotations: z.array(SqlTestAnnotation).optional(),
  saveFailures: z.boolean().optional(),
  configId: z.string().optional(),
  source: Source.optional(),
  evaluators: z.array(SqlTestEvaluator).optional(),
  /** Resolved by the server at upsert. */
  inputTables: z.array(z.string()).optional(),
  category: z.string().optional(),
  governanceCategory: z.string().optional(),
};
const sqlTestForms = { sqlExpression: z.string().min(1), template: WireSqlTestTemplate };
/** A SQL test as written (wire keys). `platform` or `template.identifier` is required. */
export const SqlTestWrite = withOneof(sqlTestWriteFields, sqlTestForms);
export type SqlTestWrite = z.infer<typeof SqlTestWrite>;
/** As read: adds `deploymentRuleId` (tests made by a rule refuse direct edit and delete). No etag. */
export const SqlTest = withOneof({ ...sqlTestWriteFields, deploymentRuleId: z.string().optional() }, sqlTestForms);
export type SqlTest = z.infer<typeof SqlTest>;

export const BatchUpsertSqlTestsRequest = z.object({ sqlTests: z.array(SqlTestWrite), sqlTestIdsToReset: z.array(z.string()).optional() });
export const BatchUpsertSqlTestsResponse = z.object({
  createdIds: z.array(z.string()).default([]),
  updatedIds: z.array(z.string()).default([]),
  errors: z.array(BatchItemError).default([]),
});
export type BatchUpsertSqlTestsResponse = z.infer<typeof BatchUpsertSqlTestsResponse>;
/** BatchDelete: DELETE `/api/datachecks/sqltests/v1?ids=a&ids=b`. */
export const BatchDeleteByIdsRequest = z.object({ ids: z.array(z.string()) });
export const BatchDeleteResponse = z.object({ errors: z.array(BatchItemError).default([]) });
export type BatchDeleteResponse = z.infer<typeof BatchDeleteResponse>;
/**
 * List: GET with `annotations.name`/`annotations.values` (one annotation: a repeated message has
 * no reliable query form), `integrationIds`, `ids`, `configsFilter.ids`, `sources`,
 * `pagination.*` as query parameters.
 */
export const ListSqlTestsRequest = z.object({
  annotations: z.object({ name: z.string().min(1), values: z.array(z.string()).optional() }).optional(),
  integrationIds: z.array(z.string()).optional(),
  ids: z.array(z.string()).optional(),
  configsFilter: ConfigsFilter.optional(),
  sources: z.array(Source).optional(),
  pagination: Pagination.optional(),
  /** Deprecated but declared (wire-facts 5): the platform accepts it; the client never sends it (it sends `configsFilter.ids`). */
  configIds: z.array(z.string()).optional(),
});
export type ListSqlTestsRequest = z.infer<typeof ListSqlTestsRequest>;
export const ListSqlTestsResponse = z.object({ sqlTests: z.array(tolerant(SqlTest)).default([]), pageInfo: PageInfo.optional() });
export type ListSqlTestsResponse = z.infer<typeof ListSqlTestsResponse>;
export const BatchGetByIdsRequest = z.object({ ids: z.array(z.string()) });
export const BatchGetSqlTestsResponse = z.object({ sqlTests: z.record(z.string(), tolerant(SqlTest)).default({}) });
export type BatchGetSqlTestsResponse = z.infer<typeof BatchGetSqlTestsResponse>;

// ---- SQL-test deployment rules ----

const BUSINESS_KINDS = new Set(['businessRule', 'businessQuery', 'businessRuleTest', 'businessQueryTest']);
/** wire-facts: a rule test's `name` is required for the two business kinds (it is their identity). */
/** Whether a test has a name, or is not of a business kind (what {@link nameForBusiness} checks). */
function namedIfBusiness(t: Record<string, unknown>): boolean {
  if (t.name !== undefined) return true;
  for (const k in t) if (BUSINESS_KINDS.has(k) && t[k] !== undefined) return false;
  return true;
}

function nameForBusiness(t: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (!namedIfBusiness(t)) {
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'a business rule or business query test needs a name (it is its identity)' });
  }
}

/**
 * One test a rule deploys on every matched table (dqform's names). dqform requires a `name`
 * for every test (the platform only for the business kinds): it is how plans show each test.
 */
export const RuleTest = withOneof(
  {
    name: z.string().min(1).describe('the test\'s name (its identity within the rule)'),
    description: z.string().optional().describe('what the test is for'),
    severity: Severity.optional().describe('severity of this test\'s failures'),
  },
  templateTests,
);
export type RuleTest = z.infer<typeof RuleTest>;
/** The same on the wire (`<kind>Test` keys; `name` required for the business kinds only). */
export const WireRuleTest = withOneof(
  { name: z.string().min(1).optional(), description: z.string().optional(), severity: Severity.optional() },
  wireTemplateTests,
).superRefine(nameForBusiness);
setLastCheckPasses(WireRuleTest, (t) => namedIfBusiness(t as Record<string, unknown>));
export type WireRuleTest = z.infer<typeof WireRuleTest>;

const ruleTestSettings = <T extends z.ZodType>(test: T) => ({
  tests: z.array(test).min(1, 'a SQL-test deployment rule needs at least one test').describe('the tests deployed on every matched table'),
  /** Empty: on demand; if set it must carry an inline `DTSTART:` (grpc-facts `recurrence_rule`): validate and the emulator refuse a plain RRULE. */
  recurrenceRule: z.string().optional().describe('when the tests run: an inline start, then an iCal RRULE, e.g. "DTSTART:20260101T000000Z\\nRRULE:FREQ=DAILY;BYHOUR=6"; absent: on demand'),
  timezone: z.string().optional().describe('IANA time zone of the schedule (default UTC)'),
  severity: Severity.optional().describe('severity of the tests\' failures'),
  saveFailures: z.boolean().optional().describe('keep the failing rows for inspection'),
});
const queryFields = {
  query: Query.optional().describe('the tables to test, as a query'),
  resolverQl: z.string().optional().describe('the tables to test, as ResolverQL (wins over query)'),
  /** Output only. */
  renderedResolverQl: z.string().optional().describe('output only: the server\'s canonical ResolverQL'),
};
/** Query config (dqform's names); `keepRemovedTests` exists on query configs only. */
const keepRemovedTests = z.boolean().optional().describe('keep tests (and their history) on tables the rule no longer matches');
const staticPath = z.string().min(1).describe('the asset path of the table, e.g. wh-prod::mart::orders');
export const SqlTestQueryConfig = z.object({ ...queryFields, ...ruleTestSettings(RuleTest), keepRemovedTests });
export const SqlTestStaticConfig = z.object({ path: staticPath, ...ruleTestSettings(RuleTest) });
export const SqlTestExclusiveQueryConfig = z.object(queryFields);
export const SqlTestExclusiveStaticConfig = z.object({ path: staticPath });
export const WireSqlTestQueryConfig = z.object({ ...queryFields, ...ruleTestSettings(WireRuleTest), keepRemovedTests });
export const WireSqlTestStaticConfig = z.object({ path: staticPath, ...ruleTestSettings(WireRuleTest) });
export const SQL_TEST_RULE_CONFIG_KINDS = ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig'] as const;
const sqlTestRuleConfigs = {
  queryConfig: WireSqlTestQueryConfig,
  exclusiveQueryConfig: SqlTestExclusiveQueryConfig,
  staticConfig: WireSqlTestStaticConfig,
  exclusiveStaticConfig: SqlTestExclusiveStaticConfig,
};
export const sqlTestRuleWriteFields = {
  id: Uuid,
  title: z.string().min(1).max(100),
  source: Source.optional(),
  configId: z.string().optional(),
};
/** A SQL-test rule as written (wire keys). */
export const SqlTestDeploymentRuleWrite = withOneof(sqlTestRuleWriteFields, sqlTestRuleConfigs);
export type SqlTestDeploymentRuleWrite = z.infer<typeof SqlTestDeploymentRuleWrite>;
/** As read: adds `testCount`. */
export const SqlTestDeploymentRule = withOneof({ ...sqlTestRuleWriteFields, testCount: z.number().int().optional() }, sqlTestRuleConfigs);
export type SqlTestDeploymentRule = z.infer<typeof SqlTestDeploymentRule>;

/** A SQL-test rule (dqform's shape) with every test as the platform's `RuleTest`: a copy. @throws TestMappingError. */
export function sqlTestRuleToWire(rule: Json): Json {
  const out = { ...rule };
  for (const k of SQL_TEST_RULE_CONFIG_KINDS) {
    const c = out[k];
    if (isJson(c) && Array.isArray(c.tests)) out[k] = { ...c, tests: c.tests.map((t, i) => (isJson(t) ? testToWire(t, `${k}.tests[${i}]`) : t)) };
  }
  return out;
}
/**
 * A read SQL-test rule with every test in dqform's shape: a copy. Never throws: what dqform does
 * not model is listed in `problems` (those tests are then kept as read).
 */
export function sqlTestRuleFromWire(rule: Json): { value: Json; problems: string[] } {
  const problems: string[] = [];
  const value = { ...rule };
  for (const k of SQL_TEST_RULE_CONFIG_KINDS) {
    const c = value[k];
    if (isJson(c) && Array.isArray(c.tests)) value[k] = { ...c, tests: c.tests.map((t, i) => (isJson(t) ? testFromWire(t, `${k}.tests[${i}]`, problems) : t)) };
  }
  return { value, problems };
}

const testRef = z.object({ tablePath: z.string(), sqlTestPath: z.string().optional(), testName: z.string() });
export const SqlTestDeployOverview = z.object({
  testsToCreate: z.array(testRef).default([]),
  testsToUpdate: z.array(testRef).default([]),
  testsToDelete: z.array(testRef).default([]),
  testsToKeep: z.array(testRef).default([]),
  skippedTables: z.array(z.object({ tablePath: z.string(), reason: z.string() })).default([]),
});
export type SqlTestDeployOverview = z.infer<typeof SqlTestDeployOverview>;

/** Rule types of the List filter: QUERY=1, EXCLUSIVE_QUERY=2, STATIC=3, EXCLUSIVE_STATIC=4. */
export const SqlTestRuleTypeEnum = protoEnum({
  SQL_TEST_RULE_TYPE_UNSPECIFIED: 0,
  SQL_TEST_RULE_TYPE_QUERY: 1,
  SQL_TEST_RULE_TYPE_EXCLUSIVE_QUERY: 2,
  SQL_TEST_RULE_TYPE_STATIC: 3,
  SQL_TEST_RULE_TYPE_EXCLUSIVE_STATIC: 4,
});

export const DeploySqlTestRuleRequest = z.object({ deploymentRule: SqlTestDeploymentRuleWrite });
export const BatchDeploySqlTestRulesRequest = z.object({ deploymentRules: z.array(SqlTestDeploymentRuleWrite) });
/** BatchDelete answers `{}` (no errors list); tolerated if one comes. */
export const BatchDeleteRulesResponse = z.object({ errors: z.array(BatchItemError).default([]) });
/**
 * Overview: GET `/api/datachecks/sql-test-deployment-rules/v1/overview` with the rule's scalar
 * fields as dotted query parameters (a rule holding `tests[]` has no such form); delete overview
 * GET `.../v1/{id}/deleted`.
 */
export const SqlTestOverviewRequest = z.object({ deploymentRule: SqlTestDeploymentRuleWrite });
export const SqlTestDeployOverviewResponse = z.object({ overview: SqlTestDeployOverview });
export type SqlTestDeployOverviewResponse = z.infer<typeof SqlTestDeployOverviewResponse>;
export const ListSqlTestRulesRequest = z.object({
  sources: z.array(Source).optional(),
  configsFilter: ConfigsFilter.optional(),
  ruleIds: z.array(z.string()).optional(),
  ruleTypes: z.array(SqlTestRuleTypeEnum.schema).optional(),
  pagination: Pagination.optional(),
});
export const ListSqlTestRulesResponse = z.object({ deploymentRules: z.array(tolerant(SqlTestDeploymentRule)).default([]), pageInfo: PageInfo.optional() });
export type ListSqlTestRulesResponse = z.infer<typeof ListSqlTestRulesResponse>;
export const BatchGetSqlTestRulesResponse = z.object({ deploymentRules: z.record(z.string(), tolerant(SqlTestDeploymentRule)).default({}) });
export type BatchGetSqlTestRulesResponse = z.infer<typeof BatchGetSqlTestRulesResponse>;
