/**
 * `dq_integration`: integrations v1 (server-assigned ids, etag guard, write-only secrets).
 *
 * - identity: the title's marker `[dqform:<id> ...]` (./marker.ts) carries the derived id of the
 *   resource's address: a live integration's `id` (for the engine) is that id, its `key` the
 *   platform's id. Integrations without a marker have no namespace tag: never pruned, written
 *   only through an import block.
 * - read: List (unpaged, one request), keeping those whose marker carries the namespace tag and
 *   the ids asked for (platform ids or marker ids).
 * - comparable form: `{ config, enabled, title }`: the title without the marker, the config
 *   variant without secret values, each secret dqform set shown as its `<secret>Version` (from
 *   the marker live, from the code desired, default 1). Secret values are never compared: the
 *   platform returns them empty.
 * - create: Create with every declared secret read from its reference, then Disable when
 *   `enabled: false`. Never retried (every call mints an id); a re-run finds it by its marker.
 * - update: Update with the whole config (the platform requires it) and the plan's etag; a
 *   secret is sent only when its version differs from the marker's (else omitted: kept), then
 *   Enable/Disable when that changed. A change of config variant is a replace.
 * - delete: Delete with the plan's etag; NOT_FOUND is success.
 */
import { oneofKey } from '../../../schemas/platform/common';
import type { Integration } from '../../../schemas/platform/integrations';
import type { Change, Reason } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { afterOf, ignoreNotFound, liveObject } from '../shared/support';
import type { HandlerContext, ListedObject, LiveObject, ResourceHandler } from '../shared/types';
import { integrationDescriptor } from './descriptor';
import { markedTitle, parseTitle } from './marker';
import { SECRET_FIELDS } from '../../../schemas/platform/integrations';
import { bindSecretRefs, boundSecrets, declaredSecrets, readSecret, setPath, withoutSecrets } from './secrets';
import { DqformError } from '../../../schemas/tools/errors';

type Json = Record<string, unknown>;
const SECRETS: ReadonlySet<string> = new Set(SECRET_FIELDS);
/** A dqform-derived id (UUIDv8, RFC variant: src/engine/identity.ts): what a created integration's marker carries. */
const DERIVED = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i;
const isObj = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Drops what protojson may emit for unset fields (0 ports, empty objects) after {@link normalise}. */
function dropUnset(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(dropUnset);
  if (!isObj(v)) return v;
  const out: Json = {};
  for (const [k, x] of Object.entries(v)) {
    const y = dropUnset(x);
    if (y === 0 || (isObj(y) && Object.keys(y).length === 0)) continue;
    out[k] = y;
  }
  return out;
}

/** `keyPair.privateKeySecret` -> `keyPair.privateKeySecretVersion`: where a secret's version shows in the comparable form. */
const versionPath = (path: string): string => `${path}Version`;

/**
 * The comparable config: `{ <variant>: fields without secret values }`, each secret dqform set
 * shown by its version counter (`passwordVersion`, as code writes it), or `{}` without a variant.
 */
function canonicalConfig(config: unknown, versions: Readonly<Record<string, number>>): Json {
  if (!isObj(config)) return {};
  const variant = oneofKey(config);
  if (!variant) return {};
  const body = withoutSecrets(config[variant]) as Json;
  for (const path of Object.keys(versions)) setPath(body, versionPath(path), versions[path]);
  return { [variant]: dropUnset(normalise({ v: body }).v ?? {}) as Json };
}

function comparable(title: string, disabled: boolean, config: Json): Json {
  return { config, enabled: !disabled, title };
}

/** The comparable form of a live integration (secret versions from the title's marker). */
export function canonicalLive(raw: Json): Json {
  const m = parseTitle(raw.title);
  return comparable(m.title, raw.disabled === true, canonicalConfig(raw.config, m.versions));
}

/** The comparable form of a desired integration (secrets as their versions, default 1). */
export function canonicalDesired(d: Json): Json {
  const config = isObj(d.config) ? d.config : {};
  const variant = oneofKey(config);
  const versions: Record<string, number> = {};
  if (variant) for (const s of declaredSecrets(config[variant])) versions[s.path] = s.version;
  return comparable(String(d.title ?? ''), d.enabled === false, canonicalConfig(config, versions));
}

