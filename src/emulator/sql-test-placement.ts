/**
 * Pure placement logic of SQL-test deployment rules, shared by deploy, delete and the two
 * overviews (so a preview and the write it previews can never disagree).
 *
 * Model:
 * - A rule's *selection* is the entities its config names: `queryConfig` /
 *   `exclusiveQueryConfig` evaluate `resolverQl` when given (else `query`) against the catalog;
 *   `staticConfig` / `exclusiveStaticConfig` take `path` as in {@link staticPathSelection}
 *   (exact asset, else assets below it, else a folder; nothing: one skipped entry naming the path).
 * - Exclusive rules deploy nothing; their selection is removed from every other rule's
 *   selection (reported in `skippedTables` with the claiming rule's id).
 * - A selected table or view (entity type ending in `_TABLE` / `_VIEW`) gets one SQL test per
 *   rule test; other entity types are skipped with a reason.
 * - A deployed test's id is `<ruleId>:<tablePath>:<testName>` ({@link deployedTestId}); its
 *   `name` is the rule test's name; the template test is bound to the table's identifier;
 *   recurrenceRule, timezone (default UTC), saveFailures and severity come from the rule (a
 *   test's severity overrides the rule's); `configId` is the rule's, `source` is SOURCE_API,
 *   `deploymentRuleId` the rule's id.
 * - A change is the diff of the current rule-made tests against the proposed placement:
 *   create (proposed, not deployed by that rule), update (deployed, content differs), delete
 *   (deployed, no longer proposed), keep (the same, when the owning rule has
 *   `keepRemovedTests`: kept tests are detached, i.e. their `deploymentRuleId` is cleared and
 *   they become ordinary, directly editable tests).
 */
import type { Entity, EntityIdentifier } from '../../schemas/platform/entities';
import type { DataPlatform, SqlTest, SqlTestDeployOverview, SqlTestDeploymentRuleWrite, WireRuleTest } from '../../schemas/platform/sql-tests';
import { WIRE_TEMPLATE_TEST_KINDS } from '../../schemas/platform/sql-tests';
import type { Catalog } from './catalog';
import { staticPathIndexes } from './monitors';
import { evaluateQuery, evaluateResolverQl } from './query-eval';

/** A rule as stored (the write form, with `renderedResolverQl` / translated `query` filled in). */
export type SqlTestRule = SqlTestDeploymentRuleWrite;
/** The config kinds, in oneof order. */
export type SqlTestRuleKind = 'queryConfig' | 'exclusiveQueryConfig' | 'staticConfig' | 'exclusiveStaticConfig';
/** The settings of a rule that deploys tests (query or static config). */
export type RuleTestSettings = NonNullable<SqlTestRule['queryConfig']> | NonNullable<SqlTestRule['staticConfig']>;

/** A test reference of an overview. `sqlTestPath` is the SQL test's id. */
export interface TestRef {
  tablePath: string;
  sqlTestPath: string;
  testName: string;
}

/** A proposed (or current) rule-made test with where it sits. */
export interface PlacedTest {
  test: SqlTest;
  tablePath: string;
  testName: string;
}

/** The tests one rule would deploy, and the selected entities it skips. */
export interface RulePlacement {
  tests: PlacedTest[];
  skipped: { tablePath: string; reason: string }[];
}

/** What a rule change does to the stored tests, plus the overview describing it. */
export interface PlacementChange {
  /** Tests to put (new ids, or ids not currently deployed by that rule). */
  create: SqlTest[];
  /** Tests to put over a differing current version. */
  update: SqlTest[];
  /** Ids of tests to delete. */
  delete: string[];
  /** Current tests to keep, detached from their rule (put without `deploymentRuleId`). */
  keep: SqlTest[];
  overview: SqlTestDeployOverview;
}

/** The config kind set on a rule. */
export function ruleKind(rule: SqlTestRule): SqlTestRuleKind {
  if (rule.queryConfig) return 'queryConfig';
  if (rule.exclusiveQueryConfig) return 'exclusiveQueryConfig';
  if (rule.staticConfig) return 'staticConfig';
  return 'exclusiveStaticConfig';
}

/** Whether the rule is exclusive (deploys nothing, removes its selection from other rules). */
export function isExclusive(rule: SqlTestRule): boolean {
  return rule.exclusiveQueryConfig !== undefined || rule.exclusiveStaticConfig !== undefined;
}

/** A rule's `keepRemovedTests` (query configs only; static configs have none: false). */
export function keepRemoved(rule: SqlTestRule): boolean {
  return rule.queryConfig?.keepRemovedTests ?? false;
}

