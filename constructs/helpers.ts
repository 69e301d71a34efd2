/**
 * Value helpers for the constructs: entity identifiers ({@link Entity}), queries ({@link Query}),
 * alert targets ({@link Target}) and owner contacts ({@link Contact}). They build plain values
 * in the API's shapes (lowerCamelCase); nothing here talks to the network.
 */
import type { AlertTarget } from '../schemas/platform/alerts';
import type { OwnerContact } from '../schemas/platform/governance';
import type {
  ColumnStoreTableId,
  CustomId,
  DataproductId,
  EntityIdentifier,
  EntityType,
  LakehouseTableId,
  MonitorId,
  MysqlLikeTableId,
  OrchestrationDagId,
  OrchestrationTaskId,
  PlatformPathId,
  Query as QueryModel,
  QueryEngineTableId,
  QueryPart,
  RelationalTableId,
  SqlAuditId,
  SqlModelId,
  TransformCloudNodeId,
  TransformCoreNodeId,
  WarehouseAccountTableId,
  WarehouseClusterTableId,
  WarehouseProjectTableId,
} from '../schemas/platform/entities';
import { parseResolverQl, resolverQlToQuery } from '../schemas/tools/resolverql';
import type { z } from 'zod';
import type { Referenceable } from './internal';

type In<T extends z.ZodType> = z.infer<T>;

/** Entity identifiers: one static builder per variant of the API's `EntityIdentifier`. */
export class Entity {
  private constructor() {}
  /** A transformation-tool (core) node: `{ transformCoreNode: { integrationId, nodeId } }`. */
  static transformCoreNode(v: In<typeof TransformCoreNodeId>): EntityIdentifier { return { transformCoreNode: { ...v } }; }
  /** A transformation-tool (cloud) node. */
  static transformCloudNode(v: In<typeof TransformCloudNodeId>): EntityIdentifier { return { transformCloudNode: { ...v } }; }
  /** A table in a project/dataset warehouse. */
  static warehouseProjectTable(v: In<typeof WarehouseProjectTableId>): EntityIdentifier { return { warehouseProjectTable: { ...v } }; }
  /** A table in an account/database/schema warehouse (the demo catalog's `wh-prod`). */
  static warehouseAccountTable(v: In<typeof WarehouseAccountTableId>): EntityIdentifier { return { warehouseAccountTable: { ...v } }; }
  /** A table in a cluster/database/schema warehouse. */
  static warehouseClusterTable(v: In<typeof WarehouseClusterTableId>): EntityIdentifier { return { warehouseClusterTable: { ...v } }; }
  /** A relational database table (`host` without port). */
  static relationalTable(v: In<typeof RelationalTableId>): EntityIdentifier { return { relationalTable: { ...v } }; }
  /** A MySQL-like table (`host` without port). */
  static mysqlLikeTable(v: In<typeof MysqlLikeTableId>): EntityIdentifier { return { mysqlLikeTable: { ...v } }; }
  /** A column-store table (`host` without port). */
  static columnStoreTable(v: In<typeof ColumnStoreTableId>): EntityIdentifier { return { columnStoreTable: { ...v } }; }
  /** An orchestration DAG. */
  static orchestrationDag(v: In<typeof OrchestrationDagId>): EntityIdentifier { return { orchestrationDag: { ...v } }; }
  /** An orchestration task. */
  static orchestrationTask(v: In<typeof OrchestrationTaskId>): EntityIdentifier { return { orchestrationTask: { ...v } }; }
  /** A custom entity. */
  static custom(v: In<typeof CustomId>): EntityIdentifier { return { custom: { ...v } }; }
  /** A data product entity. */
  static dataproduct(v: In<typeof DataproductId>): EntityIdentifier { return { dataproduct: { ...v } }; }
  /** An entity addressed by platform path. */
  static platformPath(v: In<typeof PlatformPathId>): EntityIdentifier { return { platformPath: { ...v } }; }
  /** A lakehouse table. */
  static lakehouseTable(v: In<typeof LakehouseTableId>): EntityIdentifier { return { lakehouseTable: { ...v } }; }
  /** A query-engine table. */
  static queryEngineTable(v: In<typeof QueryEngineTableId>): EntityIdentifier { return { queryEngineTable: { ...v } }; }
  /** A SQL-model model. */
  static sqlModel(v: In<typeof SqlModelId>): EntityIdentifier { return { sqlModel: { ...v } }; }
  /** A SQL-model audit. */
  static sqlAudit(v: In<typeof SqlAuditId>): EntityIdentifier { return { sqlAudit: { ...v } }; }
  /** A monitor on another entity (`monitoredId` nests an identifier). */
  static monitor(v: MonitorId): EntityIdentifier { return { monitor: { ...v } }; }
}

