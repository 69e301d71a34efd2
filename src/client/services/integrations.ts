/** Integrations v1. Routes: ROUTES.md. Write-only secrets are registered for redaction before sending. */
import { z } from 'zod';
import { INTEGRATIONS_BATCH_LIMIT } from '../../../schemas/common';
import {
  BatchGetIntegrationsRequest,
  BatchGetIntegrationsResponse,
  CreateIntegrationRequest,
  Integration,
  IntegrationResponse,
  IntegrationWrite,
  ListIntegrationsResponse,
  SECRET_FIELDS,
  UpdateIntegrationRequest,
} from '../../../schemas/integrations';
import { seg } from '../http';
import { registerSecret } from '../redact';
import { batchGetMap, Empty, Service } from './_base';

const BASE = '/api/integrations/v1';

/** Registers every write-only credential of an integration config with the redaction module. */
export function registerIntegrationSecrets(integration: { config?: unknown }): void {
  const variants = (integration.config ?? {}) as Record<string, Record<string, unknown> | undefined>;
  for (const v of Object.values(variants)) {
    if (!v || typeof v !== 'object') continue;
    for (const f of SECRET_FIELDS) if (typeof v[f] === 'string') registerSecret(v[f] as string);
  }
}

export class IntegrationsService extends Service {
  /**
   * CreateIntegration POST `/api/integrations/v1` (the server assigns the id). NEVER retried:
   * every call mints a new id; on an ambiguous failure look the integration up by title.
   */
  async create(integration: z.input<typeof IntegrationWrite>): Promise<Integration> {
    registerIntegrationSecrets(integration);
    const r = await this.http.call({ method: 'POST', path: BASE, body: { integration }, requestSchema: CreateIntegrationRequest, responseSchema: IntegrationResponse, idempotent: false });
    return r.integration;
  }

  /** UpdateIntegration PUT `/api/integrations/v1/{id}` `{ integration, etag }` (stale etag: ConflictError). */
  async update(id: string, integration: z.input<typeof IntegrationWrite>, etag?: string): Promise<Integration> {
    registerIntegrationSecrets(integration);
    const r = await this.http.call({ method: 'PUT', path: `${BASE}/${seg(id)}`, body: { integration, etag }, requestSchema: UpdateIntegrationRequest, responseSchema: IntegrationResponse, idempotent: true });
    return r.integration;
  }

  /** DeleteIntegration DELETE `/api/integrations/v1/{id}?etag=...`. */
  async delete(id: string, etag?: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: `${BASE}/${seg(id)}`, query: { etag }, responseSchema: Empty, idempotent: true });
  }

  /** EnableIntegration POST `/api/integrations/v1/{id}/enable` (no-op if enabled). */
  async enable(id: string): Promise<Integration> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/${seg(id)}/enable`, body: {}, responseSchema: IntegrationResponse, idempotent: true });
    return r.integration;
  }

  /** DisableIntegration POST `/api/integrations/v1/{id}/disable` (configuration kept). */
  async disable(id: string): Promise<Integration> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/${seg(id)}/disable`, body: {}, responseSchema: IntegrationResponse, idempotent: true });
    return r.integration;
  }

  /** BatchGetIntegrations POST `/api/integrations/v1/by-id` `{ integrationIds }`, chunked to 500. */
  batchGet(ids: readonly string[]): Promise<Record<string, Integration>> {
    return batchGetMap(
      ids,
      async (c) => {
        const r = await this.http.call({ method: 'POST', path: `${BASE}/by-id`, body: { integrationIds: c }, requestSchema: BatchGetIntegrationsRequest, responseSchema: BatchGetIntegrationsResponse, idempotent: true });
        return r.integrations;
      },
      INTEGRATIONS_BATCH_LIMIT,
    );
  }

  /** ListIntegrations GET `/api/integrations/v1` (unpaged upstream). */
  async list(): Promise<Integration[]> {
    const r = await this.http.call({ method: 'GET', path: BASE, responseSchema: ListIntegrationsResponse, idempotent: true });
    return r.integrations;
  }
}
