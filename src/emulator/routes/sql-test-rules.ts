/**
 * SQL-test deployment rules (`datachecks.sqltests.v1.SqlTestsDeploymentRulesService`).
 *
 * - Deploy POST `.../v1/deployed` `{ rule }` -> `{}`; BatchDeploy POST `.../v1/batch/deployed`
 *   `{ rules }` -> `{ deployedIds, errors }` (per-item errors inside the 200).
 * - Delete DELETE `.../v1/{id}` -> `{}` (an unknown rule is success: idempotent); BatchDelete
 *   DELETE `.../v1/batch?ids=a&ids=b` -> `{ errors }` (unknown ids are success). Deploy and
 *   Delete also accept SCOPE_MCP_WRITE (spec part 4). Deleting a rule deletes
 *   every test it deployed, unless `keepRemovedTests` (the stored flag, or a
 *   `keepRemovedTests=true|false` query parameter overriding it): then they are kept, detached.
 * - Overview GET `.../v1/overview?rule=<JSON>`: the rule, in its write form, JSON-encoded into
 *   one `rule` query parameter (the flattened form cannot carry repeated messages) ->
 *   `{ overview }`. Delete overview GET `.../v1/{id}/deleted` (same optional
 *   `keepRemovedTests` parameter) -> `{ overview }`.
 * - BatchGet POST `.../v1/by-id` `{ ids }` -> `{ rules: { <id>: rule } }`; List GET `.../v1`
 *   with `sources`, `configsFilter.ids`, `ruleIds` (or `ids`), `pagination.*` -> `{ rules,
 *   pageInfo }`. The read form adds `testCount` (tests currently deployed by the rule).
 *
 * Deploying stores `renderedResolverQl` (canonical text) and, when no `query` was given, the
 * query translated from `resolverQl`. Placement is computed by ../sql-test-placement.ts.
 */
import { z } from 'zod';
import { ResolverQlError, canonicalResolverQl, parseResolverQl, resolverQlToQuery } from '../../../schemas/resolverql';
import { SqlTestDeploymentRuleWrite } from '../../../schemas/sql-tests';
import type { SqlTestDeployOverview } from '../../../schemas/sql-tests';
import type { EmulatorApp, RouteContext } from '../app';
import type { Catalog } from '../catalog';
import { invalidArgument, notFound, parseBody, runBatch, zodViolations } from '../errors';
import type { EmulatorViolation } from '../errors';
import { QueryEvaluationError } from '../query-eval';
import { planRuleChange, ruleKind, ruleSettings, type PlacementChange, type RuleChange, type SqlTestRule } from '../sql-test-placement';
import { SQL_TESTS_COLLECTION, batchGetIds, deleteIds, describedInvalid, listParams, scheduleViolations, type StoredSqlTest } from './sql-tests';

