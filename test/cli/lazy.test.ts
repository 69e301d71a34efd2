/**
 * Start-up time of the CLI (issue 15: `dqform --version` and `dqform validate` <= 0.15 s): a
 * command loads only what it needs. `--version` and `help` load no command (no zod, no
 * schemas); `validate` loads zod and the resource schemas but not the HTTP client (undici, the
 * API's request and response schemas), the engine's plan and apply, nor the renderer. Checked in
 * a fresh node process (jest's module registry would hide what node itself loaded).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Runs `main(argv)` in a fresh process; answers the exit code and which of the watched modules were loaded. */
function loadedBy(argv: string[], cwd: string): { code: number; loaded: string[] } {
  const script = `
const { main } = require(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))});
const WATCH = { zod: /node_modules[\\\\/]zod[\\\\/]/, undici: /node_modules[\\\\/]undici[\\\\/]/, client: /src[\\\\/]client[\\\\/]http\\.ts$/, services: /src[\\\\/]client[\\\\/]services[\\\\/]/, applier: /src[\\\\/]engine[\\\\/]applier\\.ts$/, reconcile: /src[\\\\/]engine[\\\\/]reconcile\\.ts$/, handlers: /src[\\\\/]handlers[\\\\/]/, render: /src[\\\\/]cli[\\\\/]render\\.ts$/, planSchemas: /schemas[\\\\/]plan\\.ts$/, readline: /^NativeModule readline$/, resolve: /src[\\\\/]engine[\\\\/]resolve\\.ts$/ };
main(${JSON.stringify(argv)}, { out: () => undefined, err: () => undefined }).then((code) => {
  // node's own modules are not in require.cache: process.moduleLoadList names them (child_process
  // cannot be watched here: tsx, which runs this script, loads it itself)
  const keys = [...Object.keys(require.cache), ...process.moduleLoadList];
  process.stdout.write(JSON.stringify({ code, loaded: Object.keys(WATCH).filter((w) => keys.some((k) => WATCH[w].test(k))) }));
});`;
  const out = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  return JSON.parse(out) as { code: number; loaded: string[] };
}

it('--version, help and a usage error load no command, no zod and no client', () => {
  for (const argv of [['--version'], ['version'], ['help'], ['plan', '--bogus']]) {
    const r = loadedBy(argv, ROOT);
    expect({ argv, loaded: r.loaded }).toEqual({ argv, loaded: [] });
    expect(r.code).toBe(argv[0] === 'plan' ? 1 : 0);
  }
}, 120_000);

it('validate loads zod and the resolver, not the HTTP client, the API schemas, the plan schemas, plan, apply, the handlers nor the renderer', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-lazy-'));
  try {
    const stack = path.join(dir, 'cdktf.out', 'stacks', 'lazy');
    fs.mkdirSync(stack, { recursive: true });
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'lazy' }] }, resource: { dq_owner: { team: { title: 'Team' } } } }));
    const ok = loadedBy(['validate', '--no-synth'], dir);
    expect(ok.code).toBe(0);
    expect(ok.loaded.sort()).toEqual(['resolve', 'zod']);
    // a stack that does not validate still loads no more (the error is a diagnostic)
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'lazy' }] }, resource: { dq_owner: { team: { titel: 'Team' } } } }));
    const bad = loadedBy(['validate', '--no-synth'], dir);
    expect(bad.code).toBe(1);
    expect(bad.loaded.sort()).toEqual(['resolve', 'zod']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
