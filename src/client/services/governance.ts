/** Domains v2, data products v2, owners and ownerships v1. Routes: ROUTES.md. */
import { z } from 'zod';
import {
  BatchGetDataProductsResponse,
  BatchGetDomainsResponse,
  BatchGetOwnershipsResponse,
  BatchGetOwnersResponse,
  BatchGetOwnershipsRequest,
  BatchGetOwnersRequest,
  BatchGetRequest,
  DataProduct,
  DataProductResponse,
  DataProductWrite,
  DeleteDataProductRequest,
  DeleteDomainRequest,
  DeleteOwnerRequest,
  DeleteOwnershipRequest,
  Domain,
  DomainResponse,
  DomainWrite,
  ListDataProductsRequest,
  ListDataProductsResponse,
  ListDomainsRequest,
  ListDomainsResponse,
  ListOwnershipsRequest,
  ListOwnershipsResponse,
  ListOwnersRequest,
  ListOwnersResponse,
  Owner,
  OwnerResponse,
  Ownership,
  OwnershipResponse,
  OwnershipWrite,
  OwnerWrite,
  UpsertDataProductRequest,
  UpsertDomainRequest,
  UpsertOwnershipRequest,
  UpsertOwnerRequest,
} from '../../../schemas/governance';
import { toQuery } from '../../../schemas/wire';
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

/** Domains v2: caller-chosen UUIDs; upsert leaves omitted optional fields unchanged; delete is soft and idempotent. */
export class DomainsService extends Service {
  /** Upsert POST `/api/domains/v2` `{ id, name?, description?, parentId?, definition?, etag? }` (flat body). */
  async upsert(domain: z.input<typeof DomainWrite>, etag?: string): Promise<Domain> {
    const r = await this.http.call({ method: 'POST', path: DOMAINS, body: { ...domain, etag }, requestSchema: UpsertDomainRequest, responseSchema: DomainResponse, idempotent: true });
    return r.domain;
  }

  /** Delete POST `/api/domains/v2/delete` `{ id, purge, etag }`. */
  async delete(id: string, opts: DeleteOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: `${DOMAINS}/delete`, body: { id, purge: opts.purge, etag: opts.etag }, requestSchema: DeleteDomainRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGet POST `/api/domains/v2/batch-get` `{ ids, includeDeleted }`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[], opts: BatchGetOptions = {}): Promise<Record<string, Domain>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${DOMAINS}/batch-get`, body: { ids: c, includeDeleted: opts.includeDeleted }, requestSchema: BatchGetRequest, responseSchema: BatchGetDomainsResponse, idempotent: true });
      return r.domains;
    });
  }

  /** List GET `/api/domains/v2?pagination.cursor=...` (`parentId`, `includeDeleted`, `excludeDefinition` filters); every page. */
  list(pageSize?: number, filter: Omit<z.input<typeof ListDomainsRequest>, 'pagination'> = {}): Promise<Domain[]> {
    return allPages(async (pagination) => {
      const query = toQuery(ListDomainsRequest, { ...filter, pagination });
      const r = await this.http.call({ method: 'GET', path: DOMAINS, query, responseSchema: ListDomainsResponse, idempotent: true });
      return { items: r.domains, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}

/** Data products v2: same operations as domains. */
export class DataProductsService extends Service {
  /** Upsert POST `/api/dataproducts/v2` `{ id, title?, description?, folder?, priority?, definition?, etag? }` (flat body). */
  async upsert(dataproduct: z.input<typeof DataProductWrite>, etag?: string): Promise<DataProduct> {
    const r = await this.http.call({ method: 'POST', path: DATAPRODUCTS, body: { ...dataproduct, etag }, requestSchema: UpsertDataProductRequest, responseSchema: DataProductResponse, idempotent: true });
    return r.dataproduct;
  }

  /** Delete POST `/api/dataproducts/v2/delete` `{ id, purge, etag }`. */
  async delete(id: string, opts: DeleteOptions = {}): Promise<void> {
    await this.http.call({ method: 'POST', path: `${DATAPRODUCTS}/delete`, body: { id, purge: opts.purge, etag: opts.etag }, requestSchema: DeleteDataProductRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGet POST `/api/dataproducts/v2/batch-get`, chunked to 200 -> map keyed by id. */
  batchGet(ids: readonly string[], opts: BatchGetOptions = {}): Promise<Record<string, DataProduct>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${DATAPRODUCTS}/batch-get`, body: { ids: c, includeDeleted: opts.includeDeleted }, requestSchema: BatchGetRequest, responseSchema: BatchGetDataProductsResponse, idempotent: true });
      return r.dataproducts;
    });
  }

  /** List GET `/api/dataproducts/v2` (`folder`, `priorities`, `includeDeleted`, `excludeDefinition` filters); every page. */
  list(pageSize?: number, filter: Omit<z.input<typeof ListDataProductsRequest>, 'pagination'> = {}): Promise<DataProduct[]> {
    return allPages(async (pagination) => {
      const query = toQuery(ListDataProductsRequest, { ...filter, pagination });
      const r = await this.http.call({ method: 'GET', path: DATAPRODUCTS, query, responseSchema: ListDataProductsResponse, idempotent: true });
      return { items: r.dataproducts, pageInfo: r.pageInfo };
    }, { pageSize });
  }
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
