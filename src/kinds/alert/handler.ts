/**
 * `dq_alert`: alerts v2, addressed by `fqn`.
 *
 * - read: List (all alert ids of the workspace, no filter, so other namespaces and UI-made alerts
 *   are seen and reported) then BatchGet by id in chunks of 200: `1 + ceil(n / 200)` requests.
 * - create: Create (POST), which refuses a taken fqn: an alert made meanwhile (in the UI, by
 *   another namespace or apply) is a conflict, never overwritten or adopted; an identical alert
 *   of this namespace at the fqn (a create that won a race with the same content) counts as done.
 *   A create after a crash is planned as an update of what the first run made (plan reads it).
 * - update: Upsert (PUT, flat body) with the plan's etag. `isDisabled` is no write field
 *   upstream: when it differs, ToggleEnabled follows. ToggleEnabled declares no etag (wire-facts
 *   3), so its guard is dqform's own, as for the kinds without etags: the alert is read right
 *   before the toggle and must still be what the write answered, and read back after
 *   ({@link setEnabled}).
 * - delete: Delete by fqn with the plan's etag; NOT_FOUND is success.
 * - `source` is not part of the alert write shape (the client strips it); the server sets
 *   SOURCE_API for API writes.
 * - kind and `issueLifecycle.owner` cannot change in place: {@link alertsHandler.replaceReasons}.
 */
