/**
 * A/B timing of the plan child between two compiled builds, interleaved on one emulator (the
 * machine is shared and noisy: runs of A and B alternate so both see the same load).
 *
 *   node node_modules/typescript/bin/tsc -p bench/tsconfig.json --outDir /tmp/build-a   (per build;
 *   symlink node_modules and schemas/proto into it as bench/run.ts does)
 *   npx tsx bench/ab.ts --builds /tmp/build-a,/tmp/build-b [--n 10000] [--runs 5] [--latency 0,2]
 *     [--changed] [--warm] [--per-object] [--without dq_saved_view,...] [--prof DIR] [--prof-runs N]
 *
 * The emulator, the fixtures and the setup apply come from the first build (put the newest first:
 * an older build's emulator may not serve what a newer plan reads; `--without` leaves kinds out
 * of the fixtures that an older build does not know). `--per-object` times each build's
 * bench/children/per-object.js (one read per object) instead of the plan. Prints one line per
 * run and the medians (wall ms of the whole process, in-process ms, API requests per run), with
 * the load average before and after. Each build has its own caches (`DQFORM_CACHE_DIR`): the
 * resolution cache (src/cli/desired.ts) emptied before every run unless `--warm`, and the V8 code
 * cache, both filled by a first run of each build that is not counted.
 *
 * Every build runs this tree's plan child (children/plan.ts, transpiled into the temp dir): a
 * build with a bundle (`B/bundle/dqform.js`: `npx tsx tools/bundle.ts B/bundle` in the build's
 * sources) runs as an installed dqform (bin/dqform.js, the bundle, its code cache); one without
 * (an older build) runs its compiled tree's main, and the output says which.
 * Not part of `npm test`.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as ts from 'typescript';
import { cliOf, emptyResolutionCache } from './children/plan';
import { installLayout } from './startup';

const argv = process.argv.slice(2);
const flag = (k: string) => {
  const i = argv.indexOf(`--${k}`);
  return i >= 0 ? argv[i + 1] : undefined;
};
const BUILDS = (flag('builds') ?? '').split(',').filter(Boolean);
const N = Number(flag('n') ?? 10000);
const RUNS = Number(flag('runs') ?? 5);
const LATENCIES = (flag('latency') ?? '0').split(',').map(Number);
const CHANGED = argv.includes('--changed');
const WARM = argv.includes('--warm');
const PER_OBJECT = argv.includes('--per-object');
const WITHOUT = (flag('without') ?? '').split(',').filter(Boolean);
const PROF = flag('prof');
const PROF_RUNS = Number(flag('prof-runs') ?? 1);
const CREDS = { DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
const TMP = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-ab-'));
/** The `{ type, id }` of every object, for the per-object child. */
const REFS = path.join(TMP, 'refs.json');

async function admin(url: string, method: string, p: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json', connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json();
}

/** The builds run once (their code cache; with `--warm`, their resolution cache too). */
const primed = new Set<string>();

/** The plan child, transpiled from this tree (node built-ins only): the same for every build. */
const PLAN_CHILD = path.join(TMP, 'plan-child.js');
fs.writeFileSync(PLAN_CHILD, ts.transpileModule(fs.readFileSync(path.join(__dirname, 'children', 'plan.ts'), 'utf8'), { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true } }).outputText);

/** Gives a build with a bundle the installed layout; answers how its plans run (printed). */
function prepare(build: string): string {
  if (fs.existsSync(path.join(build, 'bundle', 'dqform.js'))) installLayout(path.resolve(__dirname, '..'), build);
  const cli = cliOf(build);
  return cli.mode === 'bundle' ? 'bundle (bin/dqform.js, V8 code cache warm)' : 'compiled tree (no bundle in it: src/cli/main.js, no code cache, no V8 flag)';
}

const cacheOf = (build: string) => path.join(TMP, `cache-${BUILDS.indexOf(build)}`);
const childEnv = (build: string, env: NodeJS.ProcessEnv) => ({ ...process.env, ...env, DQFORM_CACHE_DIR: cacheOf(build), DQFORM_NO_CACHE: '', DQFORM_BENCH_CLI: build });

/** A first run of each build, not counted: fills its code cache (and its resolution cache, for `--warm`). */
function prime(build: string, dir: string, env: NodeJS.ProcessEnv): void {
  if (primed.has(build)) return;
  primed.add(build);
  spawnSync(process.execPath, [PLAN_CHILD, dir], { env: childEnv(build, env), encoding: 'utf8', cwd: TMP });
}

