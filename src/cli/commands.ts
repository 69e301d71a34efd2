/**
 * The commands behind `dqform` (main.ts parses the arguments with commander and calls these
 * with typed options). Each returns the exit code: 0 ok / no changes, 2 changes (plan
 * --detailed-exitcode, drift), 1 error. User mistakes print diagnostics (what, where, what to
 * do) and return 1; bugs throw.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { PlatformClient, redact } from '../client';
import type { Diagnostic, Plan } from '../../schemas/plan';
import { apply, loadPlan, type ApplyResult } from '../engine/applier';
import { loadSynthOutput } from '../engine/manifest';
import { hasChanges } from '../engine/planner';
import { plan as makePlan } from '../engine/reconcile';
import { resolveManifest } from '../engine/resolve';
import { renderJson, renderMarkdown, renderText } from './render';

// Loaded on first use (a plan from cdktf.out needs neither the YAML parser nor the importer:
// ~40 ms of module loading saved per run). require, not import(): bin/dqform.js runs the
// sources through tsx's CommonJS hook.
/* eslint-disable @typescript-eslint/no-require-imports */
const yamlFrontEnd = () => require('../engine/yaml') as typeof import('../engine/yaml');
export const importer = () => require('./import') as typeof import('./import');
/* eslint-enable @typescript-eslint/no-require-imports */

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

/** A mistake in the command line: printed with a pointer to the help, exit 1. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point at (`plan`), or undefined for the main help. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Where the desired state comes from (validate, plan, apply, drift). */
export interface SourceOptions {
  /** Synth output directory (default cdktf.out). */
  dir?: string;
  /** A YAML workspace file. */
  file?: string;
  stack?: string;
}

/** Output options of commands that print a plan. */
export interface RenderFlags {
  /** false with --no-color. */
  color?: boolean;
}

export type PlanFormat = 'text' | 'markdown' | 'json';

export interface SynthOptions {
  app?: string;
  out?: string;
}
export type ValidateOptions = SourceOptions;
export interface PlanOptions extends SourceOptions, RenderFlags {
  out?: string;
  format?: PlanFormat;
  json?: boolean;
  detailedExitcode?: boolean;
}
export interface ApplyOptions extends SourceOptions, RenderFlags {
  autoApprove?: boolean;
  maxDeletes?: number;
}
export interface DriftOptions extends SourceOptions, RenderFlags {
  json?: boolean;
  /** Accepted as in plan; drift exits 2 on drift either way. */
  detailedExitcode?: boolean;
}
export interface ImportOptions {
  namespace?: string;
  out?: string;
  format?: string;
  adopt?: boolean;
  constructsModule?: string;
  stack?: string;
}

