/**
 * Catalog reads over the seeded catalog: ListEntities, SearchEntities, BatchGetEntities
 * (SCOPE_ENTITY_READ), GetLineage POST and GET (SCOPE_LINEAGE_READ, spec 4.2) and the
 * incident batch lookup (SCOPE_INCIDENTS_READ, spec 4.7; the emulator has no incidents).
 *
 * Paging over entities: results are in path order; `pageInfo.lastId` is the last entity's
 * opaque `entityId` when more follow (`''` on the last page); pass it back as
 * `pagination.cursor`. Default page size 100, at most 1000.
 */
import { z } from 'zod';
import { BATCH_LIMIT, Pagination } from '../../../schemas/platform/common';
import {
  BatchEntityIncidentsResponse,
  BatchGetEntitiesRequest,
  BatchGetEntitiesResponse,
  EntityIdentifier,
  GetLineageRequest,
  GetLineageResponse,
  LineageDirectionEnum,
  ListEntitiesRequest,
  ListEntitiesResponse,
  NodePositionEnum,
  type Entity,
  type EntityReference,
  type Lineage,
} from '../../../schemas/platform/entities';
import type { RouteContext, RouteTable } from '../app';
import type { Catalog, LineageDirection } from '../catalog';
import { invalidArgument, notFound, parseBody, zodViolations } from '../errors';
import { evaluateQuery } from '../query-eval';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../store';

/** One page of entities plus its pageInfo. */
export interface EntityPage {
  items: Entity[];
  pageInfo: { count: number; lastId: string };
}

/** `pagination` of a GET's parsed query (`ctx.q`). */
export function entityPagingParams(ctx: RouteContext): { cursor?: string; pageSize?: number } {
  const p = (ctx.q.pagination ?? {}) as { cursor?: string; pageSize?: number };
  return { cursor: p.cursor || undefined, pageSize: p.pageSize || undefined };
}

/** SearchEntities' query: `searchQuery` and `pagination.*` (a choice: the spec names the path only). */
const SearchEntitiesRequest = z.object({ searchQuery: z.string().optional(), pagination: Pagination.optional() });
/** GET `/api/incidents/v1/batch` (spec 4.7). */
const BatchIncidentsRequest = z.object({ incidentIds: z.array(z.string()).optional() });

/**
 * One page of `entities` (sorted by path) after `cursor` (an entity id; the entity need not be
 * in `entities`). An unknown cursor is INVALID_ARGUMENT.
 */
export function pageEntities(catalog: Catalog, entities: readonly Entity[], cursor: string | undefined, pageSize: number | undefined): EntityPage {
  const size = Math.min(MAX_PAGE_SIZE, pageSize && pageSize > 0 ? Math.floor(pageSize) : DEFAULT_PAGE_SIZE);
  let start = 0;
  if (cursor) {
    const after = catalog.byEntityId(cursor);
    if (!after) throw invalidArgument(`unknown cursor ${JSON.stringify(cursor)}`, [{ field: 'pagination.cursor', ruleId: 'list.pagination.cursor', message: 'pass back the previous page\'s pageInfo.lastId' }]);
    let lo = 0;
    let hi = entities.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (entities[mid].path <= after.path) lo = mid + 1;
      else hi = mid;
    }
    start = lo;
  }
  const items = entities.slice(start, start + size);
  const more = start + size < entities.length;
  return { items, pageInfo: { count: items.length, lastId: more && items.length ? items[items.length - 1].entityId : '' } };
}

/** The catalog entity a lineage reference names: its `entityId` when given, else its identifier. */
function entityOfReference(catalog: Catalog, ref: EntityReference): Entity | undefined {
  if (ref.entityId) {
    const e = catalog.byEntityId(ref.entityId);
    if (e) return e;
  }
  return catalog.byKey(ref);
}

function lineageDirectionOf(v: unknown): LineageDirection {
  const r = LineageDirectionEnum.schema.safeParse(typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v);
  if (!r.success || !LineageDirectionEnum.values.includes(r.data)) {
    throw invalidArgument(`unknown lineage direction ${JSON.stringify(v)}`, [
      { field: 'lineageDirection', ruleId: 'get_lineage.lineage_direction', message: `one of ${LineageDirectionEnum.values.join(', ')}` },
    ]);
  }
  return r.data;
}

function lineageOf(catalog: Catalog, req: z.output<typeof GetLineageRequest>): Lineage {
  const sp = req.startPoint;
  const refs: EntityReference[] = sp.entities ? sp.entities.entities : sp.entityColumns ? [sp.entityColumns.id] : [];
  const starts: Entity[] = [];
  const missing: string[] = [];
  for (const r of refs) {
    const e = entityOfReference(catalog, r);
    if (e) starts.push(e);
    else missing.push(JSON.stringify(r));
  }
  if (starts.length === 0) throw notFound(`lineage start point not found in the catalog: ${missing.join(', ') || 'no entities given'}`);
  return catalog.lineage(starts, req.lineageDirection ?? 'LINEAGE_DIRECTION_UNSPECIFIED', req.maxDepth);
}

/**
 * The GET form of GetLineage (spec 4.2): flattened `startPoint.entityColumns.id.<variant>.<field>`,
 * `startPoint.entityColumns.columnNames`, `maxDepth`, `lineageDirection` (parsed by the app
 * against {@link GetLineageQuery} into `ctx.q`; unknown parameters are refused there).
 */
