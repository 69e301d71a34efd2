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
 * - BatchGet POST `/api/datachecks/sqltests/v1/by-id` `{ ids }` (at most 200) ->
 *   `{ sqlTests: { <id>: test } }`, unknown ids omitted.
 * - List GET `/api/datachecks/sqltests/v1` with `ids`, `annotations`, `configsFilter.ids`,
 *   `sources` (repeated) and `pagination.cursor` / `pagination.pageSize`. An `annotations`
 *   value is `name` (any value) or `name=value`; a test must carry every one given.
 */
import { z } from 'zod';
import { BATCH_LIMIT, SourceEnum } from '../../../schemas/common';
import type { Source } from '../../../schemas/common';
import { BatchGetByIdsRequest, SqlTestWrite } from '../../../schemas/sql-tests';
import type { SqlTest } from '../../../schemas/sql-tests';
import type { EmulatorApp, RouteContext } from '../app';
import { EmulatorError, failedPrecondition, invalidArgument, parseBody, runBatch, zodViolations } from '../errors';
import type { EmulatorViolation } from '../errors';
import { isIanaTimeZone, rruleProblem } from '../sql-test-placement';

/** The store collection holding SQL tests (direct and rule-made). */
export const SQL_TESTS_COLLECTION = 'sqlTests';
const BASE = '/api/datachecks/sqltests/v1';
const EDIT = 'SCOPE_DATACHECKS_SQLTESTS_EDIT';
const READ = 'SCOPE_DATACHECKS_SQLTESTS_READ';

/** A test as stored. */
export type StoredSqlTest = SqlTest & { etag?: string };

/** The recurrence rule and time zone violations of a test or rule (empty when fine). */
export function scheduleViolations(recurrenceRule: string, timezone: string | undefined, field: string, operation: string): EmulatorViolation[] {
  const out: EmulatorViolation[] = [];
  const problem = rruleProblem(recurrenceRule);
  if (problem) out.push({ field: `${field}recurrenceRule`, ruleId: `${operation}.recurrence_rule.valid`, message: `not a valid iCal RRULE: ${problem}` });
  if (timezone !== undefined && !isIanaTimeZone(timezone))
    out.push({ field: `${field}timezone`, ruleId: `${operation}.timezone.valid`, message: `'${timezone}' is not an IANA time zone (e.g. UTC, Europe/Paris)` });
  return out;
}

/** An INVALID_ARGUMENT whose message spells out every violation (batch reasons carry only the message). */
export function describedInvalid(what: string, violations: EmulatorViolation[]): EmulatorError {
  const text = violations.map((v) => `${v.field ? `${v.field}: ` : ''}${v.message} (rule ${v.ruleId})`).join('; ');
  return invalidArgument(`${what}: ${text}`, violations);
}