export function printDiagnostics(io: Io, diags: readonly Diagnostic[]): void {
  for (const d of diags) {
    io.err(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`);
    if (d.source) io.err(`  at ${d.source}`);
    if (d.detail) io.err(`  ${d.detail}`);
    if (d.hint) io.err(`  ${d.hint}`);
  }
}

export function client(io: Io): PlatformClient {
  return PlatformClient.fromEnv(io.env);
}

/** Colour on a terminal, unless --no-color or NO_COLOR (non-empty). */
export function useColor(io: Io, flags: RenderFlags): boolean {
  return io.isTty && flags.color !== false && !('NO_COLOR' in io.env && io.env.NO_COLOR !== '');
}

function loadManifest(io: Io, o: SourceOptions) {
  // A YAML workspace: --file, or dqform.yaml in the cwd when there is no synth output.
  if (o.file) return yamlFrontEnd().loadYamlWorkspace(path.resolve(io.cwd, o.file), o.stack, { cwd: io.cwd });
  if (!o.dir && !fs.existsSync(path.join(io.cwd, 'cdktf.out'))) {
    const { loadYamlWorkspace, YAML_WORKSPACE_FILE } = yamlFrontEnd();
    const yaml = path.join(io.cwd, YAML_WORKSPACE_FILE);
    if (fs.existsSync(yaml)) return loadYamlWorkspace(yaml, o.stack, { cwd: io.cwd });
  }
  const dir = path.resolve(io.cwd, o.dir ?? 'cdktf.out');
  return loadSynthOutput(dir, o.stack);
}

export async function cmdSynth(io: Io, o: SynthOptions): Promise<number> {
  let app = o.app;
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
  const out = path.resolve(io.cwd, o.out ?? 'cdktf.out');
  const r = spawnSync(app, { cwd: io.cwd, shell: true, encoding: 'utf8', env: { ...io.env, CDKTF_OUTDIR: out, CHECKPOINT_DISABLE: '1' } });
  if (r.stdout) io.out(r.stdout.trimEnd());
  if (r.status !== 0) {
    io.err(`Error: the app failed (${app}), exit ${r.status}:\n${redact(r.stderr ?? '').trimEnd()}`);
    return 1;
  }
  io.out(`Synthesised to ${path.relative(io.cwd, out).startsWith('..') ? out : path.relative(io.cwd, out) || '.'}`);
  return 0;
}

export async function cmdValidate(io: Io, o: ValidateOptions): Promise<number> {
  const m = loadManifest(io, o);
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

async function planFromCode(io: Io, o: SourceOptions, c: PlatformClient): Promise<Plan> {
  const m = loadManifest(io, o);
  return makePlan(c, m, { onProgress: (l) => io.err(l) });
}

export async function cmdPlan(io: Io, o: PlanOptions): Promise<number> {
  const format: PlanFormat = o.json ? 'json' : (o.format ?? 'text');
  const c = client(io);
  try {
    const p = await planFromCode(io, o, c);
    const failed = p.diagnostics.some((d) => d.severity === 'error');
    // Errors go to stderr, where CI logs show them; text plans with errors print nothing else.
    if (failed) printDiagnostics(io, p.diagnostics);
    if (format === 'json') io.out(renderJson(p).trimEnd());
    else if (format === 'markdown') io.out(renderMarkdown(p).trimEnd());
    else if (!failed) io.out(renderText(p, { color: useColor(io, o) }).trimEnd());
    if (o.out) {
      fs.writeFileSync(path.resolve(io.cwd, o.out), renderJson(p));
      io.err(`Saved the plan to ${o.out}. Apply exactly it with: dqform apply ${o.out}`);
    }
    if (failed) return 1;
    return o.detailedExitcode && hasChanges(p) ? 2 : 0;
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

/** Reads and checks a saved plan file, or prints why it cannot (returns undefined). */
function readPlanFile(io: Io, file: string): Plan | undefined {
  let json: unknown;
  try {
    json = JSON.parse(fs.readFileSync(path.resolve(io.cwd, file), 'utf8'));
  } catch (e) {
    io.err(`Error: cannot read plan file ${file}: ${(e as Error).message}\n  Create it with: dqform plan --out ${file}`);
    return undefined;
  }
  return loadPlan(json);
}

export async function cmdApply(io: Io, file: string | undefined, o: ApplyOptions): Promise<number> {
  const c = client(io);
  try {
    let p: Plan;
    if (file) {
      const saved = readPlanFile(io, file);
      if (!saved) return 1;
      p = saved;
    } else {
      if (!io.isTty && !o.autoApprove) {
        io.err('Error: apply needs confirmation, and there is no terminal to ask on.\n  Apply a reviewed plan file (dqform plan --out plan.json; dqform apply plan.json), or pass --auto-approve.');
        return 1;
      }
      p = await planFromCode(io, o, c);
      if (p.diagnostics.some((d) => d.severity === 'error')) {
        printDiagnostics(io, p.diagnostics);
        return 1;
      }
      io.out(renderText(p, { color: useColor(io, o) }).trimEnd());
      if (!hasChanges(p)) return 0;
      if (!o.autoApprove) {
        const ok = io.confirm ? await io.confirm('Apply these changes? Only "yes" is accepted: ') : false;
        if (!ok) {
          io.err('Apply cancelled.');
          return 1;
        }
      }
    }
    const r = await apply(c, p, { maxDeletes: o.maxDeletes, onProgress: (l) => io.err(l) });
    return report(io, r);
  } finally {
    await c.close();
  }
}

export async function cmdDrift(io: Io, o: DriftOptions): Promise<number> {
  const c = client(io);
  try {
    const p = await planFromCode(io, o, c);
    if (p.diagnostics.some((d) => d.severity === 'error')) {
      printDiagnostics(io, p.diagnostics);
      return 1;
    }
    const drifted = hasChanges(p);
    if (o.json) io.out(renderJson(p).trimEnd());
    else if (!drifted) io.out('No drift: live state matches the code.');
    else {
      io.out(renderText(p, { color: useColor(io, o) }).trimEnd());
      io.out('Drift detected.');
    }
    return drifted ? 2 : 0;
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
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runEmulatorCli } = require('../emulator') as typeof import('../emulator');
  return runEmulatorCli(argv);
}
