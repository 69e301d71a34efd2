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
import type { OwnerWrite } from '../../../schemas/platform/governance';
import type { Change } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { afterOf, GOVERNANCE_DROP, LIST_PAGE_SIZE, omit } from '../shared/support';
import { governanceHandler } from '../shared/governance';
import type { ResourceHandler } from '../shared/types';
import { ownerDescriptor } from './descriptor';

/** The comparable form of an owner (live or desired). */
export function canonicalOwner(o: Record<string, unknown>): Record<string, unknown> {
  return normalise(omit(o, GOVERNANCE_DROP));
}

function ownerWrite(change: Change): OwnerWrite {
  const a = afterOf(change);
  return { id: change.id, title: a.title as string, contacts: { contacts: (a.contacts as NonNullable<OwnerWrite['contacts']>['contacts'] | undefined) ?? [] } };
}

/** The owner handler (the governance family's). */
export const ownersHandler: ResourceHandler = governanceHandler({
  descriptor: ownerDescriptor,
  canonical: canonicalOwner,
  write: ownerWrite,
  service: {
    list: (client) => client.owners.listOwners(LIST_PAGE_SIZE),
    batchGet: (client, ...a) => client.owners.batchGetOwners(...a),
    upsert: (client, w, etag) => client.owners.upsertOwner(w, etag),
    delete: (client, id, etag) => client.owners.deleteOwner(id, etag),
  },
});
