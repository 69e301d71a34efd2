/**
 * The prune phase: live objects no declaration or removal claims. By configId (the prunable
 * kinds): the namespace's are deleted, the others listed as not managed here. By the namespace
 * tag (kinds without configId): objects whose id carries the tag are deleted; other
 * namespaces' and UI-made ones are not even read. Pure.
 */
import type { ResourceType } from '../../../schemas/manifest';
import type { Change } from '../../../schemas/plan';
import { isFqnKeyed, PRUNABLE_TYPES, TAG_PRUNED_TYPES } from '../../kinds/descriptors';
import type { LiveObject } from '../../kinds/shared/types';
import { fingerprint } from '../../kinds/shared/normalise';
import { carriesTag } from '../identity';
import { unmanageableText } from './declared';
import { emptyOutput, type PhaseOutput, type PlanContext } from './context';
import { liveAddress, secretPointers } from './values';

/** The `unmanaged` entry of a live object nobody declares (listed, never written). */
function unmanagedChange(type: ResourceType, obj: LiveObject, before: Record<string, unknown>, reason: string): Change {
  return {
    address: liveAddress(type, obj.key),
    type,
    action: 'unmanaged',
    id: obj.key,
    fqn: isFqnKeyed(type) ? obj.key : undefined,
    before,
    after: null,
    patch: [],
    reasons: [reason],
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
    reasons: [`${ctx.names.displayName(type, obj.raw)} is no longer declared in namespace "${ctx.namespace}"`],
    sensitive: secretPointers(before),
    dependsOn: [],
  };
}

/** Who has a live object of a prunable kind that is not this namespace's. */
function notHereReason(obj: LiveObject): string {
  return obj.configId ? `managed by namespace "${obj.configId}"` : (obj.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? 'made in the UI' : 'not managed by dqform';
}

/** Pruning by configId. */
function pruneByConfigId(ctx: PlanContext, out: PhaseOutput): void {
  for (const type of PRUNABLE_TYPES) {
    const h = ctx.handlers[type];
    for (const obj of ctx.live[type] ?? []) {
      if (ctx.claimed.get(type)!.has(obj.key)) continue;
      if (obj.deploymentRuleId) continue; // made by a SQL-test rule: the rule manages it
      const before = h.fromLive(obj.raw);
      if (obj.unmanageable?.length) out.changes.push(unmanagedChange(type, obj, before, unmanageableText(obj)));
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
      if (obj.context || ctx.claimed.get(type)!.has(obj.key) || !carriesTag(obj.id, workspace, ctx.namespace)) continue;
      const before = h.fromLive(obj.raw);
      if (obj.unmanageable?.length) out.changes.push(unmanagedChange(type, obj, before, unmanageableText(obj)));
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
