/**
 * Check categorisation rules (`entities.checks.v2.ChecksCategorisationRulesService`, spec 2.6
 * "Check categories", spec 4.1 SCOPE_POLICIES_*; wire-facts 10). All POST with `body: "*"`
 * (reads too), under `/api/entities/v2/checks/categorisation-rules`.
 *
 * A rule maps a predicate on checks (its `matcher`) to a category on one dimension. Each check
 * resolves to at most one category per dimension, in descending precedence: the category set on
 * the check, the category its producing tool declares, then the matching rule of highest
 * `priority`. Platform-provided rules (scope GLOBAL) exist in every workspace and cannot be
 * edited by it.
 *
 * Choices where the facts are silent (ROUTES.md "choice"; src/emulator/README.md):
 * - `matcher.attributes` is `{ checkTypes?, nameContains?, assetPathPrefix? }` (at least one):
 *   a check matches when it meets every attribute given. `matcher.expression` is ResolverQL
 *   evaluated on the check's asset.
 * - PreviewRule `/preview` takes `{ rule, exampleCount? }` (the rule need not be saved) and answers
 *   how many checks the matcher selects, how many the rule would categorise (after precedence),
 *   how many of those change category, and examples. ListRuleMatches `/matches` takes `{ id,
 *   pagination? }` and answers the checks a stored rule matches, each with the category it has
 *   now and whether this rule gives it.
 * - Of two matching rules, the higher `priority` wins; equal priorities: the smaller id.
 */
import { z } from 'zod';
import { Empty, Etag, oneof, PageInfo, Pagination, protoEnum, Timestamp, Uuid } from './common';
import { Actor } from './governance';
import { defineOperations } from './operation';
import { tolerant } from './wire';

/** The dimension a rule categorises (wire-facts 10: TECHNICAL=1, GOVERNANCE=2). */
export const CategoryDimensionEnum = protoEnum({ DIMENSION_UNSPECIFIED: 0, TECHNICAL: 1, GOVERNANCE: 2 });
export const CategoryDimension = CategoryDimensionEnum.schema;
export type CategoryDimension = z.infer<typeof CategoryDimension>;

/** Who provides a rule (wire-facts 10: GLOBAL=1, the platform's; WORKSPACE=2, the workspace's). */
export const RuleScopeEnum = protoEnum({ RULE_SCOPE_UNSPECIFIED: 0, GLOBAL: 1, WORKSPACE: 2 });
export const RuleScope = RuleScopeEnum.schema;
export type RuleScope = z.infer<typeof RuleScope>;

/** The kinds of check a rule can match by attribute. */
export const CHECK_TYPES = ['sqlTest', 'monitor'] as const;
export type CheckType = (typeof CHECK_TYPES)[number];

/** Priority bounds (wire-facts 10: +-1e6). */
export const RULE_PRIORITY_MAX = 1_000_000;
/** Title and category lengths (wire-facts 10: 1-200). */
export const RULE_TEXT_MAX = 200;
/** Expression length (wire-facts 10: 1-20000). */
export const RULE_EXPRESSION_MAX = 20000;

/** Matcher attributes: a check matches when it meets every attribute given (at least one). */
export const RuleAttributes = z
  .object({
    checkTypes: z.array(z.enum(CHECK_TYPES)).min(1).max(2).optional().describe('the kinds of check matched: sqlTest, monitor'),
    nameContains: z.string().min(1).max(RULE_TEXT_MAX).optional().describe('matches checks whose name contains this text (case-insensitive)'),
    assetPathPrefix: z.string().min(1).max(2000).optional().describe('matches checks on assets whose path starts with this, e.g. wh-prod::mart'),
  })
  .refine((a) => a.checkTypes !== undefined || a.nameContains !== undefined || a.assetPathPrefix !== undefined, { message: 'attributes need at least one of checkTypes, nameContains, assetPathPrefix' });
export type RuleAttributes = z.infer<typeof RuleAttributes>;

/** What a rule matches: attributes, or a ResolverQL expression on the check's asset. */
export const RuleMatcher = oneof({
  attributes: RuleAttributes.describe('match checks by kind, name and asset path'),
  expression: z.string().min(1).max(RULE_EXPRESSION_MAX).describe('ResolverQL evaluated on the check\'s asset, e.g. with_annotation("pii")'),
});
export type RuleMatcher = z.infer<typeof RuleMatcher>;

/** A rule's priority: among matching rules the highest wins. */
export const RulePriority = z.number().int().min(-RULE_PRIORITY_MAX).max(RULE_PRIORITY_MAX);

/** UpsertRule fields (flat body): an omitted optional field is left unchanged. */
export const CategorisationRuleWrite = z.object({
  id: Uuid,
  dimension: CategoryDimension.optional(),
  scope: RuleScope.optional(),
  title: z.string().min(1).max(RULE_TEXT_MAX).optional(),
  category: z.string().min(1).max(RULE_TEXT_MAX).optional(),
  matcher: RuleMatcher.optional(),
  priority: RulePriority.optional(),
});
export type CategorisationRuleWrite = z.infer<typeof CategorisationRuleWrite>;

/** A rule as read. */
export const CategorisationRule = CategorisationRuleWrite.extend({
  id: z.string(),
  etag: Etag.optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
  createdBy: z.unknown().optional(),
  updatedBy: z.unknown().optional(),
});
export type CategorisationRule = z.infer<typeof CategorisationRule>;

// ---- requests and responses ----

