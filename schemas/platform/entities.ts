/**
 * Entity identifiers (spec 2.1), the common query model (spec 2.3 and upstream facts), entity
 * types, the catalog's entity read shape, lineage (2.4) and the incident summary (2.5).
 */
import { z } from 'zod';
import { oneof, PageInfo, Pagination, protoEnum, Timestamp } from './common';
import { tolerant } from './wire';
import { setLastCheckPasses } from '../tools/zod-walk';

const s = () => z.string();
/** A string field with its help text (the JSON Schema description editors show). */
const d = (text: string) => z.string().describe(text);
const INTEGRATION = 'id of the platform integration that reads this source';
const HOST = 'database host name, without a port';

/** The eighteen identifier variants; `monitor` nests another identifier. */
export const IDENTIFIER_VARIANTS = [
  'transformCoreNode',
  'transformCloudNode',
  'warehouseProjectTable',
  'warehouseAccountTable',
  'warehouseClusterTable',
  'relationalTable',
  'mysqlLikeTable',
  'columnStoreTable',
  'orchestrationDag',
  'orchestrationTask',
  'custom',
  'dataproduct',
  'platformPath',
  'lakehouseTable',
  'queryEngineTable',
  'sqlModel',
  'sqlAudit',
  'monitor',
] as const;
export type IdentifierVariant = (typeof IDENTIFIER_VARIANTS)[number];

const portless = (h: string) => !/:\d+$/.test(h);
export const TransformCoreNodeId = z.object({ integrationId: d(INTEGRATION), nodeId: d('the transformation node id, e.g. model.shop.orders') });
export const TransformCloudNodeId = z.object({ projectId: d('transformation cloud project id'), accountId: d('transformation cloud account id'), nodeId: d('the node id, e.g. model.shop.orders') });
export const WarehouseProjectTableId = z.object({ project: d('warehouse project'), dataset: d('dataset in the project'), table: d('table or view name') });
export const WarehouseAccountTableId = z.object({ account: d('warehouse account'), database: d('database'), schema: d('schema'), table: d('table or view name') });
export const WarehouseClusterTableId = z.object({ cluster: d('warehouse cluster'), database: d('database'), schema: d('schema'), table: d('table or view name') });
/** `host` has no port. */
export const RelationalTableId = z.object({
  host: s().refine(portless, 'host must not carry a port').describe(HOST),
  database: d('database'),
  schema: d('schema'),
  table: d('table or view name'),
});
export const MysqlLikeTableId = z.object({ host: s().refine(portless, 'host must not carry a port').describe(HOST), schema: d('schema (database)'), table: d('table or view name') });
export const ColumnStoreTableId = z.object({ host: s().refine(portless, 'host must not carry a port').describe(HOST), schema: d('schema'), table: d('table or view name') });
export const OrchestrationDagId = z.object({ integrationId: d(INTEGRATION), dagId: d('DAG id') });
export const OrchestrationTaskId = z.object({ integrationId: d(INTEGRATION), dagId: d('DAG id'), taskId: d('task id within the DAG') });
export const CustomId = z.object({ id: d('id of the custom entity') });
export const DataproductId = z.object({ id: d('data product id (a UUID)') });
export const PlatformPathId = z.object({ path: d('the asset path, e.g. wh-prod::mart::orders') });
export const LakehouseTableId = z.object({ workspace: d('lakehouse workspace'), catalog: d('catalog'), schema: d('schema'), table: d('table or view name') });
export const QueryEngineTableId = z.object({ host: d('query engine host name'), catalog: d('catalog'), schema: d('schema'), table: d('table or view name') });
export const SqlModelId = z.object({ integrationId: d(INTEGRATION), fqn: d('fully qualified model name') });
export const SqlAuditId = z.object({ integrationId: d(INTEGRATION), fqn: d('fully qualified model name'), auditId: d('audit id on the model') });

