/**
 * `dqform drift`: a read-only check that live state equals the code (exit 2 on drift).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, RenderFlags, StacksOptions } from '../command';
import { lazy } from '../lazy';
import type { Plan } from '../../../schemas/model/plan';
import { allStacks, noColor, noSynth, showUnmanaged, sourceFlags } from '../flags';

export interface DriftOptions extends StacksOptions, RenderFlags {
  json?: boolean;
  /** Accepted as in plan; drift exits 2 on drift either way. */
  detailedExitcode?: boolean;
}

async function run({ io }: CommandContext, o: DriftOptions): Promise<number> {
  const { overPlans, useColor } = lazy.runtime();
  const plans: Plan[] = [];
  const code = await overPlans(io, o, undefined, (p) => {
    plans.push(p);
    const drifted = lazy.planner().hasChanges(p);
    if (o.json) {
      if (!o.allStacks) io.out(lazy.planJson().renderPlanJson(p).trimEnd());
    } else if (!drifted) io.out(`No drift: live state matches the code${o.allStacks ? ` (stack ${p.stack})` : ''}.`);
    else {
      // the same entries as plan --refresh-only: field, code's value, live's value, what apply would do
      io.out(lazy.render().renderDrift(p, lazy.modes().asRefreshOnly(p.changes), { color: useColor(io, o), showUnmanaged: o.showUnmanaged }).trimEnd());
      io.out('Drift detected.');
    }
    return { stack: p.stack, code: drifted ? 2 : 0, line: drifted ? `drift: ${lazy.render().summaryLine(p)}` : 'No drift.' };
  });
  if (code === undefined) return 1;
  if (o.json && o.allStacks) io.out(lazy.planJson().renderPlansJson(plans));
  return code;
}

function define(program: Command): Command {
  return showUnmanaged(noColor(
    allStacks(noSynth(sourceFlags(program.command('drift').description('read-only check that live state equals the code'))))
      .option('--json', "print the plan JSON (the format of 'dqform plan --format json', schemas/model/plan.ts)")
      .option('--detailed-exitcode', 'accepted as in plan (Terraform habit); drift always exits 2 on drift'),
  ))
    .addHelpText('after', '\nRead-only: exit 0 when live state equals the code, 2 when it drifted, 1 on error.');
}

export const command: CommandModule = { define, run };
