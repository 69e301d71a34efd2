/**
 * SQL-test deployment rules (`datachecks.sqltests.v1.SqlTestsDeploymentRulesService`; wire-facts
 * section 6).
 *
 * - Deploy POST `.../v1/deployed` `{ deploymentRule }` -> `{}`; BatchDeploy POST
 *   `.../v1/batch/deployed` `{ deploymentRules }` -> `{ deployedIds, errors }` (per-item errors
 *   inside the 200). Tests are the platform's `RuleTest` messages (`notNullTest: { columnNames }`, grpc-facts 4.2); a test's `name` is required only
 *   for the business kinds (others are named after their kind).
 * - Delete DELETE `.../v1/{id}` -> `{}` (an unknown rule is success: idempotent); BatchDelete
 *   DELETE `.../v1/batch?ids=a&ids=b` -> `{}` (unknown ids are success). Deleting a rule
 *   deletes every test it deployed, unless its query config keeps them (`keepRemovedTests`):
 *   then they are kept, detached.
 * - Overview GET `.../v1/overview` with the rule's scalar fields as dotted query parameters
 *   (`deploymentRule.id=...&deploymentRule.exclusiveQueryConfig.resolverQl=...`): a rule with
 *   `tests[]` (a repeated message) has no such form; a JSON value (`deploymentRule=<json>`) is
 *   400. Delete overview GET `.../v1/{id}/deleted` -> `{ overview }`.
 * - BatchGet POST `.../v1/by-id` `{ ids }` -> `{ deploymentRules: { <id>: rule } }`; List GET
 *   `.../v1` with `sources`, `configsFilter.ids`, `ruleIds`, `ruleTypes`, `pagination.*` (no page size: every rule) ->
 *   `{ deploymentRules, pageInfo }`. The read form adds `testCount`.
 * - Scopes (any-of): Deploy and Delete SCOPE_DATACHECKS_SQLTESTS_EDIT or SCOPE_MCP_WRITE; the
 *   batch writes EDIT only; reads SCOPE_DATACHECKS_SQLTESTS_READ, SCOPE_SRE_AGENT or
 *   SCOPE_MCP_READ; the overviews SCOPE_DATACHECKS_SQLTESTS_READ or SCOPE_MCP_READ.
 *
 * Deploying stores `renderedResolverQl` (canonical text) and, when no `query` was given, the
 * query translated from `resolverQl`. Placement is computed by ../sql-test-placement.ts.
 */
import { z } from 'zod';
import { ResolverQlError, canonicalResolverQl, parseResolverQl, resolverQlToQuery } from '../../../schemas/tools/resolverql';
import { EmptyResponse } from '../../../schemas/platform/alerts';
import * as W from '../../../schemas/platform/sql-tests';
import { BatchDeployResponse } from '../../../schemas/platform/deployment-rules';
import type { RouteContext, RouteTable } from '../app';
import type { Catalog } from '../catalog';
import type { Collection } from '../store';
import { invalidArgument, notFound, parseBody, refuseUnknownKeys, runBatch, zodViolations } from '../errors';
import type { EmulatorViolation } from '../errors';
import { QueryEvaluationError } from '../query-eval';
import { exclusiveClaims, isExclusive, planRuleChangeIn, ruleKind, ruleSettings, ruleTestName, type PlacementChange, type PlacementState, type RuleChange, type SqlTestRule } from '../sql-test-placement';
import { SQL_TESTS_COLLECTION, batchGetIds, deleteIds, describedInvalid, scheduleViolations, type StoredSqlTest } from './sql-tests';

/** The store collection holding SQL-test deployment rules (write form, as prepared). */
export const SQL_TEST_RULES_COLLECTION = 'sqlTestDeploymentRules';
const BASE = '/api/datachecks/sql-test-deployment-rules/v1';
const EDIT = ['SCOPE_DATACHECKS_SQLTESTS_EDIT'] as const;
const READ = ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] as const;
const OVERVIEW_READ = ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_MCP_READ'] as const;
/** wire-facts and spec part 4: SCOPE_MCP_WRITE also grants the rule Deploy and Delete. */
const EDIT_OR_MCP = ['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'] as const;

