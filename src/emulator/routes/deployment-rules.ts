/**
 * Automated-monitor deployment rules (spec 2.3, 4.5; upstream facts): Deploy, BatchDeploy,
 * Delete, List, Batch, the deploy overview, the deleted overview and rules by asset path.
 *
 * Deploying (or deleting) a rule saves it and syncs the workspace's `monitors` collection
 * with {@link placeMonitors} over every rule; the overviews are the same placement diffed
 * against the stored monitors, without writing. See src/emulator/README.md ("Automated
 * monitors") for the placement rules and the encodings chosen.
 *
 * Collections: `deploymentRules` ({@link StoredRule}, keyed by rule id) and `monitors`
 * ({@link MonitorRecord}, keyed by {@link monitorKey}).
 */
import { z } from 'zod';
import { type Source } from '../../../schemas/platform/common';
import { EmptyResponse } from '../../../schemas/platform/alerts';
import {
  BatchDeployResponse,
  BatchGetDeploymentRulesRequest,
  BatchGetDeploymentRulesResponse,
  DeployDeploymentRuleRequest,
  DeploymentOverviewResponse,
  DeploymentRule,
  DeploymentRuleWrite,
  DeployOverviewRequest,
  ListDeploymentRulesRequest,
  ListDeploymentRulesResponse,
  RuleTypeEnum,
  type DeploymentOverview,
} from '../../../schemas/platform/deployment-rules';
import type { Query } from '../../../schemas/platform/entities';
import type { DataProduct } from '../../../schemas/platform/governance';
import { canonicalResolverQl, parseResolverQl, resolverQlToQuery, ResolverQlError } from '../../../schemas/tools/resolverql';
import type { RouteContext, RouteTable } from '../app';
import { failedPrecondition, invalidArgument, notFound, parseBody, refuseUnknownKeys, runBatch, zodViolations } from '../errors';
import {
  bareDataProductId,
  diffMonitors,
  keepsDeletedMonitors,
  overviewOf,
  placeMonitors,
  type DataProductLookup,
  type MonitorDiff,
  type MonitorState,
  type Placement,
  type PlacementRule,
} from '../monitors';
import type { Store } from '../store';

/** A stored rule: the rule (write form, normalised) plus its deployment order. */
export interface StoredRule {
  rule: PlacementRule;
  /** Deployment order: an earlier rule keeps an asset another rule also selects. */
  seq: number;
  createdAt: string;
  updatedAt: string;
}

/** A stored monitor. */
export type MonitorRecord = MonitorState & { createdAt?: string; updatedAt?: string };

/** Collection names (other modules may read the monitors). */
export const RULES_COLLECTION = 'deploymentRules';
export const MONITORS_COLLECTION = 'monitors';
/** The data products collection written by the governance route module. */
export const DATAPRODUCTS_COLLECTION = 'dataproducts';

const BASE = '/api/monitors/automated/v1';
/** wire-facts section 4: the any-of scope sets. */
const EDIT_OR_MCP = ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'] as const;
const EDIT = ['SCOPE_MONITORS_AUTOMATIC_EDIT'] as const;
const EDIT_OR_MCP_READ = ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_READ'] as const;

type RuleWrite = z.output<typeof DeploymentRuleWrite>;

// ---------------------------------------------------------------------------------------------
// Normalising a written rule

/**
 * The stored form of a written rule: `source` defaults to SOURCE_API; a `resolverQl` (which
 * wins over `query`) is parsed, stored with its canonical `renderedResolverQl` and its
 * translated `query`. Bad ResolverQL: INVALID_ARGUMENT naming the offset. A product rule
 * naming a missing data product: FAILED_PRECONDITION. Exported for
 * test/emulator/overview-equivalence.test.ts.
 */