/** The identifier's TypeScript shape, written once because the monitor variant recurses. */
export interface EntityIdentifier {
  transformCoreNode?: z.infer<typeof TransformCoreNodeId>;
  transformCloudNode?: z.infer<typeof TransformCloudNodeId>;
  warehouseProjectTable?: z.infer<typeof WarehouseProjectTableId>;
  warehouseAccountTable?: z.infer<typeof WarehouseAccountTableId>;
  warehouseClusterTable?: z.infer<typeof WarehouseClusterTableId>;
  relationalTable?: z.infer<typeof RelationalTableId>;
  mysqlLikeTable?: z.infer<typeof MysqlLikeTableId>;
  columnStoreTable?: z.infer<typeof ColumnStoreTableId>;
  orchestrationDag?: z.infer<typeof OrchestrationDagId>;
  orchestrationTask?: z.infer<typeof OrchestrationTaskId>;
  custom?: z.infer<typeof CustomId>;
  dataproduct?: z.infer<typeof DataproductId>;
  platformPath?: z.infer<typeof PlatformPathId>;
  lakehouseTable?: z.infer<typeof LakehouseTableId>;
  queryEngineTable?: z.infer<typeof QueryEngineTableId>;
  sqlModel?: z.infer<typeof SqlModelId>;
  sqlAudit?: z.infer<typeof SqlAuditId>;
  monitor?: MonitorId;
}
export interface MonitorId {
  monitoredId: EntityIdentifier;
  monitorId: string;
  segment?: string;
  integrationId: string;
}

/** An entity identifier: exactly one of the eighteen variants. */
export const EntityIdentifier: z.ZodType<EntityIdentifier> = z.lazy(() =>
  oneof({
    transformCoreNode: TransformCoreNodeId.describe('a node of a transformation project (core)'),
    transformCloudNode: TransformCloudNodeId.describe('a node of a transformation cloud project'),
    warehouseProjectTable: WarehouseProjectTableId.describe('a table in a project/dataset warehouse'),
    warehouseAccountTable: WarehouseAccountTableId.describe('a table in an account/database/schema warehouse'),
    warehouseClusterTable: WarehouseClusterTableId.describe('a table in a cluster/database/schema warehouse'),
    relationalTable: RelationalTableId.describe('a table in a relational database'),
    mysqlLikeTable: MysqlLikeTableId.describe('a table in a MySQL-like database'),
    columnStoreTable: ColumnStoreTableId.describe('a table in a column store'),
    orchestrationDag: OrchestrationDagId.describe('an orchestration DAG'),
    orchestrationTask: OrchestrationTaskId.describe('a task of an orchestration DAG'),
    custom: CustomId.describe('a custom entity'),
    dataproduct: DataproductId.describe('a data product'),
    platformPath: PlatformPathId.describe('an asset by its platform path'),
    lakehouseTable: LakehouseTableId.describe('a lakehouse table'),
    queryEngineTable: QueryEngineTableId.describe('a query engine table'),
    sqlModel: SqlModelId.describe('a SQL model'),
    sqlAudit: SqlAuditId.describe('an audit of a SQL model'),
    // A lazy schema is described inside its getter (describing it here would re-run the getter
    // for every clone, recursing without end); a property that $refs it shows that description.
    monitor: MonitorIdSchema,
  }).describe('an entity: exactly one identifier variant'),
) as z.ZodType<EntityIdentifier>;

export const MonitorIdSchema: z.ZodType<MonitorId> = z.lazy(() =>
  z.object({
    monitoredId: EntityIdentifier,
    monitorId: d('monitor id'),
    segment: d('segment of a segmented monitor').optional(),
    integrationId: d(INTEGRATION),
  }).describe('a monitor on another entity'),
) as z.ZodType<MonitorId>;

/** A wrapped entity reference in lineage: an identifier plus the opaque `entityId`. */
export const EntityReference = z.lazy(() => z.intersection(EntityIdentifier, z.object({ entityId: s().optional() })));
export type EntityReference = EntityIdentifier & { entityId?: string };

/**
 * Entity types (`withType { types: [{ default: n }] }`). Names are neutral, following the
 * identifier variants; numbers are upstream's. Tables end in 3 or 4, views in 5.
 */
