/**
 * `dqform`: synth, validate, plan, apply, drift, emulator. Exit codes follow design.md:
 * 0 ok / no changes, 2 changes (plan --detailed-exitcode, drift), 1 error. User mistakes print
 * diagnostics (what, where, what to do), never a stack trace.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as readline from 'node:readline';
import { ApiError, ConfigError, PlatformClient, redact } from '../client';
import type { Diagnostic, Plan } from '../../schemas/plan';
import { apply, DEFAULT_MAX_DELETES, loadPlan, PlanRefusedError, type ApplyResult } from '../engine/applier';
import { loadSynthOutput, ManifestError } from '../engine/manifest';
import { hasChanges } from '../engine/planner';
import { plan as makePlan } from '../engine/reconcile';
import { resolveManifest } from '../engine/resolve';
import { renderJson, renderMarkdown, renderText } from './render';

// Loaded on first use (a plan from cdktf.out needs neither the YAML parser nor the importer:
// ~40 ms of module loading saved per run). require, not import(): bin/dqform.js runs the
// sources through tsx's CommonJS hook.
/* eslint-disable @typescript-eslint/no-require-imports */
const yamlFrontEnd = () => require('../engine/yaml') as typeof import('../engine/yaml');
const importer = () => require('./import') as typeof import('./import');
/* eslint-enable @typescript-eslint/no-require-imports */

/** The package version, from the nearest package.json (src/cli in a checkout, dist/src/cli installed). */
const VERSION: string = (() => {
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f)) return String((JSON.parse(fs.readFileSync(f, 'utf8')) as { version?: string }).version ?? '0.0.0');
  }
  return '0.0.0';
})();

export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  isTty: boolean;
  /** Asks a yes/no question on a TTY. */
  confirm?: (question: string) => Promise<boolean>;
}

const HELP: Record<string, string> = {
  main: `dqform ${VERSION}: your data-quality platform's configuration as code

Usage: dqform <command> [options]

Commands:
  synth      run the CDKTF app (cdktf.json "app", or --app CMD) and write cdktf.out
  validate   check the synthesised manifest offline: schema, references, duplicates
  plan       read live state, preview effects, print the plan
  apply      apply a saved plan, or plan then ask
  drift      read-only check that live state equals the code
  import     write construct code or YAML for the live objects of a namespace
  emulator   run the local platform emulator

The desired state comes from cdktf.out (after 'dqform synth') or from a YAML workspace
(--file dqform.yaml; used automatically when ./dqform.yaml exists and there is no cdktf.out).

Credentials come from the environment only: DQ_CLIENT_ID, DQ_CLIENT_SECRET, and DQ_BASE_URL or
DQ_REGION (eu default, us, au). Run 'dqform <command> --help' for a command's options.`,
  synth: `Usage: dqform synth [--app CMD] [--out DIR]

Runs the CDKTF app and writes Terraform JSON to cdktf.out/stacks/<stack>/cdk.tf.json.
Example: dqform synth --app "npx tsx main.ts"`,
  validate: `Usage: dqform validate [--dir cdktf.out | --file dqform.yaml] [--stack S]

Checks the synthesised manifest without any network call. Exit 0 when valid, 1 otherwise.`,
  plan: `Usage: dqform plan [--stack S] [--dir cdktf.out | --file dqform.yaml] [--out FILE] [--format text|markdown|json | --json] [--detailed-exitcode] [--no-color]

Reads live state and prints what apply would do. With --out, saves the plan for 'dqform apply FILE'.
Exit codes: 0 no changes, 2 changes (with --detailed-exitcode), 1 error.
Example: dqform plan --out plan.json --format markdown > plan.md`,
  apply: `Usage: dqform apply [PLANFILE] [--auto-approve] [--max-deletes N] [--stack S] [--dir cdktf.out | --file dqform.yaml]

Applies exactly the saved plan PLANFILE (refusing if live state moved since), or plans and asks
for confirmation on a TTY. Without a TTY, --auto-approve or a PLANFILE is required.
--max-deletes N refuses plans destroying more than N objects (default ${DEFAULT_MAX_DELETES}).`,
  drift: `Usage: dqform drift [--json] [--stack S] [--dir cdktf.out | --file dqform.yaml]

Read-only: exit 0 when live state equals the code, 2 when it drifted, 1 on error.
--json prints the plan JSON (the format of 'dqform plan --json', schemas/plan.ts).`,
  import: `Usage: dqform import --namespace NS --out FILE [--format ts|yaml] [--adopt] [--constructs-module M]

Reads the live objects of namespace NS (with --adopt, also objects made in the UI, adopted
through import blocks) and writes construct code (a main.ts) or a dqform.yaml whose plan against
live shows no changes. Read scopes suffice.
Example: dqform import --namespace shop --out main.ts --format ts`,
  emulator: `Usage: dqform emulator [--port N] [--grpc-port N | --no-grpc] [--data FILE] [--seed demo|empty]

Runs the local platform emulator until stopped (Ctrl-C). Demo credentials:
demo-admin / demo-secret (every scope), demo-reader / demo-secret (read scopes).
The rule previews are also served over gRPC on --grpc-port (default: --port + 1); point
dqform at it with DQ_GRPC_ENDPOINT=127.0.0.1:<port>. --no-grpc serves REST only.`,
};

