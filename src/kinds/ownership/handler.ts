/**
 * `dq_ownership`: ownerships v1 (an owner owns a data product or a query selection).
 *
 * - read: there is no workspace-wide list of ownerships, so they are found through their
 *   owners: ListOwnerships (every page) of each owner a declared ownership points at (started at
 *   once) and of each owner the namespace owns (as soon as the owners are read, `readOf`),
 *   {@link LIST_CONCURRENCY} at a time; then BatchGetOwnerships for keys asked for that no
 *   listed owner holds. Every one of those owners is listed: nothing in an owner's read (its
 *   etag included) changes when its ownerships do, so no listing can be skipped as empty. Kept: the
 *   ownerships whose id carries the namespace tag, the keys asked for, and, as context, every
 *   other ownership of those owners (deleting an owner deletes them: the plan shows them).
 *   Not found: an ownership of the namespace under an owner that neither the namespace owns
 *   nor the code names any more (its owner made in the UI or by another namespace): it is not
 *   pruned. `keysOnly`: BatchGetOwnerships of the keys, chunks of 200.
 * - create and update: UpsertOwnership POST `/api/owners/v1/{ownerId}/ownerships` with the plan's
 *   etag on updates; `alert` is always written (an empty one when code declares none, so a removed
 *   alert is cleared).
 * - delete: DeleteOwnership with the plan's etag; NOT_FOUND is success.
 * - normalisation: `ownerId` and `selection.dataproductId` compare bare and lower-case; an alert
 *   with no severities and no flags compares as absent.
 * - moving an ownership to another owner is done in place by the emulator (the owner is in the
 *   path); no replace reason.
 */
import type { PlatformClient } from '../../client';
import type { OwnershipWrite } from '../../../schemas/platform/governance';
import type { Change } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { Limiter } from '../../client/limiter';
import type { Ownership } from '../../../schemas/platform/governance';
import { bareId, dropEmpty, GOVERNANCE_DROP, isNotFound, keepForNamespace, LIST_PAGE_SIZE, omit } from '../shared/support';
import { governanceHandler, writeOf } from '../shared/governance';
import type { LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { ownershipDescriptor } from './descriptor';
import { ownerDescriptor } from '../owner/descriptor';
import { batched } from '../../client/paging';

/** The comparable form of an ownership (live or desired). */
export function canonicalOwnership(o: Record<string, unknown>): Record<string, unknown> {
  const x = omit(o, GOVERNANCE_DROP);
  if (x.ownerId !== undefined) x.ownerId = bareId(x.ownerId);
  const sel = x.selection as Record<string, unknown> | undefined;
  if (sel && sel.dataproductId !== undefined) x.selection = { ...sel, dataproductId: bareId(sel.dataproductId) };
  return dropEmpty(normalise(x), 'alert');
}

const ownershipWrite = (change: Change): OwnershipWrite => writeOf<OwnershipWrite>(change, { ownerId: undefined, selection: undefined, alert: { severities: [] } });

/**
 * ListOwnerships calls in flight at once. There is no workspace-wide list, so a plan makes one
 * call per owner (1,250 at 10,000 objects): they share the client's keep-alive pool and its
 * request limiter, which bound sockets and requests in flight across every kind.
 */
const LIST_CONCURRENCY = 32;

/** Every ownership of one owner (every page); an owner that is gone (or never existed) holds none. */
async function ownershipsOf(client: PlatformClient, ownerId: string): Promise<Ownership[]> {
  try {
    return await client.owners.listOwnerships(ownerId, LIST_PAGE_SIZE);
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
}

/**
 * The ownerships of the owners the code names or the namespace owns (there is no workspace-wide
 * list), and the keys asked for.
 */
async function readOwned(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> {
  // The owners the code names are known now: their listings start at once, alongside every
  // other kind's read; the owners the namespace owns follow as soon as the owners are read.
  const lists = new Map<string, Promise<Ownership[]>>();
  const limit = new Limiter(LIST_CONCURRENCY);
  // one turn of the event loop first: every other kind's first page is asked for before these
  // listings take the client's request slots (issue 27: at 2 ms per request the other kinds'
  // lists queued behind 32 listings, and their pages, parsed on the main thread, started late)
  if (q.readOf) await new Promise<void>((resolve) => setImmediate(resolve));
  const list = (ownerId: string) => {
    if (lists.has(ownerId)) return;
    const listing = limit.run(() => ownershipsOf(client, ownerId));
    // handled at once: a listing that fails while the owners are still read (or when their read
    // fails) is the read's failure through Promise.all below, not an unhandled rejection
    listing.catch(() => undefined);
    lists.set(ownerId, listing);
  };
  for (const d of q.desired ?? []) if (typeof d.ownerId === 'string' && d.ownerId) list(String(bareId(d.ownerId)));
  const owners = (q.readOf ? await q.readOf(ownerDescriptor.type) : q.before?.[ownerDescriptor.type]) ?? [];
  for (const o of owners) if (!o.context) list(String(bareId(o.id)));
  const ids = [...lists.keys()].sort();
  const pages = await Promise.all(ids.map((id) => lists.get(id)!));
  const listed = pages.flat();
  const found = new Set(listed.map((o) => String(bareId(o.id))));
  const missing = q.keys.filter((k) => !found.has(String(bareId(k))));
  const extra = missing.length ? Object.values(await client.owners.batchGetOwnerships([...new Set(missing)].sort())) : [];
  // every ownership of a listed owner is context at least: deleting the owner deletes it
  return keepForNamespace<Ownership>([...listed, ...extra], q, (o) => lists.has(String(bareId(o.ownerId))));
}

/** The ownership handler (the governance family's). */
export const ownershipsHandler: ResourceHandler = governanceHandler({
  descriptor: ownershipDescriptor,
  canonical: canonicalOwnership,
  write: ownershipWrite,
  service: {
    batchGet: (client, ...a) => client.owners.batchGetOwnerships(...a),
    upsert: (client, w, etag) => client.owners.upsertOwnership(w, etag),
    delete: (client, id, etag) => client.owners.deleteOwnership(id, etag),
  },
  readOwned,
  // no workspace-wide list of ownerships: every owner's, 8 owners at a time
  async listAll(client, listOf) {
    const owners = (await listOf(ownerDescriptor.type)).map((o) => o.key).sort();
    const r = await batched(owners, async ([id]) => ({ items: await client.owners.listOwnerships(id, LIST_PAGE_SIZE) }), { limit: 1, concurrency: 8 });
    return r.items.map((o) => ({ key: o.id, raw: o as unknown as Record<string, unknown> }));
  },
});
