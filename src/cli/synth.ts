/**
 * Running the CDKTF app (`dqform synth` only: plan, apply, drift, destroy and validate never run
 * it, and stop when the app changed since `cdktf.out` was written) and turning its failures into
 * diagnostics a user can act on.
 *
 * "The app's files", whose modification times decide whether `cdktf.out` is stale, are: every
 * file under the directory holding `cdktf.json` (the app directory, searched recursively) whose
 * name ends in .ts, .tsx, .mts, .cts, .js, .jsx, .mjs or .cjs, plus `cdktf.json`, `package.json`,
 * the lockfiles (`package-lock.json`, `npm-shrinkwrap.json`, `yarn.lock`, `pnpm-lock.yaml`) and
 * `tsconfig*.json`, skipping `node_modules`, the synth output directory and every entry whose name
 * starts with a dot (.git, .gen). Data files the app reads (JSON, YAML, CSV) and code outside the
 * app directory are not looked at: after changing only those, run `dqform synth`. Plan files
 * (`plan --out plan.json`) written into the app directory never make the output stale.
 *
 * The output is stale when the newest app file is newer than the oldest
 * `<out>/stacks/<stack>/cdk.tf.json`, or when there is none.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { redact, REDACTED } from '../client/redact';
import { listedStacks } from '../engine/listed-stacks';
import { credentialVariables, isCredentialVariable } from './credential-variables';
import { DqformError } from '../../schemas/tools/errors';

/** A directory's CDKTF app configuration (`cdktf.json`). */
export interface CdktfApp {
  /** The app directory (where cdktf.json is). */
  dir: string;
  /** The command that runs the app; undefined when cdktf.json has none. */
  app: string | undefined;
  /** The synth output directory, absolute (cdktf.json "output", default cdktf.out). */
  output: string;
}

/** Reads `<dir>/cdktf.json`; undefined when there is none. @throws Error naming the file when it is not JSON. */
export function readCdktfApp(dir: string): CdktfApp | undefined {
  const file = path.join(dir, 'cdktf.json');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  let cfg: { app?: unknown; output?: unknown };
  try {
    cfg = JSON.parse(text) as typeof cfg;
  } catch (e) {
    throw new SynthSetupError(`cdktf.json is not valid JSON: ${(e as Error).message}`, 'Fix cdktf.json; it names the app ("app": "npx tsx main.ts").');
  }
  const app = typeof cfg.app === 'string' && cfg.app.trim() !== '' ? cfg.app : undefined;
  const output = path.resolve(dir, typeof cfg.output === 'string' && cfg.output !== '' ? cfg.output : 'cdktf.out');
  return { dir, app, output };
}

/** A problem with the app's setup (not with the app's code). */
export class SynthSetupError extends DqformError {
  static override readonly code: string = 'synth-setup';
  constructor(
    message: string,
    override readonly hint: string,
  ) {
    super(message);
    this.name = 'SynthSetupError';
  }
}

const SOURCE_EXTENSIONS = new Set(['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs']);
const CONFIG_FILES = new Set(['cdktf.json', 'package.json', 'package-lock.json', 'npm-shrinkwrap.json', 'yarn.lock', 'pnpm-lock.yaml']);
const isAppFile = (name: string) => SOURCE_EXTENSIONS.has(path.extname(name)) || CONFIG_FILES.has(name) || /^tsconfig(\..+)?\.json$/.test(name);

/** The most recently modified app file (see the module comment for which files count). */
export function newestAppFile(appDir: string, outDir: string): { file: string; mtimeMs: number } | undefined {
  let best: { file: string; mtimeMs: number } | undefined;
  const skip = path.resolve(outDir);
  const walk = (dir: string): void => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (e.name.startsWith('.') || e.name === 'node_modules') continue;
      const p = path.join(dir, e.name);
      if (e.isDirectory()) {
        if (p !== skip) walk(p);
      } else if (e.isFile() && isAppFile(e.name)) {
        const mtimeMs = fs.statSync(p).mtimeMs;
        if (!best || mtimeMs > best.mtimeMs) best = { file: p, mtimeMs };
      }
    }
  };
  walk(appDir);
  return best;
}

/**
 * The stacks synthesised in `outDir` (names of `stacks/<name>/cdk.tf.json` that cdktf's
 * manifest.json lists, when there is one: see {@link listedStacks}), sorted.
 */
