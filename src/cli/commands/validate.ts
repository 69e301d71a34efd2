/**
 * `dqform validate`: checks the synthesised manifest offline (schema, references, duplicates).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, StacksOptions } from '../command';
import { lazy } from '../lazy';
import { allStacks, noSynth, sourceFlags } from '../flags';
import { isFamily } from '../../../schemas/tools/errors';

export interface ValidateOptions extends StacksOptions {
  /** One JSON object a line on stdout (docs/json-stream.md). */
  json?: boolean;
}

async function run({ io, version }: CommandContext, o: ValidateOptions): Promise<number> {
  const { overStacks, prepareSource, prepareStack, printDiagnostics, stacksOf } = lazy.runtime();
  const stream = o.json ? new (lazy.jsonStream().JsonStream)(io.out) : undefined;
  stream?.version(version);
  const src = prepareSource(io, o);
  if (!src) return 1;
  return overStacks(io, stacksOf(io, src, o), stream ? 'err' : 'out', async (stack) => {
    let m: ReturnType<typeof prepareStack>;
    try {
      m = prepareStack(io, src, stack);
    } catch (e) {
      // --json: a manifest that does not load is the stream's diagnostics, not stderr's
      if (!stream || !isFamily(e, ['manifest']) || !e.diagnostics) throw e;
      stream.forStack(stack ?? '');
      stream.diagnostics(e.diagnostics);
      stream.validated(e.diagnostics.filter((d) => d.severity === 'error').length, e.diagnostics.filter((d) => d.severity === 'warning').length, 0);
      return { stack: stack ?? '?', code: 1, line: 'failed (see the errors above)' };
    }
    const res = m.resolve('offline-validation', { offline: true });
    const errors = res.diagnostics.filter((d) => d.severity === 'error').length;
    if (stream) {
      stream.forStack(m.stack);
      stream.diagnostics(res.diagnostics);
      stream.validated(errors, res.diagnostics.filter((d) => d.severity === 'warning').length, m.resourceCount);
    } else printDiagnostics(io, res.diagnostics);
    if (errors) {
      if (!stream) io.err(`${errors} error(s) in stack ${m.stack}.`);
      return { stack: m.stack, code: 1, line: `${errors} error(s)` };
    }
    if (!stream) io.out(`Stack ${m.stack} (namespace "${m.namespace}"): ${m.resourceCount} resource(s), valid.`);
    return { stack: m.stack, code: 0, line: `valid, ${m.resourceCount} resource(s)` };
  });
}

function define(program: Command): Command {
  return allStacks(noSynth(sourceFlags(program.command('validate').description('check the synthesised manifest offline: schema, references, duplicates'))))
    .option('--json', 'print one JSON object a line (version, diagnostic, validate_result; docs/json-stream.md)')
    .addHelpText('after', '\nChecks the manifest without any network call. Exit 0 when valid, 1 otherwise.');
}

export const command: CommandModule = { define, run };
