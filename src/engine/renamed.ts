/**
 * A changed namespace: ids and configIds carry the namespace, so a stack whose namespace was
 * renamed owns nothing any more and would create every object anew beside the old ones. When a
 * stack's namespace owns nothing live but another namespace owns objects at the same addresses,
 * the plan warns (pure helpers here; reconcile.ts does the reads).
 *
 * Candidate namespaces are the ones known by name: configIds seen on alerts, rules and SQL tests
 * (every object of those kinds is listed), except those the app's other stacks declare. A namespace that only
 * ever held domains, data products, owners or ownerships is not known by name (its tag is a
 * hash), so a rename of such a stack is not detected.
 */
import type { ResourceType } from '../../schemas/model/manifest';
import { isFqnKeyed, PRUNABLE_TYPES, TAG_PRUNED_TYPES } from '../kinds/descriptors';
import type { Diagnostic } from '../../schemas/model/plan';
import type { LiveObject } from '../kinds/shared/types';
import { carriesTag, defaultFqn, deriveId, parseAddress } from './identity';
import type { Resolution } from './resolve';

type LiveState = Partial<Record<ResourceType, LiveObject[]>>;

/** At most this many candidate namespaces are checked (they cost batch reads). */
export const MAX_CANDIDATES = 20;

/** True when no live object belongs to the namespace (by configId or by the tag of its id). */
export function ownsNothing(live: LiveState, workspace: string, namespace: string): boolean {
  for (const [type, objs] of Object.entries(live) as [ResourceType, LiveObject[]][]) {
    for (const o of objs ?? []) {
      if (o.context) continue;
      if (PRUNABLE_TYPES.includes(type) ? o.configId === namespace : carriesTag(o.id, workspace, namespace)) return false;
    }
  }
  return true;
}

/**
 * Namespaces known by name other than `namespace`, sorted (at most {@link MAX_CANDIDATES}). The
 * namespaces the app's other stacks declare are never candidates: they were not renamed (a
 * staging stack added beside prod must not suggest destroying prod).
 */
export function candidateNamespaces(live: LiveState, namespace: string, siblings: readonly string[] = []): string[] {
  const names = new Set<string>();
  for (const type of PRUNABLE_TYPES) for (const o of live[type] ?? []) if (o.configId) names.add(o.configId);
  names.delete(namespace);
  for (const s of siblings) names.delete(s);
  return [...names].sort().slice(0, MAX_CANDIDATES);
}

/** Where each declared resource with a derived identity would live under `candidate`: its key there. */
export function keysUnder(resolution: Pick<Resolution, 'workspace' | 'resources'>, candidate: string): { address: string; type: ResourceType; key: string }[] {
  const out: { address: string; type: ResourceType; key: string }[] = [];
  for (const r of resolution.resources) {
    if (r.importedId) continue;
    const pinned = isFqnKeyed(r.type) ? typeof r.desired.fqn === 'string' : typeof r.desired.id === 'string';
    if (pinned) continue;
    const name = (r.movedFrom ? parseAddress(r.movedFrom)?.name : undefined) ?? r.name;
    const key = isFqnKeyed(r.type) ? defaultFqn(candidate, name) : deriveId(resolution.workspace, candidate, r.type, name);
    out.push({ address: r.address, type: r.type, key });
  }
  return out;
}

/** Kinds whose objects of other namespaces are not in live state (they must be looked up by key). */
export const LOOKED_UP: readonly ResourceType[] = TAG_PRUNED_TYPES;

/**
 * The warning, when some candidate owns objects at half or more of the `expected` addresses the
 * stack declares with a derived identity (`found`: namespace -> addresses). A renamed stack
 * finds nearly all of them; a new stack that merely shares a common name (`dq_owner.team`) with
 * another namespace does not warn.
 */
export function renameWarning(namespace: string, found: ReadonlyMap<string, readonly string[]>, expected: number): Diagnostic | undefined {
  const hits = [...found.entries()].filter(([, a]) => a.length > 0 && a.length * 2 >= expected).sort((a, b) => b[1].length - a[1].length || (a[0] < b[0] ? -1 : 1));
  if (hits.length === 0) return undefined;
  const [best, addrs] = hits[0];
  const list = (a: readonly string[]) => `${[...a].sort().slice(0, 5).join(', ')}${a.length > 5 ? `, and ${a.length - 5} more` : ''}`;
  return {
    severity: 'warning',
    summary: `namespace "${namespace}" owns nothing here, but namespace "${best}" owns ${addrs.length} object(s) at the same addresses (${list(addrs)}): was the namespace renamed?`,
    detail: hits.length > 1 ? `Also at these addresses: ${hits.slice(1).map(([n, a]) => `namespace "${n}" (${a.length})`).join(', ')}.` : undefined,
    hint:
      `To keep managing those objects, set the namespace back to "${best}". Ids and configIds carry their namespace, so "${namespace}" cannot take them over: ` +
      `applying this plan creates new objects beside them. To migrate, apply here, then delete the old ones by planning namespace "${best}" with nothing declared (or dqform destroy there).`,
  };
}
