/**
 * `dqform help [command]`: our own (commander's prints the main help for an unknown command).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule } from '../command';
import { lazy } from '../lazy';
import { UsageError } from '../usage-error';

async function run({ program }: CommandContext, name: string | undefined): Promise<number> {
  if (!name) return program.outputHelp(), 0;
  const cmd = program.commands.find((c) => c.name() === name);
  if (!cmd) {
    const guess = lazy.unknownFields().closest(name, program.commands.map((c) => c.name()));
    throw new UsageError(`unknown command "${name}"${guess ? `\n  Did you mean ${guess}?` : ''}`, '');
  }
  cmd.outputHelp();
  return 0;
}

function define(program: Command): Command {
  // Our own `help [command]` (commander's prints the main help for an unknown command).
  return program
    .command('help')
    .description("show a command's help (dqform help plan)")
    .argument('[command]', 'the command');
}

export const command: CommandModule = { define, run, noZod: true };
