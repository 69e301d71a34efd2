/**
 * The assemble phase: the plan value. Refresh-only plans move what would write to `drift`;
 * diagnostics are sorted by address and summary; the summary counts the changes. Pure.
 */
import type { Change, Diagnostic, Plan } from '../../../schemas/model/plan';
import { planSummary } from '../plan-check';
import { asRefreshOnly } from '../modes';
import type { PlanContext } from './context';

export function assemblePhase(ctx: PlanContext, changes: Change[], diags: Diagnostic[]): Plan {
  const { request, resolution } = ctx;
  // refresh-only: nothing proposed; how live differs from the code goes to `drift`
  const drift = request.refreshOnly ? asRefreshOnly(changes) : [];
  diags.sort((a, b) => `${a.address ?? ''}${a.summary}`.localeCompare(`${b.address ?? ''}${b.summary}`));
  return {
    workspace: resolution.workspace,
    namespace: resolution.namespace,
    stack: resolution.stack,
    manifestHash: ctx.input.manifestHash,
    options: { destroy: request.destroy, refreshOnly: request.refreshOnly, targets: [...new Set(request.targets)].sort(), replace: [...new Set(request.replace)].sort() },
    changes,
    drift,
    summary: planSummary(changes),
    diagnostics: diags,
  };
}