type StoredRule = SqlTestRule & { etag?: string };

/**
 * Checks what the schema cannot (RRULE, time zone, unique test names, ResolverQL, a query to
 * select with) and returns the rule as stored: `renderedResolverQl` computed (a caller's value
 * is ignored), `query` translated from `resolverQl` (which wins over a given query), `source`
 * defaulted to SOURCE_API.
 * `field` prefixes violation fields (e.g. `rule.`); rule ids are `<operation>.<rule>`.
 */
export function prepareRule(rule: SqlTestRule, field: string, operation: string): SqlTestRule {
  const kind = ruleKind(rule);
  const at = `${field}${kind}.`;
  const violations: EmulatorViolation[] = [];
  const settings = ruleSettings(rule);
  let prepared: SqlTestRule = { ...rule, source: rule.source ?? 'SOURCE_API' };
  if (settings) {
    violations.push(...scheduleViolations(settings.recurrenceRule, settings.timezone, at, operation, true));
    const names = new Set<string>();
    settings.tests.forEach((t, i) => {
      const name = ruleTestName(t);
      if (names.has(name))
        violations.push({ field: `${at}tests[${i}].name`, ruleId: `${operation}.tests.unique_names`, message: `test name '${name}' is used twice in this rule` });
      names.add(name);
    });
  }
  const q = rule.queryConfig ?? rule.exclusiveQueryConfig;
  if (q) {
    const { renderedResolverQl: _ignored, ...rest } = q;
    let next: typeof q = rest;
    if (rest.resolverQl !== undefined && rest.resolverQl.trim() !== '') {
      try {
        const rendered = canonicalResolverQl(rest.resolverQl);
        next = { ...rest, renderedResolverQl: rendered, query: resolverQlToQuery(parseResolverQl(rest.resolverQl)) };
      } catch (e) {
        if (!(e instanceof ResolverQlError)) throw e;
        violations.push({ field: `${at}resolverQl`, ruleId: `${operation}.${kind}.resolver_ql`, message: `invalid ResolverQL: ${e.message}` });
      }
    } else if (!rest.query) {
      violations.push({ field: `${at}query`, ruleId: `${operation}.${kind}.selection_required`, message: 'a query config needs a query or a resolverQl' });
    }
    prepared = { ...prepared, [kind]: next };
  }
  if (violations.length) throw describedInvalid(`invalid SQL-test deployment rule ${rule.id}`, violations);
  return prepared;
}

/**
 * Parses a write-form rule, strictly (unknown keys refused). Shape errors are violations under
 * `field` (e.g. `deploymentRules[2].`) with rule ids `<operation>.<request field>.<path>` (e.g.
 * `deploy.deploymentRule.title`, `batch_deploy.deploymentRules.id`).
 */
function parseRule(raw: unknown, field: string, operation: string, requestField: 'deploymentRule' | 'deploymentRules'): SqlTestRule {
  refuseUnknownKeys(W.SqlTestDeploymentRuleWrite, raw, `${operation}.${requestField}`);
  const r = W.SqlTestDeploymentRuleWrite.safeParse(raw);
  if (r.success) return r.data;
  const vs = zodViolations(r.error, `${operation}.${requestField}`).map((v) => ({ ...v, field: v.field ? `${field}${v.field}` : field.replace(/\.$/, '') }));
  throw describedInvalid('invalid SQL-test deployment rule', vs);
}

/** What placement and the overviews read from a request: the caller's store and the catalog (REST and gRPC alike). */
export type OverviewContext = Pick<RouteContext, 'store' | 'catalog'>;

