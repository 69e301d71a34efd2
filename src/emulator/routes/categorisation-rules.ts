/**
 * Check categorisation rules v2 (spec 2.6 "Check categories", 4.1 SCOPE_POLICIES_*; wire-facts
 * 10): Upsert, Delete, BatchGet, List, PreviewRule and ListRuleMatches, all POST with a flat body
 * under `/api/entities/v2/checks/categorisation-rules`. Collection `categorisationRules`, keyed
 * by the lower-case UUID.
 *
 * The checks categorised are the workspace's SQL tests (collection `sqlTests`) and monitors
 * (collection `monitors`). A check's category on a dimension comes, in descending precedence,
 * from: the check itself (a SQL test's `category` for TECHNICAL, `governanceCategory` for
 * GOVERNANCE), its producing tool (a template SQL test's kind gives a TECHNICAL category, see
 * {@link TOOL_TECHNICAL}; monitors declare none), then the matching rule of the highest
 * priority (ties: the smaller id).
 *
 * Decisions where the spec is silent (also in src/emulator/README.md):
 * - Matchers: `attributes` (every attribute given must hold: `checkTypes` contains the check's
 *   kind, the name contains `nameContains` case-insensitively, the asset path starts with
 *   `assetPathPrefix`) or `expression`, ResolverQL evaluated on the catalog: a check matches
 *   when its asset is selected.
 * - Upsert creates with `dimension`, `title`, `category` and `matcher` required; an omitted
 *   field is left unchanged on update; `scope` defaults to WORKSPACE. Platform-provided rules
 *   (scope GLOBAL) cannot be created, edited or deleted: FAILED_PRECONDITION, rule id
 *   `<op>.scope.global_read_only`. Delete is hard (a rule created again at the same id starts at
 *   version 1); delete of a missing rule: `{}`.
 * - PreviewRule compares the categories of every check with and without the rule (replacing the
 *   stored rule of the same id); ListRuleMatches lists the checks a stored rule matches, sorted
 *   by check id, with the category each has now and whether this rule gives it.
 * - The demo seed holds one platform-provided rule ({@link DEMO_GLOBAL_RULE_ID}).
 */
import { z } from 'zod';
import * as W from '../../../schemas/platform/categorisation-rules';
import type { RouteContext, RouteTable, SeedHook } from '../app';
import { routeOf } from '../operations';
import type { Catalog } from '../catalog';
import { failedPrecondition, invalidArgument, notFound, parseBody } from '../errors';
import { evaluateResolverQl } from '../query-eval';
import { checkEtag, type Collection, type Store } from '../store';
import { renderResolverQlOrThrow, sortKeys } from './alerts';
import { MONITORS_COLLECTION, type MonitorRecord } from './deployment-rules';
import { SQL_TESTS_COLLECTION, type StoredSqlTest } from './sql-tests';

export type RuleRecord = z.output<typeof W.CategorisationRule>;
type Dimension = 'TECHNICAL' | 'GOVERNANCE';

export const CATEGORISATION_RULES_COLLECTION = 'categorisationRules';

/** The platform-provided rule of the demo seed. */
export const DEMO_GLOBAL_RULE_ID = '9a0b0000-0000-4000-8000-0000000c0de1';

/** The TECHNICAL category a template SQL test's producing tool declares, by template kind. */
export const TOOL_TECHNICAL: Readonly<Record<string, string>> = {
  notNullTest: 'Completeness',
  emptyTest: 'Completeness',
  uniqueTest: 'Uniqueness',
  freshnessTest: 'Timeliness',
  acceptedValuesTest: 'Validity',
  rejectedValuesTest: 'Validity',
  minMaxTest: 'Validity',
  minValueTest: 'Validity',
  maxValueTest: 'Validity',
  relativeTimeTest: 'Consistency',
  relationshipsTest: 'Consistency',
};

/** A check as the categorisation sees it. */
export interface Check {
  id: string;
  name: string;
  type: 'sqlTest' | 'monitor';
  assetPath?: string;
  explicit: Partial<Record<Dimension, string>>;
  tool: Partial<Record<Dimension, string>>;
}

function rules(store: Store): Collection<RuleRecord> {
  return store.collection<RuleRecord>(CATEGORISATION_RULES_COLLECTION);
}

