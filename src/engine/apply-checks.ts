/**
 * The applier's live checks: what it reads again before writing (the plan is not stale, the
 * objects are ours) and after (what it wrote reads back). Pure questions (`notOursWhy`,
 * `staleWhy`, `readBackWhy`) beside the reads they need (`lookup`, `ownershipsAddedSince`).
 */
import { ConflictError, type PlatformClient } from '../client';
import type { ResourceType } from '../../schemas/model/manifest';
import type { Change } from '../../schemas/model/plan';
import type { LiveObject, ResourceHandler } from '../kinds/shared/types';
import { isNotFound, WriteConflictError } from '../kinds/shared/support';
import { isErrorOf } from '../../schemas/tools/errors';
import { fingerprint } from '../kinds/shared/normalise';
import { DELETES_DEPENDENTS, hasConfigId } from '../kinds/descriptors';
import { idOwner } from './identity';
import { repointedAway } from './phases/cascades';
import { readLiveState } from './live-state';
import { mapLimit } from './concurrency';

export type ApplyContext = { workspace: string; namespace: string };

/** One object a check refuses, and why. */
export type Refusal = { address: string; why: string };

/** Whether an error is a lost race: an etag refused (ABORTED, ALREADY_EXISTS) or a write that met someone else's. */
export function isConflict(e: unknown): boolean {
  return e instanceof ConflictError || isErrorOf(e, WriteConflictError);
}

/**
 * Reads the objects `changes` act on (batch reads of their ids; soft-deleted ones too when
 * `includeDeleted`) and answers a lookup by change.
 */
export async function lookup(
  client: PlatformClient,
  ctx: ApplyContext,
  changes: readonly Change[],
  handlers: Record<ResourceType, ResourceHandler>,
  includeDeleted: boolean,
): Promise<(c: Change) => LiveObject | undefined> {
  const types = [...new Set(changes.map((c) => c.type as ResourceType))].sort();
  const resources = changes.filter((c) => c.action !== 'delete').map((c) => ({ type: c.type as ResourceType, id: c.id, importedId: undefined as string | undefined }));
  const removed = changes.filter((c) => c.action === 'delete').map((c) => ({ type: c.type as ResourceType, id: c.id }));
  const live = await readLiveState(client, { ...ctx, resources: resources as never, removed: removed as never }, handlers, types, { keysOnly: true, includeDeleted });
  // per kind, the first object whose key or id is the text (what a search of the list meets
  // first): a lookup per change, not a search of the kind's objects per change (quadratic: an
  // apply of 100,000 objects spent minutes here)
  const index = new Map<ResourceType, Map<string, LiveObject>>();
  const indexOf = (type: ResourceType): Map<string, LiveObject> => {
    let m = index.get(type);
    if (!m) {
      m = new Map();
      for (const o of live[type] ?? []) {
        if (!m.has(o.key)) m.set(o.key, o);
        if (!m.has(o.id)) m.set(o.id, o);
      }
      index.set(type, m);
    }
    return m;
  };
  return (c) => indexOf(c.type as ResourceType).get(c.id);
}

/**
 * Why the plan must not write or delete `obj`, which it does not own (checked at apply time too,
 * not only by the planner: a plan file can say anything): an object this version cannot model,
 * a test a SQL-test rule made, another namespace's or a UI-made one. An update of a UI-made
 * object of a kind with configId is allowed when the code adopts it with an import block
 * (`importedId`), never of another namespace's;
 * a governance object whose id carries no namespace tag may be updated only when the code adopts
 * it with an import block (issue 23), and is never deleted.
 */
export function notOursWhy(c: Change, obj: LiveObject, h: Pick<ResourceHandler, 'label'>, workspace: string, namespace: string): string | undefined {
  if (obj.unmanageable?.length) return `this version of dqform cannot model it (${obj.unmanageable.join('; ')})`;
  if (obj.deploymentRuleId) return `SQL-test rule ${obj.deploymentRuleId} made it; only the rule manages it`;
  if (hasConfigId(c.type)) {
    if (obj.configId === namespace || (c.action === 'update' && c.importedId && !obj.configId)) return undefined;
    if (obj.configId) return `it is managed by namespace "${obj.configId}"`;
    return obj.source === 'SOURCE_API' ? 'it was made by another API client (source SOURCE_API, no configId)' : 'it was made in the UI';
  }
  const owner = idOwner(obj.id, workspace, namespace);
  if (owner === 'namespace') return undefined;
  if (owner === 'other') return "its id carries another namespace's tag";
  if (c.action === 'delete' || c.action === 'replace') return 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform never deletes such an object';
  // adopting is explicit (issue 23): the planner asks for an import block, and so does apply
  if (!c.importedId) return 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform writes such an object only through an import block';
  return undefined;
}