function lineageRequestFromQuery(ctx: RouteContext): z.output<typeof GetLineageRequest> {
  const q = ctx.q as { startPoint?: { entityColumns?: { id?: unknown; columnNames?: string[] } }; maxDepth?: number; lineageDirection?: unknown };
  const parsed = EntityIdentifier.safeParse(q.startPoint?.entityColumns?.id ?? {});
  if (!parsed.success) {
    throw invalidArgument(
      'invalid get_lineage request: give the start entity as startPoint.entityColumns.id.<variant>.<field> query parameters',
      zodViolations(parsed.error, 'get_lineage').map((v) => ({ ...v, field: v.field ? `startPoint.entityColumns.id.${v.field}` : 'startPoint.entityColumns.id' })),
    );
  }
  return {
    startPoint: { entityColumns: { id: parsed.data, columnNames: q.startPoint?.entityColumns?.columnNames ?? [] } },
    maxDepth: q.maxDepth,
    lineageDirection: q.lineageDirection !== undefined ? lineageDirectionOf(q.lineageDirection) : undefined,
  };
}

/** The query-parameter shape of GET `/api/lineage/v1` (checked leaf by leaf; the parts are validated above). */
const GetLineageQuery = z.object({
  startPoint: z.object({ entityColumns: z.object({ id: z.lazy(() => EntityIdentifier).optional(), columnNames: z.array(z.string()).optional() }).optional() }).optional(),
  maxDepth: z.number().int().optional(),
  lineageDirection: z.unknown().optional(),
});

/** A lineage with its enum fields as integers (the GET response form). */
function withIntegerEnums(l: Lineage): unknown {
  return {
    ...l,
    nodes: l.nodes.map((n) => ({ ...n, position: n.position === undefined ? undefined : NodePositionEnum.numbers[n.position] })),
  };
}

function listEntities(ctx: RouteContext): ListEntitiesResponse {
  const { cursor, pageSize } = entityPagingParams(ctx);
  const page = pageEntities(ctx.catalog, ctx.catalog.entities, cursor, pageSize);
  return { entities: page.items, pageInfo: page.pageInfo };
}

function searchEntities(ctx: RouteContext): ListEntitiesResponse {
  const searchQuery = (ctx.q as { searchQuery?: string }).searchQuery ?? '';
  const { cursor, pageSize } = entityPagingParams(ctx);
  const hits = evaluateQuery(ctx.catalog, { parts: [{ withNameSearch: { searchQuery } }] });
  const page = pageEntities(ctx.catalog, hits, cursor, pageSize);
  return { entities: page.items, pageInfo: page.pageInfo };
}

function batchGetEntities(ctx: RouteContext): BatchGetEntitiesResponse {
  const req = parseBody(BatchGetEntitiesRequest, ctx.body, 'batch_get');
  if (req.ids.length > BATCH_LIMIT) {
    throw invalidArgument(`at most ${BATCH_LIMIT} ids per batch; got ${req.ids.length}`, [{ field: 'ids', ruleId: 'batch_get.ids.max_items', message: `at most ${BATCH_LIMIT} ids` }]);
  }
  const seen = new Set<string>();
  const entities: Entity[] = [];
  for (const id of req.ids) {
    const e = ctx.catalog.byKey(id);
    if (e && !seen.has(e.entityId)) {
      seen.add(e.entityId);
      entities.push(e);
    }
  }
  return { entities };
}

function lineageByBody(ctx: RouteContext) {
  const req = parseBody(GetLineageRequest, ctx.body, 'get_lineage');
  return { lineage: lineageOf(ctx.catalog, req) };
}

function lineageByQuery(ctx: RouteContext) {
  return { lineage: withIntegerEnums(lineageOf(ctx.catalog, lineageRequestFromQuery(ctx))) };
}

function batchIncidents(ctx: RouteContext) {
  const ids = (ctx.q as { incidentIds?: string[] }).incidentIds ?? [];
  if (ids.length > BATCH_LIMIT) {
    throw invalidArgument(`at most ${BATCH_LIMIT} incident ids per batch; got ${ids.length}`, [{ field: 'incidentIds', ruleId: 'batch.incident_ids.max_items', message: `at most ${BATCH_LIMIT} ids` }]);
  }
  // The emulator raises no incidents: no entity has open incidents to report.
  return { responses: [] };
}

/** The entities, lineage and incident-lookup routes. */
export const routes: RouteTable = [
  { method: 'GET', path: '/api/entities/v1', scope: 'SCOPE_ENTITY_READ', operation: 'list', query: ListEntitiesRequest, response: ListEntitiesResponse, handle: listEntities },
  { method: 'GET', path: '/api/entities/v1/search', scope: 'SCOPE_ENTITY_READ', operation: 'search', query: SearchEntitiesRequest, response: ListEntitiesResponse, handle: searchEntities },
  { method: 'POST', path: '/api/entities/v1/by-id', scope: 'SCOPE_ENTITY_READ', response: BatchGetEntitiesResponse, handle: batchGetEntities },
  { method: 'POST', path: '/api/lineage/v1', scope: 'SCOPE_LINEAGE_READ', response: GetLineageResponse, handle: lineageByBody },
  { method: 'GET', path: '/api/lineage/v1', scope: 'SCOPE_LINEAGE_READ', operation: 'get_lineage', query: GetLineageQuery, handle: lineageByQuery },
  { method: 'GET', path: '/api/incidents/v1/batch', scope: 'SCOPE_INCIDENTS_READ', operation: 'batch', query: BatchIncidentsRequest, response: BatchEntityIncidentsResponse, handle: batchIncidents },
];