export const EntityTypeEnum = protoEnum({
  ENTITY_TYPE_UNSPECIFIED: 0,
  ENTITY_TYPE_WAREHOUSE_PROJECT_TABLE: 103,
  ENTITY_TYPE_WAREHOUSE_PROJECT_VIEW: 105,
  ENTITY_TYPE_BI_DASHBOARD: 208,
  ENTITY_TYPE_TRANSFORM_CORE_MODEL: 301,
  ENTITY_TYPE_TRANSFORM_CORE_TEST: 302,
  ENTITY_TYPE_TRANSFORM_CORE_SOURCE: 303,
  ENTITY_TYPE_TRANSFORM_CORE_SNAPSHOT: 310,
  ENTITY_TYPE_TRANSFORM_CORE_SEED: 311,
  ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE: 503,
  ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW: 508,
  ENTITY_TYPE_WAREHOUSE_CLUSTER_TABLE: 803,
  ENTITY_TYPE_WAREHOUSE_CLUSTER_VIEW: 805,
  ENTITY_TYPE_ORCHESTRATION_DAG: 1201,
  ENTITY_TYPE_ORCHESTRATION_TASK: 1202,
  ENTITY_TYPE_COLUMN_STORE_TABLE: 1303,
  ENTITY_TYPE_COLUMN_STORE_VIEW: 1305,
  ENTITY_TYPE_MONITOR: 1403,
  ENTITY_TYPE_MONITOR_SEGMENT: 1404,
  ENTITY_TYPE_SQL_TEST: 1421,
  ENTITY_TYPE_RELATIONAL_TABLE: 1603,
  ENTITY_TYPE_RELATIONAL_VIEW: 1605,
  ENTITY_TYPE_MYSQL_LIKE_TABLE: 1703,
  ENTITY_TYPE_MYSQL_LIKE_VIEW: 1705,
  ENTITY_TYPE_LAKEHOUSE_TABLE: 1804,
  ENTITY_TYPE_LAKEHOUSE_VIEW: 1805,
  ENTITY_TYPE_SQL_MODEL_MODEL: 1902,
  ENTITY_TYPE_SQL_MODEL_AUDIT: 1906,
  ENTITY_TYPE_QUERY_ENGINE_TABLE: 2104,
  ENTITY_TYPE_QUERY_ENGINE_VIEW: 2105,
  ENTITY_TYPE_CUSTOM: 50000,
});
export const EntityTypeName = EntityTypeEnum.schema;
export type EntityTypeName = z.infer<typeof EntityTypeName>;

/** One type in `withType`: a default (built-in) type or a custom type number (50001-59999). */
const builtInType = EntityTypeEnum.schema.refine((v) => v !== 'ENTITY_TYPE_UNSPECIFIED', 'the unspecified type (0) is refused').describe('a built-in entity type, e.g. ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE');
// the refinement's own test as its sure pass: the lean validator skips zod's check (its payload) for every type read
setLastCheckPasses(builtInType, (v) => v !== 'ENTITY_TYPE_UNSPECIFIED');
export const EntityType = oneof({
  default: builtInType,
  custom: z.number().int().min(50000).max(59999).describe('a custom entity type number (50000-59999)'),
});
export type EntityType = z.infer<typeof EntityType>;

/** Query operand: UNSPECIFIED (AND), AND, OR, EXCEPT (two parts: first minus second), UPSTREAM, DOWNSTREAM. */
export const QueryOperandEnum = protoEnum({
  QUERY_OPERAND_UNSPECIFIED: 0,
  QUERY_OPERAND_AND: 1,
  QUERY_OPERAND_OR: 2,
  QUERY_OPERAND_EXCEPT: 3,
  QUERY_OPERAND_UPSTREAM: 4,
  QUERY_OPERAND_DOWNSTREAM: 5,
});
export const QueryOperand = QueryOperandEnum.schema;
export type QueryOperand = z.infer<typeof QueryOperand>;

export interface QueryPart {
  identifierList?: { identifiers: EntityIdentifier[] };
  withNameSearch?: { searchQuery: string };
  withType?: { type?: EntityType; types?: EntityType[] };
  withAnnotation?: { name: string; acceptedValue?: string; acceptedValues?: string[] };
  inFolder?: { path: string[] };
  query?: Query;
  unsupported?: { queryJson: string };
  /** Alert triggers only (spec 2.2): a list of opaque entity ids. */
  entityIds?: { entityIds: string[] };
}
export interface Query {
  parts: QueryPart[];
  operand?: QueryOperand;
}

