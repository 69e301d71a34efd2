/**
 * Automated-monitor placement: which catalog assets each deployment rule puts a monitor on,
 * and the deploy / delete overview as a diff of two monitor sets. Pure functions over a
 * {@link Catalog}, the rules and the data products; the deployment-rules route module stores
 * the result in its `monitors` collection.
 *
 * Semantics (documented in src/emulator/README.md, "Automated monitors"):
 * - Selection of a rule:
 *   - `queryConfig` / `exclusiveQueryConfig`: `renderedResolverQl` (or `resolverQl`) evaluated
 *     with {@link evaluateResolverQl} when present, else `query` with {@link evaluateQuery}.
 *   - `staticConfig` / `exclusiveStaticConfig` `path`: the asset with exactly that path; else
 *     every asset whose path starts with `path::` (`wh-prod::mart` covers
 *     `wh-prod::mart::orders`); else every asset of the folder with that key
 *     (`folder-wh-prod::mart`, deep). No match: nothing (reported in `skippedAssets`).
 *   - `productConfig`: the data product's assets (definition parts: `entityId` = a catalog
 *     entity id, or an asset path; `query { resolverQl }`). `self`: absent or `all` = every
 *     product asset, `selection { query }` = the product assets the query also selects.
 *     `upstream`: `all` adds every asset upstream of the product's assets (catalog lineage,
 *     transitively); `sources` adds only the upstream tables and views that have no table or
 *     view upstream of them. A missing or deleted data product selects nothing.
 * - Exclusive rules remove the assets they select from every other rule's selection.
 * - Only tables and views (entity types ending in `_TABLE` / `_VIEW`) get monitors.
 * - Precedence: rules are placed in the order given (the route passes them in deployment
 *   order: the earlier-deployed rule keeps an asset); a later rule that selects an asset
 *   already monitored by an earlier one skips it, naming that rule.
 * - A monitor is keyed by (rule id, asset path): a monitor moving from one rule to another is
 *   deleted and created, a rule changing its settings changes its monitors in place.
 * - Custom monitors (a choice: the facts name them in the overview, grpc-facts 3.2, but not what
 *   makes one): a monitor on an asset annotated `freshness_field=<column>` is deployed as a
 *   custom freshness monitor reading that column. The overview lists it under the custom keys
 *   (`customMonitorsToCreateFor`, ..., `customMonitorSettingsChanges` with
 *   `resolvedFreshnessField`), every other monitor under the automated ones.
 */
import type { Entity, Query } from '../../schemas/platform/entities';
import type { DeploymentOverview, DeploymentRule, MetricId, MonitorSettings } from '../../schemas/platform/deployment-rules';
import { MetricIdEnum } from '../../schemas/platform/deployment-rules';
import type { DataProduct } from '../../schemas/platform/governance';
import type { Catalog } from './catalog';
import { evaluateQuery, evaluateResolverQl } from './query-eval';

/** The rule fields placement reads (a stored rule; `monitorCount` ignored). */
export type PlacementRule = Omit<DeploymentRule, 'monitorCount'>;

/** A monitor as placement computes it and as the `monitors` collection stores it. */
export interface MonitorState {
  /** {@link monitorKey}(ruleId, assetPath). */
  id: string;
  assetPath: string;
  /** The catalog entity id of the asset. */
  entityId: string;
  /** The rule that placed it. */
  ruleId: string;
  settings: MonitorSettings;
  /** Set when the rule was deleted (or dropped the asset) with `keepDeletedMonitors`: no rule manages it any more. */
  kept?: boolean;
  /** A custom freshness monitor: the column its asset's `freshness_field` annotation names. */
  freshnessField?: string;
}

/** The annotation that makes a monitor on an asset a custom freshness monitor (see the module comment). */
export const FRESHNESS_FIELD_ANNOTATION = 'freshness_field';

/** An asset a rule selects but does not monitor, and why. */
export interface SkippedAsset {
  assetPath: string;
  reason: string;
}

