/**
 * The deploy / delete overviews' fast paths (issue 15) against the straightforward computations
 * they replaced, kept here as references: on seeded random rule sets and stored states, built up
 * by writes between the checks (so the store's memos and indexes are rebuilt as a real workspace
 * sees them), both must give the same result, byte for byte (JSON, order included).
 */
import type { SqlTest } from '../../schemas/sql-tests';
import { buildCatalog, type Catalog } from '../../src/emulator/catalog';
import { EmulatorStore, type Store } from '../../src/emulator/store';
import { SQL_TESTS_COLLECTION } from '../../src/emulator/routes/sql-tests';
import { deleteOverview as sqlDeleteOverview, deployOverview as sqlDeployOverview, prepareRule, SQL_TEST_RULES_COLLECTION, storedState } from '../../src/emulator/routes/sql-test-rules';
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

/** A small seeded PRNG (mulberry32): the same seed, the same scenario. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
      recurrenceRule: r.pick(['FREQ=DAILY', 'FREQ=DAILY;BYHOUR=6']),
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
    const ctx = { store, catalog };
    const pool = 4 + r.int(10);
    for (let step = 0; step < 60; step++) {
      const rules = rulesOf(store);
      const stored = rules.values();
      let change: RuleChange;
      if (stored.length && r.chance(0.2)) change = { delete: r.chance(0.9) ? r.pick(stored).id : ruleId(800) };
      else change = { deploy: randomSqlRule(r, 1 + r.int(pool)) };
      const current = testsOf(store).filter((t) => t.deploymentRuleId !== undefined && t.deploymentRuleId !== '');

      const want = referencePlanRuleChange(catalog, stored, current, change);
      const got = planRuleChangeIn(catalog, storedState(ctx), change);
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
