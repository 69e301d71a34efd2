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

import type { Domain, DomainWrite } from '../../../schemas/platform/governance';
import type { Change } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { bareId, dropEmpty, GOVERNANCE_DROP, isOurs, omit } from '../shared/support';
import { governanceHandler, v2Service, writeOf } from '../shared/governance';
import type { ResourceHandler } from '../shared/types';
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

const domainWrite = (change: Change): DomainWrite => writeOf<DomainWrite>(change, { name: undefined, description: '', parentId: '', definition: { parts: [] } });

/** The domain handler (the governance family's): sub-domains and domains listing one of the namespace's are read as context. */
export const domainsHandler: ResourceHandler = governanceHandler({
  descriptor: domainDescriptor,
  canonical: canonicalDomain,
  write: domainWrite,
  service: v2Service((client) => client.domains),
  related: (q) => (d: Domain) => isOurs(q, d.parentId) || (d.definition?.parts ?? []).some((p) => isOurs(q, p.domainId) || isOurs(q, p.dataproductId)),
});
