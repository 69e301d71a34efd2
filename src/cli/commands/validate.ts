/**
 * `dqform validate`: checks the synthesised manifest offline (schema, references, duplicates).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, StacksOptions } from '../command';
import { lazy } from '../lazy';
import { allStacks, noSynth, sourceFlags } from '../flags';

export type ValidateOptions = StacksOptions;

async function run({ io }: CommandContext, o: ValidateOptions): Promise<number> {
  const { loadStack, overStacks, prepareSource, printDiagnostics, siblingStacks, stacksOf } = lazy.runtime();
  const src = prepareSource(io, o);
  if (!src) return 1;
  return overStacks(io, stacksOf(io, src, o), 'out', async (stack) => {
    const m = loadStack(io, src, stack);
    const res = lazy.resolve().resolveManifest(m, 'offline-validation', { offline: true, siblings: siblingStacks(src, m, io.env) });
    printDiagnostics(io, res.diagnostics);
    const errors = res.diagnostics.filter((d) => d.severity === 'error').length;
    if (errors) {
      io.err(`${errors} error(s) in stack ${m.stack}.`);
      return { stack: m.stack, code: 1, line: `${errors} error(s)` };
    }
    io.out(`Stack ${m.stack} (namespace "${m.namespace}"): ${m.resources.length} resource(s), valid.`);
    return { stack: m.stack, code: 0, line: `valid, ${m.resources.length} resource(s)` };
  });
}

function define(program: Command): Command {
  return allStacks(noSynth(sourceFlags(program.command('validate').description('check the synthesised manifest offline: schema, references, duplicates'))))
    .addHelpText('after', '\nChecks the manifest without any network call. Exit 0 when valid, 1 otherwise.');
}

export const command: CommandModule = { define, run };
