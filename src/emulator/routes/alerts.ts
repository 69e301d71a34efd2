/**
 * Alerts v2 (`alerts.services.v2.AlertsService`): spec 2.2, 3.3, 4.1, 4.3, 4.4 and the upstream
 * facts "Alerts v2".
 *
 * Scopes are any-of sets as wire-facts section 3 lists them (plus the spec's SCOPE_MCP_WRITE for
 * every write): writes SCOPE_ALERTS_EDIT or SCOPE_MCP_WRITE, Upsert SCOPE_MCP_WRITE (spec only),
 * reads (List, BatchGet) SCOPE_ALERTS_READ. Bodies are flat (`body: "*"`) and refused when they
 * carry a key the operation does not declare. Only Upsert, Delete and UpdateSettings take an
 * `etag` (spec 4.1, 4.3, 4.4); Rename, UpdateTargets, UpdateTemplate and ToggleEnabled declare
 * none (wire-facts 3), so one there is refused as undeclared.
 * Alerts are stored in the `alerts` collection keyed by the server-assigned id; the
 * `alertFqns` collection indexes them by fqn (`{ id }` per fqn). Every write bumps the etag.
 *
 * Decisions where the spec is silent (also in src/emulator/README.md):
 * - Delete of a missing alert is NOT_FOUND (clients treat 404 as success).
 * - Upsert and UpdateSettings refuse a kind change (and Upsert an `issueLifecycle.owner`
 *   change) with FAILED_PRECONDITION, rule ids `upsert.kind_unchanged`, `upsert.owner_unchanged`,
 *   `update_settings.kind_unchanged`: changing them is a replace (delete + create).
 * - `source` is read from the body (`source`); absent means SOURCE_API. `isDisabled` is not a
 *   write field (ToggleEnabled sets it): a new alert is enabled, an upsert keeps the flag.
 * - A trigger's `resolverQl` wins: the server stores `renderedResolverQl` (canonical form) and
 *   the translated `query`; bad text is INVALID_ARGUMENT, rule id `<op>.trigger.resolver_ql`.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import * as W from '../../../schemas/platform/alerts';
import { Source } from '../../../schemas/platform/common';
import { canonicalResolverQl, parseResolverQl, queryToResolverQl, ResolverQlError, resolverQlToQuery } from '../../../schemas/tools/resolverql';
import type { RouteContext, RouteTable, SeedHook } from '../app';
import { alreadyExists, failedPrecondition, invalidArgument, notFound, parseBody } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';

/** An alert as stored (the read shape). */
export type AlertRecord = z.output<typeof W.Alert>;

/** A delivery recorded by SendTestAlert (collection `deliveries`). */
export interface DeliveryRecord {
  id: string;
  /** What caused it: `TEST_ALERT`. */
  kind: 'TEST_ALERT';
  target: W.AlertTarget;
  createdAt: string;
  /** One attempt: the request as sent and the response as received (no credentials). */
  attempts: { attemptedAt: string; request: { message: string }; response: { status: string } }[];
}

/** The workspace flag of ToggleIncidentOwnerAlert (collection `alertWorkspaceSettings`, id `incidentOwnerAlert`). */
export interface IncidentOwnerAlertFlag {
  isEnabled: boolean;
}

/** The static message SendTestAlert delivers (spec 6). */
export const TEST_ALERT_MESSAGE = 'This is a test alert sent by the platform.';

/** Id of the demo seed's UI-made alert (fqn `ui.orders-freshness`). */
export const DEMO_ALERT_ID = '5eed0000-0000-4000-8000-00000000a1e7';

const BASE = '/api/alerts/v2';
/** Every write but Upsert: wire-facts SCOPE_ALERTS_EDIT, the spec SCOPE_MCP_WRITE (any-of). */
const WRITE = ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'] as const;
/** Upsert is the spec's newer revision, filed under SCOPE_MCP_WRITE only. */
const UPSERT = ['SCOPE_MCP_WRITE'] as const;
/** List, BatchGet: wire-facts SCOPE_ALERTS_READ. */
const READ = ['SCOPE_ALERTS_READ'] as const;

/** Returns a copy of a JSON value with object keys sorted (deterministic output). */
export function sortKeys<T>(v: T): T {
  if (Array.isArray(v)) return v.map(sortKeys) as T;
  if (v && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) {
      const x = (v as Record<string, unknown>)[k];
      if (x !== undefined) out[k] = sortKeys(x);
    }
    return out as T;
  }
  return v;
}

