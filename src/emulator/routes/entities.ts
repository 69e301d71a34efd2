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
import { BATCH_LIMIT } from '../../../schemas/common';
import {
  BatchGetEntitiesRequest,
  EntityIdentifier,
  GetLineageRequest,
  LineageDirectionEnum,
  NodePositionEnum,
  type BatchGetEntitiesResponse,
  type Entity,
  type EntityReference,
  type Lineage,
  type ListEntitiesResponse,
} from '../../../schemas/entities';
import type { EmulatorApp, RouteContext } from '../app';
import type { Catalog, LineageDirection } from '../catalog';
import { invalidArgument, notFound, parseBody, zodViolations } from '../errors';
import { evaluateQuery } from '../query-eval';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../store';

/** One page of entities plus its pageInfo. */
export interface EntityPage {
  items: Entity[];
  pageInfo: { count: number; lastId: string };
}

/** Reads `pagination.cursor` / `pagination.pageSize` from a GET's query string. */
export function entityPagingParams(ctx: RouteContext): { cursor?: string; pageSize?: number } {
  const cursor = ctx.query.get('pagination.cursor') || ctx.query.get('cursor') || undefined;
  const raw = ctx.query.get('pagination.pageSize') || ctx.query.get('pageSize') || undefined;
  if (raw !== undefined && !/^\d+$/.test(raw)) {
    throw invalidArgument('invalid list request', [{ field: 'pagination.pageSize', ruleId: 'list.pagination.page_size', message: `must be a non-negative integer; got "${raw}"` }]);
  }
  return { cursor, pageSize: raw === undefined ? undefined : Number(raw) };
}

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

/** Sets `obj[a][b]...` along a dotted path. */
function setPath(obj: Record<string, unknown>, path: string[], value: string): void {
  let cur = obj;
  for (let i = 0; i < path.length - 1; i++) {
    const k = path[i];
    if (typeof cur[k] !== 'object' || cur[k] === null) cur[k] = {};
    cur = cur[k] as Record<string, unknown>;
  }
  cur[path[path.length - 1]] = value;
}

/** The GET form of GetLineage (spec 4.2): flattened `startPoint.entityColumns.id.<variant>.<field>`. */
function lineageRequestFromQuery(ctx: RouteContext): z.output<typeof GetLineageRequest> {
  const PREFIX = 'startPoint.entityColumns.id.';
  const id: Record<string, unknown> = {};
  for (const [k, v] of ctx.query) if (k.startsWith(PREFIX)) setPath(id, k.slice(PREFIX.length).split('.'), v);
  const parsed = EntityIdentifier.safeParse(id);
  if (!parsed.success) {
    throw invalidArgument(
      'invalid get_lineage request: give the start entity as startPoint.entityColumns.id.<variant>.<field> query parameters',
      zodViolations(parsed.error, 'get_lineage').map((v) => ({ ...v, field: v.field ? `startPoint.entityColumns.id.${v.field}` : 'startPoint.entityColumns.id' })),
    );
  }
  const depth = ctx.query.get('maxDepth');
  if (depth !== null && depth !== '' && !/^-?\d+$/.test(depth)) {
    throw invalidArgument('maxDepth must be an integer', [{ field: 'maxDepth', ruleId: 'get_lineage.max_depth', message: 'must be an integer' }]);
  }
  const dir = ctx.query.get('lineageDirection');
  return {
    startPoint: { entityColumns: { id: parsed.data, columnNames: ctx.query.getAll('startPoint.entityColumns.columnNames') } },
    maxDepth: depth ? Number(depth) : undefined,
    lineageDirection: dir ? lineageDirectionOf(dir) : undefined,
  };
}

/** A lineage with its enum fields as integers (the GET response form). */
function withIntegerEnums(l: Lineage): unknown {
  return {
    ...l,
    nodes: l.nodes.map((n) => ({ ...n, position: n.position === undefined ? undefined : NodePositionEnum.numbers[n.position] })),
  };
}

/** Registers the entity, lineage and incident-lookup routes. */
export function register(app: EmulatorApp): void {
  app.route('GET', '/api/entities/v1', { scope: 'SCOPE_ENTITY_READ' }, (ctx): ListEntitiesResponse => {
    const { cursor, pageSize } = entityPagingParams(ctx);
    const page = pageEntities(ctx.catalog, ctx.catalog.entities, cursor, pageSize);
    return { entities: page.items, pageInfo: page.pageInfo };
  });

  app.route('GET', '/api/entities/v1/search', { scope: 'SCOPE_ENTITY_READ' }, (ctx): ListEntitiesResponse => {
    const searchQuery = ctx.query.get('searchQuery') ?? ctx.query.get('query') ?? '';
    const { cursor, pageSize } = entityPagingParams(ctx);
    const hits = evaluateQuery(ctx.catalog, { parts: [{ withNameSearch: { searchQuery } }] });
    const page = pageEntities(ctx.catalog, hits, cursor, pageSize);
    return { entities: page.items, pageInfo: page.pageInfo };
  });

  app.route('POST', '/api/entities/v1/by-id', { scope: 'SCOPE_ENTITY_READ' }, (ctx): BatchGetEntitiesResponse => {
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
  });

  app.route('POST', '/api/lineage/v1', { scope: 'SCOPE_LINEAGE_READ' }, (ctx) => {
    const req = parseBody(GetLineageRequest, ctx.body, 'get_lineage');
    return { lineage: lineageOf(ctx.catalog, req) };
  });

  app.route('GET', '/api/lineage/v1', { scope: 'SCOPE_LINEAGE_READ' }, (ctx) => {
    return { lineage: withIntegerEnums(lineageOf(ctx.catalog, lineageRequestFromQuery(ctx))) };
  });

  app.route('GET', '/api/incidents/v1/batch', { scope: 'SCOPE_INCIDENTS_READ' }, (ctx) => {
    const ids = ctx.query.getAll('incidentIds');
    if (ids.length > BATCH_LIMIT) {
      throw invalidArgument(`at most ${BATCH_LIMIT} incident ids per batch; got ${ids.length}`, [{ field: 'incidentIds', ruleId: 'batch.incident_ids.max_items', message: `at most ${BATCH_LIMIT} ids` }]);
    }
    // The emulator raises no incidents: no entity has open incidents to report.
    return { responses: [] };
  });
}
