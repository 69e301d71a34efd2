/**
 * `dqform`: the command line. Arguments are parsed by commander (strict: an unknown or
 * misspelled flag or command is an error with a "did you mean", never ignored); Terraform's
 * single-dash spellings (`-detailed-exitcode`, `-out=plan.json`) are accepted. Exit codes follow
 * design.md: 0 ok / no changes, 2 changes (plan --detailed-exitcode, drift), 1 error. User
 * mistakes print diagnostics (what, where, what to do), never a stack trace.
 *
 * Adding a flag is one `.option(...)` line in its command's module (src/cli/commands/<verb>.ts) plus
 * its field in the command's options type there; the help, the strictness and the suggestions
 * follow from it. Adding a command is its module plus one line in {@link COMMANDS}.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, CommanderError, Help, Option } from 'commander';
import { redact, registerSecret } from '../client/redact';
import { inertLines, inertLinesKeepingColour } from '../../schemas/tools/inert';
import { UsageError } from './usage-error';
import { credentialVariables } from './credential-variables';
import { deferZodLocales } from '../../schemas/tools/zod-locales';
import { lazy } from './lazy';
import { terraformVerbAnswer } from './terraform-verbs';
import type { CommandContext, CommandModule, Io } from './command';

export type { Io } from './command';

/**
 * The commands, in the order the help lists them: each a module of src/cli/commands/ (its
 * definition and its action), loaded only when the command line needs it (see
 * {@link commandsFor}). Adding a command is its module plus one line here.
 */
const COMMANDS: Record<string, () => CommandModule> = {
  synth: () => require('./commands/synth').command,
  validate: () => require('./commands/validate').command,
  plan: () => require('./commands/plan').command,
  apply: () => require('./commands/apply').command,
  destroy: () => require('./commands/destroy').command,
  drift: () => require('./commands/drift').command,
  show: () => require('./commands/show').command,
  list: () => require('./commands/list').command,
  output: () => require('./commands/output').command,
  import: () => require('./commands/import').command,
  emulator: () => require('./commands/emulator').command,
  version: () => require('./commands/version').command,
  help: () => require('./commands/help').command,
};

/**
 * The commands the command line needs defined: the one it names (its options parse it, its help
 * is its own), none for `--version`, every one otherwise (`help`, the main help, an unknown
 * command and its suggestion). `dqform --version` and `dqform help` load no command's action
 * (issue 15: <= 0.15 s); a command module loads its action's modules when it runs.
 */
function commandsFor(argv: readonly string[]): string[] {
  const first = argv[0];
  if (first !== undefined && first !== 'help' && Object.hasOwn(COMMANDS, first)) return [first];
  if (argv.length === 1 && (first === '--version' || first === '-v')) return [];
  return Object.keys(COMMANDS);
}

// Before a command loads zod (issue 15): zod's 64 locale modules load only if something reads
// z.locales (schemas/tools/zod-locales.ts), and a command that runs once parses with zod's reference
// parser instead of generating code for each object schema first (`jitless`, read as each schema
// is built: the same parse, the one zod uses wherever eval is not allowed; generating it cost a
// plan of 10,000 objects more than it saved, 3-5 % of its CPU, and validate 30 ms). The emulator,
// a server that parses every request for as long as it runs, keeps the generated parsers.
let zodSetUp = false;
function setUpZod(longRunning: boolean): void {
  if (zodSetUp) return;
  zodSetUp = true;
  deferZodLocales();
  if (!longRunning) (require('zod') as typeof import('zod')).config({ jitless: true });
}

/** The package version, from the nearest package.json (src/cli in a checkout, dist/src/cli installed). */
const VERSION: string = (() => {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f)) return String((JSON.parse(fs.readFileSync(f, 'utf8')) as { version?: string }).version ?? '0.0.0');
  }
  return '0.0.0';
})();

// ---- the program ----

const DESCRIPTION = `dqform ${VERSION}: your data-quality platform's configuration as code`;

const MAIN_HELP_AFTER = `
The desired state comes from cdktf.out (after 'dqform synth') or from a YAML workspace
(--file dqform.yaml; used automatically when ./dqform.yaml exists and there is no cdktf.out;
both present is an error until --file or --dir says which).

Credentials come from the environment only: DQ_CLIENT_ID, DQ_CLIENT_SECRET (or the variables a
stack names in credentialsFrom), and DQ_BASE_URL or DQ_REGION (eu default, us, au) for stacks
that set no baseUrl or region of their own. See docs/environments.md.

Terraform's single-dash spellings work too: dqform plan -detailed-exitcode -out=plan.json.
Every command accepts -input=false: dqform asks nothing without a terminal, and with it nothing
at all (apply and destroy then need --auto-approve).
Run 'dqform help <command>' (or 'dqform <command> --help') for a command's options.`;