export function normalise(w: RuleWrite, operation: string, field: string, dataproducts: DataProductLookup): PlacementRule {
  const rule: PlacementRule = { id: w.id, title: w.title, source: w.source ?? 'SOURCE_API' };
  if (w.configId !== undefined) rule.configId = w.configId;
  const queryish = (kind: 'queryConfig' | 'exclusiveQueryConfig', c: { query?: Query; resolverQl?: string }) => {
    const out: { query?: Query; resolverQl?: string; renderedResolverQl?: string } = {};
    if (c.resolverQl !== undefined) {
      try {
        const ast = parseResolverQl(c.resolverQl);
        out.query = resolverQlToQuery(ast);
        out.resolverQl = c.resolverQl;
        out.renderedResolverQl = canonicalResolverQl(c.resolverQl);
      } catch (e) {
        if (!(e instanceof ResolverQlError)) throw e;
        throw invalidArgument(`deployment rule ${w.id}: invalid ResolverQL`, [
          { field: `${field}.${kind}.resolverQl`, ruleId: `${operation}.${kind}.resolver_ql`, message: e.message },
        ]);
      }
    } else if (c.query !== undefined) {
      out.query = c.query;
    } else {
      throw invalidArgument(`deployment rule ${w.id}: ${kind} needs a selection`, [
        { field: `${field}.${kind}`, ruleId: `${operation}.${kind}.selection_required`, message: 'set query or resolverQl' },
      ]);
    }
    return out;
  };
  if (w.queryConfig) {
    const { query: _q, resolverQl: _r, renderedResolverQl: _rr, ...rest } = w.queryConfig;
    rule.queryConfig = { ...queryish('queryConfig', w.queryConfig), ...rest };
  } else if (w.exclusiveQueryConfig) {
    rule.exclusiveQueryConfig = queryish('exclusiveQueryConfig', w.exclusiveQueryConfig);
  } else if (w.staticConfig) {
    rule.staticConfig = { ...w.staticConfig };
  } else if (w.exclusiveStaticConfig) {
    rule.exclusiveStaticConfig = { ...w.exclusiveStaticConfig };
  } else if (w.productConfig) {
    const dp = dataproducts(bareDataProductId(w.productConfig.productId));
    if (!dp || dp.deletedAt) throw failedPrecondition(`deployment rule ${w.id}: data product ${w.productConfig.productId} not found`);
    rule.productConfig = { ...w.productConfig };
  }
  return rule;
}

// ---------------------------------------------------------------------------------------------
// State helpers

function rulesOf(store: Store) {
  return store.collection<StoredRule>(RULES_COLLECTION);
}

function monitorsOf(store: Store) {
  return store.collection<MonitorRecord>(MONITORS_COLLECTION);
}

function dataproductLookup(store: Store): DataProductLookup {
  const c = store.collection<DataProduct>(DATAPRODUCTS_COLLECTION);
  return (id) => c.get(id) ?? c.get(id.toLowerCase());
}

/**
 * The stored rules in precedence (deployment) order. Kept by the collection until its next
 * write: every overview reads it, and a plan asks one overview after another (issue 15).
 */
function orderedRules(store: Store): readonly StoredRule[] {
  return rulesOf(store).memo('orderedRules', () =>
    rulesOf(store)
      .values()
      .sort((a, b) => a.seq - b.seq || (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0)),
  );
}

/** The monitors rules manage (not kept ones), in id order; kept by the collection until its next write. */
function managedMonitors(store: Store): readonly MonitorRecord[] {
  return monitorsOf(store).memo('managedMonitors', () => monitorsOf(store).filter((m) => !m.kept));
}

/** Rules as they would be after `upserts` (replacing in place or appended) and `removed`. */
function proposedRules(current: readonly StoredRule[], upserts: PlacementRule[], removed: ReadonlySet<string> = new Set()): PlacementRule[] {
  const byId = new Map(upserts.map((r) => [r.id, r]));
  const out: PlacementRule[] = [];
  for (const s of current) {
    if (removed.has(s.rule.id)) continue;
    const u = byId.get(s.rule.id);
    out.push(u ?? s.rule);
    byId.delete(s.rule.id);
  }
  for (const r of upserts) if (byId.get(r.id) === r) out.push(r);
  return out;
}

export interface Computed {
  placement: Placement;
  diff: MonitorDiff;
}

