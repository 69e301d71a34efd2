/**
 * Integrations v1 (spec 2.6, 3.4; wire-facts section 8). Credential fields are write-only:
 * reads return them empty, and dqform shows them as `(sensitive)`. Every such field is built
 * with {@link secret} so that renderers and redaction find them from the schema.
 *
 * Config variants carry neutral names (wire-facts: the real keys are the data systems' own;
 * "neutral keys stay"); their fields are wire-facts 8.1's.
 */
import { z } from 'zod';
import { Empty, Etag, INTEGRATIONS_BATCH_LIMIT, oneof, Timestamp } from './common';
import { defineOperations } from './operation';
import { tolerant } from './wire';

/** A write-only credential field. */
export function secret() {
  return z.string().optional().meta({ writeOnly: true, sensitive: true });
}

/** Names of every write-only field in integration configs (at any depth). */
export const SECRET_FIELDS = [
  'password',
  'privateKeySecret',
  'privateKeyPassphrase',
  'serviceAccountKey',
  'token',
  'accessToken',
  'clientSecret',
  'secretAccessKey',
] as const;

const host = z.string().min(1);
const port = z.number().int().min(1).max(65535);
const scopeRule = z.object({ database: z.string().optional(), schema: z.string().optional(), table: z.string().optional() });
const scope = z.object({ include: z.array(scopeRule).optional(), exclude: z.array(scopeRule).optional() });

