/**
 * The commands behind `dqform` (main.ts parses the arguments with commander and calls these
 * with typed options). Each returns the exit code: 0 ok / no changes, 2 changes (plan
 * --detailed-exitcode, drift), 1 error. User mistakes print diagnostics (what, where, what to
 * do) and return 1; bugs throw.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HttpTrace, PlatformClient, StackPlatform } from '../client';
import type { Manifest } from '../../schemas/manifest';
import type { Diagnostic, Plan, PlanRequest } from '../../schemas/plan';
import { stableStringify } from '../engine/keys';
import { inertText } from '../../schemas/inert';
import { listedStacks, loadSiblingStacks, loadSynthOutput, ManifestError } from '../engine/manifest';
import { resolveManifest } from '../engine/resolve';
import { credentialVariables } from './credential-variables';
import { readCdktfApp, misnamedSecretStacks, removeLeftoverStacks, runApp, staleness, synthesisedStacks, SynthSetupError, type CdktfApp } from './synth';

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
const view = () => require('./apply-view') as typeof import('./apply-view');
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
export interface ApplyOptions extends StacksOptions, RenderFlags, ModeFlags {
  /** destroy --namespace: retire a namespace no code declares. */
  namespace?: string;
  autoApprove?: boolean;
  maxDeletes?: number;
  maxEffectDeletes?: number;
  allowUnpreviewed?: boolean;
}
/** `dqform destroy`: apply's flags and guards without a plan file, with --target. */
export interface DestroyOptions extends StacksOptions, RenderFlags {
  /** Retire this namespace, which no code declares any more (nothing is declared for it). */
  namespace?: string;
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
    io.err(`Error: ${e.message}\n  ${/the stack's /.test(e.message) ? "Fix the stack's baseUrl/region/grpcEndpoint in the code." : 'Set the variables in the environment (never in code).'}`);
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
export function client(io: Io, m?: Manifest): PlatformClient {
  const level = (io.env.DQFORM_LOG ?? '').trim().toLowerCase();
  if (level !== '' && level !== 'debug' && level !== 'info' && !warnedLevel.has(io)) {
    warnedLevel.add(io);
    io.err(`Warning: DQFORM_LOG="${io.env.DQFORM_LOG}" is not a level dqform knows; use DQFORM_LOG=debug to trace HTTP calls.`);
  }
  const debug = level === 'debug';
  const cm = clientModule();
  const stack = platformOf(m);
  const config = cm.resolveConfig(io.env, {}, stack);
  // DQ_TIMEOUT and DQ_MAX_RESPONSE_MB hold for every stack (PlatformClient.fromEnv does the same)
  const limits = cm.resolveLimits(io.env);
  return cm.PlatformClient.create(config, { proxy: cm.resolveProxy(io.env), ...limits, onTrace: (t) => traceLine(t, debug, io), grpc: { deadlineMs: limits.timeoutMs, ...cm.resolveStackGrpcConfig(io.env, stack) } });
}
const warnedLevel = new WeakSet<Io>();

/** Where a stack's platform and credentials come from: what its manifest sets (the environment for the rest). */
function platformOf(m: Manifest | undefined): StackPlatform {
  return m ? { baseUrl: m.baseUrl, region: m.region, grpcEndpoint: m.grpcEndpoint, credentialsFrom: m.credentialsFrom } : {};
}

/** The platform a client talks to, as plans name it: the host (and port) of its base URL. */
export function platformHost(c: PlatformClient): string {
  return new URL(c.http.baseUrl).host;
}

/**
 * One client per platform and credential the stacks of a run use (--all-stacks plans each
 * stack against its own platform); closed together.
 */
class StackClients {
  private readonly open = new Map<string, PlatformClient>();
  constructor(private readonly io: Io) {}
  for(m: Manifest | undefined): PlatformClient {
    const key = stableStringify(platformOf(m));
    let c = this.open.get(key);
    if (!c) this.open.set(key, (c = client(this.io, m)));
    return c;
  }
  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((c) => c.close()));
  }
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
  if (!o.dir) {
    // One source of desired state: a YAML workspace beside a CDKTF app or its synth output is
    // ambiguous, never silently ignored.
    const yaml = path.join(io.cwd, 'dqform.yaml'); // YAML_WORKSPACE_FILE, without loading the YAML front end
    if (fs.existsSync(yaml) && (app || fs.existsSync(dir))) {
      const other = fs.existsSync(dir) ? shown(io, dir) : `the CDKTF app of ${shown(io, path.join(app!.dir, 'cdktf.json'))}`;
      throw new UsageError(
        `two sources of desired state here: ${shown(io, yaml)} and ${other}. Say which with --file ${shown(io, yaml)} or --dir ${shown(io, dir)} (or remove the one no longer used).`,
      );
    }
  }
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
  if (stack !== undefined && listedStacks(src.dir).leftovers.includes(stack)) {
    throw new ManifestError([
      {
        severity: 'error',
        summary: `stack ${stack} is not a stack of the app any more: ${shown(io, path.join(src.dir, 'manifest.json'))} does not list it (${shown(io, path.join(src.dir, 'stacks', stack))} is a leftover)`,
        hint: `Run dqform synth (it removes leftovers). To delete what its namespace still owns: dqform destroy --namespace NAME.`,
      },
    ]);
  }
  return loadSynthOutput(src.dir, stack);
}

