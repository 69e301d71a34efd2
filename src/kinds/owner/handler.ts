/**
 * `dq_owner`: owners v1.
 *
 * - read: ListOwners, every page of {@link LIST_PAGE_SIZE} (`ceil(n / pageSize)` requests, one
 *   for none), keeping the owners whose id carries the namespace tag and the keys asked for
 *   ({@link keepForNamespace}); `keysOnly`: BatchGetOwners of the keys, chunks of 200.
 * - create and update: UpsertOwner with the contacts in the presence wrapper
 *   `contacts: { contacts: [...] }`, always present (present and empty clears what code no longer
 *   declares). Updates carry the plan's etag.
 * - delete: DeleteOwner with the plan's etag (the server deletes the owner's ownerships too);
 *   NOT_FOUND is success.
 * - normalisation: the read form's plain `contacts[]` compares with the desired `contacts[]`
 *   (unordered); `entityId` (`owner-<uuid>`) is server-computed.
 */
import type { PlatformClient } from '../../client';
import type { OwnerWrite } from '../../../schemas/governance';
import type { Change } from '../../../schemas/plan';
import { normalise } from '../shared/normalise';
import { afterOf, GOVERNANCE_DROP, guardedUpsert, ignoreNotFound, keepForNamespace, LIST_PAGE_SIZE, listed, omit, readByKeys } from '../shared/support';
import type { LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { ownerDescriptor } from './descriptor';

/** The comparable form of an owner (live or desired). */
export function canonicalOwner(o: Record<string, unknown>): Record<string, unknown> {
  return normalise(omit(o, GOVERNANCE_DROP));
}

function ownerWrite(change: Change): OwnerWrite {
  const a = afterOf(change);
  return { id: change.id, title: a.title as string, contacts: { contacts: (a.contacts as NonNullable<OwnerWrite['contacts']>['contacts'] | undefined) ?? [] } };
}

/** The `dq_owner` handler. */
export const ownersHandler: ResourceHandler = {
  type: ownerDescriptor.type,
  label: ownerDescriptor.label,
  prunable: ownerDescriptor.ownership === 'configId',
  listAll: async (client) => listed(await client.owners.listOwners(LIST_PAGE_SIZE)),

  async read(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> {
    if (q.keysOnly) return readByKeys(q.keys, (ids) => client.owners.batchGetOwners(ids, { includeDeleted: q.includeDeleted }));
    return keepForNamespace(await client.owners.listOwners(LIST_PAGE_SIZE), q);
  },

  fromLive: canonicalOwner,
  fromDesired: canonicalOwner,
  replaceReasons: () => [],

  async create(client, change) {
    await guardedUpsert(change, 'owner', (etag) => client.owners.upsertOwner(ownerWrite(change), etag), (id) => client.owners.batchGetOwners([id]), canonicalOwner);
  },

  async update(client, change) {
    await guardedUpsert(change, 'owner', (etag) => client.owners.upsertOwner(ownerWrite(change), etag), (id) => client.owners.batchGetOwners([id]), canonicalOwner);
  },

  async delete(client, change) {
    await ignoreNotFound(client.owners.deleteOwner(change.id, change.etag));
  },
};