/** The stored rule-made tests of each rule: an index of the tests collection by `deploymentRuleId` (`''`: none). Live: do not hold across a write. */
function testsByRule(tests: Collection<StoredSqlTest>): ReadonlyMap<string, readonly string[]> {
  return tests.groupBy('sqlTestPlacement.byRule', (t) => t.deploymentRuleId ?? '');
}

/** The claims last computed per rules collection and catalog, with the exclusive rules (stored objects) they were computed from. */
const claimsCache = new WeakMap<Collection<StoredRule>, WeakMap<Catalog, { from: readonly StoredRule[]; claims: ReadonlyMap<string, string> }>>();

/**
 * The workspace's stored rules and rule-made tests as placement reads them. A plan previews
 * one rule after another with thousands stored (issue 15), and a setup deploys thousands in a
 * row (issue 27), so what does not depend on the change is kept between calls: the exclusive
 * rules (an index of the rules collection), the claims they make (reused while the exclusive
 * rules are the same stored objects, per catalog) and the tests grouped by rule (an index of
 * the tests collection). The indexes are kept in step by each write; neither a read nor a
 * write scans every rule or test unless the change touches an exclusive rule. Exported for
 * test/emulator/overview-equivalence.test.ts.
 */
export function storedState(ctx: OverviewContext): PlacementState {
  const catalog = ctx.catalog as Catalog;
  const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION);
  const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
  return {
    rules: () => rules.values(),
    rule: (id) => rules.get(id),
    claims: () => {
      const exclusive = (rules.groupBy('sqlTestPlacement.exclusive', (r) => (isExclusive(r) ? 'exclusive' : '')).get('exclusive') ?? []).map((id) => rules.get(id)!);
      let byCatalog = claimsCache.get(rules);
      if (!byCatalog) claimsCache.set(rules, (byCatalog = new WeakMap()));
      const hit = byCatalog.get(catalog);
      if (hit && hit.from.length === exclusive.length && hit.from.every((r, i) => r === exclusive[i])) return hit.claims;
      const claims = exclusiveClaims(catalog, exclusive);
      byCatalog.set(catalog, { from: exclusive, claims });
      return claims;
    },
    current: () => tests.filter((t) => t.deploymentRuleId !== undefined && t.deploymentRuleId !== ''),
    testsOf: (ruleId) => {
      if (ruleId === '') return [];
      return (testsByRule(tests).get(ruleId) ?? []).map((id) => tests.get(id)!);
    },
  };
}

/** Plans a change against the workspace's stored rules and rule-made tests. */
function plan(ctx: OverviewContext, change: RuleChange): PlacementChange {
  try {
    return planRuleChangeIn(ctx.catalog as Catalog, storedState(ctx), change);
  } catch (e) {
    if (e instanceof QueryEvaluationError || e instanceof ResolverQlError)
      throw invalidArgument(`the rule's selection cannot be evaluated: ${e.message}`, [{ field: 'rule', ruleId: 'rule.query.valid', message: e.message }]);
    throw e;
  }
}

/** Writes a planned change to the tests collection. */
function applyChange(ctx: RouteContext, change: PlacementChange): void {
  const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
  for (const id of change.delete) tests.delete(id);
  for (const t of change.keep) tests.put(t.id, t);
  for (const t of change.update) tests.put(t.id, t);
  for (const t of change.create) tests.put(t.id, t);
}

function deploy(ctx: RouteContext, rule: SqlTestRule): void {
  const change = plan(ctx, { deploy: rule });
  applyChange(ctx, change);
  ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).put(rule.id, rule);
}

/**
 * Validates the rule of a deploy overview (REST and gRPC) as a deploy would: shape violations
 * under `field` (e.g. `deploymentRule.`), rule ids `overview.<...>`.
 */
export function overviewRule(raw: unknown, field = 'deploymentRule.'): SqlTestRule {
  return prepareRule(parseRule(raw, field, 'overview', 'deploymentRule'), field, 'overview');
}