/** The config variant of a comparable form. */
const variantOf = (c: unknown): string | undefined => (isObj(c) && isObj(c.config) ? oneofKey(c.config) : undefined);

/** Secret path -> version of a comparable form (its `<secret>Version` fields). */
export function secretsOf(c: unknown): Record<string, number> {
  const out: Record<string, number> = {};
  const variant = variantOf(c);
  const walk = (v: unknown, prefix: string): void => {
    if (!isObj(v)) return;
    for (const [k, x] of Object.entries(v)) {
      const base = k.endsWith('Version') ? k.slice(0, -'Version'.length) : undefined;
      if (base !== undefined && SECRETS.has(base) && typeof x === 'number') out[prefix + base] = x;
      else walk(x, `${prefix}${k}.`);
    }
  };
  if (variant) walk(((c as Json).config as Json)[variant], '');
  return out;
}

/**
 * The plan's notes on secrets (reason code `secret`, src/engine/reasons.ts): on an update, each
 * declared secret is `rotated` when its version changes (or it was never set by dqform) and
 * `unchanged` (not readable) otherwise; a create (`set`) or replace (`replaced`) sends them all.
 */
export function secretNotes(c: Pick<Change, 'action' | 'before' | 'after'>): Reason[] {
  const after = secretsOf(c.after);
  const paths = Object.keys(after).sort();
  const note = (p: string, state: 'set' | 'replaced' | 'rotated' | 'unchanged'): Reason => ({ code: 'secret', field: `config.${variantOf(c.after)}.${p}`, state });
  if (c.action === 'create') return paths.map((p) => note(p, 'set'));
  if (c.action === 'replace') return paths.map((p) => note(p, 'replaced'));
  if (c.action !== 'update') return [];
  const before = secretsOf(c.before);
  return paths.map((p) => note(p, before[p] === after[p] ? 'unchanged' : 'rotated'));
}

/** The code's secret version differs from the plan's: the code changed since the plan. */
export class SecretVersionSkewError extends DqformError {
  static override readonly code: string = 'write.secret-version';
  override readonly name = 'SecretVersionSkewError';
}

/** A create at an id dqform did not derive (a pinned or adopted id that no longer exists): the platform assigns integration ids. */
export class AssignedIdError extends DqformError {
  static override readonly code: string = 'write.assigned-id';
  override readonly name = 'AssignedIdError';
}

/** The object an update writes was deleted since the plan. */
export class GoneSincePlanError extends DqformError {
  static override readonly code: string = 'write.gone';
  override readonly name = 'GoneSincePlanError';
}

/** A replace dqform refuses before deleting anything: the new object could not take the old one's place. */
export class ReplaceRefusedError extends DqformError {
  static override readonly code: string = 'write.replace-refused';
  override readonly name = 'ReplaceRefusedError';
}

/** The wire config of `after` with the secrets at `send` read from their references. */
function wireConfig(change: Change, after: Json, send: (path: string) => boolean, ctx: HandlerContext): { variant: string; config: Json } {
  const config = after.config as Json;
  const variant = oneofKey(config)!;
  const body = withoutSecrets(config[variant]) as Json;
  const secrets = boundSecrets(ctx.namespace, change.address);
  const versions = secretsOf(after);
  for (const s of secrets) {
    if (versions[s.path] !== s.version) throw new SecretVersionSkewError(`${change.address}: the code's ${s.path} is at version ${s.version}, the plan's at ${versions[s.path] ?? 'none'}: plan again`);
    if (send(s.path)) setPath(body, s.path, readSecret(s.ref, `${change.address}: config.${variant}.${s.path}`, ctx.env, ctx.cwd));
  }
  return { variant, config: { [variant]: body } };
}

/**
 * Marker id -> platform id of the integrations read in this process. A marked integration is
 * known to the engine by its marker id (key and id), which stays the same when a replace makes a
 * new integration with a new platform id; the writes need the platform id, and apply reads every
 * object it writes before writing.
 */
