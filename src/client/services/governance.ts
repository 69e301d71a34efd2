/** Domains v2, data products v2, owners and ownerships v1. Routes: ROUTES.md. */
import { z } from 'zod';
import {
  BatchGetDataProductsResponse,
  BatchGetDomainsResponse,
  BatchGetOwnershipsResponse,
  BatchGetOwnersResponse,
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
  ListDataProductsResponse,
  ListDomainsResponse,
  ListOwnershipsResponse,
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
  /** Upsert POST `/api/domains/v2` `{ domain, etag }`. */
  async upsert(domain: z.input<typeof DomainWrite>, etag?: string): Promise<Domain> {
    const r = await this.http.call({ method: 'POST', path: DOMAINS, body: { domain, etag }, requestSchema: UpsertDomainRequest, responseSchema: DomainResponse, idempotent: true });
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

  /** List GET `/api/domains/v2?pagination.cursor=...`; every page. */
  list(pageSize?: number): Promise<Domain[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: DOMAINS, query: { pagination }, responseSchema: ListDomainsResponse, idempotent: true });
      return { items: r.domains, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}

/** Data products v2: same operations as domains. */
export class DataProductsService extends Service {
  /** Upsert POST `/api/dataproducts/v2` `{ dataproduct, etag }`. */
  async upsert(dataproduct: z.input<typeof DataProductWrite>, etag?: string): Promise<DataProduct> {
    const r = await this.http.call({ method: 'POST', path: DATAPRODUCTS, body: { dataproduct, etag }, requestSchema: UpsertDataProductRequest, responseSchema: DataProductResponse, idempotent: true });
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

  /** List GET `/api/dataproducts/v2`; every page. */
  list(pageSize?: number): Promise<DataProduct[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: DATAPRODUCTS, query: { pagination }, responseSchema: ListDataProductsResponse, idempotent: true });
      return { items: r.dataproducts, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}

/** Owners and ownerships v1. Deleting an owner deletes its ownerships. */
export class OwnersService extends Service {
  /** UpsertOwner POST `/api/owners/v1` `{ owner, etag }` (contacts in a presence wrapper). */
  async upsertOwner(owner: z.input<typeof OwnerWrite>, etag?: string): Promise<Owner> {
    const r = await this.http.call({ method: 'POST', path: OWNERS, body: { owner, etag }, requestSchema: UpsertOwnerRequest, responseSchema: OwnerResponse, idempotent: true });
    return r.owner;
  }

  /** DeleteOwner POST `/api/owners/v1/delete` `{ id, etag }`. */
  async deleteOwner(id: string, etag?: string): Promise<void> {
    await this.http.call({ method: 'POST', path: `${OWNERS}/delete`, body: { id, etag }, requestSchema: DeleteOwnerRequest, responseSchema: Empty, idempotent: true });
  }

  /** UpsertOwnership POST `/api/owners/v1/{owner_id}/ownerships` `{ ownership, etag }`. */
  async upsertOwnership(ownership: z.input<typeof OwnershipWrite>, etag?: string): Promise<Ownership> {
    const r = await this.http.call({
      method: 'POST',
      path: `${OWNERS}/${seg(ownership.ownerId)}/ownerships`,
      body: { ownership, etag },
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
  batchGetOwners(ids: readonly string[]): Promise<Record<string, Owner>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${OWNERS}/batch-get`, body: { ids: c }, requestSchema: BatchGetRequest, responseSchema: BatchGetOwnersResponse, idempotent: true });
      return r.owners;
    });
  }

  /** BatchGetOwnerships POST `/api/owners/v1/ownerships/batch-get` `{ ids }`, chunked to 200. */
  batchGetOwnerships(ids: readonly string[]): Promise<Record<string, Ownership>> {
    return batchGetMap(ids, async (c) => {
      const r = await this.http.call({ method: 'POST', path: `${OWNERS}/ownerships/batch-get`, body: { ids: c }, requestSchema: BatchGetRequest, responseSchema: BatchGetOwnershipsResponse, idempotent: true });
      return r.ownerships;
    });
  }

  /** ListOwners GET `/api/owners/v1`; every page. */
  listOwners(pageSize?: number): Promise<Owner[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: OWNERS, query: { pagination }, responseSchema: ListOwnersResponse, idempotent: true });
      return { items: r.owners, pageInfo: r.pageInfo };
    }, { pageSize });
  }

  /** ListOwnerships GET `/api/owners/v1/{owner_id}/ownerships`; every page. */
  listOwnerships(ownerId: string, pageSize?: number): Promise<Ownership[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: `${OWNERS}/${seg(ownerId)}/ownerships`, query: { pagination }, responseSchema: ListOwnershipsResponse, idempotent: true });
      return { items: r.ownerships, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}
