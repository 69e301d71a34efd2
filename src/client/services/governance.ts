/** Domains v2, data products v2, owners and ownerships v1. Routes: ROUTES.md. */
import { z } from 'zod';
import { BatchGetDataProductsResponse, BatchGetDomainsResponse, BatchGetOwnershipsResponse, BatchGetOwnersResponse, BatchGetOwnershipsRequest, BatchGetOwnersRequest, BatchGetRequest, DataProduct, DataProductResponse, DataProductWrite, DeleteDataProductRequest, DeleteDomainRequest, DeleteOwnerRequest, DeleteOwnershipRequest, Domain, DomainResponse, DomainWrite, ListDataProductsRequest, ListDataProductsResponse, ListDomainsRequest, ListDomainsResponse, ListOwnershipsRequest, ListOwnershipsResponse, ListOwnersRequest, ListOwnersResponse, Owner, OwnerResponse, Ownership, OwnershipResponse, OwnershipWrite, OwnerWrite, UpsertDataProductRequest, UpsertDomainRequest, UpsertOwnershipRequest, UpsertOwnerRequest } from '../../../schemas/platform/governance';
import { toQuery } from '../../../schemas/platform/wire';
import { seg } from '../http';
import { allPages, batchGetMap, Empty, Service } from './_base';

/** Options of batch reads of soft-deletable objects. */
export interface BatchGetOptions {
  /** Also answer soft-deleted objects (with `deletedAt`). */
  includeDeleted?: boolean;
}

/** Options of deletes. */
export interface DeleteOptions {
  /** Guard: fail with ConflictError if the object changed since this etag. */
  etag?: string;
  /** Hard delete (refused while sub-domains exist). */
  purge?: boolean;
}

const DOMAINS = '/api/domains/v2';
const DATAPRODUCTS = '/api/dataproducts/v2';
const OWNERS = '/api/owners/v1';

/** What tells one v2 governance service from another: its path, its request and response schemas, and its envelopes' keys. */
interface V2Wire {
  readonly path: string;
  readonly upsertRequest: z.ZodType;
  readonly deleteRequest: z.ZodType;
  readonly listRequest: z.ZodType;
  readonly response: z.ZodType;
  readonly batchResponse: z.ZodType;
  readonly listResponse: z.ZodType;
  /** The key of one object in a response (`domain`), and of several (`domains`). */
  readonly one: string;
  readonly many: string;
}

/** A v2 governance service (domains, data products): caller-chosen UUIDs; upsert leaves omitted optional fields unchanged; delete is soft and idempotent. */
abstract class GovernanceV2Service<T, W, F> extends Service {
  protected abstract readonly wire: V2Wire;

  /** Upsert POST `<path>` `{ id, ...fields, etag? }` (flat body). */
  async upsert(obj: W, etag?: string): Promise<T> {
    const w = this.wire;
    const r = (await this.http.call({ method: 'POST', path: w.path, body: { ...obj, etag }, requestSchema: w.upsertRequest, responseSchema: w.response, idempotent: true })) as Record<string, T>;
    return r[w.one];
  }

  /** Delete POST `<path>/delete` `{ id, purge, etag }`. */
  async delete(id: string, opts: DeleteOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: `${this.wire.path}/delete`, body: { id, purge: opts.purge, etag: opts.etag }, requestSchema: this.wire.deleteRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGet POST `<path>/batch-get` `{ ids, includeDeleted }`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[], opts: BatchGetOptions = {}): Promise<Record<string, T>> {
    const w = this.wire;
    return batchGetMap(ids, async (c) => {
      const r = (await this.http.call({ method: 'POST', path: `${w.path}/batch-get`, body: { ids: c, includeDeleted: opts.includeDeleted }, requestSchema: BatchGetRequest, responseSchema: w.batchResponse, idempotent: true })) as Record<string, Record<string, T>>;
      return r[w.many];
    });
  }

  /** List GET `<path>?pagination.cursor=...` with the service's filters; every page. */
  list(pageSize?: number, filter: F = {} as F): Promise<T[]> {
    const w = this.wire;
    return allPages(async (pagination) => {
      const query = toQuery(w.listRequest, { ...filter, pagination });
      const r = (await this.http.call({ method: 'GET', path: w.path, query, responseSchema: w.listResponse, idempotent: true })) as { pageInfo?: { lastId?: string } } & Record<string, T[]>;
      return { items: r[w.many], pageInfo: r.pageInfo };
    }, { pageSize });
  }
}

/** Domains v2: caller-chosen UUIDs; upsert leaves omitted optional fields unchanged; delete is soft and idempotent. */
export class DomainsService extends GovernanceV2Service<Domain, z.input<typeof DomainWrite>, Omit<z.input<typeof ListDomainsRequest>, 'pagination'>> {
  /** `/api/domains/v2`: list filters `parentId`, `includeDeleted`, `excludeDefinition`; delete refused while sub-domains exist unless soft. */
  protected readonly wire: V2Wire = {
    path: DOMAINS,
    upsertRequest: UpsertDomainRequest,
    deleteRequest: DeleteDomainRequest,
    listRequest: ListDomainsRequest,
    response: DomainResponse,
    batchResponse: BatchGetDomainsResponse,
    listResponse: ListDomainsResponse,
    one: 'domain',
    many: 'domains',
  };
}

