/**
 * The sql tests kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/sql-tests.ts.
 */
import { z } from 'zod';
import { withOneof } from '../../platform/common';
import { Severity } from '../../platform/deployment-rules';
import { DataPlatform, SqlTestAnnotation, SqlTestExclusiveQueryConfig, SqlTestExclusiveStaticConfig, SqlTestQueryConfig, SqlTestStaticConfig, SqlTestTemplate } from '../../platform/sql-tests';
import { defineKind, pinnedId, yamlMeta } from '../kind';

// ---- the kinds (schemas/model/kind.ts) ----
export const DesiredSqlTest = withOneof(
  {
    id: pinnedId,
    name: z.string().min(1).max(255).describe('the test\'s name'),
    description: z.string().optional().describe('what the test is for'),
    severity: Severity.optional().describe('severity of the test\'s failures'),
    platform: DataPlatform.describe('the data platform the test runs on: exactly one key'),
    /** iCal RRULE; absent: the test runs on demand. */
    recurrenceRule: z.string().min(1).optional().describe('iCal RRULE for when the test runs, e.g. FREQ=DAILY;BYHOUR=6; absent: on demand'),
    timezone: z.string().optional().describe('IANA time zone of the schedule (default UTC)'),
    annotations: z.array(SqlTestAnnotation).optional().describe('annotations to find the test by'),
    saveFailures: z.boolean().optional().describe('keep the failing rows for inspection'),
  },
  {
    sqlExpression: z.string().min(1).describe('SQL query; every row it returns is a failure'),
    template: SqlTestTemplate.describe('a template test on one table (notNull, unique, freshness, ...)'),
  },
);
export type DesiredSqlTest = z.infer<typeof DesiredSqlTest>;

export const DesiredSqlTestDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100).describe('the rule\'s title') },
  {
    queryConfig: SqlTestQueryConfig.describe('deploy the tests on every table a query selects'),
    exclusiveQueryConfig: SqlTestExclusiveQueryConfig.describe('exclude the tables a query selects from other rules'),
    staticConfig: SqlTestStaticConfig.describe('deploy the tests on one table'),
    exclusiveStaticConfig: SqlTestExclusiveStaticConfig.describe('exclude one table from other rules'),
  },
);
export type DesiredSqlTestDeploymentRule = z.infer<typeof DesiredSqlTestDeploymentRule>;

// ---- dqform.yaml ----
export const YamlSqlTest = DesiredSqlTest.safeExtend(yamlMeta);
export const YamlSqlTestDeploymentRule = DesiredSqlTestDeploymentRule.safeExtend(yamlMeta);

export const sqlTestKindRecord = defineKind({
  type: 'dq_sql_test',
  order: 70,
  desired: DesiredSqlTest,
  yaml: { section: 'sqlTests', entry: YamlSqlTest, what: 'SQL tests' },
});

export const sqlTestDeploymentRuleKindRecord = defineKind({
  type: 'dq_sql_test_deployment_rule',
  order: 80,
  desired: DesiredSqlTestDeploymentRule,
  yaml: { section: 'sqlTestDeploymentRules', entry: YamlSqlTestDeploymentRule, what: 'SQL-test deployment rules' },
});
