/**
 * `dqform import`: writes construct code or YAML for the live objects of a namespace.
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule } from '../command';
import { lazy } from '../lazy';

export interface ImportOptions {
  namespace?: string;
  out?: string;
  format?: string;
  adopt?: boolean;
  constructsModule?: string;
  stack?: string;
  /** Overwrite `out` when it exists. */
  force?: boolean;
}

async function run({ io }: CommandContext, o: ImportOptions): Promise<number> {
  const { client } = lazy.runtime();
  return lazy.importer().runImport(io, o, () => client(io));
}

function define(program: Command): Command {
  return program
    .command('import')
    .description('write construct code or YAML for the live objects of a namespace')
    .option('--namespace <NS>', 'the namespace to import (required)')
    .option('--out <FILE>', 'the file to write: main.ts or dqform.yaml (required)')
    .option('--format <ts|yaml>', 'what to write (default: from the --out extension)')
    .option('--adopt', 'also adopt objects made in the UI, through import blocks')
    .option('--constructs-module <M>', 'the module the generated code imports the constructs from (default dqform)')
    .option('--stack <NAME>', 'the stack name in the generated code (default: the namespace)')
    .option('--force', 'overwrite --out if it exists')
    .addHelpText(
      'after',
      "\nReads the live objects of namespace NS (with --adopt, also objects made in the UI; never\nanother namespace's) and writes code whose plan against live shows no changes. Finding\nnothing is exit 1. Read scopes suffice.\nExample: dqform import --namespace shop --out main.ts --format ts",
    );
}

export const command: CommandModule = { define, run };
