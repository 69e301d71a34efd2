/**
 * The cascades phase: what the platform deletes or leaves dangling along with a delete (an
 * owner's ownerships, sub-domains, ...), from live state, as the delete's effects; and a
 * replace's cascade, whose kept objects are replaced after it. Pure.
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import type { Change } from '../../../schemas/model/plan';
import { deletingReference, TAG_PRUNED_TYPES } from '../../kinds/descriptors';
import { bareId } from '../identity';
import { cascadeEffects, cascadeOf, type LiveIndex } from '../related';
import type { PlanContext } from './context';
import { addReasons } from '../reasons';

const keyOf = (type: string, id: string) => `${type}\u0000${bareId(id).toLowerCase()}`;

/**
 * Whether `x`, in the cascade of deleting `owner`, is an ownership this plan re-points to another
 * owner first (an owner renamed without a moved block: the new owner is created, the ownership
 * updated, and only then the old owner deleted): the platform does not delete it. `kept`: the
 * {@link keptByKey} index of `changes`, for many calls over one list (else each call searches it).
 */
export function repointedAway(x: { type: string; id: string }, owner: Pick<Change, 'type' | 'id'>, changes: readonly Change[], kept?: ReadonlyMap<string, Change>): boolean {
  const ref = deletingReference(x.type, owner.type);
  if (!ref) return false;
  const id = bareId(x.id).toLowerCase();
  const k = kept ? kept.get(keyOf(x.type, x.id)) : changes.find((c) => c.type === x.type && (c.action === 'update' || c.action === 'noop') && bareId(c.id).toLowerCase() === id);
  const to = k?.after ? ref.ids(k.after as Record<string, unknown>)[0] : undefined;
  return typeof to === 'string' && bareId(to).toLowerCase() !== bareId(owner.id).toLowerCase();
}

/**
 * A replace deletes the old object first, and the platform deletes what goes with it (an owner's
 * ownerships): the replace shows that cascade. Objects in it that this plan keeps (unchanged or
 * updated) are re-created after the new object (`replace`, waiting for it); the others are gone
 * for good and count as effect deletes. Only `deleted` effects: a reference that dangles while
 * an object is deleted and created again at the same id is whole again after the replace.
 */
function replacedCascades(changes: Change[], names: LiveIndex, deleted: ReadonlySet<string>): void {
  // the kept changes by key, made only when a replace needs them (a plan without one: no key per change)
  let kept: Map<string, Change> | undefined;
  for (const c of changes) {
    if (c.action !== 'replace' || !TAG_PRUNED_TYPES.includes(c.type as ResourceType)) continue;
    kept ??= new Map(changes.filter((k) => k.action === 'noop' || k.action === 'update').map((k) => [keyOf(k.type, k.id), k]));
    const cascade = cascadeOf(c.type as ResourceType, c.id, names, deleted).filter((x) => x.effect === 'deleted');
    for (const x of cascade) {
      const k = kept.get(keyOf(x.type, x.id));
      if (!k || k.action === 'replace') continue;
      k.action = 'replace';
      addReasons(k, { code: 'replaced-with', address: c.address });
      if (!k.dependsOn.includes(c.address)) k.dependsOn = [...k.dependsOn, c.address].sort();
      x.alsoDeleted = true;
    }
    const e = cascadeEffects(cascade);
    if (e) c.effects = e;
  }
}

/** The updated and unchanged changes by type and lower-case bare id, the first of each (what `changes.find` would meet first). */
export function keptByKey(changes: readonly Change[]): Map<string, Change> {
  const out = new Map<string, Change>();
  for (const c of changes) {
    if (c.action !== 'update' && c.action !== 'noop') continue;
    const k = keyOf(c.type, c.id);
    if (!out.has(k)) out.set(k, c);
  }
  return out;
}

/** The cascades phase: sets the effects of deletes and replaces (and replaces what a replace takes with it). */
export function cascadesPhase(ctx: PlanContext, changes: Change[]): void {
  const deleted = new Set(changes.filter((c) => c.action === 'delete' || c.action === 'replace').map((c) => keyOf(c.type, c.id)));
  // one index for every delete's cascade, not a search of every change per object in it
  let kept: Map<string, Change> | undefined;
  for (const c of changes) {
    if (c.action !== 'delete' || !TAG_PRUNED_TYPES.includes(c.type as ResourceType)) continue;
    kept ??= keptByKey(changes);
    const index = kept;
    const e = cascadeEffects(cascadeOf(c.type as ResourceType, c.id, ctx.names, deleted).filter((x) => !repointedAway(x, c, changes, index)));
    if (e) c.effects = e;
  }
  replacedCascades(changes, ctx.names, deleted);
}
