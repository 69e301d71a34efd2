/**
 * The resolution cache's desired forms (format 2, src/cli/desired.ts) against the golden plans'
 * live states: each `test/golden/plan/<case>/desired.json` is written as synth output and
 * prepared through the cache cold, then warm (the entry read back: `desired: null` where the form
 * stands in, the forms and their fingerprints given to the planner as `afters` and
 * `afterFingerprints`, as reconcile.ts `plan` gives them), and planned against the case's
 * `live.json` and previews with its request. The plan's JSON is the one made without the cache,
 * byte for byte: drift, ignored fields, objects of another namespace or made in the UI,
 * unmanageable ones, integrations' secrets, moved/import/removed, destroy, targets and replace.
 * In process, no platform.
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

const ROOT = path.join(__dirname, '..', 'golden', 'plan');
const readJson = (dir: string, f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
const CASES = fs
  .readdirSync(ROOT)
  .filter((d) => fs.statSync(path.join(ROOT, d)).isDirectory() && !fs.existsSync(path.join(ROOT, d, 'input-plan.json')))
  .sort();

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-cache-golden-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

it.each(CASES)('%s: planned from the cache cold and warm, the plan is the one made without it', (name) => {
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

  const cwd = path.join(tmp, name);
  fs.mkdirSync(path.join(cwd, 'cdktf.out', 'stacks', name), { recursive: true });
  fs.writeFileSync(path.join(cwd, 'cdktf.out', 'stacks', name, 'cdk.tf.json'), JSON.stringify(doc));
  fs.writeFileSync(path.join(cwd, 'cdktf.out', 'manifest.json'), JSON.stringify({ stacks: { [name]: {} } }));
  const env = { DQFORM_CACHE_DIR: path.join(tmp, `${name}-cache`) };
  const src = { kind: 'synth' as const, dir: path.join(cwd, 'cdktf.out') };
  const io = { out: () => undefined, err: () => undefined, env, cwd, isTty: false };
  const loaders = { loadStack: () => loadStack(io, src, undefined), siblingsOf: (m: Parameters<typeof siblingsOf>[1]) => siblingsOf(src, m, env) };
  const planned = (warm: boolean) => {
    const p = prepareStack(env, cwd, src, undefined, loaders);
    const hash = p.manifestHash();
    const resolution = p.resolve('demo');
    const afters = p.desiredForms(resolution);
    // the warm run reads its forms from the entry: it must have them
    if (warm) expect(afters?.length).toBe(resolution.resources.length);
    return renderPlanJson(computePlan({ resolution, live: live(), handlers: HANDLERS, previews, manifestHash: hash, request, afters, afterFingerprints: afters && p.desiredFingerprints(resolution) }));
  };
  expect(planned(false)).toBe(uncached);
  expect(fs.readdirSync(env.DQFORM_CACHE_DIR)).toHaveLength(2);
  expect(planned(true)).toBe(uncached);
});