/** The test settings of a deploying rule; undefined for exclusive rules. */
export function ruleSettings(rule: SqlTestRule): RuleTestSettings | undefined {
  return rule.queryConfig ?? rule.staticConfig;
}

/**
 * The entities a static path covers, sorted by path: the asset with exactly that path; else
 * every asset below it (`wh-prod::mart` covers `wh-prod::mart::*`); else the folder with that
 * key, deep; else nothing. Same rule as the automated-monitor rules (`staticPathIndexes`).
 */
export function staticPathSelection(catalog: Catalog, path: string): Entity[] {
  return staticPathIndexes(catalog, path).map((i) => catalog.entities[i]);
}

/**
 * The entities a rule selects, sorted by path. Query configs evaluate `resolverQl` when set,
 * else `query` (a query config with neither selects nothing). Throws what the evaluator throws.
 */
export function ruleSelection(catalog: Catalog, rule: SqlTestRule): readonly Entity[] {
  const q = rule.queryConfig ?? rule.exclusiveQueryConfig;
  if (q) {
    if (q.resolverQl !== undefined && q.resolverQl.trim() !== '') return cachedSelection(catalog, `rql:${q.resolverQl}`, () => evaluateResolverQl(catalog, q.resolverQl!));
    if (q.query) return cachedSelection(catalog, `query:${JSON.stringify(q.query)}`, () => evaluateQuery(catalog, q.query!));
    return [];
  }
  const s = rule.staticConfig ?? rule.exclusiveStaticConfig;
  return s ? cachedSelection(catalog, `static:${s.path}`, () => staticPathSelection(catalog, s.path)) : [];
}

/** Selections per catalog (the catalog is immutable), by selection text; bounded. */
const selectionCache = new WeakMap<Catalog, Map<string, readonly Entity[]>>();
const SELECTION_CACHE_MAX = 2000;
function cachedSelection(catalog: Catalog, key: string, compute: () => Entity[]): readonly Entity[] {
  let m = selectionCache.get(catalog);
  if (!m) selectionCache.set(catalog, (m = new Map()));
  const hit = m.get(key);
  if (hit) return hit;
  const v = Object.freeze(compute());
  if (m.size >= SELECTION_CACHE_MAX) m.clear();
  m.set(key, v);
  return v;
}

/** Whether SQL tests can run on the entity: a table or a view. */
export function isTableLike(entity: Entity): boolean {
  return /_(TABLE|VIEW)$/.test(entity.type);
}

/** The data platform of a table identifier (`unknown` for identifiers naming none). */
export function platformOf(id: EntityIdentifier): DataPlatform {
  if (id.warehouseProjectTable) return { warehouseProject: { project: id.warehouseProjectTable.project } };
  if (id.warehouseAccountTable) return { warehouseAccount: { account: id.warehouseAccountTable.account, database: id.warehouseAccountTable.database } };
  if (id.warehouseClusterTable) return { warehouseCluster: { cluster: id.warehouseClusterTable.cluster, database: id.warehouseClusterTable.database } };
  if (id.relationalTable) return { relational: { host: id.relationalTable.host, database: id.relationalTable.database } };
  if (id.mysqlLikeTable) return { mysqlLike: { host: id.mysqlLikeTable.host } };
  if (id.columnStoreTable) return { columnStore: { host: id.columnStoreTable.host, schema: id.columnStoreTable.schema } };
  if (id.lakehouseTable) return { lakehouse: { workspace: id.lakehouseTable.workspace } };
  if (id.queryEngineTable) return { queryEngine: { coordinator: id.queryEngineTable.host } };
  return { unknown: {} };
}

/** The deterministic id of the test a rule deploys on a table. */
export function deployedTestId(ruleId: string, tablePath: string, testName: string): string {
  return `${ruleId}:${tablePath}:${testName}`;
}

/** Drops undefined-valued keys (so stored objects and comparisons see the same shape). */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** The test kind key (wire form, `notNullTest`) a rule test holds. */
function testKindOf(t: WireRuleTest): string {
  return WIRE_TEMPLATE_TEST_KINDS.find((k) => (t as Record<string, unknown>)[k] !== undefined)!;
}

/** A rule test's name: its `name`, or (the platform requires one only for the business kinds) its kind (`notNull`). */
export function ruleTestName(t: WireRuleTest): string {
  return t.name ?? testKindOf(t).replace(/Test$/, '');
}