/** The store collection holding SQL-test deployment rules (write form, as prepared). */
export const SQL_TEST_RULES_COLLECTION = 'sqlTestDeploymentRules';
const BASE = '/api/datachecks/sql-test-deployment-rules/v1';
const EDIT = 'SCOPE_DATACHECKS_SQLTESTS_EDIT' as const;
const READ = 'SCOPE_DATACHECKS_SQLTESTS_READ';
/** Spec part 4: SCOPE_MCP_WRITE also grants the rule Deploy and Delete. */
const EDIT_OR_MCP = [EDIT, 'SCOPE_MCP_WRITE'] as const;

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
    violations.push(...scheduleViolations(settings.recurrenceRule, settings.timezone, at, operation));
    const names = new Set<string>();
    settings.tests.forEach((t, i) => {
      if (names.has(t.name))
        violations.push({ field: `${at}tests[${i}].name`, ruleId: `${operation}.tests.unique_names`, message: `test name '${t.name}' is used twice in this rule` });
      names.add(t.name);
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
 * Parses a write-form rule. Shape errors are violations under `field` (e.g. `rules[2].`) with
 * rule ids `<operation>.<request field>.<path>` (e.g. `deploy.rule.title`, `batch_deploy.rules.id`).
 */
function parseRule(raw: unknown, field: string, operation: string, requestField: 'rule' | 'rules'): SqlTestRule {
  const r = SqlTestDeploymentRuleWrite.safeParse(raw);
  if (r.success) return r.data;
  const vs = zodViolations(r.error, `${operation}.${requestField}`).map((v) => ({ ...v, field: v.field ? `${field}${v.field}` : field.replace(/\.$/, '') }));
  throw describedInvalid('invalid SQL-test deployment rule', vs);
}

/** What placement and the overviews read from a request: the caller's store and the catalog (REST and gRPC alike). */
export type OverviewContext = Pick<RouteContext, 'store' | 'catalog'>;

/** Plans a change against the workspace's stored rules and rule-made tests. */
function plan(ctx: OverviewContext, change: RuleChange, rulesOverride?: SqlTestRule[]): PlacementChange {
  const rules = rulesOverride ?? ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).values();
  const current = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION).filter((t) => t.deploymentRuleId !== undefined && t.deploymentRuleId !== '');
  try {
    return planRuleChange(ctx.catalog as Catalog, rules, current, change);
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

/** The REST-only `keepRemovedTests=true|false` query parameter of Delete and the delete overview. */
function keepParam(ctx: RouteContext): boolean | undefined {
  const raw = ctx.query.get('keepRemovedTests');
  if (raw === null || raw === '') return undefined;
  if (raw !== 'true' && raw !== 'false')
    throw invalidArgument('invalid delete request', [{ field: 'keepRemovedTests', ruleId: 'delete.keep_removed_tests', message: 'must be true or false' }]);
  return raw === 'true';
}

/** The stored rules, with `id`'s keepRemovedTests overridden by `keep` when given. */
function rulesForDelete(ctx: OverviewContext, id: string, keep: boolean | undefined): SqlTestRule[] {
  const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).values();
  if (keep === undefined) return rules;
  return rules.map((r) => {
    const kind = ruleKind(r);
    if (r.id !== id || !ruleSettings(r)) return r;
    return { ...r, [kind]: { ...ruleSettings(r), keepRemovedTests: keep } } as SqlTestRule;
  });
}

/**
 * Validates the rule of a deploy overview (REST and gRPC) as a deploy would: shape violations
 * under `field` (e.g. `rule.`), rule ids `overview.<...>`.
 */
export function overviewRule(raw: unknown, field = 'rule.'): SqlTestRule {
  return prepareRule(parseRule(raw, field, 'overview', 'rule'), field, 'overview');
}

/** GetSqlTestDeployOverview (REST and gRPC): what deploying `rule` (from {@link overviewRule}) would do to the tests. */
export function deployOverview(ctx: OverviewContext, rule: SqlTestRule): SqlTestDeployOverview {
  return plan(ctx, { deploy: rule }).overview;
}

/** GetSqlTestDeployDeleteOverview (REST and gRPC): what deleting the stored rule `id` would do. NOT_FOUND for an unknown rule. */
export function deleteOverview(ctx: OverviewContext, id: string, keepRemovedTests?: boolean): SqlTestDeployOverview {
  if (!ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).has(id)) throw notFound(`SQL-test deployment rule ${id} not found`);
  return plan(ctx, { delete: id }, rulesForDelete(ctx, id, keepRemovedTests)).overview;
}

function deleteRule(ctx: RouteContext, id: string): void {
  const change = plan(ctx, { delete: id }, rulesForDelete(ctx, id, keepParam(ctx)));
  applyChange(ctx, change);
  ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).delete(id);
}

/** `testCount` per rule id, in one pass over the tests. */
function testCounts(ctx: RouteContext): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION).values()) {
    if (t.deploymentRuleId) counts.set(t.deploymentRuleId, (counts.get(t.deploymentRuleId) ?? 0) + 1);
  }
  return counts;
}

const readForm = (r: StoredRule, counts: Map<string, number>) => ({ ...r, testCount: counts.get(r.id) ?? 0 });

