/**
 * Integrations v1 (`integrations.v1.IntegrationsService`): spec 2.6, 3.4, 4.1, 7, 8 and
 * wire-facts section 8. Writes need SCOPE_INTEGRATION_EDIT; BatchGet and List
 * SCOPE_INTEGRATION_READ or SCOPE_INTEGRATION_EDIT. Bodies are flat (`{ title, config }`).
 *
 * - Create mints a new id on every call; a workspace holds at most its quota of integrations
 *   (default {@link DEFAULT_INTEGRATION_QUOTA}; see {@link setIntegrationQuota}), beyond which
 *   Create is RESOURCE_EXHAUSTED (HTTP 429) with a `google.rpc.QuotaFailure` detail.
 * - Update (PUT `/{integration_id}` `{ title?, config, etag? }`) replaces the whole config (it is
 *   required); the config variant is fixed at create (a change is FAILED_PRECONDITION); an
 *   omitted secret keeps the stored one, a new value rotates it, an explicit `""` clears it
 *   (wire-facts 8 "Secrets"). `platform` is the config variant's name.
 * - Secrets ({@link SECRET_FIELDS}) are write-only: stored, never returned. Every read answers a
 *   stored secret as the empty string `""` (spec 2.6 "returned empty"); an unset one is omitted.
 *   They are never logged nor put in error messages.
 * - State table of spec 3.4: Disable keeps the config; Enable (and Disable, body `{}`) of an
 *   integration already in that state is a no-op (no write, etag unchanged); Delete with a stale
 *   `?etag=` is ABORTED (409). Missing ids: NOT_FOUND (404), except in BatchGet where they are
 *   omitted.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import { oneofKey } from '../../../schemas/platform/common';
import {
  BatchGetIntegrationsRequest,
  CreateIntegrationRequest,
  Integration,
  type IntegrationConfig,
  integrationsOperations,
  SECRET_FIELDS,
  UpdateIntegrationRequest,
} from '../../../schemas/platform/integrations';
import type { EmulatorApp, RouteContext, RouteTable } from '../app';
import { routeOf } from '../operations';
import { failedPrecondition, notFound, parseBody, quotaExceeded, withoutPathFields } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';
import { sortKeys } from './alerts';

/** An integration as stored: secrets included (never answered as stored). */
export type IntegrationRecord = z.output<typeof Integration>;

/** Integrations per workspace unless {@link setIntegrationQuota} says otherwise. */
export const DEFAULT_INTEGRATION_QUOTA = 20;

const SECRETS = new Set<string>(SECRET_FIELDS);

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

/** `v` with every secret-named string (at any depth) replaced by `blank(value)`. */
function mapSecrets(v: unknown, blank: (value: string, path: string) => unknown, path = ''): unknown {
  if (Array.isArray(v)) return v.map((x, i) => mapSecrets(x, blank, `${path}[${i}]`));
  if (!v || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
    const p = path ? `${path}.${k}` : k;
    const y = SECRETS.has(k) && typeof x === 'string' ? blank(x, p) : mapSecrets(x, blank, p);
    if (y !== undefined) out[k] = y;
  }
  return out;
}

/** The read form: every stored secret (at any depth) answered as `""`. */
export function redactIntegration(r: Stored<IntegrationRecord> | IntegrationRecord): IntegrationRecord {
  return { ...r, config: mapSecrets(r.config, () => '') as IntegrationConfig };
}

/** The value at a dotted path of `v`. */
function at(v: unknown, path: string): unknown {
  let cur = v;
  for (const k of path.split('.')) cur = cur && typeof cur === 'object' ? (cur as Record<string, unknown>)[k] : undefined;
  return cur;
}

function mustGet(ctx: RouteContext): Stored<IntegrationRecord> {
  const r = integrations(ctx.store).get(ctx.params.integration_id);
  if (!r) throw notFound(`integration ${ctx.params.integration_id} not found`);
  return r;
}

/** Enable/Disable take no field but the path one: the body is `{}`. */
const NoFields = z.object({});

function setDisabled(ctx: RouteContext, disabled: boolean, operation: string): { integration: IntegrationRecord } {
  parseBody(NoFields, withoutPathFields(ctx.body, ['integrationId']), operation);
  const current = mustGet(ctx);
  if ((current.disabled ?? false) === disabled) return { integration: redactIntegration(current) };
  const { etag: _e, ...rest } = current;
  return { integration: redactIntegration(integrations(ctx.store).put(current.id, sortKeys({ ...rest, disabled }))) };
}