import { AlreadyExistsError, type PlatformClient } from '../../client';
import type { Alert, AlertWrite } from '../../../schemas/platform/alerts';
import { BATCH_LIMIT } from '../../../schemas/platform/common';
import { chunk } from '../../client/paging';
import { alertKind } from '../../../schemas/platform/alerts';
import type { Change } from '../../../schemas/model/plan';
import { fingerprint, normalise } from '../shared/normalise';
import { tallyRetries } from '../../client/attempts';
import { afterOf, dropEmpty, etagVersion, ignoreNotFound, liveObject, omit, qlFormAt, WriteConflictError } from '../shared/support';
import type { HandlerContext, LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { alertDescriptor } from './descriptor';

/** Server-computed and identity fields of an alert. */
export const ALERT_DROP = ['id', 'fqn', 'etag', 'createdAt', 'configId', 'source'] as const;

/** The comparable form of an alert (live or desired). */
export function canonicalAlert(a: Record<string, unknown>): Record<string, unknown> {
  let o = omit(a, ALERT_DROP);
  const kind = alertKind(o);
  if (kind && o[kind] && typeof o[kind] === 'object') o[kind] = qlFormAt(o[kind] as Record<string, unknown>, 'trigger');
  o = normalise(o);
  o = dropEmpty(o, 'template');
  if (kind && o[kind] && typeof o[kind] === 'object') o[kind] = dropEmpty(o[kind] as Record<string, unknown>, 'settings');
  return o;
}

function alertWrite(change: Change, ctx: HandlerContext): AlertWrite {
  const { isDisabled: _d, ...fields } = afterOf(change);
  return { ...fields, fqn: change.fqn ?? change.id, configId: ctx.namespace, source: 'SOURCE_API' } as AlertWrite;
}

/** Whether a normalised alert is disabled (`isDisabled: false` is dropped as a zero value). */
function disabled(v: unknown): boolean {
  return !!(v && typeof v === 'object' && (v as { isDisabled?: unknown }).isDisabled === true);
}

/**
 * Why the alert read now (`now`) is not `written` (what Create or Upsert answered) with the flag
 * `isDisabled`, or undefined. `bumps`: the versions `now` may be at, as steps after `written`'s
 * (etags `W/"<id>-<n>"`): none before the toggle; after it none or one (whether the platform
 * counts a toggle as a new version is not stated), so a second write in between is caught.
 * Undefined skips the version check.
 */
function differsFrom(now: Alert | undefined, written: Alert, isDisabled: boolean, bumps: readonly number[] | undefined): string | undefined {
  if (!now) return 'the alert is gone (deleted by someone else)';
  const content = (a: Alert) => fingerprint(omit(canonicalAlert(a as unknown as Record<string, unknown>), ['isDisabled']));
  if (content(now) !== content(written)) return 'the alert holds something other than what dqform wrote (someone else wrote it at the same time)';
  if ((now.isDisabled ?? false) !== isDisabled) return `the alert is ${now.isDisabled ? 'disabled' : 'enabled'} (someone else switched it)`;
  const base = etagVersion(written.etag);
  const got = etagVersion(now.etag);
  if (bumps !== undefined && base !== undefined && got !== undefined && !bumps.some((b) => got === base + b)) {
    return `the alert is at version ${got}, expected ${bumps.map((b) => base + b).join(' or ')} (someone else wrote it in between)`;
  }
  return undefined;
}

/**
 * Toggles the enabled flag when it must change (it is not part of Create or Upsert). ToggleEnabled
 * declares no etag (wire-facts 3; the gateway drops undeclared keys silently), so the guard is
 * dqform's own, as for the kinds without etags: the alert is read right before the toggle and must
 * be exactly what the write answered (content, flag and version), and read back after: it must
 * hold the same content with the wanted flag, at most one version on (unless the client retried
 * the toggle, whose first attempt may have landed). Either check failing is a
 * {@link WriteConflictError}; before the toggle, nothing is toggled. The alert is addressed by id:
 * an alert deleted and made again at the fqn meanwhile is not the one written.
 */
async function setEnabled(client: PlatformClient, change: Change, stored: Alert): Promise<void> {
  const want = disabled(change.after);
  const was = stored.isDisabled ?? false;
  if (was === want) return;
  const read = async () => (await client.alerts.batchGet([{ id: stored.id }]))[stored.id];
  const switching = want ? 'disabled' : 'enabled';
  const before = differsFrom(await read(), stored, was, [0]);
  if (before) throw new WriteConflictError(change.address, `${before}, checked right before dqform ${switching} it; not ${switching}. Plan again and review what live state holds now`);
  const { retries } = await tallyRetries(() => client.alerts.toggleEnabled({ id: stored.id }, !want));
  const after = differsFrom(await read(), stored, want, retries > 0 ? undefined : [0, 1]);
  if (after) throw new WriteConflictError(change.address, `${after}, read back after dqform ${switching} it. Plan again and review what live state holds now`);
}

/** Who holds an alert that dqform did not expect to exist. */
function holder(a: Alert): string {
  return a.configId ? `namespace "${a.configId}"` : (a.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? 'someone in the UI' : 'an API client outside dqform';
}

/**
 * Creates with Create, which refuses an fqn that is taken (ALREADY_EXISTS): an alert made
 * meanwhile by someone else (in the UI, by another namespace or another apply) is never
 * overwritten. The one case counted as done: the alert at that fqn is already exactly what this
 * change creates, for this namespace (an identical create won the race, so nothing differs).
 */
async function create(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<void> {
  const fqn = change.fqn ?? change.id;
  let stored: Alert;
  try {
    stored = await client.alerts.create(alertWrite(change, ctx));
  } catch (e) {
    if (!(e instanceof AlreadyExistsError)) throw e;
    const found = Object.values(await client.alerts.batchGet([{ fqn }]))[0];
    const same = found && found.configId === ctx.namespace && fingerprint(omit(canonicalAlert(found), ['isDisabled'])) === fingerprint(omit((change.after ?? {}) as Record<string, unknown>, ['isDisabled']));
    if (!found || !same) {
      throw new WriteConflictError(change.address, `an alert with fqn ${JSON.stringify(fqn)} was created by ${found ? holder(found) : 'someone else'} after the plan; dqform did not overwrite it. Plan again: adopt it with an import block, or pin another fqn`);
    }
    stored = found;
  }
  await setEnabled(client, change, stored);
}

/** The `dq_alert` handler. */
export const alertsHandler: ResourceHandler = {
  type: alertDescriptor.type,
  label: alertDescriptor.label,

  async read(client: PlatformClient, _q: ReadQuery): Promise<LiveObject[]> {
    const ids = await client.alerts.list();
    if (ids.length === 0) return [];
    // Chunks of BATCH_LIMIT fetched 4 at a time (the client's batchGet fetches its chunks one
    // after another: 50 round trips for 10,000 alerts), merged in chunk order. Perf only.
    const chunks = chunk([...new Set(ids)].sort().map((id) => ({ id })), BATCH_LIMIT);
    const parts: Record<string, Alert>[] = new Array(chunks.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(4, chunks.length) }, async () => {
        while (next < chunks.length) {
          const i = next++;
          parts[i] = await client.alerts.batchGet(chunks[i]);
        }
      }),
    );
    const byId: Record<string, Alert> = Object.assign({}, ...parts);
    return Object.values(byId)
      .map((a) => liveObject(a.fqn, a))
      .sort((x, y) => (x.key < y.key ? -1 : x.key > y.key ? 1 : 0));
  },

  fromLive: canonicalAlert,
  fromDesired: canonicalAlert,

  replaceReasons(before, after) {
    const out: string[] = [];
    const kb = alertKind(before);
    const ka = alertKind(after);
    if (kb && ka && kb !== ka) out.push(`the alert kind changes from ${kb} to ${ka}; the API cannot change an alert's kind in place`);
    if (kb && kb === ka && kb !== 'incidentLifecycle') {
      const text = (o: { ownerPath?: string; ownershipId?: string } | undefined) => (o ? `${o.ownerPath ?? ''} (ownership ${o.ownershipId ?? ''})` : '(none)');
      const ob = (before[kb] as { owner?: { ownerPath?: string; ownershipId?: string } } | undefined)?.owner;
      const oa = (after[ka] as { owner?: { ownerPath?: string; ownershipId?: string } } | undefined)?.owner;
      if (text(ob) !== text(oa)) out.push(`${kb}.owner changes from ${text(ob)} to ${text(oa)}; an alert's owner is fixed at create`);
    }
    return out;
  },

  async create(client, change, ctx) {
    await create(client, change, ctx);
  },

  async update(client, change, ctx) {
    await setEnabled(client, change, await client.alerts.upsert(alertWrite(change, ctx), change.etag));
  },

  async delete(client, change) {
    await ignoreNotFound(client.alerts.delete({ fqn: change.fqn ?? change.id }, change.etag));
  },
};
