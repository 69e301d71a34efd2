/**
 * Integrations v1 (`integrations.v1.IntegrationsService`): spec 2.6, 3.4, 4.1, 7, 8 and the
 * upstream facts "Integrations v1". Every operation needs SCOPE_INTEGRATION_EDIT (spec 4.1).
 *
 * - Create mints a new id on every call; a workspace holds at most its quota of integrations
 *   (default {@link DEFAULT_INTEGRATION_QUOTA}; see {@link setIntegrationQuota}), beyond which
 *   Create is RESOURCE_EXHAUSTED (HTTP 429).
 * - Update (PUT `/{id}`) replaces the whole config; the config variant (and `platform`) is fixed
 *   at create (a change is FAILED_PRECONDITION); an omitted or empty secret keeps the stored one.
 * - Secrets ({@link SECRET_FIELDS}) are write-only: stored, never returned. Every read answers a
 *   stored secret as the empty string `""` (spec 2.6 "returned empty"); an unset one is omitted.
 *   They are never logged nor put in error messages.
 * - State table of spec 3.4: Disable keeps the config; Enable (and Disable) of an integration
 *   already in that state is a no-op (no write, etag unchanged); Delete with a stale `?etag=` is
 *   ABORTED (409). Missing ids: NOT_FOUND (404), except in BatchGet where they are omitted.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { oneofKey } from '../../../schemas/common';
import {
  BatchGetIntegrationsRequest,
  CreateIntegrationRequest,
  Integration,
  type IntegrationConfig,
  SECRET_FIELDS,
  UpdateIntegrationRequest,
} from '../../../schemas/integrations';
import type { EmulatorApp, RouteContext } from '../app';
import { failedPrecondition, notFound, parseBody, resourceExhausted } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';
import { sortKeys } from './alerts';

/** An integration as stored: secrets included (never answered as stored). */
export type IntegrationRecord = z.output<typeof Integration>;

/** Integrations per workspace unless {@link setIntegrationQuota} says otherwise. */
export const DEFAULT_INTEGRATION_QUOTA = 20;

const SCOPE = 'SCOPE_INTEGRATION_EDIT' as const;
const BASE = '/api/integrations/v1';

const quotas = new WeakMap<EmulatorApp, { all?: number; byWorkspace: Map<string, number> }>();

/**
 * Sets the integration quota of an emulator (test and admin hook): for one workspace, or for
 * every workspace when `workspace` is omitted. `undefined` quota restores the default.
 * The environment variable `DQ_EMULATOR_INTEGRATION_QUOTA` sets the default of a process.
 */
export function setIntegrationQuota(app: EmulatorApp, quota: number | undefined, workspace?: string): void {
  const q = quotas.get(app) ?? { byWorkspace: new Map<string, number>() };
  if (workspace === undefined) q.all = quota;
  else if (quota === undefined) q.byWorkspace.delete(workspace);
  else q.byWorkspace.set(workspace, quota);
  quotas.set(app, q);
}

/** The integration quota of a workspace. */
export function integrationQuota(app: EmulatorApp, workspace: string): number {
  const q = quotas.get(app);
  const env = Number(process.env.DQ_EMULATOR_INTEGRATION_QUOTA);
  return q?.byWorkspace.get(workspace) ?? q?.all ?? (Number.isInteger(env) && env >= 0 ? env : DEFAULT_INTEGRATION_QUOTA);
}

function integrations(store: Store): Collection<IntegrationRecord> {
  return store.collection<IntegrationRecord>('integrations');
}

/** The read form: every stored secret answered as `""`. */
export function redactIntegration(r: Stored<IntegrationRecord> | IntegrationRecord): IntegrationRecord {
  const variant = oneofKey(r.config);
  if (!variant) return r;
  const cfg = { ...(r.config[variant] as Record<string, unknown>) };
  for (const f of SECRET_FIELDS) if (cfg[f] !== undefined) cfg[f] = '';
  return { ...r, config: { [variant]: cfg } as IntegrationConfig };
}

function mustGet(ctx: RouteContext): Stored<IntegrationRecord> {
  const r = integrations(ctx.store).get(ctx.params.integration_id);
  if (!r) throw notFound(`integration ${ctx.params.integration_id} not found`);
  return r;
}

/** The optional etag of enable/disable: body `etag` or query `?etag=`. */
function etagParam(ctx: RouteContext): string | undefined {
  const b = ctx.body as { etag?: unknown } | undefined;
  if (b && typeof b.etag === 'string') return b.etag;
  return ctx.query.get('etag') ?? undefined;
}

