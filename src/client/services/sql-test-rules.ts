/** SQL-test deployment rules (`datachecks.sqltests.v1.SqlTestsDeploymentRulesService`). Routes: ROUTES.md. */
import { z } from 'zod';
import { BATCH_LIMIT } from '../../../schemas/platform/common';
import { BatchDeleteByIdsRequest, BatchDeleteRulesResponse, BatchDeploySqlTestRulesRequest, BatchGetByIdsRequest, BatchGetSqlTestRulesResponse, DeploySqlTestRuleRequest, ListSqlTestRulesRequest, ListSqlTestRulesResponse, SqlTestDeployOverview, SqlTestDeployOverviewResponse, SqlTestOverviewRequest, SqlTestDeploymentRule, SqlTestDeploymentRuleWrite, SQL_TEST_RULE_CONFIG_KINDS } from '../../../schemas/platform/sql-tests';
import { PREVIEW_METHODS } from '../../../schemas/platform/grpc';
import { toQuery } from '../../../schemas/platform/wire';
import { seg } from '../http';
import { overviewQuery } from './overview-query';
import { grpcOverview, parseRule, preview } from './previews';
import { BatchResult, batched } from '../paging';
import { BatchWriteOptions, finish, RuleWritesService, type RuleWriteRoutes, succeeded } from './_base';

const BASE = '/api/datachecks/sql-test-deployment-rules/v1';

/**
 * Whether the rule holds tests (its query or static config's `tests[]`): a repeated message,
 * which has no query-string form, so REST refuses the rule before sending ({@link overviewQuery}).
 */
function holdsTests(rule: Record<string, unknown>): boolean {
  return SQL_TEST_RULE_CONFIG_KINDS.some((k) => {
    const c = rule[k];
    return !!c && typeof c === 'object' && Array.isArray((c as { tests?: unknown }).tests) && (c as { tests: unknown[] }).tests.length > 0;
  });
}

/**
 * DeploySqlTestDeploymentRule POST `.../v1/deployed` `{ deploymentRule }` (test keys in wire form,
 * `notNullTest`); BatchDeploySqlTestDeploymentRules POST `.../v1/batch/deployed`
 * `{ deploymentRules }`; DeleteSqlTestDeploymentRule DELETE `.../v1/{id}` (deletes every test it deployed).
 */
export class SqlTestRulesService extends RuleWritesService<z.input<typeof SqlTestDeploymentRuleWrite>> {
  protected readonly routes: RuleWriteRoutes = { deploy: `${BASE}/deployed`, deployRequest: DeploySqlTestRuleRequest, batchDeploy: `${BASE}/batch/deployed`, batchDeployRequest: BatchDeploySqlTestRulesRequest, one: BASE };

  /** BatchDeleteSqlTestDeploymentRules DELETE `.../v1/batch?ids=a&ids=b`, chunked to 200 (answers `{}`; an `errors` list is read if present). */
  async batchDelete(ids: readonly string[], opts: BatchWriteOptions = {}): Promise<BatchResult<string>> {
    const res = await batched(
      ids,
      async (c) => {
        const r = await this.http.call({ method: 'DELETE', path: `${BASE}/batch`, query: toQuery(BatchDeleteByIdsRequest, { ids: c }), responseSchema: BatchDeleteRulesResponse, idempotent: true });
        return { items: succeeded(c, r.errors), errors: r.errors };
      },
      { limit: opts.limit ?? BATCH_LIMIT },
    );
    return finish(res, opts);
  }

  /**
   * GetSqlTestDeployOverview: preview of a deploy. Over REST (GET `.../v1/overview`, the rule
   * as dotted query parameters) when the rule fits a query string (the exclusive configs); over
   * gRPC (`SqlTestsDeploymentRulesService/GetSqlTestDeployOverview`) for query and static
   * configs, whose `tests[]` is a repeated message, or when configured: see ./previews.ts.
   * @throws PreviewUnavailableError when no transport can ask.
   */
  async overview(rule: z.input<typeof SqlTestDeploymentRuleWrite>): Promise<SqlTestDeployOverview> {
    const canonical = parseRule(SqlTestDeploymentRuleWrite, rule) as Record<string, unknown>;
    return preview(this.http, {
      rest: () => this.restOverview(canonical),
      restRefuses: () => holdsTests(canonical),
      grpc: async () => {
        // the REST form is the proto3 JSON of the gRPC request: tests are already `RuleTest` messages
        return (await grpcOverview(this.http, PREVIEW_METHODS.GetSqlTestDeployOverview, { deploymentRule: canonical }, SqlTestDeployOverviewResponse)).overview;
      },
    });
  }

  /**
   * GET `.../v1/overview` with the rule as dotted query parameters
   * (`deploymentRule.id=...&deploymentRule.exclusiveQueryConfig.resolverQl=...`).
   * @throws PreviewUnavailableError, before sending anything, for a rule that holds `tests[]`
   * (query and static configs): a repeated message has no query-string form.
   */
  private async restOverview(canonical: Record<string, unknown>): Promise<SqlTestDeployOverview> {
    const query = overviewQuery(SqlTestOverviewRequest, 'deploymentRule', canonical, `${BASE}/overview`);
    const r = await this.http.call({ method: 'GET', path: `${BASE}/overview`, query, responseSchema: SqlTestDeployOverviewResponse, idempotent: true });
    return r.overview;
  }

  /**
   * GetSqlTestDeployDeleteOverview: preview of a delete. REST GET `.../v1/{id}/deleted`; gRPC
   * when `DQ_PREVIEW_TRANSPORT=grpc`.
   */
  async deleteOverview(id: string): Promise<SqlTestDeployOverview> {
    return preview(this.http, {
      rest: async () => (await this.http.call({ method: 'GET', path: `${BASE}/${seg(id)}/deleted`, responseSchema: SqlTestDeployOverviewResponse, idempotent: true })).overview,
      grpc: async () => (await grpcOverview(this.http, PREVIEW_METHODS.GetSqlTestDeployDeleteOverview, { id }, SqlTestDeployOverviewResponse)).overview,
    });
  }

  /** BatchGetSqlTestDeploymentRules POST `.../v1/by-id` `{ ids }`, chunked to 200 -> `{ deploymentRules }` map keyed by id. */
  batchGet(ids: readonly string[]): Promise<Record<string, SqlTestDeploymentRule>> {
    return this.batchGetByIds(`${BASE}/by-id`, BatchGetByIdsRequest, BatchGetSqlTestRulesResponse, (r) => r.deploymentRules, ids);
  }

  /** ListSqlTestDeploymentRules GET `.../v1` with the filter as query parameters; every page. */
  list(filter: Omit<z.input<typeof ListSqlTestRulesRequest>, 'pagination'> = {}, pageSize?: number): Promise<SqlTestDeploymentRule[]> {
    return this.listFiltered(BASE, ListSqlTestRulesRequest, ListSqlTestRulesResponse, (r) => r.deploymentRules, filter, pageSize);
  }
}