/** The result of {@link placeMonitors}. */
export interface Placement {
  /** Every placed monitor by {@link monitorKey}. */
  readonly monitors: ReadonlyMap<string, MonitorState>;
  /** Monitor keys per rule id, in asset-path order. */
  readonly byRule: ReadonlyMap<string, readonly string[]>;
  /** The assets a rule selects but does not monitor, sorted by path. */
  skipped(ruleId: string): SkippedAsset[];
}

/** What a rule's selection evaluates to. */
export interface RuleSelection {
  /** Catalog entity indexes, ascending (= path order). */
  readonly indexes: readonly number[];
  /** Why the selection is empty or partial (e.g. the data product is missing), if it is. */
  readonly problem?: string;
}

/** Looks data products up by id (bare UUID or `dataproduct-<uuid>`). */
export type DataProductLookup = (id: string) => DataProduct | undefined;

/** The monitor id of (rule, asset). */
export function monitorKey(ruleId: string, assetPath: string): string {
  return `${ruleId}|${assetPath}`;
}

/** Whether automated monitors can watch this entity: tables and views only. */
export function isMonitorable(e: Entity): boolean {
  return /_(TABLE|VIEW)$/.test(e.type);
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Monitor settings of a rule (metric ids sorted by number, so order does not matter), or undefined for exclusive rules. */
export function settingsOf(rule: PlacementRule): MonitorSettings | undefined {
  const c = rule.queryConfig ?? rule.staticConfig ?? rule.productConfig;
  if (!c) return undefined;
  const metricIds = [...new Set(c.metricIds as MetricId[])].sort((a, b) => MetricIdEnum.numbers[a] - MetricIdEnum.numbers[b]);
  const options = (c as { metricOptions?: { metricId: MetricId; sensitivity: MonitorSettings['sensitivity'] }[] }).metricOptions ?? [];
  if (options.length === 0) return { severity: c.severity, sensitivity: c.sensitivity, metricIds };
  // per-metric sensitivities, one per metric (the last wins), in metric number order
  const byMetric = new Map(options.map((o) => [o.metricId, o.sensitivity]));
  const metricOptions = [...byMetric.entries()].sort(([a], [b]) => MetricIdEnum.numbers[a] - MetricIdEnum.numbers[b]).map(([metricId, sensitivity]) => ({ metricId, sensitivity }));
  return { severity: c.severity, sensitivity: c.sensitivity, metricIds, metricOptions };
}

/** Whether the rule is exclusive (selects assets to remove from other rules). */
export function isExclusive(rule: PlacementRule): boolean {
  return rule.exclusiveQueryConfig !== undefined || rule.exclusiveStaticConfig !== undefined;
}

/** Whether the rule keeps the monitors it stops managing (deleted rule, dropped asset). */
export function keepsDeletedMonitors(rule: PlacementRule | undefined): boolean {
  return rule?.queryConfig?.keepDeletedMonitors === true || rule?.productConfig?.keepDeletedMonitors === true;
}

// ---------------------------------------------------------------------------------------------
// Selections (cached per catalog and selection key)

const SELECTION_CACHE = new WeakMap<Catalog, Map<string, RuleSelection>>();
const CACHE_LIMIT = 5000;

function cached(catalog: Catalog, key: string, make: () => RuleSelection): RuleSelection {
  let m = SELECTION_CACHE.get(catalog);
  if (!m) SELECTION_CACHE.set(catalog, (m = new Map()));
  const hit = m.get(key);
  if (hit) return hit;
  const v = make();
  if (m.size >= CACHE_LIMIT) m.clear();
  m.set(key, v);
  return v;
}

function toIndexes(catalog: Catalog, es: readonly Entity[]): number[] {
  const out = es.map((e) => catalog.indexOf(e)).filter((i) => i >= 0);
  out.sort((a, b) => a - b);
  return out;
}

function evalQueryConfig(catalog: Catalog, c: { query?: Query; resolverQl?: string; renderedResolverQl?: string }): RuleSelection {
  const text = c.renderedResolverQl ?? c.resolverQl;
  const key = text !== undefined ? `rql:${text}` : `q:${JSON.stringify(c.query ?? null)}`;
  return cached(catalog, key, () => {
    try {
      if (text !== undefined) return { indexes: toIndexes(catalog, evaluateResolverQl(catalog, text)) };
      if (!c.query) return { indexes: [], problem: 'the rule has neither query nor resolverQl' };
      return { indexes: toIndexes(catalog, evaluateQuery(catalog, c.query)) };
    } catch (e) {
      return { indexes: [], problem: `the rule's selection cannot be evaluated: ${(e as Error).message}` };
    }
  });
}

/** Indexes of the assets a static path covers (see the module comment). */
export function staticPathIndexes(catalog: Catalog, path: string): number[] {
  const exact = catalog.byPath(path);
  if (exact) return [catalog.indexOf(exact)];
  const prefix = path.endsWith('::') ? path : `${path}::`;
  const es = catalog.entities;
  let lo = 0;
  let hi = es.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (es[mid].path < prefix) lo = mid + 1;
    else hi = mid;
  }
  const out: number[] = [];
  for (let i = lo; i < es.length && es[i].path.startsWith(prefix); i++) out.push(i);
  if (out.length) return out;
  return [...catalog.folderIndexes(path.split('::').filter((s) => s !== ''))];
}