/** What placement and the overviews read from a request: the caller's store and the catalog (REST and gRPC alike). */
export type OverviewContext = Pick<RouteContext, 'store' | 'catalog'>;

/**
 * Places every rule as it would be after `upserts` and `removed` ({@link proposedRules} of the
 * stored rules) and diffs against the stored managed monitors. Whether a rule keeps the monitors
 * it stops managing is decided by its new version, else (a removed rule) its stored one.
 * Exported for test/emulator/overview-equivalence.test.ts.
 */
export function compute(ctx: OverviewContext, upserts: PlacementRule[], removed: ReadonlySet<string> = new Set()): Computed {
  const lookup = dataproductLookup(ctx.store);
  const placement = placeMonitors(ctx.catalog, proposedRules(orderedRules(ctx.store), upserts, removed), lookup);
  // the last upsert of an id is the one placed; every other rule is the stored one (looked up by
  // id rather than indexing every rule per call)
  const upserted = new Map(upserts.map((r) => [r.id, r]));
  const stored = rulesOf(ctx.store);
  const diff = diffMonitors(managedMonitors(ctx.store), placement.monitors, (id) => keepsDeletedMonitors(upserted.get(id) ?? stored.get(id)?.rule));
  return { placement, diff };
}

/** Writes a diff into the monitors collection. */
function apply(ctx: RouteContext, diff: MonitorDiff): void {
  const monitors = monitorsOf(ctx.store);
  const now = ctx.now().toISOString();
  for (const m of diff.create) {
    const old = monitors.get(m.id);
    monitors.put(m.id, { ...m, createdAt: old?.createdAt ?? now, updatedAt: now });
  }
  for (const c of diff.change) monitors.put(c.after.id, { ...c.before, settings: c.after.settings, kept: undefined, updatedAt: now, etag: undefined } as MonitorRecord);
  for (const m of diff.delete) monitors.delete(m.id);
  for (const m of diff.keep) monitors.put(m.id, { ...m, kept: true, updatedAt: now, etag: undefined } as MonitorRecord);
}

/** Saves `upserts`, removes `removed`, and syncs the monitors. */
function deployAll(ctx: RouteContext, upserts: PlacementRule[], removed: ReadonlySet<string> = new Set()): void {
  const current = orderedRules(ctx.store);
  const { diff } = compute(ctx, upserts, removed);
  const coll = rulesOf(ctx.store);
  const now = ctx.now().toISOString();
  let seq = current.reduce((m, s) => Math.max(m, s.seq), 0);
  for (const r of upserts) {
    const old = coll.get(r.id);
    coll.put(r.id, { rule: r, seq: old?.seq ?? ++seq, createdAt: old?.createdAt ?? now, updatedAt: now });
  }
  for (const id of removed) coll.delete(id);
  apply(ctx, diff);
}

/** ListForAsset's answer: the rules with a monitor on the asset. */
const ListForAssetResponse = z.object({ deploymentRules: z.array(DeploymentRule) });

/** The List filter's rule type of a stored rule. */
function ruleTypeOf(r: PlacementRule): z.output<typeof RuleTypeEnum.schema> {
  if (r.queryConfig) return 'RULE_TYPE_QUERY';
  if (r.exclusiveQueryConfig) return 'RULE_TYPE_EXCLUSIVE_QUERY';
  if (r.staticConfig) return 'RULE_TYPE_STATIC_PATH';
  if (r.exclusiveStaticConfig) return 'RULE_TYPE_EXCLUSIVE_STATIC_PATH';
  return 'RULE_TYPE_PRODUCT';
}

/** Managed monitor counts per rule id. */
function monitorCounts(store: Store): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of managedMonitors(store)) counts.set(m.ruleId, (counts.get(m.ruleId) ?? 0) + 1);
  return counts;
}

/** The read form: the stored rule plus `monitorCount`. */
function readForm(s: StoredRule, counts: Map<string, number>): DeploymentRule {
  return { ...s.rule, monitorCount: counts.get(s.rule.id) ?? 0 };
}

