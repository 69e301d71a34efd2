/**
 * SQL tests (`datachecks.sqltests.v1.SqlTestsService`): BatchUpsert, BatchDelete, BatchGet, List.
 *
 * - BatchUpsert POST `/api/datachecks/sqltests/v1` `{ sqlTests[] }` -> `{ createdIds, updatedIds,
 *   errors }`. Keyed by `id`, full-state (an omitted optional field is cleared), `timezone`
 *   defaults to `UTC` and `source` to `SOURCE_API`. Every per-item problem (shape, RRULE, time
 *   zone, a duplicate id, a test deployed by a rule) is an `errors` entry inside the 200; the
 *   other items are written.
 * - BatchDelete DELETE `/api/datachecks/sqltests/v1?ids=a&ids=b` -> `{ errors }`. Unknown ids
 *   are success (idempotent); a test deployed by a rule is an error entry.
 * - BatchGet POST `/api/datachecks/sqltests/v1/by-id` `{ ids }` (no limit declared) ->
 *   `{ sqlTests: { <id>: test } }`, unknown ids omitted.
 * - List GET `/api/datachecks/sqltests/v1` with `ids`, `integrationIds`, `configsFilter.ids`,
 *   `sources` (repeated), `annotations.name` + `annotations.values` (one annotation: the test
 *   must carry it with every value given) and `pagination.cursor` / `pagination.pageSize`.
 * - A test's `recurrenceRule` is optional (empty: on demand); `platform` or
 *   `template.identifier` is required. A template test is the platform's message under a key
 *   ending in `Test` (`notNullTest: { columnNames }`, grpc-facts 4.2; schemas/platform/sql-test-kinds.ts);
 *   any other key is a per-item error naming it.
 * - Scopes (wire-facts section 5): writes SCOPE_DATACHECKS_SQLTESTS_EDIT; reads
 *   SCOPE_DATACHECKS_SQLTESTS_READ, SCOPE_SRE_AGENT or SCOPE_MCP_READ.
 */
import { z } from 'zod';
import type { Source } from '../../../schemas/platform/common';
import {
  BatchDeleteByIdsRequest,
  BatchDeleteResponse,
  BatchGetByIdsRequest,
  BatchGetSqlTestsResponse,
  BatchUpsertSqlTestsResponse,
  ListSqlTestsRequest,
  ListSqlTestsResponse,
  SqlTestWrite,
} from '../../../schemas/platform/sql-tests';
import type { SqlTest } from '../../../schemas/platform/sql-tests';
import { unknownKeys } from '../../../schemas/platform/wire';
import type { RouteContext, RouteTable } from '../app';
import { EmulatorError, failedPrecondition, invalidArgument, parseBody, runBatch, zodViolations } from '../errors';
import type { EmulatorViolation } from '../errors';
import { dtstartProblem, isIanaTimeZone, rruleProblem } from '../sql-test-placement';

/** The store collection holding SQL tests (direct and rule-made). */
export const SQL_TESTS_COLLECTION = 'sqlTests';
const BASE = '/api/datachecks/sqltests/v1';
const EDIT = ['SCOPE_DATACHECKS_SQLTESTS_EDIT'] as const;
const READ = ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] as const;

/** A test as stored. */
export type StoredSqlTest = SqlTest & { etag?: string };

/**
 * The recurrence rule and time zone violations of a test or rule (empty when fine). `rule`: a
 * SQL-test deployment rule's schedule, which must also carry an inline `DTSTART:` (rule id
 * `<op>.recurrence_rule.dtstart`; a SQL test's own schedule is not declared to need one).
 */
export function scheduleViolations(recurrenceRule: string | undefined, timezone: string | undefined, field: string, operation: string, rule = false): EmulatorViolation[] {
  const out: EmulatorViolation[] = [];
  // an empty recurrence rule is "on demand"
  const problem = recurrenceRule ? rruleProblem(recurrenceRule) : undefined;
  if (problem) out.push({ field: `${field}recurrenceRule`, ruleId: `${operation}.recurrence_rule.valid`, message: `not a valid iCal RRULE: ${problem}` });
  const dtstart = recurrenceRule && rule ? dtstartProblem(recurrenceRule) : undefined;
  if (dtstart) out.push({ field: `${field}recurrenceRule`, ruleId: `${operation}.recurrence_rule.dtstart`, message: dtstart });
  if (timezone !== undefined && !isIanaTimeZone(timezone))
    out.push({ field: `${field}timezone`, ruleId: `${operation}.timezone.valid`, message: `'${timezone}' is not an IANA time zone (e.g. UTC, Europe/Paris)` });
  return out;
}

/** An INVALID_ARGUMENT whose message spells out every violation (batch reasons carry only the message). */
export function describedInvalid(what: string, violations: EmulatorViolation[]): EmulatorError {
  const text = violations.map((v) => `${v.field ? `${v.field}: ` : ''}${v.message} (rule ${v.ruleId})`).join('; ');
  return invalidArgument(`${what}: ${text}`, violations);
}

/** The read form of a stored test: SQL tests have no etag upstream (the store's version stays internal). */
export function readTest(t: StoredSqlTest): SqlTest {
  const { etag: _e, ...rest } = t;
  return rest;
}

/** Drops undefined-valued keys. */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** `{ ids }` of a batch read (SQL tests and SQL-test rules): wire-facts 5 and 6 declare no limit, so none is checked. */
export function batchGetIds(ctx: RouteContext, operation: string): string[] {
  const req = parseBody(BatchGetByIdsRequest, ctx.body, operation);
  return req.ids;
}