function evalStatic(catalog: Catalog, path: string): RuleSelection {
  return cached(catalog, `static:${path}`, () => {
    const indexes = staticPathIndexes(catalog, path);
    return indexes.length ? { indexes } : { indexes, problem: `no catalog asset or folder at path ${path}` };
  });
}

/** The bare UUID of a data product id (`dataproduct-<uuid>` accepted). */
export function bareDataProductId(id: string): string {
  return id.startsWith('dataproduct-') ? id.slice('dataproduct-'.length) : id;
}

function productAssetIndexes(catalog: Catalog, dp: DataProduct): number[] {
  const set = new Set<number>();
  for (const part of dp.definition?.parts ?? []) {
    if (part.entityId !== undefined) {
      const e = catalog.byEntityId(part.entityId) ?? catalog.byPath(part.entityId);
      if (e) set.add(catalog.indexOf(e));
    } else if (part.query) {
      const text = part.query.renderedResolverQl ?? part.query.resolverQl;
      if (text === undefined) continue;
      try {
        for (const e of evaluateResolverQl(catalog, text)) set.add(catalog.indexOf(e));
      } catch {
        // a product part the evaluator cannot run selects nothing
      }
    }
  }
  return [...set].filter((i) => i >= 0).sort((a, b) => a - b);
}

function upstreamIndexes(catalog: Catalog, starts: readonly number[]): Set<number> {
  const startSet = new Set(starts);
  const out = new Set<number>();
  const stack = [...starts];
  while (stack.length) {
    const i = stack.pop()!;
    for (const p of catalog.parentIndexes(i)) {
      if (!out.has(p) && !startSet.has(p)) {
        out.add(p);
        stack.push(p);
      }
    }
  }
  return out;
}

function sourceIndexes(catalog: Catalog, upstream: Set<number>): number[] {
  const memo = new Map<number, boolean>();
  const hasMonitorableAncestor = (i: number): boolean => {
    const m = memo.get(i);
    if (m !== undefined) return m;
    memo.set(i, false); // cycle guard
    let r = false;
    for (const p of catalog.parentIndexes(i)) {
      if (isMonitorable(catalog.entities[p]) || hasMonitorableAncestor(p)) {
        r = true;
        break;
      }
    }
    memo.set(i, r);
    return r;
  };
  return [...upstream].filter((i) => isMonitorable(catalog.entities[i]) && !hasMonitorableAncestor(i));
}

