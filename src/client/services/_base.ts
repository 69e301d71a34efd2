/** Shared plumbing of the per-service modules. */
import { z } from 'zod';
import { BATCH_LIMIT, BatchItemError } from '../../../schemas/common';
import type { DqClient } from '../http';
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

/** Every service holds the HTTP core. */
export abstract class Service {
  constructor(protected readonly http: DqClient) {}
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
