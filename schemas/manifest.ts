/**
 * The manifest: desired state, independent of the front end that produced it (CDKTF synth
 * output or a YAML file). The engine reads only this.
 *
 * Desired shapes are the API's write shapes in lowerCamelCase, minus what the engine fills in:
 * - `id` is optional: when absent the engine derives it (a UUIDv8 carrying the namespace tag:
 *   `src/engine/identity.ts`); alerts are addressed by `fqn`, default `<namespace>.<name>`.
 * - `configId` and `source` are set by the engine (`configId = namespace`, `SOURCE_API`).
 * - Values may hold Terraform references (`${dq_owner.team.id}`, `${dq_owner.team.entity_id}`),
 *   which the engine resolves to the referenced object's id or entity id before diffing.
 * In Terraform JSON the attribute names are snake_case; the engine converts keys to
 * lowerCamelCase before validating against these schemas.
 */
import { z } from 'zod';
import { withOneof } from './common';
import { AlertTemplate, IncidentLifecycleAlert, IssueLifecycleAlert, SchemaChangeAlert } from './alerts';
import { ExclusiveQueryConfig, ExclusiveStaticConfig, ProductConfig, QueryConfig, StaticConfig } from './deployment-rules';
import { SqlTestExclusiveQueryConfig, SqlTestExclusiveStaticConfig, SqlTestQueryConfig, SqlTestStaticConfig, SqlTestTemplate, SqlTestAnnotation, DataPlatform } from './sql-tests';
import { DesiredDataProductDefinition, DesiredDomainDefinition, DesiredOwnershipSelection, OwnerContact, OwnershipAlert, Priority } from './governance';
import { Severity } from './deployment-rules';

const pinnedId = z.string().min(1).optional();

export const DesiredAlert = withOneof(
  {
    /** Pinned fqn; default `<namespace>.<resource name>`. */
    fqn: z.string().min(1).max(500).optional(),
    name: z.string().min(1).max(255),
    isDisabled: z.boolean().optional(),
    template: AlertTemplate.optional(),
  },
  { issueLifecycle: IssueLifecycleAlert, schemaChange: SchemaChangeAlert, incidentLifecycle: IncidentLifecycleAlert },
);
export type DesiredAlert = z.infer<typeof DesiredAlert>;

export const DesiredMonitorDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100) },
  { queryConfig: QueryConfig, exclusiveQueryConfig: ExclusiveQueryConfig, staticConfig: StaticConfig, exclusiveStaticConfig: ExclusiveStaticConfig, productConfig: ProductConfig },
);
export type DesiredMonitorDeploymentRule = z.infer<typeof DesiredMonitorDeploymentRule>;

export const DesiredSqlTest = withOneof(
  {
    id: pinnedId,
    name: z.string().min(1).max(255),
    description: z.string().optional(),
    severity: Severity.optional(),
    platform: DataPlatform,
    /** iCal RRULE; absent: the test runs on demand. */
    recurrenceRule: z.string().min(1).optional(),
    timezone: z.string().optional(),
    annotations: z.array(SqlTestAnnotation).optional(),
    saveFailures: z.boolean().optional(),
  },
  { sqlExpression: z.string().min(1), template: SqlTestTemplate },
);
export type DesiredSqlTest = z.infer<typeof DesiredSqlTest>;

export const DesiredSqlTestDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100) },
  {
    queryConfig: SqlTestQueryConfig,
    exclusiveQueryConfig: SqlTestExclusiveQueryConfig,
    staticConfig: SqlTestStaticConfig,
    exclusiveStaticConfig: SqlTestExclusiveStaticConfig,
  },
);
export type DesiredSqlTestDeploymentRule = z.infer<typeof DesiredSqlTestDeploymentRule>;

export const DesiredDomain = z.object({
  id: pinnedId,
  name: z.string().min(1).max(100),
  description: z.string().optional(),
  /** A parent domain's id (or a reference to it); absent = top level. */
  parentId: z.string().optional(),
  definition: DesiredDomainDefinition.optional(),
});
export type DesiredDomain = z.infer<typeof DesiredDomain>;