/** The SQL test `rule` deploys for rule test `t` on `table` (template keys in wire form). */
export function deployedTest(rule: SqlTestRule, settings: RuleTestSettings, t: WireRuleTest, table: Entity): SqlTest {
  const kind = testKindOf(t);
  const name = ruleTestName(t);
  return compact({
    id: deployedTestId(rule.id, table.path, name),
    name,
    description: t.description,
    severity: t.severity ?? settings.severity,
    platform: platformOf(table.id),
    recurrenceRule: settings.recurrenceRule,
    timezone: settings.timezone ?? 'UTC',
    saveFailures: settings.saveFailures,
    configId: rule.configId,
    source: 'SOURCE_API',
    template: { identifier: table.id, [kind]: (t as Record<string, unknown>)[kind] } as SqlTest['template'],
    deploymentRuleId: rule.id,
  } as SqlTest);
}

/**
 * Paths of the entities claimed by exclusive rules -> the claiming rule's id (the smallest id
 * when several claim one).
 */
export function exclusiveClaims(catalog: Catalog, rules: readonly SqlTestRule[]): Map<string, string> {
  const claims = new Map<string, string>();
  // only the (few) exclusive rules are sorted: filtering first keeps their relative order, and the sort is stable
  for (const r of rules.filter(isExclusive).sort((a, b) => cmp(a.id, b.id))) {
    for (const e of ruleSelection(catalog, r)) if (!claims.has(e.path)) claims.set(e.path, r.id);
  }
  return claims;
}

/** The tests one deploying rule places, given the exclusive claims of the other rules. */
export function placeRule(catalog: Catalog, rule: SqlTestRule, claims: ReadonlyMap<string, string>): RulePlacement {
  const settings = ruleSettings(rule);
  if (!settings) return { tests: [], skipped: [] };
  const tests: PlacedTest[] = [];
  const skipped: RulePlacement['skipped'] = [];
  const selection = ruleSelection(catalog, rule);
  if (selection.length === 0 && rule.staticConfig) skipped.push({ tablePath: rule.staticConfig.path, reason: `no catalog asset or folder at path ${rule.staticConfig.path}` });
  for (const e of selection) {
    const claimer = claims.get(e.path);
    if (claimer !== undefined && claimer !== rule.id) {
      skipped.push({ tablePath: e.path, reason: `claimed by exclusive rule ${claimer}` });
      continue;
    }
    if (!isTableLike(e)) {
      skipped.push({ tablePath: e.path, reason: `not a table or view (${e.type})` });
      continue;
    }
    for (const t of settings.tests) tests.push({ test: deployedTest(rule, settings, t, e), tablePath: e.path, testName: ruleTestName(t) });
  }
  return { tests, skipped };
}

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Whether two tests have the same content (etag ignored). */
export function sameTest(a: SqlTest, b: SqlTest): boolean {
  return deepEqual(a, b, true);
}

/** Structural equality of JSON values; undefined-valued keys count as absent; `etag` ignored at the top. */
function deepEqual(a: unknown, b: unknown, top = false): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  const ao = a as Record<string, unknown>;
  const bo = b as Record<string, unknown>;
  let na = 0;
  for (const k in ao) {
    if (ao[k] === undefined || (top && k === 'etag')) continue;
    na++;
    if (!deepEqual(ao[k], bo[k])) return false;
  }
  let nb = 0;
  for (const k in bo) if (bo[k] !== undefined && !(top && k === 'etag')) nb++;
  return na === nb;
}

/** Where a current rule-made test sits: its table path (from the catalog, else from its id) and test name. */
export function refOfTest(catalog: Catalog, test: SqlTest): TestRef {
  let tablePath: string | undefined;
  if (test.template) tablePath = catalog.byKey(test.template.identifier)?.path;
  if (tablePath === undefined && test.deploymentRuleId && test.id.startsWith(`${test.deploymentRuleId}:`)) {
    const rest = test.id.slice(test.deploymentRuleId.length + 1);
    const suffix = `:${test.name}`;
    tablePath = rest.endsWith(suffix) ? rest.slice(0, -suffix.length) : rest;
  }
  return { tablePath: tablePath ?? '', sqlTestPath: test.id, testName: test.name };
}

type RefLike = { tablePath: string; testName: string; sqlTestPath?: string };
const byRef = (a: RefLike, b: RefLike): number =>
  cmp(a.tablePath, b.tablePath) || cmp(a.testName, b.testName) || cmp(a.sqlTestPath ?? '', b.sqlTestPath ?? '');

/** A change to the rule set: deploy (create or replace) a rule, or delete one. */
export type RuleChange = { deploy: SqlTestRule } | { delete: string };

/**
 * The stored state a rule change is planned against. The route module answers it from store
 * indexes kept between writes ({@link planRuleChangeIn}); {@link stateOfArrays} from plain arrays.
 * Rule ids are unique (the store is keyed by them).
 */
