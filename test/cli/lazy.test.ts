/**
 * Start-up time of the CLI (issue 15: `dqform --version` and `dqform validate` <= 0.15 s): a
 * command loads only what it needs. Behaviour, by package: `--version`, `help` and a usage error
 * load no zod (some 40 modules), no undici and no gRPC; `validate` loads zod but no HTTP client
 * (undici) and no gRPC. Checked in a fresh node process (jest's module registry would hide what
 * node itself loaded). Which of our own files load is not pinned here: the bench's `startup`
 * figure (bench/startup.ts) holds each command to a module budget.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs `main(argv)` in a fresh process; answers the exit code and which of the watched modules were
 * loaded. With `ownModules`, also `kindSchemas`: every kind's zod schema (schemas/model/kinds.generated.ts).
 */
function loadedBy(argv: string[], cwd: string, env: NodeJS.ProcessEnv = {}, ownModules = false): { code: number; loaded: string[] } {
  const script = `
const { main } = require(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))});
const WATCH = { zod: /node_modules[\\\\/]zod[\\\\/]/, undici: /node_modules[\\\\/]undici[\\\\/]/, grpc: /node_modules[\\\\/](?:@grpc|protobufjs)[\\\\/]/${ownModules ? ', kindSchemas: /schemas[\\\\/]model[\\\\/]kinds\\.generated/' : ''} };
main(${JSON.stringify(argv)}, { out: () => undefined, err: () => undefined }).then((code) => {
  const keys = Object.keys(require.cache);
  process.stdout.write(JSON.stringify({ code, loaded: Object.keys(WATCH).filter((w) => keys.some((k) => WATCH[w].test(k))) }));
});`;
  const out = execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '', ...env }, timeout: 60_000 });
  return JSON.parse(out) as { code: number; loaded: string[] };
}

it('--version, help and a usage error load no zod, no HTTP client and no gRPC', () => {
  for (const argv of [['--version'], ['version'], ['help'], ['plan', '--bogus']]) {
    const r = loadedBy(argv, ROOT);
    expect({ argv, loaded: r.loaded }).toEqual({ argv, loaded: [] });
    expect(r.code).toBe(argv[0] === 'plan' ? 1 : 0);
  }
}, 120_000);

it('validate loads zod, but no HTTP client and no gRPC', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-lazy-'));
  try {
    const stack = path.join(dir, 'cdktf.out', 'stacks', 'lazy');
    fs.mkdirSync(stack, { recursive: true });
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'lazy' }] }, resource: { dq_owner: { team: { title: 'Team' } } } }));
    const ok = loadedBy(['validate', '--no-synth'], dir);
    expect(ok.code).toBe(0);
    expect(ok.loaded).toEqual(['zod']);
    // a stack that does not validate still loads no more (the error is a diagnostic)
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'lazy' }] }, resource: { dq_owner: { team: { titel: 'Team' } } } }));
    const bad = loadedBy(['validate', '--no-synth'], dir);
    expect(bad.code).toBe(1);
    expect(bad.loaded).toEqual(['zod']);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);

it('validate with its resolution cache warm loads no kind schema (issue 27: start-up)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-lazy-'));
  try {
    const stack = path.join(dir, 'cdktf.out', 'stacks', 'lazy');
    fs.mkdirSync(stack, { recursive: true });
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'lazy' }] }, resource: { dq_owner: { team: { title: 'Team' } } } }));
    const env = { DQFORM_CACHE_DIR: path.join(dir, 'cache'), DQFORM_NO_CACHE: '' };
    // cold: the manifest is loaded, checked with every kind's schema and resolved
    const cold = loadedBy(['validate', '--no-synth'], dir, env, true);
    expect(cold).toEqual({ code: 0, loaded: ['zod', 'kindSchemas'] });
    // warm: the stack's head and resolution come from the cache
    const warm = loadedBy(['validate', '--no-synth'], dir, env, true);
    expect(warm).toEqual({ code: 0, loaded: ['zod'] });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 120_000);
