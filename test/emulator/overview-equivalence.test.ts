/**
 * The deploy / delete overviews' fast paths (issue 15) against the straightforward computations
 * they replaced, kept here as references: on seeded random rule sets and stored states, built up
 * by writes between the checks (so the store's memos and indexes are rebuilt as a real workspace
 * sees them), both must give the same result, byte for byte (JSON, order included).
 */
import type { DeploymentRuleWrite } from '../../schemas/platform/deployment-rules';
import type { DataProduct } from '../../schemas/platform/governance';
import type { SqlTest } from '../../schemas/platform/sql-tests';
import type { z } from 'zod';
import { buildCatalog, type Catalog } from '../../src/emulator/catalog';
import { EmulatorStore, type Store } from '../../src/emulator/store';
import { SQL_TESTS_COLLECTION } from '../../src/emulator/routes/sql-tests';
import {
  compute,
  DATAPRODUCTS_COLLECTION,
  deleteOverview as monitorDeleteOverview,
  deployOverview as monitorDeployOverview,
  MONITORS_COLLECTION,
  normalise,
  RULES_COLLECTION,
  type MonitorRecord,
  type StoredRule,
} from '../../src/emulator/routes/deployment-rules';
import {
  bareDataProductId,
  diffMonitors,
  isExclusive as isExclusiveMonitorRule,
  isMonitorable,
  keepsDeletedMonitors,
  monitorKey,
  overviewOf,
  ruleSelection as monitorRuleSelection,
  settingsOf,
  type DataProductLookup,
  type MonitorDiff,
  type MonitorState,
  type Placement,
  type PlacementRule,
  type SkippedAsset,
} from '../../src/emulator/monitors';
import { deleteOverview as sqlDeleteOverview, deployOverview as sqlDeployOverview, prepareRule, SQL_TEST_RULES_COLLECTION, storedState } from '../../src/emulator/routes/sql-test-rules';
import { mulberry32 } from '../../src/emulator/random';
import {
  isExclusive,
  keepRemoved,
  placeRule,
  planRuleChangeIn,
  refOfTest,
  ruleSelection,
  ruleSettings,
  sameTest,
  type PlacedTest,
  type PlacementChange,
  type RuleChange,
  type RulePlacement,
  type SqlTestRule,
} from '../../src/emulator/sql-test-placement';

const catalog = buildCatalog('demo');
/** The catalog switched to now and then (as a data file loaded with another seed size does): memos must follow it. */
const smallCatalog = buildCatalog('demo', { size: 150 });
const catalogAt = (seed: number, step: number) => (seed % 4 === 0 && step % 3 === 1 ? smallCatalog : catalog);

/** A small seeded PRNG (mulberry32): the same seed, the same scenario. */
function rng(seed: number) {
  const next = mulberry32(seed);
  const int = (n: number) => Math.floor(next() * n);
  return { next, int, pick: <T>(xs: readonly T[]): T => xs[int(xs.length)], chance: (p: number) => next() < p };
}
type Rng = ReturnType<typeof rng>;

// ---------------------------------------------------------------------------------------------
// SQL-test rules: the reference is planRuleChange as it was before the fast path (verbatim).

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
type RefLike = { tablePath: string; testName: string; sqlTestPath?: string };
const byRef = (a: RefLike, b: RefLike): number => cmp(a.tablePath, b.tablePath) || cmp(a.testName, b.testName) || cmp(a.sqlTestPath ?? '', b.sqlTestPath ?? '');

function referenceExclusiveClaims(catalog: Catalog, rules: readonly SqlTestRule[]): Map<string, string> {
  const claims = new Map<string, string>();
  for (const r of [...rules].sort((a, b) => cmp(a.id, b.id))) {
    if (!isExclusive(r)) continue;
    for (const e of ruleSelection(catalog, r)) if (!claims.has(e.path)) claims.set(e.path, r.id);
  }
  return claims;
}

