/**
 * SQL tests and SQL-test deployment rules (upstream facts "SQL tests", "SQL-test deployment rules").
 */
import { z } from 'zod';
import { BatchItemError, ConfigsFilter, Empty, oneof, PageInfo, Pagination, protoEnum, Source, Uuid, withOneof } from './common';
import { tolerant } from './wire';
import { EntityIdentifier, Query } from './entities';
import { Severity } from './deployment-rules';

/**
 * The data platform a SQL test runs on: exactly one key (wire-facts 8.2; neutral names, the
 * real wire keys are the data systems' own, "neutral keys stay").
 */
export const DataPlatform = oneof({
  warehouseProject: z.object({ project: z.string() }),
  warehouseAccount: z.object({ account: z.string(), database: z.string() }),
  warehouseCluster: z.object({ cluster: z.string(), database: z.string() }),
  relational: z.object({ host: z.string(), database: z.string() }),
  mysqlLike: z.object({ host: z.string() }),
  columnStore: z.object({ host: z.string(), schema: z.string() }),
  lakehouse: z.object({ workspace: z.string() }),
  queryEngine: z.object({ coordinator: z.string().optional() }),
  transformCloud: z.object({ apiEndpoint: z.string(), accountId: z.string(), projectId: z.string() }),
  sqlModel: z.object({ defaultDatabaseInstance: z.string() }),
  embeddedAnalytics: z.object({ account: z.string().optional() }),
  enterpriseRelational: z.object({ host: z.string(), database: z.string() }),
  serviceRelational: z.object({ host: z.string(), serviceName: z.string() }),
  serverlessQuery: z.object({ instance: z.string(), catalog: z.string() }),
  analyticsSuite: z.object({ instance: z.string(), workspaceId: z.string().optional(), tenantId: z.string().optional() }),
  unknown: Empty,
  integrationId: z.string().min(1),
});
export type DataPlatform = z.infer<typeof DataPlatform>;

const column = z.string().min(1);
const columns = z.array(column).min(1);

/**
 * The template tests, by the names dqform's code and YAML use (`notNull`, ...); each names its
 * column(s). On the wire every key ends in `Test` (`notNullTest`, wire-facts section 5):
 * {@link testKeysToWire} / {@link testKeysFromWire}. The fields inside each test are dqform's
 * (not shown upstream): a choice.
 */
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
export type TemplateTestKind = keyof typeof templateTests;
export const TEMPLATE_TEST_KINDS = Object.keys(templateTests) as TemplateTestKind[];
/** The wire key of a template test: `notNull` -> `notNullTest`. */
export const WIRE_TEST_KEY = Object.fromEntries(TEMPLATE_TEST_KINDS.map((k) => [k, `${k}Test`])) as Record<TemplateTestKind, string>;
const FROM_WIRE_TEST_KEY: Record<string, TemplateTestKind> = Object.fromEntries(TEMPLATE_TEST_KINDS.map((k) => [`${k}Test`, k]));
/** The template tests under their wire keys. */
export const wireTemplateTests = Object.fromEntries(TEMPLATE_TEST_KINDS.map((k) => [WIRE_TEST_KEY[k], templateTests[k]])) as {
  [K in TemplateTestKind as `${K}Test`]: (typeof templateTests)[K];
};
export const WIRE_TEMPLATE_TEST_KINDS = TEMPLATE_TEST_KINDS.map((k) => WIRE_TEST_KEY[k]);
export const TemplateTest = oneof(templateTests);
export type TemplateTest = z.infer<typeof TemplateTest>;

/** `o` with its template-test key renamed to the wire form (`notNull` -> `notNullTest`); a copy. */
export function testKeysToWire<T extends object>(o: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[(WIRE_TEST_KEY as Record<string, string>)[k] ?? k] = v;
  return out;
}
/** `o` with its wire template-test key renamed to dqform's (`notNullTest` -> `notNull`); a copy. */
export function testKeysFromWire<T extends object>(o: T): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) out[FROM_WIRE_TEST_KEY[k] ?? k] = v;
  return out;
}