export interface PlacementState {
  /** Every stored rule (the store's id order). Read only when the change touches an exclusive rule. */
  rules(): readonly SqlTestRule[];
  /** The stored rule with this id. */
  rule(id: string): SqlTestRule | undefined;
  /** {@link exclusiveClaims} of the stored rules. */
  claims(): ReadonlyMap<string, string>;
  /** Every stored rule-made test (`deploymentRuleId` set), in the store's order. Read only when the change touches an exclusive rule. */
  current(): readonly SqlTest[];
  /** The stored tests with `deploymentRuleId` = `ruleId`, in the same relative order as {@link current}. */
  testsOf(ruleId: string): readonly SqlTest[];
}

/** A {@link PlacementState} over plain arrays (`current`: the rule-made tests), computing everything on demand. */
export function stateOfArrays(catalog: Catalog, rules: readonly SqlTestRule[], current: readonly SqlTest[]): PlacementState {
  return {
    rules: () => rules,
    rule: (id) => rules.find((r) => r.id === id),
    claims: () => exclusiveClaims(catalog, rules),
    current: () => current,
    testsOf: (ruleId) => current.filter((t) => t.deploymentRuleId === ruleId),
  };
}

/**
 * What applying `change` to `rules` (the stored rules) does to `current` (the stored tests made
 * by rules, i.e. with `deploymentRuleId` set). Only rules the change can affect are re-placed:
 * the changed rule, plus every rule when the change adds, alters or removes an exclusive rule.
 * `skippedTables` are the changed rule's (none for a delete).
 */
export function planRuleChange(catalog: Catalog, rules: readonly SqlTestRule[], current: readonly SqlTest[], change: RuleChange): PlacementChange {
  return planRuleChangeIn(catalog, stateOfArrays(catalog, rules, current), change);
}

/**
 * {@link planRuleChange} against a {@link PlacementState}. A change that touches no exclusive
 * rule (neither the stored version of the changed rule nor its new one is exclusive) reads only
 * the changed rule, its tests and the stored claims: the exclusive rules, hence the claims, are
 * the same before and after it, and no other rule is re-placed. This is what makes the overviews
 * cheap with thousands of stored rules (issue 15): no pass over every rule or test per call.
 * A change that touches an exclusive rule re-places every rule, as before.
 */