/**
 * The canonical form of ResolverQL `text` and its translation to the query model; a parse error
 * becomes INVALID_ARGUMENT with the parser's message, the given field path and rule id.
 */
export function renderResolverQlOrThrow(text: string, field: string, ruleId: string): { rendered: string; query: ReturnType<typeof resolverQlToQuery> } {
  try {
    const ast = parseResolverQl(text);
    return { rendered: canonicalResolverQl(text), query: resolverQlToQuery(ast) };
  } catch (e) {
    if (e instanceof ResolverQlError) throw invalidArgument('invalid ResolverQL', [{ field, ruleId, message: e.message }]);
    throw invalidArgument('invalid ResolverQL', [{ field, ruleId, message: (e as Error).message }]);
  }
}

/** The stored form of a trigger: `resolverQl` wins and is rendered and translated. */
function storeTrigger(t: W.AlertTrigger, field: string, op: string): W.AlertTrigger {
  if (t.resolverQl !== undefined && t.resolverQl !== '') {
    const r = renderResolverQlOrThrow(t.resolverQl, `${field}.resolverQl`, `${op}.trigger.resolver_ql`);
    return { resolverQl: t.resolverQl, renderedResolverQl: r.rendered, query: r.query };
  }
  if (!t.query) {
    throw invalidArgument(`invalid ${op} request`, [{ field, ruleId: `${op}.trigger.required`, message: 'a trigger needs resolverQl or query' }]);
  }
  let rendered: string | undefined;
  try {
    rendered = queryToResolverQl(t.query);
  } catch {
    rendered = undefined;
  }
  return { query: t.query, ...(rendered !== undefined ? { renderedResolverQl: rendered } : {}) };
}

/** The kind body of an alert with its trigger stored (rendered). */
function storeKind(a: W.AlertWrite, op: string): Partial<Record<W.AlertKind, unknown>> {
  const kind = W.alertKind(a)!;
  const body = { ...(a[kind] as Record<string, unknown>) };
  if (kind !== 'incidentLifecycle' && body.trigger) body.trigger = storeTrigger(body.trigger as W.AlertTrigger, `alert.${kind}.trigger`, op);
  return { [kind]: body };
}

function checkRules(a: W.AlertWrite, op: string): void {
  const v = W.alertRuleViolations(a);
  if (v.length) throw invalidArgument(`invalid ${op} request`, v.map((x) => ({ field: x.field ?? '', ruleId: x.ruleId ?? op, message: x.message ?? '' })));
}

/** The `source` of a parsed write; default SOURCE_API. */
function sourceOf(req: { source?: z.output<typeof Source> }): z.output<typeof Source> {
  return req.source ?? 'SOURCE_API';
}

function collections(store: Store): { alerts: Collection<AlertRecord>; fqns: Collection<{ id: string }> } {
  return { alerts: store.collection<AlertRecord>('alerts'), fqns: store.collection<{ id: string }>('alertFqns') };
}

function findAlert(store: Store, ident: W.AlertIdentifier): Stored<AlertRecord> | undefined {
  const { alerts, fqns } = collections(store);
  if (ident.id !== undefined) return alerts.get(ident.id);
  const ref = ident.fqn !== undefined ? fqns.get(ident.fqn) : undefined;
  return ref ? alerts.get(ref.id) : undefined;
}

function mustFind(store: Store, ident: W.AlertIdentifier): Stored<AlertRecord> {
  const a = findAlert(store, ident);
  if (!a) throw notFound(`alert ${ident.id !== undefined ? `id ${ident.id}` : `fqn ${ident.fqn}`} not found`);
  return a;
}

/** Stores an alert record (sorted keys, fqn index kept in step). */
function save(store: Store, record: AlertRecord, previousFqn?: string): Stored<AlertRecord> {
  const { alerts, fqns } = collections(store);
  const { etag: _etag, ...rest } = record as AlertRecord & { etag?: string };
  const stored = alerts.put(record.id, sortKeys(rest) as AlertRecord);
  if (previousFqn !== undefined && previousFqn !== record.fqn) fqns.delete(previousFqn);
  if (fqns.get(record.fqn)?.id !== record.id) fqns.put(record.fqn, { id: record.id });
  return stored;
}