/** A template SQL test (dqform's names): the table it checks and one template test. */
export const SqlTestTemplate = withOneof({ identifier: EntityIdentifier }, templateTests);
export type SqlTestTemplate = z.infer<typeof SqlTestTemplate>;
/** The same on the wire: `{ identifier, <kind>Test: {...} }`. */
export const WireSqlTestTemplate = withOneof({ identifier: EntityIdentifier }, wireTemplateTests);
export type WireSqlTestTemplate = z.infer<typeof WireSqlTestTemplate>;

export const SqlTestAnnotation = z.object({ name: z.string().min(1).max(50), values: z.array(z.string()).default([]) });
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
function nameForBusiness(t: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (t.name === undefined && Object.keys(t).some((k) => BUSINESS_KINDS.has(k) && t[k] !== undefined)) {
    ctx.addIssue({ code: 'custom', path: ['name'], message: 'a business rule or business query test needs a name (it is its identity)' });
  }
}

/**
 * One test a rule deploys on every matched table (dqform's names). dqform requires a `name`
 * for every test (the platform only for the business kinds): it is how plans show each test.
 */
export const RuleTest = withOneof(
  { name: z.string().min(1), description: z.string().optional(), severity: Severity.optional() },
  templateTests,
);
export type RuleTest = z.infer<typeof RuleTest>;
/** The same on the wire (`<kind>Test` keys; `name` required for the business kinds only). */
export const WireRuleTest = withOneof(
  { name: z.string().min(1).optional(), description: z.string().optional(), severity: Severity.optional() },
  wireTemplateTests,
).superRefine(nameForBusiness);
export type WireRuleTest = z.infer<typeof WireRuleTest>;

const ruleTestSettings = <T extends z.ZodType>(test: T) => ({
  tests: z.array(test).min(1, 'a SQL-test deployment rule needs at least one test'),
  /** Empty: on demand; if set it must carry an inline `DTSTART:` upstream (the emulator takes a plain RRULE too). */
  recurrenceRule: z.string().optional(),
  timezone: z.string().optional(),
  severity: Severity.optional(),
  saveFailures: z.boolean().optional(),
});
const queryFields = {
  query: Query.optional(),
  resolverQl: z.string().optional(),
  /** Output only. */
  renderedResolverQl: z.string().optional(),
};
/** Query config (dqform's names); `keepRemovedTests` exists on query configs only. */
export const SqlTestQueryConfig = z.object({ ...queryFields, ...ruleTestSettings(RuleTest), keepRemovedTests: z.boolean().optional() });
export const SqlTestStaticConfig = z.object({ path: z.string().min(1), ...ruleTestSettings(RuleTest) });
export const SqlTestExclusiveQueryConfig = z.object(queryFields);
export const SqlTestExclusiveStaticConfig = z.object({ path: z.string().min(1) });
export const WireSqlTestQueryConfig = z.object({ ...queryFields, ...ruleTestSettings(WireRuleTest), keepRemovedTests: z.boolean().optional() });
export const WireSqlTestStaticConfig = z.object({ path: z.string().min(1), ...ruleTestSettings(WireRuleTest) });
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

/** A rule's config object with its tests' keys in wire form (or back): a copy. */
export function ruleConfigTestKeys(config: Record<string, unknown>, dir: 'toWire' | 'fromWire'): Record<string, unknown> {
  if (!Array.isArray(config.tests)) return config;
  const f = dir === 'toWire' ? testKeysToWire : testKeysFromWire;
  return { ...config, tests: (config.tests as object[]).map((t) => (t && typeof t === 'object' ? f(t) : t)) };
}
/** A SQL-test rule (or its config kinds) with every test key renamed: a copy. */
export function sqlTestRuleTestKeys(rule: Record<string, unknown>, dir: 'toWire' | 'fromWire'): Record<string, unknown> {
  const out = { ...rule };
  for (const k of SQL_TEST_RULE_CONFIG_KINDS) if (out[k] && typeof out[k] === 'object') out[k] = ruleConfigTestKeys(out[k] as Record<string, unknown>, dir);
  return out;
}
/** A SQL test with its template's test key renamed: a copy. */
export function sqlTestTemplateKeys(test: Record<string, unknown>, dir: 'toWire' | 'fromWire'): Record<string, unknown> {
  if (!test.template || typeof test.template !== 'object') return test;
  return { ...test, template: (dir === 'toWire' ? testKeysToWire : testKeysFromWire)(test.template as object) };
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