function referencePlanRuleChange(catalog: Catalog, rules: readonly SqlTestRule[], current: readonly SqlTest[], change: RuleChange): PlacementChange {
  const changedId = 'deploy' in change ? change.deploy.id : change.delete;
  const before = rules.find((r) => r.id === changedId);
  const after = rules.filter((r) => r.id !== changedId);
  if ('deploy' in change) after.push(change.deploy);
  const exclusiveTouched = (before !== undefined && isExclusive(before)) || ('deploy' in change && isExclusive(change.deploy));
  const affected = new Set<string>(exclusiveTouched ? [...after.map((r) => r.id), changedId] : [changedId]);

  const claims = referenceExclusiveClaims(catalog, after);
  const proposed = new Map<string, PlacedTest>();
  let skipped: RulePlacement['skipped'] = [];
  for (const r of after) {
    if (!affected.has(r.id)) continue;
    const p = placeRule(catalog, r, claims);
    for (const t of p.tests) proposed.set(t.test.id, t);
    if (r.id === changedId) skipped = p.skipped;
  }
  const keepFlag = new Map<string, boolean>();
  for (const r of rules) keepFlag.set(r.id, keepRemoved(r));
  for (const r of after) keepFlag.set(r.id, keepRemoved(r));
  if ('delete' in change && before) keepFlag.set(before.id, keepRemoved(before));
  if ('deploy' in change && before && !ruleSettings(change.deploy)) keepFlag.set(before.id, keepRemoved(before));

  const out: PlacementChange = {
    create: [],
    update: [],
    delete: [],
    keep: [],
    overview: { testsToCreate: [], testsToUpdate: [], testsToDelete: [], testsToKeep: [], skippedTables: [] },
  };
  const seen = new Set<string>();
  for (const cur of current) {
    if (!cur.deploymentRuleId || !affected.has(cur.deploymentRuleId)) continue;
    const next = proposed.get(cur.id);
    if (next && next.test.deploymentRuleId === cur.deploymentRuleId) {
      seen.add(cur.id);
      if (!sameTest(cur, next.test)) {
        out.update.push(next.test);
        out.overview.testsToUpdate.push({ tablePath: next.tablePath, sqlTestPath: cur.id, testName: next.testName });
      }
      continue;
    }
    const ref = refOfTest(catalog, cur);
    if (keepFlag.get(cur.deploymentRuleId)) {
      const { deploymentRuleId: _detached, ...kept } = cur as SqlTest & { etag?: string };
      delete (kept as { etag?: string }).etag;
      out.keep.push(kept as SqlTest);
      out.overview.testsToKeep.push(ref);
    } else {
      out.delete.push(cur.id);
      out.overview.testsToDelete.push(ref);
    }
  }
  for (const [id, p] of proposed) {
    if (seen.has(id)) continue;
    out.create.push(p.test);
    out.overview.testsToCreate.push({ tablePath: p.tablePath, sqlTestPath: id, testName: p.testName });
  }
  out.overview.testsToCreate.sort(byRef);
  out.overview.testsToUpdate.sort(byRef);
  out.overview.testsToDelete.sort(byRef);
  out.overview.testsToKeep.sort(byRef);
  out.overview.skippedTables = [...skipped].sort((a, b) => cmp(a.tablePath, b.tablePath) || cmp(a.reason, b.reason));
  out.create.sort((a, b) => cmp(a.id, b.id));
  out.update.sort((a, b) => cmp(a.id, b.id));
  out.delete.sort(cmp);
  return out;
}

const SQL_SELECTIONS = [
  'in_folder("folder-wh-prod::mart")',
  'in_folder("folder-wh-prod::raw")',
  'with_name("orders")',
  'with_annotation("pii")',
  'with_type("table")',
  'and(with_name("orders"),in_folder("folder-wh-prod"))',
];
const STATIC_PATHS = ['wh-prod::raw', 'wh-prod::raw::orders', 'folder-wh-prod::raw', 'wh-prod::mart', 'folder-wh-prod::mart', 'wh-nowhere::x'];
const RULE_TESTS = [
  { name: 'ids not null', notNullTest: { columnNames: ['id'] } },
  { name: 'ids unique', uniqueTest: { columnNames: ['id'] } },
  { notNullTest: { columnNames: ['customer_id'] } },
  { name: 'ids not null', notNullTest: { columnNames: ['id'] }, severity: 'SEVERITY_ERROR' },
];
const ruleId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** A random (prepared) SQL-test rule with id number `n`. */
function randomSqlRule(r: Rng, n: number): SqlTestRule {
  const settings = () => {
    const tests = r.chance(0.5) ? [RULE_TESTS[r.int(3)]] : [RULE_TESTS[r.pick([0, 3])], RULE_TESTS[1]];
    return {
      recurrenceRule: r.pick(['DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=6']),
      ...(r.chance(0.3) ? { timezone: 'Europe/Paris' } : {}),
      ...(r.chance(0.3) ? { severity: r.pick(['SEVERITY_WARNING', 'SEVERITY_ERROR']) } : {}),
      tests,
    };
  };
  const kind = r.pick(['query', 'query', 'static', 'exclusiveQuery', 'exclusiveStatic'] as const);
  const base = { id: ruleId(n), title: `rule ${n}`, configId: 'eq' };
  const raw =
    kind === 'query'
      ? { ...base, queryConfig: { resolverQl: r.pick(SQL_SELECTIONS), ...settings(), ...(r.chance(0.5) ? { keepRemovedTests: r.chance(0.7) } : {}) } }
      : kind === 'static'
        ? { ...base, staticConfig: { path: r.pick(STATIC_PATHS), ...settings() } }
        : kind === 'exclusiveQuery'
          ? { ...base, exclusiveQueryConfig: { resolverQl: r.pick(SQL_SELECTIONS) } }
          : { ...base, exclusiveStaticConfig: { path: r.pick(STATIC_PATHS) } };
  return prepareRule(raw as SqlTestRule, 'deploymentRule.', 'deploy');
}

