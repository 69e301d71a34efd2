/**
 * Execution order. Creates, updates and replaces run parents before children (owners and data
 * products before ownerships, owners before alerts that target them, parent domains first): the
 * plan's `dependsOn` edges, then the kind order. Deletes run afterwards in reverse.
 */
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import type { Change } from '../../schemas/model/plan';
import { DqformError } from '../../schemas/tools/errors';

const KIND_RANK = new Map<string, number>(RESOURCE_TYPES.map((t, i) => [t, i]));

/**
 * The plan's `dependsOn` edges make a cycle: refused before any write. The planner reports a cycle
 * in the code as a diagnostic, and apply binds a saved plan to a fresh one, so only a plan edited
 * by hand and given to the library's `apply` meets this.
 */
export class DependencyCycleError extends DqformError {
  static override readonly code: string = 'plan-refused.cycle';
  override readonly name = 'DependencyCycleError';
}

/**
 * Groups the writing changes into waves: every change in a wave depends only on changes of
 * earlier waves. Wave order is deterministic (address order inside a wave).
 */
export function executionWaves(changes: readonly Change[]): Change[][] {
  const writes = changes.filter((c) => c.action === 'create' || c.action === 'update' || c.action === 'replace');
  const deletes = changes.filter((c) => c.action === 'delete');
  const byAddr = new Map(writes.map((c) => [c.address, c]));
  const level = new Map<string, number>();
  const visiting = new Set<string>();
  const levelOf = (c: Change): number => {
    const known = level.get(c.address);
    if (known !== undefined) return known;
    if (visiting.has(c.address)) throw new DependencyCycleError(`dependency cycle through ${c.address}`, { hint: 'Make the plan again with dqform plan; do not edit a plan by hand.' });
    visiting.add(c.address);
    let l = 0;
    for (const d of c.dependsOn) {
      const dep = byAddr.get(d);
      if (dep) l = Math.max(l, levelOf(dep) + 1);
    }
    visiting.delete(c.address);
    level.set(c.address, l);
    return l;
  };
  const waves: Change[][] = [];
  for (const c of writes) {
    const l = levelOf(c);
    (waves[l] ??= []).push(c);
  }
  const out = waves.filter(Boolean).map((w) => w.sort(cmp));
  // deletes: reverse kind order, one wave per kind (alerts and ownerships before owners, ...)
  const delKinds = [...new Set(deletes.map((c) => c.type))].sort((a, b) => (KIND_RANK.get(b) ?? 0) - (KIND_RANK.get(a) ?? 0));
  for (const k of delKinds) out.push(deletes.filter((c) => c.type === k).sort(cmp));
  return out;
}

function cmp(a: Change, b: Change): number {
  return a.address < b.address ? -1 : a.address > b.address ? 1 : 0;
}

/**
 * Every address that (transitively) depends on `address` among `changes`. `index`: the
 * {@link dependentsIndex} of `changes`, for many calls over one list (an apply failing many
 * writes: each call a walk of its dependents, not of every change per level).
 */
export function dependentsOf(address: string, changes: readonly Change[], index: ReadonlyMap<string, readonly string[]> = dependentsIndex(changes)): Set<string> {
  const out = new Set<string>();
  let frontier = [address];
  while (frontier.length) {
    const next: string[] = [];
    for (const a of frontier) {
      for (const d of index.get(a) ?? []) {
        if (out.has(d)) continue;
        out.add(d);
        next.push(d);
      }
    }
    frontier = next;
  }
  return out;
}

/** The addresses of `changes` that name each address in their `dependsOn`. */
export function dependentsIndex(changes: readonly Change[]): Map<string, string[]> {
  const index = new Map<string, string[]>();
  for (const c of changes) {
    for (const d of c.dependsOn) {
      const list = index.get(d);
      if (list) list.push(c.address);
      else index.set(d, [c.address]);
    }
  }
  return index;
}

export type { ResourceType };
