/** Saved views v1 (wire-facts 10). Routes: ROUTES.md. */
import type { z } from 'zod';
import { BatchGetSavedViewsRequest, BatchGetSavedViewsResponse, DeleteSavedViewRequest, ListSavedViewsRequest, ListSavedViewsResponse, type SavedView, SavedViewResponse, type SavedViewWrite, UpsertSavedViewRequest } from '../../../schemas/platform/saved-views';
import { allPages, Empty, Service } from './_base';

const VIEWS = '/api/saved-views/v1';

/** List filters (besides paging). */
export type SavedViewsFilter = Omit<z.input<typeof ListSavedViewsRequest>, 'pagination'>;

/** Saved views v1: caller-chosen UUIDs; upsert leaves omitted optional fields unchanged; delete is hard. Every call is POST with a flat body. */
export class SavedViewsService extends Service {
  /** Upsert POST `/api/saved-views/v1` `{ id, ...fields, grants?: { grants }, etag? }`. */
  async upsert(view: z.input<typeof SavedViewWrite>, etag?: string): Promise<SavedView> {
    const r = await this.http.call({ method: 'POST', path: VIEWS, body: { ...view, etag }, requestSchema: UpsertSavedViewRequest, responseSchema: SavedViewResponse, idempotent: true });
    return r.view;
  }

  /** Delete POST `/api/saved-views/v1/delete` `{ id, etag? }`. */
  async delete(id: string, etag?: string): Promise<void> {
    await this.http.call({ method: 'POST', path: `${VIEWS}/delete`, body: { id, etag }, requestSchema: DeleteSavedViewRequest, responseSchema: Empty, idempotent: true });
  }

  /** BatchGet POST `/api/saved-views/v1/batch-get` `{ ids }`, chunked to 200 -> map keyed by id (unknown and invisible ids absent). */
  batchGet(ids: readonly string[]): Promise<Record<string, SavedView>> {
    return this.batchGetByIds(`${VIEWS}/batch-get`, BatchGetSavedViewsRequest, BatchGetSavedViewsResponse, (r) => r.views, ids);
  }

  /** List POST `/api/saved-views/v1/list` `{ scopes?, context?, onlyPinned?, pagination }`; every page of the views the caller may see. */
  list(pageSize?: number, filter: SavedViewsFilter = {}): Promise<SavedView[]> {
    return allPages(async (pagination) => {
      const r = await this.http.call({ method: 'POST', path: `${VIEWS}/list`, body: { ...filter, pagination }, requestSchema: ListSavedViewsRequest, responseSchema: ListSavedViewsResponse, idempotent: true });
      return { items: r.views, pageInfo: r.pageInfo };
    }, { pageSize });
  }
}