const rulesOf = (s: Store) => s.collection<SqlTestRule>(SQL_TEST_RULES_COLLECTION);
const testsOf = (s: Store) => s.collection<SqlTest>(SQL_TESTS_COLLECTION);

/** Writes a planned change as the route does (tests, then the rule). */
function writeSql(store: Store, change: RuleChange, planned: PlacementChange): void {
  const tests = testsOf(store);
  for (const id of planned.delete) tests.delete(id);
  for (const t of planned.keep) tests.put(t.id, t);
  for (const t of planned.update) tests.put(t.id, t);
  for (const t of planned.create) tests.put(t.id, t);
  if ('deploy' in change) rulesOf(store).put(change.deploy.id, change.deploy);
  else rulesOf(store).delete(change.delete);
}

/** Stirs the stored tests as users (and drift) would: a rule-made test edited, a test of an unknown rule, an ordinary test. */
function stirSql(r: Rng, store: Store): void {
  const tests = testsOf(store);
  const made = tests.filter((t) => !!t.deploymentRuleId);
  if (made.length && r.chance(0.3)) {
    const t = r.pick(made);
    tests.put(t.id, { ...t, severity: t.severity === 'SEVERITY_ERROR' ? 'SEVERITY_WARNING' : 'SEVERITY_ERROR' });
  }
  if (made.length && r.chance(0.15)) {
    const t = r.pick(made);
    const orphan = ruleId(900 + r.int(3));
    tests.put(`${orphan}:${t.id}`, { ...t, id: `${orphan}:${t.id}`, deploymentRuleId: orphan });
  }
  if (r.chance(0.15)) tests.put(`plain-${r.int(5)}`, { id: `plain-${r.int(5)}`, name: 'plain', platform: { unknown: {} }, recurrenceRule: 'FREQ=DAILY', sqlExpression: 'select 1', deploymentRuleId: r.chance(0.3) ? '' : undefined } as SqlTest);
}

describe('SQL-test rule overviews: the fast path equals the straightforward computation', () => {
  const seeds = Array.from({ length: 40 }, (_, i) => 1000 + i);
  const seen = { create: 0, update: 0, delete: 0, keep: 0, claimed: 0, exclusiveChanges: 0, turnedExclusive: 0, deletes: 0 };

  it.each(seeds)('seed %i', (seed) => {
    const r = rng(seed);
    const store = new EmulatorStore().workspace('eq');
    const pool = 4 + r.int(10);
    for (let step = 0; step < 60; step++) {
      const cat = catalogAt(seed, step);
      const ctx = { store, catalog: cat };
      const rules = rulesOf(store);
      const stored = rules.values();
      let change: RuleChange;
      if (stored.length && r.chance(0.2)) change = { delete: r.chance(0.9) ? r.pick(stored).id : ruleId(800) };
      else change = { deploy: randomSqlRule(r, 1 + r.int(pool)) };
      const current = testsOf(store).filter((t) => t.deploymentRuleId !== undefined && t.deploymentRuleId !== '');

      const want = referencePlanRuleChange(cat, stored, current, change);
      const got = planRuleChangeIn(cat, storedState(ctx), change);
      expect(JSON.stringify(got)).toBe(JSON.stringify(want));
      // the route functions the overviews call
      if ('deploy' in change) expect(JSON.stringify(sqlDeployOverview(ctx, change.deploy))).toBe(JSON.stringify(want.overview));
      else if (rules.has(change.delete)) expect(JSON.stringify(sqlDeleteOverview(ctx, change.delete))).toBe(JSON.stringify(want.overview));

      const before = rules.get('deploy' in change ? change.deploy.id : change.delete);
      if ((before && isExclusive(before)) || ('deploy' in change && isExclusive(change.deploy))) seen.exclusiveChanges++;
      if ('deploy' in change && before && !isExclusive(before) && isExclusive(change.deploy)) seen.turnedExclusive++;
      if ('delete' in change) seen.deletes++;
      seen.create += want.create.length;
      seen.update += want.update.length;
      seen.delete += want.delete.length;
      seen.keep += want.keep.length;
      seen.claimed += want.overview.skippedTables.filter((s) => s.reason.startsWith('claimed by')).length;

      // most previews are followed by the write (as deploy / delete do); some are not
      if (r.chance(0.7) && !('delete' in change && !rules.has(change.delete))) writeSql(store, change, want);
      stirSql(r, store);
    }
  });

  afterAll(() => {
    // the scenarios reach every branch (else the comparisons above prove little)
    for (const [k, v] of Object.entries(seen)) expect([k, v > 0]).toEqual([k, true]);
  });
});

