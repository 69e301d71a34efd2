/**
 * `dqform show PLANFILE`: renders a saved plan; no network, no credentials.
 */
import { Option, type Command } from 'commander';
import type { CommandContext, CommandModule, PlanFormat, RenderFlags } from '../command';
import { lazy } from '../lazy';
import { noColor, oneOf, PLAN_FORMATS, showUnmanaged } from '../flags';

export interface ShowOptions extends RenderFlags {
  format?: PlanFormat;
  json?: boolean;
}

/** `dqform show PLANFILE`: renders a saved plan; no network, no credentials. */
async function run({ io }: CommandContext, file: string, o: ShowOptions): Promise<number> {
  const { printDiagnostics, readPlanFile, textOf } = lazy.runtime();
  const format: PlanFormat = o.json ? 'json' : (o.format ?? 'text');
  const p = readPlanFile(io, file);
  if (!p) return 1;
  const failed = p.diagnostics.some((d) => d.severity === 'error');
  if (failed) {
    printDiagnostics(io, p.diagnostics.filter((d) => d.severity === 'error'));
    io.err(`This plan has errors: dqform apply refuses it. Fix them and run dqform plan --out ${file} again.`);
  }
  if (format === 'json') io.out(lazy.planJson().renderPlanJson(p).trimEnd());
  else if (format === 'markdown') io.out(lazy.render().renderMarkdown(p, { showUnmanaged: o.showUnmanaged }).trimEnd());
  else io.out(textOf(io, p, o));
  return failed ? 1 : 0;
}

function define(program: Command): Command {
  return showUnmanaged(noColor(
    program
      .command('show')
      .description('render a saved plan (no network, no credentials)')
      .argument('<PLANFILE>', "a plan saved by 'dqform plan --out'")
      .option('--format <text|markdown|json>', 'how to render it (default text)', oneOf('--format', PLAN_FORMATS))
      .addOption(new Option('--json', 'the plan as JSON (same as --format json)').conflicts('format')),
  ))
    .addHelpText('after', '\nExit 0, or 1 when the file is not a dqform plan or the plan has errors (apply would refuse it).\nExample: dqform show plan.json --format markdown > plan.md');
}

export const command: CommandModule = { define, run };
