/**
 * Pagination and batching helpers.
 *
 * Paging: requests carry `pagination { cursor, pageSize }` (flattened for GETs as
 * `pagination.cursor`, `pagination.pageSize`); responses carry `pageInfo { lastId }`; the last
 * page has an empty `lastId`, and the next request's cursor is the previous `lastId`.
 *
 * Batching: ids are chunked to the server's limit ({@link BATCH_LIMIT}); per-item `errors[]`
 * reported inside a 200 are collected into a {@link BatchResult} and never dropped.
 */
import { BATCH_LIMIT, BatchItemError, PageInfo, Pagination } from '../../schemas/platform/common';
import { ServerMisbehaviourError } from './errors';
import { redact } from './redact';
import { DqformError } from '../../schemas/tools/errors';

/** One page as a service returns it. */
export interface Page<T> {
  items: T[];
  pageInfo?: PageInfo;
}

/** Fetches the page after `cursor` (undefined for the first page). */
export type FetchPage<T> = (pagination: Pagination) => Promise<Page<T>>;

/** Options of {@link paginate}. */
export interface PaginateOptions {
  /** Requested page size (default: the server's). */
  pageSize?: number;
  /** Safety stop: no list has more pages than this ({@link MAX_PAGES}, 10,000 by default). */
  maxPages?: number;
}

/**
 * The most pages one list may take (10,000: a million objects at a page size of 100, far past
 * any workspace): a server that hands out a fresh cursor forever is stopped there.
 */
export const MAX_PAGES = 10_000;

/**
 * A server that repeats a cursor, or pages past {@link MAX_PAGES}: stopped at once instead of
 * looping forever, and reported as the server's fault.
 */
export class PaginationLoopError extends ServerMisbehaviourError {
  static override readonly code: string = 'server-misbehaviour.pagination-loop';
  override readonly name = 'PaginationLoopError';
}

/**
 * Every page's items, requesting the next page with the previous `lastId` until `lastId` is
 * empty or missing. @throws PaginationLoopError if a cursor repeats or `maxPages` is exceeded.
 */
async function* pagesOf<T>(fetchPage: FetchPage<T>, opts: PaginateOptions): AsyncGenerator<T[], void, undefined> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  const maxPages = opts.maxPages ?? MAX_PAGES;
  for (let page = 0; ; page++) {
    if (page >= maxPages) throw new PaginationLoopError(`the server kept paging: a list passed ${maxPages} pages, each with a new cursor, and was stopped (the server's paging is broken, not dqform)`);
    const res = await fetchPage({ cursor, pageSize: opts.pageSize });
    yield res.items;
    const last = res.pageInfo?.lastId;
    if (!last) return;
    if (seen.has(last)) throw new PaginationLoopError(`the server returned the page cursor "${redact(last)}" twice: its paging loops (the server's fault, not dqform's), the list was stopped after ${page + 1} pages`);
    seen.add(last);
    cursor = last;
  }
}

/**
 * Iterates every item of every page, requesting the next page with the previous `lastId`
 * until `lastId` is empty or missing.
 *
 * @throws PaginationLoopError if a cursor repeats or `maxPages` is exceeded.
 */
export async function* paginate<T>(fetchPage: FetchPage<T>, opts: PaginateOptions = {}): AsyncGenerator<T, void, undefined> {
  for await (const items of pagesOf(fetchPage, opts)) for (const item of items) yield item;
}

/**
 * Collects every item of every page ({@link paginate}'s items) into an array, a page at a time:
 * not through {@link paginate}, whose async generator costs a few promises per item (issue 27).
 */
export async function listAll<T>(fetchPage: FetchPage<T>, opts: PaginateOptions = {}): Promise<T[]> {
  const out: T[] = [];
  for await (const items of pagesOf(fetchPage, opts)) for (const item of items) out.push(item);
  return out;
}

/** Splits `items` into chunks of at most `size`. */
export function chunk<T>(items: readonly T[], size: number = BATCH_LIMIT): T[][] {
  if (!Number.isInteger(size) || size < 1) throw new RangeError(`chunk size must be a positive integer, got ${size}`);
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** The result of a batch operation: what succeeded and every per-item failure. */
export interface BatchResult<T> {
  items: T[];
  errors: BatchItemError[];
}

/** Thrown by batch helpers when the caller asks for it and any item failed. */
export class BatchItemsError<T = unknown> extends DqformError {
  static override readonly code: string = 'batch-items';
  override readonly name = 'BatchItemsError';
  /** Every per-item error, in request order (reasons redacted). */
  readonly errors: BatchItemError[];
  /** What did succeed (a batch is not atomic). */
  readonly items: T[];
  constructor(errors: BatchItemError[], items: T[] = []) {
    const safe = errors.map((e) => ({ id: redact(e.id), reason: redact(e.reason) }));
    const shown = safe.slice(0, 10).map((e) => `${e.id}: ${e.reason}`);
    super(`${safe.length} item(s) of a batch failed: ${shown.join('; ')}${safe.length > 10 ? `; and ${safe.length - 10} more` : ''}`);
    this.errors = safe;
    this.items = items;
  }
  toJSON(): Record<string, unknown> {
    return { errors: this.errors, message: this.message, name: this.name };
  }
}

/** Options of {@link batched}. */
export interface BatchOptions {
  /** Chunk size (default {@link BATCH_LIMIT}). */
  limit?: number;
  /** Chunks in flight at once (default 4; the client's limiter bounds sockets anyway). */
  concurrency?: number;
  /** Throw a {@link BatchItemsError} when any item failed (default false: return them). */
  throwOnItemErrors?: boolean;
}

/**
 * Runs `call` over `inputs` in chunks of `limit`, concatenating items and per-item errors in
 * input order.
 */
export async function batched<I, T>(
  inputs: readonly I[],
  call: (chunk: I[]) => Promise<Partial<BatchResult<T>>>,
  opts: BatchOptions = {},
): Promise<BatchResult<T>> {
  const chunks = chunk(inputs, opts.limit ?? BATCH_LIMIT);
  const results: Partial<BatchResult<T>>[] = new Array(chunks.length);
  let next = 0;
  const worker = async () => {
    while (next < chunks.length) {
      const i = next++;
      results[i] = await call(chunks[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(opts.concurrency ?? 4, chunks.length) }, worker));
  const out: BatchResult<T> = { items: [], errors: [] };
  for (const r of results) {
    out.items.push(...(r.items ?? []));
    out.errors.push(...(r.errors ?? []));
  }
  if (opts.throwOnItemErrors && out.errors.length > 0) throw new BatchItemsError(out.errors, out.items);
  return out;
}

/** Throws a {@link BatchItemsError} if `result` has errors; returns its items otherwise. */
export function orThrow<T>(result: BatchResult<T>): T[] {
  if (result.errors.length > 0) throw new BatchItemsError(result.errors, result.items);
  return result.items;
}