/** A query given as ResolverQL text or built with {@link Query}. */
export type QueryInput = QueryExpr | string;

/**
 * A query: ResolverQL text when every operand can be written in ResolverQL, otherwise a query
 * model (`{ parts, operand }`). Fields that accept both (alert triggers, query deployment rules)
 * get `resolverQl` when there is text, `query` otherwise; fields that accept ResolverQL only
 * (domain, data product and ownership selections) need text.
 */
export class QueryExpr {
  /** @internal */
  constructor(
    /** The ResolverQL text, when the query is expressible in ResolverQL. */
    readonly resolverQl: string | undefined,
    private readonly model: QueryModel | undefined,
  ) {}
  /**
   * The query model. For ResolverQL text, its translation (throws on text that does not parse:
   * validation reports those with the construct path first).
   */
  toModel(): QueryModel {
    if (this.model) return this.model;
    return resolverQlToQuery(parseResolverQl(this.resolverQl ?? ''));
  }
  /** ResolverQL text, or undefined. */
  toString(): string {
    return this.resolverQl ?? JSON.stringify(this.model);
  }
}

const q = (s: string) => JSON.stringify(s);
const rql = (text: string) => new QueryExpr(text, undefined);
const asExpr = (x: QueryInput): QueryExpr => (typeof x === 'string' ? rql(x) : x);

function combine(fn: 'and' | 'or', operand: 'QUERY_OPERAND_AND' | 'QUERY_OPERAND_OR', xs: QueryInput[]): QueryExpr {
  const exprs = xs.map(asExpr);
  if (exprs.every((e) => e.resolverQl !== undefined)) return rql(`${fn}(${exprs.map((e) => e.resolverQl).join(',')})`);
  return new QueryExpr(undefined, { operand, parts: exprs.map((e) => ({ query: e.toModel() })) });
}

