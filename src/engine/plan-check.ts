/**
 * The parts of a plan that are derived from others, and the check that a plan file agrees with
 * itself. `show` renders a change's `patch` and the plan's `summary`; apply compares a fresh plan
 * with the saved one on the checked fields (action, ids, before, after, ...) and never looks at
 * those two. So that what `show` prints is what apply does, a plan file whose `patch` or
 * `summary` is not what its checked fields give is refused on reading (issue 23): a patch op
 * removed by hand would hide a field apply writes, `summary.destroy = 0` would hide deletes.
 */
import * as jsonpatch from 'fast-json-patch';
import type { Change, Drift, PatchOp, Plan } from '../../schemas/model/plan';
import { stableStringify } from './keys';

/**
 * The patch a change carries: from `before` to `after` for an update or a replace (also in a
 * refresh-only plan's drift), none otherwise.
 */
export function derivedPatch(c: Pick<Change, 'action' | 'before' | 'after'>): PatchOp[] {
  if (c.action !== 'update' && c.action !== 'replace') return [];
  return jsonpatch.compare((c.before ?? {}) as object, (c.after ?? {}) as object) as PatchOp[];
}

/** The patch a drift entry carries: from the code's object to live's when it `changed`, none otherwise. */
export function derivedDriftPatch(d: Pick<Drift, 'difference' | 'code' | 'live'>): PatchOp[] {
  if (d.difference !== 'changed') return [];
  return jsonpatch.compare((d.code ?? {}) as object, (d.live ?? {}) as object) as PatchOp[];
}

/** A plan's summary: counts of its changes by action (`import`: imports that write). */
export function planSummary(changes: readonly Change[]): Plan['summary'] {
  const count = (a: Change['action']) => changes.filter((c) => c.action === a).length;
  return {
    import: changes.filter((c) => c.importedId && (c.action === 'update' || c.action === 'replace')).length,
    add: count('create'),
    change: count('update'),
    replace: count('replace'),
    destroy: count('delete'),
    unchanged: count('noop'),
    unmanaged: count('unmanaged') + count('forget'),
  };
}

/** Patches compared as sets of operations (their order follows key order, which JSON does not keep). */
const opSet = (ops: readonly PatchOp[]) => ops.map((o) => stableStringify({ op: o.op, path: o.path, value: o.value, from: o.from })).sort();

/**
 * Where a plan disagrees with itself: each entry names the field (`changes.3 (dq_alert.x).patch`,
 * `summary.destroy`) and how. Empty for every plan dqform writes.
 */
export function selfDisagreements(p: Plan): string[] {
  const out: string[] = [];
  const check = (list: 'changes' | 'drift', entries: readonly { address: string; patch: PatchOp[] }[], derive: (i: number) => PatchOp[], between: string) =>
    entries.forEach((c, i) => {
      if (stableStringify(opSet(c.patch)) !== stableStringify(opSet(derive(i)))) {
        out.push(`${list}.${i} (${c.address}): its patch is not the difference between its ${between}`);
      }
    });
  check('changes', p.changes, (i) => derivedPatch(p.changes[i]), 'before and after');
  check('drift', p.drift, (i) => derivedDriftPatch(p.drift[i]), 'code and live');
  const derived = planSummary(p.changes);
  for (const k of Object.keys(derived) as (keyof Plan['summary'])[]) {
    if (p.summary[k] !== derived[k]) out.push(`summary.${k} is ${p.summary[k]}, and its changes count ${derived[k]}`);
  }
  return out;
}
