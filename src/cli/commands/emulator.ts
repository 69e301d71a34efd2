/**
 * `dqform emulator`: runs the local platform emulator (it parses its own, already checked, arguments).
 */
import type { Command } from 'commander';
import type { CommandContext, CommandModule } from '../command';
import { lazy } from '../lazy';

async function run({ argv }: CommandContext): Promise<number> {
  return lazy.emulator().runEmulatorCli(argv.slice(argv.indexOf('emulator') + 1));
}

function define(program: Command): Command {
  // The emulator checks its own values (src/emulator parseEmulatorArgs); the flags are declared
  // here too so that help, strictness and suggestions are the same as everywhere else.
  return program
    .command('emulator')
    .description('run the local platform emulator')
    .option('--port <N>', 'port to listen on (default 8787; 0 picks a free one)')
    .option('--host <HOST>', 'address to bind (default 127.0.0.1)')
    .option('--data <FILE>', 'keep state in this JSON file (default: in memory)')
    .option('--seed <demo|empty>', 'the catalog and objects to start with (default demo)')
    .option('--seed-size <N>', 'scale the demo catalog (benchmarks)')
    .option('--grpc-port <N>', 'port of the gRPC rule previews (default: --port + 1; a free one with --port 0)')
    .option('--no-grpc', 'serve REST only (previews of rules REST cannot carry then say "effects unknown")')
    .option('--marshal <omit|emit-unpopulated>', "answer like the real gateway: emit-unpopulated sends unset fields as null/zero (default omit; env DQ_EMULATOR_MARSHAL)")
    .option('--enums <names|numbers>', 'enums in responses as names or numbers (default names; env DQ_EMULATOR_ENUMS)')
    .addHelpText(
      'after',
      '\nRuns until stopped (Ctrl-C). Demo credentials (secret demo-secret): demo-admin (every scope),\ndemo-reader (per-service read scopes + SCOPE_MCP_READ), demo-governance (domain and owner\nedit scopes, data product and ownership read scopes; no SCOPE_MCP_WRITE).\nPoint dqform at the gRPC previews with DQ_GRPC_ENDPOINT=127.0.0.1:<grpc port> (printed at start).',
    );
}

export const command: CommandModule = { define, run, longRunning: true };
