/**
 * What the commands (src/cli/commands/) share when they run: where the desired state comes from,
 * the stacks and their clients, diagnostics and errors as a user sees them. Loaded when a command
 * runs (src/cli/lazy.ts), never for --version or help.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { HttpTrace, PlatformClient, StackPlatform } from '../client';
import type { Manifest } from '../../schemas/model/manifest';
import type { Diagnostic, Plan, PlanRequest } from '../../schemas/model/plan';
import { stableStringify } from '../engine/keys';
import { inertText } from '../../schemas/tools/inert';
import { listedStacks, ManifestError } from '../engine/listed-stacks';
import { readCdktfApp, staleness, synthesisedStacks, type CdktfApp } from './synth';
import { prepareStack as preparedFromCache, type PreparedStack, type StackPlatformFields } from './desired';
import type { Io, ModeFlags, RenderFlags, SourceOptions, StacksOptions } from './command';
import { UsageError } from './usage-error';
import { codeFamily, isFamily } from '../../schemas/tools/errors';
import { lazy } from './lazy';

export type { Io } from './command';
export type { PreparedStack } from './desired';

/**
 * The plan request the mode flags ask for (every field of schemas/model/plan's DEFAULT_REQUEST, in its
 * order; written out so that `validate` does not load the plan schemas: issue 15).
 */
export function requestOf(o: ModeFlags): PlanRequest {
  return { destroy: !!o.destroy, refreshOnly: !!o.refreshOnly, targets: o.target ?? [], replace: o.replace ?? [] };
}

// ---- output helpers ----

export function printDiagnostics(io: Io, diags: readonly Diagnostic[]): void {
  // each line inert (schemas/tools/inert): a diagnostic quotes names, keys and server text
  for (const d of diags) {
    io.err(inertText(`${d.severity === 'error' ? 'Error' : d.severity === 'info' ? 'Info' : 'Warning'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`));
    if (d.source) io.err(inertText(`  at ${d.source}`));
    if (d.detail) io.err(inertText(`  ${d.detail}`));
    if (d.hint) io.err(inertText(`  ${d.hint}`));
  }
}

/** Prints a failure as a user should see it (a diagnostic, or "internal error" for a bug); returns 1. */
export function reportError(io: Io, e: unknown): number {
  if (isFamily(e, ['manifest']) && e.diagnostics) {
    printDiagnostics(io, e.diagnostics);
  } else if (isFamily(e, SHOWN)) {
    const what = codeFamily(e.code) === 'server-misbehaviour' ? 'the platform misbehaved: ' : '';
    io.err(`Error: ${what}${e.message}${e.hint === undefined ? '' : `\n  ${e.hint}`}`);
  } else {
    const err = e as Error;
    io.err(`Internal error: ${err?.message ?? String(e)}${io.env.DQFORM_DEBUG ? `\n${err?.stack ?? ''}` : '\n  This is a bug in dqform; set DQFORM_DEBUG=1 for the stack trace and report it.'}`);
  }
  return 1;
}

/**
 * The code families (docs/errors.md) a user is shown as an error with its hint: a mistake to fix
 * or a refusal. Any other error is a bug in dqform ("internal error").
 */
const SHOWN = ['usage', 'synth-setup', 'manifest', 'plan-refused', 'config', 'api', 'server-misbehaviour'];

/** The failures of one stack that --all-stacks reports before going on with the next. */
export const STACK_FAILURES = ['manifest', 'api', 'config', 'plan-refused'];

/**
 * The API client from the environment (credentials, base URL, proxies). Retries are noted on
 * stderr; with `DQFORM_LOG=debug` every HTTP call is traced there (method, path, status,
 * duration, request id: never a header or a body, so never a token or a secret).
 */
export function client(io: Io, m?: StackPlatformFields): PlatformClient {
  const level = (io.env.DQFORM_LOG ?? '').trim().toLowerCase();
  if (level !== '' && level !== 'debug' && level !== 'info' && !warnedLevel.has(io)) {
    warnedLevel.add(io);
    io.err(`Warning: DQFORM_LOG="${io.env.DQFORM_LOG}" is not a level dqform knows; use DQFORM_LOG=debug to trace HTTP calls.`);
  }
  const debug = level === 'debug';
  const cm = lazy.client();
  const stack = platformOf(m);
  const config = cm.resolveConfig(io.env, {}, stack);
  // DQ_TIMEOUT and DQ_MAX_RESPONSE_MB hold for every stack (PlatformClient.fromEnv does the same)
  const limits = cm.resolveLimits(io.env);
  return cm.PlatformClient.create(config, { proxy: cm.resolveProxy(io.env), ...limits, onTrace: (t) => traceLine(t, debug, io), traceEvents: debug ? undefined : ['retry'], grpc: { deadlineMs: limits.timeoutMs, ...cm.resolveStackGrpcConfig(io.env, stack) } });
}
const warnedLevel = new WeakSet<Io>();

