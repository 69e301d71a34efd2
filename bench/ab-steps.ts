/**
 * A/B timing of the apply and synth figures of `npm run bench` between builds, runs interleaved
 * (A, B, then B, A, ...) so that all see the same load on a shared machine. bench/ab.ts does the
 * same for the plans.
 *
 *   npx tsx bench/ab-steps.ts --apply --builds /tmp/build-a,/tmp/build-b [--runs 5] [--cli] [--prof DIR]
 *     each build compiled with `node node_modules/typescript/bin/tsc -p bench/tsconfig.json
 *     --outDir DIR` from its own source tree, node_modules and schemas/proto linked in (as
 *     bench/run.ts does). One emulator (the first build's). Each build saves its own plan of
 *     2,000 SQL tests + 500 monitor deployment rules (its bench/children/plan.js, `--out`,
 *     against an empty emulator; put the newest build first: an older emulator may not serve what
 *     a newer plan reads), then every run resets the emulator to its empty seed and runs
 *     that build's bench/children/apply.js on its plan, `batched` and `per-object`. `--cli`: also
 *     `dqform apply --dir STACK PLANFILE` through the build's installed CLI (BUILD/bin/dqform.js:
 *     bench/startup.ts installCli lays out a build with its bundle; an older build, its
 *     bin/dqform.js and package.json copied in and `dist` a link to `.`), after one unmeasured
 *     run each (the bundle's code cache). `--prof DIR`: then one more run of each mode with
 *     `--cpu-prof` into DIR/<build>-<mode> (not counted).
 *   npx tsx bench/ab-steps.ts --synth --sources /src/a,/src/b [--runs 5]
 *     each source tree's bench/synth-10k.ts under tsx (as bench/run.ts runs it), node_modules
 *     linked in; one unmeasured run per tree first (tsx's transpile cache).
 *
 * Per run: wall (the whole process), CPU (user + sys) and peak RSS from `/usr/bin/time -v`;
 * then the medians, with the load average before and after. Not part of `npm test`.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

/** What `/usr/bin/time -v` reports of a process: CPU ms (user + sys) and peak RSS in MB. */
export function timeFigures(stderr: string): { cpuMs: number; rssMb: number } {
  const num = (re: RegExp) => {
    const m = re.exec(stderr);
    if (!m) throw new Error(`no ${re.source} in /usr/bin/time's output`);
    return Number(m[1]);
  };
  const user = num(/User time \(seconds\): ([\d.]+)/);
  const sys = num(/System time \(seconds\): ([\d.]+)/);
  return { cpuMs: Math.round((user + sys) * 1000), rssMb: num(/Maximum resident set size \(kbytes\): (\d+)/) / 1024 };
}

/** The median (the mean of the two middle values for an even count). */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const h = Math.floor(s.length / 2);
  return s.length % 2 ? s[h] : (s[h - 1] + s[h]) / 2;
}

/** The order of the builds in run i: as given, then reversed, alternately. */
export function interleaved<T>(builds: readonly T[], i: number): T[] {
  return i % 2 ? [...builds].reverse() : [...builds];
}

export interface Run {
  wallMs: number;
  cpuMs: number;
  rssMb: number;
}

/** One line per build: median wall and CPU, max RSS, and the runs. */
export function summaryLines(label: string, runs: Record<string, Run[]>): string[] {
  return Object.entries(runs).map(([build, rs]) => {
    const wall = rs.map((r) => Math.round(r.wallMs));
    const cpu = rs.map((r) => r.cpuMs);
    return `  median ${label} ${build}: ${Math.round(median(wall))} ms wall (${wall.join(' / ')}), ${Math.round(median(cpu))} ms cpu (${cpu.join(' / ')}), ${Math.max(...rs.map((r) => r.rssMb)).toFixed(1)} MB max`;
  });
}