/** Data products v2: same operations as domains. */
export class DataProductsService extends GovernanceV2Service<DataProduct, z.input<typeof DataProductWrite>, Omit<z.input<typeof ListDataProductsRequest>, 'pagination'>> {
  /** `/api/dataproducts/v2`: list filters `folder`, `priorities`, `includeDeleted`, `excludeDefinition`. */
  protected readonly wire: V2Wire = {
    path: DATAPRODUCTS,
    upsertRequest: UpsertDataProductRequest,
    deleteRequest: DeleteDataProductRequest,
    listRequest: ListDataProductsRequest,
    response: DataProductResponse,
    batchResponse: BatchGetDataProductsResponse,
    listResponse: ListDataProductsResponse,
    one: 'dataproduct',
    many: 'dataproducts',
  };
}

/** Owners and ownerships v1. Deleting an owner deletes its ownerships. */
export class OwnersService extends Service {
  /** UpsertOwner POST `/api/owners/v1` `{ id, title?, contacts?: { contacts }, etag? }` (flat body; contacts in a presence wrapper). */
  async upsertOwner(owner: z.input<typeof OwnerWrite>, etag?: string): Promise<Owner> {
    const r = await this.http.call({ method: 'POST', path: OWNERS, body: { ...owner, etag }, requestSchema: UpsertOwnerRequest, responseSchema: OwnerResponse, idempotent: true });
    return r.owner;
  }

  /** DeleteOwner POST `/api/owners/v1/delete` `{ id, purge?, etag? }` (also deletes the owner's ownerships). */
  async deleteOwner(id: string, etag?: string, opts: { purge?: boolean } = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: `${OWNERS}/delete`, body: { id, purge: opts.purge, etag }, requestSchema: DeleteOwnerRequest, responseSchema: Empty, idempotent: true });
  }

  /** UpsertOwnership POST `/api/owners/v1/{owner_id}/ownerships` `{ id, selection, alert?, etag? }` (the owner is the path). */
  async upsertOwnership(ownership: z.input<typeof OwnershipWrite>, etag?: string): Promise<Ownership> {
    const { ownerId, ...fields } = ownership;
    const r = await this.http.call({
      method: 'POST',
      path: `${OWNERS}/${seg(ownerId)}/ownerships`,
      body: { ...fields, etag },
      requestSchema: UpsertOwnershipRequest,
      responseSchema: OwnershipResponse,
      idempotent: true,
    });
    return r.ownership;
  }

  /** DeleteOwnership POST `/api/owners/v1/ownerships/delete` `{ id, etag }`. */
  async deleteOwnership(id: string, etag?: string): Promise<void> {
    await this.http.call({ method: 'POST', path: `${OWNERS}/ownerships/delete`, body: { id, etag }, requestSchema: DeleteOwnershipRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGetOwners POST `/api/owners/v1/batch-get` `{ ids }`, chunked to 200 -> map keyed by id. */
  batchGetOwners(ids: readonly string[], opts: { includeDeleted?: boolean } = {}): Promise<Record<string, Owner>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${OWNERS}/batch-get`, body: { ids: c, includeDeleted: opts.includeDeleted }, requestSchema: BatchGetOwnersRequest, responseSchema: BatchGetOwnersResponse, idempotent: true });
      return r.owners;
    });
  }

  /** BatchGetOwnerships POST `/api/owners/v1/ownerships/batch-get` `{ ids }`, chunked to 200. */
  batchGetOwnerships(ids: readonly string[], opts: { includeDeleted?: boolean } = {}): Promise<Record<string, Ownership>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${OWNERS}/ownerships/batch-get`, body: { ids: c, includeDeleted: opts.includeDeleted }, requestSchema: BatchGetOwnershipsRequest, responseSchema: BatchGetOwnershipsResponse, idempotent: true });
      return r.ownerships;
    });
  }

  /** ListOwners GET `/api/owners/v1`; every page. */
  listOwners(pageSize?: number): Promise<Owner[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: OWNERS, query: toQuery(ListOwnersRequest, { pagination }), responseSchema: ListOwnersResponse, idempotent: true });
      return { items: r.owners, pageInfo: r.pageInfo };
    }, { pageSize });
  }

  /** ListOwnerships GET `/api/owners/v1/{owner_id}/ownerships`; every page. */
  listOwnerships(ownerId: string, pageSize?: number): Promise<Ownership[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: `${OWNERS}/${seg(ownerId)}/ownerships`, query: toQuery(ListOwnershipsRequest, { pagination }), responseSchema: ListOwnershipsResponse, idempotent: true });
      return { items: r.ownerships, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}
