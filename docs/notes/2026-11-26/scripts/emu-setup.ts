// Keeps an emulator (from a compiled build: tsc -p bench/tsconfig.json --outDir BUILD) with the bench's N objects alive; writes an env file (EMU_ENV, default /tmp/emu.env) and /tmp/emu-base, /tmp/emu-changed. EMU_NODE_FLAGS: node flags for the emulator (e.g. --cpu-prof). Usage: npx tsx emu-setup.ts BUILD [N]
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
const a = process.argv[2] ?? '/tmp/build-base';
const N = Number(process.argv[3] ?? 10000);
async function admin(url: string, method: string, p: string, body?: unknown) {
  const r = await fetch(`${url}${p}`, { method, headers: { 'content-type': 'application/json', connection: 'close' }, body: body === undefined ? undefined : JSON.stringify(body) });
  return r.json();
}
async function run() {
  const fixtures = require(path.join(a, 'bench/fixtures.js'));
  const { PlatformClient } = require(path.join(a, 'src/client/index.js'));
  const { loadSynthOutput } = require(path.join(a, 'src/engine/manifest.js'));
  const { plan } = require(path.join(a, 'src/engine/reconcile.js'));
  const { apply } = require(path.join(a, 'src/engine/applier.js'));
  const p = spawn(process.execPath, [...(process.env.EMU_NODE_FLAGS ?? '').split(' ').filter(Boolean), path.join(a, 'bench/children/emulator.js')], { stdio: ['pipe', 'pipe', 'inherit'] });
  const [url, grpc] = await new Promise<[string, string]>((res) => {
    let buf = '';
    p.stdout.on('data', (d: Buffer) => { buf += d.toString(); const m = /\{"url":"([^"]+)","grpc":"([^"]+)"\}/.exec(buf); if (m) res([m[1], m[2]]); });
  });
  const env = { DQ_BASE_URL: url, DQ_GRPC_ENDPOINT: grpc, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const ns = `bench-${N}`;
  await admin(url, 'POST', '/__emulator/reset', { seed: 'empty' });
  const write = (name: string, doc: unknown) => { const d = path.join('/tmp', name, 'stacks', ns); fs.mkdirSync(d, { recursive: true }); fs.writeFileSync(path.join(d, 'cdk.tf.json'), JSON.stringify(doc)); };
  write('emu-base', fixtures.terraformJson(ns, N));
  write('emu-changed', fixtures.terraformJson(ns, N, { changedEvery: 10 }));
  const client = PlatformClient.fromEnv(env);
  const r = await apply(client, await plan(client, loadSynthOutput('/tmp/emu-base', ns)), { maxDeletes: 0 });
  await client.close();
  if (r.failed.length) throw new Error('setup failed');
  fs.writeFileSync('' + (process.env.EMU_ENV ?? '/tmp/emu.env') + '', Object.entries(env).map(([k, v]) => `export ${k}=${v}`).join('\n') + '\n');
  console.log('ready', url);
}
run().catch((e) => { console.error(e); process.exit(1); });