/** Registers the SQL-test deployment rule routes. */
export function register(app: EmulatorApp): void {
  app.route('POST', `${BASE}/deployed`, { scope: EDIT_OR_MCP }, (ctx) => {
    const req = parseBody(z.object({ rule: z.unknown() }), ctx.body, 'deploy');
    deploy(ctx, prepareRule(parseRule(req.rule, 'rule.', 'deploy', 'rule'), 'rule.', 'deploy'));
    return {};
  });

  app.route('POST', `${BASE}/batch/deployed`, { scope: EDIT }, (ctx) => {
    const req = parseBody(z.object({ rules: z.array(z.unknown()) }), ctx.body, 'batch_deploy');
    const seen = new Set<string>();
    const { results, errors } = runBatch(
      req.rules,
      (raw, i) => {
        const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
        return typeof id === 'string' && id !== '' ? id : `rules[${i}]`;
      },
      (raw, i) => {
        const rule = prepareRule(parseRule(raw, `rules[${i}].`, 'batch_deploy', 'rules'), `rules[${i}].`, 'batch_deploy');
        if (seen.has(rule.id))
          throw describedInvalid(`invalid SQL-test deployment rule ${rule.id}`, [{ field: `rules[${i}].id`, ruleId: 'batch_deploy.rules.unique_ids', message: `id ${rule.id} appears more than once in the batch` }]);
        seen.add(rule.id);
        deploy(ctx, rule);
        return rule.id;
      },
    );
    return { deployedIds: results.map((r) => r.result), errors };
  });

  app.route('DELETE', `${BASE}/batch`, { scope: EDIT }, (ctx) => {
    const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION);
    const { errors } = runBatch(
      deleteIds(ctx, 'batch_delete'),
      (id) => id,
      (id) => {
        if (rules.has(id)) deleteRule(ctx, id); // unknown ids: success (idempotent)
      },
    );
    return { errors };
  });

  app.route('DELETE', `${BASE}/:id`, { scope: EDIT_OR_MCP }, (ctx) => {
    if (ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION).has(ctx.params.id)) deleteRule(ctx, ctx.params.id); // missing: success (idempotent)
    return {};
  });

  app.route('GET', `${BASE}/overview`, { scope: READ }, (ctx): { overview: SqlTestDeployOverview } => {
    const text = ctx.query.get('rule');
    if (text === null || text === '')
      throw invalidArgument('invalid overview request', [{ field: 'rule', ruleId: 'overview.rule.required', message: 'the rule is required, JSON-encoded in the `rule` query parameter' }]);
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch {
      throw invalidArgument('invalid overview request', [{ field: 'rule', ruleId: 'overview.rule.json', message: 'the `rule` query parameter must be the rule as JSON' }]);
    }
    return { overview: deployOverview(ctx, overviewRule(raw)) };
  });

  app.route('GET', `${BASE}/:id/deleted`, { scope: READ }, (ctx): { overview: SqlTestDeployOverview } => ({
    overview: deleteOverview(ctx, ctx.params.id, keepParam(ctx)),
  }));

  app.route('POST', `${BASE}/by-id`, { scope: READ }, (ctx) => {
    const rules = ctx.store.collection<StoredRule>(SQL_TEST_RULES_COLLECTION);
    const ids = [...new Set(batchGetIds(ctx, 'batch_get'))].sort();
    const counts = testCounts(ctx);
    const out: Record<string, ReturnType<typeof readForm>> = {};
    for (const id of ids) {
      const r = rules.get(id);
      if (r) out[id] = readForm(r, counts);
    }
    return { rules: out };
  });

  app.route('GET', BASE, { scope: READ }, (ctx) => {
    const { cursor, pageSize } = listParams.pagination(ctx, 'list');
    const sources = listParams.sources(ctx, 'list');
    const configs = listParams.set(ctx, 'configsFilter.ids');
    const ruleIds = [...ctx.query.getAll('ruleIds'), ...ctx.query.getAll('ids')];
    const idSet = ruleIds.length ? new Set(ruleIds) : undefined;
    const page = ctx.store
      .collection<StoredRule>(SQL_TEST_RULES_COLLECTION)
      .page(cursor, pageSize, (r) => (!idSet || idSet.has(r.id)) && (!configs || configs.has(r.configId ?? '')) && (!sources || sources.has(r.source ?? 'SOURCE_APP')));
    const counts = testCounts(ctx);
    return { rules: page.items.map((r) => readForm(r, counts)), pageInfo: page.pageInfo };
  });
}