function evalProduct(catalog: Catalog, c: NonNullable<PlacementRule['productConfig']>, dataproducts: DataProductLookup): RuleSelection {
  const dp = dataproducts(bareDataProductId(c.productId));
  if (!dp || dp.deletedAt) return { indexes: [], problem: `data product ${c.productId} not found` };
  const key = `dp:${JSON.stringify([dp.id, dp.definition ?? null, c.self ?? null, c.upstream ?? null])}`;
  return cached(catalog, key, () => {
    const assets = productAssetIndexes(catalog, dp);
    let self = assets;
    if (c.self?.selection) {
      let selected: Set<number>;
      try {
        selected = new Set(toIndexes(catalog, evaluateQuery(catalog, c.self.selection.query)));
      } catch {
        selected = new Set();
      }
      self = assets.filter((i) => selected.has(i));
    }
    const out = new Set(self);
    if (c.upstream?.all || c.upstream?.sources) {
      const up = upstreamIndexes(catalog, assets);
      for (const i of c.upstream.all ? up : sourceIndexes(catalog, up)) out.add(i);
    }
    const indexes = [...out].sort((a, b) => a - b);
    return assets.length ? { indexes } : { indexes, problem: `data product ${c.productId} has no catalog assets` };
  });
}

/**
 * The assets a rule selects (before exclusions, precedence and the monitorable filter).
 * Cached per catalog and selection (rule settings do not matter), so repeated overviews
 * re-evaluate nothing.
 */
export function ruleSelection(catalog: Catalog, rule: PlacementRule, dataproducts: DataProductLookup): RuleSelection {
  if (rule.queryConfig) return evalQueryConfig(catalog, rule.queryConfig);
  if (rule.exclusiveQueryConfig) return evalQueryConfig(catalog, rule.exclusiveQueryConfig);
  if (rule.staticConfig) return evalStatic(catalog, rule.staticConfig.path);
  if (rule.exclusiveStaticConfig) return evalStatic(catalog, rule.exclusiveStaticConfig.path);
  if (rule.productConfig) return evalProduct(catalog, rule.productConfig, dataproducts);
  return { indexes: [], problem: 'the rule has no config' };
}

// ---------------------------------------------------------------------------------------------
// Placement

/**
 * Per rule object: its selection (query and static configs only: a product rule's depends on
 * the data products, which change without the rule) and its settings. Every deploy overview
 * places every stored rule (issue 15: 1,250 of them, 125 overviews in a plan), and the stored
 * rule objects stay the same between writes, so each is evaluated once instead of per call.
 * Rules are never mutated in place (the store clones what it is given and hands out what it
 * keeps); the settings are frozen, as they are shared by every placement of the rule.
 */
interface RuleMemo {
  catalog?: Catalog;
  selection?: RuleSelection;
  settings: MonitorSettings | undefined;
}
const RULE_MEMO = new WeakMap<PlacementRule, RuleMemo>();

function memoOf(rule: PlacementRule): RuleMemo {
  let m = RULE_MEMO.get(rule);
  if (!m) RULE_MEMO.set(rule, (m = { settings: deepFreeze(settingsOf(rule)) }));
  return m;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object' && !Object.isFrozen(v)) {
    for (const x of Object.values(v)) deepFreeze(x);
    Object.freeze(v);
  }
  return v;
}

/** {@link ruleSelection}, remembered per rule object and catalog when it does not depend on the data products. */
function memoSelection(catalog: Catalog, rule: PlacementRule, memo: RuleMemo, dataproducts: DataProductLookup): RuleSelection {
  if (rule.productConfig) return ruleSelection(catalog, rule, dataproducts);
  if (memo.catalog !== catalog || !memo.selection) {
    memo.selection = ruleSelection(catalog, rule, dataproducts);
    memo.catalog = catalog;
  }
  return memo.selection;
}

type SkipNote = { index: number; kind: 'type' } | { index: number; kind: 'excluded' | 'claimed'; by: string };

/**
 * Places monitors for `rules`, in precedence order (earlier wins; see the module comment).
 * `dataproducts` looks product rules' data products up. Deterministic.
 */
