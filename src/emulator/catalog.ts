/**
 * The emulator's entity catalog: seeded entities (tables, views, models, DAGs, tasks,
 * dashboards), folders, annotations and lineage, with the indexes the query evaluator, the
 * entities service and the lineage service need.
 *
 * Deterministic: no randomness, no clock. Two builds of the same seed and size are deep-equal.
 * Entity ids are derived from the identifier ({@link entityIdOf}), so an entity keeps its id
 * when the catalog grows.
 */
import { createHash } from 'node:crypto';
import type { Entity, EntityIdentifier, EntityReference, EntityTypeName, Lineage } from '../../schemas/platform/entities';
import { LineageDirectionEnum } from '../../schemas/platform/entities';

/** A lineage edge between two entities, by `entityId`: data flows from `upstream` to `downstream`. */
export interface LineageEdge {
  upstream: string;
  downstream: string;
}

/** A folder of the catalog and how many entities it holds, deep. */
export interface CatalogFolder {
  /** Segments, e.g. `['folder-wh-prod', 'mart']`. */
  path: string[];
  /** The segments joined with `::`, e.g. `folder-wh-prod::mart`. */
  key: string;
  entityCount: number;
}

/** A lineage direction name (`LINEAGE_DIRECTION_*`). */
export type LineageDirection = (typeof LineageDirectionEnum.values)[number];

/** A read-only, indexed catalog. */
export interface Catalog {
  /** Every entity, sorted by path. An entity's position here is its index ({@link Catalog.indexOf}). */
  readonly entities: readonly Entity[];
  /** Every edge, sorted by (upstream path, downstream path). */
  readonly edges: readonly LineageEdge[];
  /** Every folder prefix that holds an entity, sorted by key. */
  readonly folders: readonly CatalogFolder[];
  byPath(path: string): Entity | undefined;
  /** By identifier (an `entityId` on a reference is ignored); see {@link identifierKey}. */
  byKey(id: EntityIdentifier | EntityReference): Entity | undefined;
  byEntityId(entityId: string): Entity | undefined;
  /** Position of an entity of this catalog in {@link Catalog.entities}, or -1. */
  indexOf(entity: Entity): number;
  /** Indexes of the entities in a folder, deep (the folder path is a prefix of theirs), ascending. */
  folderIndexes(path: readonly string[]): readonly number[];
  /** Direct upstream / downstream entity indexes of the entity at `index`, ascending. */
  parentIndexes(index: number): readonly number[];
  childIndexes(index: number): readonly number[];
  /** Entities upstream of `entity` within `depth` hops (default: unlimited), sorted by path, itself excluded. */
  upstream(entity: Entity, depth?: number): Entity[];
  /** Entities downstream of `entity` within `depth` hops (default: unlimited), sorted by path, itself excluded. */
  downstream(entity: Entity, depth?: number): Entity[];
  /**
   * The spec 2.4 lineage graph around `start`. Nodes: the start entities first
   * (`NODE_POSITION_START_NODE`, by path), then the others breadth-first by distance and path
   * (`NODE_POSITION_UPSTREAM` / `NODE_POSITION_DOWNSTREAM`); each node's `ids` holds the
   * identifier with its `entityId`. `nodeDependencies` are the traversed edges (source =
   * upstream), sorted. `maxDepth` undefined or <= 0 means unlimited; direction UNSPECIFIED
   * means both. No column-level lineage (`isCll: false`).
   */
  lineage(start: Entity | readonly Entity[], direction?: LineageDirection, maxDepth?: number): Lineage;
}

/** The raw material of a catalog. */
export interface CatalogData {
  entities: Entity[];
  edges: LineageEdge[];
}

// ---------------------------------------------------------------------------------------------
// Keys