function create(ctx: RouteContext) {
  const w = parseBody(CreateIntegrationRequest, ctx.body, 'create_integration');
  const all = integrations(ctx.store);
  const quota = integrationQuota(ctx.app, ctx.principal.workspace);
  if (all.count >= quota) {
    throw quotaExceeded(
      `workspace ${ctx.principal.workspace} already has ${all.count} integrations, its quota is ${quota}: delete one before creating another`,
      `workspace:${ctx.principal.workspace}/integrations`,
      `at most ${quota} integrations per workspace`,
    );
  }
  const id = randomUUID();
  const at = ctx.now().toISOString();
  const record: IntegrationRecord = { id, title: w.title, disabled: false, platform: oneofKey(w.config), config: w.config, createdAt: at, updatedAt: at };
  return { integration: redactIntegration(all.put(id, sortKeys(record))) };
}

function update(ctx: RouteContext) {
  const req = parseBody(UpdateIntegrationRequest, withoutPathFields(ctx.body, ['integrationId']), 'update_integration');
  const current = mustGet(ctx);
  checkEtag(current, req.etag, `integration ${current.id}`);
  const was = oneofKey(current.config)!;
  const now = oneofKey(req.config)!;
  if (was !== now) {
    throw failedPrecondition(`integration ${current.id} is a ${was} integration; its config variant is fixed at create (delete and create a ${now} integration instead)`, [
      { field: `config.${now}`, ruleId: 'update_integration.config_variant_unchanged', message: `the config variant is ${was}; changing it is a replace` },
    ]);
  }
  // wire-facts 8: an omitted secret keeps the stored one, an explicit "" clears it (at any depth)
  const stored = current.config[was] as Record<string, unknown>;
  const kept = (c: unknown, path = ''): unknown => {
    if (!c || typeof c !== 'object' || Array.isArray(c)) return c;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(c as Record<string, unknown>)) out[k] = kept(x, path ? `${path}.${k}` : k);
    for (const f of SECRETS) {
      const p = path ? `${path}.${f}` : f;
      const old = at(stored, p);
      if (out[f] === undefined && typeof old === 'string') out[f] = old;
      else if (out[f] === '') delete out[f];
    }
    return out;
  };
  const record: IntegrationRecord = {
    ...current,
    title: req.title ?? current.title,
    config: { [now]: kept(req.config[now]) } as IntegrationConfig,
    updatedAt: ctx.now().toISOString(),
  };
  const { etag: _e, ...rest } = record as IntegrationRecord & { etag?: string };
  return { integration: redactIntegration(integrations(ctx.store).put(current.id, sortKeys(rest))) };
}

function deleteIntegration(ctx: RouteContext) {
  const current = mustGet(ctx);
  checkEtag(current, (ctx.q as { etag?: string }).etag, `integration ${current.id}`);
  integrations(ctx.store).delete(current.id);
  return {};
}

function disable(ctx: RouteContext) {
  return setDisabled(ctx, true, 'disable_integration');
}

function enable(ctx: RouteContext) {
  return setDisabled(ctx, false, 'enable_integration');
}

function batchGet(ctx: RouteContext) {
  // 1..500 ids (INTEGRATIONS_BATCH_LIMIT) are checked by the schema.
  const req = parseBody(BatchGetIntegrationsRequest, ctx.body, 'batch_get_integrations');
  const out: Record<string, IntegrationRecord> = {};
  for (const id of [...new Set(req.integrationIds)].sort()) {
    const r = integrations(ctx.store).get(id);
    if (r) out[id] = redactIntegration(r);
  }
  return { integrations: out };
}

function list(ctx: RouteContext) {
  const q = ctx.q as { disabled?: boolean };
  return { integrations: integrations(ctx.store).filter((r) => q.disabled === undefined || (r.disabled ?? false) === q.disabled).map(redactIntegration) };
}

/** The integrations v1 routes. */
export const routes: RouteTable = [
  routeOf(integrationsOperations.create, create),
  routeOf(integrationsOperations.update, update),
  routeOf(integrationsOperations.delete, deleteIntegration, { operation: 'delete_integration' }),
  routeOf(integrationsOperations.disable, disable),
  routeOf(integrationsOperations.enable, enable),
  routeOf(integrationsOperations.batchGet, batchGet),
  routeOf(integrationsOperations.list, list, { operation: 'list_integrations' }),
];
