/** Shared plumbing of the per-service modules. */
import { z } from 'zod';
import { BATCH_LIMIT, BatchItemError } from '../../../schemas/platform/common';
import { BatchDeployResponse } from '../../../schemas/platform/deployment-rules';
import { toQuery } from '../../../schemas/platform/wire';
import { seg, type DqClient } from '../http';
import { BatchItemsError, BatchResult, batched, listAll, PaginateOptions } from '../paging';

/** Options of batch writes. */
export interface BatchWriteOptions {
  /** Throw a {@link BatchItemsError} when any item failed (default: return the errors). */
  throwOnItemErrors?: boolean;
  /** Chunk size (default: the server's limit). */
  limit?: number;
}

/** An empty response body (`{}`); unknown fields are tolerated. */
export const Empty = z.object({});

/** Every service holds the HTTP core, and the call shapes several services share. */
export abstract class Service {
  constructor(protected readonly http: DqClient) {}

  /**
   * Every page of a GET list whose filter travels as query parameters: the filter is parsed by
   * `request` first (defaults and enums as the wire has them), `items` picks the page's objects.
   */
  protected listFiltered<Req extends z.ZodType, Res extends z.ZodType, T>(path: string, request: Req, response: Res, items: (r: z.output<Res>) => T[], filter: unknown, pageSize?: number): Promise<T[]> {
    const q = request.parse(filter) as Record<string, unknown>;
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path, query: toQuery(request, { ...q, pagination }), responseSchema: response, idempotent: true });
      return { items: items(r), pageInfo: (r as { pageInfo?: { lastId?: string } }).pageInfo };
    }, { pageSize });
  }

  /** A batch get POST `path` `{ ids }`, chunked to 200 -> map keyed by id (`pick` finds it in the response). */
  protected batchGetByIds<Res extends z.ZodType, T>(path: string, request: z.ZodType, response: Res, pick: (r: z.output<Res>) => Record<string, T>, ids: readonly string[]): Promise<Record<string, T>> {
    return batchGetMap(ids, async (c) => pick(await this.http.call({ method: 'POST', path, body: { ids: c }, requestSchema: request, responseSchema: response, idempotent: true })));
  }
}

/** Where a rule family's writes go. */
export interface RuleWriteRoutes {
  /** Deploy: POST `{ deploymentRule }`, checked by `deployRequest`. */
  readonly deploy: string;
  readonly deployRequest: z.ZodType;
  /** BatchDeploy: POST `{ deploymentRules }`, checked by `batchDeployRequest`. */
  readonly batchDeploy: string;
  readonly batchDeployRequest: z.ZodType;
  /** Delete: DELETE `{one}/{id}`. */
  readonly one: string;
}

/**
 * A rule family's service (monitor and SQL-test deployment rules): the writes, at the subclass's
 * {@link RuleWriteRoutes}. The API takes no etag on any of them.
 */
export abstract class RuleWritesService<W> extends Service {
  protected abstract readonly routes: RuleWriteRoutes;

  /** Deploy: save the rule and sync what it deploys (monitors, tests). */
  async deploy(rule: W): Promise<void> {
    await this.http.call({ method: 'POST', path: this.routes.deploy, body: { deploymentRule: rule }, requestSchema: this.routes.deployRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchDeploy, chunked to 200; per-item errors returned (or thrown, when asked). */
  async batchDeploy(rules: W[], opts: BatchWriteOptions = {}): Promise<BatchResult<string>> {
    const res = await batched(
      [...rules],
      async (c) => {
        const r = await this.http.call({ method: 'POST', path: this.routes.batchDeploy, body: { deploymentRules: c }, requestSchema: this.routes.batchDeployRequest, responseSchema: BatchDeployResponse, idempotent: true });
        return { items: r.deployedIds, errors: r.errors };
      },
      { limit: opts.limit ?? BATCH_LIMIT },
    );
    return finish(res, opts);
  }

  /** Delete by id (the server deletes what the rule deployed, unless the rule keeps it). */
  async delete(id: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: `${this.routes.one}/${seg(id)}`, responseSchema: Empty, idempotent: true });
  }
}

/**
 * Batch read answering a map keyed by id: chunks `ids` to `limit` and merges the maps.
 * Ids the server does not know are absent from the result (never an error).
 */
export async function batchGetMap<V>(ids: readonly string[], fetch: (chunk: string[]) => Promise<Record<string, V>>, limit: number = BATCH_LIMIT): Promise<Record<string, V>> {
  const unique = [...new Set(ids)];
  const res = await batched(unique, async (c) => ({ items: Object.entries(await fetch(c)) }), { limit });
  return Object.fromEntries(res.items);
}

/** Collects a batch write's per-item errors; throws when asked to. */
export function finish<T>(result: BatchResult<T>, opts: BatchWriteOptions = {}): BatchResult<T> {
  if (opts.throwOnItemErrors && result.errors.length > 0) throw new BatchItemsError(result.errors, result.items);
  return result;
}

/** The ids of `chunk` that are not named in `errors`. */
export function succeeded(chunk: readonly string[], errors: readonly BatchItemError[]): string[] {
  const failed = new Set(errors.map((e) => e.id));
  return chunk.filter((id) => !failed.has(id));
}

/** Lists every page of a GET list whose request carries `pagination { cursor, pageSize }`. */
export function allPages<T>(fetch: (pagination: { cursor?: string; pageSize?: number }) => Promise<{ items: T[]; pageInfo?: { lastId?: string } }>, opts?: PaginateOptions): Promise<T[]> {
  return listAll(fetch, opts);
}
