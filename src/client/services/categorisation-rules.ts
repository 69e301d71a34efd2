/** Check categorisation rules v2 (wire-facts 10; spec 4.1 SCOPE_POLICIES_*). Routes: ROUTES.md. */
import { z } from 'zod';
import { BatchGetCategorisationRulesRequest, BatchGetCategorisationRulesResponse, CategorisationRuleResponse, DeleteCategorisationRuleRequest, ListCategorisationRulesRequest, ListCategorisationRulesResponse, ListRuleMatchesRequest, ListRuleMatchesResponse, PreviewCategorisationRuleRequest, PreviewCategorisationRuleResponse, UpsertCategorisationRuleRequest, type CategorisationRule, type CategorisationRuleWrite, type PreviewedRule, type RuleMatch } from '../../../schemas/platform/categorisation-rules';
import { allPages, batchGetMap, Empty, Service } from './_base';

const RULES = '/api/entities/v2/checks/categorisation-rules';

/** Categorisation rules: caller-chosen UUIDs, etags; every call is a POST with a flat body. */
export class CategorisationRulesService extends Service {
  /** UpsertRule POST `/api/entities/v2/checks/categorisation-rules` `{ id, dimension?, scope?, title?, category?, matcher?, priority?, etag? }`. */
  async upsert(rule: z.input<typeof CategorisationRuleWrite>, etag?: string): Promise<CategorisationRule> {
    const r = await this.http.call({ method: 'POST', path: RULES, body: { ...rule, etag }, requestSchema: UpsertCategorisationRuleRequest, responseSchema: CategorisationRuleResponse, idempotent: true });
    return r.rule;
  }

  /** DeleteRule POST `.../categorisation-rules/delete` `{ id, etag? }`. */
  async delete(id: string, opts: { etag?: string } = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: `${RULES}/delete`, body: { id, etag: opts.etag }, requestSchema: DeleteCategorisationRuleRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGetRules POST `.../categorisation-rules/batch-get` `{ ids }`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[]): Promise<Record<string, CategorisationRule>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${RULES}/batch-get`, body: { ids: c }, requestSchema: BatchGetCategorisationRulesRequest, responseSchema: BatchGetCategorisationRulesResponse, idempotent: true });
      return r.rules;
    });
  }

  /** ListRules POST `.../categorisation-rules/list` `{ dimension?, scope?, pagination }`; every page. */
  list(pageSize?: number, filter: Omit<z.input<typeof ListCategorisationRulesRequest>, 'pagination'> = {}): Promise<CategorisationRule[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'POST', path: `${RULES}/list`, body: { ...filter, pagination }, requestSchema: ListCategorisationRulesRequest, responseSchema: ListCategorisationRulesResponse, idempotent: true });
      return { items: r.rules, pageInfo: r.pageInfo };
    }, { pageSize });
  }

  /** PreviewRule POST `.../categorisation-rules/preview` `{ rule, exampleCount? }`: what the rule (saved or not) would categorise. */
  preview(rule: z.input<typeof PreviewedRule>, exampleCount?: number): Promise<z.output<typeof PreviewCategorisationRuleResponse>> {
    return this.http.call({ method: 'POST', path: `${RULES}/preview`, body: { rule, exampleCount }, requestSchema: PreviewCategorisationRuleRequest, responseSchema: PreviewCategorisationRuleResponse, idempotent: true });
  }

  /** ListRuleMatches POST `.../categorisation-rules/matches` `{ id, pagination }`: the checks a stored rule matches; every page. */
  listMatches(id: string, pageSize?: number): Promise<RuleMatch[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'POST', path: `${RULES}/matches`, body: { id, pagination }, requestSchema: ListRuleMatchesRequest, responseSchema: ListRuleMatchesResponse, idempotent: true });
      return { items: r.matches, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}
