/**
 * Every command shown in a shell block of README.md and docs/**\/*.md runs in a test (issue 26).
 * The inventory is read from the Markdown: each block is
 * - the README tutorial's, run word for word from the packed package by tutorial-e2e.test.ts
 *   (the same steps, tutorial-steps.ts);
 * - a block of a page in PAGES below: that page's commands run here, in the page's order, in one
 *   temporary directory set up as the page assumes (the README tutorial's app or YAML workspace,
 *   an in-process emulator on 127.0.0.1 port 0, the DQ_* variables for it), each through bash
 *   with `dqform` / `npx dqform` being the real CLI (test/cli/launch.js, the TypeScript sources);
 *   `cd` and `export` carry over from one command to the next, as in a terminal. Each exits 0,
 *   or the code its comment gives (`# exit 2: ...`); a ```console block's output lines must be
 *   in its command's output;
 * - or marked `<!-- not-run: reason -->` on the line before the fence (a command a user does not
 *   run here: the suite itself, a registry install), which must give a reason.
 * A new block anywhere else fails the test. A placeholder (`<id>`, `$VAR`) must be in the page's
 * table (its environment), or the test fails before running anything.
 *
 * @gateway-exempt runs the docs' commands against the emulator's default encoding; the gateway encoding of each command is covered by the CLI and lifecycle suites
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { main as dqformCli } from '../../src/cli/main';
import { LAUNCHER, baseEnv } from '../cli/helpers';
import { placeholders, shellBlocks, type DocCommand, type ShellBlock } from './doc-blocks';
import { tutorialSteps } from './tutorial-steps';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (f: string) => fs.readFileSync(path.join(ROOT, f), 'utf8');
const README = read('README.md');

jest.setTimeout(10 * 60_000);

const PAGES_READ = ['README.md', ...(fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => `docs/${f.split(path.sep).join('/')}`)].sort();
const BLOCKS: ShellBlock[] = PAGES_READ.flatMap((f) => shellBlocks(f, read(f)));

/** What one page's commands run with. */
interface Ctx {
  dir: string;
  emu: RunningEmulator;
}

/** How a page's commands are run: what the page assumes, and its placeholders. */
interface PageRun {
  /** Where the first command runs (default: `ctx.dir`, a new temporary directory). */
  cwd?: string;
  /** Makes in `ctx.dir` what the page assumes before its first command. */
  setup(ctx: Ctx): Promise<void> | void;
  /** The environment the page's reader has (its placeholders `$NAME` among them). */
  env(ctx: Ctx): Record<string, string>;
  /** Text of the page's commands replaced before they run (a real platform's URL by the emulator's). */
  replace?(ctx: Ctx): Record<string, string>;
  /** What the reader does between commands (an edit in the UI, in the app), keyed by the command it comes before. */
  before?: Record<string, (ctx: Ctx) => Promise<void> | void>;
  /** What the reader answers the command's question (it then runs on a terminal), keyed by command. */
  answers?: Record<string, string>;
}

const TUTORIAL_MAIN = (() => {
  const step = tutorialSteps(README).find((s) => s.kind === 'file' && s.name === 'main.ts');
  if (!step || step.kind !== 'file') throw new Error('README.md tutorial: no main.ts');
  return step.text;
})();
const README_YAML = (() => {
  const m = /^```yaml\n([\s\S]*?)^```$/m.exec(README);
  if (!m) throw new Error('README.md: no ```yaml block (the tutorial\'s workspace in YAML)');
  return m[1];
})();
const ADMIN = { DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
const emulatorEnv = (emu: RunningEmulator) => ({ DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint ?? '', ...ADMIN });

/** A project the user installed dqform, cdktf, constructs and tsx into (links to this repository's, dqform being its sources). */
function installDqform(dir: string): void {
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '.bin'), { recursive: true });
  for (const dep of ['cdktf', 'constructs', 'tsx']) fs.symlinkSync(path.join(ROOT, 'node_modules', dep), path.join(modules, dep), 'dir');
  fs.symlinkSync(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(modules, '.bin', 'tsx'));
  fs.mkdirSync(path.join(modules, 'dqform'));
  fs.writeFileSync(path.join(modules, 'dqform', 'package.json'), JSON.stringify({ name: 'dqform', main: 'index.js' }));
  fs.writeFileSync(path.join(modules, 'dqform', 'index.js'), `module.exports = require(${JSON.stringify(path.join(ROOT, 'src', 'index.ts'))});\n`);
}

/** The tutorial's app (stack and namespace `shop`), as a user's project. */
function tutorialProject(dir: string): void {
  installDqform(dir);
  fs.writeFileSync(path.join(dir, 'main.ts'), TUTORIAL_MAIN);
  fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts' }));
}