function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as Record<string, unknown>)
      .filter((k) => (v as Record<string, unknown>)[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/**
 * The canonical key of an identifier: JSON with sorted keys, undefined fields and a
 * reference's `entityId` dropped. Two identifiers naming the same entity have the same key;
 * values are compared exactly (no case folding).
 */
export function identifierKey(id: EntityIdentifier | EntityReference): string {
  const { entityId: _ignored, ...rest } = id as EntityReference;
  return sortedJson(rest);
}

/** The opaque entity id the catalog gives an identifier: `ent-` and 16 hex digits of its key's SHA-256. */
export function entityIdOf(id: EntityIdentifier): string {
  return `ent-${createHash('sha256').update(identifierKey(id)).digest('hex').slice(0, 16)}`;
}

// ---------------------------------------------------------------------------------------------
// Indexed catalog

const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Indexes entities and edges into a {@link Catalog}. Entities are sorted by path; duplicate
 * paths, entity ids or identifiers, and edges naming unknown entities, throw (a bug in the seed).
 */
export function createCatalog(data: CatalogData): Catalog {
  const entities = [...data.entities].sort((a, b) => cmp(a.path, b.path));
  const n = entities.length;
  const pathIdx = new Map<string, number>();
  const idIdx = new Map<string, number>();
  const keyIdx = new Map<string, number>();
  const folderIdx = new Map<string, number[]>();
  entities.forEach((e, i) => {
    if (pathIdx.has(e.path)) throw new Error(`catalog: duplicate path ${e.path}`);
    if (idIdx.has(e.entityId)) throw new Error(`catalog: duplicate entityId ${e.entityId} (${e.path})`);
    const key = identifierKey(e.id);
    if (keyIdx.has(key)) throw new Error(`catalog: duplicate identifier ${key} (${e.path})`);
    pathIdx.set(e.path, i);
    idIdx.set(e.entityId, i);
    keyIdx.set(key, i);
    for (let d = 1; d <= e.folder.length; d++) {
      const fk = e.folder.slice(0, d).join('::');
      let list = folderIdx.get(fk);
      if (!list) folderIdx.set(fk, (list = []));
      list.push(i);
    }
  });
  const parents: number[][] = Array.from({ length: n }, () => []);
  const children: number[][] = Array.from({ length: n }, () => []);
  const seenEdge = new Set<string>();
  const edges: LineageEdge[] = [];
  for (const edge of data.edges) {
    const u = idIdx.get(edge.upstream);
    const d = idIdx.get(edge.downstream);
    if (u === undefined || d === undefined) throw new Error(`catalog: edge names an unknown entity: ${edge.upstream} -> ${edge.downstream}`);
    const k = `${u}>${d}`;
    if (seenEdge.has(k) || u === d) continue;
    seenEdge.add(k);
    parents[d].push(u);
    children[u].push(d);
    edges.push({ upstream: edge.upstream, downstream: edge.downstream });
  }
  for (const l of parents) l.sort((a, b) => a - b);
  for (const l of children) l.sort((a, b) => a - b);
  edges.sort((a, b) => idIdx.get(a.upstream)! - idIdx.get(b.upstream)! || idIdx.get(a.downstream)! - idIdx.get(b.downstream)!);
  const folders: CatalogFolder[] = [...folderIdx.entries()]
    .map(([key, list]) => ({ key, path: key.split('::'), entityCount: list.length }))
    .sort((a, b) => cmp(a.key, b.key));

  const indexOf = (e: Entity): number => {
    const i = idIdx.get(e.entityId);
    return i !== undefined && entities[i] === e ? i : (i ?? -1);
  };

  /** BFS from `starts`; returns (index -> distance) in discovery order plus traversed edges. */
  const walk = (starts: number[], next: number[][], maxDepth: number, onEdge?: (from: number, to: number) => void): Map<number, number> => {
    const dist = new Map<number, number>();
    for (const s of starts) dist.set(s, 0);
    let frontier = [...starts].sort((a, b) => a - b);
    let depth = 0;
    while (frontier.length && depth < maxDepth) {
      depth++;
      const nextFrontier: number[] = [];
      for (const f of frontier) {
        for (const t of next[f]) {
          onEdge?.(f, t);
          if (!dist.has(t)) {
            dist.set(t, depth);
            nextFrontier.push(t);
          }
        }
      }
      frontier = nextFrontier.sort((a, b) => a - b);
    }
    return dist;
  };

  const closure = (e: Entity, next: number[][], depth: number | undefined): Entity[] => {
    const i = indexOf(e);
    if (i < 0) return [];
    const dist = walk([i], next, depth === undefined || depth <= 0 ? Infinity : depth);
    return [...dist.keys()].filter((k) => k !== i).sort((a, b) => a - b).map((k) => entities[k]);
  };

  return {
    entities,
    edges,
    folders,
    byPath: (p) => {
      const i = pathIdx.get(p);
      return i === undefined ? undefined : entities[i];
    },
    byKey: (id) => {
      const i = keyIdx.get(identifierKey(id));
      return i === undefined ? undefined : entities[i];
    },
    byEntityId: (id) => {
      const i = idIdx.get(id);
      return i === undefined ? undefined : entities[i];
    },
    indexOf,
    folderIndexes: (path) => folderIdx.get(path.join('::')) ?? [],
    parentIndexes: (i) => parents[i] ?? [],
    childIndexes: (i) => children[i] ?? [],
    upstream: (e, depth) => closure(e, parents, depth),
    downstream: (e, depth) => closure(e, children, depth),
    lineage: (start, direction = 'LINEAGE_DIRECTION_UPSTREAM_DOWNSTREAM', maxDepth) => {
      const starts = [...new Set((Array.isArray(start) ? start : [start as Entity]).map(indexOf).filter((i) => i >= 0))].sort((a, b) => a - b);
      const limit = maxDepth === undefined || maxDepth <= 0 ? Infinity : maxDepth;
      const up = direction !== 'LINEAGE_DIRECTION_DOWNSTREAM';
      const down = direction !== 'LINEAGE_DIRECTION_UPSTREAM';
      const edgeSet = new Set<string>();
      const edgeList: [number, number][] = [];
      const addEdge = (u: number, d: number) => {
        const k = `${u}>${d}`;
        if (!edgeSet.has(k)) {
          edgeSet.add(k);
          edgeList.push([u, d]);
        }
      };
      const upDist = up ? walk(starts, parents, limit, (from, to) => addEdge(to, from)) : new Map<number, number>();
      const downDist = down ? walk(starts, children, limit, (from, to) => addEdge(from, to)) : new Map<number, number>();
      const startSet = new Set(starts);
      const byDistance = (m: Map<number, number>) =>
        [...m.entries()].filter(([i]) => !startSet.has(i)).sort((a, b) => a[1] - b[1] || a[0] - b[0]).map(([i]) => i);
      const ups = byDistance(upDist);
      const downs = byDistance(downDist).filter((i) => !upDist.has(i));
      const order = [...starts, ...ups, ...downs];
      const pos = new Map(order.map((i, k) => [i, k]));
      const node = (i: number, position: 'NODE_POSITION_START_NODE' | 'NODE_POSITION_UPSTREAM' | 'NODE_POSITION_DOWNSTREAM') => ({
        ids: [{ ...entities[i].id, entityId: entities[i].entityId }],
        position,
      });
      return {
        nodes: [
          ...starts.map((i) => node(i, 'NODE_POSITION_START_NODE')),
          ...ups.map((i) => node(i, 'NODE_POSITION_UPSTREAM')),
          ...downs.map((i) => node(i, 'NODE_POSITION_DOWNSTREAM')),
        ],
        nodeDependencies: edgeList
          .map(([u, d]) => ({ sourceNodeIdx: pos.get(u)!, targetNodeIdx: pos.get(d)! }))
          .sort((a, b) => a.sourceNodeIdx - b.sourceNodeIdx || a.targetNodeIdx - b.targetNodeIdx),
        isCll: false,
        columnDependencies: [],
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// The demo seed: a retail analytics workspace

/** Warehouse account of the demo; databases `wh-prod` and `wh-dev` live in it. */
export const DEMO_ACCOUNT = 'acme-retail';
/** transformCore integration of the demo. */
export const DEMO_TRANSFORM_INTEGRATION = 'transform-core-prod';
/** Orchestration integration of the demo. */
export const DEMO_ORCHESTRATION_INTEGRATION = 'orchestrator-prod';

interface RawSpec {
  name: string;
  team: string;
  tier: 1 | 2 | 3;
  pii?: boolean;
  dag: string;
}

const RAW: readonly RawSpec[] = [
  { name: 'orders', team: 'commerce', tier: 1, dag: 'ingest_shop_db' },
  { name: 'order_items', team: 'commerce', tier: 1, dag: 'ingest_shop_db' },
  { name: 'customers', team: 'crm', tier: 1, pii: true, dag: 'ingest_shop_db' },
  { name: 'addresses', team: 'crm', tier: 2, pii: true, dag: 'ingest_shop_db' },
  { name: 'payments', team: 'finance', tier: 1, pii: true, dag: 'ingest_shop_db' },
  { name: 'refunds', team: 'finance', tier: 2, dag: 'ingest_shop_db' },
  { name: 'returns', team: 'commerce', tier: 2, dag: 'ingest_shop_db' },
  { name: 'carts', team: 'commerce', tier: 3, dag: 'ingest_shop_db' },
  { name: 'cart_items', team: 'commerce', tier: 3, dag: 'ingest_shop_db' },
  { name: 'gift_cards', team: 'finance', tier: 3, dag: 'ingest_shop_db' },
  { name: 'products', team: 'merchandising', tier: 1, dag: 'ingest_erp' },
  { name: 'product_categories', team: 'merchandising', tier: 3, dag: 'ingest_erp' },
  { name: 'inventory', team: 'supply-chain', tier: 1, dag: 'ingest_erp' },
  { name: 'warehouses', team: 'supply-chain', tier: 3, dag: 'ingest_erp' },
  { name: 'suppliers', team: 'supply-chain', tier: 2, dag: 'ingest_erp' },
  { name: 'shipments', team: 'supply-chain', tier: 2, dag: 'ingest_erp' },
  { name: 'stores', team: 'retail-ops', tier: 2, dag: 'ingest_erp' },
  { name: 'employees', team: 'retail-ops', tier: 3, pii: true, dag: 'ingest_erp' },
  { name: 'exchange_rates', team: 'finance', tier: 3, dag: 'ingest_erp' },
  { name: 'promotions', team: 'marketing', tier: 2, dag: 'ingest_marketing' },
  { name: 'coupons', team: 'marketing', tier: 3, dag: 'ingest_marketing' },
  { name: 'marketing_spend', team: 'marketing', tier: 2, dag: 'ingest_marketing' },
  { name: 'loyalty_members', team: 'crm', tier: 2, pii: true, dag: 'ingest_marketing' },
  { name: 'reviews', team: 'merchandising', tier: 3, dag: 'ingest_marketing' },
  { name: 'events', team: 'analytics', tier: 2, pii: true, dag: 'ingest_events' },
  { name: 'sessions', team: 'analytics', tier: 2, pii: true, dag: 'ingest_events' },
  { name: 'web_pageviews', team: 'analytics', tier: 3, dag: 'ingest_events' },
];

interface MartSpec {
  name: string;
  /** Upstream: raw names (read through their staging views) or other marts. */
  from: readonly string[];
  team: string;
  tier: 1 | 2 | 3;
  pii?: boolean;
  view?: boolean;
  seed?: string;
}

const MARTS: readonly MartSpec[] = [
  { name: 'fct_orders', from: ['orders', 'order_items', 'payments', 'promotions'], team: 'commerce', tier: 1 },
  { name: 'fct_order_items', from: ['order_items', 'products'], team: 'commerce', tier: 1 },
  { name: 'fct_payments', from: ['payments', 'exchange_rates'], team: 'finance', tier: 1 },
  { name: 'fct_refunds', from: ['refunds', 'payments', 'returns'], team: 'finance', tier: 2 },
  { name: 'fct_shipments', from: ['shipments', 'warehouses', 'orders'], team: 'supply-chain', tier: 2 },
  { name: 'fct_sessions', from: ['sessions', 'events', 'web_pageviews'], team: 'analytics', tier: 2, pii: true },
  { name: 'fct_inventory_snapshots', from: ['inventory', 'products', 'warehouses'], team: 'supply-chain', tier: 1 },
  { name: 'fct_cart_abandonment', from: ['carts', 'cart_items', 'sessions'], team: 'analytics', tier: 3 },
  { name: 'fct_reviews', from: ['reviews', 'products'], team: 'merchandising', tier: 3 },
  { name: 'dim_customers', from: ['customers', 'addresses', 'loyalty_members'], team: 'crm', tier: 1, pii: true },
  { name: 'dim_products', from: ['products', 'product_categories', 'suppliers'], team: 'merchandising', tier: 1 },
  { name: 'dim_stores', from: ['stores', 'employees'], team: 'retail-ops', tier: 2 },
  { name: 'dim_promotions', from: ['promotions', 'coupons'], team: 'marketing', tier: 2 },
  { name: 'dim_suppliers', from: ['suppliers'], team: 'supply-chain', tier: 3 },
  { name: 'dim_dates', from: [], team: 'platform', tier: 2, seed: 'calendar' },
  { name: 'agg_daily_revenue', from: ['fct_orders', 'fct_refunds'], team: 'finance', tier: 1, view: true },
  { name: 'agg_customer_ltv', from: ['fct_orders', 'dim_customers'], team: 'crm', tier: 2, pii: true, view: true },
  { name: 'agg_product_performance', from: ['fct_order_items', 'dim_products', 'fct_reviews'], team: 'merchandising', tier: 2, view: true },
  { name: 'agg_marketing_roi', from: ['marketing_spend', 'fct_orders', 'dim_promotions'], team: 'marketing', tier: 2, view: true },
  { name: 'agg_inventory_turnover', from: ['fct_inventory_snapshots', 'fct_order_items', 'dim_dates'], team: 'supply-chain', tier: 2, view: true },
  { name: 'agg_store_sales', from: ['fct_orders', 'dim_stores', 'dim_dates'], team: 'retail-ops', tier: 3, view: true },
];

const SNAPSHOTS: readonly { name: string; of: string }[] = [
  { name: 'snap_customers', of: 'customers' },
  { name: 'snap_products', of: 'products' },
  { name: 'snap_inventory', of: 'inventory' },
];

const DASHBOARDS: readonly { name: string; from: readonly string[]; team: string; tier: 1 | 2 | 3 }[] = [
  { name: 'revenue_overview', from: ['agg_daily_revenue', 'fct_orders'], team: 'finance', tier: 1 },
  { name: 'customer_360', from: ['dim_customers', 'agg_customer_ltv'], team: 'crm', tier: 2 },
  { name: 'merchandising_review', from: ['agg_product_performance'], team: 'merchandising', tier: 2 },
  { name: 'supply_chain_health', from: ['agg_inventory_turnover', 'fct_shipments'], team: 'supply-chain', tier: 2 },
  { name: 'marketing_performance', from: ['agg_marketing_roi'], team: 'marketing', tier: 3 },
  { name: 'store_operations', from: ['agg_store_sales', 'dim_stores'], team: 'retail-ops', tier: 3 },
];

const TRANSFORM_DAGS: readonly { dag: string; tasks: readonly string[] }[] = [
  { dag: 'transform_daily', tasks: ['run_staging', 'run_marts', 'test_marts', 'run_snapshots'] },
  { dag: 'publish_reports', tasks: ['refresh_dashboards', 'export_finance'] },
];

/** Tables copied into the development database `wh-dev`. */
const DEV_TABLES: readonly string[] = ['orders', 'order_items', 'customers', 'payments', 'products', 'inventory', 'events', 'sessions'];

/** Collects entities and edges; edges are declared by path and resolved at the end. */
class Builder {
  readonly entities: Entity[] = [];
  readonly edgePaths: [string, string][] = [];

  add(e: {
    id: EntityIdentifier;
    path: string;
    name: string;
    type: EntityTypeName;
    platform: string;
    folder: string[];
    team: string;
    tier: number;
    pii?: boolean;
    tags: string[];
    description: string;
  }): void {
    const annotations = [{ name: 'owner', value: `team-${e.team}` }, ...(e.pii ? [{ name: 'pii', value: 'true' }] : []), { name: 'tier', value: String(e.tier) }];
    this.entities.push({
      entityId: entityIdOf(e.id),
      id: e.id,
      path: e.path,
      name: e.name,
      type: e.type,
      platform: e.platform,
      folder: e.folder,
      annotations,
      tags: [...new Set(e.tags)].sort(),
      description: e.description,
    });
  }

  edge(upstreamPath: string, downstreamPath: string): void {
    this.edgePaths.push([upstreamPath, downstreamPath]);
  }

  table(db: string, schema: string, table: string, o: { team: string; tier: number; pii?: boolean; view?: boolean; tags: string[]; description: string }): string {
    const path = `${db}::${schema}::${table}`;
    this.add({
      id: { warehouseAccountTable: { account: DEMO_ACCOUNT, database: db, schema, table } },
      path,
      name: table,
      type: o.view ? 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW' : 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE',
      platform: 'warehouse',
      folder: [`folder-${db}`, schema],
      ...o,
    });
    return path;
  }

  node(kind: 'model' | 'source' | 'test' | 'seed' | 'snapshot', name: string, sub: string[], o: { team: string; tier: number; pii?: boolean; tags: string[]; description: string }): string {
    const types = {
      model: 'ENTITY_TYPE_TRANSFORM_CORE_MODEL',
      source: 'ENTITY_TYPE_TRANSFORM_CORE_SOURCE',
      test: 'ENTITY_TYPE_TRANSFORM_CORE_TEST',
      seed: 'ENTITY_TYPE_TRANSFORM_CORE_SEED',
      snapshot: 'ENTITY_TYPE_TRANSFORM_CORE_SNAPSHOT',
    } as const;
    const path = ['transform-core', 'retail', `${kind}s`, ...sub, name].join('::');
    this.add({
      id: { transformCoreNode: { integrationId: DEMO_TRANSFORM_INTEGRATION, nodeId: [kind, 'retail', ...sub, name].join('.') } },
      path,
      name,
      type: types[kind],
      platform: 'transform',
      folder: ['folder-transform-core', 'retail', `${kind}s`, ...sub],
      ...o,
    });
    return path;
  }

  dag(dag: string, team: string, tier: number, tags: string[]): string {
    const path = `orchestrator::${dag}`;
    this.add({
      id: { orchestrationDag: { integrationId: DEMO_ORCHESTRATION_INTEGRATION, dagId: dag } },
      path,
      name: dag,
      type: 'ENTITY_TYPE_ORCHESTRATION_DAG',
      platform: 'orchestration',
      folder: ['folder-orchestrator'],
      team,
      tier,
      tags,
      description: `Orchestration DAG ${dag}.`,
    });
    return path;
  }

  task(dag: string, task: string, team: string, tier: number, tags: string[]): string {
    const path = `orchestrator::${dag}::${task}`;
    this.add({
      id: { orchestrationTask: { integrationId: DEMO_ORCHESTRATION_INTEGRATION, dagId: dag, taskId: task } },
      path,
      name: task,
      type: 'ENTITY_TYPE_ORCHESTRATION_TASK',
      platform: 'orchestration',
      folder: ['folder-orchestrator', dag],
      team,
      tier,
      tags,
      description: `Task ${task} of DAG ${dag}.`,
    });
    return path;
  }

  dashboard(name: string, team: string, tier: number): string {
    const path = `bi::retail::${name}`;
    this.add({
      id: { platformPath: { path } },
      path,
      name,
      type: 'ENTITY_TYPE_BI_DASHBOARD',
      platform: 'bi',
      folder: ['folder-bi', 'retail'],
      team,
      tier,
      tags: ['dashboard', team],
      description: `Dashboard ${name.replace(/_/g, ' ')}.`,
    });
    return path;
  }

  build(size?: number): Catalog {
    let entities = this.entities;
    if (size !== undefined && size < entities.length) entities = entities.slice(0, Math.max(0, size));
    const byPath = new Map(entities.map((e) => [e.path, e.entityId]));
    const edges: LineageEdge[] = [];
    for (const [u, d] of this.edgePaths) {
      const a = byPath.get(u);
      const b = byPath.get(d);
      if (a !== undefined && b !== undefined) edges.push({ upstream: a, downstream: b });
      else if (size === undefined) throw new Error(`catalog seed: edge names an unknown path: ${u} -> ${d}`);
    }
    return createCatalog({ entities, edges });
  }
}

function seedDemo(b: Builder): void {
  const rawByName = new Map(RAW.map((r) => [r.name, r]));
  const stagingView = (name: string) => `wh-prod::staging::stg_${name}`;
  const martTable = (name: string) => `wh-prod::mart::${name}`;
  const dags = [...new Set(RAW.map((r) => r.dag))];
  for (const dag of dags) b.dag(dag, 'platform', 1, ['ingestion']);

  for (const r of RAW) {
    const o = { team: r.team, tier: r.tier, pii: r.pii };
    const raw = b.table('wh-prod', 'raw', r.name, { ...o, tags: ['raw', r.team], description: `Raw ${r.name.replace(/_/g, ' ')} as loaded from the source system.` });
    const task = b.task(r.dag, `load_${r.name}`, 'platform', r.tier, ['ingestion']);
    b.edge(task, raw);
    const source = b.node('source', r.name, ['raw'], { ...o, tags: ['raw', r.team], description: `Source declaration of raw.${r.name}.` });
    b.edge(raw, source);
    const model = b.node('model', `stg_${r.name}`, ['staging'], { ...o, tags: ['staging', r.team], description: `Cleans and renames raw.${r.name}.` });
    b.edge(source, model);
    const view = b.table('wh-prod', 'staging', `stg_${r.name}`, { ...o, view: true, tags: ['staging', r.team], description: `Staged ${r.name.replace(/_/g, ' ')}.` });
    b.edge(model, view);
  }

  b.node('seed', 'calendar', [], { team: 'platform', tier: 2, tags: ['seed', 'platform'], description: 'Calendar seed: one row per day.' });
  for (const m of MARTS) {
    const o = { team: m.team, tier: m.tier, pii: m.pii };
    const layer = m.name.startsWith('agg_') ? 'aggregates' : 'marts';
    const model = b.node('model', m.name, [layer], { ...o, tags: ['mart', m.team], description: `Builds mart.${m.name}.` });
    for (const f of m.from) b.edge(rawByName.has(f) ? stagingView(f) : martTable(f), model);
    if (m.seed) b.edge(`transform-core::retail::seeds::${m.seed}`, model);
    const table = b.table('wh-prod', 'mart', m.name, { ...o, view: m.view, tags: ['mart', m.team], description: `Mart ${m.name.replace(/_/g, ' ')}.` });
    b.edge(model, table);
    if (!m.name.startsWith('agg_')) {
      const key = `${m.name.replace(/^(fct|dim)_/, '').replace(/s$/, '')}_id`;
      for (const t of [`not_null_${m.name}_${key}`, `unique_${m.name}_${key}`]) {
        const test = b.node('test', t, [], { team: m.team, tier: m.tier, tags: ['test', m.team], description: `Schema test on mart.${m.name}.` });
        b.edge(model, test);
      }
    }
  }
  for (const s of SNAPSHOTS) {
    const r = rawByName.get(s.of)!;
    const snap = b.node('snapshot', s.name, [], { team: r.team, tier: r.tier, pii: r.pii, tags: ['snapshot', r.team], description: `Slowly changing history of ${s.of}.` });
    b.edge(stagingView(s.of), snap);
    const table = b.table('wh-prod', 'snapshots', s.name, { team: r.team, tier: r.tier, pii: r.pii, tags: ['snapshot', r.team], description: `History table of ${s.of}.` });
    b.edge(snap, table);
  }
  for (const d of TRANSFORM_DAGS) {
    b.dag(d.dag, 'platform', 1, ['transformation']);
    for (const t of d.tasks) b.task(d.dag, t, 'platform', 1, ['transformation']);
  }
  for (const d of DASHBOARDS) {
    const dash = b.dashboard(d.name, d.team, d.tier);
    for (const f of d.from) b.edge(martTable(f), dash);
    b.edge('orchestrator::publish_reports::refresh_dashboards', dash);
  }
  for (const name of DEV_TABLES) {
    const r = rawByName.get(name)!;
    const o = { team: r.team, tier: 3, pii: r.pii };
    const raw = b.table('wh-dev', 'raw', name, { ...o, tags: ['raw', 'dev', r.team], description: `Development copy of raw.${name}.` });
    const view = b.table('wh-dev', 'staging', `stg_${name}`, { ...o, view: true, tags: ['staging', 'dev', r.team], description: `Development staging of ${name}.` });
    b.edge(raw, view);
  }
  const devOrders = b.table('wh-dev', 'mart', 'fct_orders', { team: 'commerce', tier: 3, tags: ['mart', 'dev', 'commerce'], description: 'Development build of fct_orders.' });
  for (const f of ['orders', 'order_items', 'payments']) b.edge(`wh-dev::staging::stg_${f}`, devOrders);
}

/**
 * Adds synthetic pipelines until the builder holds at least `size` entities. Pack `i` is a
 * raw table, its staging model and view and a mart table, in one of ten extension schemas per
 * layer, owned by a team in rotation.
 */
function seedScale(b: Builder, size: number): void {
  const teams = [...new Set(RAW.map((r) => r.team))].sort();
  for (let i = 0; b.entities.length < size; i++) {
    const r = RAW[i % RAW.length];
    const team = teams[i % teams.length];
    const tier = (i % 3) + 1;
    const pii = r.pii === true && i % 2 === 0;
    const shard = i % 10;
    const name = `${r.name}_x${i}`;
    const o = { team, tier, pii };
    const raw = b.table('wh-prod', `ext_raw_${shard}`, name, { ...o, tags: ['raw', 'synthetic', team], description: `Synthetic raw table ${i}.` });
    const model = b.node('model', `stg_${name}`, ['ext', `shard_${shard}`], { ...o, tags: ['staging', 'synthetic', team], description: `Synthetic staging model ${i}.` });
    const view = b.table('wh-prod', `ext_staging_${shard}`, `stg_${name}`, { ...o, view: true, tags: ['staging', 'synthetic', team], description: `Synthetic staging view ${i}.` });
    const mart = b.table('wh-prod', `ext_mart_${shard}`, `fct_${name}`, { ...o, tags: ['mart', 'synthetic', team], description: `Synthetic mart table ${i}.` });
    b.edge(raw, model);
    b.edge(model, view);
    b.edge(view, mart);
    if (i >= 10) b.edge(`wh-prod::ext_staging_${shard}::stg_${RAW[(i - 10) % RAW.length].name}_x${i - 10}`, mart);
  }
}

/**
 * Builds a seeded catalog. `demo`: the retail analytics workspace (about 300 entities);
 * `empty`: nothing. `size` (demo only) makes the catalog exactly `size` entities: larger adds
 * synthetic pipelines (for benchmarks, e.g. 10,000), smaller keeps the first `size` entities in
 * generation order and drops edges to the rest.
 */
export function buildCatalog(seed: 'demo' | 'empty', opts: { size?: number } = {}): Catalog {
  const b = new Builder();
  if (seed === 'empty') return b.build();
  seedDemo(b);
  if (opts.size !== undefined) seedScale(b, opts.size);
  return b.build(opts.size);
}
