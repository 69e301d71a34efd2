/**
 * `npx tsx bench/emulator-overviews.ts [--n 10000] [--rounds 5]`: what the emulator's deploy
 * overviews of the two rule kinds cost at bench scale (issue 15). Not part of `npm test`.
 *
 * In one process: an emulator (empty seed, loopback), the bench's `n` objects created with the
 * engine's plan + apply (as bench/ab.ts does), then the 10%-changed plan, during which the rules
 * the handlers' previews send (monitor-rule deploy overviews over REST, SQL-test-rule deploy
 * overviews over gRPC) are captured at the client. They are then replayed `--rounds` times:
 *
 * - directly: the emulator's own `deployOverview` of each route module against the workspace's
 *   store and catalog (the emulator's compute only, no HTTP / gRPC, no client);
 * - through the client, one at a time, as the handlers' preview calls them (in-process, so the
 *   figure includes the client's side too).
 *
 * Prints ms per overview kind (median round) and a sha256 of every direct response, so that
 * two builds can be checked to answer byte-identically.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformClient } from '../src/client';
import { startEmulator } from '../src/emulator';
import { DEMO_WORKSPACE } from '../src/emulator/auth';
import * as monitorRules from '../src/emulator/routes/deployment-rules';
import * as sqlTestRules from '../src/emulator/routes/sql-test-rules';
import { apply } from '../src/engine/applier';
import { loadSynthOutput } from '../src/engine/manifest';
import { plan } from '../src/engine/reconcile';
import { terraformJson } from './fixtures';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 10000);
const ROUNDS = arg('rounds', 5);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main(): Promise<void> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-emu-ov-'));
  const emu = await startEmulator({ port: 0, seed: 'empty', log: () => undefined });
  const client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
  try {
    const ns = `bench-${N}`;
    const write = (name: string, doc: unknown) => {
      const d = path.join(tmp, name, 'stacks', ns);
      fs.mkdirSync(d, { recursive: true });
      fs.writeFileSync(path.join(d, 'cdk.tf.json'), JSON.stringify(doc));
      return path.join(tmp, name);
    };
    const base = write('base', terraformJson(ns, N));
    const changed = write('changed', terraformJson(ns, N, { changedEvery: 10 }));
    let t = performance.now();
    const r = await apply(client, await plan(client, loadSynthOutput(base, ns)), { maxDeletes: 0 });
    if (r.failed.length) throw new Error(`setup failed: ${JSON.stringify(r.failed.slice(0, 3))}`);
    process.stdout.write(`setup: ${N} objects in ${Math.round(performance.now() - t)} ms\n`);

    // capture the rules the changed plan previews (the client's methods, wrapped on this instance)
    const monitorCalls: unknown[] = [];
    const sqlCalls: unknown[] = [];
    const dr = client.deploymentRules;
    const sr = client.sqlTestRules;
    const drDeploy = dr.deployOverview.bind(dr);
    const srOverview = sr.overview.bind(sr);
    dr.deployOverview = (rule) => (monitorCalls.push(rule), drDeploy(rule));
    sr.overview = (rule) => (sqlCalls.push(rule), srOverview(rule));
    t = performance.now();
    const cpu0 = process.cpuUsage();
    const p = await plan(client, loadSynthOutput(changed, ns));
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(
      `changed plan: ${Math.round(performance.now() - t)} ms wall, ${Math.round((cpu.user + cpu.system) / 1000)} ms cpu (client + emulator, one process); ` +
        `${monitorCalls.length} monitor-rule and ${sqlCalls.length} SQL-test-rule deploy overviews; ${JSON.stringify(p.summary ?? '')}\n`,
    );
    dr.deployOverview = drDeploy;
    sr.overview = srOverview;

    const ctx = { store: emu.app.store.workspace(DEMO_WORKSPACE), catalog: emu.app.catalog };
    const kinds = [
      { name: 'monitor-rule deploy overview', calls: monitorCalls, direct: (x: unknown) => monitorRules.deployOverview(ctx, monitorRules.overviewRule(x)), viaClient: (x: unknown) => drDeploy(x as never) },
      { name: 'SQL-test-rule deploy overview', calls: sqlCalls, direct: (x: unknown) => sqlTestRules.deployOverview(ctx, sqlTestRules.overviewRule(x)), viaClient: (x: unknown) => srOverview(x as never) },
    ];
    for (const k of kinds) {
      const direct: number[] = [];
      const via: number[] = [];
      let digest = '';
      for (let round = 0; round < ROUNDS; round++) {
        const h = createHash('sha256');
        t = performance.now();
        for (const x of k.calls) h.update(JSON.stringify(k.direct(x)));
        direct.push(performance.now() - t);
        const d = h.digest('hex').slice(0, 16);
        if (digest && d !== digest) throw new Error(`${k.name}: responses differ between rounds`);
        digest = d;
        t = performance.now();
        for (const x of k.calls) await k.viaClient(x);
        via.push(performance.now() - t);
      }
      const n = k.calls.length || 1;
      process.stdout.write(
        `${k.name} x${k.calls.length}: direct ${median(direct).toFixed(0)} ms (${(median(direct) / n).toFixed(2)} ms each; rounds ${direct.map((x) => x.toFixed(0)).join(' ')}), ` +
          `through the client ${median(via).toFixed(0)} ms (${(median(via) / n).toFixed(2)} ms each); responses sha256 ${digest}\n`,
      );
    }
  } finally {
    await client.close();
    await emu.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

void main().catch((e) => {
  process.stderr.write(`${(e as Error).stack ?? String(e)}\n`);
  process.exitCode = 1;
});