export function synthesisedStacks(outDir: string): string[] {
  return listedStacks(outDir).stacks.filter((n) => fs.existsSync(path.join(outDir, 'stacks', n, 'cdk.tf.json')));
}

/**
 * After a synth: removes `stacks/<name>` directories that manifest.json does not list (stacks
 * the app no longer has), so that no leftover is mistaken for a stack. Returns their names.
 */
export function removeLeftoverStacks(outDir: string): string[] {
  const { leftovers } = listedStacks(outDir);
  for (const n of leftovers) fs.rmSync(path.join(outDir, 'stacks', n), { recursive: true, force: true });
  return leftovers;
}

/** When `outDir` was synthesised: the oldest stack file's mtime, or undefined when there is none. */
export function synthesisedAt(outDir: string): number | undefined {
  const times = synthesisedStacks(outDir).map((s) => fs.statSync(path.join(outDir, 'stacks', s, 'cdk.tf.json')).mtimeMs);
  return times.length ? Math.min(...times) : undefined;
}

/** Whether `outDir` reflects the app: `why` says what is newer (or missing) when it does not. */
export function staleness(app: CdktfApp, outDir: string, cwd: string): { stale: false } | { stale: true; missing: boolean; why: string } {
  const at = synthesisedAt(outDir);
  const shown = (p: string) => path.relative(cwd, p) || '.';
  if (at === undefined) return { stale: true, missing: true, why: `there is no synth output in ${shown(outDir)}` };
  const newest = newestAppFile(app.dir, outDir);
  if (newest && newest.mtimeMs > at) return { stale: true, missing: false, why: `${shown(newest.file)} is newer than ${shown(outDir)}` };
  return { stale: false };
}

/** Environment variables that never reach the app: credentials stay with dqform. */
const WITHHELD = ['DQ_CLIENT_ID', 'DQ_CLIENT_SECRET'];

/**
 * The variables withheld from the app: DQ_CLIENT_ID, DQ_CLIENT_SECRET, every `DQ_*CLIENT_ID` /
 * `DQ_*CLIENT_SECRET` (the names docs/environments.md suggests for a stack's own credentials),
 * and the variables the stacks already synthesised in `outDir` name in `credentialsFrom`.
 */
export function withheldVariables(env: NodeJS.ProcessEnv, outDir?: string): string[] {
  const names = new Set([...WITHHELD, ...credentialVariables(env)]);
  for (const k of Object.keys(env)) if (/^DQ_[A-Z0-9_]*CLIENT_(ID|SECRET)$/.test(k)) names.add(k);
  if (outDir) {
    let stacks: string[] = [];
    try {
      stacks = fs.readdirSync(path.join(outDir, 'stacks'));
    } catch {
      stacks = [];
    }
    for (const st of stacks) {
      try {
        const doc = JSON.parse(fs.readFileSync(path.join(outDir, 'stacks', st, 'cdk.tf.json'), 'utf8')) as { provider?: { dq?: { credentials_from?: Record<string, unknown> }[] } };
        for (const v of Object.values(doc.provider?.dq?.[0]?.credentials_from ?? {})) if (typeof v === 'string' && /^[A-Z_][A-Z0-9_]*$/.test(v) && !['PATH', 'HOME'].includes(v)) names.add(v);
      } catch {
        // not readable: nothing named there
      }
    }
  }
  return [...names].sort();
}

/**
 * The synthesised stacks whose `credentials_from.client_secret` names a variable dqform would not
 * know for a secret ({@link isCredentialVariable}: `*_CLIENT_SECRET`), sorted. Such a variable is
 * not withheld from the app on a fresh checkout, not refused by a CI synth and not masked, so the
 * engine refuses it too (schemas/model/manifest.ts CredentialsFrom); synth says so at once.
 */
export function misnamedSecretStacks(outDir: string): string[] {
  const out: string[] = [];
  for (const st of synthesisedStacks(outDir)) {
    try {
      const doc = JSON.parse(fs.readFileSync(path.join(outDir, 'stacks', st, 'cdk.tf.json'), 'utf8')) as { provider?: { dq?: { credentials_from?: { client_secret?: unknown } }[] } };
      const v = doc.provider?.dq?.[0]?.credentials_from?.client_secret;
      if (typeof v === 'string' && !isCredentialVariable(v)) out.push(st);
    } catch {
      // not readable: plan says what is wrong with it
    }
  }
  return out.sort();
}