export const DesiredDataProduct = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500),
  description: z.string().optional(),
  folder: z.string().optional(),
  priority: Priority.optional(),
  definition: DesiredDataProductDefinition.optional(),
});
export type DesiredDataProduct = z.infer<typeof DesiredDataProduct>;

export const DesiredOwner = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500),
  contacts: z.array(OwnerContact).optional(),
});
export type DesiredOwner = z.infer<typeof DesiredOwner>;

export const DesiredOwnership = z.object({
  id: pinnedId,
  ownerId: z.string().min(1),
  selection: DesiredOwnershipSelection,
  alert: OwnershipAlert.optional(),
});
export type DesiredOwnership = z.infer<typeof DesiredOwnership>;

/** The eight resource types, their desired schemas, in dependency order. */
export const RESOURCE_SCHEMAS = {
  dq_owner: DesiredOwner,
  dq_domain: DesiredDomain,
  dq_data_product: DesiredDataProduct,
  dq_ownership: DesiredOwnership,
  dq_alert: DesiredAlert,
  dq_monitor_deployment_rule: DesiredMonitorDeploymentRule,
  dq_sql_test: DesiredSqlTest,
  dq_sql_test_deployment_rule: DesiredSqlTestDeploymentRule,
} as const;
export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
export const RESOURCE_TYPES = Object.keys(RESOURCE_SCHEMAS) as ResourceType[];
/** Kinds with `configId` upstream: pruned by namespace through their configId. */
export const PRUNABLE_TYPES: readonly ResourceType[] = ['dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule'];
/**
 * Kinds without `configId` upstream: pruned by the namespace tag their id carries (design.md,
 * "Identity and ownership"; `src/engine/identity.ts`).
 */
export const TAG_PRUNED_TYPES: readonly ResourceType[] = ['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership'];

export const Lifecycle = z.object({
  preventDestroy: z.boolean().optional(),
  /** Field paths (lowerCamelCase, dot-separated) that plan ignores, or `all`. */
  ignoreChanges: z.union([z.array(z.string()), z.literal('all')]).optional(),
});
export type Lifecycle = z.infer<typeof Lifecycle>;

export const ManifestResource = z.object({
  /** `<type>.<name>`, e.g. `dq_alert.orders_issues`. */
  address: z.string(),
  type: z.enum(RESOURCE_TYPES as [ResourceType, ...ResourceType[]]),
  name: z.string(),
  /** The desired shape for `type` (validated with RESOURCE_SCHEMAS[type] after reference resolution). */
  config: z.record(z.string(), z.unknown()),
  /** Where it was declared: construct path, or `file:line:column` for YAML. */
  source: z.string().optional(),
  lifecycle: Lifecycle.default({}),
  dependsOn: z.array(z.string()).default([]),
});
export type ManifestResource = z.infer<typeof ManifestResource>;

export const Manifest = z.object({
  formatVersion: z.literal(1),
  stack: z.string(),
  namespace: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, 'namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters'),
  region: z.enum(['eu', 'us', 'au']).optional(),
  baseUrl: z.string().optional(),
  resources: z.array(ManifestResource),
  /** Terraform `moved` blocks: identity follows the object to its new address. */
  moved: z.array(z.object({ from: z.string(), to: z.string() })).default([]),
  /** Terraform `import` blocks: adopt the live object `id` (an id, or an fqn for alerts) at address `to`. */
  imports: z.array(z.object({ to: z.string(), id: z.string() })).default([]),
  /**
   * Terraform `removed` blocks: `destroy: true` deletes the object that lived at `from`;
   * `destroy: false` stops managing it and leaves it in place (the block then keeps it from
   * being pruned). `id` (a dqform extension) names the object when its identity was pinned,
   * moved or imported, so that it is not derived from `from`.
   */
  removed: z.array(z.object({ from: z.string(), destroy: z.boolean().default(true), id: z.string().min(1).optional() })).default([]),
});
export type Manifest = z.infer<typeof Manifest>;
