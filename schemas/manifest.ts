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
import { DesiredCategorisationRule } from './categorisation-rules';

const pinnedId = z.string().min(1).optional().describe('pinned id (a UUID); default: derived from workspace, namespace and name, so re-runs adopt what they created');

export const DesiredAlert = withOneof(
  {
    /** Pinned fqn; default `<namespace>.<resource name>`. */
    fqn: z.string().min(1).max(500).optional().describe('pinned fully qualified name (the alert\'s identity); default <namespace>.<name>'),
    name: z.string().min(1).max(255).describe('the alert\'s display name'),
    isDisabled: z.boolean().optional().describe('create or keep the alert switched off'),
    template: AlertTemplate.optional().describe('the message template (title and plain or structured text)'),
  },
  {
    issueLifecycle: IssueLifecycleAlert.describe('alert on data-quality issues of the entities the trigger selects'),
    schemaChange: SchemaChangeAlert.describe('alert on schema changes of the entities the trigger selects'),
    incidentLifecycle: IncidentLifecycleAlert.describe('alert on incidents opening, closing or being cancelled'),
  },
);
export type DesiredAlert = z.infer<typeof DesiredAlert>;

export const DesiredMonitorDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100).describe('the rule\'s title') },
  {
    queryConfig: QueryConfig.describe('deploy monitors on every asset a query selects'),
    exclusiveQueryConfig: ExclusiveQueryConfig.describe('exclude the assets a query selects from other rules'),
    staticConfig: StaticConfig.describe('deploy monitors on one asset'),
    exclusiveStaticConfig: ExclusiveStaticConfig.describe('exclude one asset from other rules'),
    productConfig: ProductConfig.describe('deploy monitors on a data product\'s assets'),
  },
);
export type DesiredMonitorDeploymentRule = z.infer<typeof DesiredMonitorDeploymentRule>;

export const DesiredSqlTest = withOneof(
  {
    id: pinnedId,
    name: z.string().min(1).max(255).describe('the test\'s name'),
    description: z.string().optional().describe('what the test is for'),
    severity: Severity.optional().describe('severity of the test\'s failures'),
    platform: DataPlatform.describe('the data platform the test runs on: exactly one key'),
    /** iCal RRULE; absent: the test runs on demand. */
    recurrenceRule: z.string().min(1).optional().describe('iCal RRULE for when the test runs, e.g. FREQ=DAILY;BYHOUR=6; absent: on demand'),
    timezone: z.string().optional().describe('IANA time zone of the schedule (default UTC)'),
    annotations: z.array(SqlTestAnnotation).optional().describe('annotations to find the test by'),
    saveFailures: z.boolean().optional().describe('keep the failing rows for inspection'),
  },
  {
    sqlExpression: z.string().min(1).describe('SQL query; every row it returns is a failure'),
    template: SqlTestTemplate.describe('a template test on one table (notNull, unique, freshness, ...)'),
  },
);
export type DesiredSqlTest = z.infer<typeof DesiredSqlTest>;

export const DesiredSqlTestDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100).describe('the rule\'s title') },
  {
    queryConfig: SqlTestQueryConfig.describe('deploy the tests on every table a query selects'),
    exclusiveQueryConfig: SqlTestExclusiveQueryConfig.describe('exclude the tables a query selects from other rules'),
    staticConfig: SqlTestStaticConfig.describe('deploy the tests on one table'),
    exclusiveStaticConfig: SqlTestExclusiveStaticConfig.describe('exclude one table from other rules'),
  },
);
export type DesiredSqlTestDeploymentRule = z.infer<typeof DesiredSqlTestDeploymentRule>;

export const DesiredDomain = z.object({
  id: pinnedId,
  name: z.string().min(1).max(100).describe('the domain\'s name'),
  description: z.string().optional().describe('what the domain covers'),
  /** A parent domain's id (or a reference to it); absent = top level. */
  parentId: z.string().optional().describe('the parent domain\'s id or ${dq_domain.<name>.id}; absent: top level'),
  definition: DesiredDomainDefinition.optional().describe('what belongs to the domain'),
});
export type DesiredDomain = z.infer<typeof DesiredDomain>;