const withEtag = { etag: Etag.optional(), actor: Actor.optional() };
/** UpsertRule POST `/api/entities/v2/checks/categorisation-rules`. */
export const UpsertCategorisationRuleRequest = CategorisationRuleWrite.extend(withEtag);
export const CategorisationRuleResponse = z.object({ rule: CategorisationRule });
/** DeleteRule POST `.../categorisation-rules/delete`. */
export const DeleteCategorisationRuleRequest = z.object({ id: z.string().min(1), ...withEtag });
/** BatchGetRules POST `.../categorisation-rules/batch-get`: `ids[]` 1-200, UUIDs. */
export const BatchGetCategorisationRulesRequest = z.object({ ids: z.array(Uuid).min(1).max(200).refine((a) => new Set(a).size === a.length, 'ids must be unique') });
export const BatchGetCategorisationRulesResponse = z.object({ rules: z.record(z.string(), tolerant(CategorisationRule)).default({}) });
/** ListRules POST `.../categorisation-rules/list`. */
export const ListCategorisationRulesRequest = z.object({ dimension: CategoryDimension.optional(), scope: RuleScope.optional(), pagination: Pagination.optional() });
export const ListCategorisationRulesResponse = z.object({ rules: z.array(tolerant(CategorisationRule)).default([]), pageInfo: PageInfo.optional() });

/** The rule a preview evaluates: the write form, its id optional (it need not be saved). */
export const PreviewedRule = CategorisationRuleWrite.extend({ id: Uuid.optional() });
/** PreviewRule POST `.../categorisation-rules/preview` (choice: shape). */
export const PreviewCategorisationRuleRequest = z.object({ rule: PreviewedRule, exampleCount: z.number().int().min(0).max(100).optional() });
/** One check whose category on the rule's dimension the rule changes. */
export const CategoryChange = z.object({
  checkId: z.string(),
  checkName: z.string().default(''),
  checkType: z.string().default(''),
  /** The category it has now ("" = none). */
  from: z.string().default(''),
  to: z.string().default(''),
});
export type CategoryChange = z.infer<typeof CategoryChange>;
export const PreviewCategorisationRuleResponse = z.object({
  /** Checks the matcher selects. */
  matchedCount: z.number().int().default(0),
  /** Of those, checks whose category would come from this rule (none set on the check, by its tool, or by a rule of higher priority). */
  categorisedCount: z.number().int().default(0),
  /** Of those, checks whose category changes. */
  changedCount: z.number().int().default(0),
  /** Examples of changes, sorted by check name then id (at most `exampleCount`, default 10). */
  changes: z.array(CategoryChange).default([]),
});
export type PreviewCategorisationRuleResponse = z.infer<typeof PreviewCategorisationRuleResponse>;

/** ListRuleMatches POST `.../categorisation-rules/matches` (choice: shape). */
export const ListRuleMatchesRequest = z.object({ id: Uuid, pagination: Pagination.optional() });
export const RuleMatch = z.object({
  checkId: z.string(),
  checkName: z.string().default(''),
  checkType: z.string().default(''),
  /** The category the check has now on the rule's dimension ("" = none). */
  category: z.string().default(''),
  /** True when that category comes from this rule. */
  applied: z.boolean().default(false),
});
export type RuleMatch = z.infer<typeof RuleMatch>;
export const ListRuleMatchesResponse = z.object({ matches: z.array(RuleMatch).default([]), pageInfo: PageInfo.optional() });

const RULES = '/api/entities/v2/checks/categorisation-rules';
const WRITE = ['SCOPE_POLICIES_EDIT', 'SCOPE_MCP_WRITE'] as const;
const READ = ['SCOPE_POLICIES_READ', 'SCOPE_POLICIES_EDIT', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] as const;

/** Categorisation rules (`client.categorisationRules`): caller-chosen UUIDs, etags; every call is a POST with a flat body. Routes: ROUTES.md. */
export const categorisationRulesOperations = defineOperations({
  /** UpsertRule `{ id, dimension?, scope?, title?, category?, matcher?, priority?, etag? }` -> the rule. */
  upsert: { method: 'POST', path: RULES, request: UpsertCategorisationRuleRequest, response: CategorisationRuleResponse, scopes: WRITE, idempotent: true, args: ['...', 'etag?'], read: { field: 'rule' } },
  /** DeleteRule `{ id, etag? }` (the etag in an options object: `delete(id, { etag })`). */
  delete: { method: 'POST', path: `${RULES}/delete`, request: DeleteCategorisationRuleRequest, response: Empty, scopes: WRITE, idempotent: true, args: ['id', '...?'], read: 'none' },
  /** BatchGetRules `{ ids }` in chunks of 200 -> map keyed by id. */
  batchGet: { method: 'POST', path: `${RULES}/batch-get`, request: BatchGetCategorisationRulesRequest, response: BatchGetCategorisationRulesResponse, scopes: READ, idempotent: true, args: ['ids'], read: { batchGet: 'rules' } },
  /** ListRules `{ dimension?, scope?, pagination }`: every page. */
  list: { method: 'POST', path: `${RULES}/list`, request: ListCategorisationRulesRequest, response: ListCategorisationRulesResponse, scopes: READ, idempotent: true, args: ['pageSize?', '...?'], read: { paged: 'rules' } },
  /** PreviewRule `{ rule, exampleCount? }`: what the rule (saved or not) would categorise. */
  preview: { method: 'POST', path: `${RULES}/preview`, request: PreviewCategorisationRuleRequest, response: PreviewCategorisationRuleResponse, scopes: READ, idempotent: true, args: ['rule', 'exampleCount?'], read: 'whole' },
  /** ListRuleMatches `{ id, pagination }`: the checks a stored rule matches; every page. */
  listMatches: { method: 'POST', path: `${RULES}/matches`, request: ListRuleMatchesRequest, response: ListRuleMatchesResponse, scopes: READ, idempotent: true, args: ['id', 'pageSize?'], read: { paged: 'matches' } },
});
