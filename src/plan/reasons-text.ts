/**
 * The prose of the planner's typed reasons ({@link Reason}): the one place a reason's words are
 * made. The model (`Plan`) carries the codes only; the views make the words: the text and
 * markdown renderers (src/cli/render.ts), the public JSON (src/plan/json.ts) and the plan file
 * (src/plan/file.ts), which keep `reasons` in prose beside the codes for their readers. Imports
 * nothing but schemas/, so that the engine's diagnostics can quote a reason too.
 */
import type { Change, Drift, Reason } from '../../schemas/model/plan';

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
    case 'text':
      return r.text;
  }
}

/** The prose of a change's or a drift entry's reasons, in order. */
export function reasonsText(c: Pick<Change | Drift, 'reasonCodes'>): string[] {
  return (c.reasonCodes ?? []).map(reasonText);
}
