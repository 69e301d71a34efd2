/**
 * The README tutorial, word for word, as a new user runs it (issue 26): in a temporary directory,
 * with this repository packed by `npm pack` (its prepack builds dist/), every shell block of
 * "## Tutorial" runs in order in one bash (so `cd shop` and `export` carry over, as in a
 * terminal), the ```ts block is written to the file its first line names, and the commands
 * shown must all succeed: install, write the files, type-check, emulator, synth, validate,
 * plan, apply, plan again (no changes).
 *
 * What differs from the README's text, and only that:
 * - `/path/to/dqform-<version>.tgz` is the tarball this test packed;
 * - `npm install` gets `--prefer-offline --no-audit --no-fund`: there is no network here, so
 *   packages come from the local npm cache. (`--offline` refuses: npm 11 asks for the
 *   abbreviated registry metadata, and the cache holds full metadata documents, which
 *   `--prefer-offline` accepts.) No package is linked from the repository's node_modules;
 * - the emulator (the tutorial's "second terminal") runs in the background with `--port 0`, and
 *   the ports 8787 and 8788 in the `export` line become the ports it printed;
 * - the environment is a clean shell's (PATH, HOME, TMPDIR), without this process's DQ_* and CI.
 *
 * @gateway-exempt runs the packed CLI and its emulator as child processes, as the tutorial does, with the emulator's default encoding
 */
import { packRepository } from '../constructs/pack-once';
import { tutorialSteps, type Step } from './tutorial-steps';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

jest.setTimeout(15 * 60_000);

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** The bash script that runs the steps in `work`, with the substitutions the docblock lists. */
function script(steps: Step[], work: string, tarball: string): string {
  const out = ['set -euo pipefail', `cd ${q(work)}`];
  for (const step of steps) {
    if (step.kind === 'file') {
      out.push(`printf '=== write %s\\n' ${q(step.name)}`, `cat > ${q(step.name)} <<'DQFORM_TUTORIAL_EOF'`, step.text.trimEnd(), 'DQFORM_TUTORIAL_EOF');
      continue;
    }
    for (const line of step.lines) {
      out.push(`printf '=== %s\\n' ${q(line)}`);
      if (/\bdqform emulator\b/.test(line)) {
        const cmd = line.replace(/\s#.*$/, '').replace(/--port \d+/, '--port 0');
        out.push(
          `${cmd} > ${q(path.join(work, 'emulator.log'))} 2>&1 &`,
          `for i in $(seq 1 1200); do grep -q 'DQ_GRPC_ENDPOINT=' ${q(path.join(work, 'emulator.log'))} && break; sleep 0.1; done`,
          `DQ_TUTORIAL_REST=$(sed -n 's/.*DQ_BASE_URL=http:\\/\\/\\([^ ]*\\).*/\\1/p' ${q(path.join(work, 'emulator.log'))})`,
          `DQ_TUTORIAL_GRPC=$(sed -n 's/.*DQ_GRPC_ENDPOINT=\\([^ ]*\\).*/\\1/p' ${q(path.join(work, 'emulator.log'))} | head -1)`,
          'test -n "$DQ_TUTORIAL_REST" && test -n "$DQ_TUTORIAL_GRPC"',
        );
        continue;
      }
      out.push(
        line
          .replace(`/path/to/dqform-${VERSION}.tgz`, q(tarball))
          .replace(/\bnpm install\b/g, 'npm install --prefer-offline --no-audit --no-fund')
          .replace('127.0.0.1:8787', '$DQ_TUTORIAL_REST')
          .replace('127.0.0.1:8788', '$DQ_TUTORIAL_GRPC'),
      );
    }
  }
  return `${out.join('\n')}\n`;
}

/** Runs `text` in bash in its own process group; the group (the background emulator too) is ended after. */
function runBash(text: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', text], { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    child.on('error', reject);
    child.on('close', (code) => {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // the group has ended already
      }
      resolve({ code, output });
    });
  });
}

