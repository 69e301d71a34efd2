/**
 * SQL tests and SQL-test deployment rules (upstream facts "SQL tests", "SQL-test deployment rules").
 */
import { z } from 'zod';
import { BatchItemError, ConfigsFilter, Empty, oneof, PageInfo, Pagination, Source, Uuid, withOneof } from './common';
import { EntityIdentifier, Query } from './entities';
import { Severity } from './deployment-rules';

/** The data platform a SQL test runs on: exactly one key. */
export const DataPlatform = oneof({
  warehouseProject: z.object({ project: z.string() }),
  warehouseAccount: z.object({ account: z.string(), database: z.string() }),
  warehouseCluster: z.object({ cluster: z.string(), database: z.string() }),
  relational: z.object({ host: z.string(), database: z.string() }),
  mysqlLike: z.object({ host: z.string() }),
  columnStore: z.object({ host: z.string(), schema: z.string() }),
  lakehouse: z.object({ workspace: z.string() }),
  queryEngine: z.object({ coordinator: z.string() }),
  transformCloud: z.object({ apiEndpoint: z.string(), accountId: z.string(), projectId: z.string() }),
  sqlModel: z.object({ defaultDatabaseInstance: z.string() }),
  unknown: Empty,
  integrationId: z.string().min(1),
});
export type DataPlatform = z.infer<typeof DataPlatform>;

const column = z.string().min(1);
const columns = z.array(column).min(1);

/** The template tests; each names its column(s). */
export const templateTests = {
  notNull: z.object({ columns }),
  empty: z.object({ columns }),
  acceptedValues: z.object({ column, values: z.array(z.string()).min(1) }),
  rejectedValues: z.object({ column, values: z.array(z.string()).min(1) }),
  unique: z.object({ columns }),
  freshness: z.object({ column, timePartition: z.string().optional(), maxDelaySeconds: z.number().int().positive() }),
  minMax: z.object({ column, min: z.number(), max: z.number() }),
  relativeTime: z.object({ column, relativeColumn: z.string().min(1) }),
  businessRule: z.object({ sqlExpression: z.string().min(1) }),
  minValue: z.object({ column, value: z.number() }),
  maxValue: z.object({ column, value: z.number() }),
  relationships: z.object({ column, targetTable: z.string().min(1), targetColumn: z.string().min(1) }),
  businessQuery: z.object({ sqlQuery: z.string().min(1) }),
};
export const TEMPLATE_TEST_KINDS = Object.keys(templateTests) as (keyof typeof templateTests)[];
export const TemplateTest = oneof(templateTests);
export type TemplateTest = z.infer<typeof TemplateTest>;

/** A template SQL test: the table it checks and one template test. */
export const SqlTestTemplate = withOneof({ identifier: EntityIdentifier }, templateTests);
export type SqlTestTemplate = z.infer<typeof SqlTestTemplate>;

export const SqlTestAnnotation = z.object({ name: z.string().min(1), values: z.array(z.string()).default([]) });
export type SqlTestAnnotation = z.infer<typeof SqlTestAnnotation>;

/** Fields a writer sets. Upsert is full-state: an omitted optional field is cleared. */
export const sqlTestWriteFields = {
  /** The caller's key and the upsert key. */
  id: z.string().min(1).max(200),
  name: z.string().min(1).max(255),
  description: z.string().optional(),
  severity: Severity.optional(),
  platform: DataPlatform,
  /** iCal RRULE, e.g. `FREQ=DAILY;BYHOUR=6`. */
  recurrenceRule: z.string().min(1),
  /** IANA time zone; default UTC. */
  timezone: z.string().optional(),
  annotations: z.array(SqlTestAnnotation).optional(),
  saveFailures: z.boolean().optional(),
  configId: z.string().optional(),
  source: Source.optional(),
};
const sqlTestForms = { sqlExpression: z.string().min(1), template: SqlTestTemplate };
export const SqlTestWrite = withOneof(sqlTestWriteFields, sqlTestForms);
export type SqlTestWrite = z.infer<typeof SqlTestWrite>;
/** As read: adds `deploymentRuleId` (tests made by a rule refuse direct edit and delete). */
export const SqlTest = withOneof({ ...sqlTestWriteFields, deploymentRuleId: z.string().optional() }, sqlTestForms);
export type SqlTest = z.infer<typeof SqlTest>;

