/** Automated-monitor deployment rules (spec 4.5, upstream facts). Routes: ROUTES.md. */
import { z } from 'zod';
import { BatchDeployDeploymentRulesRequest, BatchGetDeploymentRulesRequest, BatchGetDeploymentRulesResponse, DeployOverviewRequest, DeployDeploymentRuleRequest, DeploymentOverview, DeploymentOverviewResponse, DeploymentRule, DeploymentRuleWrite, ListDeploymentRulesRequest, ListDeploymentRulesResponse } from '../../../schemas/platform/deployment-rules';
import { PREVIEW_METHODS } from '../../../schemas/platform/grpc';
import { toQuery } from '../../../schemas/platform/wire';
import { seg } from '../http';
import { overviewQuery } from './overview-query';
import { grpcOverview, parseRule, preview } from './previews';
import { batchGetMap, RuleWritesService, type RuleWriteRoutes } from './_base';

const RULES = '/api/monitors/automated/v1/deployment-rules';
const RULE = '/api/monitors/automated/v1/deployment-rule';

/**
 * Deploy POST `.../deployment-rules/deployed` `{ deploymentRule }` (save and sync monitors);
 * BatchDeploy POST `.../deployment-rules/batch/deployed`; Delete DELETE `.../deployment-rule/{id}`
 * (deletes its monitors unless the rule keeps them).
 */
export class DeploymentRulesService extends RuleWritesService<z.input<typeof DeploymentRuleWrite>> {
  protected readonly routes: RuleWriteRoutes = { deploy: `${RULES}/deployed`, deployRequest: DeployDeploymentRuleRequest, batchDeploy: `${RULES}/batch/deployed`, batchDeployRequest: BatchDeployDeploymentRulesRequest, one: RULE };

  /**
   * List GET `.../deployment-rules` with the filter as query parameters (`sources`,
   * `configsFilter.ids`, `ruleIds`, `ruleTypes` repeated, enums as numbers); every page.
   * Items this version cannot model are returned marked (schemas/platform/wire.ts `unmodelledOf`).
   */
  list(filter: Omit<z.input<typeof ListDeploymentRulesRequest>, 'pagination'> = {}, pageSize?: number): Promise<DeploymentRule[]> {
    return this.listFiltered(RULES, ListDeploymentRulesRequest, ListDeploymentRulesResponse, (r) => r.deploymentRules, filter, pageSize);
  }

  /** Batch GET `.../deployment-rules/batch?ids=a&ids=b`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[]): Promise<Record<string, DeploymentRule>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'GET', path: `${RULES}/batch`, query: toQuery(BatchGetDeploymentRulesRequest, { ids: c }), responseSchema: BatchGetDeploymentRulesResponse, idempotent: true });
      return r.deploymentRules;
    });
  }

  /**
   * Deploy overview: what deploying `rule` would create, delete and change. Over REST (GET
   * `.../deployment-rule`, the rule as dotted query parameters) when the rule fits a query
   * string; over gRPC (`DeploymentRulesService/GetDeployOverview`) when it does not
   * (`metricOptions`, product `upstream`/`self` markers) or when configured: see ./previews.ts.
   * @throws PreviewUnavailableError when no transport can ask.
   */
  async deployOverview(rule: z.input<typeof DeploymentRuleWrite>): Promise<DeploymentOverview> {
    const canonical = parseRule(DeploymentRuleWrite, rule);
    return preview(this.http, {
      rest: () => this.restDeployOverview(canonical as Record<string, unknown>),
      grpc: async () => (await grpcOverview(this.http, PREVIEW_METHODS.GetDeployOverview, { deploymentRule: canonical }, DeploymentOverviewResponse)).overview,
    });
  }

  /**
   * GET `.../deployment-rule` with the rule as dotted query parameters
   * (`deploymentRule.id=...&deploymentRule.queryConfig.resolverQl=...&deploymentRule.queryConfig.metricIds=1`),
   * a structured query as its ResolverQL rendering. @throws PreviewUnavailableError, before
   * sending anything, when the rule holds a repeated message or an empty message marker.
   */
  private async restDeployOverview(canonical: Record<string, unknown>): Promise<DeploymentOverview> {
    const query = overviewQuery(DeployOverviewRequest, 'deploymentRule', canonical, RULE);
    const r = await this.http.call({ method: 'GET', path: RULE, query, responseSchema: DeploymentOverviewResponse, idempotent: true });
    return r.overview;
  }

  /**
   * Deleted overview: what deleting the stored rule removes. REST GET
   * `.../deployment-rule/{id}/deleted`; gRPC `GetDeployDeleteOverview` when `DQ_PREVIEW_TRANSPORT=grpc`.
   */
  async deleteOverview(id: string): Promise<DeploymentOverview> {
    return preview(this.http, {
      rest: async () => (await this.http.call({ method: 'GET', path: `${RULE}/${seg(id)}/deleted`, responseSchema: DeploymentOverviewResponse, idempotent: true })).overview,
      grpc: async () => (await grpcOverview(this.http, PREVIEW_METHODS.GetDeployDeleteOverview, { id }, DeploymentOverviewResponse)).overview,
    });
  }
}
