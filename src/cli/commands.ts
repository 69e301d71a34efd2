/**
 * The commands behind `dqform` (main.ts parses the arguments with commander and calls these
 * with typed options). Each returns the exit code: 0 ok / no changes, 2 changes (plan
 * --detailed-exitcode, drift), 1 error. User mistakes print diagnostics (what, where, what to
 * do) and return 1; bugs throw.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HttpTrace, PlatformClient } from '../client';
import type { Manifest } from '../../schemas/manifest';
import type { Diagnostic, Plan, PlanRequest } from '../../schemas/plan';
import type { ApplyResult } from '../engine/applier';
import { stableStringify } from '../engine/keys';
import { inertText } from '../../schemas/inert';
import { loadSiblingStacks, loadSynthOutput, ManifestError } from '../engine/manifest';
import { resolveManifest } from '../engine/resolve';
import { credentialVariables, readCdktfApp, runApp, staleness, synthesisedStacks, SynthSetupError, type CdktfApp } from './synth';

// Loaded on first use: a plan from cdktf.out needs neither the YAML parser nor the importer
// (~40 ms of module loading saved per run), and `validate` none of the client (undici, the API
// schemas), the engine's plan and apply, nor the renderer (issue 15: validate <= 0.15 s). An
// error can only be an instance of a class whose module is loaded, so `reportError` loads them
// on the error path only. require, not import(): bin/dqform.js runs the sources through tsx's
// CommonJS hook.
const yamlFrontEnd = () => require('../engine/yaml') as typeof import('../engine/yaml');
export const importer = () => require('./import') as typeof import('./import');
const clientModule = () => require('../client') as typeof import('../client');
const applier = () => require('../engine/applier') as typeof import('../engine/applier');
const render = () => require('./render') as typeof import('./render');
const apply: typeof import('../engine/applier').apply = (...a) => applier().apply(...a);
const loadPlan: typeof import('../engine/applier').loadPlan = (...a) => applier().loadPlan(...a);
const preflight: typeof import('../engine/applier').preflight = (...a) => applier().preflight(...a);
const applyReviewed: typeof import('../engine/bind').applyReviewed = (...a) => (require('../engine/bind') as typeof import('../engine/bind')).applyReviewed(...a);
const hasChanges: typeof import('../engine/planner').hasChanges = (...a) => (require('../engine/planner') as typeof import('../engine/planner')).hasChanges(...a);
const makePlan: typeof import('../engine/reconcile').plan = (...a) => (require('../engine/reconcile') as typeof import('../engine/reconcile')).plan(...a);
const renderJson: typeof import('./render').renderJson = (...a) => render().renderJson(...a);
const renderMarkdown: typeof import('./render').renderMarkdown = (...a) => render().renderMarkdown(...a);
const renderText: typeof import('./render').renderText = (...a) => render().renderText(...a);
const renderDrift: typeof import('./render').renderDrift = (...a) => render().renderDrift(...a);
const asRefreshOnly: typeof import('../engine/modes').asRefreshOnly = (...a) => (require('../engine/modes') as typeof import('../engine/modes')).asRefreshOnly(...a);
const summaryLine: typeof import('./render').summaryLine = (...a) => render().summaryLine(...a);

/** Where a command prints and what it knows of its surroundings. */
export interface Io {
  out: (s: string) => void;
  err: (s: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  isTty: boolean;
  /** Asks a yes/no question on a TTY. */
  confirm?: (question: string) => Promise<boolean>;
}

import { UsageError } from './usage-error';
export { UsageError } from './usage-error';

/** Where the desired state comes from (validate, plan, apply, drift). */
export interface SourceOptions {
  /** Synth output directory (default: cdktf.json "output", else cdktf.out). */
  dir?: string;
  /** A YAML workspace file. */
  file?: string;
  stack?: string;
  /** --no-synth: accepted and ignored (only `dqform synth` runs the app). */
  synth?: boolean;
}

/** Commands that can run over every stack (validate, plan, drift). */
export interface StacksOptions extends SourceOptions {
  allStacks?: boolean;
}

/** Output options of commands that print a plan. */
export interface RenderFlags {
  /** false with --no-color. */
  color?: boolean;
  /** --show-unmanaged: list every object not managed here instead of counting them. */
  showUnmanaged?: boolean;
}

/** Terraform's mode flags of plan and apply (recorded in the plan's `options`). */
export interface ModeFlags {
  /** --target, canonical addresses (repeatable). */
  target?: string[];
  /** --replace, canonical addresses (repeatable). */
  replace?: string[];
  refreshOnly?: boolean;
  destroy?: boolean;
}

/**
 * The plan request the mode flags ask for (every field of schemas/plan's DEFAULT_REQUEST, in its
 * order; written out so that `validate` does not load the plan schemas: issue 15).
 */
function requestOf(o: ModeFlags): PlanRequest {
  return { destroy: !!o.destroy, refreshOnly: !!o.refreshOnly, targets: o.target ?? [], replace: o.replace ?? [] };
}

export type PlanFormat = 'text' | 'markdown' | 'json';

export interface SynthOptions {
  app?: string;
  out?: string;
  /** --allow-secret-env: synthesise in CI although a credential variable is set. */
  allowSecretEnv?: boolean;
}
export type ValidateOptions = StacksOptions;
export interface PlanOptions extends StacksOptions, RenderFlags, ModeFlags {
  out?: string;
  format?: PlanFormat;
  json?: boolean;
  detailedExitcode?: boolean;
}
export interface ApplyOptions extends SourceOptions, RenderFlags, ModeFlags {
  autoApprove?: boolean;
  maxDeletes?: number;
  maxEffectDeletes?: number;
  allowUnpreviewed?: boolean;
}
/** `dqform destroy`: apply's flags and guards without a plan file, with --target. */
export interface DestroyOptions extends SourceOptions, RenderFlags {
  autoApprove?: boolean;
  maxDeletes?: number;
  maxEffectDeletes?: number;
  allowUnpreviewed?: boolean;
  target?: string[];
}
export interface DriftOptions extends StacksOptions, RenderFlags {
  json?: boolean;
  /** Accepted as in plan; drift exits 2 on drift either way. */
  detailedExitcode?: boolean;
}
export interface ShowOptions extends RenderFlags {
  format?: PlanFormat;
  json?: boolean;
}
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

// ---- output helpers ----

export function printDiagnostics(io: Io, diags: readonly Diagnostic[]): void {
  // each line inert (schemas/inert): a diagnostic quotes names, keys and server text
  for (const d of diags) {
    io.err(inertText(`${d.severity === 'error' ? 'Error' : d.severity === 'info' ? 'Info' : 'Warning'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`));
    if (d.source) io.err(inertText(`  at ${d.source}`));
    if (d.detail) io.err(inertText(`  ${d.detail}`));
    if (d.hint) io.err(inertText(`  ${d.hint}`));
  }
}

/** Prints a failure as a user should see it (a diagnostic, or "internal error" for a bug); returns 1. */
export function reportError(io: Io, e: unknown): number {
  if (e instanceof ManifestError) {
    printDiagnostics(io, e.diagnostics);
  } else if (e instanceof applier().PlanRefusedError || e instanceof SynthSetupError) {
    io.err(`Error: ${e.message}\n  ${e.hint}`);
  } else if (e instanceof clientModule().ConfigError) {
    io.err(`Error: ${e.message}\n  Set the variables in the environment (never in code).`);
  } else if (e instanceof clientModule().ApiError) {
    io.err(`Error: ${e.message}`);
  } else if (e instanceof clientModule().ServerMisbehaviourError) {
    io.err(`Error: the platform misbehaved: ${e.message}\n  This is a fault of the server (or of a proxy in between), not a bug in dqform; report it to the platform's operators.`);
  } else if (e instanceof UsageError) {
    io.err(`Error: ${e.message}\n  ${e.command ? `Run dqform ${e.command} --help for its options.` : 'Run dqform --help for the commands.'}`);
  } else {
    const err = e as Error;
    io.err(`Internal error: ${err?.message ?? String(e)}${io.env.DQFORM_DEBUG ? `\n${err?.stack ?? ''}` : '\n  This is a bug in dqform; set DQFORM_DEBUG=1 for the stack trace and report it.'}`);
  }
  return 1;
}

/**
 * The API client from the environment (credentials, base URL, proxies). Retries are noted on
 * stderr; with `DQFORM_LOG=debug` every HTTP call is traced there (method, path, status,
 * duration, request id: never a header or a body, so never a token or a secret).
 */
export function client(io: Io): PlatformClient {
  const level = (io.env.DQFORM_LOG ?? '').trim().toLowerCase();
  if (level !== '' && level !== 'debug' && level !== 'info') io.err(`Warning: DQFORM_LOG="${io.env.DQFORM_LOG}" is not a level dqform knows; use DQFORM_LOG=debug to trace HTTP calls.`);
  const debug = level === 'debug';
  return clientModule().PlatformClient.fromEnv(io.env, { onTrace: (t) => traceLine(t, debug, io) });
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

/** One trace event as a stderr line: retries always, the rest with DQFORM_LOG=debug. */
function traceLine(t: HttpTrace, debug: boolean, io: Io): void {
  const attempt = t.attempt > 1 ? ` attempt ${t.attempt}` : '';
  // The error's own text without what the line already says (method, path, request id).
  const cause = /\((\w+)\): ([^()]*)/.exec(t.error ?? '');
  const why = cause ? `no response (${cause[1]}: ${cause[2].trim()})` : 'no response';
  if (t.event === 'retry') {
    io.err(`retrying ${t.method} ${t.path} in ${seconds(t.delayMs ?? 0)} after ${t.status ? `HTTP ${t.status}` : why} (attempt ${t.attempt + 1} of ${t.maxAttempts})`);
  } else if (debug && t.event === 'response') {
    io.err(`debug: http ${t.method} ${t.path} -> ${t.status} in ${t.ms}ms (request id ${t.requestId}${attempt})`);
  } else if (debug) {
    io.err(`debug: http ${t.method} ${t.path} -> ${why} after ${t.ms}ms (request id ${t.requestId}${attempt})`);
  }
}

/** How often a slow write says it is still running: DQFORM_PROGRESS_SECONDS (default 10). */
function progressIntervalMs(io: Io): number {
  const v = io.env.DQFORM_PROGRESS_SECONDS;
  if (v === undefined || v.trim() === '') return 10_000;
  if (!/^\d+(\.\d+)?$/.test(v.trim())) throw new UsageError(`DQFORM_PROGRESS_SECONDS must be a number of seconds, got "${v}"`, '');
  return Math.round(Number(v) * 1000);
}

/**
 * Colour: never with --no-color or a non-empty NO_COLOR; always with FORCE_COLOR set to anything
 * but "0" or "false" (CI logs that render ANSI); otherwise on a terminal only.
 */
export function useColor(io: Io, flags: RenderFlags): boolean {
  if (flags.color === false) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined) return force !== '0' && force.toLowerCase() !== 'false';
  return io.isTty;
}

const shown = (io: Io, p: string) => {
  const rel = path.relative(io.cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') ? p : rel;
};

// ---- where the desired state comes from ----

/** The resolved source of the desired state: a YAML file or a synth output directory. */
type Source = { kind: 'yaml'; file: string } | { kind: 'synth'; dir: string };

/**
 * Resolves where the desired state comes from. The app is never run here: only `dqform synth`
 * runs user code (plan, apply, drift and destroy hold credentials, and a child can always read
 * its parent's environment from /proc). When the app's files are newer than its synth output
 * (or there is none), this stops with an error saying to run `dqform synth` first.
 */
function prepareSource(io: Io, o: SourceOptions): Source | undefined {
  if (o.file) return { kind: 'yaml', file: path.resolve(io.cwd, o.file) };
  const app = readCdktfApp(io.cwd);
  const dir = o.dir ? path.resolve(io.cwd, o.dir) : (app?.output ?? path.resolve(io.cwd, 'cdktf.out'));
  if (app && !synthOutputFresh(io, app, dir)) return undefined;
  if (!o.dir && !app && !fs.existsSync(dir)) {
    const yaml = path.join(io.cwd, yamlFrontEnd().YAML_WORKSPACE_FILE);
    if (fs.existsSync(yaml)) return { kind: 'yaml', file: yaml };
  }
  return { kind: 'synth', dir };
}

/**
 * See {@link prepareSource}; false (reported) when the synth output is missing or older than the
 * app. An app dqform cannot synthesise (cdktf.json names no "app") only warns, as before.
 */
function synthOutputFresh(io: Io, app: CdktfApp, dir: string): boolean {
  const s = staleness(app, dir, io.cwd);
  if (!s.stale) return true;
  if (!app.app) {
    if (!s.missing) io.err(`Warning: ${s.why}, and cdktf.json names no "app" to run: using the synth output as it is, which may not match the code.\n  Run dqform synth --app CMD after changing the app.`);
    return true;
  }
  io.err(
    `Error: ${s.why}: run dqform synth first.\n` +
      '  dqform runs the app only in dqform synth, never beside credentials: the app could read them from this process. Synthesise in a step without DQ_CLIENT_SECRET, then run this command.',
  );
  return false;
}

/** Loads one stack (undefined: the only one) of a source. */
function loadStack(io: Io, src: Source, stack: string | undefined): Manifest {
  if (src.kind === 'yaml') return yamlFrontEnd().loadYamlWorkspace(src.file, stack, { cwd: io.cwd });
  return loadSynthOutput(src.dir, stack);
}

/** The other stacks synthesised next to `m` (none for a YAML workspace): two stacks must not share objects. */
function siblingStacks(src: Source, m: Manifest) {
  return src.kind === 'yaml' ? [] : loadSiblingStacks(src.dir, m.stack);
}

/** Plans one stack of a source (with its sibling stacks, which must not share objects). */
function planStack(io: Io, c: PlatformClient, src: Source, stack: string | undefined, request?: PlanRequest): Promise<Plan> {
  const m = loadStack(io, src, stack);
  return makePlan(c, m, { onProgress: (l) => io.err(l), siblings: siblingStacks(src, m), request });
}

/** Does the plan have something to report for --detailed-exitcode: writes, or (refresh-only) drift? */
function planChanged(p: Plan): boolean {
  return hasChanges(p) || p.drift.length > 0;
}

/** How a command renders a plan as text. */
const textOf = (io: Io, p: Plan, o: RenderFlags) => renderText(p, { color: useColor(io, o), showUnmanaged: o.showUnmanaged }).trimEnd();

/** The stacks a command runs over: --all-stacks: every synthesised stack; otherwise --stack (or the only one). */
function stacksOf(io: Io, src: Source, o: StacksOptions): (string | undefined)[] {
  if (!o.allStacks) return [o.stack];
  if (src.kind === 'yaml') return [undefined];
  const names = synthesisedStacks(src.dir);
  if (names.length === 0) throw new ManifestError([{ severity: 'error', summary: `no synthesised stacks in ${shown(io, src.dir)}`, hint: 'Run `dqform synth` first.' }]);
  return names;
}

/** One stack's result, for the combined summary of --all-stacks. */
interface StackOutcome {
  stack: string;
  code: number;
  /** One line: the plan's summary line, "valid", "No drift", or why it failed. */
  line: string;
}

/**
 * Runs `fn` for each stack in turn; a stack that fails does not stop the others. With more than
 * one stack (--all-stacks), prints one combined summary (`where`: stdout, or stderr when stdout
 * carries a document) and returns one exit code: 1 if any stack failed, else 2 if any returned 2,
 * else 0.
 */
async function overStacks(io: Io, stacks: (string | undefined)[], summaryTo: 'out' | 'err', fn: (stack: string | undefined) => Promise<StackOutcome>): Promise<number> {
  const outcomes: StackOutcome[] = [];
  for (const stack of stacks) {
    try {
      outcomes.push(await fn(stack));
    } catch (e) {
      // A stack whose manifest cannot be loaded (or whose reads failed) is reported and skipped.
      if (e instanceof UsageError || !(e instanceof ManifestError || e instanceof clientModule().ApiError || e instanceof applier().PlanRefusedError)) throw e;
      reportError(io, e);
      outcomes.push({ stack: stack ?? '?', code: 1, line: 'failed (see the errors above)' });
    }
  }
  const code = outcomes.some((x) => x.code === 1) ? 1 : outcomes.some((x) => x.code === 2) ? 2 : 0;
  if (stacks.length > 1 || outcomes.length > 1) {
    const print = summaryTo === 'out' ? io.out : io.err;
    const failed = outcomes.filter((x) => x.code === 1).length;
    const width = Math.max(...outcomes.map((x) => x.stack.length));
    print('');
    print(`All stacks (${outcomes.length}): ${failed ? `${failed} failed` : 'none failed'}.`);
    for (const x of outcomes) print(`  ${x.stack.padEnd(width)}  ${x.line}`);
  }
  return code;
}

// ---- commands ----

export async function cmdSynth(io: Io, o: SynthOptions): Promise<number> {
  let cmd = o.app;
  let appDir = io.cwd;
  let out = o.out ? path.resolve(io.cwd, o.out) : undefined;
  if (!cmd) {
    const app = readCdktfApp(io.cwd);
    if (!app) {
      io.err('Error: no cdktf.json here and no --app given\n  Run dqform synth in your app directory, or pass --app "npx tsx main.ts".');
      return 1;
    }
    if (!app.app) {
      io.err('Error: cdktf.json has no "app"\n  Add "app": "npx tsx main.ts" to cdktf.json.');
      return 1;
    }
    cmd = app.app;
    appDir = app.dir;
    out ??= app.output;
  }
  out ??= path.resolve(io.cwd, 'cdktf.out');
  if (!secretEnvAllowed(io, !!o.allowSecretEnv)) return 1;
  const r = runApp(cmd, appDir, out, io.env, (text) => io.out(text));
  if (!r.ok) {
    for (const l of r.lines) io.err(r.ran ? l : `Error: ${l}\n  Check the "app" command in cdktf.json (or --app).`);
    return 1;
  }
  io.out(`Synthesised to ${shown(io, out)}`);
  return 0;
}

/**
 * synth runs user code, which can read this process's environment (and its parent's, through
 * /proc): a credential there reaches the app. With `CI` set that is refused unless
 * --allow-secret-env; elsewhere it is a warning. Returns false when refused (reported).
 */
function secretEnvAllowed(io: Io, allowed: boolean): boolean {
  const names = credentialVariables(io.env);
  if (names.length === 0) return true;
  const ci = (io.env.CI ?? '').trim();
  const inCi = ci !== '' && ci !== '0' && ci.toLowerCase() !== 'false';
  const what = `${names.join(', ')} ${names.length > 1 ? 'are' : 'is'} set, and synth runs the app, which can read ${names.length > 1 ? 'them' : 'it'} from this environment or its parent's`;
  if (inCi && !allowed) {
    io.err(`Error: ${what}: refused in CI.\n  Run dqform synth in a step without credentials (they belong to plan, apply, drift and destroy only), or pass --allow-secret-env if you trust the app's code.`);
    return false;
  }
  io.err(`Warning: ${what}. dqform synth needs no credentials: unset ${names.length > 1 ? 'them' : 'it'} before running the app.`);
  return true;
}

export async function cmdValidate(io: Io, o: ValidateOptions): Promise<number> {
  const src = prepareSource(io, o);
  if (!src) return 1;
  return overStacks(io, stacksOf(io, src, o), 'out', async (stack) => {
    const m = loadStack(io, src, stack);
    const res = resolveManifest(m, 'offline-validation', { offline: true, siblings: siblingStacks(src, m) });
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

/** `--out plan-{stack}.json` with --all-stacks: one file per stack. */
function planFileFor(out: string | undefined, stack: string, all: boolean): string | undefined {
  return out && all ? out.split('{stack}').join(stack) : out;
}

/**
 * Checks, before anything is read or planned, that each plan file `--out` names can be written:
 * its directory exists and it is not itself a directory. A plan of minutes must not end in
 * ENOENT.
 */
function checkOutFiles(io: Io, out: string | undefined, stacks: readonly (string | undefined)[], all: boolean): void {
  if (!out) return;
  const files = all ? stacks.map((s) => planFileFor(out, s ?? '', true)!) : [out];
  for (const f of [...new Set(files)]) {
    const abs = path.resolve(io.cwd, f);
    const dir = path.dirname(abs);
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
      throw new UsageError(`--out ${f}: the directory ${shown(io, dir)} does not exist; nothing was planned. Create it first (mkdir -p ${shown(io, dir)}), or save the plan elsewhere.`);
    }
    if (fs.existsSync(abs) && fs.statSync(abs).isDirectory()) throw new UsageError(`--out ${f} is a directory; give a file name (--out ${path.join(f, 'plan.json')}).`);
  }
}

export async function cmdPlan(io: Io, o: PlanOptions): Promise<number> {
  const format: PlanFormat = o.json ? 'json' : (o.format ?? 'text');
  if (o.allStacks && o.out && !o.out.includes('{stack}')) {
    throw new UsageError(`--out with --all-stacks writes one plan per stack: put {stack} in the file name (--out "plan-{stack}.json"); got "${o.out}"`);
  }
  if (o.out && !o.out.includes('{stack}')) checkOutFiles(io, o.out, [undefined], false);
  const src = prepareSource(io, o);
  if (!src) return 1;
  const stacks = stacksOf(io, src, o);
  checkOutFiles(io, o.out, stacks, !!o.allStacks);
  const request = requestOf(o);
  const c = client(io);
  const plans: Plan[] = [];
  try {
    const code = await overStacks(io, stacks, format === 'text' ? 'out' : 'err', async (stack) => {
      const p = await planStack(io, c, src, stack, request);
      plans.push(p);
      const failed = p.diagnostics.some((d) => d.severity === 'error');
      // Errors go to stderr, where CI logs show them; text plans with errors print nothing else.
      if (failed) printDiagnostics(io, p.diagnostics);
      if (format === 'markdown') io.out(renderMarkdown(p, { showUnmanaged: o.showUnmanaged }).trimEnd());
      else if (format === 'text' && !failed) io.out(textOf(io, p, o));
      else if (format === 'json' && !o.allStacks) io.out(renderJson(p).trimEnd());
      const file = planFileFor(o.out, p.stack, !!o.allStacks);
      // A plan with errors is never saved: apply would refuse it, and a file that exists looks applicable.
      if (file && failed) io.err(`Error: the plan has errors: not saved to ${file} (nothing was written). Fix the errors above and plan again.`);
      else if (file) {
        fs.writeFileSync(path.resolve(io.cwd, file), renderJson(p));
        io.err(`Saved the plan to ${file}. Apply exactly it with: dqform apply ${file}`);
      }
      if (failed) return { stack: p.stack, code: 1, line: `${p.diagnostics.filter((d) => d.severity === 'error').length} error(s)` };
      const changed = planChanged(p);
      return { stack: p.stack, code: o.detailedExitcode && changed ? 2 : 0, line: changed ? summaryLine(p) : 'No changes.' };
    });
    // --all-stacks --json: one JSON array of the plans (in stack order), so stdout stays one document.
    if (format === 'json' && o.allStacks) io.out(stableStringify(plans, 2));
    return code;
  } finally {
    await c.close();
  }
}

/** `dqform show PLANFILE`: renders a saved plan; no network, no credentials. */
export async function cmdShow(io: Io, file: string, o: ShowOptions): Promise<number> {
  const format: PlanFormat = o.json ? 'json' : (o.format ?? 'text');
  const p = readPlanFile(io, file);
  if (!p) return 1;
  const failed = p.diagnostics.some((d) => d.severity === 'error');
  if (failed) {
    printDiagnostics(io, p.diagnostics.filter((d) => d.severity === 'error'));
    io.err(`This plan has errors: dqform apply refuses it. Fix them and run dqform plan --out ${file} again.`);
  }
  if (format === 'json') io.out(renderJson(p).trimEnd());
  else if (format === 'markdown') io.out(renderMarkdown(p, { showUnmanaged: o.showUnmanaged }).trimEnd());
  else io.out(textOf(io, p, o));
  return failed ? 1 : 0;
}

/**
 * The apply report: one line per write done and per write that failed, then the summary. When
 * the apply stopped early (a conflict, or the platform gone), what was not attempted is one line,
 * not one per change; when the platform is gone, the writes that failed for it are in that line
 * too (they were in flight: they may or may not have landed).
 */
function report(io: Io, r: ApplyResult, elapsedMs: number, what: 'Apply' | 'Destroy' = 'Apply'): number {
  const took = (ms: number | undefined) => (ms === undefined ? '' : ` in ${seconds(ms)}`);
  const list = (xs: { address: string }[]) => `${xs.slice(0, 5).map((x) => x.address).join(', ')}${xs.length > 5 ? `, and ${xs.length - 5} more` : ''}`;
  const halt = r.halted;
  const gone = halt?.kind === 'unreachable';
  // failed for the outage: not sent at all (could not connect, on every attempt), or sent and cut
  // off (may have landed: also a write retried after a lost response that then could not connect)
  const notSent = gone ? r.failed.filter((f) => !f.mayHaveLanded && /is not answering|\((ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT)\)/.test(f.error)) : [];
  const inFlight = gone ? r.failed.filter((f) => !notSent.includes(f) && (f.mayHaveLanded || /connection failed/.test(f.error))) : [];
  const rest = halt ? r.skipped.filter((x) => x.because === halt.reason) : [];
  for (const a of r.applied) io.out(`  ${a.action} ${a.address}: done${took(a.ms)}`);
  for (const f of r.failed) if (!inFlight.includes(f) && !notSent.includes(f)) io.err(`  ${f.action} ${f.address}: FAILED: ${f.error}${f.ms === undefined ? '' : ` (after ${seconds(f.ms)})`}`);
  for (const x of r.skipped) if (!rest.includes(x)) io.err(`  ${x.action} ${x.address}: not attempted (${x.because})`);
  if (gone) {
    io.err(
      `Error: ${halt.reason.replace(/: nothing more was written$/, '')}. ${what} stopped: ${r.applied.length} applied${notSent.length ? `; ${notSent.length} could not connect (not written)` : ''}${inFlight.length ? `; ${inFlight.length} in flight when it went away may or may not have landed (${list(inFlight)})` : ''}; ${rest.length} not attempted. Run dqform plan when it answers again: plan and apply converge.`,
    );
  } else if (rest.length) io.err(`  ${rest.length} change(s) not attempted (${list(rest)}): ${halt!.reason}`);
  io.out(`${what} ${r.failed.length || r.skipped.length ? 'stopped' : 'complete'}: ${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} not attempted. Took ${seconds(elapsedMs)}.`);
  if (r.failed.length || r.skipped.length) {
    if (!gone) io.err('Run `dqform plan` to see what remains; re-running plan and apply converges.');
    return 1;
  }
  return 0;
}

/** Reads and checks a saved plan file, or prints why it cannot (returns undefined). */
function readPlanFile(io: Io, file: string): Plan | undefined {
  let text: string;
  try {
    text = fs.readFileSync(path.resolve(io.cwd, file), 'utf8');
  } catch (e) {
    io.err(`Error: cannot read plan file ${file}: ${(e as Error).message}\n  Create it with: dqform plan --out ${file}`);
    return undefined;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    // never the parser's message: it quotes the file's text, which may be anything (a secret)
    const at = /position (\d+)/.exec((e as Error).message)?.[1];
    io.err(`Error: cannot read plan file ${file}: it is not JSON${at === undefined ? '' : ` (at character ${at})`}\n  Create it with: dqform plan --out ${file}`);
    return undefined;
  }
  return loadPlan(json);
}

/** The words of apply and of destroy (which is apply of a destroy plan). */
interface ApplyWords {
  what: 'Apply' | 'Destroy';
  command: string;
  question: (p: Plan) => string;
  /** How to review before applying, when there is no terminal to ask on. */
  reviewed: string;
}
const APPLY_WORDS: ApplyWords = {
  what: 'Apply',
  command: 'apply',
  question: () => 'Apply these changes? Only "yes" is accepted: ',
  reviewed: 'Apply a reviewed plan file (dqform plan --out plan.json; dqform apply plan.json), or pass --auto-approve.',
};
const DESTROY_WORDS: ApplyWords = {
  what: 'Destroy',
  command: 'destroy',
  question: (p) => `Destroy the ${p.changes.filter((c) => c.action === 'delete').length} object(s) above? There is no undo. Only "yes" is accepted: `,
  reviewed: 'Review a saved destroy plan (dqform plan --destroy --out destroy.json; dqform apply --destroy destroy.json), or pass --auto-approve.',
};

/** What apply says instead of writing, for a refresh-only plan. */
const REFRESH_ONLY_APPLY =
  'Nothing to apply: this is a refresh-only plan, and dqform keeps no state file to record live state in, so a refresh-only apply writes nothing. To make live match the code, run dqform plan and apply.';

/** How a plan's mode differs from the mode the command line states (empty: the same). */
function modeDifferences(saved: PlanRequest, given: PlanRequest): string[] {
  const out: string[] = [];
  if (given.refreshOnly) out.push('--refresh-only given, the plan is not a refresh-only plan');
  if (saved.destroy !== given.destroy) out.push(saved.destroy ? '--destroy missing' : '--destroy given, the plan is not a destroy plan');
  const diff = (flag: string, a: string[], b: string[]) => {
    const missing = a.filter((x) => !b.includes(x));
    const extra = b.filter((x) => !a.includes(x));
    if (missing.length) out.push(`${flag} ${missing.join(', ')} missing`);
    if (extra.length) out.push(`${flag} ${extra.join(', ')} not in the plan`);
  };
  diff('--target', saved.targets, given.targets);
  diff('--replace', saved.replace, given.replace);
  return out;
}

function describeMode(r: PlanRequest): string {
  const parts = [r.destroy && 'destroy', r.targets.length && `--target ${r.targets.join(', ')}`, r.replace.length && `--replace ${r.replace.join(', ')}`].filter(Boolean);
  return parts.length ? parts.join(', ') : 'no mode flags (a normal plan)';
}

/** The flags that state a plan's mode, each followed by a space. */
function modeFlagsOf(r: PlanRequest): string {
  return [r.destroy ? ['--destroy'] : [], r.targets.map((t) => `--target '${t}'`), r.replace.map((t) => `--replace '${t}'`)].flat().map((f) => `${f} `).join('');
}

export async function cmdApply(io: Io, file: string | undefined, o: ApplyOptions, words: ApplyWords = APPLY_WORDS): Promise<number> {
  const every = progressIntervalMs(io);
  const request = requestOf(o);
  let saved: Plan | undefined;
  if (file) {
    saved = readPlanFile(io, file);
    if (!saved) return 1;
    if (saved.options.refreshOnly) {
      if (request.destroy || request.targets.length || request.replace.length) {
        throw new UsageError(`${file} is a refresh-only plan: it writes nothing, and --destroy, --target and --replace do not apply to it.`);
      }
      io.out(REFRESH_ONLY_APPLY);
      return 0;
    }
    // The file records its own mode, and apply plans again in that mode; so that an edited file
    // cannot turn a reviewed plan into another kind (a normal plan into a destroy, a replace
    // added), the command line must state the same mode: nothing for a normal plan.
    const differs = modeDifferences(saved.options, request);
    if (differs.length) {
      throw new UsageError(
        `${file} was made with ${describeMode(saved.options)}, and this apply states ${describeMode(request)} (${differs.join('; ')}). ` +
          `Apply restates the mode of a saved plan so that an edited file cannot change what was reviewed: run dqform apply ${modeFlagsOf(saved.options)}${file} if that is the plan you reviewed (dqform show ${file} prints it).`,
      );
    }
    // refused as it is (errors, guards) before the code is even read: no synth, no network
    preflight(saved, o);
  } else if (!io.isTty && !o.autoApprove && !request.refreshOnly) {
    io.err(`Error: ${words.command} needs confirmation, and there is no terminal to ask on.\n  ${words.reviewed}`);
    return 1;
  }
  // A saved plan is checked against the desired state it was made from, read from the same
  // place plan reads it (synthesised first when the app changed): see applyReviewed.
  const src = prepareSource(io, o);
  if (!src) return 1;
  const manifest = saved ? savedPlanManifest(io, src, o.stack ?? saved.stack, file!) : undefined;
  const c = client(io);
  try {
    const opts = {
      maxDeletes: o.maxDeletes,
      maxEffectDeletes: o.maxEffectDeletes,
      allowUnpreviewed: o.allowUnpreviewed,
      onProgress: (l: string) => io.err(l),
      progressIntervalMs: every,
    };
    const started = Date.now();
    /** The report, and Terraform's warning after a targeted apply. */
    const done = (r: ApplyResult, p: Plan): number => {
      const code = report(io, r, Date.now() - started, p.options.destroy ? 'Destroy' : words.what);
      if (p.options.targets.length) {
        io.err(`Warning: applied changes may be incomplete: this plan was targeted (${p.options.targets.join(', ')}), so other changes the code asks for may remain.\n  Run dqform plan without --target to see them.`);
      }
      return code;
    };
    if (saved && manifest) {
      // applyReviewed plans again with the saved plan's own options (destroy, targets, replace)
      const r = await applyReviewed(c, saved, manifest, { ...opts, siblings: siblingStacks(src, manifest), onNote: (l) => io.err(`Note: ${l}`) });
      return done(r, saved);
    }
    const p = await planStack(io, c, src, o.stack, request);
    if (p.diagnostics.some((d) => d.severity === 'error')) {
      printDiagnostics(io, p.diagnostics);
      return 1;
    }
    io.out(textOf(io, p, o));
    if (request.refreshOnly) {
      io.out(REFRESH_ONLY_APPLY);
      return 0;
    }
    if (!hasChanges(p)) return 0;
    if (!o.autoApprove) {
      const ok = io.confirm ? await io.confirm(words.question(p)) : false;
      if (!ok) {
        io.err(`${words.what} cancelled.`);
        return 1;
      }
    }
    const r = await apply(c, p, opts);
    return done(r, p);
  } finally {
    await c.close();
  }
}

/** `dqform destroy`: plans the deletion of everything the namespace owns, shows it, asks, applies. */
export async function cmdDestroy(io: Io, o: DestroyOptions): Promise<number> {
  return cmdApply(io, undefined, { ...o, destroy: true }, DESTROY_WORDS);
}

/**
 * The desired state a saved plan is checked against: its stack, from the source plan reads.
 * When it cannot be read, the error says that apply needs it (and how to point at it).
 */
function savedPlanManifest(io: Io, src: Source, stack: string, file: string): Manifest {
  try {
    return loadStack(io, src, stack);
  } catch (e) {
    if (!(e instanceof ManifestError)) throw e;
    const where = src.kind === 'yaml' ? shown(io, src.file) : `${shown(io, src.dir)} (stack ${stack})`;
    throw new ManifestError([
      ...e.diagnostics,
      {
        severity: 'error',
        summary: `apply ${file} checks the saved plan against the desired state it was made from, and cannot read it from ${where}`,
        hint: 'Run apply where plan ran, after dqform synth (or with the same --dir, --file and --stack as plan).',
      },
    ]);
  }
}

export async function cmdDrift(io: Io, o: DriftOptions): Promise<number> {
  const src = prepareSource(io, o);
  if (!src) return 1;
  const stacks = stacksOf(io, src, o);
  const c = client(io);
  const plans: Plan[] = [];
  try {
    const code = await overStacks(io, stacks, o.json ? 'err' : 'out', async (stack) => {
      const p = await planStack(io, c, src, stack);
      if (p.diagnostics.some((d) => d.severity === 'error')) {
        printDiagnostics(io, p.diagnostics);
        return { stack: p.stack, code: 1, line: 'failed (see the errors above)' };
      }
      plans.push(p);
      const drifted = hasChanges(p);
      if (o.json) {
        if (!o.allStacks) io.out(renderJson(p).trimEnd());
      } else if (!drifted) io.out(`No drift: live state matches the code${o.allStacks ? ` (stack ${p.stack})` : ''}.`);
      else {
        // the same entries as plan --refresh-only: field, code's value, live's value, what apply would do
        io.out(renderDrift(p, asRefreshOnly(p.changes), { color: useColor(io, o), showUnmanaged: o.showUnmanaged }).trimEnd());
        io.out('Drift detected.');
      }
      return { stack: p.stack, code: drifted ? 2 : 0, line: drifted ? `drift: ${summaryLine(p)}` : 'No drift.' };
    });
    if (o.json && o.allStacks) io.out(stableStringify(plans, 2));
    return code;
  } finally {
    await c.close();
  }
}

export async function cmdImport(io: Io, o: ImportOptions): Promise<number> {
  return importer().runImport(io, o, () => client(io));
}

/** `dqform emulator`: the emulator parses its own (already checked) arguments. */
export async function cmdEmulator(argv: string[]): Promise<number> {
  // require, not import(): bin/dqform.js runs the sources through tsx's CommonJS hook.
  const { runEmulatorCli } = require('../emulator') as typeof import('../emulator');
  return runEmulatorCli(argv);
}
