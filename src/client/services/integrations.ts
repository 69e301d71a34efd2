/** Integrations v1. Routes: ROUTES.md. Write-only secrets are registered for redaction before sending. */
import { z } from 'zod';
import { INTEGRATIONS_BATCH_LIMIT } from '../../../schemas/platform/common';
import { BatchGetIntegrationsRequest, BatchGetIntegrationsResponse, CreateIntegrationRequest, DeleteIntegrationRequest, Integration, IntegrationResponse, IntegrationWrite, ListIntegrationsRequest, ListIntegrationsResponse, SECRET_FIELDS, UpdateIntegrationRequest } from '../../../schemas/platform/integrations';
import { toQuery } from '../../../schemas/platform/wire';
import { seg } from '../http';
import { registerSecret } from '../redact';
import { batchGetMap, Empty, Service } from './_base';

const BASE = '/api/integrations/v1';

/** Registers every write-only credential of an integration config (at any depth) with the redaction module. */
export function registerIntegrationSecrets(integration: { config?: unknown }): void {
  const secretNames = new Set<string>(SECRET_FIELDS);
  const walk = (v: unknown): void => {
    if (!v || typeof v !== 'object') return;
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      if (secretNames.has(k) && typeof x === 'string' && x !== '') registerSecret(x);
      else walk(x);
    }
  };
  walk(integration.config);
}

export class IntegrationsService extends Service {
  /**
   * CreateIntegration POST `/api/integrations/v1` (the server assigns the id). NEVER retried:
   * every call mints a new id; on an ambiguous failure look the integration up by title.
   */
  async create(integration: z.input<typeof IntegrationWrite>): Promise<Integration> {
    registerIntegrationSecrets(integration);
    const r = await this.http.call({ method: 'POST', path: BASE, body: integration, requestSchema: CreateIntegrationRequest, responseSchema: IntegrationResponse, idempotent: false });
    return r.integration;
  }

  /**
   * UpdateIntegration PUT `/api/integrations/v1/{id}` `{ title?, config, etag? }` (flat; the WHOLE
   * config every time; stale etag: ConflictError). Secrets (wire-facts 8): an omitted one keeps
   * the stored value, a new value rotates it, an explicit `""` CLEARS it. Reads answer stored
   * secrets as `""`, so a config read back must lose its empty secrets before it is sent here.
   */
  async update(id: string, integration: { title?: string; config: z.input<typeof IntegrationWrite>['config'] }, etag?: string): Promise<Integration> {
    registerIntegrationSecrets(integration);
    const r = await this.http.call({ method: 'PUT', path: `${BASE}/${seg(id)}`, body: { title: integration.title, config: integration.config, etag }, requestSchema: UpdateIntegrationRequest, responseSchema: IntegrationResponse, idempotent: true });
    return r.integration;
  }

  /** DeleteIntegration DELETE `/api/integrations/v1/{id}?etag=...`. */
  async delete(id: string, etag?: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: `${BASE}/${seg(id)}`, query: toQuery(DeleteIntegrationRequest, { etag }), responseSchema: Empty, idempotent: true });
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

  /** ListIntegrations GET `/api/integrations/v1` (`disabled` filter; unpaged upstream). */
  async list(filter: { disabled?: boolean } = {}): Promise<Integration[]> {
    const r = await this.http.call({ method: 'GET', path: BASE, query: toQuery(ListIntegrationsRequest, filter), responseSchema: ListIntegrationsResponse, idempotent: true });
    return r.integrations;
  }
}
