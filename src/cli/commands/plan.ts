/**
 * `dqform plan`: reads live state, previews effects, prints the plan (and saves it with --out).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Option, type Command } from 'commander';
import type { CommandContext, CommandModule, Io, ModeFlags, PlanFormat, RenderFlags, StacksOptions } from '../command';
import { lazy } from '../lazy';
import type { Plan } from '../../../schemas/model/plan';
import { allStacks, modeFlags, noColor, noSynth, oneOf, PLAN_FORMATS, showUnmanaged, sourceFlags } from '../flags';
import { UsageError } from '../usage-error';

export interface PlanOptions extends StacksOptions, RenderFlags, ModeFlags {
  out?: string;
  format?: PlanFormat;
  json?: boolean;
  detailedExitcode?: boolean;
}

/** `--out plan-{stack}.json` with --all-stacks: one file per stack. */
function planFileFor(out: string | undefined, stack: string, all: boolean): string | undefined {
  return out && all ? out.split('{stack}').join(stack) : out;
}

/**
 * Checks, before anything is read or planned, that each plan file `--out` names can be written:
 * its directory exists and it is not itself a directory. A plan of minutes must not end in
 * ENOENT.
 */
function checkOutFiles(io: Io, out: string | undefined, stacks: readonly (string | undefined)[], all: boolean): void {
  const { shown } = lazy.runtime();
  if (!out) return;
  const files = all ? stacks.map((s) => planFileFor(out, s ?? '', true)!) : [out];
  for (const f of [...new Set(files)]) {
    const abs = path.resolve(io.cwd, f);
    const dir = path.dirname(abs);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
      throw new UsageError(`--out ${f}: the directory ${shown(io, dir)} does not exist; nothing was planned. Create it first (mkdir -p ${shown(io, dir)}), or save the plan elsewhere.`);
    }
    if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) throw new UsageError(`--out ${f} is a directory; give a file name (--out ${path.join(f, 'plan.json')}).`);
  }
}

async function run({ io, version }: CommandContext, o: PlanOptions): Promise<number> {
  const { StackClients, overStacks, planChanged, planStack, prepareSource, printDiagnostics, requestOf, stacksOf, textOf } = lazy.runtime();
  // --json: Terraform's -json, one JSON object a line; --format json: the plan as one document
  const stream = o.json ? new (lazy.jsonStream().JsonStream)(io.out) : undefined;
  stream?.version(version);
  const format: PlanFormat | 'stream' = stream ? 'stream' : (o.format ?? 'text');
  if (o.allStacks && o.out && !o.out.includes('{stack}')) {
    throw new UsageError(`--out with --all-stacks writes one plan per stack: put {stack} in the file name (--out "plan-{stack}.json"); got "${o.out}"`);
  }
  if (o.out && !o.out.includes('{stack}')) checkOutFiles(io, o.out, [undefined], false);
  const src = prepareSource(io, o);
  if (!src) return 1;
  const stacks = stacksOf(io, src, o);
  checkOutFiles(io, o.out, stacks, !!o.allStacks);
  const request = requestOf(o);
  const clients = new StackClients(io);
  const plans: Plan[] = [];
  try {
    const code = await overStacks(io, stacks, format === 'text' ? 'out' : 'err', async (stack) => {
      const p = await planStack(io, clients, src, stack, request);
      plans.push(p);
      const failed = p.diagnostics.some((d) => d.severity === 'error');
      // Errors go to stderr, where CI logs show them; text plans with errors print nothing else.
      if (stream) stream.plan(p);
      else if (failed) printDiagnostics(io, p.diagnostics);
      if (format === 'markdown') io.out(lazy.render().renderMarkdown(p, { showUnmanaged: o.showUnmanaged }).trimEnd());
      else if (format === 'text' && !failed) io.out(textOf(io, p, o));
      else if (format === 'json' && !o.allStacks) io.out(lazy.planJson().renderPlanJson(p).trimEnd());
      const file = planFileFor(o.out, p.stack, !!o.allStacks);
      // A plan with errors is never saved: apply would refuse it, and a file that exists looks applicable.
      if (file && failed) io.err(`Error: the plan has errors: not saved to ${file} (nothing was written). Fix the errors above and plan again.`);
      else if (file) {
        fs.writeFileSync(path.resolve(io.cwd, file), lazy.planFile().writePlan(p));
        io.err(`Saved the plan to ${file}. Apply exactly it with: dqform apply ${file}`);
      }
      if (failed) return { stack: p.stack, code: 1, line: `${p.diagnostics.filter((d) => d.severity === 'error').length} error(s)` };
      const changed = planChanged(p);
      return { stack: p.stack, code: o.detailedExitcode && changed ? 2 : 0, line: changed ? lazy.render().summaryLine(p) : 'No changes.' };
    });
    // --all-stacks --json: one JSON array of the plans (in stack order), so stdout stays one document.
    if (format === 'json' && o.allStacks) io.out(lazy.planJson().renderPlansJson(plans));
    return code;
  } finally {
    await clients.close();
  }
}

function define(program: Command): Command {
  return showUnmanaged(noColor(modeFlags(
    allStacks(noSynth(sourceFlags(program.command('plan').description('read live state, preview effects, print the plan'))))
      .option('--out <FILE>', "save the plan as JSON for 'dqform apply FILE' (with --all-stacks: a name with {stack} in it)")
      .option('--format <text|markdown|json>', 'what to print on stdout (default text; markdown for a PR comment)', oneOf('--format', PLAN_FORMATS))
      .addOption(new Option('--json', "print one JSON object a line, as Terraform's -json (docs/json-stream.md; the plan as one JSON document: --format json, or dqform show --json PLANFILE)").conflicts('format'))
      .option('--detailed-exitcode', 'exit 2 when the plan has changes (0 none, 1 error)'),
  )))
    .addHelpText(
      'after',
      '\nExit codes: 0 no changes, 2 changes (with --detailed-exitcode; with --refresh-only: live differs from the\ncode), 1 error; with --all-stacks, 1 if any stack failed, else 2 if any has changes (with\n--detailed-exitcode), else 0. The plan file records --destroy, --refresh-only, --target and --replace:\napply plans again with them.\nExample: dqform plan --out plan.json --format markdown > plan.md\nExample: dqform plan --target dq_alert.orders --replace dq_owner.team --out plan.json',
    );
}

export const command: CommandModule = { define, run };
