/**
 * The modes phase: names the changes that write, then applies Terraform's flags (engine/modes):
 * destroy names its deletions by their declarations, --target/--replace addresses are checked,
 * --target keeps only the targeted changes and what they depend on, and the preventDestroy
 * guards hold only for the changes left. Runs before the cascades, which mark what this plan
 * also deletes. Pure: returns the changes and diagnostics it leaves.
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import type { Change, Diagnostic } from '../../../schemas/model/plan';
import { checkRequestedAddresses, destroyDeclared, narrowToTargets, targetingWarning } from '../modes';
import type { PhaseOutput, PlanContext } from './context';

/** Gives every change that is not a noop the name a person knows its object by. */
function nameChanges(ctx: PlanContext, changes: Change[]): void {
  for (const c of changes) {
    if (c.action !== 'noop' && c.name === undefined) {
      const name = ctx.names.nameOf(c.type as ResourceType, (c.after ?? c.before) as Record<string, unknown> | null);
      if (name !== undefined) c.name = name;
    }
  }
}

/** The modes phase over the changes, diagnostics and guards of the earlier phases. */
export function modesPhase(ctx: PlanContext, before: PhaseOutput): { changes: Change[]; diags: Diagnostic[] } {
  const { request, input } = ctx;
  let changes = before.changes;
  const diags = before.diags;
  const guards = before.guards;
  nameChanges(ctx, changes);
  if (request.destroy) destroyDeclared(changes, input.resolution, ctx.live, diags, guards);
  checkRequestedAddresses(request, input.resolution, changes, diags, !input.liveUnread);
  if (request.targets.length) {
    changes = narrowToTargets(changes, request, input.resolution);
    diags.push(targetingWarning(request));
  }
  const planned = new Set(changes.map((c) => c.address));
  diags.push(...guards.filter((d) => planned.has(d.address!)));
  return { changes, diags };
}