/** Why live state (`obj`: undefined when absent) is not what the plan read. */
export function staleWhy(c: Change, obj: LiveObject | undefined, h: Pick<ResourceHandler, 'label' | 'fromLive'>): string | undefined {
  if (c.action === 'create') return obj ? `a ${h.label} ${JSON.stringify(c.id)} was created since the plan` : undefined;
  if (!obj) return c.action === 'delete' ? undefined : `the ${h.label} was deleted since the plan`;
  if (c.etag && obj.etag && c.etag !== obj.etag) return `etag ${obj.etag} differs from ${c.etag} read at plan time`;
  if (c.liveHash && fingerprint(h.fromLive(obj.raw)) !== c.liveHash) return 'its live content changed since the plan';
  return undefined;
}

/** Why an object does not read back as what the change wrote (undefined: it does). */
export function readBackWhy(c: Change, obj: LiveObject | undefined, h: Pick<ResourceHandler, 'label' | 'fromLive'>, namespace: string): string | undefined {
  if (!obj || obj.deleted) return `the ${h.label} is gone (deleted by someone else)`;
  if (hasConfigId(c.type) && obj.configId !== namespace) return `the ${h.label} is now managed by ${obj.configId ? `namespace "${obj.configId}"` : 'the UI'}`;
  if (fingerprint(h.fromLive(obj.raw)) !== fingerprint(c.after)) return `the ${h.label} holds something other than what this apply wrote (someone else wrote it at the same time)`;
  return undefined;
}

/**
 * Deleting an owner deletes its ownerships, including ones the plan does not manage: the plan
 * lists them (its cascade). An ownership added to such an owner after the plan would go
 * unseen, so each owner the plan deletes is listed again (one request per owner) and any
 * ownership the plan did not show makes the plan stale.
 */
async function ownershipsAddedSince(client: PlatformClient, writes: readonly Change[]): Promise<Refusal[]> {
  const owners = writes.filter((c) => DELETES_DEPENDENTS.has(c.type) && (c.action === 'delete' || c.action === 'replace'));
  if (owners.length === 0) return [];
  const out: Refusal[] = [];
  await mapLimit(owners, 8, async (c) => {
    const shown = new Set((c.effects?.cascade ?? []).filter((x) => x.effect === 'deleted').map((x) => x.id.toLowerCase()));
    // ownerships the plan re-points to another owner before this delete are not deleted with it
    for (const k of writes) if (repointedAway(k, c, writes)) shown.add(k.id.toLowerCase());
    let now: { id: string }[];
    try {
      now = await client.owners.listOwnerships(c.id);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    const added = now.map((o) => o.id).filter((id) => !shown.has(id.toLowerCase())).sort();
    if (added.length) out.push({ address: c.address, why: `ownership(s) ${added.join(', ')} were added to the owner since the plan; deleting the owner would delete them too` });
  });
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
}

/** What the live checks found: objects not ours, a stale plan, or the tombstones creates continue from. */
export interface LiveCheck {
  notOurs: Refusal[];
  /** Empty when `notOurs` is not (ownership is refused first). */
  stale: Refusal[];
  /** Etags of soft-deleted objects at ids the plan creates: the create's compare-and-swap guard. */
  tombstones: Map<string, string>;
}

/**
 * Re-reads what the plan writes (soft-deleted objects too): each object must still be ours
 * ({@link notOursWhy}) and as the plan read it ({@link staleWhy}), and no ownership may have been
 * added to an owner the plan deletes.
 */
export async function liveCheck(client: PlatformClient, ctx: ApplyContext, writes: readonly Change[], handlers: Record<ResourceType, ResourceHandler>): Promise<LiveCheck> {
  const found = await lookup(client, ctx, writes, handlers, true);
  const out: LiveCheck = { notOurs: [], stale: [], tombstones: new Map() };
  for (const c of writes) {
    const h = handlers[c.type as ResourceType];
    const f = found(c);
    const obj = f && !f.deleted ? f : undefined;
    if (c.action === 'create' && f?.deleted && f.etag) out.tombstones.set(c.address, f.etag);
    const theirs = obj && c.action !== 'create' ? notOursWhy(c, obj, h, ctx.workspace, ctx.namespace) : undefined;
    if (theirs) out.notOurs.push({ address: c.address, why: theirs });
    else {
      const why = staleWhy(c, obj, h);
      if (why) out.stale.push({ address: c.address, why });
    }
  }
  if (out.notOurs.length) return { ...out, stale: [] };
  out.stale.push(...(await ownershipsAddedSince(client, writes)));
  return out;
}
