// Ad-hoc: no-change plan over N objects (bench fixtures, 8 kinds in equal shares) against an
// in-process emulator, loopback and with a latency fault; prints wall ms (median) and requests.
// Usage: npx tsx /tmp/measure/measure.ts <repo root> <n>
import * as path from 'node:path';
const root = path.resolve(process.argv[2]);
const n = Number(process.argv[3] ?? 10000);
/* eslint-disable @typescript-eslint/no-require-imports */
const { startEmulator } = require(path.join(root, 'src/emulator'));
const { PlatformClient } = require(path.join(root, 'src/client'));
const { manifestFromTerraformJson } = require(path.join(root, 'src/engine/manifest'));
const { plan } = require(path.join(root, 'src/engine/reconcile'));
const { apply } = require(path.join(root, 'src/engine/applier'));
const { terraformJson } = require(path.join(root, 'bench/fixtures'));
(async () => {
  const emu = await startEmulator({ port: 0, seed: 'empty' });
  const admin = (method: string, p: string, body?: unknown) => fetch(`${emu.url}${p}`, { method, headers: { 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined }).then((r) => r.json());
  const connect = () => PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  const m = manifestFromTerraformJson(terraformJson('bench', n), { stack: 'bench' });
  const w = connect();
  const p0 = await plan(w, m);
  const r0 = await apply(w, p0, { maxDeletes: 0 });
  await w.close();
  if (r0.failed.length) throw new Error(JSON.stringify(r0.failed.slice(0, 3)));
  for (const lat of [0, 10]) {
    await admin('DELETE', '/__emulator/faults');
    if (lat) await admin('POST', '/__emulator/faults', { rules: [{ type: 'latency', latencyMs: lat }] });
    const times: number[] = [];
    let reqs = 0;
    for (let i = 0; i < 3; i++) {
      await admin('POST', '/__emulator/requests/reset');
      const c = connect();
      const t = process.hrtime.bigint();
      const p = await plan(c, m);
      times.push(Number(process.hrtime.bigint() - t) / 1e6);
      await c.close();
      if (p.summary.unchanged !== n) throw new Error(`not a no-change plan: ${JSON.stringify(p.summary)}`);
      reqs = (await admin('GET', '/__emulator/requests')).total;
    }
    times.sort((a, b) => a - b);
    console.log(`${path.basename(root)} n=${n} latency=${lat}ms: plan median ${times[1].toFixed(0)} ms (runs ${times.map((x) => x.toFixed(0)).join(', ')}), ${reqs} requests`);
  }
  await emu.close();
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
