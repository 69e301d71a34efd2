/**
 * `dq_sql_test_deployment_rule`: SQL-test deployment rules.
 *
 * - read: List every rule of the workspace (no filter; page size {@link LIST_PAGE_SIZE}):
 *   `ceil(n / pageSize)` requests; the list answers full rules.
 * - create and update: Deploy with `id`, `configId = namespace`, `source = SOURCE_API`; rules
 *   carry no etag. writeMany: BatchDeploy in chunks of 200.
 * - delete: Delete by id (the server deletes every test the rule deployed); NOT_FOUND is success.
 * - preview: the deploy overview (over gRPC for query and static configs: `tests[]`), or the
 *   delete overview with `losesHistory: true`; a failure is "effects unknown".
 * - normalisation: timezone `UTC` (the default) compares as absent at the config level.
 */
import { SQL_TEST_RULE_CONFIG_KINDS, sqlTestRuleFromWire, sqlTestRuleToWire, type SqlTestDeployOverview, type SqlTestDeploymentRuleWrite } from '../../../schemas/platform/sql-tests';
import type { Change, Effects } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { configKind } from '../monitor-deployment-rule/handler';
import { dropDefaultTimezone, testsRead } from '../sql-test/handler';
import { afterOf, effectsOf, omit, qlForm } from '../shared/support';
import type { HandlerContext, ResourceHandler } from '../shared/types';
import { sqlTestDeploymentRuleDescriptor } from './descriptor';
import { ruleHandler } from '../shared/rule';

/** Server-computed and identity fields of a SQL-test rule. */
export const SQL_TEST_RULE_DROP = ['id', 'configId', 'source', 'testCount'] as const;

/** The comparable form of a SQL-test rule (live or desired). */
export function canonicalSqlTestRule(r: Record<string, unknown>): Record<string, unknown> {
  const o = omit(r, SQL_TEST_RULE_DROP);
  const kind = configKind(o, SQL_TEST_RULE_CONFIG_KINDS);
  if (kind) {
    let c = o[kind] as Record<string, unknown>;
    if (kind === 'queryConfig' || kind === 'exclusiveQueryConfig') c = qlForm(c);
    o[kind] = dropDefaultTimezone(c);
  }
  return normalise(o);
}

/** The comparable form of a live SQL-test rule: its tests' platform messages read back in dqform's shape. */
export function canonicalLiveSqlTestRule(r: Record<string, unknown>): Record<string, unknown> {
  return canonicalSqlTestRule(sqlTestRuleFromWire(r).value);
}

/** The Deploy body of a change (each test as the platform's `RuleTest`). */
export function sqlTestRuleWrite(change: Change, ctx: HandlerContext): SqlTestDeploymentRuleWrite {
  return sqlTestRuleToWire({ ...afterOf(change), id: change.id, configId: ctx.namespace, source: 'SOURCE_API' }) as unknown as SqlTestDeploymentRuleWrite;
}

const ref = (t: { tablePath: string; testName: string }): string => `${t.tablePath}/${t.testName}`;
const refs = (a: readonly { tablePath: string; testName: string }[]): string[] => [...new Set(a.map(ref))].sort();

/** Maps a SQL-test deploy (or delete) overview to {@link Effects}; a delete loses the tests' history. */
export function sqlTestOverviewEffects(source: 'sql-test-overview' | 'sql-test-delete-overview', ov: SqlTestDeployOverview): Effects {
  return effectsOf({
    source,
    testsToCreate: refs(ov.testsToCreate),
    testsToUpdate: refs(ov.testsToUpdate),
    testsToDelete: refs(ov.testsToDelete),
    testsToKeep: refs(ov.testsToKeep),
    skipped: ov.skippedTables.map((s) => ({ assetPath: s.tablePath, reason: s.reason })).sort((a, b) => (a.assetPath < b.assetPath ? -1 : a.assetPath > b.assetPath ? 1 : 0)),
    losesHistory: source === 'sql-test-delete-overview',
  });
}

/** The `dq_sql_test_deployment_rule` handler. */
export const sqlTestDeploymentRulesHandler: ResourceHandler = ruleHandler<SqlTestDeploymentRuleWrite, SqlTestDeployOverview>({
  descriptor: sqlTestDeploymentRuleDescriptor,

  read: testsRead((client) => client.sqlTestRules, sqlTestRuleFromWire),

  fromLive: canonicalLiveSqlTestRule,
  fromDesired: canonicalSqlTestRule,
  write: sqlTestRuleWrite,
  service: (client) => client.sqlTestRules,

  preview: {
    sources: { deploy: 'sql-test-overview', delete: 'sql-test-delete-overview' },
    deployOverview: (client, change, ctx) => client.sqlTestRules.overview(sqlTestRuleWrite(change, ctx)),
    deleteOverview: (client, id) => client.sqlTestRules.deleteOverview(id),
    effects: (source, ov) => sqlTestOverviewEffects(source as 'sql-test-overview' | 'sql-test-delete-overview', ov),
    failed: (source) => ({ losesHistory: source === 'sql-test-delete-overview' }),
  },
});