/** Where a stack's platform and credentials come from: what its manifest sets (the environment for the rest). */
export function platformOf(m: Omit<StackPlatformFields, 'stack' | 'namespace'> | undefined): StackPlatform {
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
export class StackClients {
  private readonly open = new Map<string, PlatformClient>();
  constructor(private readonly io: Io) {}
  for(m: StackPlatformFields | undefined): PlatformClient {
    const key = stableStringify(platformOf(m));
    let c = this.open.get(key);
    if (!c) this.open.set(key, (c = client(this.io, m)));
    return c;
  }
  async close(): Promise<void> {
    await Promise.all([...this.open.values()].map((c) => c.close()));
  }
}

export const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

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
export function progressIntervalMs(io: Io): number {
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

export const shown = (io: Io, p: string) => {
  const rel = path.relative(io.cwd, p);
  return rel === '' ? '.' : rel.startsWith('..') ? p : rel;
};

// ---- where the desired state comes from ----

/**
 * The resolved source of the desired state: a YAML file or a synth output directory; `cache`
 * false: resolve without the resolution cache (`--no-cache`, src/cli/desired.ts).
 */
export type Source = ({ kind: 'yaml'; file: string } | { kind: 'synth'; dir: string }) & { cache?: boolean };

/**
 * Resolves where the desired state comes from. The app is never run here: only `dqform synth`
 * runs user code (plan, apply, drift and destroy hold credentials, and a child can always read
 * its parent's environment from /proc). When the app's files are newer than its synth output
 * (or there is none), this stops with an error saying to run `dqform synth` first.
 */
export function prepareSource(io: Io, o: SourceOptions): Source | undefined {
  const src = sourceOf(io, o);
  return src && o.cache === false ? { ...src, cache: false } : src;
}

function sourceOf(io: Io, o: SourceOptions): Source | undefined {
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
    const yaml = path.join(io.cwd, lazy.yaml().YAML_WORKSPACE_FILE);
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
export function loadStack(io: Io, src: Source, stack: string | undefined): Manifest {
  if (src.kind === 'yaml') return lazy.yaml().loadYamlWorkspace(src.file, stack, { cwd: io.cwd });
  if (stack !== undefined && listedStacks(src.dir).leftovers.includes(stack)) {
    throw new ManifestError([
      {
        severity: 'error',
        summary: `stack ${stack} is not a stack of the app any more: ${shown(io, path.join(src.dir, 'manifest.json'))} does not list it (${shown(io, path.join(src.dir, 'stacks', stack))} is a leftover)`,
        hint: `Run dqform synth (it removes leftovers). To delete what its namespace still owns: dqform destroy --namespace NAME.`,
      },
    ]);
  }
  return lazy.manifest().loadSynthOutput(src.dir, stack);
}

/**
 * One stack of a source, ready to plan or validate, through the resolution cache unless the
 * source says not (src/cli/desired.ts): a warm run loads no manifest. Errors as {@link loadStack}'s.
 */
export function prepareStack(io: Io, src: Source, stack: string | undefined): PreparedStack {
  return preparedFromCache(io.env, io.cwd, src, stack, { loadStack: () => loadStack(io, src, stack), siblingsOf: (m) => siblingsOf(src, m, io.env) });
}

/** The other stacks synthesised next to `m` (none for a YAML workspace): two stacks must not share objects. */
export function siblingStacks(src: Source, m: Manifest, env: NodeJS.ProcessEnv) {
  return siblingsOf(src, m, env).siblings;
}

/** {@link siblingStacks}, and the namespaces of every other stack of the app (on any platform). */
export function siblingsOf(src: Source, m: Manifest, env: NodeJS.ProcessEnv) {
  const all = src.kind === 'yaml' ? [] : lazy.manifest().loadSiblingStacks(src.dir, m.stack);
  // stacks on another platform, or acting with another credential (so perhaps in another
  // workspace), never share an object: only those on this one are checked against
  const mine = platformKey(env, m);
  return { siblings: all.filter((s) => platformKey(env, s.manifest) === mine), appNamespaces: all.map((s) => s.namespace), all };
}

/** The platform host and the client id a stack acts with, as known without a call (see siblingStacks). */
function platformKey(env: NodeJS.ProcessEnv, m: Omit<StackPlatformFields, 'stack' | 'namespace'>): string {
  const p = platformOf(m);
  return `${stackHost(env, m)}\u0000${env[p.credentialsFrom?.clientId ?? 'DQ_CLIENT_ID']?.trim() ?? ''}`;
}

/** The platform host a stack is planned against (its baseUrl/region, else DQ_BASE_URL/DQ_REGION), as known without a call. */
export function stackHost(env: NodeJS.ProcessEnv, m: Omit<StackPlatformFields, 'stack' | 'namespace'>): string {
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
export function planStack(io: Io, clients: StackClients, src: Source, stack: string | undefined, request?: PlanRequest): Promise<Plan> {
  return planManifest(io, (x) => clients.for(x), src, prepareStack(io, src, stack), request);
}

/**
 * Plans a manifest (or a prepared stack, which brings its siblings) with the client `clientFor`
 * gives for it; the plan names the platform it read.
 */
export async function planManifest(io: Io, clientFor: (m: StackPlatformFields) => PlatformClient, src: Source | undefined, m: Manifest | PreparedStack, request?: PlanRequest): Promise<Plan> {
  const c = clientFor(m);
  const { siblings, appNamespaces } = 'prepared' in m ? { siblings: [], appNamespaces: m.appNamespaces } : src ? siblingsOf(src, m, io.env) : { siblings: [], appNamespaces: [] };
  const p = await lazy.reconcile().plan(c, m, { onProgress: (l) => io.err(l), siblings, appNamespaces, request });
  p.platform = platformHost(c);
  return p;
}

/** Does the plan have something to report for --detailed-exitcode: writes, or (refresh-only) drift? */
export function planChanged(p: Plan): boolean {
  return lazy.planner().hasChanges(p) || p.drift.length > 0;
}

/** How a command renders a plan as text. */
export const textOf = (io: Io, p: Plan, o: RenderFlags) => lazy.render().renderText(p, { color: useColor(io, o), showUnmanaged: o.showUnmanaged }).trimEnd();

/** The stacks a command runs over: --all-stacks: every synthesised stack; otherwise --stack (or the only one). */
export function stacksOf(io: Io, src: Source, o: StacksOptions): (string | undefined)[] {
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
export interface StackOutcome {
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
export async function overStacks(io: Io, stacks: (string | undefined)[], summaryTo: 'out' | 'err', fn: (stack: string | undefined) => Promise<StackOutcome>): Promise<number> {
  const outcomes: StackOutcome[] = [];
  for (const stack of stacks) {
    try {
      outcomes.push(await fn(stack));
    } catch (e) {
      // A stack whose manifest cannot be loaded (or whose reads failed) is reported and skipped.
      if (!isFamily(e, STACK_FAILURES)) throw e;
      reportError(io, e);
      outcomes.push({ stack: stack ?? '?', code: 1, line: 'failed (see the errors above)' });
    }
  }
  const code = outcomes.some((x) => x.code === 1) ? 1 : outcomes.some((x) => x.code === 2) ? 2 : 0;
  if (stacks.length > 1 || outcomes.length > 1) summarise(io, outcomes, summaryTo);
  return code;
}

/**
 * The read loop of `drift` and `list`: plans every stack of the source (`request`: how), prints
 * the diagnostics of a plan with errors (that stack failed) and hands every other plan to `fn`.
 * Returns {@link overStacks}'s exit code (its summary to stderr with `json`), or undefined when
 * there is no source (the reason printed).
 */
export async function overPlans(io: Io, o: StacksOptions & { json?: boolean }, request: PlanRequest | undefined, fn: (p: Plan) => StackOutcome): Promise<number | undefined> {
  const src = prepareSource(io, o);
  if (!src) return undefined;
  const stacks = stacksOf(io, src, o);
  const clients = new StackClients(io);
  try {
    return await overStacks(io, stacks, o.json ? 'err' : 'out', async (stack) => {
      const p = await planStack(io, clients, src, stack, request);
      if (!p.diagnostics.some((d) => d.severity === 'error')) return fn(p);
      printDiagnostics(io, p.diagnostics);
      return { stack: p.stack, code: 1, line: 'failed (see the errors above)' };
    });
  } finally {
    await clients.close();
  }
}

/** The combined summary of a run over several stacks: one line per stack. */
export function summarise(io: Io, outcomes: readonly StackOutcome[], to: 'out' | 'err' = 'out'): void {
  const print = to === 'out' ? io.out : io.err;
  const failed = outcomes.filter((x) => x.code === 1).length;
  const width = Math.max(0, ...outcomes.map((x) => x.stack.length));
  print('');
  print(`All stacks (${outcomes.length}): ${failed ? `${failed} failed` : 'none failed'}.`);
  for (const x of outcomes) print(`  ${x.stack.padEnd(width)}  ${x.line}`);
}


/** Reads and checks a saved plan file, or prints why it cannot (returns undefined). */
export function readPlanFile(io: Io, file: string): Plan | undefined {
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
  return lazy.planFile().loadPlan(json);
}

