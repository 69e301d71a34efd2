/**
 * `dqform version`: prints the version.
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule } from '../command';

async function run({ io, version }: CommandContext): Promise<number> {
  io.out(version);
  return 0;
}

function define(program: Command): Command {
  return program
    .command('version')
    .description('print the version');
}

export const command: CommandModule = { define, run, noZod: true };