/** What running the app gave. */
export type SynthResult =
  | { ok: true }
  /** The app ran and failed; `lines` are what to tell the user. */
  | { ok: false; ran: true; lines: string[] }
  /** The app could not be started (command not found). */
  | { ok: false; ran: false; lines: string[] };

/**
 * A function that masks, in what the app prints, the values of the withheld variables (the app
 * may have found them elsewhere: a .env file, a CI variable under another name) and everything
 * {@link redact} masks. Values shorter than 4 characters are left alone (they would garble text).
 */
export function appOutputScrubber(env: NodeJS.ProcessEnv, withheld: readonly string[] = withheldVariables(env)): (text: string) => string {
  const values = withheld.map((k) => env[k]?.trim())
    .filter((v): v is string => !!v && v.length >= 4)
    .sort((a, b) => b.length - a.length);
  return (text) => redact(values.reduce((t, v) => t.split(v).join(REDACTED), text));
}

/**
 * Runs `app` in `cwd` with `CDKTF_OUTDIR=outDir`. The app's stdout goes to `onStdout`; a
 * failure's stderr becomes {@link synthFailureLines}. Credentials are not passed to the app,
 * and what the app prints is relayed with their values masked ({@link appOutputScrubber}).
 */
export function runApp(app: string, cwd: string, outDir: string, env: NodeJS.ProcessEnv, onStdout: (s: string) => void): SynthResult {
  const childEnv: NodeJS.ProcessEnv = { ...env, CDKTF_OUTDIR: outDir, CHECKPOINT_DISABLE: '1' };
  const withheld = withheldVariables(env, outDir);
  for (const k of withheld) delete childEnv[k];
  const scrub = appOutputScrubber(env, withheld);
  // loaded when an app is run (issue 15: validate of an up-to-date synth output runs none)
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const r = spawnSync(app, { cwd, shell: true, encoding: 'utf8', env: childEnv, maxBuffer: 64 * 1024 * 1024 });
  if (r.stdout && r.stdout.trim() !== '') onStdout(scrub(r.stdout.trimEnd()));
  if (r.status === 0) return { ok: true };
  const stderr = scrub(r.stderr ?? '');
  // 127: the shell found no such command.
  if (r.error || r.status === 127) return { ok: false, ran: false, lines: [`cannot run the app (${app}): ${r.error?.message ?? stderr.trim().split('\n').pop() ?? 'command not found'}`] };
  return { ok: false, ran: true, lines: synthFailureLines(app, r.status, stderr) };
}

/**
 * A failed synth as a user should see it. Construct validation errors (cdktf's "Validation
 * failed with the following errors") become one diagnostic each, naming the construct path and
 * the field, without cdktf's stack trace and its "skipValidation" advice (skipping validation
 * would only move the error to plan). Any other failure is the app's own error: its message and
 * the frames in the user's code, without frames inside node_modules or Node itself.
 */
export function synthFailureLines(app: string, status: number | null, stderr: string): string[] {
  const validation = /Validation failed with the following errors:\n([\s\S]*?)(?:\n\s*\n|\nIf you wish to ignore|$)/.exec(stderr);
  if (validation) {
    const found = validation[1]
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .map((l) => l.replace(/^\[[^\]]*\]\s*/, ''));
    const out = [`Error: the app's constructs are invalid: ${found.length} error(s); nothing was synthesised.`];
    for (const f of found) {
      const [what, fix] = f.split(/\. Fix: /, 2);
      out.push(`  ${what}`);
      if (fix) out.push(`    Fix: ${fix}`);
    }
    out.push('  Correct the constructs named above and run dqform synth again.');
    return out;
  }
  const kept = stderr
    .split('\n')
    .filter((l) => !/^\s+at .*(node_modules[\\/]|node:internal|\(node:)/.test(l) && !/^Node\.js v\d+/.test(l))
    .join('\n')
    .replace(/\n(\s*\n)+/g, '\n\n')
    .trim();
  return [`Error: the app failed (${app}), exit ${status}:`, ...(kept ? kept.split('\n').map((l) => `  ${l}`) : [])];
}