export const QueryPart: z.ZodType<QueryPart> = z.lazy(() =>
  oneof({
    identifierList: z.object({ identifiers: z.array(EntityIdentifier).describe('the entities, each by one identifier variant') }).describe('exactly these entities'),
    withNameSearch: z.object({ searchQuery: z.string().describe('text the entity name contains') }).describe('entities whose name matches'),
    withType: z
      .object({ type: EntityType.optional().describe('one entity type'), types: z.array(EntityType).optional().describe('any of these entity types') })
      .describe('entities of a type'),
    withAnnotation: z
      .object({
        name: z.string().min(1).describe('annotation name, e.g. owner, tier, pii'),
        acceptedValue: z.string().optional().describe('only entities whose annotation has this value'),
        acceptedValues: z.array(z.string()).optional().describe('only entities whose annotation has one of these values'),
      })
      .describe('entities carrying an annotation'),
    inFolder: z.object({ path: z.array(z.string()).min(1).describe('opaque folder ids, e.g. folder-wh-prod::mart (each one whole, never split on ::); entities in any of them, deep') }).describe('entities in a folder'),
    query: Query,
    unsupported: z.object({ queryJson: z.string().describe('the query as the platform stored it, as JSON') }).describe('a query part this version cannot express (kept as read)'),
    entityIds: z.object({ entityIds: z.array(z.string()).describe('opaque entity ids') }).describe('alert triggers only: these entity ids'),
  }).describe('one part of a query: exactly one selector'),
) as unknown as z.ZodType<QueryPart>;

/** `Query { parts[], operand }`; EXCEPT takes exactly two parts. */
export const Query: z.ZodType<Query> = z.lazy(() => {
  const query = z
    .object({
      parts: z.array(QueryPart).default([]).describe('the query parts, combined by operand'),
      operand: QueryOperand.optional().describe('how parts combine: AND (default), OR, EXCEPT (first minus second), UPSTREAM, DOWNSTREAM'),
    })
    .superRefine((q, ctx) => {
      if (q.operand === 'QUERY_OPERAND_EXCEPT' && q.parts.length !== 2) {
        ctx.addIssue({ code: 'custom', path: ['parts'], message: `QUERY_OPERAND_EXCEPT takes exactly two parts (first minus second); got ${q.parts.length}` });
      }
    })
    .describe('a query over the catalog: parts combined by operand');
  // sure pass of the refinement: no EXCEPT, nothing to count (the lean validator skips zod's check for every query read)
  setLastCheckPasses(query, (q) => !!q && typeof q === 'object' && (q as { operand?: unknown }).operand !== 'QUERY_OPERAND_EXCEPT');
  return query;
}) as unknown as z.ZodType<Query>;
// Names of the recursive schemas in generated JSON Schema (`definitions`).
z.globalRegistry.add(Query, { id: 'Query' });
z.globalRegistry.add(EntityIdentifier, { id: 'EntityIdentifier' });

/** An annotation on a catalog entity (`owner=team-a`, `tier=1`, `pii`). */
export const Annotation = z.object({ name: z.string(), value: z.string().optional() });
export type Annotation = z.infer<typeof Annotation>;

/**
 * A catalog entity as the entities read service returns it. The spec does not show the
 * entity's fields; this is the emulator's and client's shared shape.
 */
export const Entity = z.object({
  /** Opaque entity id (what alert `entityIds` parts and lineage `entityId` name). */
  entityId: z.string(),
  id: EntityIdentifier,
  /** Stable asset path, e.g. `wh-prod::mart::orders`. */
  path: z.string(),
  name: z.string(),
  type: EntityTypeName,
  /** Data platform, e.g. `warehouse`, `transform`, `orchestration`. */
  platform: z.string().optional(),
  /** Folder path segments, e.g. `['folder-wh-prod', 'mart']`. */
  folder: z.array(z.string()).default([]),
  annotations: z.array(Annotation).default([]),
  tags: z.array(z.string()).default([]),
  description: z.string().optional(),
});
export type Entity = z.infer<typeof Entity>;

export const ListEntitiesRequest = z.object({ pagination: Pagination.optional() });
/**
 * Entity reads decode each entity on its own ({@link tolerant}): an identifier variant or an
 * entity-type number this version does not know marks that entity (schemas/platform/wire.ts
 * `unmodelledOf`) and keeps it as read; it never fails the whole response (wire-facts,
 * decisions: tolerant reads).
 */
export const ListEntitiesResponse = z.object({ entities: z.array(tolerant(Entity)).default([]), pageInfo: PageInfo.optional() });
export type ListEntitiesResponse = z.infer<typeof ListEntitiesResponse>;
export const SearchEntitiesResponse = ListEntitiesResponse;
export const BatchGetEntitiesRequest = z.object({ ids: z.array(EntityIdentifier) });
export const BatchGetEntitiesResponse = z.object({ entities: z.array(tolerant(Entity)).default([]) });
export type BatchGetEntitiesResponse = z.infer<typeof BatchGetEntitiesResponse>;

