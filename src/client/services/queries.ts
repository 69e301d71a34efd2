/** Queries v1: ResolverQL translate and resolve. Routes: ROUTES.md. */
import { z } from 'zod';
import { EntityIdentifier, ResolveQueryRequest, ResolveQueryResponse, TranslateResolverQlRequest, TranslateResolverQlResponse } from '../../../schemas/platform/entities';
import { listAll, PaginateOptions } from '../paging';
import { Service } from './_base';

const BASE = '/api/queries/v1';

export class QueriesService extends Service {
  /** TranslateResolverQl POST `/api/queries/v1/translate-resolver-ql` -> `{ query, renderedResolverQl }`; bad text is a ValidationError. */
  async translateResolverQl(resolverQl: string): Promise<TranslateResolverQlResponse> {
    return this.http.call({ method: 'POST', path: `${BASE}/translate-resolver-ql`, body: { resolverQl }, requestSchema: TranslateResolverQlRequest, responseSchema: TranslateResolverQlResponse, idempotent: true });
  }

  /** ResolveQuery POST `/api/queries/v1/resolve`: one page of matching entity ids. */
  async resolveQuery(req: z.input<typeof ResolveQueryRequest>): Promise<ResolveQueryResponse> {
    return this.http.call({ method: 'POST', path: `${BASE}/resolve`, body: req, requestSchema: ResolveQueryRequest, responseSchema: ResolveQueryResponse, idempotent: true });
  }

  /** ResolveQuery over every page. */
  resolveAll(req: { resolverQl: string } | { query: z.input<typeof ResolveQueryRequest>['query'] }, opts?: PaginateOptions): Promise<EntityIdentifier[]> {
    return listAll(async (pagination) => {
      const r = await this.resolveQuery({ ...req, pagination } as z.input<typeof ResolveQueryRequest>);
      return { items: r.entityIds, pageInfo: r.pageInfo };
    }, opts);
  }
}
