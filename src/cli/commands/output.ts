/**
 * `dqform output [ADDRESS]`: the ids of the code's objects by address, read from live (what
 * Terraform's `output` gives for created ids; `dqform list` keyed by the code's addresses).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule, SourceOptions } from '../command';
import { lazy } from '../lazy';
import { noSynth, sourceFlags } from '../flags';
import { UsageError } from '../usage-error';
import { isFamily } from '../../../schemas/tools/errors';
import { READ_ONLY } from './list';

export interface OutputOptions extends SourceOptions {
  json?: boolean;
}

async function run({ io }: CommandContext, address: string | undefined, o: OutputOptions): Promise<number> {
  let wanted: string | undefined;
  try {
    wanted = address === undefined ? undefined : lazy.modes().canonicalAddress(address);
  } catch (e) {
    // the engine's AddressError (family usage): the pointer to the help added
    if (!isFamily(e, ['usage'])) throw e;
    throw new UsageError(e.message);
  }
  const { StackClients, planStack, prepareSource, printDiagnostics } = lazy.runtime();
  const src = prepareSource(io, o);
  if (!src) return 1;
  const clients = new StackClients(io);
  try {
    const p = await planStack(io, clients, src, o.stack, READ_ONLY);
    if (p.diagnostics.some((d) => d.severity === 'error')) {
      printDiagnostics(io, p.diagnostics);
      return 1;
    }
    const { outputs, absent } = lazy.list().outputsOf(p);
    if (wanted === undefined) {
      if (o.json) io.out(lazy.keys().stableStringify(outputs, 2));
      else for (const [a, id] of Object.entries(outputs)) io.out(`${a} = ${JSON.stringify(id)}`);
      if (absent.length) io.err(`Not created yet (dqform apply creates them): ${absent.join(', ')}`);
      return 0;
    }
    const id = outputs[wanted];
    if (id !== undefined) {
      io.out(o.json ? JSON.stringify(id) : id);
      return 0;
    }
    if (absent.includes(wanted)) {
      io.err(`Error: ${wanted} is declared but not created yet: it has no id until dqform apply creates it.`);
      return 1;
    }
    const guess = lazy.unknownFields().closest(wanted, [...Object.keys(outputs), ...absent]);
    io.err(`Error: the code of stack ${p.stack} declares no object at ${wanted}.${guess ? `\n  Did you mean ${guess}?` : ''}\n  dqform output lists the addresses; dqform list also shows what the namespace manages but the code no longer declares.`);
    return 1;
  } finally {
    await clients.close();
  }
}

function define(program: Command): Command {
  return noSynth(sourceFlags(program.command('output').description("print the ids of the code's objects by address, read from live")))
    .argument('[ADDRESS]', 'print only the id of this object (dq_alert.orders)')
    .option('--json', 'print a JSON object {address: id} (with ADDRESS: the id as a JSON string)')
    .addHelpText('after', '\nRead-only. An object the code declares but apply has not created yet has no id: it is named on stderr\n(with ADDRESS: exit 1). Exit 0, 1 on error.\nExample: dqform output dq_alert.orders');
}

export const command: CommandModule = { define, run };