/** Drops undefined-valued keys. */
function compact<T extends object>(o: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Query-parameter readers shared by the list routes. */
export const listParams = {
  /** `pagination.cursor` and `pagination.pageSize` (a non-negative integer). */
  pagination(ctx: RouteContext, operation: string): { cursor: string | undefined; pageSize: number | undefined } {
    const cursor = ctx.query.get('pagination.cursor') ?? undefined;
    const raw = ctx.query.get('pagination.pageSize');
    let pageSize: number | undefined;
    if (raw !== null && raw !== '') {
      pageSize = Number(raw);
      if (!Number.isInteger(pageSize) || pageSize < 0)
        throw invalidArgument(`invalid ${operation} request`, [{ field: 'pagination.pageSize', ruleId: `${operation}.pagination.page_size`, message: 'must be a non-negative integer' }]);
    }
    return { cursor: cursor || undefined, pageSize };
  },
  /** Repeated `sources` as enum names or numbers; undefined when absent. */
  sources(ctx: RouteContext, operation: string): Set<Source> | undefined {
    const raw = ctx.query.getAll('sources');
    if (raw.length === 0) return undefined;
    const out = new Set<Source>();
    for (const s of raw) {
      const name = /^\d+$/.test(s) ? SourceEnum.names[Number(s)] : (SourceEnum.values as readonly string[]).includes(s) ? (s as Source) : undefined;
      if (!name)
        throw invalidArgument(`invalid ${operation} request`, [{ field: 'sources', ruleId: `${operation}.sources`, message: `unknown source '${s}'; one of ${SourceEnum.values.join(', ')}` }]);
      out.add(name);
    }
    return out;
  },
  /** A repeated string parameter as a set; undefined when absent. */
  set(ctx: RouteContext, name: string): Set<string> | undefined {
    const raw = ctx.query.getAll(name);
    return raw.length === 0 ? undefined : new Set(raw);
  },
};

/** `{ ids }` of a batch read, at most {@link BATCH_LIMIT}. */
export function batchGetIds(ctx: RouteContext, operation: string): string[] {
  const req = parseBody(BatchGetByIdsRequest, ctx.body, operation);
  if (req.ids.length > BATCH_LIMIT)
    throw invalidArgument(`invalid ${operation} request`, [{ field: 'ids', ruleId: `${operation}.ids.max_items`, message: `at most ${BATCH_LIMIT} ids (got ${req.ids.length})` }]);
  return req.ids;
}

/** Ids of a DELETE: repeated `ids` query parameters (a JSON body `{ ids }` is accepted too). */
export function deleteIds(ctx: RouteContext, operation: string): string[] {
  const ids = ctx.query.getAll('ids');
  if (ctx.body !== undefined) ids.push(...parseBody(z.object({ ids: z.array(z.string()).default([]) }), ctx.body, operation).ids);
  return [...new Set(ids)];
}

const UpsertEnvelope = z.object({ sqlTests: z.array(z.unknown()) });

/** Registers the SQL test routes. */
export function register(app: EmulatorApp): void {
  app.route('POST', BASE, { scope: EDIT }, (ctx) => {
    const req = parseBody(UpsertEnvelope, ctx.body, 'batch_upsert');
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
        const parsed = SqlTestWrite.safeParse(raw);
        if (!parsed.success) {
          const vs = zodViolations(parsed.error, 'batch_upsert').map((v) => ({ ...v, field: v.field ? `${field}${v.field}` : `sqlTests[${i}]` }));
          throw describedInvalid(`invalid sql test`, vs);
        }
        const t = parsed.data;
        const vs = scheduleViolations(t.recurrenceRule, t.timezone, field, 'batch_upsert');
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
  });

  app.route('DELETE', BASE, { scope: EDIT }, (ctx) => {
    const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
    const { errors } = runBatch(
      deleteIds(ctx, 'batch_delete'),
      (id) => id,
      (id) => {
        const current = tests.get(id);
        if (current?.deploymentRuleId)
          throw failedPrecondition(`sql test ${id} was deployed by SQL-test deployment rule ${current.deploymentRuleId}; delete or change the rule instead`);
        tests.delete(id); // unknown ids: success (idempotent)
      },
    );
    return { errors };
  });

  app.route('POST', `${BASE}/by-id`, { scope: READ }, (ctx) => {
    const tests = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION);
    const out: Record<string, StoredSqlTest> = {};
    for (const id of [...new Set(batchGetIds(ctx, 'batch_get'))].sort()) {
      const t = tests.get(id);
      if (t) out[id] = t;
    }
    return { sqlTests: out };
  });

  app.route('GET', BASE, { scope: READ }, (ctx) => {
    const { cursor, pageSize } = listParams.pagination(ctx, 'list');
    const ids = listParams.set(ctx, 'ids');
    const configs = listParams.set(ctx, 'configsFilter.ids');
    const sources = listParams.sources(ctx, 'list');
    const annotations = ctx.query.getAll('annotations').map((a) => {
      const eq = a.indexOf('=');
      return eq < 0 ? { name: a, value: undefined } : { name: a.slice(0, eq), value: a.slice(eq + 1) };
    });
    const filter = (t: StoredSqlTest): boolean =>
      (!ids || ids.has(t.id)) &&
      (!configs || configs.has(t.configId ?? '')) &&
      (!sources || sources.has(t.source ?? 'SOURCE_APP')) &&
      annotations.every((f) => (t.annotations ?? []).some((a) => a.name === f.name && (f.value === undefined || a.values.includes(f.value))));
    const page = ctx.store.collection<StoredSqlTest>(SQL_TESTS_COLLECTION).page(cursor, pageSize, filter);
    return { sqlTests: page.items, pageInfo: page.pageInfo };
  });
}