/** GetSqlTestDeployOverview (REST and gRPC): what deploying `rule` (validated and prepared) would do to the tests. */
export function deployOverview(ctx: OverviewContext, rule: SqlTestRule): W.SqlTestDeployOverview {
  return plan(ctx, { deploy: rule }).overview;
}

/** GetSqlTestDeployDeleteOverview (REST and gRPC): what deleting the stored rule `id` would do. NOT_FOUND for an unknown rule. */
export function deleteOverview(ctx: OverviewContext, id: string): W.SqlTestDeployOverview {
  if (!ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).has(id)) throw notFound(`SQL-test deployment rule ${id} not found`);
  return plan(ctx, { delete: id }).overview;
}

function deleteRule(ctx: RouteContext, id: string): void {
  const change = plan(ctx, { delete: id });
  applyChange(ctx, change);
  ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).delete(id);
}

/** `testCount` of a rule: the size of its group in the tests-by-rule index (no pass over the tests). */
function testCounts(ctx: RouteContext): (ruleId: string) => number {
  const byRule = testsByRule(ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION));
  return (ruleId) => (ruleId === '' ? 0 : (byRule.get(ruleId)?.length ?? 0));
}

/** The read form: the rule plus `testCount`; rules have no etag upstream. */
const readForm = (r: StoredRule, counts: (ruleId: string) => number) => {
  const { etag: _e, ...rest } = r;
  return { ...rest, testCount: counts(r.id) };
};

/** The List filter's rule type of a stored rule. */
function ruleTypeOf(r: SqlTestRule): z.output<typeof W.SqlTestRuleTypeEnum.schema> {
  const kind = ruleKind(r);
  return kind === 'queryConfig' ? 'SQL_TEST_RULE_TYPE_QUERY' : kind === 'exclusiveQueryConfig' ? 'SQL_TEST_RULE_TYPE_EXCLUSIVE_QUERY' : kind === 'staticConfig' ? 'SQL_TEST_RULE_TYPE_STATIC' : 'SQL_TEST_RULE_TYPE_EXCLUSIVE_STATIC';
}

const DeployKeys = z.object({ deploymentRule: z.unknown() });
const BatchDeployKeys = z.object({ deploymentRules: z.array(z.unknown()) });

function deployRoute(ctx: RouteContext) {
  const req = parseBody(DeployKeys, ctx.body, 'deploy');
  deploy(ctx, prepareRule(parseRule(req.deploymentRule, 'deploymentRule.', 'deploy', 'deploymentRule'), 'deploymentRule.', 'deploy'));
  return {};
}

function batchDeploy(ctx: RouteContext) {
  const req = parseBody(BatchDeployKeys, ctx.body, 'batch_deploy');
  const seen = new Set<string>();
  const { results, errors } = runBatch(
    req.deploymentRules,
    (raw, i) => {
      const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
      return typeof id === 'string' && id !== '' ? id : `deploymentRules[${i}]`;
    },
    (raw, i) => {
      const rule = prepareRule(parseRule(raw, `deploymentRules[${i}].`, 'batch_deploy', 'deploymentRules'), `deploymentRules[${i}].`, 'batch_deploy');
      if (seen.has(rule.id))
        throw describedInvalid(`invalid SQL-test deployment rule ${rule.id}`, [{ field: `deploymentRules[${i}].id`, ruleId: 'batch_deploy.deployment_rules.unique_ids', message: `id ${rule.id} appears more than once in the batch` }]);
      seen.add(rule.id);
      deploy(ctx, rule);
      return rule.id;
    },
  );
  return { deployedIds: results.map((r) => r.result), errors };
}

function batchDelete(ctx: RouteContext) {
  const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION);
  for (const id of deleteIds(ctx)) if (rules.has(id)) deleteRule(ctx, id); // unknown ids: success (idempotent)
  return {};
}

