/**
 * A crash (SIGKILL) in the middle of an apply of 500 objects, then plan and apply again:
 * converges (a third plan is empty), no duplicate objects, and nothing half-written outside the
 * plan (after the crash every object of the namespace either matches the code or is planned).
 *
 * @gateway
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { apply } from '../../src/engine/applier';
import { bulkDoc, declaredCounts, type BulkSizes } from './fixtures/bulk';

jest.setTimeout(90000); // 6 s alone; more than 30 s seen with the machine shared (load 12 on 2 cores)

const NS = 'crash';
const SIZES: BulkSizes = { sqlTests: 150, owners: 100, domains: 80, ownerships: 80, alerts: 60, monitorRules: 30 };
const READS = /batch-get|\/get$|\/list$|^GET |oauth2/;

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-crash-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

type Emu = Awaited<ReturnType<typeof startEmulator>>;

async function writesDone(emu: Emu): Promise<number> {
  const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> };
  return Object.entries(r.routes)
    .filter(([route]) => !READS.test(route) && !route.includes('overview'))
    .reduce((a, [, n]) => a + n, 0);
}

/** Live objects of the namespace per kind, by listing everything (governance kinds: by their bulk titles). */
async function countLive(c: PlatformClient): Promise<Record<string, number>> {
  const alerts = Object.values(await c.alerts.batchGet((await c.alerts.list()).map((id) => ({ id }))));
  const owners = (await c.owners.listOwners()).filter((o) => /^Owner \d+ v1$/.test(o.title ?? ''));
  const domains = (await c.domains.list()).filter((d) => /^Domain \d+ v1$/.test(d.name ?? ''));
  let ownerships = 0;
  for (const o of owners) ownerships += (await c.owners.listOwnerships(o.id)).length;
  return {
    dq_alert: alerts.filter((a) => a.configId === NS).length,
    dq_domain: domains.length,
    dq_monitor_deployment_rule: (await c.deploymentRules.list()).filter((r) => r.configId === NS).length,
    dq_owner: owners.length,
    dq_ownership: ownerships,
    dq_sql_test: (await c.sqlTests.list()).filter((t) => t.configId === NS).length,
  };
}

it('kill -9 in the middle of an apply of 500 objects, then plan and apply: converges without duplicates', async () => {
  const dataFile = path.join(dir, 'state.json');
  let emu = await startEmulator({ port: 0, seed: 'empty', dataFile });
  const doc = bulkDoc(NS, SIZES);
  const expected = declaredCounts(doc);
  expect(Object.values(expected).reduce((a, b) => a + b, 0)).toBe(500);
  try {
    // slow every write a little so the kill lands in the middle
    await fetch(`${emu.url}/__emulator/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ rules: [{ type: 'latency', latencyMs: 15, method: 'POST' }, { type: 'latency', latencyMs: 15, method: 'PUT' }] }),
    });
    // tsx as a loader in ONE process: its cli would run the script in a grandchild that SIGKILL misses
    const loader = pathToFileURL(require.resolve('tsx')).href;
    const child = spawn(process.execPath, ['--import', loader, path.join(__dirname, 'fixtures', 'apply-bulk.ts')], {
      env: { ...process.env, DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, BULK_NS: NS, BULK_SIZES: JSON.stringify(SIZES) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((res) => child.on('exit', (code, signal) => res({ code, signal })));
    let writes = 0;
    const deadline = Date.now() + 20000;
    while (Date.now() < deadline && child.exitCode === null) {
      writes = await writesDone(emu);
      if (writes >= 60) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill('SIGKILL');
    const ended = await exited;
    expect([ended.signal, out]).toEqual(['SIGKILL', expect.stringContaining('planned 500')]);
    expect(out).not.toMatch(/applied/);
    await fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' });

    // the platform restarts from its data file, as after an outage
    await emu.close();
    emu = await startEmulator({ port: 0, dataFile });
    const c = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
    try {
      const manifest = manifestFromTerraformJson(doc, { stack: NS });
      const second = await plan(c, manifest);
      expect(second.diagnostics).toEqual([]);
      // nothing half-written: every object is either as the code says or planned to be created
      const actions = new Set(second.changes.map((c) => c.action));
      expect([...actions].sort()).toEqual(['create', 'noop']);
      console.log(`crash after ${writes} writes: the second plan creates ${second.summary.add} and keeps ${second.summary.unchanged}`);
      expect(second.summary.add + second.summary.unchanged).toBe(500);
      expect(second.summary.unchanged).toBeGreaterThan(0);
      expect(second.summary.add).toBeGreaterThan(0);

      const res = await apply(c, second);
      expect(res.failed).toEqual([]);
      expect(res.skipped).toEqual([]);
      const third = await plan(c, manifest);
      expect(third.summary).toEqual({ import: 0, add: 0, change: 0, replace: 0, destroy: 0, unchanged: 500, unmanaged: 0 });
      expect(await countLive(c)).toEqual(expected);
    } finally {
      await c.close();
    }
  } finally {
    await emu.close();
  }
});
