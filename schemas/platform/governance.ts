/**
 * Domains v2, data products v2, owners and ownerships v1 (spec 2.6; upstream facts).
 * Ids are UUIDs chosen by the caller; ids are also accepted with the `domain-`, `dataproduct-`
 * and `owner-` prefixes.
 */
import { z } from 'zod';
import { Etag, oneof, PageInfo, Pagination, markOpenEnum, protoEnum, Timestamp, Uuid, withOneof } from './common';
import { AlertSeverity, Ongoing } from './alerts';
import { Query } from './entities';
import { tolerant } from './wire';

/**
 * A query selection (domain and data-product definition parts, ownership selections). Write:
 * `resolverQl` (wins) or `publicQuery` (v1 Query); read: the server answers `renderedResolverQl`
 * (canonical) and may not echo `resolverQl`.
 */
export const QuerySelection = z.object({
  resolverQl: z.string().min(1).max(20000).optional().describe('the selection as ResolverQL, e.g. in_folder("folder-wh-prod::mart")'),
  publicQuery: Query.optional().describe('the selection as a query (resolverQl wins when both are set)'),
  /** Output only. */
  renderedResolverQl: z.string().optional().describe('output only: the server\'s canonical ResolverQL'),
});
export type QuerySelection = z.infer<typeof QuerySelection>;
/** A domain part's query: also the older `assetSelectionQuery` (read; never written by dqform). */
export const DomainQuerySelection = QuerySelection.extend({ assetSelectionQuery: z.unknown().optional() });

/** A definition part's server-minted id (<= 64 chars; minted when empty). */
const partId = { id: z.string().max(64).optional() };

/** A domain's membership: entities, data products, sub-domains or a query. */
export const DomainPart = withOneof(partId, {
  entityId: z.string().min(1).max(1024),
  dataproductId: z.string().min(1),
  domainId: z.string().min(1),
  query: DomainQuerySelection,
});
export type DomainPart = z.infer<typeof DomainPart>;
export const DomainDefinition = z.object({ parts: z.array(DomainPart).max(500).default([]) });
export type DomainDefinition = z.infer<typeof DomainDefinition>;

const timestamps = { createdAt: Timestamp.optional(), updatedAt: Timestamp.optional(), deletedAt: Timestamp.optional() };
const authors = { createdBy: z.unknown().optional(), updatedBy: z.unknown().optional() };

/** Who acts, when not the credential's identity (optional on every governance write). */
export const Actor = z.looseObject({ name: z.string().min(1) });

/**
 * `source` on domains, products and owners: 0 native (default), 1 external catalog (read-only in
 * the app). The real value names carry product words (wire-facts 7: send the integer); these
 * neutral names are dqform's. Writes send the number ({@link GovernanceSourceEnum}).
 */
export const GovernanceSourceEnum = protoEnum({ SOURCE_NATIVE: 0, SOURCE_EXTERNAL_CATALOG: 1 });

/**
 * Reads the `source` the platform answers, as a number or ANY name (the gateway may answer the
 * real, product-worded names): `SOURCE_EXTERNAL_CATALOG` for 1, for that name, and for a name
 * that says external or catalog (`/EXTERNAL|CATALOG/i`); `SOURCE_NATIVE` for everything else
 * (0, any other number or name). A governance object stays manageable whatever the platform calls
 * its source, except the external catalog's, which is read-only in the platform (a choice where the
 * facts give no names: issue 22).
 */
export function governanceSourceOf(v: unknown): 'SOURCE_NATIVE' | 'SOURCE_EXTERNAL_CATALOG' {
  if (v === 1 || v === '1') return 'SOURCE_EXTERNAL_CATALOG';
  if (typeof v === 'string' && /EXTERNAL|CATALOG/i.test(v)) return 'SOURCE_EXTERNAL_CATALOG';
  return 'SOURCE_NATIVE';
}
/** The read form of `source` (see {@link governanceSourceOf}): never fails a read. */
// marked as the enum for the shape walkers: the emulator answers it as a number under `--enums numbers`
export const GovernanceSourceRead = markOpenEnum(z.union([z.string(), z.number()]).transform(governanceSourceOf), GovernanceSourceEnum);

/** Upsert fields (flat body): an omitted optional field is left unchanged; a present definition replaces. */
export const DomainWrite = z.object({
  id: Uuid,
  name: z.string().min(1).max(100).optional(),
  description: z.string().max(10000).optional(),
  /** `""` detaches from the parent. */
  parentId: z.string().optional(),
  definition: DomainDefinition.optional(),
});
export type DomainWrite = z.infer<typeof DomainWrite>;
export const Domain = DomainWrite.extend({
  id: z.string(),
  name: z.string(),
  etag: Etag.optional(),
  source: GovernanceSourceRead.optional(),
  ...authors,
  ...timestamps,
});
export type Domain = z.infer<typeof Domain>;

