/**
 * The cold path on a worker thread (src/cli/resolve-worker.ts): each golden case prepared cold
 * through the worker (its sources loaded through tsx: `DQFORM_WORKER_TS=1`, and no size
 * threshold) plans byte-identical to the uncached plan, and the entry it wrote serves the warm
 * run; a stack the loader refuses fails with the main thread's own error; a worker that dies
 * before its head or during the resolution leaves the work to the main thread, with the same
 * plan. In process, no platform. The bundle's worker (the installed layout) is what bench/ab.ts
 * runs.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Effects, PlanRequest } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { renderPlanJson } from '../../src/plan/json';
import { prepareStack } from '../../src/cli/desired';
import { loadStack, siblingsOf } from '../../src/cli/runtime';

jest.setTimeout(120_000);

const ROOT = path.join(__dirname, '..', 'golden', 'plan');
const readJson = (dir: string, f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
const CASES = ['at-scale', 'integrations', 'moved-import-ignore', 'references', 'governance-pruning'];

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-resolve-worker-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A golden case written as synth output under `tmp/<tag>`, and how to plan it. */
function caseOf(name: string, tag: string, extraEnv: Record<string, string> = {}) {
  let dir = path.join(ROOT, name);
  let request: PlanRequest | undefined;
  if (fs.existsSync(path.join(dir, 'case.json'))) {
    const c = readJson(dir, 'case.json') as { inputs: string; request: unknown };
    request = PlanRequest.parse(c.request);
    dir = path.join(ROOT, c.inputs);
  }
  const doc = readJson(dir, 'desired.json');
  const previews = new Map<string, Effects>();
  if (fs.existsSync(path.join(dir, 'previews.json'))) {
    for (const [address, e] of Object.entries(readJson(dir, 'previews.json') as Record<string, unknown>)) previews.set(address, Effects.parse(e));
  }
  const live = () => readJson(dir, 'live.json') as LiveState;
  const manifest = manifestFromTerraformJson(doc, { stack: name });
  const uncached = renderPlanJson(computePlan({ resolution: resolveManifest(manifest, 'demo'), live: live(), handlers: HANDLERS, previews, manifestHash: manifestHash(manifest), request }));
  const cwd = path.join(tmp, tag);
  fs.mkdirSync(path.join(cwd, 'cdktf.out', 'stacks', name), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'cdktf.out', 'stacks', name, 'cdk.tf.json'), JSON.stringify(doc));
  fs.writeFileSync(path.join(cwd, 'cdktf.out', 'manifest.json'), JSON.stringify({ stacks: { [name]: {} } }));
  const env = { DQFORM_CACHE_DIR: path.join(tmp, `${tag}-cache`), DQFORM_WORKER_TS: '1', DQFORM_WORKER_MIN_BYTES: '0', ...extraEnv };
  const src = { kind: 'synth' as const, dir: path.join(cwd, 'cdktf.out') };
  const io = { out: () => undefined, err: () => undefined, env, cwd, isTty: false };
  let loads = 0;
  const loaders = { loadStack: () => (loads++, loadStack(io, src, undefined)), siblingsOf: (m: Parameters<typeof siblingsOf>[1]) => siblingsOf(src, m, env) };
  /** Prepared cold (through the worker when `worker`), resolved as plan resolves it; answers the plan's JSON and whether it went through the worker. */
  const planned = async (worker: boolean) => {
    loads = 0;
    const p = prepareStack(env, cwd, src, undefined, loaders, { worker });
    const hash = p.manifestHash();
    const resolution = p.resolveAsync ? await p.resolveAsync('demo') : p.resolve('demo');
    const afters = p.desiredForms(resolution);
    const json = renderPlanJson(computePlan({ resolution, live: live(), handlers: HANDLERS, previews, manifestHash: hash, request, afters, afterFingerprints: afters && p.desiredFingerprints(resolution) }));
    // the main thread loaded the stack itself: no worker, or one that failed
    return { json, viaWorker: !!p.resolveAsync, mainLoaded: loads > 0 };
  };
  return { uncached, planned, env, cwd };
}

it.each(CASES)('%s: planned cold through the worker, then warm, the plan is the one made without the cache', async (name) => {
  const c = caseOf(name, `${name}-w`);
  const cold = await c.planned(true);
  expect(cold.viaWorker).toBe(true);
  expect(cold.mainLoaded).toBe(false);
  expect(cold.json).toBe(c.uncached);
  // the worker wrote the head and the resolution: the warm run reads them
  expect(fs.readdirSync(c.env.DQFORM_CACHE_DIR)).toHaveLength(2);
  const warm = await c.planned(true);
  expect(warm.viaWorker).toBe(false);
  expect(warm.json).toBe(c.uncached);
});

it.each(['start', 'hash', 'resolve'])('a worker that dies (%s) leaves the cold path to the main thread: the same plan', async (when) => {
  const c = caseOf('references', `crash-${when}`, { DQFORM_TEST_WORKER_EXIT: when });
  const cold = await c.planned(true);
  // dead before its head: no worker at all; dead after it: the main thread loaded and resolved
  expect(cold.viaWorker).toBe(when !== 'start');
  expect(cold.mainLoaded).toBe(true);
  expect(cold.json).toBe(c.uncached);
});

it('a stack the loader refuses fails with the main thread error, the same with or without the worker', async () => {
  const c = caseOf('references', 'bad');
  fs.writeFileSync(path.join(c.cwd, 'cdktf.out', 'stacks', 'references', 'cdk.tf.json'), '{"resource": {"dq_monitor_deployment_rule": {"x": {"namespace": 1}}}}');
  const message = async (worker: boolean) => {
    try {
      await c.planned(worker);
    } catch (e) {
      return `${(e as Error).constructor.name}: ${(e as Error).message} ${JSON.stringify((e as { diagnostics?: unknown }).diagnostics)}`;
    }
    return 'no error';
  };
  const without = await message(false);
  expect(without).not.toBe('no error');
  expect(await message(true)).toBe(without);
});
