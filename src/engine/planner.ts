/**
 * The planner: a pure function of (resolution, live state, previews) to a Plan. No I/O, no
 * clock, no randomness: the same inputs give byte-identical plans.
 *
 * It is a composition of pure phases (src/engine/phases/): context, declared, removed, prune,
 * modes, cascades (the draft, {@link draftPlan}), then effects and assemble
 * ({@link finishPlan}). Between the two, engine/reconcile fetches the platform's previews of
 * the draft's rule changes (I/O); {@link computePlan} runs both halves with the previews given.
 */
import type { Change, Diagnostic, Plan } from '../../schemas/model/plan';
import { planContext, type PlanContext, type PlanInput } from './phases/context';
import { declaredPhase } from './phases/declared';
import { removedPhase } from './phases/removed';
import { prunePhase } from './phases/prune';
import { modesPhase } from './phases/modes';
import { cascadesPhase } from './phases/cascades';
import { effectsPhase, type EffectsInput } from './phases/effects';
import { assemblePhase } from './phases/assemble';
import { isWrite } from './writes';

export type { HandlerMap, LiveState, PlanInput } from './phases/context';
export { desiredForms } from './phases/context';
export type { EffectsInput } from './phases/effects';
export { getPointer, liveAddress, sameJson } from './phases/values';
export { unmanageableText } from './phases/declared';
export { repointedAway } from './phases/cascades';
export { previewed, previewRequests, sharedPreviewsWarning } from './phases/effects';

/** A plan before its effects: the changes (sorted by address) and diagnostics of the first phases. */
export interface DraftPlan {
  ctx: PlanContext;
  changes: Change[];
  diags: Diagnostic[];
}

/** The first phases: context, declared, removed, prune, modes, cascades. */
export function draftPlan(input: PlanInput): DraftPlan {
  const ctx = planContext(input);
  const declared = declaredPhase(ctx);
  const removed = removedPhase(ctx);
  const pruned = prunePhase(ctx);
  const { changes, diags } = modesPhase(ctx, {
    changes: [...declared.changes, ...removed.changes, ...pruned.changes],
    diags: [...ctx.resolution.diagnostics, ...declared.diags, ...removed.diags, ...pruned.diags],
    guards: [...declared.guards, ...removed.guards, ...pruned.guards],
  });
  cascadesPhase(ctx, changes);
  changes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  return { ctx, changes, diags };
}

/** The last phases: effects (the gathered previews) and assemble. */
export function finishPlan(draft: DraftPlan, effects: EffectsInput): Plan {
  effectsPhase(draft.ctx, draft.changes, draft.diags, effects);
  return assemblePhase(draft.ctx, draft.changes, draft.diags);
}

/** Computes the plan. Errors go to `plan.diagnostics` (severity error): such a plan cannot be applied. */
export function computePlan(input: PlanInput): Plan {
  return finishPlan(draftPlan(input), { previews: input.previews });
}

export { isWrite } from './writes';

/** Does the plan change anything? */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.some(isWrite);
}

