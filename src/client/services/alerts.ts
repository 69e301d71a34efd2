/** Alerts v2 (`alerts.services.v2.AlertsService`). Routes: ROUTES.md. */
import { z } from 'zod';
import { type TestAlertDispatch, Alert, AlertIdentifier, AlertResponse, AlertTarget, type AlertTemplate, AlertWrite, BatchGetAlertsRequest, BatchGetAlertsResponse, CreateAlertRequest, DeleteAlertRequest, ListAlertsRequest, ListAlertsResponse, RenameAlertRequest, SendTestAlertRequest, SendTestAlertResponse, ToggleAlertEnabledRequest, ToggleIncidentOwnerAlertRequest, ToggleIncidentOwnerAlertResponse, UpdateAlertSettingsRequest, UpdateAlertTargetsRequest, UpdateAlertTemplateRequest, UpsertAlertRequest } from '../../../schemas/platform/alerts';
import { BATCH_LIMIT } from '../../../schemas/platform/common';
import { chunk } from '../paging';
import { Empty, Service } from './_base';

const BASE = '/api/alerts/v2';

/**
 * Alerts v2. Upsert, Delete and UpdateSettings take an optional etag guard (stale: ConflictError);
 * Rename, UpdateTargets, UpdateTemplate and ToggleEnabled declare none (wire-facts 3), so none is
 * sent: a caller guards those by reading before and after (src/kinds/alert/handler.ts).
 */
export class AlertsService extends Service {
  /** Create POST `/api/alerts/v2` (flat body: the alert's fields). Not retried (use {@link upsert} for idempotent writes). */
  async create(alert: z.input<typeof AlertWrite>): Promise<Alert> {
    const r = await this.http.call({ method: 'POST', path: BASE, body: alert, requestSchema: CreateAlertRequest, responseSchema: AlertResponse, idempotent: false });
    return r.alert;
  }

  /**
   * Upsert PUT `/api/alerts/v2` (flat body: the alert's fields plus `etag`): creates when no
   * alert holds the fqn, otherwise replaces. `isDisabled` is not a write field: see {@link toggleEnabled}.
   */
  async upsert(alert: z.input<typeof AlertWrite>, etag?: string): Promise<Alert> {
    const r = await this.http.call({ method: 'PUT', path: BASE, body: { ...alert, etag }, requestSchema: UpsertAlertRequest, responseSchema: AlertResponse, idempotent: true });
    return r.alert;
  }

  /** Delete DELETE `/api/alerts/v2` with a JSON body `{ identifier, etag }` (spec 4.3). */
  async delete(identifier: AlertIdentifier, etag?: string): Promise<void> {
    await this.http.call({ method: 'DELETE', path: BASE, body: { identifier, etag }, requestSchema: DeleteAlertRequest, responseSchema: Empty, idempotent: true });
  }

  /** Rename POST `/api/alerts/v2/rename` `{ identifier, name }` (no etag: wire-facts 3 declares none). */
  async rename(identifier: AlertIdentifier, name: string): Promise<Alert> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/rename`, body: { identifier, name }, requestSchema: RenameAlertRequest, responseSchema: AlertResponse, idempotent: true });
    return r.alert;
  }

  /** UpdateSettings POST `/api/alerts/v2/settings` (spec 4.4; at least one facet). */
  async updateSettings(req: z.input<typeof UpdateAlertSettingsRequest>): Promise<Alert> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/settings`, body: req, requestSchema: UpdateAlertSettingsRequest, responseSchema: AlertResponse, idempotent: true });
    return r.alert;
  }

  /** UpdateTargets POST `/api/alerts/v2/targets` (replaces the targets; no etag: wire-facts 3 declares none). */
  async updateTargets(identifier: AlertIdentifier, targets: z.input<typeof AlertTarget>[]): Promise<Alert> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/targets`, body: { identifier, targets }, requestSchema: UpdateAlertTargetsRequest, responseSchema: AlertResponse, idempotent: true });
    return r.alert;
  }

  /** UpdateTemplate POST `/api/alerts/v2/template`; an omitted template clears it (no etag: wire-facts 3 declares none). */
  async updateTemplate(identifier: AlertIdentifier, template: AlertTemplate | undefined): Promise<Alert> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/template`, body: { identifier, template }, requestSchema: UpdateAlertTemplateRequest, responseSchema: AlertResponse, idempotent: true });
    return r.alert;
  }

  /**
   * ToggleEnabled POST `/api/alerts/v2/toggle` `{ identifier, isEnabled }` (`isEnabled` is the
   * inverse of `isDisabled`; no etag: wire-facts 3 declares none); answers `{}`.
   */
  async toggleEnabled(identifier: AlertIdentifier, isEnabled: boolean): Promise<void> {
    await this.http.call({ method: 'POST', path: `${BASE}/toggle`, body: { identifier, isEnabled }, requestSchema: ToggleAlertEnabledRequest, responseSchema: Empty, idempotent: true });
  }

  /** ToggleIncidentOwnerAlert POST `/api/alerts/v2/incident-owner` (the workspace's one incident-owner alert). */
  async toggleIncidentOwnerAlert(isEnabled: boolean): Promise<boolean> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/incident-owner`, body: { isEnabled }, requestSchema: ToggleIncidentOwnerAlertRequest, responseSchema: ToggleIncidentOwnerAlertResponse, idempotent: true });
    return r.isEnabled;
  }

  /**
   * SendTestAlert POST `/api/alerts/v2/test` `{ name?, kind?, targets }`: sends a message, so
   * never retried. Answers one dispatch per target (`dispatched`, `error`).
   */
  async sendTestAlert(targets: z.input<typeof AlertTarget>[], opts: { name?: string; kind?: z.input<typeof SendTestAlertRequest>['kind'] } = {}): Promise<TestAlertDispatch[]> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/test`, body: { name: opts.name, kind: opts.kind, targets }, requestSchema: SendTestAlertRequest, responseSchema: SendTestAlertResponse, idempotent: false });
    return r.dispatches;
  }

  /** List POST `/api/alerts/v2/list` `{ owner? }` -> every alert id of the workspace (unpaged; the only filter is an owner). */
  async list(filter: z.input<typeof ListAlertsRequest> = {}): Promise<string[]> {
    const r = await this.http.call({ method: 'POST', path: `${BASE}/list`, body: filter, requestSchema: ListAlertsRequest, responseSchema: ListAlertsResponse, idempotent: true });
    return r.alertsIds;
  }

  /**
   * BatchGet POST `/api/alerts/v2/get` `{ identifiers[] }`, chunked to 200 -> map keyed by the
   * alert id. Unknown identifiers are absent.
   */
  async batchGet(identifiers: AlertIdentifier[]): Promise<Record<string, Alert>> {
    const out: Record<string, Alert> = {};
    for (const c of chunk(identifiers, BATCH_LIMIT)) {
      const r = await this.http.call({ method: 'POST', path: `${BASE}/get`, body: { identifiers: c }, requestSchema: BatchGetAlertsRequest, responseSchema: BatchGetAlertsResponse, idempotent: true });
      Object.assign(out, r.alerts);
    }
    return out;
  }
}
