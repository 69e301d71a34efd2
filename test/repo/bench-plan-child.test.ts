/**
 * The bench's plan child (bench/children/plan.ts, issue 27) runs `dqform plan` as a user's
 * process does: through bin/dqform.js and the bundle when the build has the installed layout,
 * else the compiled tree's main (an older build); either way it counts the CLI's output and
 * prints one JSON line. A cold plan row empties the resolution cache and keeps the V8 code cache.
 * Fake CLIs stand in for the build (no emulator: the child's plumbing is what is tested here).
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { cliOf, emptyResolutionCache, OutputCount } from '../../bench/children/plan';

const ROOT = path.resolve(__dirname, '..', '..');
let tmp: string;
let child: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-plan-child-'));
  // as bench/ab.ts runs it: transpiled, node's built-ins only
  child = path.join(tmp, 'plan-child.js');
  const src = fs.readFileSync(path.join(ROOT, 'bench', 'children', 'plan.ts'), 'utf8');
  fs.writeFileSync(child, ts.transpileModule(src, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText);
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function write(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

/** An installed layout: the real bin, a bundle that prints its argv and what started V8, exit 2. */
function bundleLayout(dir: string): void {
  write(path.join(dir, 'bin', 'dqform.js'), fs.readFileSync(path.join(ROOT, 'bin', 'dqform.js'), 'utf8'));
  write(path.join(dir, 'dist', 'src', 'cli', 'v8-start.js'), "exports.startV8 = (files) => { globalThis.__started = files.map((f) => require('path').basename(f)); };\n");
  write(
    path.join(dir, 'dist', 'bundle', 'dqform.js'),
    "exports.main = async (argv) => { process.stdout.write('argv ' + argv.join(' ') + '\\n'); process.stdout.write('started ' + globalThis.__started.join(',') + '\\n\\n'); process.stdout.write('Plan: 1 to add.\\n'); return 2; };\n",
  );
}

function runChild(cliRoot: string, args: string[]): { status: number | null; stdout: string; line: Record<string, unknown> } {
  const r = spawnSync(process.execPath, [child, ...args], { env: { ...process.env, DQFORM_BENCH_CLI: cliRoot }, encoding: 'utf8', cwd: tmp });
  const lines = r.stdout.split('\n').filter(Boolean);
  return { status: r.status, stdout: r.stdout, line: JSON.parse(lines[lines.length - 1] ?? '{}') as Record<string, unknown> };
}

describe('the bench plan child', () => {
  it('runs an installed layout through bin/dqform.js: V8 started on the bundle, its output counted and not printed', () => {
    const dir = path.join(tmp, 'installed');
    bundleLayout(dir);
    expect(cliOf(dir)).toEqual({ mode: 'bundle', bin: path.join(dir, 'bin', 'dqform.js') });
    const r = runChild(dir, ['/stacks', '/plan.json']);
    // one line on stdout: the JSON, nothing the CLI printed
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    const printed = 'argv plan --dir /stacks --detailed-exitcode --out /plan.json\nstarted dqform.js,dqform-rest.js,dqform-grpc.js\n\nPlan: 1 to add.\n';
    expect(r.line).toMatchObject({ code: 2, cli: 'bundle', outBytes: printed.length, summary: 'Plan: 1 to add.' });
    expect(r.line.inProcessMs).toBeGreaterThan(0);
    expect(r.status).toBe(2);
  });

  it('falls back to the compiled tree\'s main when the build has no bundle (an older build), and says so', () => {
    const dir = path.join(tmp, 'compiled');
    write(path.join(dir, 'src', 'cli', 'main.js'), "exports.main = async (argv, io) => { io.out('argv ' + argv.join(' ')); io.err('not counted'); io.out('No changes.'); return 0; };\n");
    // a bin without a bundle is not the installed layout
    write(path.join(dir, 'bin', 'dqform.js'), '');
    expect(cliOf(dir)).toEqual({ mode: 'compiled', main: path.join(dir, 'src', 'cli', 'main.js') });
    const r = runChild(dir, ['/stacks']);
    expect(r.stdout.trim().split('\n')).toHaveLength(1);
    expect(r.line).toMatchObject({ code: 0, cli: 'compiled', outBytes: 'argv plan --dir /stacks --detailed-exitcode\nNo changes.\n'.length, summary: 'No changes.' });
  });

  it('a cold row empties the resolution cache and keeps the V8 code cache', () => {
    const dir = path.join(tmp, 'cache');
    write(path.join(dir, 'ab12.entry'), 'x');
    write(path.join(dir, 'ab12.entry.1.tmp'), 'x');
    write(path.join(dir, 'v8', 'dqform-0badf00d.bin'), 'x');
    emptyResolutionCache(dir);
    expect(fs.readdirSync(dir)).toEqual(['v8']);
    expect(fs.readdirSync(path.join(dir, 'v8'))).toEqual(['dqform-0badf00d.bin']);
    expect(() => emptyResolutionCache(path.join(tmp, 'missing'))).not.toThrow();
  });

  it('counts bytes and keeps the last non-blank line, across chunks', () => {
    const c = new OutputCount();
    c.add('a\nPlan: 3 to change.\n');
    c.add('\n  \n');
    expect(c).toMatchObject({ bytes: 25, lastLine: 'Plan: 3 to change.' });
    c.add('x');
    expect(c.lastLine).toBe('x');
  });
});
