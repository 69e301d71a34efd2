// Cost of a worker thread and of structured clones for a 10,000-object plan. Usage: BUILD=<compiled build (tsc -p bench/tsconfig.json --outDir BUILD)> DQ_BASE_URL=... node worker-clone-cost.js, against an emulator set up by emu-setup.ts
const b = process.env.BUILD || '/tmp/bld-a';
const { Worker } = require('worker_threads');
require(b + '/node_modules/zod').config({ jitless: true });
const { PlatformClient } = require(b + '/src/client');
const { loadSynthOutput } = require(b + '/src/engine/manifest');
const { resolveManifest } = require(b + '/src/engine/resolve');
const { readLiveState } = require(b + '/src/engine/reconcile');
(async () => {
  let t = performance.now();
  const w = new Worker(`const t0=performance.now(); require('${b}/node_modules/zod').config({jitless:true}); require('${b}/src/engine/resolve'); require('${b}/src/engine/manifest'); require('${b}/src/handlers/registry'); require('worker_threads').parentPort.postMessage(performance.now()-t0);`, { eval: true });
  const inWorker = await new Promise((r) => w.once('message', r));
  console.log('worker ready', (performance.now() - t).toFixed(0), 'ms; module loading inside', inWorker.toFixed(0), 'ms');
  await w.terminate();
  const c = PlatformClient.fromEnv(process.env);
  const m = loadSynthOutput('/tmp/emu-base', 'bench-10000');
  const iam = await c.iam.get();
  const res = resolveManifest(m, iam.workspace, {});
  const live = await readLiveState(c, res);
  for (const [name, v] of [['manifest', m], ['resolution', res], ['live state', live]]) {
    t = performance.now(); const s = structuredClone(v); const dt = performance.now() - t;
    t = performance.now(); const ser = require('v8').serialize(v); const d1 = performance.now() - t; t = performance.now(); require('v8').deserialize(ser); const d2 = performance.now() - t;
    console.log(name, 'structuredClone', dt.toFixed(0), 'ms; v8.serialize', d1.toFixed(0), 'deserialize', d2.toFixed(0), 'ms;', (ser.length / 1e6).toFixed(1), 'MB');
  }
  await c.close();
})();
