/**
 * `dqform`: the command line. Arguments are parsed by commander (strict: an unknown or
 * misspelled flag or command is an error with a "did you mean", never ignored); Terraform's
 * single-dash spellings (`-detailed-exitcode`, `-out=plan.json`) are accepted. Exit codes follow
 * design.md: 0 ok / no changes, 2 changes (plan --detailed-exitcode, drift), 1 error. User
 * mistakes print diagnostics (what, where, what to do), never a stack trace.
 *
 * Adding a flag is one `.option(...)` line on its command below plus its field in the command's
 * options type (commands.ts); the help, the strictness and the suggestions follow from it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Command, CommanderError, Help, Option } from 'commander';
import { redact, registerSecret } from '../client/redact';
import { inertLines, inertLinesKeepingColour } from '../../schemas/inert';
import { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from '../engine/limits';
import { UsageError } from './usage-error';
import { credentialVariables } from './credential-variables';
import { deferZodLocales } from '../../schemas/zod-locales';
import type {
  ApplyOptions,
  DestroyOptions,
  DriftOptions,
  ImportOptions,
  Io,
  PlanFormat,
  PlanOptions,
  ShowOptions,
  SynthOptions,
  ValidateOptions,
} from './commands';

export type { Io } from './commands';

// The commands (and all they load: the client, the engine, zod and the schemas) are loaded when
// one runs: `dqform --version` and `dqform help` load none of them (issue 15: <= 0.15 s).
// Before a command loads zod (issue 15): zod's 64 locale modules load only if something reads
// z.locales (schemas/zod-locales.ts), and a command that runs once parses with zod's reference
// parser instead of generating code for each object schema first (`jitless`, read as each schema
// is built: the same parse, the one zod uses wherever eval is not allowed; generating it cost a
// plan of 10,000 objects more than it saved, 3-5 % of its CPU, and validate 30 ms). The emulator,
// a server that parses every request for as long as it runs, keeps the generated parsers.
let zodSetUp = false;
const commands = (opts: { longRunning?: boolean } = {}) => {
  if (!zodSetUp) {
    zodSetUp = true;
    deferZodLocales();
    if (!opts.longRunning) (require('zod') as typeof import('zod')).config({ jitless: true });
  }
  return require('./commands') as typeof import('./commands');
};
const cmdApply: typeof import('./commands').cmdApply = (...a) => commands().cmdApply(...a);
const cmdDestroy: typeof import('./commands').cmdDestroy = (...a) => commands().cmdDestroy(...a);
const cmdDrift: typeof import('./commands').cmdDrift = (...a) => commands().cmdDrift(...a);
const cmdEmulator: typeof import('./commands').cmdEmulator = (...a) => commands({ longRunning: true }).cmdEmulator(...a);
const cmdImport: typeof import('./commands').cmdImport = (...a) => commands().cmdImport(...a);
const cmdPlan: typeof import('./commands').cmdPlan = (...a) => commands().cmdPlan(...a);
const cmdShow: typeof import('./commands').cmdShow = (...a) => commands().cmdShow(...a);
const cmdSynth: typeof import('./commands').cmdSynth = (...a) => commands().cmdSynth(...a);
const cmdValidate: typeof import('./commands').cmdValidate = (...a) => commands().cmdValidate(...a);
const reportError: typeof import('./commands').reportError = (...a) => commands().reportError(...a);
const canonicalAddress: typeof import('../engine/modes').canonicalAddress = (...a) => (require('../engine/modes') as typeof import('../engine/modes')).canonicalAddress(...a);
const closest: typeof import('../engine/unknown-fields').closest = (...a) => (require('../engine/unknown-fields') as typeof import('../engine/unknown-fields')).closest(...a);

/** The package version, from the nearest package.json (src/cli in a checkout, dist/src/cli installed). */
const VERSION: string = (() => {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f)) return String((JSON.parse(fs.readFileSync(f, 'utf8')) as { version?: string }).version ?? '0.0.0');
  }
  return '0.0.0';
})();