/** Runs the in-process CLI (setup steps that are not the page's own commands); throws unless it exits 0. */
async function cli(args: string[], cwd: string, env: Record<string, string>): Promise<void> {
  const lines: string[] = [];
  const code = await dqformCli(args, { out: (s) => lines.push(s), err: (s) => lines.push(s), env, cwd, isTty: false });
  if (code !== 0) throw new Error(`setup: dqform ${args.join(' ')} exited ${code}:\n${lines.join('\n')}`);
}

/** The owner `data_team` of namespace shop, renamed as in the UI (live now differs from the code). */
function renameOwnerInUi(emu: RunningEmulator): void {
  const owners = emu.app.store.workspace('demo').collection<{ id: string; title: string; etag?: string }>('owners');
  const team = owners.values().find((o) => o.title === 'Data team');
  if (!team) throw new Error('no owner "Data team" live');
  const { etag: _etag, ...rest } = team;
  owners.put(team.id, { ...rest, title: 'Data team (renamed in the UI)' });
}

const PAGES: Record<string, PageRun> = {
  // "Adding a kind": the files naming a kind, shown with its output, in this repository
  'docs/architecture.md': { cwd: ROOT, setup: () => undefined, env: () => ({}) },
  'docs/ci.md': {
    setup: ({ dir }) => tutorialProject(dir),
    env: ({ emu }) => emulatorEnv(emu),
    before: {
      'npx dqform drift --dir cdktf.out --stack shop': ({ emu }) => renameOwnerInUi(emu),
      // the YAML workspace of the last line: the README's dqform.yaml (same namespace)
      'npx dqform plan --file dqform.yaml --out plan-shop.json --format markdown > plan-shop.md': ({ dir }) => fs.writeFileSync(path.join(dir, 'dqform.yaml'), README_YAML),
    },
  },
  'docs/migrating.md': {
    // namespace shop is live (the README's workspace, applied from YAML elsewhere), beside the demo seed's UI-made objects
    setup: async ({ dir, emu }) => {
      installDqform(dir);
      const elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-docs-seed-'));
      try {
        fs.writeFileSync(path.join(elsewhere, 'dqform.yaml'), README_YAML);
        await cli(['apply', '--auto-approve'], elsewhere, emulatorEnv(emu));
      } finally {
        fs.rmSync(elsewhere, { recursive: true, force: true });
      }
    },
    env: ({ emu }) => emulatorEnv(emu),
  },
  'docs/environments.md': {
    // the page's app, both stacks on the emulator: prod's region and staging's URL are real platforms
    setup: ({ dir, emu }) => {
      installDqform(dir);
      const app = /^ *```ts\n([\s\S]*?)^ *```$/m.exec(read('docs/environments.md'))?.[1];
      if (!app) throw new Error('docs/environments.md: no ```ts block (the app)');
      const main = app.replace("region: 'eu',", `baseUrl: '${emu.url}',`).replace("'https://staging.platform.example'", `'${emu.url}'`);
      if (main.includes('platform.example') || main.includes("region: 'eu'")) throw new Error('docs/environments.md: the app changed; update the substitutions');
      fs.writeFileSync(path.join(dir, 'main.ts'), main.replace(/^ {3}/gm, ''));
      fs.writeFileSync(path.join(dir, 'cdktf.json'), JSON.stringify({ language: 'typescript', app: 'npx tsx main.ts' }));
    },
    env: () => ({ DQ_PROD_CLIENT_ID: 'demo-admin', DQ_PROD_CLIENT_SECRET: 'demo-secret', DQ_STAGING_CLIENT_ID: 'demo-admin', DQ_STAGING_CLIENT_SECRET: 'demo-secret' }),
    replace: ({ emu }) => ({ 'https://staging.platform.example': emu.url }),
    before: {
      // "Retiring an environment", step 1: remove the stack from the app and run dqform synth
      'DQ_BASE_URL=https://staging.platform.example DQ_CLIENT_ID=$DQ_STAGING_CLIENT_ID DQ_CLIENT_SECRET=$DQ_STAGING_CLIENT_SECRET dqform destroy --namespace shop-staging': async ({ dir }) => {
        const main = fs.readFileSync(path.join(dir, 'main.ts'), 'utf8');
        const without = main.replace(/^shop\(new DqStack\(app, 'staging',[\s\S]*?^\}\)\);\n/m, '');
        if (without === main) throw new Error('docs/environments.md: the staging stack is not where the test removes it');
        fs.writeFileSync(path.join(dir, 'main.ts'), without);
        await cli(['synth'], dir, { PATH: process.env.PATH ?? '', HOME: os.tmpdir() });
      },
    },
    answers: {
      'dqform apply --all-stacks': 'yes',
      'DQ_BASE_URL=https://staging.platform.example DQ_CLIENT_ID=$DQ_STAGING_CLIENT_ID DQ_CLIENT_SECRET=$DQ_STAGING_CLIENT_SECRET dqform destroy --namespace shop-staging': 'yes',
    },
  },
};

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** Runs one command in bash in the shell state `state` left by the one before; resolves with its exit code and output. */
function runCommand(command: string, state: string, env: NodeJS.ProcessEnv, answer: string | undefined): Promise<{ code: number | null; output: string }> {
  const wrapper = path.join(state, 'command.sh');
  fs.writeFileSync(
    wrapper,
    [
      `cd "$(cat ${q(path.join(state, 'cwd'))})"`,
      `. ${q(path.join(state, 'env'))}`,
      `dqform() { ${q(process.execPath)} ${q(LAUNCHER)} "$@"; }`,
      'npx() { if [ "$1" = dqform ]; then shift; dqform "$@"; else command npx "$@"; fi; }',
      command,
      'dq_rc=$?',
      `pwd > ${q(path.join(state, 'cwd'))}`,
      `export -p > ${q(path.join(state, 'env'))}`,
      'exit $dq_rc',
      '',
    ].join('\n'),
  );
  const script = ['/usr/bin/script', '/bin/script'].find((p) => fs.existsSync(p));
  if (answer !== undefined && !script) throw new Error('a command that asks needs a terminal: `script` (util-linux) is missing');
  const [file, args] = answer !== undefined ? [script!, ['-qec', `bash ${q(wrapper)}`, '/dev/null']] : ['bash', [wrapper]];
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (output += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (output += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output: output.replace(/\r\n/g, '\n') });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(answer !== undefined ? `${answer}\n` : '');
  });
}