export function planRuleChangeIn(catalog: Catalog, state: PlacementState, change: RuleChange): PlacementChange {
  const changedId = 'deploy' in change ? change.deploy.id : change.delete;
  const before = state.rule(changedId);
  const exclusiveTouched = (before !== undefined && isExclusive(before)) || ('deploy' in change && isExclusive(change.deploy));

  /** The rules to re-place, in placement order (a later one wins a test id placed twice). */
  let placed: readonly SqlTestRule[];
  let affected: ReadonlySet<string>;
  let claims: ReadonlyMap<string, string>;
  let current: readonly SqlTest[];
  if (exclusiveTouched) {
    const after = state.rules().filter((r) => r.id !== changedId);
    if ('deploy' in change) after.push(change.deploy);
    claims = exclusiveClaims(catalog, after);
    placed = after;
    affected = new Set<string>([...after.map((r) => r.id), changedId]);
    current = state.current();
  } else {
    claims = state.claims();
    placed = 'deploy' in change ? [change.deploy] : [];
    affected = new Set<string>([changedId]);
    current = state.testsOf(changedId);
  }
  const proposed = new Map<string, PlacedTest>();
  let skipped: RulePlacement['skipped'] = [];
  for (const r of placed) {
    const p = placeRule(catalog, r, claims);
    for (const t of p.tests) proposed.set(t.test.id, t);
    if (r.id === changedId) skipped = p.skipped;
  }
  /** Whether the tests rule `id` stops deploying are kept (detached) rather than deleted. */
  const keeps = (id: string): boolean => {
    if (id !== changedId) return keepRemoved(state.rule(id)!); // an affected rule other than the changed one is stored and unchanged
    // a deleted rule keeps its tests when its stored config says so; so does a rule turned
    // exclusive (it has no settings any more: its previous flag decides)
    if ('delete' in change || (before && !ruleSettings(change.deploy))) return before ? keepRemoved(before) : false;
    return keepRemoved(change.deploy);
  };

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
    if (keeps(cur.deploymentRuleId)) {
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

// ---------------------------------------------------------------------------------------------
// Validation helpers (RRULE, time zones)

const RRULE_FREQS = new Set(['SECONDLY', 'MINUTELY', 'HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const WEEKDAY = '(MO|TU|WE|TH|FR|SA|SU)';
const intList = (min: number, max: number, signed = false) => (v: string) =>
  v.split(',').every((x) => {
    if (!/^[+-]?\d+$/.test(x)) return false;
    if (!signed && /^[+-]/.test(x)) return false;
    const n = Math.abs(Number(x));
    return n >= (signed ? 1 : min) && n <= max;
  });
const RRULE_PARTS: Record<string, (v: string) => boolean> = {
  FREQ: (v) => RRULE_FREQS.has(v),
  UNTIL: (v) => /^\d{8}(T\d{6}Z?)?$/.test(v),
  COUNT: (v) => /^\d+$/.test(v) && Number(v) > 0,
  INTERVAL: (v) => /^\d+$/.test(v) && Number(v) > 0,
  BYSECOND: intList(0, 60),
  BYMINUTE: intList(0, 59),
  BYHOUR: intList(0, 23),
  BYDAY: (v) => v.split(',').every((x) => new RegExp(`^([+-]?\\d{1,2})?${WEEKDAY}$`).test(x)),
  BYMONTHDAY: intList(1, 31, true),
  BYYEARDAY: intList(1, 366, true),
  BYWEEKNO: intList(1, 53, true),
  BYMONTH: intList(1, 12),
  BYSETPOS: intList(1, 366, true),
  WKST: (v) => new RegExp(`^${WEEKDAY}$`).test(v),
};

/**
 * What is wrong with an iCal RRULE (RFC 5545 recurrence rule, optionally prefixed `RRULE:`),
 * or undefined when it is acceptable: `KEY=VALUE` parts separated by `;`, known keys, each at
 * most once, FREQ required, UNTIL and COUNT not together, values of the right form. The rule
 * may follow an inline start on its own line (`DTSTART:20260101T000000Z` then `RRULE:...`,
 * newline-separated; `DTSTART;TZID=<zone>:...` too), the form SQL-test rules need
 * ({@link dtstartProblem}).
 */
export function rruleProblem(text: string): string | undefined {
  const lines = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const starts = lines.filter((l) => /^DTSTART[;:]/i.test(l));
  const rules = lines.filter((l) => !/^DTSTART[;:]/i.test(l));
  if (starts.length > 1) return 'DTSTART appears more than once';
  for (const s of starts) {
    const m = /^DTSTART(?:;TZID=([^:;]+))?:(\d{8}(?:T\d{6}Z?)?)$/i.exec(s);
    if (!m) return `'${s}' is not DTSTART[;TZID=zone]:YYYYMMDDTHHMMSS[Z]`;
    if (m[1] !== undefined && !isIanaTimeZone(m[1])) return `DTSTART names an unknown time zone '${m[1]}'`;
  }
  if (rules.length > 1) return 'more than one RRULE line';
  if (starts.length && !rules.length) return 'a DTSTART without an RRULE line';
  const body = (rules[0] ?? '').replace(/^RRULE:/i, '');
  if (body === '') return 'the recurrence rule is empty';
  const seen = new Set<string>();
  for (const part of body.split(';')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    if (eq <= 0) return `'${part}' is not KEY=VALUE`;
    const key = part.slice(0, eq).toUpperCase();
    const value = part.slice(eq + 1).toUpperCase();
    const check = RRULE_PARTS[key];
    if (!check) return `unknown recurrence rule part ${key}`;
    if (seen.has(key)) return `${key} appears more than once`;
    seen.add(key);
    if (!check(value)) return `invalid ${key} value '${part.slice(eq + 1)}'`;
  }
  if (!seen.has('FREQ')) return 'FREQ is required (e.g. FREQ=DAILY;BYHOUR=6)';
  if (seen.has('UNTIL') && seen.has('COUNT')) return 'UNTIL and COUNT cannot both be set';
  return undefined;
}

/**
 * What a SQL-test deployment rule's `recurrenceRule` lacks, or undefined: "empty = on demand;
 * when set must contain an inline `DTSTART:`" (grpc-facts `recurrence_rule`, wire-facts 6). The
 * literal text `DTSTART:` is checked, as the definitions state it.
 */
export function dtstartProblem(text: string): string | undefined {
  return text.includes('DTSTART:') ? undefined : "a rule's recurrence rule must contain an inline DTSTART: (e.g. DTSTART:20260101T000000Z then RRULE:FREQ=DAILY on the next line)";
}

let zones: Set<string> | undefined;
/** Whether `tz` is an IANA time zone name the runtime knows (`UTC` included). */
export function isIanaTimeZone(tz: string): boolean {
  if (!zones) {
    const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
    zones = new Set(intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : []);
    zones.add('UTC');
    zones.add('Etc/UTC');
  }
  if (zones.has(tz)) return true;
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}