function setDisabled(ctx: RouteContext, disabled: boolean): { integration: IntegrationRecord } {
  const current = mustGet(ctx);
  checkEtag(current, etagParam(ctx), `integration ${current.id}`);
  if ((current.disabled ?? false) === disabled) return { integration: redactIntegration(current) };
  const { etag: _e, ...rest } = current;
  return { integration: redactIntegration(integrations(ctx.store).put(current.id, sortKeys({ ...rest, disabled }))) };
}

/** Registers the integrations v1 routes. */
export function register(app: EmulatorApp): void {
  app.route('POST', BASE, { scope: SCOPE }, (ctx) => {
    const req = parseBody(CreateIntegrationRequest, ctx.body, 'create_integration');
    const all = integrations(ctx.store);
    const quota = integrationQuota(ctx.app, ctx.principal.workspace);
    if (all.count >= quota) {
      throw resourceExhausted(`workspace ${ctx.principal.workspace} already has ${all.count} integrations, its quota is ${quota}: delete one before creating another`);
    }
    const id = randomUUID();
    const w = req.integration;
    const record: IntegrationRecord = { id, title: w.title, disabled: w.disabled ?? false, platform: w.platform ?? oneofKey(w.config), config: w.config };
    return { integration: redactIntegration(all.put(id, sortKeys(record))) };
  });

  app.route('PUT', `${BASE}/:integration_id`, { scope: SCOPE }, (ctx) => {
    const req = parseBody(UpdateIntegrationRequest, ctx.body, 'update_integration');
    const current = mustGet(ctx);
    checkEtag(current, req.etag, `integration ${current.id}`);
    const w = req.integration;
    const was = oneofKey(current.config)!;
    const now = oneofKey(w.config)!;
    if (was !== now) {
      throw failedPrecondition(`integration ${current.id} is a ${was} integration; its config variant is fixed at create (delete and create a ${now} integration instead)`, [
        { field: `integration.config.${now}`, ruleId: 'update_integration.config_variant_unchanged', message: `the config variant is ${was}; changing it is a replace` },
      ]);
    }
    if (w.platform !== undefined && w.platform !== '' && w.platform !== current.platform) {
      throw failedPrecondition(`integration ${current.id}: platform ${current.platform ?? ''} is fixed at create`, [
        { field: 'integration.platform', ruleId: 'update_integration.platform_unchanged', message: 'the platform is fixed at create; changing it is a replace' },
      ]);
    }
    const stored = current.config[was] as Record<string, unknown>;
    const cfg = { ...(w.config[now] as Record<string, unknown>) };
    for (const f of SECRET_FIELDS) {
      if ((cfg[f] === undefined || cfg[f] === '') && stored[f] !== undefined) cfg[f] = stored[f];
      else if (cfg[f] === '') delete cfg[f];
    }
    const record: IntegrationRecord = {
      id: current.id,
      title: w.title,
      disabled: w.disabled ?? current.disabled ?? false,
      ...(current.platform !== undefined ? { platform: current.platform } : {}),
      config: { [now]: cfg } as IntegrationConfig,
    };
    return { integration: redactIntegration(integrations(ctx.store).put(current.id, sortKeys(record))) };
  });

  app.route('DELETE', `${BASE}/:integration_id`, { scope: SCOPE }, (ctx) => {
    const current = mustGet(ctx);
    const etag = ctx.query.get('etag') ?? (ctx.body as { etag?: string } | undefined)?.etag;
    checkEtag(current, etag, `integration ${current.id}`);
    integrations(ctx.store).delete(current.id);
    return {};
  });

  app.route('POST', `${BASE}/:integration_id/disable`, { scope: SCOPE }, (ctx) => setDisabled(ctx, true));
  app.route('POST', `${BASE}/:integration_id/enable`, { scope: SCOPE }, (ctx) => setDisabled(ctx, false));

  app.route('POST', `${BASE}/by-id`, { scope: SCOPE }, (ctx) => {
    // 1..500 ids (INTEGRATIONS_BATCH_LIMIT) are checked by the schema.
    const req = parseBody(BatchGetIntegrationsRequest, ctx.body, 'batch_get_integrations');
    const out: Record<string, IntegrationRecord> = {};
    for (const id of [...new Set(req.integrationIds)].sort()) {
      const r = integrations(ctx.store).get(id);
      if (r) out[id] = redactIntegration(r);
    }
    return { integrations: out };
  });

  app.route('GET', BASE, { scope: SCOPE }, (ctx) => ({ integrations: integrations(ctx.store).values().map(redactIntegration) }));
}