/** The other stacks synthesised next to `m` (none for a YAML workspace): two stacks must not share objects. */
function siblingStacks(src: Source, m: Manifest, env: NodeJS.ProcessEnv) {
  return siblingsOf(src, m, env).siblings;
}

/** {@link siblingStacks}, and the namespaces of every other stack of the app (on any platform). */
function siblingsOf(src: Source, m: Manifest, env: NodeJS.ProcessEnv) {
  const all = src.kind === 'yaml' ? [] : loadSiblingStacks(src.dir, m.stack);
  // stacks on another platform, or acting with another credential (so perhaps in another
  // workspace), never share an object: only those on this one are checked against
  const mine = platformKey(env, m);
  return { siblings: all.filter((s) => platformKey(env, s.manifest) === mine), appNamespaces: all.map((s) => s.namespace) };
}

/** The platform host and the client id a stack acts with, as known without a call (see siblingStacks). */
function platformKey(env: NodeJS.ProcessEnv, m: Manifest): string {
  const p = platformOf(m);
  return `${stackHost(env, m)}\u0000${env[p.credentialsFrom?.clientId ?? 'DQ_CLIENT_ID']?.trim() ?? ''}`;
}

/** The platform host a stack is planned against (its baseUrl/region, else DQ_BASE_URL/DQ_REGION), as known without a call. */
function stackHost(env: NodeJS.ProcessEnv, m: Manifest): string {
  const p = platformOf(m);
  // the config module alone (not the client): validate loads no client (issue 15)
  const cm = require('../client/config') as typeof import('../client/config');
  const envUrl = env.DQ_BASE_URL?.trim() || cm.REGION_BASE_URLS[(env.DQ_REGION?.trim().toLowerCase() || 'eu') as keyof typeof cm.REGION_BASE_URLS];
  const url = p.baseUrl ?? (p.region ? cm.REGION_BASE_URLS[p.region as keyof typeof cm.REGION_BASE_URLS] : envUrl) ?? '';
  let host = url;
  try {
    host = new URL(url).host;
  } catch {
    // an unusable URL: its own plan says so
  }
  return host;
}

/** Plans one stack of a source (with its sibling stacks, which must not share objects) against its own platform. */
function planStack(io: Io, clients: StackClients, src: Source, stack: string | undefined, request?: PlanRequest): Promise<Plan> {
  return planManifest(io, (x) => clients.for(x), src, loadStack(io, src, stack), request);
}

/** Plans a manifest with the client `clientFor` gives for it; the plan names the platform it read. */
async function planManifest(io: Io, clientFor: (m: Manifest) => PlatformClient, src: Source | undefined, m: Manifest, request?: PlanRequest): Promise<Plan> {
  const c = clientFor(m);
  const { siblings, appNamespaces } = src ? siblingsOf(src, m, io.env) : { siblings: [], appNamespaces: [] };
  const p = await makePlan(c, m, { onProgress: (l) => io.err(l), siblings, appNamespaces, request });
  p.platform = platformHost(c);
  return p;
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
  const { leftovers } = listedStacks(src.dir);
  if (leftovers.length) {
    io.err(`Note: ${leftovers.map((n) => shown(io, path.join(src.dir, 'stacks', n))).join(', ')}: not in ${shown(io, path.join(src.dir, 'manifest.json'))}, so not a stack of the app any more: not used. dqform synth removes it; to delete what its namespace owns, dqform destroy --namespace NAME.`);
  }
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
      if (e instanceof UsageError || !(e instanceof ManifestError || e instanceof clientModule().ApiError || e instanceof clientModule().ConfigError || e instanceof applier().PlanRefusedError)) throw e;
      reportError(io, e);
      outcomes.push({ stack: stack ?? '?', code: 1, line: 'failed (see the errors above)' });
    }
  }
  const code = outcomes.some((x) => x.code === 1) ? 1 : outcomes.some((x) => x.code === 2) ? 2 : 0;
  if (stacks.length > 1 || outcomes.length > 1) summarise(io, outcomes, summaryTo);
  return code;
}

