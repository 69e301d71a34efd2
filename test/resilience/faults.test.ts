/**
 * Faults injected by the emulator (429 with Retry-After, 503, dropped connections, slow
 * bodies) during plan and during apply, over real HTTP: the plan equals the fault-free plan;
 * apply completes or stops with an exact report; a re-run converges; never a duplicate object
 * (counted per kind in the emulator's store), never a lost update.
 *
 * @gateway
 */
import { apply, type ApplyResult } from '../../src/engine/applier';
import { plan } from '../../src/engine/reconcile';
import type { PlatformClient } from '../../src/client';
import { kindCounts, terraformJson } from '../../bench/fixtures';
import { comparable, countsByKind, emulator, fastClient, manifestOf, setFaults, type RunningEmulator } from './helpers';

const N = 72; // 8 objects of each of the 9 kinds
const FAULTS = [
  { type: 'rateLimit', rate: 0.12, retryAfterSeconds: 1, pathPrefix: '/api/' },
  { type: 'unavailable', rate: 0.12, pathPrefix: '/api/' },
  { type: 'drop', rate: 0.08, pathPrefix: '/api/' },
  { type: 'slow', rate: 0.1, latencyMs: 30, pathPrefix: '/api/' },
];

let emu: RunningEmulator;
let c: PlatformClient;
const logs: string[] = [];
beforeEach(async () => {
  emu = await emulator();
  logs.length = 0;
  c = fastClient(emu.url, 'demo-admin', 'demo-secret', (l) => logs.push(l));
});
afterEach(async () => {
  await c.close();
  await emu.close();
});

const expected = () => {
  const k = kindCounts(N) as Record<string, number>;
  return k;
};

/** Applies until the plan is empty (at most `rounds` times); returns each round's result. */
async function converge(ns: string, doc: Record<string, unknown>, rounds = 4): Promise<ApplyResult[]> {
  const results: ApplyResult[] = [];
  for (let i = 0; i < rounds; i++) {
    const p = await plan(c, manifestOf(doc, ns));
    if (p.changes.every((ch) => ch.action === 'noop')) return results;
    results.push(await apply(c, p, { maxDeletes: 0 }));
  }
  throw new Error(`no convergence after ${rounds} rounds`);
}

/** Every address of the plan is in exactly one of applied / failed / skipped. */
function expectExactReport(p: { changes: { address: string; action: string }[] }, r: ApplyResult): void {
  const writes = p.changes.filter((ch) => ch.action !== 'noop' && ch.action !== 'unmanaged').map((ch) => ch.address).sort();
  const reported = [...r.applied, ...r.failed, ...r.skipped].map((x) => x.address).sort();
  expect(reported).toEqual(writes);
  for (const f of r.failed) expect(f.error).toMatch(/\S/);
  for (const s of r.skipped) expect(s.because).toMatch(/failed/);
}

it('a plan read under 429/503/drop/slow faults equals the fault-free plan', async () => {
  const ns = 'res-plan';
  expect(await converge(ns, terraformJson(ns, N))).toHaveLength(1);
  const edited = terraformJson(ns, N, { changedEvery: 4 });
  const clean = await plan(c, manifestOf(edited, ns));
  expect(clean.summary.change).toBeGreaterThanOrEqual(16);
  await setFaults(emu, FAULTS);
  logs.length = 0;
  const faulted = await plan(c, manifestOf(edited, ns));
  const retries = logs.filter((l) => l.startsWith('retry ')).length;
  expect(retries).toBeGreaterThan(0); // the faults did fire
  expect(comparable(faulted)).toEqual(comparable(clean));
});

it('apply under faults completes or stops with an exact report; a re-run converges with no duplicate and no lost update', async () => {
  const ns = 'res-apply';
  const doc = terraformJson(ns, N);
  await setFaults(emu, FAULTS, 11);
  const p = await plan(c, manifestOf(doc, ns));
  const r = await apply(c, p, { maxDeletes: 0 });
  expectExactReport(p, r);
  expect(logs.some((l) => l.startsWith('retry '))).toBe(true);
  // the faults stay on: re-running plan and apply converges anyway
  await converge(ns, doc, 6);
  await setFaults(emu, []);
  expect(countsByKind(emu)).toEqual(expected());

  // updates under faults: every edited value lands (no lost update), still no duplicate
  const edited = terraformJson(ns, N, { changedEvery: 2 });
  await setFaults(emu, FAULTS, 23);
  const pu = await plan(c, manifestOf(edited, ns));
  expect(pu.summary.change).toBe(N / 2);
  expectExactReport(pu, await apply(c, pu, { maxDeletes: 0 }));
  await converge(ns, edited, 6);
  await setFaults(emu, []);
  const final = await plan(c, manifestOf(edited, ns));
  expect(final.changes.filter((ch) => ch.action !== 'noop')).toEqual([]);
  expect(countsByKind(emu)).toEqual(expected());
  const owners = emu.app.store.workspace('demo').collection<{ title: string }>('owners').values().map((o) => o.title);
  expect(owners.filter((t) => t.endsWith(' v2'))).toHaveLength(N / 9 / 2);
});

it('a burst of 503s longer than the retry budget stops apply with an exact report, and nothing half-written is duplicated on re-run', async () => {
  const ns = 'res-burst';
  const doc = terraformJson(ns, N);
  const p = await plan(c, manifestOf(doc, ns));
  // every rule deploy fails for good (a 503 burst longer than the retry budget); the rule
  // reads are GETs, so the stale check still passes
  await setFaults(emu, [{ type: 'unavailable', count: 1000, pathPrefix: '/api/monitors/automated/v1/deployment-rules/batch/deployed', method: 'POST' }]);
  const r = await apply(c, p, { maxDeletes: 0 });
  expectExactReport(p, r);
  const rules = p.changes.filter((ch) => ch.type === 'dq_monitor_deployment_rule').map((ch) => ch.address).sort();
  expect(r.failed.map((f) => f.address)).toEqual(rules);
  for (const f of r.failed) expect(f.error).toMatch(/503 UNAVAILABLE/);
  expect(r.applied).toHaveLength(p.changes.length - rules.length);
  expect(countsByKind(emu).dq_monitor_deployment_rule).toBe(0);
  await setFaults(emu, []);
  await converge(ns, doc);
  expect(countsByKind(emu)).toEqual(expected());
});
