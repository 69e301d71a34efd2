/**
 * Integrations v1 (spec 2.6, 3.4; upstream facts). Credential fields are write-only: reads
 * return them empty, and dqform shows them as `(sensitive)`. Mark every such field with
 * {@link secret} so that renderers and redaction find them from the schema.
 */
import { z } from 'zod';
import { Etag, oneof } from './common';

/** A write-only credential field. */
export function secret() {
  return z.string().optional().meta({ writeOnly: true, sensitive: true });
}

/** Names of every write-only field in integration configs. */
export const SECRET_FIELDS = ['password', 'privateKey', 'serviceAccountKey', 'token', 'apiKey'] as const;

export const IntegrationConfig = oneof({
  relational: z.object({
    host: z.string().min(1),
    port: z.number().int().min(1).max(65535).optional(),
    database: z.string().min(1),
    username: z.string().min(1),
    password: secret(),
    sslMode: z.string().optional(),
  }),
  warehouseAccount: z.object({
    account: z.string().min(1),
    database: z.string().min(1),
    warehouse: z.string().optional(),
    role: z.string().optional(),
    username: z.string().min(1),
    privateKey: secret(),
  }),
  warehouseProject: z.object({ project: z.string().min(1), serviceAccountKey: secret() }),
  warehouseCluster: z.object({
    cluster: z.string().min(1),
    database: z.string().min(1),
    username: z.string().min(1),
    password: secret(),
  }),
  mysqlLike: z.object({ host: z.string().min(1), port: z.number().int().optional(), username: z.string().min(1), password: secret() }),
  columnStore: z.object({ host: z.string().min(1), port: z.number().int().optional(), username: z.string().min(1), password: secret() }),
  transformCloud: z.object({ apiEndpoint: z.string().min(1), accountId: z.string().min(1), token: secret() }),
});
export type IntegrationConfig = z.infer<typeof IntegrationConfig>;

export const IntegrationWrite = z.object({
  title: z.string().min(1).max(255),
  disabled: z.boolean().optional(),
  /** Data platform name, e.g. `relational`; fixed at create with the config variant. */
  platform: z.string().optional(),
  config: IntegrationConfig,
});
export type IntegrationWrite = z.infer<typeof IntegrationWrite>;
export const Integration = IntegrationWrite.extend({ id: z.string(), etag: Etag.optional() });
export type Integration = z.infer<typeof Integration>;

export const CreateIntegrationRequest = z.object({ integration: IntegrationWrite });
/** PUT `/api/integrations/v1/{integrationId}`: replaces the whole config; an omitted secret keeps the stored one. */
export const UpdateIntegrationRequest = z.object({ integration: IntegrationWrite, etag: Etag.optional() });
export const IntegrationResponse = z.object({ integration: Integration });
export type IntegrationResponse = z.infer<typeof IntegrationResponse>;
export const BatchGetIntegrationsRequest = z.object({ integrationIds: z.array(z.string()).min(1).max(500) });
export const BatchGetIntegrationsResponse = z.object({ integrations: z.record(z.string(), Integration).default({}) });
export const ListIntegrationsResponse = z.object({ integrations: z.array(Integration).default([]) });