/** Help layout: flags as `--out FILE` (Terraform's docs style), commands by their bare names. */
class DqHelp extends Help {
  override optionTerm(option: Option): string {
    return option.flags.replace(/<([^>]+)>/g, '$1');
  }
  override subcommandTerm(cmd: Command): string {
    return cmd.name();
  }
}

/** A commander Command whose help (and its subcommands' help) uses {@link DqHelp}. */
class DqCommand extends Command {
  override createCommand(name?: string): Command {
    return new DqCommand(name);
  }
  override createHelp(): Help {
    return Object.assign(new DqHelp(), this.configureHelp());
  }
}

/** The exit code the chosen command's action returned. */
interface Outcome {
  code: number;
}

function buildProgram(io: Io, outcome: Outcome, argv: readonly string[]): Command {
  const program = new DqCommand('dqform')
    .description(DESCRIPTION)
    .usage('<command> [options]')
    .version(VERSION, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show help')
    .helpCommand(false)
    .showSuggestionAfterError(true)
    .exitOverride()
    .configureOutput({ writeOut: (s) => io.out(s.trimEnd()), writeErr: (s) => io.err(s.trimEnd()), outputError: () => undefined })
    .configureHelp({ sortSubcommands: false })
    .addHelpText('after', MAIN_HELP_AFTER);
  const ctx: CommandContext = { io, argv, program, version: VERSION };
  for (const verb of commandsFor(argv)) {
    const mod = COMMANDS[verb]();
    const run = mod.run as (c: CommandContext, ...a: unknown[]) => Promise<number>;
    mod.define(program, VERSION).action(async (...a: unknown[]) => {
      if (!mod.noZod) setUpZod(!!mod.longRunning);
      outcome.code = await run(ctx, ...a);
    });
  }
  return program;
}

/**
 * Terraform's single-dash long flags (`-detailed-exitcode`, `-out=plan.json`, `-auto-approve`)
 * as commander's `--` form. Single letters (`-h`), negative numbers and everything after `--`
 * are left alone.
 */
export function terraformSpellings(argv: readonly string[]): string[] {
  const end = argv.indexOf('--');
  return argv.map((a, i) => ((end < 0 || i < end) && /^-[A-Za-z][A-Za-z0-9-]+(=.*)?$/s.test(a) ? `-${a}` : a));
}

/**
 * Terraform's `-input=false` (in every Terraform CI script), accepted by every command and taken
 * out of the arguments before commander sees them: dqform never asks a question without a
 * terminal anyway, and with `--input=false` a command that would ask one fails with the flag to
 * use instead (`--auto-approve`). `--input` and `--input=true` are accepted too. Nothing after
 * `--` is touched.
 */
export function inputFlag(argv: readonly string[]): { argv: string[]; noInput: boolean } | UsageError {
  const end = argv.indexOf('--');
  let noInput = false;
  const rest: string[] = [];
  for (const [i, a] of argv.entries()) {
    const m = (end < 0 || i < end) && a.match(/^--input(?:=(.*))?$/s);
    if (!m) rest.push(a);
    else if (m[1] === undefined || m[1] === 'true') noInput = false;
    else if (m[1] === 'false') noInput = true;
    else return new UsageError(`--input takes true or false (Terraform's -input=false), got "${m[1]}"`, '');
  }
  return { argv: rest, noInput };
}

/** Runs the CLI; returns the exit code. */
export async function main(argvIn: string[], ioIn: Partial<Io> = {}): Promise<number> {
  const io: Io = {
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${redact(s)}\n`),
    env: process.env,
    cwd: process.cwd(),
    isTty: !!process.stdin.isTTY && !!process.stdout.isTTY && process.env.CI !== 'true',
    confirm: async (q) => {
      // loaded when a question is asked (issue 15: most commands never ask one)
      const readline = require('node:readline') as typeof import('node:readline');
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      const a = await new Promise<string>((res) => rl.question(inertLines(q), res));
      rl.close();
      return a.trim() === 'yes';
    },
    ...ioIn,
  };
  // Before any input is read (a plan file, a manifest, an argument echoed in an error): every
  // client secret in the environment is masked wherever dqform prints.
  registerCredentialValues(io.env);
  // Everything printed is inert (schemas/tools/inert): names, addresses and server text cannot move the
  // cursor, reorder a line (bidi), hide in zero-width characters or start a workflow command.
  // stdout keeps the colour codes the text plan paints (it escapes user text before painting).
  const rawOut = io.out;
  const rawErr = io.err;
  io.out = (s) => rawOut(inertLinesKeepingColour(s));
  io.err = (s) => rawErr(inertLines(s));
  const input = inputFlag(terraformSpellings(argvIn));
  if (input instanceof UsageError) return reportFailure(io, input);
  const { argv } = input;
  if (input.noInput) io.noInput = true;
  const outcome: Outcome = { code: 0 };
  const program = buildProgram(io, outcome, argv);
  if (argv.length === 0) {
    // No command: the help, and exit 1 (a usage mistake, as Terraform does).
    program.outputHelp();
    return 1;
  }
  // A Terraform command dqform does not have: what to use instead, exit 2 (a usage answer).
  const instead = terraformVerbAnswer(argv, (verb) => Object.hasOwn(COMMANDS, verb));
  if (instead !== undefined) {
    io.err(instead);
    return 2;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (e) {
    if (e instanceof CommanderError) return usageFailure(io, e, program, argv);
    if (e instanceof UsageError && e.command === undefined) return reportFailure(io, new UsageError(e.message, commandOf(program, argv)?.name()));
    return reportFailure(io, e);
  }
}

/** Prints a failure as a user should see it (src/cli/runtime.ts reportError); returns 1. */
function reportFailure(io: Io, e: unknown): number {
  setUpZod(false);
  return lazy.runtime().reportError(io, e);
}

/** Registers for redaction the value of DQ_CLIENT_SECRET and of every variable whose name ends in _CLIENT_SECRET. */
export function registerCredentialValues(env: NodeJS.ProcessEnv): void {
  for (const k of credentialVariables(env)) {
    registerSecret(env[k]);
    registerSecret(env[k]!.trim());
  }
}

/** The command the arguments name, if any (for pointing at its help). */
function commandOf(program: Command, argv: readonly string[]): Command | undefined {
  return program.commands.find((c) => c.name() === argv[0]);
}

/** A commander error (or help/version, which commander reports as errors) as our diagnostics. */
function usageFailure(io: Io, e: CommanderError, program: Command, argv: readonly string[]): number {
  if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return e.exitCode === 0 ? 0 : 1;
  const cmd = commandOf(program, argv);
  const where = cmd ? `dqform ${cmd.name()}` : 'dqform';
  const [first, ...rest] = e.message.replace(/^error: /, '').split('\n');
  let suggestion = rest.join(' ').match(/\(Did you mean (.+)\?\)/)?.[1];
  let message = first;
  switch (e.code) {
    case 'commander.unknownOption': {
      const flag = first.match(/^unknown option '([^=']*)(=.*)?'$/);
      message = `unknown option ${flag ? `"${flag[1]}"` : first.replace(/^unknown option /, '')} for ${where}`;
      // commander compares `--flag=value` whole with the flags, so a long value hides the typo
      if (!suggestion && flag?.[2] && cmd) suggestion = lazy.unknownFields().closest(flag[1], cmd.options.map((o) => o.long).filter((l): l is string => !!l));
      break;
    }
    case 'commander.unknownCommand':
      message = first.replace(/^unknown command '(.*)'$/, 'unknown command "$1"');
      break;
    case 'commander.optionMissingArgument':
      message = first.replace(/^option '(--[a-z-]+)(?:,[^']*)? [^']*' argument missing$/, '$1 needs a value');
      break;
    case 'commander.excessArguments':
      message = `too many arguments for ${where}: ${first.replace(/^.*Expected (\d+) arguments? but got (\d+)\.$/, 'expected at most $1, got $2')}`;
      break;
    case 'commander.conflictingOption':
      message = first.replace(/option '(--[a-z-]+)[^']*'/g, '$1');
      break;
    case 'commander.missingArgument':
      message = first.replace(/^missing required argument '(.*)'$/, `${where} needs $1`);
      break;
    default:
      break;
  }
  io.err(`Error: ${message}`);
  if (suggestion) io.err(`  Did you mean ${suggestion}?`);
  io.err(cmd ? `  Run ${where} --help for its options.` : '  Run dqform --help for the commands.');
  return 1;
}
