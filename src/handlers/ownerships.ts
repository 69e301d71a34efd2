/**
 * `dq_ownership`: ownerships v1 (an owner owns a data product or a query selection).
 *
 * - read: BatchGetOwnerships of the given keys only, chunks of 200.
 * - create and update: UpsertOwnership POST `/api/owners/v1/{ownerId}/ownerships` with the plan's
 *   etag on updates; `alert` is always written (an empty one when code declares none, so a removed
 *   alert is cleared).
 * - delete: DeleteOwnership with the plan's etag; NOT_FOUND is success.
 * - normalisation: `ownerId` and `selection.dataproductId` compare bare and lower-case; an alert
 *   with no severities and no flags compares as absent.
 * - moving an ownership to another owner is done in place by the emulator (the owner is in the
 *   path); no replace reason.
 */
import type { PlatformClient } from '../client';
import type { OwnershipWrite } from '../../schemas/governance';
import type { Change } from '../../schemas/plan';
import { normalise } from './normalise';
import { afterOf, bareId, dropEmpty, GOVERNANCE_DROP, ignoreNotFound, omit, readByKeys } from './support';
import type { LiveObject, ReadQuery, ResourceHandler } from './types';

/** The comparable form of an ownership (live or desired). */
export function canonicalOwnership(o: Record<string, unknown>): Record<string, unknown> {
  const x = omit(o, GOVERNANCE_DROP);
  if (x.ownerId !== undefined) x.ownerId = bareId(x.ownerId);
  const sel = x.selection as Record<string, unknown> | undefined;
  if (sel && sel.dataproductId !== undefined) x.selection = { ...sel, dataproductId: bareId(sel.dataproductId) };
  return dropEmpty(normalise(x), 'alert');
}

function ownershipWrite(change: Change): OwnershipWrite {
  const a = afterOf(change);
  return {
    id: change.id,
    ownerId: a.ownerId as string,
    selection: a.selection as OwnershipWrite['selection'],
    alert: (a.alert as OwnershipWrite['alert']) ?? { severities: [] },
  };
}

/** The `dq_ownership` handler. */
export const ownershipsHandler: ResourceHandler = {
  type: 'dq_ownership',
  label: 'ownership',
  prunable: false,

  read(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> {
    return readByKeys(q.keys, (ids) => client.owners.batchGetOwnerships(ids));
  },

  fromLive: canonicalOwnership,
  fromDesired: canonicalOwnership,
  replaceReasons: () => [],

  async create(client, change) {
    await client.owners.upsertOwnership(ownershipWrite(change));
  },

  async update(client, change) {
    await client.owners.upsertOwnership(ownershipWrite(change), change.etag);
  },

  async delete(client, change) {
    await ignoreNotFound(client.owners.deleteOwnership(change.id, change.etag));
  },
};