const CREDS = { DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** `node ARGS` under /usr/bin/time -v; the child's last JSON line on stdout (none for the CLI). */
function measure(nodeArgs: string[], env: NodeJS.ProcessEnv, cwd: string): Run & { child: Record<string, unknown>; status: number | null; stdout: string; stderr: string } {
  const t0 = process.hrtime.bigint();
  const r = spawnSync('/usr/bin/time', ['-v', process.execPath, ...nodeArgs], { env: { ...process.env, ...env }, cwd, encoding: 'utf8', maxBuffer: 64 * 2 ** 20 });
  const wallMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const line = r.stdout.trim().split('\n').filter((l) => l.startsWith('{')).pop();
  return { wallMs, ...timeFigures(r.stderr), child: line ? (JSON.parse(line) as Record<string, unknown>) : {}, status: r.status, stdout: r.stdout, stderr: r.stderr };
}

async function admin(url: string, method: string, p: string, body?: unknown): Promise<unknown> {
  const r = await fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json', connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json();
}

type Mode = 'batched' | 'per-object' | 'cli';

/** One apply of a build's saved plan: its apply child (`batched`, `per-object`) or its installed CLI (`cli`). */
function applyRun(build: string, planFile: string, mode: Mode, env: NodeJS.ProcessEnv, tmp: string, extra: string[] = []): Run {
  if (mode === 'cli') {
    const m = measure([...extra, path.join(build, 'bin/dqform.js'), 'apply', '--dir', path.join(tmp, 'apply'), planFile], { ...env, CHECKPOINT_DISABLE: '1', DQFORM_CACHE_DIR: path.join(tmp, `cli-cache-${path.basename(build)}`), DQFORM_NO_CACHE: '' }, tmp);
    if (m.status !== 0) throw new Error(`dqform apply of ${build} exited ${String(m.status)}:\n${m.stdout.slice(-2000)}${m.stderr.slice(0, 2000)}`);
    return m;
  }
  const m = measure([...extra, path.join(build, 'bench/children/apply.js'), planFile, mode], env, tmp);
  if (m.child.applied !== 2500 || m.child.failed !== 0) throw new Error(`apply ${mode} of ${build}: applied ${String(m.child.applied)}, failed ${String(m.child.failed)}`);
  return m;
}

async function abApply(builds: string[], runs: number, tmp: string, prof?: string, cli = false): Promise<void> {
  const modes: Mode[] = cli ? ['batched', 'per-object', 'cli'] : ['batched', 'per-object'];
  const fixtures = require(path.join(builds[0], 'bench/fixtures.js')) as typeof import('./fixtures');
  const p = spawn(process.execPath, [path.join(builds[0], 'bench/children/emulator.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  try {
    const [url, grpc] = await new Promise<[string, string]>((res) => {
      let buf = '';
      p.stdout.on('data', (d: Buffer) => {
        buf += d.toString();
        const m = /\{"url":"([^"]+)","grpc":"([^"]+)"\}/.exec(buf);
        if (m) res([m[1], m[2]]);
      });
    });
    const env = { DQ_BASE_URL: url, DQ_GRPC_ENDPOINT: grpc, ...CREDS };
    const ns = 'bench-apply';
    const tests: Record<string, unknown> = {};
    const rules: Record<string, unknown> = {};
    for (let i = 0; i < 2000; i++) tests[fixtures.resourceName('dq_sql_test', i)] = fixtures.resourceBody('dq_sql_test', i, 0);
    for (let i = 0; i < 500; i++) rules[fixtures.resourceName('dq_monitor_deployment_rule', i)] = fixtures.resourceBody('dq_monitor_deployment_rule', i, 0);
    const stackDir = path.join(tmp, 'apply', 'stacks', ns);
    fs.mkdirSync(stackDir, { recursive: true });
    fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: { dq_sql_test: tests, dq_monitor_deployment_rule: rules } }));
    const plans = builds.map((b, i) => path.join(tmp, `apply-plan-${i}.json`));
    for (const [i, b] of builds.entries()) {
      await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
      const m = measure([path.join(b, 'bench/children/plan.js'), path.join(tmp, 'apply'), plans[i]], { ...env, DQFORM_CACHE_DIR: path.join(tmp, `cache-${i}`) }, tmp);
      if (m.child.code === undefined) throw new Error(`plan of ${b} printed no result (${String(m.status)}):\n${m.stdout}`);
      if (m.child.code !== 2) throw new Error(`plan of ${b} exited ${String(m.child.code)}: ${String(m.child.summary)}`);
      process.stdout.write(`plan ${b}: ${String(m.child.summary)}\n`);
    }
    process.stdout.write(`apply 2,000 SQL tests + 500 monitor rules, ${runs} runs; load ${load()}\n`);
    if (cli) {
      // the CLI's caches (the bundle's V8 code cache) filled by one run each, as a user's second run
      for (const [i, b] of builds.entries()) {
        await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
        applyRun(b, plans[i], 'cli', env, tmp);
      }
    }
    const res: Record<string, Record<string, Run[]>> = Object.fromEntries(modes.map((m) => [m, {}]));
    for (let i = 0; i < runs; i++) {
      for (const b of interleaved(builds, i)) {
        for (const mode of modes) {
          await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
          await admin(url, 'POST', '/__emulator/requests/reset', {});
          const m = applyRun(b, plans[builds.indexOf(b)], mode, env, tmp);
          const c = (await admin(url, 'GET', '/__emulator/requests')) as { routes: Record<string, number> };
          const req = Object.entries(c.routes).filter(([k]) => k.split(' ')[1]?.startsWith('/api/')).reduce((s, [, v]) => s + v, 0);
          (res[mode][b] ??= []).push(m);
          process.stdout.write(`  ${mode} ${b}: ${Math.round(m.wallMs)} ms (cpu ${m.cpuMs}), ${m.rssMb.toFixed(0)} MB, ${req} req\n`);
        }
      }
    }
    for (const mode of modes) process.stdout.write(`${summaryLines(mode, res[mode]).join('\n')}\n`);
    process.stdout.write(`  load after: ${load()}\n`);
    if (prof) {
      for (const [i, b] of builds.entries()) {
        for (const mode of modes) {
          await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
          applyRun(b, plans[i], mode, env, tmp, ['--cpu-prof', '--cpu-prof-dir', path.join(prof, `${path.basename(b)}-${mode}`)]);
        }
      }
    }
  } finally {
    p.kill('SIGTERM');
  }
}