/**
 * Validates the rule of a deploy overview (REST and gRPC): INVALID_ARGUMENT with violations
 * under `deploymentRule.` and rule ids `deploy_overview.<path>`.
 */
export function overviewRule(json: unknown): RuleWrite {
  const r = DeploymentRuleWrite.safeParse(json);
  if (!r.success) {
    throw invalidArgument(
      'invalid deploy_overview request',
      zodViolations(r.error, 'deploy_overview').map((v) => ({ ...v, field: v.field ? `deploymentRule.${v.field}` : 'deploymentRule' })),
    );
  }
  return r.data;
}

/** GetDeployOverview (REST and gRPC): what deploying `written` would do, computed without writing. */
export function deployOverview(ctx: OverviewContext, written: RuleWrite): DeploymentOverview {
  const rule = normalise(written, 'deploy_overview', 'deploymentRule', dataproductLookup(ctx.store));
  const { placement, diff } = compute(ctx, [rule]);
  return overviewOf(diff, rule.id, placement.skipped(rule.id));
}

/** GetDeployDeleteOverview (REST and gRPC): what deleting the stored rule `id` would do. NOT_FOUND for an unknown rule. */
export function deleteOverview(ctx: OverviewContext, id: string): DeploymentOverview {
  if (!rulesOf(ctx.store).has(id)) throw notFound(`deployment rule ${id} not found`);
  const { diff } = compute(ctx, [], new Set([id]));
  return overviewOf(diff, id, []);
}

// ---------------------------------------------------------------------------------------------
// Routes

function deploy(ctx: RouteContext) {
  const req = parseBody(DeployDeploymentRuleRequest, ctx.body, 'deploy');
  const rule = normalise(req.deploymentRule, 'deploy', 'deploymentRule', dataproductLookup(ctx.store));
  deployAll(ctx, [rule]);
  return {};
}

function batchDeploy(ctx: RouteContext) {
  const req = parseBody(z.object({ deploymentRules: z.array(z.unknown()) }), ctx.body, 'batch_deploy');
  const lookup = dataproductLookup(ctx.store);
  const idOf = (item: unknown, i: number) => {
    const id = item && typeof item === 'object' ? (item as { id?: unknown }).id : undefined;
    return typeof id === 'string' && id !== '' ? id : `#${i}`;
  };
  const { results, errors } = runBatch(req.deploymentRules, idOf, (item, i) => {
    const field = `deploymentRules[${i}]`;
    refuseUnknownKeys(DeploymentRuleWrite, item, 'batch_deploy');
    const r = DeploymentRuleWrite.safeParse(item);
    if (!r.success) {
      const violations = zodViolations(r.error, 'batch_deploy').map((v) => ({ ...v, field: v.field ? `${field}.${v.field}` : field }));
      throw invalidArgument('invalid deployment rule', violations);
    }
    return normalise(r.data, 'batch_deploy', field, lookup);
  });
  const rules = results.map((r) => r.result);
  if (rules.length) deployAll(ctx, rules);
  return BatchDeployResponse.parse({ deployedIds: [...new Set(rules.map((r) => r.id))], errors });
}

function deleteRule(ctx: RouteContext) {
  const id = ctx.params.id;
  if (!rulesOf(ctx.store).has(id)) return {}; // idempotent: deleting a missing rule is a no-op
  deployAll(ctx, [], new Set([id]));
  return {};
}

function getDeleteOverview(ctx: RouteContext): DeploymentOverviewResponse {
  return {
    overview: deleteOverview(ctx, ctx.params.id),
  };
}

// The rule travels as dotted scalar query parameters (`deploymentRule.id=...`); a JSON value for
// a message parameter, or an unknown parameter, is 400 (ctx.q is parsed strictly by the app).
// The gRPC twin (../grpc.ts) computes the same functions.
function getDeployOverview(ctx: RouteContext): DeploymentOverviewResponse {
  const req = ctx.q as z.output<typeof DeployOverviewRequest>;
  return { overview: deployOverview(ctx, req.deploymentRule) };
}