/** Every check of the workspace, sorted by id: SQL tests (`sqltest-<id>`) and monitors (`monitor-<id>`). */
export function checksOf(store: Store, catalog: Catalog): Check[] {
  const out: Check[] = [];
  for (const t of store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION).values()) {
    const template = t.template as Record<string, unknown> | undefined;
    const kind = template ? Object.keys(template).find((k) => k !== 'identifier' && template[k] !== undefined) : undefined;
    const assetPath = template ? catalog.byKey(template.identifier as never)?.path : t.inputTables?.[0];
    const explicit: Check['explicit'] = {};
    if (t.category) explicit.TECHNICAL = t.category;
    if (t.governanceCategory) explicit.GOVERNANCE = t.governanceCategory;
    const tool: Check['tool'] = kind && TOOL_TECHNICAL[kind] ? { TECHNICAL: TOOL_TECHNICAL[kind] } : {};
    out.push({ id: `sqltest-${t.id}`, name: t.name, type: 'sqlTest', assetPath, explicit, tool });
  }
  for (const m of store.collection<MonitorRecord>(MONITORS_COLLECTION).values()) {
    if (m.kept) continue;
    out.push({ id: `monitor-${m.id}`, name: `monitor on ${m.assetPath}`, type: 'monitor', assetPath: m.assetPath, explicit: {}, tool: {} });
  }
  return out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** A matcher as a predicate on checks (ResolverQL evaluated once). */
function matcherOf(rule: Pick<RuleRecord, 'matcher'>, catalog: Catalog): (c: Check) => boolean {
  const m = rule.matcher;
  if (!m) return () => false;
  if (m.expression !== undefined) {
    const paths = new Set(evaluateResolverQl(catalog, m.expression).map((e) => e.path));
    return (c) => c.assetPath !== undefined && paths.has(c.assetPath);
  }
  const a = m.attributes ?? {};
  const needle = a.nameContains?.toLowerCase();
  return (c) =>
    (a.checkTypes === undefined || a.checkTypes.includes(c.type)) &&
    (needle === undefined || c.name.toLowerCase().includes(needle)) &&
    (a.assetPathPrefix === undefined || (c.assetPath ?? '').startsWith(a.assetPathPrefix));
}

interface Resolved {
  category: string;
  ruleId?: string;
}

