/**
 * The governance family's handler (owners, domains, data products, ownerships): one upsert with
 * the read etag (compare-and-swap, guarded by a re-read), a delete with the etag, batch gets,
 * reads of what the namespace's tag owns. A kind gives its descriptor, its comparable form, its
 * write message and its service calls.
 */
import type { PlatformClient } from '../../client';
import type { Change } from '../../../schemas/model/plan';
import type { KindDescriptor } from './descriptor';
import { afterOf, guardedUpsert, ignoreNotFound, keepForNamespace, LIST_PAGE_SIZE, listed, readByKeys } from './support';
import type { LiveObject, ReadQuery, ResourceHandler } from './types';

type Json = Record<string, unknown>;
type Stored = { id: string; etag?: string; source?: unknown };

/** The service calls of a governance kind. */
export interface GovernanceService<W, T extends Stored> {
  /** Every object of the workspace, every page (kinds with a workspace-wide list). */
  list?(client: PlatformClient): Promise<T[]>;
  batchGet(client: PlatformClient, ids: string[], opts?: { includeDeleted?: boolean }): Promise<Record<string, T>>;
  upsert(client: PlatformClient, write: W, etag: string | undefined): Promise<{ etag?: string }>;
  delete(client: PlatformClient, id: string, etag: string | undefined): Promise<unknown>;
}

export interface GovernanceKind<W, T extends Stored> {
  descriptor: KindDescriptor;
  /** The comparable form (live or desired). */
  canonical(o: Json): Json;
  /** The write message of a create or update. */
  write(change: Change): W;
  service: GovernanceService<W, T>;
  /** Objects read as context besides the namespace's (what a delete of those takes along). */
  related?(q: ReadQuery): (o: T) => boolean;
  /** The read of what the namespace owns, when the kind has no workspace-wide list (ownerships). */
  readOwned?(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]>;
  /** Import's list of the workspace, when it is not {@link GovernanceService.list}. */
  listAll?: ResourceHandler['listAll'];
}

/**
 * The write message of a governance change: `id`, then `fields` in their order, each the desired
 * value, or its default when the desired config leaves it out (`undefined`: no default; the API
 * leaves an omitted field unchanged, so what code no longer declares is written as its default).
 */
export function writeOf<W>(change: Change, fields: Record<string, unknown>): W {
  const a = afterOf(change);
  const out: Record<string, unknown> = { id: change.id };
  for (const [k, d] of Object.entries(fields)) out[k] = d === undefined ? a[k] : (a[k] ?? d);
  return out as W;
}

/** The calls of a v2 governance service (domains, data products, categorisation rules: list, batchGet, upsert, delete with the etag). */
interface V2Service<W, T extends Stored> {
  list(pageSize: number): Promise<T[]>;
  batchGet(ids: readonly string[], opts?: { includeDeleted?: boolean }): Promise<Record<string, T>>;
  upsert(write: W, etag?: string): Promise<{ etag?: string }>;
  delete(id: string, opts?: { etag?: string }): Promise<void>;
}

/** The {@link GovernanceService} of a v2 service of the client. */
export function v2Service<W, T extends Stored>(of: (client: PlatformClient) => V2Service<W, T>): GovernanceService<W, T> {
  return {
    list: (client) => of(client).list(LIST_PAGE_SIZE),
    batchGet: (client, ...a) => of(client).batchGet(...a),
    upsert: (client, w, etag) => of(client).upsert(w, etag),
    delete: (client, id, etag) => of(client).delete(id, { etag }),
  };
}

/** The handler of a governance kind. */
export function governanceHandler<W, T extends Stored>(k: GovernanceKind<W, T>): ResourceHandler {
  const { descriptor: d, canonical, service: s } = k;
  const upsert = async (client: PlatformClient, change: Change): Promise<void> => {
    await guardedUpsert(change, d.label, (etag) => s.upsert(client, k.write(change), etag), (id) => s.batchGet(client, [id]) as unknown as Promise<Record<string, Json>>, canonical);
  };
  const list = s.list;
  return {
    type: d.type,
    label: d.label,
    listAll: k.listAll ?? (list ? async (client) => listed(await list(client)) : undefined),
    async read(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> {
      if (q.keysOnly) return readByKeys(q.keys, (ids) => s.batchGet(client, ids, { includeDeleted: q.includeDeleted }));
      if (k.readOwned) return k.readOwned(client, q);
      return keepForNamespace(await list!(client), q, k.related?.(q));
    },
    fromLive: canonical,
    fromDesired: canonical,
    replaceReasons: () => [],
    create: upsert,
    update: upsert,
    async delete(client, change) {
      await ignoreNotFound(s.delete(client, change.id, change.etag));
    },
  };
}