/** What running a page's commands gave: one line per command (where, exit code, and what went wrong). */
async function runPage(file: string, run: PageRun, commands: DocCommand[]): Promise<string[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-docs-run-'));
  const dir = path.join(tmp, 'work');
  const state = path.join(tmp, 'state');
  fs.mkdirSync(dir);
  fs.mkdirSync(state);
  const emu = await startEmulator({ port: 0, host: '127.0.0.1', seed: 'demo' });
  const ctx = { dir, emu };
  try {
    await run.setup(ctx);
    fs.writeFileSync(path.join(state, 'cwd'), run.cwd ?? dir);
    fs.writeFileSync(path.join(state, 'env'), '');
    const env = baseEnv({ LANG: 'C.UTF-8', NO_COLOR: '1', npm_config_update_notifier: 'false', ...run.env(ctx) });
    const replace = Object.entries(run.replace?.(ctx) ?? {});
    const results: string[] = [];
    for (const c of commands) {
      await run.before?.[c.text]?.(ctx);
      const text = replace.reduce((t, [from, to]) => t.split(from).join(to), c.text);
      const r = await runCommand(text, state, env, run.answers?.[c.text]);
      const missing = c.output.filter((l) => !r.output.includes(l.trim()));
      const where = `${file}:${c.line}: ${c.text}`;
      results.push(r.code === c.exit && missing.length === 0 ? `${where} -> exit ${c.exit}` : `${where} -> exit ${r.code} (the page says ${c.exit})${missing.length ? `; output lacks ${JSON.stringify(missing)}` : ''}\n${r.output.slice(-3000)}`);
    }
    return results;
  } finally {
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

describe('the inventory of the docs\' commands', () => {
  const tutorial = tutorialSteps(README).flatMap((s) => (s.kind === 'sh' ? s.lines : []));

  it('finds the shell blocks of the README and the docs, and their commands', () => {
    expect(BLOCKS.length).toBeGreaterThan(8);
    expect(BLOCKS.filter((b) => b.file === 'README.md' && b.section.startsWith('Tutorial')).length).toBeGreaterThanOrEqual(3);
    expect(Object.keys(PAGES).every((f) => BLOCKS.some((b) => b.file === f))).toBe(true);
  });

  it('every block is the README tutorial\'s (run by tutorial-e2e), a page run here, or marked not-run with a reason', () => {
    const uncovered = BLOCKS.filter((b) => !(b.file === 'README.md' && b.section.startsWith('Tutorial')) && !(b.file in PAGES) && b.notRun === undefined);
    expect(uncovered.map((b) => `${b.file}:${b.line}: add the page to PAGES in this test, or mark the block <!-- not-run: reason -->`)).toEqual([]);
    expect(BLOCKS.filter((b) => b.notRun !== undefined && b.notRun.length < 10).map((b) => `${b.file}:${b.line}: a not-run marker must say why`)).toEqual([]);
    // a page that is run has no exceptions: all of it runs
    expect(BLOCKS.filter((b) => b.file in PAGES && b.notRun !== undefined).map((b) => `${b.file}:${b.line}`)).toEqual([]);
  });

  it('the README tutorial\'s shell blocks are exactly the commands tutorial-e2e runs', () => {
    const shown = BLOCKS.filter((b) => b.file === 'README.md' && b.section.startsWith('Tutorial')).flatMap((b) => b.commands.map((c) => c.text));
    expect(shown).toEqual(tutorial.map((l) => l.replace(/\s+#.*$/, '').trim()));
    expect(read('test/docs/tutorial-e2e.test.ts')).toMatch(/tutorialSteps\(README\)/);
  });

  it('not-run blocks are few', () => {
    expect(BLOCKS.filter((b) => b.notRun !== undefined).length).toBeLessThanOrEqual(4);
  });

  it('every placeholder of a page that is run is in its table (the environment the page gives its reader)', () => {
    const unknown: string[] = [];
    for (const [file, run] of Object.entries(PAGES)) {
      const known = new Set(Object.keys(run.env({ dir: '', emu: { url: 'http://127.0.0.1:1', grpcEndpoint: '127.0.0.1:2' } as RunningEmulator })).map((k) => `$${k}`));
      for (const c of BLOCKS.filter((b) => b.file === file).flatMap((b) => b.commands)) {
        for (const m of c.text.matchAll(/\bexport\s+((?:[A-Za-z_]\w*=\S*\s*)+)/g)) for (const a of m[1].matchAll(/([A-Za-z_]\w*)=/g)) known.add(`$${a[1]}`);
        for (const p of placeholders(c.text)) if (!known.has(p)) unknown.push(`${file}:${c.line}: ${p} in ${c.text}`);
      }
      const commands = new Set(BLOCKS.filter((b) => b.file === file).flatMap((b) => b.commands.map((c) => c.text)));
      for (const key of [...Object.keys(run.before ?? {}), ...Object.keys(run.answers ?? {})]) if (!commands.has(key)) unknown.push(`${file}: the table names a command the page no longer shows: ${key}`);
    }
    expect(unknown).toEqual([]);
  });

  it('the parser reads comments, exit codes, continuations, console output, markers and placeholders (it can fail)', () => {
    const md = [
      '## Here',
      '<!-- not-run: a registry install -->',
      '```sh',
      'npm install dqform   # from a registry',
      '```',
      '```console',
      '$ dqform drift   # exit 2: drifted',
      'Drift: 1 object(s)',
      '$ A=1 \\',
      '  dqform output <address> --dir $OUT',
      '```',
      '```',
      '$ git grep -l x \\',
      '    -- src',
      'src/a.ts',
      '```',
      '<!-- not-run -->',
      '   ```bash',
      '   cd x && echo "# not a comment"',
      '   ```',
    ].join('\n');
    const blocks = shellBlocks('x.md', md);
    expect(blocks.map((b) => [b.line, b.section, b.notRun])).toEqual([[3, 'Here', 'a registry install'], [6, 'Here', undefined], [12, 'Here', undefined], [18, 'Here', '']]);
    expect(blocks[1].commands).toEqual([
      { line: 7, text: 'dqform drift', comment: 'exit 2: drifted', exit: 2, output: ['Drift: 1 object(s)'] },
      { line: 9, text: 'A=1 dqform output <address> --dir $OUT', comment: '', exit: 0, output: [] },
    ]);
    expect(placeholders(blocks[1].commands[1].text)).toEqual(['<address>', '$OUT']);
    expect(blocks[2].commands).toEqual([{ line: 13, text: 'git grep -l x -- src', comment: '', exit: 0, output: ['src/a.ts'] }]);
    expect(blocks[3].commands.map((c) => c.text)).toEqual(['cd x && echo "# not a comment"']);
    expect(shellBlocks('y.md', '```\nsrc/  <-  constructs/\n```\n```text\n$ dqform plan\n```\n')).toEqual([]); // a diagram, a text block: not commands
  });
});

describe('the docs\' commands run as shown', () => {
  for (const [file, run] of Object.entries(PAGES)) {
    it(`${file}: every command, in order`, async () => {
      const commands = BLOCKS.filter((b) => b.file === file).flatMap((b) => b.commands);
      const results = await runPage(file, run, commands);
      expect(results).toEqual(commands.map((c) => `${file}:${c.line}: ${c.text} -> exit ${c.exit}`));
    });
  }
});
