/**
 * Entities v1 (catalog reads). Routes: ROUTES.md. Each entity is read on its own: one with an
 * identifier variant or entity type this version does not know is returned as read, marked
 * (schemas/platform/wire.ts `unmodelledOf`), never failing the whole response.
 */
import { BATCH_LIMIT } from '../../../schemas/platform/common';
import { BatchGetEntitiesRequest, BatchGetEntitiesResponse, Entity, EntityIdentifier, ListEntitiesResponse, SearchEntitiesResponse } from '../../../schemas/platform/entities';
import { batched, paginate, PaginateOptions } from '../paging';
import { Service } from './_base';

const BASE = '/api/entities/v1';

export class EntitiesService extends Service {
  /** ListEntities GET `/api/entities/v1?pagination.cursor=...`, lazily, page by page. */
  iterate(opts?: PaginateOptions): AsyncGenerator<Entity, void, undefined> {
    return paginate(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: BASE, query: { pagination }, responseSchema: ListEntitiesResponse, idempotent: true });
      return { items: r.entities, pageInfo: r.pageInfo };
    }, opts);
  }

  /** ListEntities over every page. */
  async list(opts?: PaginateOptions): Promise<Entity[]> {
    const out: Entity[] = [];
    for await (const e of this.iterate(opts)) out.push(e);
    return out;
  }

  /** SearchEntities GET `/api/entities/v1/search?searchQuery=...` over every page (name substring match). */
  async search(searchQuery: string, opts?: PaginateOptions): Promise<Entity[]> {
    const out: Entity[] = [];
    const pages = paginate(async (pagination) => {
      const r = await this.http.call({ method: 'GET', path: `${BASE}/search`, query: { searchQuery, pagination }, responseSchema: SearchEntitiesResponse, idempotent: true });
      return { items: r.entities, pageInfo: r.pageInfo };
    }, opts);
    for await (const e of pages) out.push(e);
    return out;
  }

  /** BatchGetEntities POST `/api/entities/v1/by-id` `{ ids: EntityIdentifier[] }`, chunked to 200; unknown ids are absent. */
  async batchGet(ids: readonly EntityIdentifier[]): Promise<Entity[]> {
    const r = await batched(ids, async (c) => {
      const res = await this.http.call({ method: 'POST', path: `${BASE}/by-id`, body: { ids: c }, requestSchema: BatchGetEntitiesRequest, responseSchema: BatchGetEntitiesResponse, idempotent: true });
      return { items: res.entities };
    }, { limit: BATCH_LIMIT });
    return r.items;
  }
}