const platformIds = new Map<string, string>();

/** The platform id of the integration a change names (its marker id, or its platform id when it has no marker). */
function platformIdOf(change: Change): string {
  return platformIds.get(change.id.toLowerCase()) ?? change.id;
}

function toLive(i: Integration): LiveObject {
  const m = parseTitle(i.title);
  const key = m.id ?? i.id;
  if (m.id) platformIds.set(m.id, i.id);
  return { ...liveObject(key, i as unknown as Json), id: key };
}

/** The integration handler. */
export const integrationsHandler: ResourceHandler = {
  type: integrationDescriptor.type,
  label: integrationDescriptor.label,
  sensitive: [],

  async read(client, q) {
    const keys = new Set(q.keys.map((k) => k.toLowerCase()));
    const all = await client.integrations.list();
    return all
      .filter((i) => {
        const m = parseTitle(i.title);
        return (m.id !== undefined && (q.owns?.(m.id) || keys.has(m.id))) || (m.id === undefined && keys.has(i.id.toLowerCase()));
      })
      .map(toLive)
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  },

  fromLive: canonicalLive,
  fromDesired: canonicalDesired,

  replaceReasons(before, after) {
    const a = variantOf(before);
    const b = variantOf(after);
    return a !== b ? [`the config variant is fixed at create (${a ?? 'none'} -> ${b ?? 'none'}): a new integration replaces it`] : [];
  },

  notes: secretNotes,

  bindDesired(resources, ctx) {
    bindSecretRefs(resources, ctx.namespace);
  },

  async create(client, change, ctx) {
    const after = afterOf(change);
    const id = DERIVED.test(change.id) ? change.id.toLowerCase() : undefined;
    if (!id) {
      throw new AssignedIdError(`${change.address}: no integration ${JSON.stringify(change.id)} exists to write, and the platform assigns integration ids: drop the pinned id to create a new integration`);
    }
    const { config } = wireConfig(change, after, () => true, ctx);
    const created = await client.integrations.create({ title: markedTitle(String(after.title), id, secretsOf(after)), config: config as never });
    if (after.enabled === false) await client.integrations.disable(created.id);
  },

  async update(client, change, ctx) {
    const after = afterOf(change);
    const before = (change.before ?? {}) as Json;
    const pid = platformIdOf(change);
    const live = (await client.integrations.batchGet([pid]))[pid];
    if (!live) throw new GoneSincePlanError(`${change.address}: integration ${pid} is gone (deleted since the plan)`, { hint: 'Run dqform plan again: it shows what is there now.' });
    const m = parseTitle(live.title);
    const was = secretsOf(before);
    const now = secretsOf(after);
    const { enabled: _b, ...restBefore } = before;
    const { enabled: _a, ...restAfter } = after;
    if (JSON.stringify(normalise(restBefore)) !== JSON.stringify(normalise(restAfter))) {
      const { config } = wireConfig(change, after, (p) => was[p] !== now[p], ctx);
      await client.integrations.update(pid, { title: markedTitle(String(after.title), m.id, now), config: config as never }, change.etag);
    }
    if ((before.enabled !== false) !== (after.enabled !== false)) {
      if (after.enabled === false) await client.integrations.disable(pid);
      else await client.integrations.enable(pid);
    }
  },

  async delete(client, change) {
    if (change.action === 'replace' && !DERIVED.test(change.id)) {
      // refused before the delete: the new integration would have no identity dqform can find again
      throw new ReplaceRefusedError(
        `${change.address}: integration ${change.id} was adopted with an import block (its title carries no dqform id), so a new one cannot take its place: delete it in the platform and drop the import block (and pinned id) so that dqform creates its own`,
      );
    }
    await ignoreNotFound(client.integrations.delete(platformIdOf(change), change.etag));
  },

  async listAll(client): Promise<ListedObject[]> {
    return (await client.integrations.list()).map((i) => ({ key: toLive(i).key, raw: i as unknown as Json }));
  },
};