// ---------------------------------------------------------------------------------------------
// Monitor rules: the reference is placeMonitors and the route's compute as they were before the
// fast path (no memo: the stored rules sorted, the managed monitors filtered and every rule's
// selection and settings evaluated per call).

function referencePlaceMonitors(catalog: Catalog, rules: readonly PlacementRule[], dataproducts: DataProductLookup): Placement {
  type SkipNote = { index: number; kind: 'type' } | { index: number; kind: 'excluded' | 'claimed'; by: string };
  const entities = catalog.entities;
  const titles = new Map(rules.map((r) => [r.id, r.title]));
  const excludedBy = new Map<number, string>();
  for (const r of rules) {
    if (!isExclusiveMonitorRule(r)) continue;
    for (const i of monitorRuleSelection(catalog, r, dataproducts).indexes) if (!excludedBy.has(i)) excludedBy.set(i, r.id);
  }
  const claimedBy = new Map<number, string>();
  const monitors = new Map<string, MonitorState>();
  const byRule = new Map<string, string[]>();
  const notes = new Map<string, SkipNote[]>();
  const problems = new Map<string, string>();
  for (const r of rules) {
    const sel = monitorRuleSelection(catalog, r, dataproducts);
    if (sel.problem) problems.set(r.id, sel.problem);
    const settings = settingsOf(r);
    if (!settings) continue;
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
      monitors.set(key, { id: key, assetPath: e.path, entityId: e.entityId, ruleId: r.id, settings });
      keys.push(key);
    }
    byRule.set(r.id, keys);
    notes.set(r.id, skip);
  }
  const ruleName = (id: string) => `deployment rule ${id}${titles.has(id) ? ` (${JSON.stringify(titles.get(id))})` : ''}`;
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