/** The alert as written, turned into a new record (fields of `base` kept: id, createdAt, isDisabled). */
function recordOf(a: W.AlertWrite, base: { id: string; createdAt: string; isDisabled?: boolean }, source: z.output<typeof Source>, op: string): AlertRecord {
  return {
    id: base.id,
    name: a.name,
    fqn: a.fqn,
    createdAt: base.createdAt,
    isDisabled: base.isDisabled ?? false,
    source,
    ...(a.template !== undefined ? { template: a.template } : {}),
    ...(a.configId !== undefined && a.configId !== '' ? { configId: a.configId } : {}),
    ...storeKind(a, op),
  } as AlertRecord;
}

/**
 * Creates an alert directly in a store (used by Create, Upsert and the demo seed). Checks the
 * kind/target rules and fqn uniqueness.
 */
export function createAlert(store: Store, a: W.AlertWrite, source: z.output<typeof Source>, now: Date, op = 'create', id: string = randomUUID()): Stored<AlertRecord> {
  checkRules(a, op);
  if (collections(store).fqns.has(a.fqn)) throw alreadyExists(`an alert with fqn ${a.fqn} already exists`);
  return save(store, recordOf(a, { id, createdAt: now.toISOString() }, source, op));
}

/** The write form of a stored alert (for re-validating a changed alert). */
function writeOf(r: AlertRecord): W.AlertWrite {
  const { id: _i, createdAt: _c, etag: _e, source: _s, ...rest } = r as AlertRecord & { etag?: string };
  return rest as W.AlertWrite;
}

function guard(current: Stored<AlertRecord>, etag: string | undefined): void {
  checkEtag(current, etag, `alert ${current.id} (fqn ${current.fqn})`);
}

function ownerOf(r: Partial<Record<W.AlertKind, unknown>>): string | undefined {
  const kind = W.alertKind(r);
  const o = kind ? (r[kind] as { owner?: { ownerPath?: string; ownershipId?: string } } | undefined)?.owner : undefined;
  return o ? `${o.ownerPath ?? ''}/${o.ownershipId ?? ''}` : undefined;
}

function updateSettings(ctx: RouteContext): { alert: AlertRecord } {
  const raw = ctx.body as Record<string, unknown> | undefined;
  const req = parseBody(W.UpdateAlertSettingsRequest, raw, 'update_settings');
  const facets = (['issueLifecycle', 'schemaChange', 'incidentLifecycle'] as const).filter((k) => req[k] !== undefined);
  // Rule 1: at least one facet.
  if (!req.trigger && facets.length === 0) {
    throw invalidArgument('invalid update_settings request', [
      { field: '', ruleId: 'update_settings.at_least_one_facet', message: 'at least one of trigger or the kind-specific settings (issueLifecycle, schemaChange, incidentLifecycle) must be provided' },
    ]);
  }
  if (facets.length > 1) {
    throw invalidArgument('invalid update_settings request', [
      { field: facets[1], ruleId: 'update_settings.single_kind', message: `settings of one kind only; got ${facets.join(' and ')}` },
    ]);
  }
  // Rule 4 (request part): a trigger cannot be combined with incident lifecycle settings.
  if (req.trigger && req.incidentLifecycle) {
    throw invalidArgument('invalid update_settings request', [
      { field: 'trigger', ruleId: 'update_settings.trigger_requires_entity', message: 'a trigger applies to entity alerts only and cannot be combined with incident lifecycle settings' },
    ]);
  }
  const current = mustFind(ctx.store, req.identifier);
  // Rule 5: etag guard.
  guard(current, req.etag);
  const kind = W.alertKind(current)!;
  // Rule 4 (state part): trigger on a non-entity alert.
  if (req.trigger && kind === 'incidentLifecycle') {
    throw invalidArgument('invalid update_settings request', [
      { field: 'trigger', ruleId: 'update_settings.trigger_requires_entity', message: `alert ${current.fqn} is an incident lifecycle alert: a trigger applies to entity (issue and schema change) alerts only` },
    ]);
  }
  // Rule 3: the settings must match the existing kind.
  if (facets.length === 1 && facets[0] !== kind) {
    throw failedPrecondition(`alert ${current.fqn} is a ${kind} alert; settings of kind ${facets[0]} would change its kind, which is not permitted (delete and create it instead)`, [
      { field: facets[0], ruleId: 'update_settings.kind_unchanged', message: `the alert's kind is ${kind}; changing the kind is not permitted` },
    ]);
  }
  // Rule 2: an omitted facet is left unchanged.
  const body = { ...(current[kind] as Record<string, unknown>) };
  if (req.trigger) body.trigger = storeTrigger(req.trigger, 'trigger', 'update_settings');
  if (facets.length === 1) body.settings = req[kind];
  const next = { ...current, [kind]: body } as AlertRecord;
  checkRules(writeOf(next), 'update_settings');
  return { alert: save(ctx.store, next) };
}