/** The config variants (wire-facts 8.1), by neutral name: the oneof of {@link IntegrationConfig}. */
export const CONFIG_VARIANTS = {
  warehouseProject: z.object({
    projectId: z.string().min(1),
    blacklistedDatasets: z.array(z.string()).optional(),
    serviceAccountKey: secret(),
    region: z.string().min(1).optional(),
    fetchQueryLogs: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
    datasets: z.array(z.string()).optional(),
  }),
  warehouseAccount: z.object({
    user: z.string().optional(),
    password: secret(),
    keyPair: z.object({ privateKeySecret: secret(), publicKey: z.string().optional(), privateKeyPassphrase: secret() }).optional(),
    account: z.string().optional(),
    warehouse: z.string().optional(),
    databases: z.array(z.string()).optional(),
    role: z.string().optional(),
    fetchQueryLogs: z.boolean().optional(),
    fetchQueryLogsDatabases: z.array(z.string()).optional(),
    auditTableFqn: z.string().optional(),
    noGetDdl: z.boolean().optional(),
    fetchTasks: z.boolean().optional(),
    fetchTasksDatabases: z.array(z.string()).optional(),
    fetchTasksExecutionsFromAccountUsage: z.boolean().optional(),
    /** A duration string, e.g. `3600s`. */
    fetchTasksExecutionsDuration: z.string().optional(),
    fetchTableLineage: z.boolean().optional(),
    fetchTableLineageDatabases: z.array(z.string()).optional(),
    accountUsageDb: z.string().optional(),
  }),
  warehouseCluster: z.object({
    user: z.string().optional(),
    password: secret(),
    host,
    port: port.optional(),
    database: z.string().optional(),
    fetchQueryLogs: z.boolean().optional(),
    freshnessFromQueryLogs: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
  }),
  relational: z.object({ user: z.string().optional(), password: secret(), host, port: port.optional(), database: z.string().optional(), auditTableFqn: z.string().optional() }),
  mysqlLike: z.object({ user: z.string().optional(), password: secret(), host, port: port.optional(), auditTableFqn: z.string().optional() }),
  columnStore: z.object({
    host,
    /** A string on the wire. */
    port: z.string().optional(),
    username: z.string().optional(),
    password: secret(),
    defaultDataset: z.string().optional(),
    additionalParameters: z.record(z.string(), z.string()).optional(),
    ssl: z.boolean().optional(),
    databaseName: z.string().optional(),
    fetchQueryLogs: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
    cluster: z.object({ mode: z.union([z.number().int(), z.string()]).optional(), name: z.string().max(256).optional() }).optional(),
  }),
  lakehouse: z.object({
    workspaceUrl: z.string().min(1),
    token: secret(),
    oauthM2m: z.object({ clientId: z.string().optional(), clientSecret: secret() }).optional(),
    warehouseId: z.string().optional(),
    fetchQueryLogs: z.boolean().optional(),
    fetchTableMetrics: z.boolean().optional(),
    fetchTableMetricsScan: z.boolean().optional(),
    catalogBlocklist: z.array(z.string()).optional(),
    fetchTableTags: z.boolean().optional(),
    useShowCreateTable: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
    /** The one vendor-named lineage flag, under a neutral name. */
    fetchLineage: z.boolean().optional(),
  }),
  queryEngine: z.object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    basic: z.object({ user: z.string().optional(), password: secret() }).optional(),
    catalogs: z.array(z.string()).optional(),
    fetchQueryLogs: z.boolean().optional(),
    noShowCreateView: z.boolean().optional(),
    noShowCreateTable: z.boolean().optional(),
    noMaterializedViews: z.boolean().optional(),
    fetchTableComments: z.boolean().optional(),
    usePlaintext: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
  }),
  enterpriseRelational: z.object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    database: z.string().optional(),
    username: z.string().optional(),
    password: secret(),
    trustCert: z.boolean().optional(),
    encrypt: z.string().optional(),
    fetchQueryLogs: z.boolean().optional(),
    scope: scope.optional(),
    auditTableFqn: z.string().optional(),
  }),
  serviceRelational: z.object({
    host: z.string().optional(),
    port: z.number().int().optional(),
    serviceName: z.string().optional(),
    username: z.string().optional(),
    password: secret(),
    ssl: z.boolean().optional(),
    sslVerify: z.boolean().optional(),
    fetchQueryLogs: z.boolean().optional(),
    useDiagnosticsPack: z.boolean().optional(),
    auditTableFqn: z.string().optional(),
  }),
  embeddedAnalytics: z.object({ account: z.string().optional(), accessToken: secret(), auditTableFqn: z.string().optional() }),
  serverlessQuery: z.object({
    region: z.string().min(1),
    workgroup: z.string().optional(),
    accessKey: z.object({ accessKeyId: z.string().min(16), secretAccessKey: secret() }).optional(),
    useShowCreateTable: z.boolean().optional(),
    useShowCreateView: z.boolean().optional(),
    fetchQueryLogs: z.boolean().optional(),
    /** The one table-format flag, under a neutral name. */
    useTableFormat: z.boolean().optional(),
    scope: scope.optional(),
  }),
  transformCloud: z.object({
    accountId: z.string().min(1),
    jobIds: z.array(z.string()).optional(),
    token: secret(),
    projectId: z.string().optional(),
    apiEndpoint: z.string().optional(),
    defaultDatabaseInstance: z.string().optional(),
  }),
  analyticsSuite: z.object({
    host: z.string().min(1),
    database: z.string().optional(),
    servicePrincipal: z.object({ clientId: z.string().min(1), clientSecret: secret(), tenantId: z.string().optional() }).optional(),
    accessToken: secret(),
    fetchQueryLogs: z.boolean().optional(),
    scope: scope.optional(),
  }),
};
export const IntegrationConfig = oneof(CONFIG_VARIANTS);
export type IntegrationConfig = z.infer<typeof IntegrationConfig>;

/** What a writer sets (Create; Update sends the whole config again). */
export const IntegrationWrite = z.object({
  title: z.string().min(1).max(255),
  config: IntegrationConfig,
});
export type IntegrationWrite = z.infer<typeof IntegrationWrite>;
/** An enum whose value names are product names: read as the number or name the server sends. */
const productEnum = z.union([z.number().int(), z.string()]);
/** An integration as read (secrets answered empty). */
export const Integration = IntegrationWrite.extend({
  id: z.string(),
  disabled: z.boolean().optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
  etag: Etag.optional(),
  /** The data platform (enum whose names are product names). */
  platform: productEnum.optional(),
  dialect: productEnum.optional(),
  /** Server-generated, one variant per type. */
  outputs: z.unknown().optional(),
  capabilities: z
    .object({
      canPatch: z.boolean().optional(),
      canRefresh: z.boolean().optional(),
      canDisable: z.boolean().optional(),
      canEnable: z.boolean().optional(),
      canDelete: z.boolean().optional(),
      isDwh: z.boolean().optional(),
      canReconcileDeploy: z.boolean().optional(),
    })
    .optional(),
});
export type Integration = z.infer<typeof Integration>;

