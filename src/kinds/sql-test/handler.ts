/**
 * `dq_sql_test`: SQL tests.
 *
 * - read: List every test of the workspace (no filter; page size {@link LIST_PAGE_SIZE}):
 *   `ceil(n / pageSize)` requests. Tests deployed by a SQL-test rule carry `deploymentRuleId`
 *   (lifted into the {@link LiveObject}); the engine never manages them directly.
 * - create and update: BatchUpsert (full state, keyed by id) of one test; a per-item error is
 *   thrown. writeMany: BatchUpsert in chunks of 200, per-item errors mapped to addresses.
 * - delete: BatchDelete of one id; a per-item "not found" is success. SQL tests have no etag.
 * - normalisation: timezone `UTC` is the server default and compares as absent.
 */
import type { PlatformClient } from '../../client';
import { sqlTestFromWire, sqlTestToWire, type SqlTestWrite } from '../../../schemas/platform/sql-tests';
import type { Change } from '../../../schemas/model/plan';
import { fingerprint, normalise } from '../shared/normalise';
import { tallyRetries } from '../../client/attempts';
import { afterOf, bareId, errorsByAddress, ignoreNotFound, isNotFoundReason, ItemWriteError, LIST_PAGE_SIZE, omit, readByKeys, WriteConflictError } from '../shared/support';
import { liveSorted } from '../shared/rule';
import type { HandlerContext, LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { sqlTestDescriptor } from './descriptor';

/** Server-computed and identity fields of a SQL test. */
export const SQL_TEST_DROP = ['id', 'configId', 'source', 'deploymentRuleId'] as const;

/** The default time zone of tests and rules: compares as absent. */
export const DEFAULT_TIMEZONE = 'UTC';

/** Drops `timezone` when it is the default. */
export function dropDefaultTimezone(o: Record<string, unknown>): Record<string, unknown> {
  if (o.timezone === DEFAULT_TIMEZONE) {
    const { timezone: _t, ...rest } = o;
    return rest;
  }
  return o;
}

/** The comparable form of a SQL test (desired: dqform's template keys). */
export function canonicalSqlTest(t: Record<string, unknown>): Record<string, unknown> {
  return normalise(dropDefaultTimezone(omit(t, SQL_TEST_DROP)));
}

/**
 * The comparable form of a live SQL test: the template's platform message
 * (`notNullTest: { columnNames }`) read back in dqform's shape (`notNull: { columns }`).
 */
export function canonicalLiveSqlTest(t: Record<string, unknown>): Record<string, unknown> {
  return canonicalSqlTest(sqlTestFromWire(t).value);
}

/**
 * A live object with what its tests hold that this version does not model (a `selectColumns`,
 * a numeric bound written as a string literal...) added to `unmanageable`: such an object is
 * listed by plan and never written.
 */
export function withTestProblems(o: LiveObject, fromWire: (raw: Record<string, unknown>) => { problems: string[] }): LiveObject {
  const { problems } = fromWire(o.raw);
  if (problems.length) o.unmanageable = [...(o.unmanageable ?? []), ...problems];
  return o;
}

/** The calls a read of SQL tests (or of SQL-test rules) makes. */
interface TestsReader<T extends { id: string; etag?: string; source?: unknown }> {
  batchGet(ids: readonly string[]): Promise<Record<string, T>>;
  list(filter: Record<string, never>, pageSize?: number): Promise<T[]>;
}

/**
 * The read of SQL tests and SQL-test rules: all of them, sorted by key, or (the applier's
 * re-reads of the objects a plan writes) a batch get of those ids only; each with the template
 * problems this version cannot model.
 */
export function testsRead<T extends { id: string; etag?: string; source?: unknown }>(of: (client: PlatformClient) => TestsReader<T>, fromWire: (raw: Record<string, unknown>) => { problems: string[] }): ResourceHandler['read'] {
  return async (client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> => {
    const lift = (o: LiveObject) => withTestProblems(o, fromWire);
    if (q.keysOnly) return (await readByKeys(q.keys, (ids) => of(client).batchGet(ids))).map(lift);
    return liveSorted(await of(client).list({}, LIST_PAGE_SIZE), lift);
  };
}

/** The BatchUpsert item of a change (the template test as the platform's message). */
export function sqlTestWrite(change: Change, ctx: HandlerContext): SqlTestWrite {
  return sqlTestToWire({ ...afterOf(change), id: change.id, configId: ctx.namespace, source: 'SOURCE_API' }) as unknown as SqlTestWrite;
}

/** The `dq_sql_test` handler. */
export const sqlTestsHandler: ResourceHandler = {
  type: sqlTestDescriptor.type,
  label: sqlTestDescriptor.label,

  read: testsRead((client) => client.sqlTests, sqlTestFromWire),

  fromLive: canonicalLiveSqlTest,
  fromDesired: canonicalSqlTest,
  replaceReasons: () => [],

  async create(client, change, ctx) {
    const errors = await sqlTestsHandler.writeMany!(client, [change], ctx);
    const e = errors.get(change.address);
    if (e) throw e;
  },

  async update(client, change, ctx) {
    await sqlTestsHandler.create(client, change, ctx);
  },

  async delete(client, change) {
    await ignoreNotFound(
      (async () => {
        const res = await client.sqlTests.batchDelete([change.id]);
        const err = res.errors.find((e) => !isNotFoundReason(e.reason));
        if (err) throw new ItemWriteError(change.address, err.id, err.reason);
      })(),
    );
  },

  /**
   * BatchUpsert has no create-only form and no etag, so what it reports is checked: a create the
   * server reports as an update (`updatedIds`) replaced a test someone made since the plan, an
   * update it reports as a create re-made a test someone deleted since: both are conflicts. The
   * one exception is a retried call whose first attempt landed (the retry then "updates" what
   * dqform itself created): when the client retried, the tests are read back and those holding
   * exactly what was written count as written.
   */
  async writeMany(client, changes, ctx) {
    if (changes.length === 0) return new Map();
    const { value: res, retries } = await tallyRetries(() => client.sqlTests.batchUpsert(changes.map((c) => sqlTestWrite(c, ctx))));
    const errors = errorsByAddress(changes, res.errors);
    const created = new Set(res.createdIds.map((id) => String(bareId(id))));
    const updated = new Set(res.updatedIds.map((id) => String(bareId(id))));
    const surprising = changes.filter((c) => !errors.has(c.address) && (c.action === 'create' ? updated : created).has(String(bareId(c.id))));
    if (surprising.length === 0) return errors;
    const live = retries > 0 ? await client.sqlTests.batchGet(surprising.map((c) => c.id)) : {};
    for (const c of surprising) {
      const o = live[c.id];
      if (o && o.configId === ctx.namespace && fingerprint(canonicalLiveSqlTest(o as unknown as Record<string, unknown>)) === fingerprint(c.after)) continue;
      errors.set(
        c.address,
        new WriteConflictError(
          c.address,
          c.action === 'create'
            ? `the SQL test ${JSON.stringify(c.id)} was created by someone else after the plan, and this write replaced it (the platform reported an update, not a create). Plan again and review what live state holds now`
            : `the SQL test ${JSON.stringify(c.id)} was deleted by someone else after the plan, and this write made it again (the platform reported a create, not an update). Plan again`,
        ),
      );
    }
    return errors;
  },
};