function deleteRoute(ctx: RouteContext) {
  if (ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).has(ctx.params.id)) deleteRule(ctx, ctx.params.id); // missing: success (idempotent)
  return {};
}

// The gRPC twin (../grpc.ts) computes the same functions.
function getOverview(ctx: RouteContext): { overview: W.SqlTestDeployOverview } {
  const req = ctx.q as z.output<typeof W.SqlTestOverviewRequest>;
  return { overview: deployOverview(ctx, prepareRule(req.deploymentRule, 'deploymentRule.', 'overview')) };
}

function getDeleteOverview(ctx: RouteContext): { overview: W.SqlTestDeployOverview } {
  return {
    overview: deleteOverview(ctx, ctx.params.id),
  };
}

function batchGet(ctx: RouteContext) {
  const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION);
  const ids = [...new Set(batchGetIds(ctx, 'batch_get'))].sort();
  const counts = testCounts(ctx);
  const out: Record<string, ReturnType<typeof readForm>> = {};
  for (const id of ids) {
    const r = rules.get(id);
    if (r) out[id] = readForm(r, counts);
  }
  return { deploymentRules: out };
}

function list(ctx: RouteContext) {
  const q = ctx.q as z.output<typeof W.ListSqlTestRulesRequest>;
  const sources = q.sources?.length ? new Set<string>(q.sources) : undefined;
  const configs = q.configsFilter?.ids.length ? new Set(q.configsFilter.ids) : undefined;
  const idSet = q.ruleIds?.length ? new Set(q.ruleIds) : undefined;
  const types = q.ruleTypes?.length ? new Set<string>(q.ruleTypes) : undefined;
  const page = ctx.store
    .collection<StoredRule>(SQL_TEST_RULES_COLLECTION)
    .page(
      q.pagination?.cursor || undefined,
      // wire-facts 2: "SQL-test rule List with no pagination or `pageSize` 0 returns ALL rules"
      q.pagination?.pageSize || 'all',
      (r) => (!idSet || idSet.has(r.id)) && (!configs || configs.has(r.configId ?? '')) && (!sources || sources.has(r.source ?? 'SOURCE_APP')) && (!types || types.has(ruleTypeOf(r))),
    );
  const counts = testCounts(ctx);
  return { deploymentRules: page.items.map((r) => readForm(r, counts)), pageInfo: page.pageInfo };
}

/** The SQL-test deployment rules v1 routes. */
export const routes: RouteTable = [
  { method: 'POST', path: `${BASE}/deployed`, scope: EDIT_OR_MCP, response: EmptyResponse, handle: deployRoute },
  { method: 'POST', path: `${BASE}/batch/deployed`, scope: EDIT, response: BatchDeployResponse, handle: batchDeploy },
  { method: 'DELETE', path: `${BASE}/batch`, scope: EDIT, operation: 'batch_delete', query: W.BatchDeleteByIdsRequest, response: EmptyResponse, handle: batchDelete },
  { method: 'DELETE', path: `${BASE}/:id`, scope: EDIT_OR_MCP, response: EmptyResponse, handle: deleteRoute },
  { method: 'GET', path: `${BASE}/overview`, scope: OVERVIEW_READ, operation: 'overview', query: W.SqlTestOverviewRequest, response: W.SqlTestDeployOverviewResponse, handle: getOverview },
  { method: 'GET', path: `${BASE}/:id/deleted`, scope: OVERVIEW_READ, response: W.SqlTestDeployOverviewResponse, handle: getDeleteOverview },
  { method: 'POST', path: `${BASE}/by-id`, scope: READ, response: W.BatchGetSqlTestRulesResponse, handle: batchGet },
  { method: 'GET', path: BASE, scope: READ, operation: 'list', query: W.ListSqlTestRulesRequest, response: W.ListSqlTestRulesResponse, handle: list },
];