/** Ids of a batch DELETE: repeated `ids` query parameters (parsed into `ctx.q`); a DELETE has no body. */
export function deleteIds(ctx: RouteContext): string[] {
  return [...new Set(((ctx.q as { ids?: string[] }).ids ?? []).filter((s) => s !== ''))];
}

/** BatchUpsert's declared keys (items are checked one by one, each against {@link SqlTestWrite}). */
const UpsertKeys = z.object({ sqlTests: z.array(z.unknown()), sqlTestIdsToReset: z.array(z.string()).optional() });

function batchUpsert(ctx: RouteContext) {
  const req = parseBody(UpsertKeys, ctx.body, 'batch_upsert') as z.output<typeof UpsertKeys>;
  const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
  const seen = new Set<string>();
  const createdIds: string[] = [];
  const updatedIds: string[] = [];
  const { errors } = runBatch(
    req.sqlTests,
    (raw, i) => {
      const id = raw && typeof raw === 'object' ? (raw as { id?: unknown }).id : undefined;
      return typeof id === 'string' && id !== '' ? id : `sqlTests[${i}]`;
    },
    (raw, i) => {
      const field = `sqlTests[${i}].`;
      const unknown = unknownKeys(SqlTestWrite, raw);
      if (unknown.length) {
        throw describedInvalid('invalid sql test', unknown.map((k) => ({ field: `${field}${k}`, ruleId: 'batch_upsert.unknown_field', message: `unknown field "${k}"` })));
      }
      const parsed = SqlTestWrite.safeParse(raw);
      if (!parsed.success) {
        const vs = zodViolations(parsed.error, 'batch_upsert').map((v) => ({ ...v, field: v.field ? `${field}${v.field}` : `sqlTests[${i}]` }));
        throw describedInvalid(`invalid sql test`, vs);
      }
      const t = parsed.data;
      const vs = scheduleViolations(t.recurrenceRule, t.timezone, field, 'batch_upsert');
      if (!t.platform && !t.template?.identifier) vs.push({ field: `${field}platform`, ruleId: 'batch_upsert.platform.required', message: 'platform or template.identifier is required' });
      if (vs.length) throw describedInvalid(`invalid sql test ${t.id}`, vs);
      if (seen.has(t.id))
        throw describedInvalid(`invalid sql test ${t.id}`, [{ field: `${field}id`, ruleId: 'batch_upsert.sql_tests.unique_ids', message: `id ${t.id} appears more than once in the batch` }]);
      seen.add(t.id);
      const current = tests.get(t.id);
      if (current?.deploymentRuleId)
        throw failedPrecondition(`sql test ${t.id} was deployed by SQL-test deployment rule ${current.deploymentRuleId}; change the rule instead`);
      tests.put(t.id, compact({ ...t, timezone: t.timezone ?? 'UTC', source: t.source ?? 'SOURCE_API' }) as StoredSqlTest);
      (current ? updatedIds : createdIds).push(t.id);
    },
  );
  return { createdIds, updatedIds, errors };
}

function batchDelete(ctx: RouteContext) {
  const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
  const { errors } = runBatch(
    deleteIds(ctx),
    (id) => id,
    (id) => {
      const current = tests.get(id);
      if (current?.deploymentRuleId)
        throw failedPrecondition(`sql test ${id} was deployed by SQL-test deployment rule ${current.deploymentRuleId}; delete or change the rule instead`);
      tests.delete(id); // unknown ids: success (idempotent)
    },
  );
  return { errors };
}

function batchGet(ctx: RouteContext) {
  const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
  const out: Record<string, SqlTest> = {};
  for (const id of [...new Set(batchGetIds(ctx, 'batch_get'))].sort()) {
    const t = tests.get(id);
    if (t) out[id] = readTest(t);
  }
  return { sqlTests: out };
}

function list(ctx: RouteContext) {
  const q = ctx.q as z.output<typeof ListSqlTestsRequest>;
  const ids = q.ids?.length ? new Set(q.ids) : undefined;
  // the deprecated `configIds` (declared, wire-facts 5) filters as `configsFilter.ids` does when that is absent (choice)
  const configIds = q.configsFilter?.ids.length ? q.configsFilter.ids : q.configIds;
  const configs = configIds?.length ? new Set(configIds) : undefined;
  const sources = q.sources?.length ? new Set<Source>(q.sources) : undefined;
  const integrations = q.integrationIds?.length ? new Set(q.integrationIds) : undefined;
  const ann = q.annotations;
  const filter = (t: StoredSqlTest): boolean =>
    (!ids || ids.has(t.id)) &&
    (!configs || configs.has(t.configId ?? '')) &&
    (!sources || sources.has(t.source ?? 'SOURCE_APP')) &&
    (!integrations || integrations.has(t.platform?.integrationId ?? '')) &&
    (!ann || (t.annotations ?? []).some((a) => a.name === ann.name && (ann.values ?? []).every((v) => a.values.includes(v))));
  const page = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION).page(q.pagination?.cursor || undefined, q.pagination?.pageSize || undefined, filter);
  return { sqlTests: page.items.map(readTest), pageInfo: page.pageInfo };
}

/** The SQL tests v1 routes. */
export const routes: RouteTable = [
  { method: 'POST', path: BASE, scope: EDIT, response: BatchUpsertSqlTestsResponse, handle: batchUpsert },
  { method: 'DELETE', path: BASE, scope: EDIT, operation: 'batch_delete', query: BatchDeleteByIdsRequest, response: BatchDeleteResponse, handle: batchDelete },
  { method: 'POST', path: `${BASE}/by-id`, scope: READ, response: BatchGetSqlTestsResponse, handle: batchGet },
  { method: 'GET', path: BASE, scope: READ, operation: 'list', query: ListSqlTestsRequest, response: ListSqlTestsResponse, handle: list },
];