export const DesiredDataProduct = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500).describe('the data product\'s title'),
  description: z.string().optional().describe('what the data product is'),
  folder: z.string().optional().describe('folder the data product is shown in'),
  priority: Priority.optional().describe('business priority: PRIORITY_P1 (highest), PRIORITY_P2 or PRIORITY_P3'),
  definition: DesiredDataProductDefinition.optional().describe('the assets that make up the data product'),
});
export type DesiredDataProduct = z.infer<typeof DesiredDataProduct>;

export const DesiredOwner = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500).describe('the owner\'s name, e.g. a team'),
  contacts: z.array(OwnerContact).optional().describe('how to reach the owner (e-mail, Slack, Teams, users)'),
});
export type DesiredOwner = z.infer<typeof DesiredOwner>;

export const DesiredOwnership = z.object({
  id: pinnedId,
  ownerId: z.string().min(1).describe('the owner\'s id or ${dq_owner.<name>.id}'),
  selection: DesiredOwnershipSelection.describe('what the owner owns: a query or a data product'),
  alert: OwnershipAlert.optional().describe('alert the owner about issues on what they own'),
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
  dq_check_categorisation_rule: DesiredCategorisationRule,
} as const;
export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
export const RESOURCE_TYPES = Object.keys(RESOURCE_SCHEMAS) as ResourceType[];

export const Lifecycle = z.object({
  preventDestroy: z.boolean().optional().describe('any plan that would delete or replace the object is an error'),
  /** Field paths (lowerCamelCase, dot-separated) that plan ignores, or `all`. */
  ignoreChanges: z.union([z.array(z.string()), z.literal('all')]).optional().describe('field paths (e.g. issueLifecycle.targets) that plan ignores, or all'),
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

/** An environment variable's name: upper-case letters, digits and "_", not starting with a digit. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const envVarName = z.string().regex(ENV_VAR_NAME, 'must be the NAME of an environment variable (upper-case letters, digits and "_", e.g. DQ_PROD_CLIENT_ID), never a credential itself');

/**
 * The suffix every client-secret variable's name ends with. dqform knows a secret by its name
 * alone before it reads any input (src/cli/credential-variables.ts): it withholds such variables
 * from the app on a fresh checkout, refuses them in a CI synth and masks their values, so a stack
 * may take its client secret only from a variable named this way.
 */
export const CLIENT_SECRET_SUFFIX = '_CLIENT_SECRET';
/** Why a `credentialsFrom.clientSecret` name that does not end in {@link CLIENT_SECRET_SUFFIX} is refused (the name is not echoed: it may be the secret). */
export const CLIENT_SECRET_NAME_MESSAGE = `must name a variable ending in ${CLIENT_SECRET_SUFFIX}, e.g. DQ_PROD_CLIENT_SECRET: dqform withholds only such variables from the app, refuses them in a CI synth and masks them in output`;

/** Where a stack's credentials come from: environment variable names. */
export const CredentialsFrom = z.strictObject({
  clientId: envVarName.optional().describe('the environment variable holding the client id (default DQ_CLIENT_ID)'),
  clientSecret: envVarName
    .refine((v) => !ENV_VAR_NAME.test(v) || v.endsWith(CLIENT_SECRET_SUFFIX), CLIENT_SECRET_NAME_MESSAGE)
    .optional()
    .describe(`the environment variable holding the client secret, a name ending in ${CLIENT_SECRET_SUFFIX} (default DQ_CLIENT_SECRET)`),
});
export type CredentialsFrom = z.infer<typeof CredentialsFrom>;

export const Manifest = z.object({
  formatVersion: z.literal(1),
  stack: z.string(),
  namespace: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, 'namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters'),
  region: z.enum(['eu', 'us', 'au']).optional(),
  baseUrl: z.string().optional(),
  /** The gRPC endpoint of this stack's rule previews (`host:port`, `https://host:port`, `http://host:port`); see docs/environments.md. */
  grpcEndpoint: z.string().optional(),
  /**
   * The NAMES of the environment variables this stack's credentials come from (never their
   * values); absent: DQ_CLIENT_ID and DQ_CLIENT_SECRET.
   */
  credentialsFrom: CredentialsFrom.optional(),
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