export function placeMonitors(catalog: Catalog, rules: readonly PlacementRule[], dataproducts: DataProductLookup): Placement {
  const entities = catalog.entities;
  const memos = rules.map(memoOf);
  // exclusions: asset index -> first exclusive rule id selecting it
  const excludedBy = new Map<number, string>();
  rules.forEach((r, k) => {
    if (!isExclusive(r)) return;
    for (const i of memoSelection(catalog, r, memos[k], dataproducts).indexes) if (!excludedBy.has(i)) excludedBy.set(i, r.id);
  });
  const claimedBy = new Map<number, string>();
  const monitors = new Map<string, MonitorState>();
  const byRule = new Map<string, string[]>();
  const notes = new Map<string, SkipNote[]>();
  const problems = new Map<string, string>();
  rules.forEach((r, k) => {
    const sel = memoSelection(catalog, r, memos[k], dataproducts);
    if (sel.problem) problems.set(r.id, sel.problem);
    const settings = memos[k].settings;
    if (!settings) return; // exclusive
    const keys: string[] = [];
    const skip: SkipNote[] = [];
    for (const i of sel.indexes) {
      const e = entities[i];
      if (!isMonitorable(e)) {
        skip.push({ index: i, kind: 'type' });
        continue;
      }
      const ex = excludedBy.get(i);
      if (ex !== undefined) {
        skip.push({ index: i, kind: 'excluded', by: ex });
        continue;
      }
      const owner = claimedBy.get(i);
      if (owner !== undefined) {
        skip.push({ index: i, kind: 'claimed', by: owner });
        continue;
      }
      claimedBy.set(i, r.id);
      const key = monitorKey(r.id, e.path);
      const freshnessField = e.annotations.find((a) => a.name === FRESHNESS_FIELD_ANNOTATION && a.value)?.value;
      monitors.set(key, { id: key, assetPath: e.path, entityId: e.entityId, ruleId: r.id, settings, ...(freshnessField ? { freshnessField } : {}) });
      keys.push(key);
    }
    byRule.set(r.id, keys);
    notes.set(r.id, skip);
  });
  let titles: Map<string, string> | undefined; // built when a skip reason first names a rule
  const ruleName = (id: string) => {
    titles ??= new Map(rules.map((r) => [r.id, r.title]));
    return `deployment rule ${id}${titles.has(id) ? ` (${JSON.stringify(titles.get(id))})` : ''}`;
  };
  return {
    monitors,
    byRule,
    skipped(ruleId) {
      const out: SkippedAsset[] = (notes.get(ruleId) ?? []).map((n) => {
        const e = entities[n.index];
        if (n.kind === 'type') return { assetPath: e.path, reason: `not monitorable: ${e.type} (automated monitors watch tables and views only)` };
        if (n.kind === 'excluded') return { assetPath: e.path, reason: `excluded by exclusive ${ruleName(n.by)}` };
        return { assetPath: e.path, reason: `already monitored by ${ruleName(n.by)}` };
      });
      const problem = problems.get(ruleId);
      if (problem) {
        const rule = rules.find((r) => r.id === ruleId);
        const where = rule?.staticConfig?.path ?? rule?.exclusiveStaticConfig?.path ?? (rule?.productConfig ? `dataproduct-${bareDataProductId(rule.productConfig.productId)}` : '');
        out.push({ assetPath: where, reason: problem });
      }
      return out.sort((a, b) => cmp(a.assetPath, b.assetPath) || cmp(a.reason, b.reason));
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Diff and overview

function sameSettings(a: MonitorSettings, b: MonitorSettings): boolean {
  const opts = (s: MonitorSettings) => JSON.stringify((s.metricOptions ?? []).map((o) => [o.metricId, o.sensitivity]));
  return a.severity === b.severity && a.sensitivity === b.sensitivity && a.metricIds.length === b.metricIds.length && a.metricIds.every((m, i) => m === b.metricIds[i]) && opts(a) === opts(b);
}

/** How the managed monitors change from `before` to `after`. */
export interface MonitorDiff {
  /** New monitors (keys in `after` only). */
  create: MonitorState[];
  /** Monitors removed and not kept. */
  delete: MonitorState[];
  /** Monitors a rule stops managing but keeps (`keepDeletedMonitors`): they stay, marked `kept`. */
  keep: MonitorState[];
  /** Same key, different settings. */
  change: { before: MonitorState; after: MonitorState }[];
  /** Same key, same settings. */
  unchanged: MonitorState[];
}

/**
 * Diffs the managed monitors `before` (e.g. the `monitors` collection without kept ones)
 * against a new placement. `keeps(ruleId)` says whether the rule (as it will be, or as it was
 * when it is being deleted) keeps the monitors it stops managing. Every list is sorted by
 * (asset path, rule id).
 */
export function diffMonitors(before: Iterable<MonitorState>, after: ReadonlyMap<string, MonitorState>, keeps: (ruleId: string) => boolean): MonitorDiff {
  const d: MonitorDiff = { create: [], delete: [], keep: [], change: [], unchanged: [] };
  const seen = new Set<string>();
  for (const b of before) {
    seen.add(b.id);
    const a = after.get(b.id);
    if (!a) (keeps(b.ruleId) ? d.keep : d.delete).push(b);
    else if (sameSettings(a.settings, b.settings)) d.unchanged.push(b);
    else d.change.push({ before: b, after: a });
  }
  for (const [k, a] of after) if (!seen.has(k)) d.create.push(a);
  const order = (x: MonitorState, y: MonitorState) => cmp(x.assetPath, y.assetPath) || cmp(x.ruleId, y.ruleId);
  d.create.sort(order);
  d.delete.sort(order);
  d.keep.sort(order);
  d.unchanged.sort(order);
  d.change.sort((x, y) => order(x.before, y.before));
  return d;
}

const sortedUnique = (xs: Iterable<string>): string[] => [...new Set(xs)].sort(cmp);

/**
 * The overview of a diff, as seen from rule `ruleId`: every monitor created, deleted or
 * changed (whatever rule it belongs to: they all follow from this change), and, as active,
 * this rule's monitors that stay unchanged plus the ones kept by `keepDeletedMonitors`.
 * `skippedAssets` come from the rule's placement. Custom freshness monitors
 * ({@link MonitorState.freshnessField}) go to the custom lists, the rest to the automated
 * ones. Paths sorted.
 */
export function overviewOf(diff: MonitorDiff, ruleId: string, skippedAssets: SkippedAsset[]): DeploymentOverview {
  const isCustom = (m: MonitorState) => m.freshnessField !== undefined;
  const paths = (ms: MonitorState[], custom: boolean) => sortedUnique(ms.filter((m) => isCustom(m) === custom).map((m) => m.assetPath));
  const active = [...diff.unchanged, ...diff.keep].filter((m) => m.ruleId === ruleId);
  const changes = (custom: boolean) => diff.change.filter((c) => isCustom(c.after) === custom);
  return {
    monitorsToCreateFor: paths(diff.create, false),
    monitorsToDeleteFor: paths(diff.delete, false),
    activeMonitorsFor: paths(active, false),
    monitorSettingsChanges: changes(false).map((c) => ({ monitoredAssetPath: c.before.assetPath, originalSettings: c.before.settings, newSettings: c.after.settings })),
    customMonitorsToCreateFor: paths(diff.create, true),
    customMonitorsToDeleteFor: paths(diff.delete, true),
    activeCustomMonitorsFor: paths(active, true),
    customMonitorSettingsChanges: changes(true).map((c) => ({
      monitoredAssetPath: c.before.assetPath,
      originalSettings: c.before.settings,
      newSettings: c.after.settings,
      resolvedFreshnessField: c.after.freshnessField,
    })),
    skippedAssets,
  };
}