function measure(build: string, dir: string, env: NodeJS.ProcessEnv, extra: string[] = []): { wallMs: number; inProcessMs: number; cpuMs: number; rssMb: number; out: string } {
  const child = PER_OBJECT ? [path.join(build, 'bench/children/per-object.js'), REFS] : [PLAN_CHILD, dir];
  const run = () => spawnSync('/usr/bin/time', ['-v', process.execPath, ...extra, ...child], { env: childEnv(build, env), encoding: 'utf8', cwd: TMP });
  if (!WARM) emptyResolutionCache(cacheOf(build));
  const t0 = process.hrtime.bigint();
  const r = run();
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const line = r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop() ?? '{}';
  const out = JSON.parse(line) as { inProcessMs?: number; code?: number; summary?: string; objects?: number; found?: number };
  if (PER_OBJECT ? out.found !== out.objects : out.code !== 0 && out.code !== 2) throw new Error(`${child[0]} failed (${build}): ${r.stdout}\n${r.stderr}`);
  const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(r.stderr);
  const cpu = (k: string) => Number(new RegExp(`${k} time \\(seconds\\): ([\\d.]+)`).exec(r.stderr)?.[1] ?? NaN) * 1000;
  return { wallMs, inProcessMs: Number(out.inProcessMs), cpuMs: cpu('User') + cpu('System'), rssMb: m ? Number(m[1]) / 1024 : NaN, out: PER_OBJECT ? `found ${out.found} of ${out.objects}` : out.summary ?? '' };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

async function run(): Promise<void> {
  const a = BUILDS[0];
  for (const b of BUILDS) process.stdout.write(`${b}: ${prepare(b)}\n`);
  const fixtures = require(path.join(a, 'bench/fixtures.js')) as typeof import('./fixtures');
  const { PlatformClient } = require(path.join(a, 'src/client/index.js')) as typeof import('../src/client');
  const { loadSynthOutput } = require(path.join(a, 'src/engine/manifest.js')) as typeof import('../src/engine/manifest');
  const { plan } = require(path.join(a, 'src/engine/reconcile.js')) as typeof import('../src/engine/reconcile');
  const { apply } = require(path.join(a, 'src/engine/applier.js')) as typeof import('../src/engine/applier');
  const p = spawn(process.execPath, [path.join(a, 'bench/children/emulator.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [url, grpc] = await new Promise<[string, string]>((res) => {
    let buf = '';
    p.stdout.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = /\{"url":"([^"]+)","grpc":"([^"]+)"\}/.exec(buf);
      if (m) res([m[1], m[2]]);
    });
  });
  try {
    const env = { DQ_BASE_URL: url, DQ_GRPC_ENDPOINT: grpc, ...CREDS };
    const ns = `bench-${N}`;
    await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
    const write = (name: string, doc: unknown) => {
      const d = path.join(TMP, name, 'stacks', ns);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'cdk.tf.json'), JSON.stringify(doc));
      return path.join(TMP, name);
    };
    const kinds = fixtures.BENCH_KINDS.filter((k) => !WITHOUT.includes(k));
    const base = write('base', fixtures.terraformJson(ns, N, { kinds }));
    const changed = write('changed', fixtures.terraformJson(ns, N, { changedEvery: 10, kinds }));
    const client = PlatformClient.fromEnv(env);
    const p0 = await plan(client, loadSynthOutput(base, ns));
    const r = await apply(client, p0, { maxDeletes: 0 });
    if (r.failed.length) throw new Error('setup failed');
    // the ids as the platform holds them: a no-change plan's (as bench/run.ts takes them)
    if (PER_OBJECT) fs.writeFileSync(REFS, JSON.stringify((await plan(client, loadSynthOutput(base, ns))).changes.filter((c) => c.action === 'noop').map((c) => ({ type: c.type, id: c.id }))));
    await client.close();
    const dir = CHANGED ? changed : base;
    for (const ms of LATENCIES) {
      if (ms > 0) await admin(url, 'POST', '/__emulator/faults', { rules: [{ type: 'latency', latencyMs: ms }] });
      else await admin(url, 'DELETE', '/__emulator/faults');
      const res: Record<string, { wall: number[]; inp: number[]; cpu: number[]; rss: number[]; req: number[] }> = {};
      process.stdout.write(`latency ${ms} ms, ${PER_OBJECT ? 'per-object reads' : CHANGED ? '10% changed' : 'no change'}, ${N} objects (${kinds.length} kinds); load ${load()}\n`);
      if (!PER_OBJECT) for (const b of BUILDS) prime(b, dir, env);
      for (let i = 0; i < RUNS; i++) {
        for (const b of i % 2 ? [...BUILDS].reverse() : BUILDS) {
          await admin(url, 'POST', '/__emulator/requests/reset', {});
          const m = measure(b, dir, env);
          const c = (await admin(url, 'GET', '/__emulator/requests')) as { routes: Record<string, number> };
          const req = Object.entries(c.routes).filter(([k]) => k.split(' ')[1]?.startsWith('/api/')).reduce((s, [, v]) => s + v, 0);
          (res[b] ??= { wall: [], inp: [], cpu: [], rss: [], req: [] }).wall.push(m.wallMs);
          res[b].inp.push(m.inProcessMs);
          res[b].cpu.push(m.cpuMs);
          res[b].rss.push(m.rssMb);
          res[b].req.push(req);
          process.stdout.write(`  ${b}: ${Math.round(m.wallMs)} ms (in-process ${Math.round(m.inProcessMs)}, cpu ${Math.round(m.cpuMs)}), ${m.rssMb.toFixed(0)} MB, ${req} req; ${m.out}\n`);
        }
      }
      for (const b of BUILDS) {
        const x = res[b];
        process.stdout.write(`  median ${b}: ${Math.round(median(x.wall))} ms wall, ${Math.round(median(x.inp))} in-process, ${Math.round(median(x.cpu))} cpu (user+sys), ${Math.max(...x.rss).toFixed(0)} MB max, ${median(x.req)} req\n`);
      }
      process.stdout.write(`  load after: ${load()}\n`);
      if (PROF) for (let i = 0; i < PROF_RUNS; i++) for (const b of BUILDS) measure(b, dir, env, ['--cpu-prof', '--cpu-prof-dir', path.join(PROF, `${path.basename(b)}-${ms}ms${CHANGED ? '-changed' : ''}`)]);
    }
  } finally {
    p.kill('SIGTERM');
    fs.rmSync(TMP, { recursive: true, force: true });
  }
}

void run().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
