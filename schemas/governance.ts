/**
 * Domains v2, data products v2, owners and ownerships v1 (spec 2.6; upstream facts).
 * Ids are UUIDs chosen by the caller; ids are also accepted with the `domain-`, `dataproduct-`
 * and `owner-` prefixes.
 */
import { z } from 'zod';
import { Etag, oneof, PageInfo, Pagination, protoEnum, Source, Timestamp, Uuid } from './common';
import { AlertSeverity } from './alerts';

export const QuerySelection = z.object({
  resolverQl: z.string().min(1),
  /** Output only. */
  renderedResolverQl: z.string().optional(),
});
export type QuerySelection = z.infer<typeof QuerySelection>;

/** A domain's membership: entities, data products, sub-domains or a query. */
export const DomainPart = oneof({
  entityId: z.string().min(1),
  dataproductId: z.string().min(1),
  domainId: z.string().min(1),
  query: QuerySelection,
});
export type DomainPart = z.infer<typeof DomainPart>;
export const DomainDefinition = z.object({ parts: z.array(DomainPart).default([]) });
export type DomainDefinition = z.infer<typeof DomainDefinition>;

const timestamps = { createdAt: Timestamp.optional(), updatedAt: Timestamp.optional(), deletedAt: Timestamp.optional() };

/** Upsert: an omitted optional field is left unchanged; a present-but-empty definition replaces. */
export const DomainWrite = z.object({
  id: Uuid,
  name: z.string().min(1).max(100).optional(),
  description: z.string().optional(),
  /** `""` detaches from the parent. */
  parentId: z.string().optional(),
  definition: DomainDefinition.optional(),
});
export type DomainWrite = z.infer<typeof DomainWrite>;
export const Domain = DomainWrite.extend({ name: z.string(), etag: Etag.optional(), source: Source.optional(), ...timestamps });
export type Domain = z.infer<typeof Domain>;

export const PriorityEnum = protoEnum({ PRIORITY_UNSPECIFIED: 0, PRIORITY_P3: 3, PRIORITY_P2: 4, PRIORITY_P1: 5 });
export const Priority = PriorityEnum.schema;
export type Priority = z.infer<typeof Priority>;

/** Data products take leaf parts only. */
export const DataProductPart = oneof({ entityId: z.string().min(1), query: QuerySelection });
export type DataProductPart = z.infer<typeof DataProductPart>;
export const DataProductDefinition = z.object({ parts: z.array(DataProductPart).default([]) });
export type DataProductDefinition = z.infer<typeof DataProductDefinition>;

export const DataProductWrite = z.object({
  id: Uuid,
  title: z.string().min(1).max(500).optional(),
  description: z.string().optional(),
  /** `""` clears. */
  folder: z.string().optional(),
  priority: Priority.optional(),
  definition: DataProductDefinition.optional(),
});
export type DataProductWrite = z.infer<typeof DataProductWrite>;
export const DataProduct = DataProductWrite.extend({
  title: z.string(),
  /** Output: `dataproduct-<uuid>`. */
  entityId: z.string().optional(),
  source: Source.optional(),
  etag: Etag.optional(),
  ...timestamps,
});
export type DataProduct = z.infer<typeof DataProduct>;

export const OwnerContact = oneof({
  slack: z.object({ channel: z.string().min(1) }),
  email: z.object({ recipientEmails: z.array(z.string().min(3)).min(1) }),
  msTeams: z.object({ channelId: z.string().min(1) }),
  users: z.object({ userEmails: z.array(z.string().min(3)).min(1) }),
});
export type OwnerContact = z.infer<typeof OwnerContact>;

/** UpsertOwner body: contacts travel in a presence wrapper (absent = keep, present and empty = clear). */
export const OwnerWrite = z.object({
  id: Uuid,
  title: z.string().min(1).max(500).optional(),
  contacts: z.object({ contacts: z.array(OwnerContact) }).optional(),
});
export type OwnerWrite = z.infer<typeof OwnerWrite>;
/** The read form has plain `contacts[]`. */
export const Owner = z.object({
  id: z.string(),
  /** Output: `owner-<uuid>`, what an alert's `owner.ownerPath` names. */
  entityId: z.string().optional(),
  title: z.string(),
  contacts: z.array(OwnerContact).default([]),
  source: Source.optional(),
  etag: Etag.optional(),
  ...timestamps,
});
export type Owner = z.infer<typeof Owner>;

export const OwnershipSelection = oneof({ query: QuerySelection, dataproductId: z.string().min(1) });
export type OwnershipSelection = z.infer<typeof OwnershipSelection>;
export const OwnershipAlert = z.object({
  severities: z.array(AlertSeverity).default([]),
  notifyUpstream: z.boolean().optional(),
  isDisabled: z.boolean().optional(),
});
export type OwnershipAlert = z.infer<typeof OwnershipAlert>;
export const OwnershipWrite = z.object({
  id: Uuid,
  ownerId: z.string().min(1),
  selection: OwnershipSelection,
  alert: OwnershipAlert.optional(),
});
export type OwnershipWrite = z.infer<typeof OwnershipWrite>;
export const Ownership = OwnershipWrite.extend({ id: z.string(), etag: Etag.optional(), source: Source.optional(), ...timestamps });
export type Ownership = z.infer<typeof Ownership>;

// ---- requests and responses ----

const withEtag = { etag: Etag.optional() };
export const UpsertDomainRequest = z.object({ domain: DomainWrite, ...withEtag });
export const DomainResponse = z.object({ domain: Domain });
export const DeleteDomainRequest = z.object({ id: z.string().min(1), purge: z.boolean().optional(), ...withEtag });
export const BatchGetRequest = z.object({ ids: z.array(z.string()).min(1).max(200), includeDeleted: z.boolean().optional() });
export const BatchGetDomainsResponse = z.object({ domains: z.record(z.string(), Domain).default({}) });
export const ListRequest = z.object({ pagination: Pagination.optional() });
export const ListDomainsResponse = z.object({ domains: z.array(Domain).default([]), pageInfo: PageInfo.optional() });

export const UpsertDataProductRequest = z.object({ dataproduct: DataProductWrite, ...withEtag });
export const DataProductResponse = z.object({ dataproduct: DataProduct });
export const DeleteDataProductRequest = z.object({ id: z.string().min(1), purge: z.boolean().optional(), ...withEtag });
export const BatchGetDataProductsResponse = z.object({ dataproducts: z.record(z.string(), DataProduct).default({}) });
export const ListDataProductsResponse = z.object({ dataproducts: z.array(DataProduct).default([]), pageInfo: PageInfo.optional() });

export const UpsertOwnerRequest = z.object({ owner: OwnerWrite, ...withEtag });
export const OwnerResponse = z.object({ owner: Owner });
export const DeleteOwnerRequest = z.object({ id: z.string().min(1), ...withEtag });
export const BatchGetOwnersResponse = z.object({ owners: z.record(z.string(), Owner).default({}) });
export const ListOwnersResponse = z.object({ owners: z.array(Owner).default([]), pageInfo: PageInfo.optional() });

/** POST `/api/owners/v1/{owner_id}/ownerships`. */
export const UpsertOwnershipRequest = z.object({ ownership: OwnershipWrite, ...withEtag });
export const OwnershipResponse = z.object({ ownership: Ownership });
export const DeleteOwnershipRequest = z.object({ id: z.string().min(1), ...withEtag });
export const BatchGetOwnershipsResponse = z.object({ ownerships: z.record(z.string(), Ownership).default({}) });
export const ListOwnershipsResponse = z.object({ ownerships: z.array(Ownership).default([]), pageInfo: PageInfo.optional() });