// ---- Queries service (TranslateResolverQl, ResolveQuery) ----

export const TranslateResolverQlRequest = z.object({ resolverQl: z.string() });
export const TranslateResolverQlResponse = z.object({ query: Query, renderedResolverQl: z.string() });
export type TranslateResolverQlResponse = z.infer<typeof TranslateResolverQlResponse>;
export const ResolveQueryRequest = oneof({ resolverQl: z.string(), query: Query }).and(z.object({ pagination: Pagination.optional() }));
export type ResolveQueryRequest = z.infer<typeof ResolveQueryRequest>;
export const ResolveQueryResponse = z.object({
  /** Each identifier on its own: a variant this version does not know is kept as read, marked. */
  entityIds: z.array(tolerant(EntityIdentifier)).default([]),
  pageInfo: PageInfo.optional(),
  renderedResolverQl: z.string().optional(),
});
export type ResolveQueryResponse = z.infer<typeof ResolveQueryResponse>;

// ---- Lineage (2.4, 4.2) ----

/** Values beyond UNSPECIFIED are not shown; the names past 0 are ours. */
export const NodePositionEnum = protoEnum({
  NODE_POSITION_UNSPECIFIED: 0,
  NODE_POSITION_START_NODE: 1,
  NODE_POSITION_UPSTREAM: 2,
  NODE_POSITION_DOWNSTREAM: 3,
});
export const CllStateEnum = protoEnum({ CLL_STATE_UNSPECIFIED: 0, CLL_STATE_OK: 1, CLL_STATE_PARTIAL: 2, CLL_STATE_FAILED: 3 });
export const LineageDirectionEnum = protoEnum({
  LINEAGE_DIRECTION_UNSPECIFIED: 0,
  LINEAGE_DIRECTION_UPSTREAM: 1,
  LINEAGE_DIRECTION_DOWNSTREAM: 2,
  LINEAGE_DIRECTION_UPSTREAM_DOWNSTREAM: 3,
});

export const LineageNode = z.object({
  ids: z.array(EntityReference),
  position: NodePositionEnum.schema.optional(),
  cllDetails: z
    .object({
      columns: z.array(z.object({ columnId: z.string(), name: z.string(), nativeType: z.string().optional() })).default([]),
      cllState: CllStateEnum.schema.optional(),
      cllMessages: z.array(z.string()).default([]),
    })
    .optional(),
});
export const Lineage = z.object({
  /** Each node on its own (kept in place: dependencies index into this list), marked when it carries something unknown. */
  nodes: z.array(tolerant(LineageNode)).default([]),
  nodeDependencies: z.array(z.object({ sourceNodeIdx: z.number().int(), targetNodeIdx: z.number().int() })).default([]),
  isCll: z.boolean().optional(),
  columnDependencies: z
    .array(
      z.object({
        sourceNodeIdx: z.number().int(),
        sourceNodeColumnId: z.string(),
        targetNodeIdx: z.number().int(),
        targetNodeColumnId: z.string(),
      }),
    )
    .default([]),
});
export type Lineage = z.infer<typeof Lineage>;

export const GetLineageRequest = z.object({
  startPoint: oneof({
    entities: z.object({ entities: z.array(EntityReference) }),
    entityColumns: z.object({ id: EntityIdentifier, columnNames: z.array(z.string()) }),
  }),
  maxDepth: z.number().int().optional(),
  lineageDirection: LineageDirectionEnum.schema.optional(),
});
export type GetLineageRequest = z.infer<typeof GetLineageRequest>;
export const GetLineageResponse = z.object({ lineage: Lineage });

// ---- Incident summary (2.5, 4.7) ----

export const IncidentSummary = z.object({
  id: z.string(),
  url: z.string().optional(),
  name: z.string().optional(),
  createdBy: z.string().optional(),
  createdAt: Timestamp.optional(),
  updatedBy: z.string().optional(),
  updatedAt: Timestamp.optional(),
  isResolved: z.boolean().optional(),
});
export type IncidentSummary = z.infer<typeof IncidentSummary>;
export const EntityIncidents = z.object({
  id: EntityIdentifier,
  entityOpenIncidents: z.array(IncidentSummary).default([]),
  upstreamOpenIncidents: z.array(IncidentSummary).default([]),
});
export const BatchEntityIncidentsResponse = z.object({ responses: z.array(EntityIncidents).default([]) });