// ---- option values ----

/** A whole number >= 0 (`--max-deletes 3`); anything else is a usage error. */
const wholeNumber =
  (flag: string) =>
  (v: string): number => {
    if (!/^\d+$/.test(v.trim())) throw new UsageError(`${flag} takes a whole number, got "${v}"`);
    return Number(v);
  };

/** One of a fixed set of words (`--format markdown`). */
const oneOf =
  <T extends string>(flag: string, values: readonly T[]) =>
  (v: string): T => {
    if (!(values as readonly string[]).includes(v)) throw new UsageError(`${flag} must be ${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}; got "${v}"`);
    return v as T;
  };

const PLAN_FORMATS: readonly PlanFormat[] = ['text', 'markdown', 'json'];

/** A repeatable resource address (`--target A --target B`), checked and in its canonical form. */
const addresses =
  (flag: string) =>
  (v: string, previous: string[] | undefined): string[] => {
    try {
      return [...(previous ?? []), canonicalAddress(v)];
    } catch (e) {
      throw new UsageError(`${flag} ${(e as Error).message}`);
    }
  };

// ---- shared flag groups (one line each) ----

/** Where the desired state comes from. */
function sourceFlags(c: Command): Command {
  return c
    .option('--dir <DIR>', 'synth output directory to read (default cdktf.out)')
    .option('--file <FILE>', 'a YAML workspace file instead of synth output (./dqform.yaml is used when there is no cdktf.out)')
    .option('--stack <NAME>', 'the stack to use when the synth output holds several');
}

/**
 * Accepted and ignored: only `dqform synth` runs the app (plan, apply, drift, destroy and validate
 * stop when the app is newer than its synth output). Kept so that existing scripts still parse.
 */
const noSynth = (c: Command): Command => c.option('--no-synth', 'accepted for compatibility and ignored: this command never runs the app (run dqform synth first)');

/** Every stack in turn, one combined summary and exit code. */
const allStacks = (c: Command): Command =>
  c.addOption(new Option('--all-stacks', 'every synthesised stack in turn, with one combined summary and exit code').conflicts('stack'));

const noColor = (c: Command): Command => c.option('--no-color', 'no colour, even on a terminal or with FORCE_COLOR (NO_COLOR=1 does the same)');

/** The objects not managed here are counted (by who manages them) unless this is given. */
const showUnmanaged = (c: Command): Command => c.option('--show-unmanaged', 'list every object not managed here (by default they are counted, by who manages them)');

/** --target (with what it depends on), the flag of plan, apply and destroy. */
const targetFlag = (c: Command): Command =>
  c.option('--target <ADDR>', 'plan only this object and what it depends on (repeatable; a partial plan, for exceptional cases): dq_alert.orders, or dq_alert["shop.old"] as the plan prints it', addresses('--target'));