/** Query builders. Each returns a {@link QueryExpr}; strings are taken as ResolverQL text. */
export class Query {
  private constructor() {}
  /** ResolverQL text as is (validated offline at synth). */
  static resolverQl(text: string): QueryExpr { return rql(text); }
  /** A raw query model (`{ parts, operand }`), for what ResolverQL cannot say. */
  static model(model: QueryModel): QueryExpr { return new QueryExpr(undefined, model); }
  /** All of the operands: `and(...)`. */
  static and(...operands: QueryInput[]): QueryExpr { return combine('and', 'QUERY_OPERAND_AND', operands); }
  /** Any of the operands: `or(...)`. */
  static or(...operands: QueryInput[]): QueryExpr { return combine('or', 'QUERY_OPERAND_OR', operands); }
  /** Everything but the operand: `not(...)`. */
  static not(operand: QueryInput): QueryExpr {
    const e = asExpr(operand);
    if (e.resolverQl !== undefined) return rql(`not(${e.resolverQl})`);
    return new QueryExpr(undefined, { operand: 'QUERY_OPERAND_EXCEPT', parts: [{ query: { parts: [] } }, { query: e.toModel() }] });
  }
  /**
   * Entities of a type: a group (`table`, `view`, `model`, `dag`, ...), a specific neutral name
   * (`warehouse_account_table`) or a list of them; `filter` ANDs another query.
   */
  static withType(type: string | string[], filter?: QueryInput): QueryExpr {
    const t = Array.isArray(type) ? `[${type.map(q).join(',')}]` : q(type);
    if (filter === undefined) return rql(`with_type(${t})`);
    const f = asExpr(filter);
    return f.resolverQl !== undefined ? rql(`with_type(${t},filter=${f.resolverQl})`) : Query.and(rql(`with_type(${t})`), f);
  }
  /** Entities whose name or path contains `substring` (case-insensitive). */
  static withName(substring: string): QueryExpr { return rql(`with_name(${q(substring)})`); }
  /** Entities with an annotation; with `value` (or any of the values) when given. */
  static withAnnotation(name: string, value?: string | string[]): QueryExpr {
    if (value === undefined) return rql(`with_annotation(${q(name)})`);
    return rql(`with_annotation(${q(name)},${Array.isArray(value) ? `[${value.map(q).join(',')}]` : q(value)})`);
  }
  /** Entities with a tag. */
  static withTag(value: string): QueryExpr { return rql(`with_tag(${q(value)})`); }
  /** Entities on a data platform. */
  static withPlatform(name: string): QueryExpr { return rql(`with_platform(${q(name)})`); }
  /** Entities in a folder, by its folder id (`folder-wh-prod::mart`, one id: never split on `::`). */
  static inFolder(path: string): QueryExpr { return rql(`in_folder(${q(path)})`); }
  /** Entities with any of these columns: `with_columns("email")` (the platform evaluates it; no query-model form). */
  static withColumns(...names: string[]): QueryExpr { return rql(`with_columns(${names.map(q).join(',')})`); }
  /** Exactly these entities (query model only: ResolverQL has no identifier list). */
  static identifiers(...ids: EntityIdentifier[]): QueryExpr { return new QueryExpr(undefined, { parts: [{ identifierList: { identifiers: ids } }] }); }
  /** Entities of these entity types, as a query model part (`withType { types }`). */
  static withEntityTypes(...types: EntityType[]): QueryExpr { return new QueryExpr(undefined, { parts: [{ withType: { types } } as QueryPart] }); }
}

/** @internal Normalises a query input. */
export function queryExpr(x: QueryInput): QueryExpr {
  return asExpr(x);
}

/** An alert target pointing at an {@link Owner} construct (resolved to its entity id at synth). */
export class OwnerTarget {
  /** @internal */
  constructor(readonly owner: Referenceable | string) {}
}
/** What `targets` take: a target value or an owner target. */
export type TargetInput = AlertTarget | OwnerTarget;

/** Alert targets. */
export class Target {
  private constructor() {}
  /** E-mail to these recipients (not allowed on incident-lifecycle alerts). */
  static email(recipientEmails: string[]): AlertTarget { return { email: { recipientEmails: [...recipientEmails] } }; }
  /** A Slack channel, e.g. `#data-alerts`. */
  static slack(channel: string): AlertTarget { return { slack: { channel } }; }
  /** A Microsoft Teams channel (not allowed on incident-lifecycle alerts). */
  static msTeams(channel: string): AlertTarget { return { msTeams: { channel } }; }
  /** A webhook integration by id (not allowed on schema-change alerts). */
  static webhook(webhookId: string): AlertTarget { return { webhook: { webhookId } }; }
  /**
   * An owner: an {@link Owner} construct in the same stack (its `entity_id`, `owner-<uuid>`, is
   * filled in at plan time) or an owner entity id string.
   */
  static owner(owner: Referenceable | string): OwnerTarget { return new OwnerTarget(owner); }
}

/** Owner contacts. */
export class Contact {
  private constructor() {}
  /** A Slack channel. */
  static slack(channel: string): OwnerContact { return { slack: { channel } }; }
  /** E-mail recipients. */
  static email(recipientEmails: string[]): OwnerContact { return { email: { recipientEmails: [...recipientEmails] } }; }
  /** A Microsoft Teams channel id. */
  static msTeams(channelId: string): OwnerContact { return { msTeams: { channelId } }; }
  /** Platform users by e-mail. */
  static users(userEmails: string[]): OwnerContact { return { users: { userEmails: [...userEmails] } }; }
}
