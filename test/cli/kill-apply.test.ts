/**
 * kill -9 in the middle of `dqform apply plan.json`, then what a careless user does next: apply
 * the same plan file again. It is refused (objects it would create exist now), with nothing
 * written; a new plan applies the rest, and the end state holds each declared object exactly
 * once. Spawned as a user runs it (test/engine/crash.test.ts kills the engine in a script).
 *
 * @gateway
 */
import { spawn } from 'node:child_process';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { terraformJson } from '../../bench/fixtures';
import { baseEnv, dqform, LAUNCHER, Workspace } from './helpers';

let emu: RunningEmulator;
const ws = new Workspace();
const NS = 'killed';
const N = 120;
// written one by one (no batches), so the kill lands between writes
const KINDS = ['dq_owner', 'dq_domain', 'dq_data_product', 'dq_alert'] as const;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
});
afterAll(async () => {
  await emu.close();
  ws.remove();
});

const env = () => ({ DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', DQFORM_PROGRESS_SECONDS: '0' });
const cli = (args: string[]) => dqform(args, { cwd: ws.dir, env: env(), timeoutMs: 60_000 });

/** Objects of the namespace per kind, straight from the emulator's store (by their bench titles/names). */
function counts(): Record<string, number> {
  const store = emu.app.store.workspace('demo');
  const all = (c: string) => store.collection<Record<string, unknown>>(c).filter((o) => !o.deletedAt);
  return {
    dq_alert: all('alerts').filter((a) => a.configId === NS).length,
    dq_data_product: all('dataproducts').filter((p) => /^Product \d+/.test(String(p.title))).length,
    dq_domain: all('domains').filter((d) => /^Domain \d+/.test(String(d.name))).length,
    dq_owner: all('owners').filter((o) => /^Owner \d+/.test(String(o.title))).length,
  };
}

async function writes(): Promise<number> {
  const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> };
  return Object.entries(r.routes)
    .filter(([k]) => !k.startsWith('GET ') && k.includes(' /api/') && !/(batch-get|by-id|\/list|\/get)$/.test(k))
    .reduce((n, [, v]) => n + v, 0);
}

/** Resolves once the emulator has no request in flight (the writes of a killed client included). */
async function settled(timeoutMs = 30_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { inFlight: number };
    if (r.inFlight === 0) return;
    if (Date.now() > until) throw new Error(`the emulator still handles ${r.inFlight} request(s) ${timeoutMs} ms after the kill`);
    await new Promise((res) => setImmediate(res));
  }
}

it('kill -9 mid-apply, then the same plan file again: refused with nothing written; plan and apply again converge, each object once', async () => {
  const doc = terraformJson(NS, N, { kinds: KINDS });
  ws.stack(NS, (doc as { resource: Record<string, unknown> }).resource);
  const declared = Object.fromEntries(KINDS.map((k) => [k, Object.keys((doc as { resource: Record<string, object> }).resource[k] ?? {}).length]));
  expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);

  // slow writes down so that the kill lands in the middle
  await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules: [{ type: 'latency', latencyMs: 25, method: 'POST', pathPrefix: '/api/' }, { type: 'latency', latencyMs: 25, method: 'PUT' }] }) });
  const child = spawn(process.execPath, [LAUNCHER, 'apply', 'plan.json'], { cwd: ws.dir, env: baseEnv(env()), stdio: ['ignore', 'pipe', 'pipe'] });
  let started = 0;
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => {
    started += (d.match(/^create /gm) ?? []).length;
    if (started >= 30) child.kill('SIGKILL');
  });
  const ended = await new Promise<NodeJS.Signals | null>((resolve) => child.on('close', (_code, signal) => resolve(signal)));
  await fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' });
  expect(ended).toBe('SIGKILL');
  expect(out).not.toMatch(/Apply complete/);
  // wait for the writes in flight at the kill to finish on the server (its in-flight gauge)
  await settled();
  const afterKill = counts();
  const made = Object.values(afterKill).reduce((a, b) => a + b, 0);
  expect(made).toBeGreaterThan(0);
  expect(made).toBeLessThan(N);

  // the same plan file again: refused, nothing written
  await fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
  const again = await cli(['apply', 'plan.json']);
  expect(again.code).toBe(1);
  expect(again.err).toMatch(/stale plan: live state changed since the plan was made; apply refuses it and wrote nothing/);
  expect(again.err).toMatch(/: the saved plan would create it, a plan made now would leave it unchanged \(it was created since the plan\)/);
  expect(await writes()).toBe(0);
  expect(counts()).toEqual(afterKill);

  // plan again: it creates only what is missing; applied, the next plan is empty
  const replanned = await cli(['plan', '--out', 'plan2.json']);
  expect(replanned.code).toBe(0);
  expect(replanned.out).toMatch(new RegExp(`Plan: ${N - made} to add, 0 to change, .*0 to destroy\\.`));
  const applied = await cli(['apply', 'plan2.json']);
  expect(applied.code).toBe(0);
  expect(applied.out).toMatch(new RegExp(`Apply complete: ${N - made} applied, 0 failed, 0 not attempted`));
  expect((await cli(['plan', '--detailed-exitcode'])).code).toBe(0);
  expect(counts()).toEqual(declared);
}, 120_000);