interface Args {
  positional: string[];
  flags: Map<string, string | true>;
}

const VALUE_FLAGS = new Set(['app', 'out', 'dir', 'stack', 'format', 'max-deletes', 'port', 'data', 'seed', 'seed-size', 'host', 'file', 'namespace', 'constructs-module']);

function parseArgs(argv: string[]): Args {
  const positional: string[] = [];
  const flags = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a.startsWith('--')) {
      const [k, v] = a.slice(2).split('=', 2);
      if (v !== undefined) flags.set(k, v);
      else if (VALUE_FLAGS.has(k)) {
        const next = argv[i + 1];
        if (next === undefined || next.startsWith('--')) throw new UsageError(`--${k} needs a value`);
        flags.set(k, next);
        i++;
      } else flags.set(k, true);
    } else if (a === '-h') flags.set('help', true);
    else positional.push(a);
  }
  return { positional, flags };
}

class UsageError extends Error {}

function str(args: Args, k: string): string | undefined {
  const v = args.flags.get(k);
  return typeof v === 'string' ? v : undefined;
}

function printDiagnostics(io: Io, diags: readonly Diagnostic[]): void {
  for (const d of diags) {
    io.err(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`);
    if (d.source) io.err(`  at ${d.source}`);
    if (d.detail) io.err(`  ${d.detail}`);
    if (d.hint) io.err(`  ${d.hint}`);
  }
}

function client(io: Io): PlatformClient {
  return PlatformClient.fromEnv(io.env);
}

function color(io: Io, args: Args): boolean {
  return io.isTty && !args.flags.has('no-color') && !('NO_COLOR' in io.env && io.env.NO_COLOR !== '');
}

function loadManifest(io: Io, args: Args) {
  // A YAML workspace: --file, or dqform.yaml in the cwd when there is no synth output.
  const file = str(args, 'file');
  if (file) return yamlFrontEnd().loadYamlWorkspace(path.resolve(io.cwd, file), str(args, 'stack'), { cwd: io.cwd });
  if (!str(args, 'dir') && !fs.existsSync(path.join(io.cwd, 'cdktf.out'))) {
    const { loadYamlWorkspace, YAML_WORKSPACE_FILE } = yamlFrontEnd();
    const yaml = path.join(io.cwd, YAML_WORKSPACE_FILE);
    if (fs.existsSync(yaml)) return loadYamlWorkspace(yaml, str(args, 'stack'), { cwd: io.cwd });
  }
  const dir = path.resolve(io.cwd, str(args, 'dir') ?? 'cdktf.out');
  return loadSynthOutput(dir, str(args, 'stack'));
}

async function cmdSynth(io: Io, args: Args): Promise<number> {
  let app = str(args, 'app');
  if (!app) {
    const cfg = path.join(io.cwd, 'cdktf.json');
    if (!fs.existsSync(cfg)) {
      io.err('Error: no cdktf.json here and no --app given\n  Run dqform synth in your app directory, or pass --app "npx tsx main.ts".');
      return 1;
    }
    app = String((JSON.parse(fs.readFileSync(cfg, 'utf8')) as { app?: string }).app ?? '');
    if (!app) {
      io.err('Error: cdktf.json has no "app"\n  Add "app": "npx tsx main.ts" to cdktf.json.');
      return 1;
    }
  }
  const out = path.resolve(io.cwd, str(args, 'out') ?? 'cdktf.out');
  const r = spawnSync(app, { cwd: io.cwd, shell: true, encoding: 'utf8', env: { ...io.env, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: '1' } });
  if (r.stdout) io.out(r.stdout.trimEnd());
  if (r.status !== 0) {
    io.err(`Error: the app failed (${app}), exit ${r.status}:\n${redact(r.stderr ?? '').trimEnd()}`);
    return 1;
  }
  io.out(`Synthesised to ${path.relative(io.cwd, out).startsWith('..') ? out : path.relative(io.cwd, out) || '.'}`);
  return 0;
}

async function cmdValidate(io: Io, args: Args): Promise<number> {
  const m = loadManifest(io, args);
  const res = resolveManifest(m, 'offline-validation');
  printDiagnostics(io, res.diagnostics);
  const errors = res.diagnostics.filter((d) => d.severity === 'error').length;
  if (errors) {
    io.err(`${errors} error(s) in stack ${m.stack}.`);
    return 1;
  }
  io.out(`Stack ${m.stack} (namespace "${m.namespace}"): ${m.resources.length} resource(s), valid.`);
  return 0;
}

async function planFromCode(io: Io, args: Args, c: PlatformClient): Promise<Plan> {
  const m = loadManifest(io, args);
  return makePlan(c, m, { onProgress: (l) => io.err(l) });
}

async function cmdPlan(io: Io, args: Args): Promise<number> {
  const c = client(io);
  try {
    const format = args.flags.has('json') ? 'json' : (str(args, 'format') ?? 'text');
    if (!['text', 'markdown', 'json'].includes(format)) throw new UsageError(`--format must be text, markdown or json; got "${format}"`);
    const p = await planFromCode(io, args, c);
    const failed = p.diagnostics.some((d) => d.severity === 'error');
    // Errors go to stderr, where CI logs show them; text plans with errors print nothing else.
    if (failed) printDiagnostics(io, p.diagnostics);
    if (format === 'json') io.out(renderJson(p).trimEnd());
    else if (format === 'markdown') io.out(renderMarkdown(p).trimEnd());
    else if (!failed) io.out(renderText(p, { color: color(io, args) }).trimEnd());
    const out = str(args, 'out');
    if (out) {
      fs.writeFileSync(path.resolve(io.cwd, out), renderJson(p));
      io.err(`Saved the plan to ${out}. Apply exactly it with: dqform apply ${out}`);
    }
    if (p.diagnostics.some((d) => d.severity === 'error')) return 1;
    return args.flags.has('detailed-exitcode') && hasChanges(p) ? 2 : 0;
  } finally {
    await c.close();
  }
}

function report(io: Io, r: ApplyResult): number {
  for (const a of r.applied) io.out(`  ${a.action} ${a.address}: done`);
  for (const f of r.failed) io.err(`  ${f.action} ${f.address}: FAILED: ${f.error}`);
  for (const s of r.skipped) io.err(`  ${s.action} ${s.address}: not attempted (${s.because})`);
  io.out(`Apply ${r.failed.length || r.skipped.length ? 'stopped' : 'complete'}: ${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} not attempted.`);
  if (r.failed.length || r.skipped.length) {
    io.err('Run `dqform plan` to see what remains; re-running plan and apply converges.');
    return 1;
  }
  return 0;
}

async function cmdApply(io: Io, args: Args): Promise<number> {
  const maxDeletesFlag = str(args, 'max-deletes');
  const maxDeletes = maxDeletesFlag === undefined ? undefined : Number(maxDeletesFlag);
  if (maxDeletes !== undefined && (!Number.isInteger(maxDeletes) || maxDeletes < 0)) throw new UsageError('--max-deletes takes a whole number');
  const file = args.positional[0];
  const c = client(io);
  try {
    let p: Plan;
    if (file) {
      let json: unknown;
      try {
        json = JSON.parse(fs.readFileSync(path.resolve(io.cwd, file), 'utf8'));
      } catch (e) {
        io.err(`Error: cannot read plan file ${file}: ${(e as Error).message}\n  Create it with: dqform plan --out ${file}`);
        return 1;
      }
      p = loadPlan(json);
    } else {
      if (!io.isTty && !args.flags.has('auto-approve')) {
        io.err('Error: apply needs confirmation, and there is no terminal to ask on.\n  Apply a reviewed plan file (dqform plan --out plan.json; dqform apply plan.json), or pass --auto-approve.');
        return 1;
      }
      p = await planFromCode(io, args, c);
      if (p.diagnostics.some((d) => d.severity === 'error')) {
        printDiagnostics(io, p.diagnostics);
        return 1;
      }
      io.out(renderText(p, { color: color(io, args) }).trimEnd());
      if (!hasChanges(p)) return 0;
      if (!args.flags.has('auto-approve')) {
        const ok = io.confirm ? await io.confirm('Apply these changes? Only "yes" is accepted: ') : false;
        if (!ok) {
          io.err('Apply cancelled.');
          return 1;
        }
      }
    }
    const r = await apply(c, p, { maxDeletes, onProgress: (l) => io.err(l) });
    return report(io, r);
  } finally {
    await c.close();
  }
}

async function cmdDrift(io: Io, args: Args): Promise<number> {
  const c = client(io);
  try {
    const p = await planFromCode(io, args, c);
    if (p.diagnostics.some((d) => d.severity === 'error')) {
      printDiagnostics(io, p.diagnostics);
      return 1;
    }
    const drifted = hasChanges(p);
    if (args.flags.has('json')) io.out(renderJson(p).trimEnd());
    else if (!drifted) io.out('No drift: live state matches the code.');
    else {
      io.out(renderText(p, { color: color(io, args) }).trimEnd());
      io.out('Drift detected.');
    }
    return drifted ? 2 : 0;
  } finally {
    await c.close();
  }
}

async function cmdEmulator(_io: Io, argv: string[]): Promise<number> {
  // require, not import(): bin/dqform.js runs the sources through tsx's CommonJS hook.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runEmulatorCli } = require('../emulator') as typeof import('../emulator');
  return runEmulatorCli(argv);
}

/** Runs the CLI; returns the exit code. */
export async function main(argv: string[], ioIn: Partial<Io> = {}): Promise<number> {
  const io: Io = {
    out: (s) => process.stdout.write(`${s}\n`),
    err: (s) => process.stderr.write(`${redact(s)}\n`),
    env: process.env,
    cwd: process.cwd(),
    isTty: !!process.stdin.isTTY && !!process.stdout.isTTY && process.env.CI !== 'true',
    confirm: async (q) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
      const a = await new Promise<string>((res) => rl.question(q, res));
      rl.close();
      return a.trim() === 'yes';
    },
    ...ioIn,
  };
  const [cmd, ...rest] = argv;
  if (!cmd || cmd === '--help' || cmd === '-h' || cmd === 'help') {
    io.out(HELP.main);
    return cmd ? 0 : 1;
  }
  if (cmd === '--version' || cmd === 'version') {
    io.out(VERSION);
    return 0;
  }
  try {
    if (cmd === 'emulator') {
      if (rest.includes('--help')) {
        io.out(HELP.emulator);
        return 0;
      }
      return await cmdEmulator(io, rest);
    }
    const args = parseArgs(rest);
    if (args.flags.has('help')) {
      io.out(HELP[cmd] ?? HELP.main);
      return HELP[cmd] ? 0 : 1;
    }
    switch (cmd) {
      case 'synth':
        return await cmdSynth(io, args);
      case 'validate':
        return await cmdValidate(io, args);
      case 'plan':
        return await cmdPlan(io, args);
      case 'apply':
        return await cmdApply(io, args);
      case 'drift':
        return await cmdDrift(io, args);
      case 'import':
        return await importer().runImport(io, { namespace: str(args, 'namespace'), out: str(args, 'out'), format: str(args, 'format'), adopt: args.flags.has('adopt'), constructsModule: str(args, 'constructs-module'), stack: str(args, 'stack') }, () => client(io));
      default:
        io.err(`Error: unknown command "${cmd}"\n  Run dqform --help for the commands.`);
        return 1;
    }
  } catch (e) {
    return fail(io, e);
  }
}

function fail(io: Io, e: unknown): number {
  if (e instanceof ManifestError) {
    printDiagnostics(io, e.diagnostics);
  } else if (e instanceof PlanRefusedError) {
    io.err(`Error: ${e.message}\n  ${e.hint}`);
  } else if (e instanceof ConfigError) {
    io.err(`Error: ${e.message}\n  Set the variables in the environment (never in code).`);
  } else if (e instanceof ApiError) {
    io.err(`Error: ${e.message}`);
  } else if (e instanceof UsageError) {
    io.err(`Error: ${e.message}\n  Run dqform --help.`);
  } else {
    const err = e as Error;
    io.err(`Internal error: ${err?.message ?? String(e)}${io.env.DQFORM_DEBUG ? `\n${err?.stack ?? ''}` : '\n  This is a bug in dqform; set DQFORM_DEBUG=1 for the stack trace and report it.'}`);
  }
  return 1;
}
