/**
 * The removed phase: `removed` declarations. `destroy = true` deletes the object when this
 * namespace owns it (an error otherwise); `destroy = false` stops managing it and leaves it in
 * place. Pure.
 */
import type { Change, Diagnostic } from '../../../schemas/model/plan';
import { TAG_PRUNED_TYPES } from '../../kinds/descriptors';
import type { LiveObject } from '../../kinds/shared/types';
import { fingerprint } from '../../kinds/shared/normalise';
import type { RemovedResource } from '../resolve';
import { carriesTag } from '../identity';
import { unmanageableText } from './declared';
import { emptyOutput, type PhaseOutput, type PlanContext } from './context';
import { secretPointers } from './values';
import { because } from '../reasons';

/** The warning of a removed declaration whose object does not exist. */
function absentWarning(ctx: PlanContext, rm: RemovedResource): Diagnostic {
  const label = ctx.handlers[rm.type].label;
  return {
    severity: 'warning',
    summary: rm.destroy
      ? `declared removed, but no ${label} ${JSON.stringify(rm.id)} exists: nothing to delete`
      : `declared removed (destroy = false), but no ${label} ${JSON.stringify(rm.id)} exists: nothing to leave in place`,
    address: rm.address,
    hint: rm.explicitId
      ? 'It may be gone already; drop the removed declaration.'
      : 'If its id was pinned, moved or imported, give that id in the removed declaration (removed { from, id }); otherwise drop the declaration.',
  };
}

/** `removed` with destroy = false: a `forget`: the object stays in place, no longer managed. */
function leftInPlace(rm: RemovedResource, obj: LiveObject, before: Record<string, unknown>, name: string, ours: boolean): Change {
  return {
    address: rm.address,
    type: rm.type,
    action: 'forget',
    id: obj.key,
    fqn: rm.fqn,
    before,
    after: null,
    patch: [],
    ...because({ code: 'forget', name, ours, tagged: TAG_PRUNED_TYPES.includes(rm.type) }),
    sensitive: [],
    dependsOn: [],
  };
}

/** The error of a removed declaration (destroy = true) whose object this namespace does not own. */
function notOursError(ctx: PlanContext, rm: RemovedResource, obj: LiveObject, name: string): Diagnostic {
  const by = ctx.names.managedBy(rm.type, obj);
  return {
    severity: 'error',
    summary: `declared removed, but ${name} (${JSON.stringify(obj.key)}) ${by === 'made in the UI' ? 'was made in the UI, not by' : `is managed by ${by}, not`} namespace "${ctx.namespace}": dqform never deletes it`,
    address: rm.address,
    detail:
      TAG_PRUNED_TYPES.includes(rm.type) && by === 'made in the UI'
        ? `Its id carries no namespace tag, so dqform cannot tell it from an object made in the UI (a pinned or adopted id looks the same), and never deletes those.`
        : undefined,
    hint: 'Drop the removed declaration, or make it removed { from, id, lifecycle { destroy = false } } (cdktf: stack.removed(address, { id, destroy: false })) to stop managing it; delete it in the platform itself if it must go.',
  };
}

/** One removed declaration whose object exists. */
function removedOne(ctx: PlanContext, rm: RemovedResource, obj: LiveObject, out: PhaseOutput): void {
  const { namespace, resolution } = ctx;
  const ours = TAG_PRUNED_TYPES.includes(rm.type) ? carriesTag(obj.id, resolution.workspace, namespace) : obj.configId === namespace;
  const name = ctx.names.displayName(rm.type, obj.raw);
  const before = ctx.handlers[rm.type].fromLive(obj.raw);
  if (!rm.destroy) {
    out.changes.push(leftInPlace(rm, obj, before, name, ours));
  } else if (obj.unmanageable?.length) {
    out.diags.push({
      severity: 'error',
      summary: `declared removed, but ${name} (${JSON.stringify(obj.key)}) ${unmanageableText(obj)}`,
      address: rm.address,
      hint: 'dqform never deletes an object it cannot model; upgrade dqform, or make it removed with destroy = false.',
    });
  } else if (!ours) {
    out.diags.push(notOursError(ctx, rm, obj, name));
  } else {
    out.changes.push({
      address: rm.address,
      type: rm.type,
      action: 'delete',
      id: obj.key,
      fqn: rm.fqn,
      before,
      after: null,
      patch: [],
      etag: obj.etag,
      liveHash: fingerprint(before),
      ...because({ code: 'declared-removed', name }),
      sensitive: secretPointers(before),
      dependsOn: [],
    });
  }
}

/** The removed phase. Claims the live objects it names. */
export function removedPhase(ctx: PlanContext): PhaseOutput {
  const out = emptyOutput();
  for (const rm of ctx.resolution.removed) {
    const obj = ctx.find(rm.type, rm.id);
    if (!obj) {
      if (!ctx.input.liveUnread) out.diags.push(absentWarning(ctx, rm));
      continue;
    }
    ctx.claimed.get(rm.type)!.add(obj.key);
    removedOne(ctx, rm, obj, out);
  }
  return out;
}