export const PriorityEnum = protoEnum({ PRIORITY_UNSPECIFIED: 0, PRIORITY_P3: 3, PRIORITY_P2: 4, PRIORITY_P1: 5 });
export const Priority = PriorityEnum.schema;
export type Priority = z.infer<typeof Priority>;

/** Data products take leaf parts only. */
export const DataProductPart = withOneof(partId, { entityId: z.string().min(1).max(1024), query: QuerySelection });
export type DataProductPart = z.infer<typeof DataProductPart>;
export const DataProductDefinition = z.object({ parts: z.array(DataProductPart).max(500).default([]) });
export type DataProductDefinition = z.infer<typeof DataProductDefinition>;

export const DataProductWrite = z.object({
  id: Uuid,
  title: z.string().min(1).max(500).optional(),
  description: z.string().max(10000).optional(),
  /** `""` clears. */
  folder: z.string().max(500).optional(),
  priority: Priority.optional(),
  definition: DataProductDefinition.optional(),
});
export type DataProductWrite = z.infer<typeof DataProductWrite>;
export const DataProduct = DataProductWrite.extend({
  id: z.string(),
  title: z.string(),
  /** Output: `dataproduct-<uuid>`. */
  entityId: z.string().optional(),
  source: GovernanceSourceRead.optional(),
  etag: Etag.optional(),
  ...authors,
  ...timestamps,
});
export type DataProduct = z.infer<typeof DataProduct>;

const mentions = z.array(z.string()).max(100).optional().describe('people or groups to mention');
export const OwnerContact = oneof({
  slack: z
    .object({ channel: z.string().min(1).max(255).describe('Slack channel, e.g. #data-team'), teamName: z.string().max(255).optional().describe('Slack workspace (team) name'), mentions })
    .describe('a Slack channel'),
  email: z.object({ recipientEmails: z.array(z.string().min(3)).min(1).max(100).describe('e-mail addresses') }).describe('e-mail recipients'),
  msTeams: z.object({ channelId: z.string().min(1).max(255).describe('Teams channel id'), mentions }).describe('a Microsoft Teams channel'),
  users: z.object({ userEmails: z.array(z.string().min(3)).min(1).max(100).describe('e-mail addresses of platform users') }).describe('platform users'),
});
export type OwnerContact = z.infer<typeof OwnerContact>;

/** UpsertOwner fields: contacts travel in a presence wrapper (absent = keep, present and empty = clear). */
export const OwnerWrite = z.object({
  id: Uuid,
  title: z.string().min(1).max(500).optional(),
  contacts: z.object({ contacts: z.array(OwnerContact).max(100) }).optional(),
});
export type OwnerWrite = z.infer<typeof OwnerWrite>;
/** The read form has plain `contacts[]`. */
export const Owner = z.object({
  id: z.string(),
  /** Output: `owner-<uuid>`, what an alert's `owner.ownerPath` names. */
  entityId: z.string().optional(),
  title: z.string(),
  contacts: z.array(OwnerContact).default([]),
  source: GovernanceSourceRead.optional(),
  etag: Etag.optional(),
  ...authors,
  ...timestamps,
});
export type Owner = z.infer<typeof Owner>;

/** An ownership's selection: a query (with an optional `name`) or a data product. */
export const OwnershipQuerySelection = QuerySelection.extend({ name: z.string().max(500).optional() });
export const OwnershipSelection = oneof({ query: OwnershipQuerySelection, dataproductId: z.string().min(1) });
export type OwnershipSelection = z.infer<typeof OwnershipSelection>;
/** Alerting of an ownership: severities (alert numbering), ongoing repeats (unset = none). */
export const OwnershipAlert = z.object({
  severities: z.array(AlertSeverity).default([]).describe('issue severities that alert: SEVERITY_WARN, SEVERITY_ERROR, SEVERITY_FATAL'),
  notifyUpstream: z.boolean().optional().describe('also alert on issues upstream of what is owned'),
  ongoing: Ongoing.optional().describe('repeat notifications while an issue stays open'),
  allowSqlTestAuditLink: z.boolean().optional().describe('link SQL test audits in the alert'),
  isDisabled: z.boolean().optional().describe('keep the ownership alert switched off'),
});
export type OwnershipAlert = z.infer<typeof OwnershipAlert>;
/** An ownership as dqform writes it; `ownerId` goes in the path, not the body. */
export const OwnershipWrite = z.object({
  id: Uuid,
  ownerId: z.string().min(1),
  selection: OwnershipSelection,
  alert: OwnershipAlert.optional(),
});
export type OwnershipWrite = z.infer<typeof OwnershipWrite>;
export const Ownership = OwnershipWrite.extend({ id: z.string(), ownerId: z.string(), etag: Etag.optional(), ...authors, ...timestamps });
export type Ownership = z.infer<typeof Ownership>;