function create(ctx: RouteContext) {
  const req = parseBody(W.CreateAlertRequest, ctx.body, 'create');
  return { alert: createAlert(ctx.store, req, sourceOf(req), ctx.now()) };
}

function upsert(ctx: RouteContext) {
  const { etag, ...alert } = parseBody(W.UpsertAlertRequest, ctx.body, 'upsert');
  const source = sourceOf(alert);
  const current = findAlert(ctx.store, { fqn: alert.fqn });
  if (!current) {
    if (etag) checkEtag(undefined, etag, `alert fqn ${alert.fqn}`);
    return { alert: createAlert(ctx.store, alert, source, ctx.now(), 'upsert') };
  }
  guard(current, etag);
  checkRules(alert, 'upsert');
  const was = W.alertKind(current)!;
  const now = W.alertKind(alert)!;
  if (was !== now) {
    throw failedPrecondition(`alert ${current.fqn} is a ${was} alert; upsert cannot change it to ${now} (delete and create it instead)`, [
      { field: now, ruleId: 'upsert.kind_unchanged', message: `the alert's kind is ${was}; changing the kind is a replace` },
    ]);
  }
  if (ownerOf(current) !== ownerOf(alert)) {
    throw failedPrecondition(`alert ${current.fqn}: ${was}.owner is fixed at create (delete and create it instead)`, [
      { field: `${was}.owner`, ruleId: 'upsert.owner_unchanged', message: 'the owner is fixed at create; changing it is a replace' },
    ]);
  }
  return { alert: save(ctx.store, recordOf(alert, { id: current.id, createdAt: current.createdAt ?? ctx.now().toISOString(), isDisabled: current.isDisabled }, source, 'upsert')) };
}

function deleteAlert(ctx: RouteContext) {
  const req = parseBody(W.DeleteAlertRequest, ctx.body, 'delete');
  const current = mustFind(ctx.store, req.identifier);
  guard(current, req.etag);
  const { alerts, fqns } = collections(ctx.store);
  alerts.delete(current.id);
  fqns.delete(current.fqn);
  return {};
}

function rename(ctx: RouteContext) {
  const req = parseBody(W.RenameAlertRequest, ctx.body, 'rename');
  const current = mustFind(ctx.store, req.identifier);
  return { alert: save(ctx.store, { ...current, name: req.name }) };
}

function updateTargets(ctx: RouteContext) {
  const req = parseBody(W.UpdateAlertTargetsRequest, ctx.body, 'update_targets');
  const current = mustFind(ctx.store, req.identifier);
  const kind = W.alertKind(current)!;
  const next = { ...current, [kind]: { ...(current[kind] as Record<string, unknown>), targets: req.targets } } as AlertRecord;
  checkRules(writeOf(next), 'update_targets');
  return { alert: save(ctx.store, next) };
}

function updateTemplate(ctx: RouteContext) {
  const req = parseBody(W.UpdateAlertTemplateRequest, ctx.body, 'update_template');
  const current = mustFind(ctx.store, req.identifier);
  const { template: _t, ...rest } = current;
  return { alert: save(ctx.store, (req.template ? { ...rest, template: req.template } : rest) as AlertRecord) };
}

function toggle(ctx: RouteContext) {
  const req = parseBody(W.ToggleAlertEnabledRequest, ctx.body, 'toggle_enabled');
  const current = mustFind(ctx.store, req.identifier);
  if ((current.isDisabled ?? false) !== !req.isEnabled) save(ctx.store, { ...current, isDisabled: !req.isEnabled });
  return {};
}

