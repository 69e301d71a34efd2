/**
 * `dq_saved_view`: saved views v1 (caller-chosen UUIDs carrying the namespace tag, etag guard,
 * hard delete).
 *
 * - read: List, every page of {@link LIST_PAGE_SIZE}, of the views the credential may see (its
 *   own, those shared with it, the workspace's; all with SCOPE_SAVED_VIEW_ADMIN), keeping those
 *   whose id carries the namespace tag and the keys asked for ({@link keepForNamespace});
 *   `keysOnly`: BatchGet of the keys, chunks of 200.
 * - create and update: Upsert with every field written explicitly, because the API leaves an
 *   omitted field unchanged: description and context `""`, selection and config `{}` clear what
 *   code no longer declares, visibility defaults to `VISIBILITY_PRIVATE`, grants always in their
 *   wrapper (empty clears). Updates carry the plan's etag and check the version answered
 *   ({@link guardedUpsert}). A create cannot be told by the version it answers (the delete is hard
 *   and the platform's counter of a deleted id continues, so a re-created view's first version is
 *   not 1): it reads the id first and reports a view someone made there meanwhile as a conflict,
 *   never overwriting it.
 * - delete: Delete with the plan's etag; NOT_FOUND is success.
 * - normalisation: the owner, the caller's pin and timestamps are the platform's (pins are each
 *   user's own and never managed); `VISIBILITY_PRIVATE` is the default and compares as absent;
 *   grants are unordered.
 */
import type { SavedView, SavedViewWrite } from '../../../schemas/platform/saved-views';
import type { Change } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { afterOf, dropEmpty, entryFor, LIST_PAGE_SIZE, omit, WriteConflictError } from '../shared/support';
import { governanceHandler } from '../shared/governance';
import type { ResourceHandler } from '../shared/types';
import { savedViewDescriptor } from './descriptor';

/** Read-only and per-user fields of a view. */
const DROP = ['id', 'etag', 'createdAt', 'updatedAt', 'ownerId', 'pinned'] as const;

const grantKey = (g: unknown) => JSON.stringify(normalise(g as Record<string, unknown>));

/** The comparable form of a saved view (live or desired). */
export function canonicalSavedView(v: Record<string, unknown>): Record<string, unknown> {
  const o = omit(v, DROP);
  if (o.visibility === 'VISIBILITY_PRIVATE') delete o.visibility;
  if (Array.isArray(o.grants)) o.grants = [...(o.grants as unknown[])].sort((a, b) => (grantKey(a) < grantKey(b) ? -1 : grantKey(a) > grantKey(b) ? 1 : 0));
  return dropEmpty(normalise(o), 'selection', 'config');
}

/** The Upsert message of a create or update: every field explicit. */
export function savedViewWrite(change: Change): SavedViewWrite {
  const a = afterOf(change);
  return {
    id: change.id,
    title: a.title as string,
    description: (a.description as string | undefined) ?? '',
    context: (a.context as string | undefined) ?? '',
    selection: (a.selection as SavedViewWrite['selection']) ?? {},
    config: (a.config as SavedViewWrite['config']) ?? {},
    visibility: (a.visibility as SavedViewWrite['visibility']) ?? 'VISIBILITY_PRIVATE',
    grants: { grants: (a.grants as NonNullable<SavedViewWrite['grants']>['grants'] | undefined) ?? [] },
  };
}

const family = governanceHandler<SavedViewWrite, SavedView>({
  descriptor: savedViewDescriptor,
  canonical: canonicalSavedView,
  write: savedViewWrite,
  service: {
    list: (client) => client.savedViews.list(LIST_PAGE_SIZE),
    batchGet: (client, ids) => client.savedViews.batchGet(ids),
    upsert: (client, w, etag) => client.savedViews.upsert(w, etag),
    delete: (client, id, etag) => client.savedViews.delete(id, etag),
  },
});

/** The saved view handler: the governance family's, with a create that reads the id first (see above). */
export const savedViewsHandler: ResourceHandler = {
  ...family,
  async create(client, change) {
    const there = entryFor(await client.savedViews.batchGet([change.id]), change.id);
    if (there) {
      throw new WriteConflictError(
        change.address,
        `the saved view ${JSON.stringify(change.id)} was made by someone else (${there.ownerId ?? 'unknown owner'}) since the plan: dqform did not overwrite it. Plan again and review what live state holds now`,
      );
    }
    await client.savedViews.upsert(savedViewWrite(change));
  },
};