export const BatchUpsertSqlTestsRequest = z.object({ sqlTests: z.array(SqlTestWrite) });
export const BatchUpsertSqlTestsResponse = z.object({
  createdIds: z.array(z.string()).default([]),
  updatedIds: z.array(z.string()).default([]),
  errors: z.array(BatchItemError).default([]),
});
export type BatchUpsertSqlTestsResponse = z.infer<typeof BatchUpsertSqlTestsResponse>;
/** BatchDelete: DELETE `/api/datachecks/sqltests/v1?ids=a&ids=b`. */
export const BatchDeleteResponse = z.object({ errors: z.array(BatchItemError).default([]) });
export type BatchDeleteResponse = z.infer<typeof BatchDeleteResponse>;
/** List: GET with `annotations`, `ids`, `configsFilter.ids`, `sources`, `pagination.*` as query parameters. */
export const ListSqlTestsRequest = z.object({
  annotations: z.array(z.string()).optional(),
  ids: z.array(z.string()).optional(),
  configsFilter: ConfigsFilter.optional(),
  sources: z.array(Source).optional(),
  pagination: Pagination.optional(),
});
export type ListSqlTestsRequest = z.infer<typeof ListSqlTestsRequest>;
export const ListSqlTestsResponse = z.object({ sqlTests: z.array(SqlTest).default([]), pageInfo: PageInfo.optional() });
export type ListSqlTestsResponse = z.infer<typeof ListSqlTestsResponse>;
export const BatchGetByIdsRequest = z.object({ ids: z.array(z.string()) });
export const BatchGetSqlTestsResponse = z.object({ sqlTests: z.record(z.string(), SqlTest).default({}) });
export type BatchGetSqlTestsResponse = z.infer<typeof BatchGetSqlTestsResponse>;

// ---- SQL-test deployment rules ----

/** One test a rule deploys on every matched table. */
export const RuleTest = withOneof(
  { name: z.string().min(1), description: z.string().optional(), severity: Severity.optional() },
  templateTests,
);
export type RuleTest = z.infer<typeof RuleTest>;

const ruleTestSettings = {
  tests: z.array(RuleTest).min(1, 'a SQL-test deployment rule needs at least one test'),
  recurrenceRule: z.string().min(1),
  timezone: z.string().optional(),
  severity: Severity.optional(),
  saveFailures: z.boolean().optional(),
  keepRemovedTests: z.boolean().optional(),
};
export const SqlTestQueryConfig = z.object({
  query: Query.optional(),
  resolverQl: z.string().optional(),
  renderedResolverQl: z.string().optional(),
  ...ruleTestSettings,
});
export const SqlTestStaticConfig = z.object({ path: z.string().min(1), ...ruleTestSettings });
export const SqlTestExclusiveQueryConfig = z.object({
  query: Query.optional(),
  resolverQl: z.string().optional(),
  renderedResolverQl: z.string().optional(),
});
export const SqlTestExclusiveStaticConfig = z.object({ path: z.string().min(1) });
export const SQL_TEST_RULE_CONFIG_KINDS = ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig'] as const;
const sqlTestRuleConfigs = {
  queryConfig: SqlTestQueryConfig,
  exclusiveQueryConfig: SqlTestExclusiveQueryConfig,
  staticConfig: SqlTestStaticConfig,
  exclusiveStaticConfig: SqlTestExclusiveStaticConfig,
};
export const sqlTestRuleWriteFields = {
  id: Uuid,
  title: z.string().min(1).max(100),
  source: Source.optional(),
  configId: z.string().optional(),
};
export const SqlTestDeploymentRuleWrite = withOneof(sqlTestRuleWriteFields, sqlTestRuleConfigs);
export type SqlTestDeploymentRuleWrite = z.infer<typeof SqlTestDeploymentRuleWrite>;
/** As read: adds `testCount`. */
export const SqlTestDeploymentRule = withOneof({ ...sqlTestRuleWriteFields, testCount: z.number().int().optional() }, sqlTestRuleConfigs);
export type SqlTestDeploymentRule = z.infer<typeof SqlTestDeploymentRule>;

const testRef = z.object({ tablePath: z.string(), sqlTestPath: z.string().optional(), testName: z.string() });
export const SqlTestDeployOverview = z.object({
  testsToCreate: z.array(testRef).default([]),
  testsToUpdate: z.array(testRef).default([]),
  testsToDelete: z.array(testRef).default([]),
  testsToKeep: z.array(testRef).default([]),
  skippedTables: z.array(z.object({ tablePath: z.string(), reason: z.string() })).default([]),
});
export type SqlTestDeployOverview = z.infer<typeof SqlTestDeployOverview>;

export const DeploySqlTestRuleRequest = z.object({ rule: SqlTestDeploymentRuleWrite });
export const BatchDeploySqlTestRulesRequest = z.object({ rules: z.array(SqlTestDeploymentRuleWrite) });
/** Overview: GET `/api/datachecks/sql-test-deployment-rules/v1/overview?rule=<JSON>`; delete overview GET `.../v1/{id}/deleted`. */
export const SqlTestDeployOverviewResponse = z.object({ overview: SqlTestDeployOverview });
export type SqlTestDeployOverviewResponse = z.infer<typeof SqlTestDeployOverviewResponse>;
export const ListSqlTestRulesRequest = z.object({
  sources: z.array(Source).optional(),
  configsFilter: ConfigsFilter.optional(),
  ruleIds: z.array(z.string()).optional(),
  pagination: Pagination.optional(),
});
export const ListSqlTestRulesResponse = z.object({ rules: z.array(SqlTestDeploymentRule).default([]), pageInfo: PageInfo.optional() });
export type ListSqlTestRulesResponse = z.infer<typeof ListSqlTestRulesResponse>;
export const BatchGetSqlTestRulesResponse = z.object({ rules: z.record(z.string(), SqlTestDeploymentRule).default({}) });
export type BatchGetSqlTestRulesResponse = z.infer<typeof BatchGetSqlTestRulesResponse>;
