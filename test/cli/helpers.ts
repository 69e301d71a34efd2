/**
 * Spawns `dqform` as a user would: a child `node` process running bin/dqform.js (through
 * test/cli/launch.js, which hides a possibly stale dist/ so the TypeScript sources run, as on a
 * fresh clone). Asynchronous, so an emulator started in the test process keeps serving.
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
export const LAUNCHER = path.join(__dirname, 'launch.js');

/** What one `dqform` run left behind. */
export interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** Options of one run: the environment is exactly `env` plus PATH/HOME (no inherited NO_COLOR, CI, DQ_*). */
export interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
  /** Written to stdin, which is then closed (stdin is a pipe, never a TTY). */
  input?: string;
  timeoutMs?: number;
}

/** A minimal environment: what a shell in CI would have before the job sets anything. */
export function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: os.tmpdir(), TMPDIR: os.tmpdir(), CHECKPOINT_DISABLE: '1' };
  // launch.js: run the built bundle instead of the sources
  if (process.env.DQ_TEST_BUNDLE === '1') env.DQ_TEST_BUNDLE = '1';
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) env[k] = v;
  return env;
}

/** Runs `dqform ...args`; resolves with the exit code and the whole stdout/stderr. */
export function dqform(args: readonly string[], opts: RunOptions = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [LAUNCHER, ...args], { cwd: opts.cwd ?? ROOT, env: baseEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
    // a child that exits before reading stdin closes the pipe: EPIPE is not the test's concern
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** Runs a shell command line under a pseudo-terminal (`script` from util-linux), or undefined when there is none. */
export function withPty(commandLine: string, opts: RunOptions = {}): Promise<Run> | undefined {
  const script = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
  if (!script) return undefined;
  return new Promise((resolve, reject) => {
    const child = spawn(script, ['-qec', commandLine, '/dev/null'], { cwd: opts.cwd ?? ROOT, env: baseEnv(opts.env), stdio: ['pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 25_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, out, err });
    });
    // a child that exits before reading stdin closes the pipe: EPIPE is not the test's concern
    child.stdin.on('error', () => undefined);
    child.stdin.end(opts.input ?? '');
  });
}

/** The shell-quoted command line that runs dqform (for {@link withPty}). */
export function dqformCommandLine(args: readonly string[]): string {
  const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
  return [process.execPath, LAUNCHER, ...args].map(q).join(' ');
}

/** A JavaScript stack frame line (`    at fn (file:line:col)`), which a user must never see. */
export const STACK_FRAME = /^\s{4,}at .+[(:]\d+/m;
/** Any ANSI escape sequence. */
export const ANSI = /\u001b\[/;

/** A temp workspace with `cdktf.out/stacks/<ns>/cdk.tf.json` files written by hand (see test/e2e/lifecycle.test.ts). */
export class Workspace {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-cli-'));

  /** Writes the stack `ns` (namespace = stack name) with these `resource` blocks and extra top-level keys. */
  stack(ns: string, resources: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
    const stackDir = path.join(this.dir, 'cdktf.out', 'stacks', ns);
    fs.mkdirSync(stackDir, { recursive: true });
    const file = path.join(stackDir, 'cdk.tf.json');
    fs.writeFileSync(file, JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: resources, ...extra }, null, 2));
    return file;
  }

  /** Writes raw text as a stack's cdk.tf.json (for malformed input). */
  rawStack(ns: string, text: string): string {
    const stackDir = path.join(this.dir, 'cdktf.out', 'stacks', ns);
    fs.mkdirSync(stackDir, { recursive: true });
    const file = path.join(stackDir, 'cdk.tf.json');
    fs.writeFileSync(file, text);
    return file;
  }

  path(...p: string[]): string {
    return path.join(this.dir, ...p);
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

/** Workspaces made by a suite, removed together in its `afterAll`. */
export class Workspaces {
  private readonly made: Workspace[] = [];

  /** A new workspace, removed by {@link removeAll}. */
  make(): Workspace {
    const w = new Workspace();
    this.made.push(w);
    return w;
  }

  removeAll(): void {
    for (const w of this.made.splice(0)) w.remove();
  }
}

/** An alert resource body in Terraform JSON (snake_case), as synth writes it. */
export function alert(name: string, resolverQl = 'with_type("table")') {
  return { name, issue_lifecycle: { trigger: { resolver_ql: resolverQl }, targets: [{ slack: { channel: '#dq' } }], settings: { severities: [2] } } };
}

/** A SQL test resource body in Terraform JSON. */
export function sqlTest(name: string) {
  return {
    name,
    platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } },
    recurrence_rule: 'FREQ=DAILY',
    sql_expression: 'select * from mart.fct_orders where order_id is null',
  };
}