/** Create POST `/api/integrations/v1`: `{ title, config }` (flat). */
export const CreateIntegrationRequest = IntegrationWrite;
/** Update PUT `/api/integrations/v1/{integration_id}`: `{ title?, config (whole), etag? }`; an omitted secret keeps the stored one. */
export const UpdateIntegrationRequest = z.object({ title: z.string().min(1).max(255).optional(), config: IntegrationConfig, etag: Etag.optional() });
export const IntegrationResponse = z.object({ integration: Integration });
export type IntegrationResponse = z.infer<typeof IntegrationResponse>;
export const BatchGetIntegrationsRequest = z.object({ integrationIds: z.array(z.string()).min(1).max(500) });
export const BatchGetIntegrationsResponse = z.object({ integrations: z.record(z.string(), tolerant(Integration)).default({}) });
/** List GET `/api/integrations/v1?disabled=`: unpaged. */
export const ListIntegrationsRequest = z.object({ disabled: z.boolean().optional() });
export const ListIntegrationsResponse = z.object({ integrations: z.array(tolerant(Integration)).default([]) });
/** Delete DELETE `/api/integrations/v1/{integration_id}?etag=`. */
export const DeleteIntegrationRequest = z.object({ etag: Etag.optional() });

const BASE = '/api/integrations/v1';
const EDIT = ['SCOPE_INTEGRATION_EDIT'] as const;
const READ = ['SCOPE_INTEGRATION_READ', 'SCOPE_INTEGRATION_EDIT'] as const;

/**
 * Integrations v1 (`client.integrations`). Routes: ROUTES.md. Write-only secrets
 * ({@link SECRET_FIELDS}) are registered for redaction before sending.
 */
export const integrationsOperations = defineOperations({
  /** CreateIntegration (the server assigns the id). NEVER retried: every call mints a new id; on an ambiguous failure look the integration up by title. */
  create: { method: 'POST', path: BASE, request: CreateIntegrationRequest, response: IntegrationResponse, scopes: EDIT, idempotent: false, args: ['...'], read: { field: 'integration' }, secrets: SECRET_FIELDS },
  /**
   * UpdateIntegration `{ title?, config, etag? }` (flat; the WHOLE config every time; stale etag:
   * ConflictError). Secrets (wire-facts 8): an omitted one keeps the stored value, a new value
   * rotates it, an explicit `""` CLEARS it. Reads answer stored secrets as `""`, so a config read
   * back must lose its empty secrets before it is sent here.
   */
  update: { method: 'PUT', path: `${BASE}/{integration_id}`, request: UpdateIntegrationRequest, response: IntegrationResponse, scopes: EDIT, idempotent: true, args: ['integration_id', '...', 'etag?'], read: { field: 'integration' }, secrets: SECRET_FIELDS },
  /** DeleteIntegration `?etag=...`. */
  delete: { method: 'DELETE', path: `${BASE}/{integration_id}`, request: DeleteIntegrationRequest, response: Empty, scopes: EDIT, idempotent: true, args: ['integration_id', 'etag?'], read: 'none' },
  /** EnableIntegration (no-op if enabled). */
  enable: { method: 'POST', path: `${BASE}/{integration_id}/enable`, response: IntegrationResponse, scopes: EDIT, idempotent: true, args: ['integration_id'], read: { field: 'integration' } },
  /** DisableIntegration (configuration kept). */
  disable: { method: 'POST', path: `${BASE}/{integration_id}/disable`, response: IntegrationResponse, scopes: EDIT, idempotent: true, args: ['integration_id'], read: { field: 'integration' } },
  /** BatchGetIntegrations `{ integrationIds }` in chunks of 500 -> map keyed by id. */
  batchGet: { method: 'POST', path: `${BASE}/by-id`, request: BatchGetIntegrationsRequest, response: BatchGetIntegrationsResponse, scopes: READ, idempotent: true, args: ['integrationIds'], read: { batchGet: 'integrations', limit: INTEGRATIONS_BATCH_LIMIT } },
  /** ListIntegrations (`disabled` filter; unpaged upstream). */
  list: { method: 'GET', path: BASE, request: ListIntegrationsRequest, response: ListIntegrationsResponse, scopes: READ, idempotent: true, args: ['...?'], read: { field: 'integrations' } },
});