function toggleIncidentOwner(ctx: RouteContext) {
  const req = parseBody(W.ToggleIncidentOwnerAlertRequest, ctx.body, 'toggle_incident_owner_alert');
  ctx.store.collection<IncidentOwnerAlertFlag>('alertWorkspaceSettings').put('incidentOwnerAlert', { isEnabled: req.isEnabled });
  return { isEnabled: req.isEnabled };
}

function sendTest(ctx: RouteContext) {
  const req = parseBody(W.SendTestAlertRequest, ctx.body, 'send_test_alert');
  const deliveries = ctx.store.collection<DeliveryRecord>('deliveries');
  const at = ctx.now().toISOString();
  const message = req.name ? `${TEST_ALERT_MESSAGE} (${req.name})` : TEST_ALERT_MESSAGE;
  const dispatches = req.targets.map((target) => {
    const id = randomUUID();
    deliveries.put(id, sortKeys({ id, kind: 'TEST_ALERT' as const, target, createdAt: at, attempts: [{ attemptedAt: at, request: { message }, response: { status: 'DELIVERED' } }] }));
    return { target, dispatched: true };
  });
  return { dispatches };
}

function list(ctx: RouteContext) {
  const req = parseBody(W.ListAlertsRequest, ctx.body, 'list');
  const owner = req.owner ? `${req.owner.ownerPath}/${req.owner.ownershipId}` : undefined;
  const ids = collections(ctx.store)
    .alerts.filter((a) => !owner || ownerOf(a) === owner)
    .map((a) => a.id);
  return { alertsIds: ids };
}

function batchGet(ctx: RouteContext) {
  // wire-facts 3: `identifiers[]` (>= 1, no max): no limit of the emulator's own
  const req = parseBody(W.BatchGetAlertsRequest, ctx.body, 'batch_get');
  const found = new Map<string, AlertRecord>();
  for (const ident of req.identifiers) {
    const a = findAlert(ctx.store, ident);
    if (a) found.set(a.id, a);
  }
  const alerts: Record<string, AlertRecord> = {};
  for (const id of [...found.keys()].sort()) alerts[id] = found.get(id)!;
  return { alerts };
}

/** The alerts v2 routes. */
export const routes: RouteTable = [
  { method: 'POST', path: BASE, scope: WRITE, response: W.AlertResponse, handle: create },
  { method: 'PUT', path: BASE, scope: UPSERT, response: W.AlertResponse, handle: upsert },
  { method: 'DELETE', path: BASE, scope: WRITE, response: W.EmptyResponse, body: true, handle: deleteAlert },
  { method: 'POST', path: `${BASE}/rename`, scope: WRITE, response: W.AlertResponse, handle: rename },
  { method: 'POST', path: `${BASE}/settings`, scope: WRITE, response: W.AlertResponse, handle: updateSettings },
  { method: 'POST', path: `${BASE}/targets`, scope: WRITE, response: W.AlertResponse, handle: updateTargets },
  { method: 'POST', path: `${BASE}/template`, scope: WRITE, response: W.AlertResponse, handle: updateTemplate },
  { method: 'POST', path: `${BASE}/toggle`, scope: WRITE, response: W.EmptyResponse, handle: toggle },
  { method: 'POST', path: `${BASE}/incident-owner`, scope: WRITE, response: W.ToggleIncidentOwnerAlertResponse, handle: toggleIncidentOwner },
  { method: 'POST', path: `${BASE}/test`, scope: WRITE, response: W.SendTestAlertResponse, handle: sendTest },
  { method: 'POST', path: `${BASE}/list`, scope: READ, response: W.ListAlertsResponse, handle: list },
  { method: 'POST', path: `${BASE}/get`, scope: READ, response: W.BatchGetAlertsResponse, handle: batchGet },
];

/** The demo seed's objects. */
export const demoSeed: SeedHook = (store, { now }) => {
  // Made in the UI: SOURCE_APP, no configId ("not managed here" in plans).
  const alert: W.AlertWrite = {
    name: 'Orders freshness (made in the UI)',
    fqn: 'ui.orders-freshness',
    issueLifecycle: {
      trigger: { resolverQl: 'with_type("table",filter=with_name("orders"))' },
      targets: [{ email: { recipientEmails: ['data-team@example.com'] } }],
      settings: { severities: ['SEVERITY_ERROR'] },
    },
  };
  createAlert(store, alert, 'SOURCE_APP', now(), 'seed', DEMO_ALERT_ID);
};