describe('the README tutorial, word for word', () => {
  const steps = tutorialSteps(README);
  const commands = steps.flatMap((s) => (s.kind === 'sh' ? s.lines : []));
  let tmp: string;
  let result: { code: number | null; output: string };

  beforeAll(async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-tutorial-e2e-'));
    const { tarball } = packRepository(tmp);
    if (path.basename(tarball) !== `dqform-${VERSION}.tgz`) throw new Error(`npm pack wrote ${tarball}, not dqform-${VERSION}.tgz`);
    const work = path.join(tmp, 'work');
    fs.mkdirSync(work);
    const env = { PATH: process.env.PATH, HOME: process.env.HOME, TMPDIR: os.tmpdir(), LANG: 'C.UTF-8', npm_config_update_notifier: 'false' };
    result = await runBash(script(steps, work, tarball), env);
  });

  afterAll(() => {
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('the tutorial is what a new user needs: install before any npx dqform, exact versions, a type check, a .gitignore for cdktf.out and plans', () => {
    const firstInstall = commands.findIndex((l) => /npm install .*dqform-.*\.tgz/.test(l));
    const firstDqform = commands.findIndex((l) => /\bnpx dqform\b/.test(l));
    expect(firstInstall).toBeGreaterThanOrEqual(0);
    expect(firstDqform).toBeGreaterThan(firstInstall);
    expect(commands.filter((l) => /^npm install /.test(l)).every((l) => l.includes('--save-exact'))).toBe(true);
    expect(commands.filter((l) => /^npm install /.test(l)).join(' ')).not.toMatch(/@[\^~]/);
    expect(commands).toContainEqual(expect.stringMatching(/^npx tsc --noEmit\b/));
    expect(commands).toContainEqual(expect.stringMatching(/> \.gitignore$/));
    expect(commands).toContainEqual(expect.stringMatching(/^npx dqform emulator --port 8787\b/));
    expect(commands).toContainEqual(expect.stringMatching(/^export DQ_BASE_URL=http:\/\/127\.0\.0\.1:8787 DQ_GRPC_ENDPOINT=127\.0\.0\.1:8788 /));
  });

  it('every command runs and succeeds, in order', () => {
    expect({ code: result.code, tail: result.code === 0 ? '' : result.output.slice(-6000) }).toEqual({ code: 0, tail: '' });
    const ran = [...result.output.matchAll(/^=== (?!write )(.*)$/gm)].map((m) => m[1]);
    expect(ran).toEqual(commands);
  });

  it('the project it leaves pins exact versions and ignores cdktf.out and plan files', () => {
    const shop = path.join(tmp, 'work', 'shop');
    const pkg = JSON.parse(fs.readFileSync(path.join(shop, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const deps = { ...pkg.dependencies, ...pkg.devDependencies };
    expect(Object.keys(deps).sort()).toEqual(['cdktf', 'constructs', 'dqform', 'tsx', 'typescript']);
    expect(Object.entries(deps).filter(([, v]) => /^[\^~]/.test(v))).toEqual([]);
    const ignored = fs.readFileSync(path.join(shop, '.gitignore'), 'utf8').split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['node_modules/', 'cdktf.out/']));
    const planPattern = ignored.find((l) => l.startsWith('plan'));
    const glob = (g: string) => new RegExp('^' + g.replace(/[.+^$()|[\]\\{}]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]') + '$');
    expect(['plan.json', 'plan-shop.json'].filter((f) => planPattern !== undefined && glob(planPattern).test(f))).toEqual(['plan.json', 'plan-shop.json']);
    expect(fs.existsSync(path.join(shop, 'cdktf.out', 'stacks', 'shop', 'cdk.tf.json'))).toBe(true);
  });

  it('synth, validate, plan, apply and the second plan print what the tutorial promises', () => {
    const after = (command: RegExp) => {
      const parts = result.output.split(/^=== /m);
      const i = parts.findIndex((p) => command.test(p.split('\n')[0]));
      expect(i).toBeGreaterThanOrEqual(0);
      return parts[i];
    };
    expect(after(/^npx dqform validate/)).toMatch(/^Stack shop \(namespace "shop"\): 3 resource\(s\), valid\.$/m);
    expect(after(/^npx dqform plan --out plan\.json/)).toMatch(/^Plan: 3 to add, 0 to change, 0 to destroy\.$/m);
    expect(after(/^npx dqform apply plan\.json/)).toMatch(/^Apply complete: 3 applied, 0 failed, 0 not attempted\./m);
    const again = after(/^npx dqform plan --detailed-exitcode/);
    expect(again).toMatch(/^No changes\./m);
    expect(again).not.toMatch(/^Plan: /m); // no zero summary after "No changes." (issue 26)
  });
});