function referenceProposedRules(current: StoredRule[], upserts: PlacementRule[], removed: ReadonlySet<string> = new Set()): PlacementRule[] {
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

const monitorRulesOf = (s: Store) => s.collection<StoredRule>(RULES_COLLECTION);
const monitorsOf = (s: Store) => s.collection<MonitorRecord>(MONITORS_COLLECTION);
const productsOf = (s: Store) => s.collection<DataProduct>(DATAPRODUCTS_COLLECTION);
const productLookup = (s: Store): DataProductLookup => (id) => productsOf(s).get(id) ?? productsOf(s).get(id.toLowerCase());

function referenceCompute(store: Store, catalog: Catalog, upserts: PlacementRule[], removed: ReadonlySet<string> = new Set()): { placement: Placement; diff: MonitorDiff } {
  const current = monitorRulesOf(store)
    .values()
    .sort((a, b) => a.seq - b.seq || (a.rule.id < b.rule.id ? -1 : a.rule.id > b.rule.id ? 1 : 0));
  const rules = referenceProposedRules(current, upserts, removed);
  const placement = referencePlaceMonitors(catalog, rules, productLookup(store));
  const nowById = new Map(rules.map((r) => [r.id, r]));
  const oldById = new Map(current.map((s) => [s.rule.id, s.rule]));
  const diff = diffMonitors(
    monitorsOf(store).filter((m) => !m.kept),
    placement.monitors,
    (id) => keepsDeletedMonitors(nowById.get(id) ?? oldById.get(id)),
  );
  return { placement, diff };
}

/** Saves the rules and syncs the monitors, as the route's deployAll does. */
function writeMonitors(store: Store, upserts: PlacementRule[], removed: ReadonlySet<string>, diff: MonitorDiff, now: string): void {
  const coll = monitorRulesOf(store);
  let seq = coll.values().reduce((m, s) => Math.max(m, s.seq), 0);
  for (const r of upserts) {
    const old = coll.get(r.id);
    coll.put(r.id, { rule: r, seq: old?.seq ?? ++seq, createdAt: old?.createdAt ?? now, updatedAt: now });
  }
  for (const id of removed) coll.delete(id);
  const monitors = monitorsOf(store);
  for (const m of diff.create) monitors.put(m.id, { ...m, createdAt: monitors.get(m.id)?.createdAt ?? now, updatedAt: now });
  for (const c of diff.change) monitors.put(c.after.id, { ...c.before, settings: c.after.settings, kept: undefined, updatedAt: now, etag: undefined } as MonitorRecord);
  for (const m of diff.delete) monitors.delete(m.id);
  for (const m of diff.keep) monitors.put(m.id, { ...m, kept: true, updatedAt: now, etag: undefined } as MonitorRecord);
}

const PRODUCT_IDS = ['0d000000-0000-4000-8000-000000000001', '0d000000-0000-4000-8000-000000000002', '0d000000-0000-4000-8000-000000000003'];
const METRICS = ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY', 'METRIC_ID_VOLUME_CHANGE_DELAY'];
const tableLike = catalog.entities.filter((e) => isMonitorable(e));

/** A random written monitor rule with id number `n`. */
function randomMonitorRule(r: Rng, n: number): z.input<typeof DeploymentRuleWrite> {
  const metricIds = METRICS.filter(() => r.chance(0.5));
  const settings = {
    severity: r.pick(['SEVERITY_ERROR', 'SEVERITY_WARNING']),
    sensitivity: r.pick(['SENSITIVITY_BALANCED', 'SENSITIVITY_PRECISE']),
    metricIds: metricIds.length ? r.chance(0.3) ? [...metricIds].reverse() : metricIds : ['METRIC_ID_ROW_COUNT'],
    ...(r.chance(0.2) ? { metricOptions: [{ metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_RELAXED' }] } : {}),
  };
  const keep = r.chance(0.4) ? { keepDeletedMonitors: r.chance(0.7) } : {};
  const base = { id: ruleId(n), title: `rule ${n}${r.chance(0.3) ? ' v2' : ''}`, configId: 'eq' };
  switch (r.pick(['query', 'query', 'static', 'product', 'exclusiveQuery', 'exclusiveStatic'] as const)) {
    case 'query':
      return { ...base, queryConfig: { resolverQl: r.pick(SQL_SELECTIONS), ...settings, ...keep } } as never;
    case 'static':
      return { ...base, staticConfig: { path: r.pick(STATIC_PATHS), ...settings } } as never;
    case 'product': {
      const shape = r.pick([{}, { upstream: { sources: {} } }, { upstream: { all: {} } }, { self: { selection: { query: { parts: [{ withNameSearch: { searchQuery: 'orders' } }] } } } }]);
      return { ...base, productConfig: { productId: r.pick(PRODUCT_IDS), ...settings, ...keep, ...shape } } as never;
    }
    case 'exclusiveQuery':
      return { ...base, exclusiveQueryConfig: { resolverQl: r.pick(SQL_SELECTIONS) } } as never;
    case 'exclusiveStatic':
      return { ...base, exclusiveStaticConfig: { path: r.pick(STATIC_PATHS) } } as never;
  }
}

/** Stirs products and monitors as other routes (and drift) would: a product redefined or deleted, a monitor edited, kept, dropped or orphaned. */
function stirMonitors(r: Rng, store: Store): void {
  if (r.chance(0.25)) {
    const id = r.pick(PRODUCT_IDS);
    const parts = Array.from({ length: 1 + r.int(3) }, () => ({ entityId: r.pick(tableLike).entityId }));
    productsOf(store).put(id, { id, title: `product ${id}`, definition: { parts }, ...(r.chance(0.15) ? { deletedAt: '2026-01-01T00:00:00Z' } : {}) } as unknown as DataProduct);
  }
  const monitors = monitorsOf(store);
  const all = monitors.values();
  if (!all.length) return;
  if (r.chance(0.2)) {
    const m = r.pick(all);
    monitors.put(m.id, { ...m, settings: { ...m.settings, severity: m.settings.severity === 'SEVERITY_ERROR' ? 'SEVERITY_WARNING' : 'SEVERITY_ERROR' } });
  }
  if (r.chance(0.1)) monitors.put(r.pick(all).id, { ...r.pick(all), kept: true });
  if (r.chance(0.1)) monitors.delete(r.pick(all).id);
  if (r.chance(0.1)) {
    const m = r.pick(all);
    const orphan = ruleId(950 + r.int(2));
    monitors.put(monitorKey(orphan, m.assetPath), { ...m, id: monitorKey(orphan, m.assetPath), ruleId: orphan, kept: undefined });
  }
}

describe('monitor rule overviews: the fast path equals the straightforward computation', () => {
  const seeds = Array.from({ length: 40 }, (_, i) => 2000 + i);
  const seen = { create: 0, delete: 0, keep: 0, change: 0, active: 0, excluded: 0, claimed: 0, problems: 0, deletes: 0 };

  it.each(seeds)('seed %i', (seed) => {
    const r = rng(seed);
    const store = new EmulatorStore().workspace('eq');
    for (const id of PRODUCT_IDS.slice(0, 2)) productsOf(store).put(id, { id, title: id, definition: { parts: [{ entityId: r.pick(tableLike).entityId }] } } as unknown as DataProduct);
    const pool = 4 + r.int(10);
    for (let step = 0; step < 60; step++) {
      const cat = catalogAt(seed, step);
      const ctx = { store, catalog: cat };
      const rules = monitorRulesOf(store);
      const stored = rules.values();
      let upserts: PlacementRule[] = [];
      let removed = new Set<string>();
      let written: z.input<typeof DeploymentRuleWrite> | undefined;
      if (stored.length && r.chance(0.2)) removed = new Set([r.pick(stored).rule.id]);
      else {
        written = randomMonitorRule(r, 1 + r.int(pool));
        const w = written as { productConfig?: { productId: string } };
        const dp = w.productConfig && productLookup(store)(bareDataProductId(w.productConfig.productId));
        if (w.productConfig && (!dp || dp.deletedAt)) continue; // a missing product: FAILED_PRECONDITION
        upserts = [normalise(written as never, 'deploy_overview', 'deploymentRule', productLookup(store))];
        // now and then a batch of two (the later one of an id wins)
        if (r.chance(0.15)) {
          const more = randomMonitorRule(r, 1 + r.int(pool)) as { productConfig?: unknown };
          if (!more.productConfig) upserts.push(normalise(more as never, 'batch_deploy', 'deploymentRules[1]', productLookup(store)));
        }
      }
      const id = upserts[0]?.id ?? [...removed][0];

      const want = referenceCompute(store, cat, upserts, removed);
      const got = compute(ctx, upserts, removed);
      expect(JSON.stringify(got.diff)).toBe(JSON.stringify(want.diff));
      expect(JSON.stringify([...got.placement.monitors])).toBe(JSON.stringify([...want.placement.monitors]));
      expect(JSON.stringify([...got.placement.byRule])).toBe(JSON.stringify([...want.placement.byRule]));
      for (const u of upserts) expect(JSON.stringify(got.placement.skipped(u.id))).toBe(JSON.stringify(want.placement.skipped(u.id)));
      // the route functions the overviews call
      const wantOverview = overviewOf(want.diff, id, upserts.length ? want.placement.skipped(id) : []);
      if (written && upserts.length === 1) expect(JSON.stringify(monitorDeployOverview(ctx, written as never))).toBe(JSON.stringify(wantOverview));
      if (!upserts.length) expect(JSON.stringify(monitorDeleteOverview(ctx, id))).toBe(JSON.stringify(wantOverview));

      seen.create += want.diff.create.length;
      seen.delete += want.diff.delete.length;
      seen.keep += want.diff.keep.length;
      seen.change += want.diff.change.length;
      seen.active += wantOverview.activeMonitorsFor.length;
      seen.excluded += wantOverview.skippedAssets.filter((s) => s.reason.startsWith('excluded')).length;
      seen.claimed += wantOverview.skippedAssets.filter((s) => s.reason.startsWith('already monitored')).length;
      seen.problems += wantOverview.skippedAssets.filter((s) => /not found|no catalog asset/.test(s.reason)).length;
      if (removed.size) seen.deletes++;

      if (r.chance(0.7)) writeMonitors(store, upserts, removed, want.diff, `2026-01-01T00:00:${String(step).padStart(2, '0')}Z`);
      stirMonitors(r, store);
    }
  });

  afterAll(() => {
    for (const [k, v] of Object.entries(seen)) expect([k, v > 0]).toEqual([k, true]);
  });
});