function list(ctx: RouteContext): ListDeploymentRulesResponse {
  const q = ctx.q as z.output<typeof ListDeploymentRulesRequest>;
  const sources = q.sources?.length ? new Set<Source>(q.sources) : undefined;
  // the deprecated `configIds` (declared, wire-facts 4) filters as `configsFilter.ids` does when that is absent (choice)
  const configIds = q.configsFilter?.ids.length ? q.configsFilter.ids : q.configIds;
  const configSet = configIds?.length ? new Set(configIds) : undefined;
  const ruleSet = q.ruleIds?.length ? new Set(q.ruleIds) : undefined;
  const types = q.ruleTypes?.length ? new Set(q.ruleTypes) : undefined;
  const page = rulesOf(ctx.store).page(q.pagination?.cursor || undefined, q.pagination?.pageSize || undefined, (s) => {
    if (sources && !sources.has(s.rule.source ?? 'SOURCE_APP')) return false;
    if (configSet && !configSet.has(s.rule.configId ?? '')) return false;
    if (ruleSet && !ruleSet.has(s.rule.id)) return false;
    if (types && !types.has(ruleTypeOf(s.rule))) return false;
    return true;
  });
  const counts = monitorCounts(ctx.store);
  return { deploymentRules: page.items.map((s) => readForm(s, counts)), pageInfo: page.pageInfo };
}

function batchGet(ctx: RouteContext): BatchGetDeploymentRulesResponse {
  // wire-facts 4: query `ids` (no limit declared): no limit of the emulator's own
  const ids = (ctx.q as { ids?: string[] }).ids?.filter((s) => s !== '') ?? [];
  const coll = rulesOf(ctx.store);
  const counts = monitorCounts(ctx.store);
  const out: Record<string, DeploymentRule> = {};
  for (const id of [...new Set(ids)].sort()) {
    const s = coll.get(id);
    if (s) out[id] = readForm(s, counts);
  }
  return { deploymentRules: out };
}

function listForAsset(ctx: RouteContext): { deploymentRules: DeploymentRule[] } {
  const path = ctx.params.asset_path;
  const ruleIds = new Set(managedMonitors(ctx.store).filter((m) => m.assetPath === path).map((m) => m.ruleId));
  const coll = rulesOf(ctx.store);
  const counts = monitorCounts(ctx.store);
  const rules = [...ruleIds]
    .sort()
    .map((id) => coll.get(id))
    .filter((s): s is NonNullable<typeof s> => s !== undefined)
    .map((s) => readForm(s, counts));
  return { deploymentRules: rules };
}

/** The automated-monitor deployment rules routes. */
export const routes: RouteTable = [
  { method: 'POST', path: `${BASE}/deployment-rules/deployed`, scope: EDIT_OR_MCP, response: EmptyResponse, handle: deploy },
  { method: 'POST', path: `${BASE}/deployment-rules/batch/deployed`, scope: EDIT, response: BatchDeployResponse, handle: batchDeploy },
  { method: 'DELETE', path: `${BASE}/deployment-rule/:id`, scope: EDIT_OR_MCP, response: EmptyResponse, handle: deleteRule },
  { method: 'GET', path: `${BASE}/deployment-rule/:id/deleted`, scope: EDIT_OR_MCP_READ, response: DeploymentOverviewResponse, handle: getDeleteOverview },
  { method: 'GET', path: `${BASE}/deployment-rule`, scope: EDIT_OR_MCP_READ, operation: 'deploy_overview', query: DeployOverviewRequest, response: DeploymentOverviewResponse, handle: getDeployOverview },
  { method: 'GET', path: `${BASE}/deployment-rules`, scope: EDIT_OR_MCP_READ, operation: 'list', query: ListDeploymentRulesRequest, response: ListDeploymentRulesResponse, handle: list },
  { method: 'GET', path: `${BASE}/deployment-rules/batch`, scope: EDIT, operation: 'batch', query: BatchGetDeploymentRulesRequest, response: BatchGetDeploymentRulesResponse, handle: batchGet },
  { method: 'GET', path: `${BASE}/deployment-rules/:asset_path`, scope: EDIT, response: ListForAssetResponse, handle: listForAsset },
];
