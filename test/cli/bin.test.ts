/**
 * bin/dqform.js chooses what to run: the bundle (dist/bundle), else the compiled dist/, in an installed package, the sources
 * (through tsx) in a checkout without a build, and the sources again, with a note, in a
 * checkout whose dist/ is older than its sources (a build once, then a pull, must not run old
 * code without a word). Checked on a throw-away layout with stand-in entry points.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
let dir: string;

function layout(opts: { dist: boolean; src: boolean; bundle?: boolean }): void {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-bin-'));
  fs.mkdirSync(path.join(dir, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin', 'dqform.js'), path.join(dir, 'bin', 'dqform.js'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
  if (opts.dist) {
    fs.mkdirSync(path.join(dir, 'dist', 'src', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'src', 'cli', 'main.js'), "exports.main = async () => { console.log('compiled'); return 0; };\n");
  }
  if (opts.bundle) {
    fs.mkdirSync(path.join(dir, 'dist', 'bundle'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'dist', 'bundle', 'dqform.js'), "exports.main = async () => { console.log('bundle'); return 0; };\n");
  }
  if (opts.src) {
    fs.mkdirSync(path.join(dir, 'src', 'cli'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'src', 'cli', 'main.ts'), "export async function main(): Promise<number> { console.log('sources'); return 0; }\n");
  }
}
function age(rel: string, secondsAgo: number): void {
  const t = new Date(Date.now() - secondsAgo * 1000);
  fs.utimesSync(path.join(dir, rel), t, t);
}
function run(): { out: string; err: string; code: number | null } {
  const r = spawnSync(process.execPath, [path.join(dir, 'bin', 'dqform.js'), '--version'], { encoding: 'utf8', timeout: 60_000 });
  return { out: r.stdout, err: r.stderr, code: r.status };
}
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('an installed package (dist/ only): runs dist/', () => {
  layout({ dist: true, src: false });
  expect(run()).toMatchObject({ out: 'compiled\n', err: '', code: 0 });
});

it('a checkout with a build newer than its sources: runs dist/, silently', () => {
  layout({ dist: true, src: true });
  age('src/cli/main.ts', 120);
  expect(run()).toMatchObject({ out: 'compiled\n', err: '', code: 0 });
});

it('a checkout whose dist/ is older than a source file: runs the sources and says why', () => {
  layout({ dist: true, src: true });
  age('dist/src/cli/main.js', 120);
  const r = run();
  expect(r.out).toBe('sources\n');
  expect(r.err).toMatch(/dist\/ is older than the sources in this checkout: running the sources \(npm run build refreshes dist\/\)/);
  expect(r.code).toBe(0);
});

it('a checkout without a build: runs the sources, silently', () => {
  layout({ dist: false, src: true });
  expect(run()).toMatchObject({ out: 'sources\n', err: '', code: 0 });
});

it('an installed package with the bundle: runs the bundle, not the compiled tree', () => {
  layout({ dist: true, src: false, bundle: true });
  expect(run()).toMatchObject({ out: 'bundle\n', err: '', code: 0 });
});

it('a checkout whose bundle is older than a source file: runs the sources and says why', () => {
  layout({ dist: true, src: true, bundle: true });
  age('dist/bundle/dqform.js', 120);
  const r = run();
  expect(r.out).toBe('sources\n');
  expect(r.err).toMatch(/dist\/ is older than the sources/);
});