/** Rules of `dimension` in precedence order with their predicates. */
function ranked(all: readonly RuleRecord[], dimension: Dimension, catalog: Catalog): { rule: RuleRecord; match: (c: Check) => boolean }[] {
  return all
    .filter((r) => r.dimension === dimension)
    .sort((a, b) => (b.priority ?? 0) - (a.priority ?? 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((rule) => ({ rule, match: matcherOf(rule, catalog) }));
}

/** The category of `check` on `dimension` under the ranked rules. */
function resolve(check: Check, dimension: Dimension, ranks: ReturnType<typeof ranked>): Resolved {
  const own = check.explicit[dimension] ?? check.tool[dimension];
  if (own !== undefined) return { category: own };
  for (const { rule, match } of ranks) if (match(check)) return { category: rule.category ?? '', ruleId: rule.id };
  return { category: '' };
}

const byName = (a: W.CategoryChange, b: W.CategoryChange) => (a.checkName < b.checkName ? -1 : a.checkName > b.checkName ? 1 : a.checkId < b.checkId ? -1 : a.checkId > b.checkId ? 1 : 0);

/** Checks a matcher's expression: INVALID_ARGUMENT naming the field. */
function validateMatcher(req: { matcher?: RuleRecord['matcher'] }, op: string): void {
  if (req.matcher?.expression !== undefined) renderResolverQlOrThrow(req.matcher.expression, 'matcher.expression', `${op}.matcher.expression`);
}

function refuseGlobal(op: string, id: string): never {
  throw failedPrecondition(`rule ${id} is platform-provided (scope GLOBAL): a workspace cannot create, edit or delete it`, [
    { field: 'scope', ruleId: `${op}.scope.global_read_only`, message: 'platform-provided rules cannot be edited by a workspace' },
  ]);
}

function upsert(ctx: RouteContext): { rule: RuleRecord } {
  const req = parseBody(W.UpsertCategorisationRuleRequest, ctx.body, 'upsert_rule');
  const id = req.id.toLowerCase();
  const c = rules(ctx.store);
  const current = c.get(id);
  if (req.scope === 'GLOBAL' || current?.scope === 'GLOBAL') refuseGlobal('upsert_rule', id);
  checkEtag(current, req.etag, `categorisation rule ${id}`);
  validateMatcher(req, 'upsert_rule');
  const { etag: _e, actor, ...fields } = req;
  const merged: Record<string, unknown> = { ...(current ?? {}) };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) merged[k] = v;
  merged.id = id;
  merged.scope = 'WORKSPACE';
  if (!current) {
    const missing = (['dimension', 'title', 'category', 'matcher'] as const).filter((k) => merged[k] === undefined || merged[k] === 'DIMENSION_UNSPECIFIED');
    if (missing.length)
      throw invalidArgument(
        'invalid upsert_rule request',
        missing.map((f) => ({ field: f, ruleId: `upsert_rule.${f}.required`, message: `${f} is required to create a rule` })),
      );
  } else if (merged.dimension === 'DIMENSION_UNSPECIFIED') {
    throw invalidArgument('invalid upsert_rule request', [{ field: 'dimension', ruleId: 'upsert_rule.dimension.required', message: 'dimension cannot be unspecified' }]);
  }
  const at = ctx.now().toISOString();
  const who = actor?.name ?? ctx.principal.subject;
  merged.updatedAt = at;
  merged.updatedBy = who;
  if (!current) {
    merged.createdAt = at;
    merged.createdBy = who;
  }
  delete merged.etag;
  return { rule: c.put(id, sortKeys(merged) as RuleRecord) };
}

function pageOf<T>(items: readonly T[], key: (t: T) => string, pagination: { cursor?: string; pageSize?: number } | undefined): { items: T[]; pageInfo: { lastId: string; count: number } } {
  const size = Math.min(1000, pagination?.pageSize && pagination.pageSize > 0 ? pagination.pageSize : 200);
  const start = pagination?.cursor ? items.findIndex((t) => key(t) > pagination.cursor!) : 0;
  const from = start < 0 ? items.length : start;
  const page = items.slice(from, from + size);
  const more = from + size < items.length;
  return { items: page, pageInfo: { lastId: more ? key(page[page.length - 1]) : '', count: page.length } };
}

function deleteRule(ctx: RouteContext) {
  const req = parseBody(W.DeleteCategorisationRuleRequest, ctx.body, 'delete_rule');
  const id = req.id.toLowerCase();
  const c = rules(ctx.store);
  const current = c.get(id);
  if (!current) return {};
  if (current.scope === 'GLOBAL') refuseGlobal('delete_rule', id);
  checkEtag(current, req.etag, `categorisation rule ${id}`);
  // a hard delete: the id starts a new life (a rule created again answers version 1)
  c.delete(id, { forgetVersion: true });
  return {};
}

function batchGet(ctx: RouteContext) {
  const req = parseBody(W.BatchGetCategorisationRulesRequest, ctx.body, 'batch_get_rules');
  const c = rules(ctx.store);
  const out: Record<string, RuleRecord> = {};
  for (const id of [...new Set(req.ids.map((i) => i.toLowerCase()))].sort()) {
    const v = c.get(id);
    if (v) out[id] = v;
  }
  return { rules: out };
}

function list(ctx: RouteContext) {
  const req = parseBody(W.ListCategorisationRulesRequest, ctx.body, 'list_rules');
  const p = req.pagination ?? {};
  const dim = req.dimension && req.dimension !== 'DIMENSION_UNSPECIFIED' ? req.dimension : undefined;
  const scope = req.scope && req.scope !== 'RULE_SCOPE_UNSPECIFIED' ? req.scope : undefined;
  const page = rules(ctx.store).page(p.cursor || undefined, p.pageSize || undefined, (r) => (dim === undefined || r.dimension === dim) && (scope === undefined || r.scope === scope));
  return { rules: page.items, pageInfo: page.pageInfo };
}

function preview(ctx: RouteContext) {
  const req = parseBody(W.PreviewCategorisationRuleRequest, ctx.body, 'preview_rule');
  const rule = req.rule;
  if (rule.dimension === undefined || rule.dimension === 'DIMENSION_UNSPECIFIED' || rule.matcher === undefined) {
    const missing = [rule.dimension === undefined || rule.dimension === 'DIMENSION_UNSPECIFIED' ? 'dimension' : '', rule.matcher === undefined ? 'matcher' : ''].filter(Boolean);
    throw invalidArgument('invalid preview_rule request', missing.map((f) => ({ field: `rule.${f}`, ruleId: `preview_rule.rule.${f}.required`, message: `${f} is required to preview a rule` })));
  }
  validateMatcher(rule, 'preview_rule');
  const dimension = rule.dimension as Dimension;
  const candidateId = rule.id?.toLowerCase() ?? '~preview';
  const stored = rules(ctx.store).values();
  const existing = stored.find((r) => r.id === candidateId);
  if (existing?.scope === 'GLOBAL') refuseGlobal('preview_rule', candidateId);
  const candidate = { ...(existing ?? {}), ...Object.fromEntries(Object.entries(rule).filter(([, v]) => v !== undefined)), id: candidateId } as RuleRecord;
  const before = ranked(stored, dimension, ctx.catalog);
  const after = ranked([...stored.filter((r) => r.id !== candidateId), candidate], dimension, ctx.catalog);
  const match = matcherOf(candidate, ctx.catalog);
  let matchedCount = 0;
  let categorisedCount = 0;
  const changes: W.CategoryChange[] = [];
  for (const check of checksOf(ctx.store, ctx.catalog)) {
    if (match(check)) matchedCount++;
    const now = resolve(check, dimension, before);
    const then = resolve(check, dimension, after);
    if (then.ruleId === candidateId) categorisedCount++;
    if (now.category !== then.category) changes.push({ checkId: check.id, checkName: check.name, checkType: check.type, from: now.category, to: then.category });
  }
  changes.sort(byName);
  return { matchedCount, categorisedCount, changedCount: changes.length, changes: changes.slice(0, req.exampleCount ?? 10) };
}

function listMatches(ctx: RouteContext) {
  const req = parseBody(W.ListRuleMatchesRequest, ctx.body, 'list_rule_matches');
  const id = req.id.toLowerCase();
  const stored = rules(ctx.store).values();
  const rule = stored.find((r) => r.id === id);
  if (!rule) throw notFound(`categorisation rule ${id} not found`);
  const dimension = rule.dimension as Dimension;
  const ranks = ranked(stored, dimension, ctx.catalog);
  const match = matcherOf(rule, ctx.catalog);
  const matches: W.RuleMatch[] = [];
  for (const check of checksOf(ctx.store, ctx.catalog)) {
    if (!match(check)) continue;
    const r = resolve(check, dimension, ranks);
    matches.push({ checkId: check.id, checkName: check.name, checkType: check.type, category: r.category, applied: r.ruleId === id });
  }
  const page = pageOf(matches, (m) => m.checkId, req.pagination);
  return { matches: page.items, pageInfo: page.pageInfo };
}

/** The categorisation rules v1 routes. */
const OPS = W.categorisationRulesOperations;

export const routes: RouteTable = [
  routeOf(OPS.upsert, upsert, { operation: 'upsert_rule' }),
  routeOf(OPS.delete, deleteRule, { operation: 'delete_rule' }),
  routeOf(OPS.batchGet, batchGet, { operation: 'batch_get_rules' }),
  routeOf(OPS.list, list, { operation: 'list_rules' }),
  routeOf(OPS.preview, preview, { operation: 'preview_rule' }),
  routeOf(OPS.listMatches, listMatches, { operation: 'list_rule_matches' }),
];

/** The demo seed's objects. */
export const demoSeed: SeedHook = (store, { now }) => {
  const at = now().toISOString();
  // Platform-provided: listed as not managed in plans, never written or deleted by dqform.
  rules(store).put(
    DEMO_GLOBAL_RULE_ID,
    sortKeys<RuleRecord>({
      id: DEMO_GLOBAL_RULE_ID,
      dimension: 'TECHNICAL',
      scope: 'GLOBAL',
      title: 'Freshness monitors (platform)',
      category: 'Timeliness',
      matcher: { attributes: { checkTypes: ['monitor'], nameContains: 'fresh' } },
      priority: -1000,
      createdAt: at,
      updatedAt: at,
      createdBy: 'platform',
      updatedBy: 'platform',
    } as RuleRecord),
  );
};