// ---- requests and responses (every write is `body: "*"`: the fields ARE the body) ----

const withEtag = { etag: Etag.optional(), actor: Actor.optional() };
/** Upsert POST `/api/domains/v2`: `{ id, name?, description?, parentId?, source?, definition?, etag?, actor? }`. */
export const UpsertDomainRequest = DomainWrite.extend({ source: GovernanceSourceEnum.schema.optional(), ...withEtag });
export const DomainResponse = z.object({ domain: Domain });
export const DeleteDomainRequest = z.object({ id: z.string().min(1), purge: z.boolean().optional(), ...withEtag });
const batchIds = z.array(z.string()).min(1).max(200).refine((a) => new Set(a).size === a.length, 'ids must be unique');
export const BatchGetRequest = z.object({ ids: batchIds, includeDeleted: z.boolean().optional(), excludeDefinition: z.boolean().optional() });
export const BatchGetDomainsResponse = z.object({ domains: z.record(z.string(), tolerant(Domain)).default({}) });
/** List GET `/api/domains/v2`: `pagination.*`, `parentId` ("" = top level only; absent = all), `includeDeleted`, `excludeDefinition`. */
export const ListDomainsRequest = z.object({ pagination: Pagination.optional(), parentId: z.string().optional(), includeDeleted: z.boolean().optional(), excludeDefinition: z.boolean().optional() });
export const ListDomainsResponse = z.object({ domains: z.array(tolerant(Domain)).default([]), pageInfo: PageInfo.optional() });

export const UpsertDataProductRequest = DataProductWrite.extend({ source: GovernanceSourceEnum.schema.optional(), ...withEtag });
export const DataProductResponse = z.object({ dataproduct: DataProduct });
export const DeleteDataProductRequest = z.object({ id: z.string().min(1), purge: z.boolean().optional(), ...withEtag });
export const BatchGetDataProductsResponse = z.object({ dataproducts: z.record(z.string(), tolerant(DataProduct)).default({}) });
/** List GET `/api/dataproducts/v2`: `pagination.*`, `folder`, `priorities` (repeated), `includeDeleted`, `excludeDefinition`. */
export const ListDataProductsRequest = z.object({
  pagination: Pagination.optional(),
  folder: z.string().optional(),
  priorities: z.array(Priority).optional(),
  includeDeleted: z.boolean().optional(),
  excludeDefinition: z.boolean().optional(),
});
export const ListDataProductsResponse = z.object({ dataproducts: z.array(tolerant(DataProduct)).default([]), pageInfo: PageInfo.optional() });

export const UpsertOwnerRequest = OwnerWrite.extend({ source: GovernanceSourceEnum.schema.optional(), ...withEtag });
export const OwnerResponse = z.object({ owner: Owner });
export const DeleteOwnerRequest = z.object({ id: z.string().min(1), purge: z.boolean().optional(), ...withEtag });
export const BatchGetOwnersRequest = z.object({ ids: batchIds, includeDeleted: z.boolean().optional() });
export const BatchGetOwnersResponse = z.object({ owners: z.record(z.string(), tolerant(Owner)).default({}) });
export const ListOwnersRequest = z.object({ pagination: Pagination.optional(), includeDeleted: z.boolean().optional() });
export const ListOwnersResponse = z.object({ owners: z.array(tolerant(Owner)).default([]), pageInfo: PageInfo.optional() });

/** UpsertOwnership POST `/api/owners/v1/{owner_id}/ownerships`: body `{ id, selection, alert?, etag?, actor? }`. */
export const UpsertOwnershipRequest = z.object({ id: Uuid, selection: OwnershipSelection, alert: OwnershipAlert.optional(), ...withEtag });
export const OwnershipResponse = z.object({ ownership: Ownership });
export const DeleteOwnershipRequest = z.object({ id: z.string().min(1), ...withEtag });
export const BatchGetOwnershipsRequest = BatchGetOwnersRequest;
export const BatchGetOwnershipsResponse = z.object({ ownerships: z.record(z.string(), tolerant(Ownership)).default({}) });
export const ListOwnershipsRequest = ListOwnersRequest;
export const ListOwnershipsResponse = z.object({ ownerships: z.array(tolerant(Ownership)).default([]), pageInfo: PageInfo.optional() });
/** @deprecated kept for old imports: list requests take `pagination` and filters per kind. */
export const ListRequest = z.object({ pagination: Pagination.optional() });
