/**
 * `dq_domain`: domains v2 (caller-chosen UUIDs, soft delete, etag guard).
 *
 * - read: List, every page of {@link LIST_PAGE_SIZE} (`ceil(n / pageSize)` requests, one for
 *   none), keeping the domains whose id carries the namespace tag, the keys asked for, and, as
 *   context, the domains whose parent or members are the namespace's or named by the code (what
 *   a delete leaves dangling: {@link keepForNamespace}); `keysOnly`: BatchGet of the keys, chunks
 *   of 200. Soft-deleted domains are absent.
 * - create and update: Upsert with every field written explicitly, because the API leaves an
 *   omitted field unchanged: description `""`, parentId `""` (detach) and an empty definition
 *   clear what code no longer declares. Updates carry the plan's etag.
 * - delete: soft delete with the plan's etag; NOT_FOUND is success.
 * - normalisation: ids in `parentId` and in `domainId`/`dataproductId` parts are compared bare
 *   and lower-case; a definition without parts compares as absent.
 */
import type { PlatformClient } from '../../client';
import type { Domain, DomainWrite } from '../../../schemas/governance';
import type { Change } from '../../../schemas/plan';
import { normalise } from '../shared/normalise';
import { afterOf, bareId, dropEmpty, GOVERNANCE_DROP, guardedUpsert, ignoreNotFound, isOurs, keepForNamespace, LIST_PAGE_SIZE, listed, omit, readByKeys } from '../shared/support';
import type { LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { domainDescriptor } from './descriptor';

/**
 * Canonical definition parts: member ids bare; the server-minted part `id` dropped (a part is
 * compared by what it selects); used by domains and data products.
 */
export function canonicalParts(def: unknown): unknown {
  if (!def || typeof def !== 'object') return def;
  const parts = (def as { parts?: Record<string, unknown>[] }).parts;
  if (!Array.isArray(parts)) return def;
  return {
    ...(def as object),
    parts: parts.map((p) => {
      const { id: _id, ...q } = p;
      if (q.domainId !== undefined) q.domainId = bareId(q.domainId);
      if (q.dataproductId !== undefined) q.dataproductId = bareId(q.dataproductId);
      return q;
    }),
  };
}

/** The comparable form of a domain (live or desired). */
export function canonicalDomain(d: Record<string, unknown>): Record<string, unknown> {
  const o = omit(d, GOVERNANCE_DROP);
  if (o.parentId !== undefined) o.parentId = bareId(o.parentId);
  if (o.definition !== undefined) o.definition = canonicalParts(o.definition);
  return dropEmpty(normalise(o), 'definition');
}

function domainWrite(change: Change): DomainWrite {
  const a = afterOf(change);
  return {
    id: change.id,
    name: a.name as string,
    description: (a.description as string | undefined) ?? '',
    parentId: (a.parentId as string | undefined) ?? '',
    definition: (a.definition as DomainWrite['definition']) ?? { parts: [] },
  };
}

/** The `dq_domain` handler. */
export const domainsHandler: ResourceHandler = {
  type: domainDescriptor.type,
  label: domainDescriptor.label,
  prunable: domainDescriptor.ownership === 'configId',
  listAll: async (client) => listed(await client.domains.list(LIST_PAGE_SIZE)),

  async read(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]> {
    if (q.keysOnly) return readByKeys(q.keys, (ids) => client.domains.batchGet(ids, { includeDeleted: q.includeDeleted }));
    const related = (d: Domain) => isOurs(q, d.parentId) || (d.definition?.parts ?? []).some((p) => isOurs(q, p.domainId) || isOurs(q, p.dataproductId));
    return keepForNamespace(await client.domains.list(LIST_PAGE_SIZE), q, related);
  },

  fromLive: canonicalDomain,
  fromDesired: canonicalDomain,
  replaceReasons: () => [],

  async create(client, change) {
    await guardedUpsert(change, 'domain', (etag) => client.domains.upsert(domainWrite(change), etag), (id) => client.domains.batchGet([id]), canonicalDomain);
  },

  async update(client, change) {
    await guardedUpsert(change, 'domain', (etag) => client.domains.upsert(domainWrite(change), etag), (id) => client.domains.batchGet([id]), canonicalDomain);
  },

  async delete(client, change) {
    await ignoreNotFound(client.domains.delete(change.id, { etag: change.etag }));
  },
};
