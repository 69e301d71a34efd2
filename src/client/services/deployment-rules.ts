/** Automated-monitor deployment rules (spec 4.5, upstream facts). Routes: ROUTES.md. */
import { z } from 'zod';
import { BATCH_LIMIT } from '../../../schemas/common';
import {
  BatchDeployDeploymentRulesRequest,
  BatchDeployResponse,
  BatchGetDeploymentRulesRequest,
  BatchGetDeploymentRulesResponse,
  DeployOverviewRequest,
  DeployDeploymentRuleRequest,
  DeploymentOverview,
  DeploymentOverviewResponse,
  DeploymentRule,
  DeploymentRuleWrite,
  ListDeploymentRulesRequest,
  ListDeploymentRulesResponse,
} from '../../../schemas/deployment-rules';
import { toQuery } from '../../../schemas/wire';
import { seg } from '../http';
import { overviewQuery } from './overview-query';
import { BatchResult, batched } from '../paging';
import { allPages, batchGetMap, BatchWriteOptions, Empty, finish, Service } from './_base';

const RULES = '/api/monitors/automated/v1/deployment-rules';
const RULE = '/api/monitors/automated/v1/deployment-rule';

export class DeploymentRulesService extends Service {
  /** Deploy POST `.../deployment-rules/deployed` `{ deploymentRule }`: save and sync monitors. */
  async deploy(rule: z.input<typeof DeploymentRuleWrite>): Promise<void> {
    await this.http.call({ method: 'POST', path: `${RULES}/deployed`, body: { deploymentRule: rule }, requestSchema: DeployDeploymentRuleRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchDeploy POST `.../deployment-rules/batch/deployed`, chunked to 200; per-item errors returned. */
  async batchDeploy(rules: z.input<typeof DeploymentRuleWrite>[], opts: BatchWriteOptions = {}): Promise<BatchResult<string>> {
    const res = await batched(
      rules,
      async (c) => {
        const r = await this.http.call({ method: 'POST', path: `${RULES}/batch/deployed`, body: { deploymentRules: c }, requestSchema: BatchDeployDeploymentRulesRequest, responseSchema: BatchDeployResponse, idempotent: true });
        return { items: r.deployedIds, errors: r.errors };
      },
      { limit: opts.limit ?? BATCH_LIMIT },
    );
    return finish(res, opts);
  }

  /** Delete DELETE `.../deployment-rule/{id}` (deletes its monitors unless the rule keeps them). */
  async delete(id: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: `${RULE}/${seg(id)}`, responseSchema: Empty, idempotent: true });
  }

  /**
   * List GET `.../deployment-rules` with the filter as query parameters (`sources`,
   * `configsFilter.ids`, `ruleIds`, `ruleTypes` repeated, enums as numbers); every page.
   * Items this version cannot model are returned marked (schemas/wire.ts `unmodelledOf`).
   */
  async list(filter: Omit<z.input<typeof ListDeploymentRulesRequest>, 'pagination'> = {}, pageSize?: number): Promise<DeploymentRule[]> {
    const q = ListDeploymentRulesRequest.parse(filter);
    return allPages(async (pagination) => {
      const query = toQuery(ListDeploymentRulesRequest, { ...q, pagination });
      const r = await this.http.call({ method: 'GET', path: RULES, query, responseSchema: ListDeploymentRulesResponse, idempotent: true });
      return { items: r.deploymentRules, pageInfo: r.pageInfo };
    }, { pageSize });
  }

  /** Batch GET `.../deployment-rules/batch?ids=a&ids=b`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[]): Promise<Record<string, DeploymentRule>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'GET', path: `${RULES}/batch`, query: toQuery(BatchGetDeploymentRulesRequest, { ids: c }), responseSchema: BatchGetDeploymentRulesResponse, idempotent: true });
      return r.deploymentRules;
    });
  }

  /**
   * Deploy overview GET `.../deployment-rule` with the rule as dotted query parameters
   * (`deploymentRule.id=...&deploymentRule.queryConfig.resolverQl=...&deploymentRule.queryConfig.metricIds=1`):
   * what deploying `rule` would create, delete and change. A structured query goes as its
   * ResolverQL rendering. @throws PreviewUnavailableError, before sending anything, when the
   * rule holds a repeated message (`metricOptions`) or an empty message marker (product
   * `upstream`/`self`), which a GET query string cannot carry.
   */
  async deployOverview(rule: z.input<typeof DeploymentRuleWrite>): Promise<DeploymentOverview> {
    const canonical = DeploymentRuleWrite.parse(rule) as Record<string, unknown>;
    const query = overviewQuery(DeployOverviewRequest, 'deploymentRule', canonical, RULE);
    const r = await this.http.call({ method: 'GET', path: RULE, query, responseSchema: DeploymentOverviewResponse, idempotent: true });
    return r.overview;
  }

  /** Deleted overview GET `.../deployment-rule/{id}/deleted`: what deleting the rule removes. */
  async deleteOverview(id: string): Promise<DeploymentOverview> {
    const r = await this.http.call({ method: 'GET', path: `${RULE}/${seg(id)}/deleted`, responseSchema: DeploymentOverviewResponse, idempotent: true });
    return r.overview;
  }
}
