/**
 * The prose of the planner's typed reasons ({@link Reason}): the one place a reason's words are
 * made. The planner records codes with their data; `Change.reasons` holds this prose beside
 * them, for the renderers and the public JSON.
 */
import type { Change, Reason } from '../../schemas/plan';

/** What apply does with a write-only value, in words (reason `secret`). */
const SECRET_STATE: Record<Extract<Reason, { code: 'secret' }>['state'], string> = {
  set: 'set from its reference at apply',
  replaced: 'rotated, sent to the new integration',
  rotated: 'rotated',
  unchanged: 'unchanged, not readable',
};

/** The words of one reason. */
export function reasonText(r: Reason): string {
  switch (r.code) {
    case 'moved':
      return `moved from ${r.from}: keeps its identity`;
    case 'imported':
      return `imported from existing ${r.label} ${JSON.stringify(r.id)}${r.was ? ` (was ${r.was})` : ''}`;
    case 'claims':
      return `claims it for namespace "${r.namespace}"`;
    case 'fixed-field':
      return r.text;
    case 'replace-requested':
      return 'replacement requested with --replace';
    case 'replaced-with':
      return `the platform deletes it with ${r.address}, which this plan replaces: created again after it`;
    case 'forget':
      return `removed with destroy = false: ${r.name} stays in place, no longer managed${
        r.ours ? `; keep the removed block while it exists (it ${r.tagged ? "carries this namespace's tag" : 'has this namespace as configId'}, so without the block the next plan deletes it)` : ''
      }`;
    case 'declared-removed':
      return `declared removed: ${r.name}`;
    case 'not-declared':
      return `${r.name} is no longer declared in namespace "${r.namespace}"`;
    case 'destroy':
      return `destroy: everything namespace "${r.namespace}" owns is deleted`;
    case 'managed-by':
      return `managed by namespace "${r.namespace}"`;
    case 'made-in-ui':
      return 'made in the UI';
    case 'not-dqform':
      return 'not managed by dqform';
    case 'unmanageable':
      return `cannot be managed by this version: ${r.fields.join('; ')}`;
    case 'not-ours-unmanageable':
      return `not managed by dqform: ${r.why.join('; ')}`;
    case 'drift-absent':
      return 'declared in the code, but absent live: deleted outside dqform, or not created yet';
    case 'drift-replaced':
      return 'dqform apply replaces it: it cannot be updated in place';
    case 'secret':
      return `${r.field} (secret: ${SECRET_STATE[r.state]})`;
  }
}

/** A change's `reasons` and `reasonCodes` for these reasons (no `reasonCodes` key when there are none). */
export function because(...rs: Reason[]): Pick<Change, 'reasons' | 'reasonCodes'> {
  return rs.length ? { reasons: rs.map(reasonText), reasonCodes: rs } : { reasons: [] };
}

/** Adds reasons to a change (both the codes and their prose). */
export function addReasons(c: Pick<Change, 'reasons' | 'reasonCodes'>, ...rs: Reason[]): void {
  if (rs.length === 0) return;
  c.reasons = [...c.reasons, ...rs.map(reasonText)];
  c.reasonCodes = [...(c.reasonCodes ?? []), ...rs];
}

/** Whether a change has a reason of this code. */
export function hasReason(c: Pick<Change, 'reasonCodes'>, code: Reason['code']): boolean {
  return (c.reasonCodes ?? []).some((r) => r.code === code);
}