function abSynth(sources: string[], runs: number): void {
  const env = { CHECKPOINT_DISABLE: '1' };
  const synth = (src: string) => {
    const tsx = require.resolve('tsx/cjs', { paths: [src] });
    const m = measure(['-r', tsx, path.join(src, 'bench/synth-10k.ts'), '10000'], env, src);
    if (m.status !== 0) throw new Error(`synth of ${src} exited ${m.status}`);
    return m;
  };
  const sizes = sources.map((s) => synth(s).child.jsonBytes);
  process.stdout.write(`synth-10k, ${runs} runs (one unmeasured run each first: ${sizes.join(' / ')} bytes of JSON); load ${load()}\n`);
  const res: Record<string, Run[]> = {};
  for (let i = 0; i < runs; i++) {
    for (const s of interleaved(sources, i)) {
      const m = synth(s);
      (res[s] ??= []).push(m);
      process.stdout.write(`  ${s}: ${Math.round(m.wallMs)} ms (cpu ${m.cpuMs}; build ${Math.round(Number(m.child.buildMs))} + synth ${Math.round(Number(m.child.synthMs))}), ${m.rssMb.toFixed(0)} MB, ${String(m.child.jsonBytes)} bytes\n`);
    }
  }
  process.stdout.write(`${summaryLines('synth', res).join('\n')}\n  load after: ${load()}\n`);
}

async function main(argv: string[]): Promise<void> {
  const flag = (k: string) => {
    const i = argv.indexOf(`--${k}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const list = (k: string) => (flag(k) ?? '').split(',').filter(Boolean).map((d) => path.resolve(d));
  const runs = Number(flag('runs') ?? 5);
  if (!fs.existsSync('/usr/bin/time')) throw new Error('needs /usr/bin/time (GNU time) for CPU and peak RSS');
  if (argv.includes('--apply')) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-ab-steps-'));
    try {
      const prof = flag('prof');
      await abApply(list('builds'), runs, tmp, prof ? path.resolve(prof) : undefined, argv.includes('--cli'));
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  } else if (argv.includes('--synth')) abSynth(list('sources'), runs);
  else throw new Error('usage: ab-steps.ts --apply --builds A,B [--runs N] [--cli] [--prof DIR] | --synth --sources A,B [--runs N]');
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((e) => {
    process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
    process.exit(1);
  });
}