/** The combined summary of a run over several stacks: one line per stack. */
function summarise(io: Io, outcomes: readonly StackOutcome[], to: 'out' | 'err' = 'out'): void {
  const print = to === 'out' ? io.out : io.err;
  const failed = outcomes.filter((x) => x.code === 1).length;
  const width = Math.max(0, ...outcomes.map((x) => x.stack.length));
  print('');
  print(`All stacks (${outcomes.length}): ${failed ? `${failed} failed` : 'none failed'}.`);
  for (const x of outcomes) print(`  ${x.stack.padEnd(width)}  ${x.line}`);
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
  // cdktf leaves the directories of stacks the app no longer has: remove them, so that none is
  // planned (manifest.json, which cdktf rewrites, is the list; see listedStacks)
  const gone = removeLeftoverStacks(out);
  if (gone.length) io.err(`Removed from ${shown(io, out)} the stack(s) the app no longer has: ${gone.join(', ')}.`);
  const misnamed = misnamedSecretStacks(out);
  if (misnamed.length) {
    // the name is not echoed: a value in its place may be the secret itself
    io.err(
      `Error: stack(s) ${misnamed.join(', ')}: credentialsFrom.clientSecret must name a variable ending in _CLIENT_SECRET, e.g. DQ_PROD_CLIENT_SECRET: dqform withholds only such variables from the app, refuses them in a CI synth and masks them in output.\n  Rename the variable (and where your CI sets it), then run dqform synth again.`,
    );
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
    const res = resolveManifest(m, 'offline-validation', { offline: true, siblings: siblingStacks(src, m, io.env) });
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
  const clients = new StackClients(io);
  const plans: Plan[] = [];
  try {
    const code = await overStacks(io, stacks, format === 'text' ? 'out' : 'err', async (stack) => {
      const p = await planStack(io, clients, src, stack, request);
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
    await clients.close();
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
  if (file && o.allStacks) throw new UsageError(`--all-stacks plans and applies every stack; it cannot be given with a PLANFILE (${file}). Apply saved plans one at a time: dqform apply plan-<stack>.json`);
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
  if (o.allStacks) return applyAllStacks(io, src, o, request, words, every);
  const manifest = saved ? savedPlanManifest(io, src, o.stack ?? saved.stack, file!) : o.namespace ? retiredNamespace(io, src, o.namespace) : undefined;
  const clients = new StackClients(io);
  try {
    const opts = applyOptions(io, o, every);
    const started = Date.now();
    /** The view of the apply's events: progress, then the report (and a targeted plan's warning). */
    const onEvent = (p: Plan) => view().applyView(io, { what: p.options.destroy ? 'Destroy' : words.what, started, targets: p.options.targets });
    if (saved && manifest) {
      const c = clients.for(manifest);
      samePlatform(saved, c, file!);
      // applyReviewed plans again with the saved plan's own options (destroy, targets, replace)
      const r = await applyReviewed(c, saved, manifest, { ...opts, onEvent: onEvent(saved), siblings: siblingStacks(src, manifest, io.env), onNote: (l) => io.err(`Note: ${l}`) });
      return view().exitCode(r);
    }
    const m = manifest ?? loadStack(io, src, o.stack);
    const p = await planManifest(io, (x) => clients.for(x), o.namespace ? undefined : src, m, request);
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
    const r = await apply(clients.for(m), p, { ...opts, onEvent: onEvent(p) });
    return view().exitCode(r);
  } finally {
    await clients.close();
  }
}

/** apply's options from the command line's guards. */
function applyOptions(io: Io, o: ApplyOptions, every: number) {
  return {
    maxDeletes: o.maxDeletes,
    maxEffectDeletes: o.maxEffectDeletes,
    allowUnpreviewed: o.allowUnpreviewed,
    onProgress: (l: string) => io.err(l),
    progressIntervalMs: every,
  };
}

/**
 * A saved plan is applied only to the platform it read: refused (nothing written, before any
 * call) when the stack's platform, or DQ_BASE_URL for a stack that names none, now points
 * elsewhere. (The workspace is checked by applyReviewed, from the credentials.)
 */
function samePlatform(saved: Plan, c: PlatformClient, file: string): void {
  const now = platformHost(c);
  if (saved.platform === undefined) {
    throw new (applier().PlanRefusedError)(
      `${file} does not say which platform it was planned against (made by an older dqform, or edited): nothing was written`,
      `Run dqform plan --out ${file} again and apply that plan.`,
    );
  }
  if (saved.platform !== now) {
    throw new (applier().PlanRefusedError)(
      `${file} was planned against the platform ${saved.platform} (workspace "${saved.workspace}"), and stack ${saved.stack} now points at ${now}: nothing was written`,
      `Apply it where it was planned (the stack's baseUrl/region, else DQ_BASE_URL/DQ_REGION, as when planning), or run dqform plan against ${now} and apply that plan.`,
    );
  }
}

/**
 * `destroy --namespace NAME`: the desired state of a namespace no code declares any more:
 * nothing. Refused when a stack of the app still declares it on the same platform (destroying it
 * would fight the code: remove the stack first, or destroy that stack); a stack on another
 * platform shares no object with it.
 */
function retiredNamespace(io: Io, src: Source, namespace: string): Manifest {
  if (!/^[a-z0-9][a-z0-9_.-]{0,62}$/.test(namespace)) throw new UsageError(`--namespace "${namespace}" is not a namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters`);
  const retired: Manifest = { formatVersion: 1, stack: namespace, namespace, resources: [], moved: [], imports: [], removed: [] };
  // the retired namespace is destroyed on DQ_BASE_URL/DQ_REGION's platform: a stack that declares
  // the same namespace on another platform shares no object with it (as siblingStacks says)
  const here = stackHost(io.env, retired);
  for (const m of appStacks(io, src)) {
    if (m.namespace === namespace && stackHost(io.env, m) === here) {
      throw new UsageError(
        `--namespace ${namespace} is declared by stack ${m.stack} (${src.kind === 'yaml' ? shown(io, src.file) : shown(io, src.dir)}): destroy --namespace retires a namespace no code declares. Remove the stack from the app and synth, or destroy the stack itself (dqform destroy --stack ${m.stack}).`,
      );
    }
  }
  return retired;
}

/** The stacks of the app as far as they load (none when there is no synth output or YAML workspace). */
function appStacks(io: Io, src: Source): Manifest[] {
  if (src.kind === 'yaml') return fs.existsSync(src.file) ? [loadStack(io, src, undefined)] : [];
  const out: Manifest[] = [];
  for (const name of synthesisedStacks(src.dir)) {
    try {
      out.push(loadStack(io, src, name));
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
    }
  }
  return out;
}

/**
 * `apply --all-stacks`, `destroy --all-stacks`: each stack planned against its own platform,
 * every plan shown, one confirmation listing them all, then each applied in turn (stopping at
 * the first that fails), with one combined summary. Nothing is written when a plan has errors
 * or a guard refuses any of them.
 */
async function applyAllStacks(io: Io, src: Source, o: ApplyOptions, request: PlanRequest, words: ApplyWords, every: number): Promise<number> {
  const stacks = stacksOf(io, src, o);
  const clients = new StackClients(io);
  try {
    const opts = applyOptions(io, o, every);
    const plans: { plan: Plan; manifest: Manifest }[] = [];
    const failed: StackOutcome[] = [];
    for (const stack of stacks) {
      try {
        const manifest = loadStack(io, src, stack);
        const plan = await planManifest(io, (x) => clients.for(x), src, manifest, request);
        if (plan.diagnostics.some((d) => d.severity === 'error')) {
          printDiagnostics(io, plan.diagnostics);
          failed.push({ stack: plan.stack, code: 1, line: `${plan.diagnostics.filter((d) => d.severity === 'error').length} error(s): nothing applied` });
          continue;
        }
        io.out(textOf(io, plan, o));
        io.out('');
        preflight(plan, opts); // the guards, before anything of any stack is written
        plans.push({ plan, manifest });
      } catch (e) {
        if (e instanceof UsageError || !(e instanceof ManifestError || e instanceof clientModule().ApiError || e instanceof clientModule().ConfigError || e instanceof applier().PlanRefusedError)) throw e;
        reportError(io, e);
        failed.push({ stack: stack ?? '?', code: 1, line: 'failed (see the errors above): nothing applied' });
      }
    }
    const line = (p: Plan) => `${p.stack} (namespace "${p.namespace}" on ${p.platform}, workspace "${p.workspace}"): ${hasChanges(p) ? summaryLine(p) : 'No changes.'}`;
    if (failed.length) {
      io.err(`Error: ${failed.length} of ${stacks.length} stack(s) cannot be ${words.what === 'Destroy' ? 'destroyed' : 'applied'}: nothing was written to any stack.`);
      summarise(io, [...plans.map((x) => ({ stack: x.plan.stack, code: 0, line: 'not applied (another stack failed)' })), ...failed]);
      return 1;
    }
    if (request.refreshOnly) {
      io.out(REFRESH_ONLY_APPLY);
      return 0;
    }
    const todo = plans.filter((x) => hasChanges(x.plan));
    if (todo.length === 0) {
      summarise(io, plans.map((x) => ({ stack: x.plan.stack, code: 0, line: 'No changes.' })));
      return 0;
    }
    if (!o.autoApprove) {
      io.err(`${words.what} ${todo.length} stack(s):`);
      for (const x of todo) io.err(`  ${line(x.plan)}`);
      const q = words.what === 'Destroy' ? 'Destroy the objects of every stack above? There is no undo. Only "yes" is accepted: ' : 'Apply the changes of every stack above? Only "yes" is accepted: ';
      const ok = io.confirm ? await io.confirm(q) : false;
      if (!ok) {
        io.err(`${words.what} cancelled: nothing was written.`);
        return 1;
      }
    }
    const outcomes: StackOutcome[] = [];
    let stopped = false;
    for (const x of plans) {
      if (!hasChanges(x.plan)) {
        outcomes.push({ stack: x.plan.stack, code: 0, line: 'No changes.' });
        continue;
      }
      if (stopped) {
        outcomes.push({ stack: x.plan.stack, code: 1, line: 'not attempted (an earlier stack failed)' });
        continue;
      }
      io.out(`Stack ${x.plan.stack}:`);
      const started = Date.now();
      try {
        const r = await apply(clients.for(x.manifest), x.plan, { ...opts, onEvent: view().applyView(io, { what: words.what, started }) });
        const code = view().exitCode(r);
        outcomes.push({ stack: x.plan.stack, code, line: `${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} not attempted` });
        if (code !== 0) stopped = true;
      } catch (e) {
        if (!(e instanceof clientModule().ApiError || e instanceof applier().PlanRefusedError)) throw e;
        reportError(io, e);
        outcomes.push({ stack: x.plan.stack, code: 1, line: 'failed (see the errors above)' });
        stopped = true;
      }
    }
    summarise(io, outcomes);
    return outcomes.some((x) => x.code !== 0) ? 1 : 0;
  } finally {
    await clients.close();
  }
}

/** `dqform destroy`: plans the deletion of everything the namespace owns, shows it, asks, applies. */
export async function cmdDestroy(io: Io, o: DestroyOptions): Promise<number> {
  if (o.namespace !== undefined && (o.allStacks || o.stack || o.target?.length)) {
    throw new UsageError('--namespace retires one namespace no code declares: it cannot be given with --all-stacks, --stack or --target');
  }
  const words = o.namespace === undefined ? DESTROY_WORDS : { ...DESTROY_WORDS, reviewed: 'Run it on a terminal to see the plan and confirm, or pass --auto-approve.' };
  return cmdApply(io, undefined, { ...o, destroy: true }, words);
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
  const clients = new StackClients(io);
  const plans: Plan[] = [];
  try {
    const code = await overStacks(io, stacks, o.json ? 'err' : 'out', async (stack) => {
      const p = await planStack(io, clients, src, stack);
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
    await clients.close();
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