/** Terraform's mode flags of plan and apply: --destroy, --refresh-only, --target, --replace. */
const modeFlags = (c: Command): Command =>
  targetFlag(c)
    .option('--replace <ADDR>', 'destroy this object and create it anew, even if it has not changed (repeatable)', addresses('--replace'))
    .addOption(new Option('--refresh-only', 'propose nothing: show how live state differs from the code (dqform keeps no state, so there is nothing to record)').conflicts(['destroy', 'replace']))
    .addOption(new Option('--destroy', 'plan the deletion of everything the namespace owns (as dqform destroy)').conflicts('replace'));

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
  const run =
    <A extends unknown[]>(fn: (...a: A) => Promise<number>) =>
    async (...a: A): Promise<void> => {
      outcome.code = await fn(...a);
    };

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

  program
    .command('synth')
    .description('run the CDKTF app (cdktf.json "app", or --app CMD) and write cdktf.out')
    .option('--app <CMD>', 'the command that runs the app (default: "app" of ./cdktf.json)')
    .option('--out <DIR>', 'output directory (default cdktf.out)')
    .option('--allow-secret-env', 'run the app in CI although DQ_CLIENT_SECRET (or another *_CLIENT_SECRET) is set; the app can read it')
    .addHelpText(
      'after',
      '\nRuns the CDKTF app and writes Terraform JSON to cdktf.out/stacks/<stack>/cdk.tf.json. It takes no\ncredentials: run it without DQ_CLIENT_SECRET (a warning otherwise; refused with CI set unless\n--allow-secret-env). plan, apply, drift and destroy never run the app.\nExample: dqform synth --app "npx tsx main.ts"',
    )
    .action(run((o: SynthOptions) => cmdSynth(io, o)));

  allStacks(noSynth(sourceFlags(program.command('validate').description('check the synthesised manifest offline: schema, references, duplicates'))))
    .addHelpText('after', '\nChecks the manifest without any network call. Exit 0 when valid, 1 otherwise.')
    .action(run((o: ValidateOptions) => cmdValidate(io, o)));

  showUnmanaged(noColor(modeFlags(
    allStacks(noSynth(sourceFlags(program.command('plan').description('read live state, preview effects, print the plan'))))
      .option('--out <FILE>', "save the plan as JSON for 'dqform apply FILE' (with --all-stacks: a name with {stack} in it)")
      .option('--format <text|markdown|json>', 'what to print on stdout (default text; markdown for a PR comment)', oneOf('--format', PLAN_FORMATS))
      .addOption(new Option('--json', 'print the plan as JSON (same as --format json; progress stays on stderr)').conflicts('format'))
      .option('--detailed-exitcode', 'exit 2 when the plan has changes (0 none, 1 error)'),
  )))
    .addHelpText(
      'after',
      '\nExit codes: 0 no changes, 2 changes (with --detailed-exitcode; with --refresh-only: live differs from the\ncode), 1 error; with --all-stacks, 1 if any stack failed, else 2 if any has changes (with\n--detailed-exitcode), else 0. The plan file records --destroy, --refresh-only, --target and --replace:\napply plans again with them.\nExample: dqform plan --out plan.json --format markdown > plan.md\nExample: dqform plan --target dq_alert.orders --replace dq_owner.team --out plan.json',
    )
    .action(run((o: PlanOptions) => cmdPlan(io, o)));

  showUnmanaged(noColor(modeFlags(
    allStacks(noSynth(sourceFlags(program.command('apply').description('apply a saved plan, or plan then ask').argument('[PLANFILE]', "a plan saved by 'dqform plan --out'"))))
      .option('--auto-approve', 'plan and apply without asking (a PLANFILE needs no approval: it was reviewed)')
      .option('--max-deletes <N>', `refuse a plan destroying more than N objects, a replace counting as one (default ${DEFAULT_MAX_DELETES})`, wholeNumber('--max-deletes'))
      .option(
        '--max-effect-deletes <N>',
        `refuse a plan that makes the platform delete more than N monitors, SQL tests and objects deleted with what it deletes (default ${DEFAULT_MAX_EFFECT_DELETES})`,
        wholeNumber('--max-effect-deletes'),
      )
      .option('--allow-unpreviewed', "apply rule changes whose effects are unknown (the platform's preview failed or is missing)"),
  )))
    .addHelpText(
      'after',
      [
        '',
        'Without PLANFILE: plans (--destroy, --target and --replace as in dqform plan), prints the plan and',
        'asks for confirmation on a TTY; without a TTY, --auto-approve is required.',
        'With PLANFILE: applies exactly that saved plan. Before the first write it plans again from the same',
        'desired state and live state and refuses, writing nothing, unless the changes are the saved ones.',
        'A saved plan records its mode, and apply of that file must state the same mode flags it was made',
        'with (none for a normal plan), so an edited file cannot turn into another kind of plan:',
        '  dqform plan --replace dq_owner.x --out p.json  then  dqform apply --replace dq_owner.x p.json',
        '(dqform show PLANFILE prints the mode). A refresh-only plan writes nothing: dqform keeps no state.',
        'Guards: --max-deletes counts deletes and replaces; --max-effect-deletes counts monitors and SQL',
        "tests that rule changes delete and objects deleted by cascade (an owner's ownerships); a rule change",
        'whose preview failed is refused without --allow-unpreviewed. Nothing is written when one trips.',
        'A rule whose effects are known only after apply (it depends on an object the same plan creates) is',
        'previewed once that object exists; apply stops before it if it would delete, reset or take over',
        'anything.',
      ].join('\n'),
    )
    .action(run((file: string | undefined, o: ApplyOptions) => cmdApply(io, file, o)));

  showUnmanaged(noColor(targetFlag(
    allStacks(noSynth(sourceFlags(program.command('destroy').description('delete everything the namespace owns (plans it, then asks)'))))
      .option('--namespace <NS>', 'retire namespace NS, which no code declares any more: delete everything it owns (on DQ_BASE_URL/DQ_REGION, with DQ_CLIENT_ID/DQ_CLIENT_SECRET)')
      .option('--auto-approve', 'destroy without asking')
      .option('--max-deletes <N>', `refuse to destroy more than N objects (default ${DEFAULT_MAX_DELETES}: a namespace of more needs it)`, wholeNumber('--max-deletes'))
      .option('--max-effect-deletes <N>', `refuse when the platform would delete more than N monitors, SQL tests and cascaded objects with it (default ${DEFAULT_MAX_EFFECT_DELETES})`, wholeNumber('--max-effect-deletes'))
      .option('--allow-unpreviewed', "destroy rules whose effects are unknown (the platform's delete preview failed)"),
  )))
    .addHelpText(
      'after',
      "\nPlans the deletion of every object the namespace owns (configId = namespace, or an id carrying the\nnamespace's tag; never objects of another namespace or made in the UI), prints it and asks on a\nTTY; without a TTY, --auto-approve is required. The guards of apply hold (--max-deletes,\n--max-effect-deletes, --allow-unpreviewed), and lifecycle.preventDestroy makes it an error.\nTo review first: dqform plan --destroy --out destroy.json, then dqform apply --destroy destroy.json.\n--namespace NS retires a namespace no code declares any more (refused while a stack declares it).\nExample: dqform destroy --max-deletes 50\nExample: dqform destroy --namespace shop-staging",
    )
    .action(run((o: DestroyOptions) => cmdDestroy(io, o)));

  showUnmanaged(noColor(
    allStacks(noSynth(sourceFlags(program.command('drift').description('read-only check that live state equals the code'))))
      .option('--json', "print the plan JSON (the format of 'dqform plan --json', schemas/plan.ts)")
      .option('--detailed-exitcode', 'accepted as in plan (Terraform habit); drift always exits 2 on drift'),
  ))
    .addHelpText('after', '\nRead-only: exit 0 when live state equals the code, 2 when it drifted, 1 on error.')
    .action(run((o: DriftOptions) => cmdDrift(io, o)));

  showUnmanaged(noColor(
    program
      .command('show')
      .description('render a saved plan (no network, no credentials)')
      .argument('<PLANFILE>', "a plan saved by 'dqform plan --out'")
      .option('--format <text|markdown|json>', 'how to render it (default text)', oneOf('--format', PLAN_FORMATS))
      .addOption(new Option('--json', 'the plan as JSON (same as --format json)').conflicts('format')),
  ))
    .addHelpText('after', '\nExit 0, or 1 when the file is not a dqform plan or the plan has errors (apply would refuse it).\nExample: dqform show plan.json --format markdown > plan.md')
    .action(run((file: string, o: ShowOptions) => cmdShow(io, file, o)));

  program
    .command('import')
    .description('write construct code or YAML for the live objects of a namespace')
    .option('--namespace <NS>', 'the namespace to import (required)')
    .option('--out <FILE>', 'the file to write: main.ts or dqform.yaml (required)')
    .option('--format <ts|yaml>', 'what to write (default: from the --out extension)')
    .option('--adopt', 'also adopt objects made in the UI, through import blocks')
    .option('--adopt-kind <KINDS>', 'adopt only UI-made objects of these kinds (comma-separated: dq_alert or alerts, ...; implies --adopt)')
    .option('--adopt-id <IDS>', 'adopt only the UI-made objects with these ids (comma-separated; alerts: the fqn; implies --adopt)')
    .option('--constructs-module <M>', 'the module the generated code imports the constructs from (default dqform)')
    .option('--stack <NAME>', 'the stack name in the generated code (default: the namespace)')
    .option('--force', 'overwrite --out if it exists')
    .addHelpText(
      'after',
      "\nReads the live objects of namespace NS (with --adopt, also objects made in the UI, narrowed\nby --adopt-kind and --adopt-id; never another namespace's) and writes code whose plan against\nlive shows no changes; with adopted objects, the first plan imports them (alerts, rules and SQL\ntests take the namespace), and after its apply the plan shows no changes. A TypeScript --out\ngets a cdktf.json beside it when there is none. Finding nothing is exit 1. Read scopes suffice.\nExample: dqform import --namespace shop --out main.ts --format ts",
    )
    .action(run((o: ImportOptions) => cmdImport(io, o)));

  // The emulator checks its own values (src/emulator parseEmulatorArgs); the flags are declared
  // here too so that help, strictness and suggestions are the same as everywhere else.
  program
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
    )
    .action(run(() => cmdEmulator(argv.slice(argv.indexOf('emulator') + 1))));

  program
    .command('version')
    .description('print the version')
    .action(run(async () => (io.out(VERSION), 0)));

  // Our own `help [command]` (commander's prints the main help for an unknown command).
  program
    .command('help')
    .description("show a command's help (dqform help plan)")
    .argument('[command]', 'the command')
    .action(
      run(async (name: string | undefined) => {
        if (!name) return program.outputHelp(), 0;
        const cmd = program.commands.find((c) => c.name() === name);
        if (!cmd) {
          const guess = closest(name, program.commands.map((c) => c.name()));
          throw new UsageError(`unknown command "${name}"${guess ? `\n  Did you mean ${guess}?` : ''}`, '');
        }
        cmd.outputHelp();
        return 0;
      }),
    );

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
  // Everything printed is inert (schemas/inert): names, addresses and server text cannot move the
  // cursor, reorder a line (bidi), hide in zero-width characters or start a workflow command.
  // stdout keeps the colour codes the text plan paints (it escapes user text before painting).
  const rawOut = io.out;
  const rawErr = io.err;
  io.out = (s) => rawOut(inertLinesKeepingColour(s));
  io.err = (s) => rawErr(inertLines(s));
  const argv = terraformSpellings(argvIn);
  const outcome: Outcome = { code: 0 };
  const program = buildProgram(io, outcome, argv);
  if (argv.length === 0) {
    // No command: the help, and exit 1 (a usage mistake, as Terraform does).
    program.outputHelp();
    return 1;
  }
  try {
    await program.parseAsync(argv, { from: 'user' });
    return outcome.code;
  } catch (e) {
    if (e instanceof CommanderError) return usageFailure(io, e, program, argv);
    if (e instanceof UsageError && e.command === undefined) return reportError(io, new UsageError(e.message, commandOf(program, argv)?.name()));
    return reportError(io, e);
  }
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
      if (!suggestion && flag?.[2] && cmd) suggestion = closest(flag[1], cmd.options.map((o) => o.long).filter((l): l is string => !!l));
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
