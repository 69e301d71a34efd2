/** SQL tests (`datachecks.sqltests.v1.SqlTestsService`). Routes: ROUTES.md. */
import { z } from 'zod';
import { BATCH_LIMIT } from '../../../schemas/platform/common';
import { BatchDeleteByIdsRequest, BatchDeleteResponse, BatchGetByIdsRequest, BatchGetSqlTestsResponse, BatchUpsertSqlTestsRequest, BatchUpsertSqlTestsResponse, ListSqlTestsRequest, ListSqlTestsResponse, SqlTest, SqlTestWrite } from '../../../schemas/platform/sql-tests';
import { toQuery } from '../../../schemas/platform/wire';
import { BatchResult, batched } from '../paging';
import { BatchWriteOptions, finish, Service, succeeded } from './_base';

const BASE = '/api/datachecks/sqltests/v1';

/** Result of {@link SqlTestsService.batchUpsert}: `items` are every id written. */
export interface SqlTestUpsertResult extends BatchResult<string> {
  createdIds: string[];
  updatedIds: string[];
}

export class SqlTestsService extends Service {
  /** BatchUpsert POST `/api/datachecks/sqltests/v1` `{ sqlTests }` (full-state, keyed by id; template keys in wire form), chunked to 200. */
  async batchUpsert(tests: z.input<typeof SqlTestWrite>[], opts: BatchWriteOptions = {}): Promise<SqlTestUpsertResult> {
    const createdIds: string[] = [];
    const updatedIds: string[] = [];
    const res = await batched(
      tests,
      async (c) => {
        const r = await this.http.call({ method: 'POST', path: BASE, body: { sqlTests: c }, requestSchema: BatchUpsertSqlTestsRequest, responseSchema: BatchUpsertSqlTestsResponse, idempotent: true });
        createdIds.push(...r.createdIds);
        updatedIds.push(...r.updatedIds);
        return { items: [...r.createdIds, ...r.updatedIds], errors: r.errors };
      },
      { limit: opts.limit ?? BATCH_LIMIT, concurrency: 1 },
    );
    finish(res, opts);
    return { ...res, createdIds, updatedIds };
  }

  /** BatchDelete DELETE `/api/datachecks/sqltests/v1?ids=a&ids=b`, chunked to 200; `items` are the ids deleted. */
  async batchDelete(ids: readonly string[], opts: BatchWriteOptions = {}): Promise<BatchResult<string>> {
    const res = await batched(
      ids,
      async (c) => {
        const r = await this.http.call({ method: 'DELETE', path: BASE, query: toQuery(BatchDeleteByIdsRequest, { ids: c }), responseSchema: BatchDeleteResponse, idempotent: true });
        return { items: succeeded(c, r.errors), errors: r.errors };
      },
      { limit: opts.limit ?? BATCH_LIMIT },
    );
    return finish(res, opts);
  }

  /** BatchGet POST `/api/datachecks/sqltests/v1/by-id` `{ ids }`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[]): Promise<Record<string, SqlTest>> {
    return this.batchGetByIds(`${BASE}/by-id`, BatchGetByIdsRequest, BatchGetSqlTestsResponse, (r) => r.sqlTests, ids);
  }

  /** List GET `/api/datachecks/sqltests/v1` with the filter as query parameters; every page. */
  list(filter: Omit<z.input<typeof ListSqlTestsRequest>, 'pagination'> = {}, pageSize?: number): Promise<SqlTest[]> {
    return this.listFiltered(BASE, ListSqlTestsRequest, ListSqlTestsResponse, (r) => r.sqlTests, filter, pageSize);
  }
}
