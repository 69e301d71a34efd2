/**
 * The prune phase: live objects no declaration or removal claims. By configId (the prunable
 * kinds): the namespace's are deleted, the others listed as not managed here. By the namespace
 * tag (kinds without configId): objects whose id carries the tag are deleted; other
 * namespaces' and UI-made ones are not even read (an untagged object a kind reads anyway because
 * it can never manage it, a platform-provided rule, is listed as not managed). Pure.
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import type { Change, Reason } from '../../../schemas/model/plan';
import { because } from '../reasons';
import { isFqnKeyed, PRUNABLE_TYPES, TAG_PRUNED_TYPES } from '../../kinds/descriptors';
import type { LiveObject } from '../../kinds/shared/types';
import { fingerprint } from '../../kinds/shared/normalise';
import { carriesTag } from '../identity';
import { emptyOutput, type PhaseOutput, type PlanContext } from './context';
import { liveAddress, secretPointers } from './values';

/** The `unmanaged` entry of a live object nobody declares (listed, never written). */
function unmanagedChange(type: ResourceType, obj: LiveObject, before: Record<string, unknown>, reason: Reason): Change {
  return {
    address: liveAddress(type, obj.key),
    type,
    action: 'unmanaged',
    id: obj.key,
    fqn: isFqnKeyed(type) ? obj.key : undefined,
    before,
    after: null,
    patch: [],
    ...because(reason),
    sensitive: [],
    dependsOn: [],
  };
}

/** The deletion of a live object of the namespace that the code no longer declares. */
function pruned(ctx: PlanContext, type: ResourceType, obj: LiveObject, before: Record<string, unknown>, withFqn: boolean): Change {
  return {
    address: liveAddress(type, obj.key),
    type,
    action: 'delete',
    id: obj.key,
    ...(withFqn ? { fqn: isFqnKeyed(type) ? obj.key : undefined } : {}),
    before,
    after: null,
    patch: [],
    etag: obj.etag,
    liveHash: fingerprint(before),
    ...because({ code: 'not-declared', name: ctx.names.displayName(type, obj.raw), namespace: ctx.namespace }),
    sensitive: secretPointers(before),
    dependsOn: [],
  };
}

/** Who has a live object of a prunable kind that is not this namespace's. */
function notHereReason(obj: LiveObject): Reason {
  return obj.configId ? { code: 'managed-by', namespace: obj.configId } : (obj.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? { code: 'made-in-ui' } : { code: 'not-dqform' };
}

/** Pruning by configId. */
function pruneByConfigId(ctx: PlanContext, out: PhaseOutput): void {
  for (const type of PRUNABLE_TYPES) {
    const h = ctx.handlers[type];
    for (const obj of ctx.live[type] ?? []) {
      if (ctx.claimed.get(type)!.has(obj.key)) continue;
      if (obj.deploymentRuleId) continue; // made by a SQL-test rule: the rule manages it
      const before = h.fromLive(obj.raw);
      if (obj.unmanageable?.length) out.changes.push(unmanagedChange(type, obj, before, { code: 'unmanageable', fields: [...obj.unmanageable] }));
      else if (obj.configId === ctx.namespace) out.changes.push(pruned(ctx, type, obj, before, true));
      else out.changes.push(unmanagedChange(type, obj, before, notHereReason(obj)));
    }
  }
}

/** Pruning by the namespace tag. */
function pruneByTag(ctx: PlanContext, out: PhaseOutput): void {
  const { workspace } = ctx.resolution;
  for (const type of TAG_PRUNED_TYPES) {
    const h = ctx.handlers[type];
    for (const obj of ctx.live[type] ?? []) {
      if (obj.context || ctx.claimed.get(type)!.has(obj.key)) continue;
      if (!carriesTag(obj.id, workspace, ctx.namespace)) {
        // an untagged object a handler reads anyway is one it cannot manage (a platform-provided rule): listed
        if (obj.unmanageable?.length) out.changes.push(unmanagedChange(type, obj, h.fromLive(obj.raw), { code: 'not-ours-unmanageable', why: [...obj.unmanageable] }));
        continue;
      }
      const before = h.fromLive(obj.raw);
      if (obj.unmanageable?.length) out.changes.push(unmanagedChange(type, obj, before, { code: 'unmanageable', fields: [...obj.unmanageable] }));
      else out.changes.push(pruned(ctx, type, obj, before, false));
    }
  }
}

/** The prune phase. */
export function prunePhase(ctx: PlanContext): PhaseOutput {
  const out = emptyOutput();
  pruneByConfigId(ctx, out);
  pruneByTag(ctx, out);
  return out;
}
