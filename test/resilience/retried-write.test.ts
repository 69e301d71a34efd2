/**
 * A retried write whose first attempt succeeded (upstream facts: "can also come back ABORTED:
 * read and compare before calling it a conflict"), end to end over real HTTP.
 *
 * The emulator's `dropAfter` fault applies a write, makes it durable, then drops the connection
 * before answering. The client retries the idempotent write with the plan's etag, which moved
 * with the first attempt, so the server answers 409 ABORTED. The applier's `confirmed(...)`
 * re-reads the object: live equals the plan's `after`, so the update counts as applied and the
 * next plan is empty. When someone else changed the object in between, live differs from the
 * plan and the conflict is still reported as a failure. A dropped delete is retried and the
 * retry finds nothing, which counts as done.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { apply } from '../../src/engine/applier';
import { plan } from '../../src/engine/reconcile';
import type { PlatformClient } from '../../src/client';
import type { Plan } from '../../schemas/model/plan';
import { resourceName, terraformJson, type BenchKind } from '../../bench/fixtures';
import { cli, emulator, fastClient, manifestOf, resetCounters, setFaults, writeRequests, writeStack, type RunningEmulator } from './helpers';

/** Kinds whose updates carry an etag, with their update route (method, exact path) and collection. */
const KINDS: { kind: BenchKind; method: string; path: string; collection: string; field: string }[] = [
  { kind: 'dq_owner', method: 'POST', path: '/api/owners/v1', collection: 'owners', field: 'title' },
  { kind: 'dq_domain', method: 'POST', path: '/api/domains/v2', collection: 'domains', field: 'name' },
  { kind: 'dq_alert', method: 'PUT', path: '/api/alerts/v2', collection: 'alerts', field: 'name' },
];

let emu: RunningEmulator;
let c: PlatformClient;
/** Client log lines (redacted by the client). */
const clientLog: string[] = [];
/** Emulator log lines: `<METHOD> <path> <status | dropped (fault)> <ms> <request id>`. */
const serverLog: string[] = [];
/** Called synchronously for every client log line (a test hook; no-op by default). */
let onClientLog: (line: string) => void = () => undefined;

beforeEach(async () => {
  clientLog.length = 0;
  serverLog.length = 0;
  onClientLog = () => undefined;
  emu = await emulator({ log: (l) => serverLog.push(l) });
  c = fastClient(emu.url, 'demo-admin', 'demo-secret', (l) => {
    clientLog.push(l);
    onClientLog(l);
  });
});
afterEach(async () => {
  await c.close();
  await emu.close();
});

/** The outcomes the emulator logged for `method path` exactly, in order. */
function outcomes(method: string, p: string): string[] {
  const prefix = `${method} ${p} `;
  return serverLog.filter((l) => l.startsWith(prefix)).map((l) => l.slice(prefix.length).replace(/ [\d.]+ms .*$/, ''));
}

/** Creates one object of `kind` in `ns`, then plans its edit: exactly one update, with an etag. */
async function appliedThenEdited(kind: BenchKind, ns: string): Promise<{ edited: Record<string, unknown>; p: Plan; address: string }> {
  const original = terraformJson(ns, 1, { kinds: [kind] });
  const first = await apply(c, await plan(c, manifestOf(original, ns)), { maxDeletes: 0 });
  expect(first.failed).toEqual([]);
  const edited = terraformJson(ns, 1, { kinds: [kind], changedEvery: 1 });
  const p = await plan(c, manifestOf(edited, ns));
  const address = `${kind}.${resourceName(kind, 0)}`;
  const writes = p.changes.filter((ch) => ch.action !== 'noop');
  expect(writes.map((ch) => [ch.address, ch.action])).toEqual([[address, 'update']]);
  expect(writes[0].etag).toMatch(/^W\/".+-1"$/);
  return { edited, p, address };
}

/** The one live object of a collection in the demo workspace, straight from the emulator's store. */
function liveOne(collection: string): Record<string, unknown> {
  const all = emu.app.store.workspace('demo').collection<Record<string, unknown>>(collection).filter((o) => !o.deletedAt);
  expect(all).toHaveLength(1);
  return all[0];
}

describe.each(KINDS)('$kind: dropAfter on the update', ({ kind, method, path: writePath, collection, field }) => {
  it('the client retries with the same etag, meets 409 ABORTED; the applier re-reads, confirms and reports it applied; the next plan is empty', async () => {
    const ns = `res-retried-${kind.replace(/_/g, '-')}`;
    const { edited, p, address } = await appliedThenEdited(kind, ns);
    await setFaults(emu, [{ type: 'dropAfter', count: 1, pathPrefix: writePath, method }]);
    await resetCounters(emu);
    serverLog.length = 0;
    clientLog.length = 0;

    const r = await apply(c, p, { maxDeletes: 0 });

    expect(r).toEqual({ applied: [{ address, action: 'update', ms: expect.any(Number) }], failed: [], skipped: [] });
    // what happened on the wire: the first attempt was applied and dropped, the retry (same
    // etag) was refused 409 ABORTED, and nothing else was written
    expect(outcomes(method, writePath)).toEqual(['dropped (fault)', '409']);
    expect(await writeRequests(emu)).toEqual({ [`${method} ${writePath}`]: 2 });
    expect(clientLog.filter((l) => l.startsWith(`retry ${method} ${writePath}`))).toHaveLength(1);
    const faults = (await (await fetch(`${emu.url}/__emulator/faults`)).json()) as { hits: Record<string, number> };
    expect(faults.hits).toEqual({ dropAfter: 1 });
    // one write landed: version 2, the edited value
    const live = liveOne(collection);
    expect(String(live[field])).toMatch(/ v2$/);
    expect(live.etag).toMatch(/-2"$/);

    const next = await plan(c, manifestOf(edited, ns));
    expect(next.changes.filter((ch) => ch.action !== 'noop')).toEqual([]);
  });

  it('a real conflict still fails: someone else edits the object between the dropped attempt and the retry', async () => {
    const ns = `res-conflict-${kind.replace(/_/g, '-')}`;
    const { p, address } = await appliedThenEdited(kind, ns);
    await setFaults(emu, [{ type: 'dropAfter', count: 1, pathPrefix: writePath, method }]);
    serverLog.length = 0;
    // the client logs its retry synchronously before waiting: a UI user's edit lands right then
    let edits = 0;
    onClientLog = (line) => {
      if (!line.startsWith(`retry ${method} ${writePath}`)) return;
      const coll = emu.app.store.workspace('demo').collection<Record<string, unknown>>(collection);
      const { etag: _etag, ...obj } = liveOne(collection);
      coll.put(obj.id as string, { ...obj, [field]: 'Edited in the UI' });
      edits++;
    };

    const r = await apply(c, p, { maxDeletes: 0 });

    expect(edits).toBe(1);
    expect(r.applied).toEqual([]);
    expect(r.skipped).toEqual([]);
    expect(r.failed).toHaveLength(1);
    expect(r.failed[0]).toMatchObject({ address, action: 'update' });
    expect(r.failed[0].error).toMatch(new RegExp(`^${method} ${writePath} failed: 409 ABORTED: .* was modified since it was read`));
    expect(outcomes(method, writePath)).toEqual(['dropped (fault)', '409']);
    // the other edit is kept, not overwritten
    expect(liveOne(collection)[field]).toBe('Edited in the UI');
  });
});

it('dq_owner via the CLI: apply exits 0 reporting the update, and plan afterwards shows no changes', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-retried-'));
  try {
    const ns = 'res-retried-cli';
    writeStack(dir, ns, terraformJson(ns, 1, { kinds: ['dq_owner'] }));
    expect((await cli(emu.url, dir, ['apply', '--auto-approve'])).code).toBe(0);
    writeStack(dir, ns, terraformJson(ns, 1, { kinds: ['dq_owner'], changedEvery: 1 }));
    await setFaults(emu, [{ type: 'dropAfter', count: 1, pathPrefix: '/api/owners/v1', method: 'POST' }]);
    serverLog.length = 0;

    const r = await cli(emu.url, dir, ['apply', '--auto-approve']);

    expect(r.code).toBe(0);
    expect(r.err).not.toMatch(/error|fail|conflict/i);
    expect(r.out).toMatch(/dq_owner\.o0/);
    expect(outcomes('POST', '/api/owners/v1')).toEqual(['dropped (fault)', '409']);
    const after = await cli(emu.url, dir, ['plan', '--detailed-exitcode']);
    expect(after.code).toBe(0);
    expect(String(liveOne('owners').title)).toBe('Owner 0 v2');
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

it('dq_alert delete: the dropped delete took effect, the retry finds nothing (404) and the delete counts as applied', async () => {
  const ns = 'res-retried-delete';
  const first = await apply(c, await plan(c, manifestOf(terraformJson(ns, 1, { kinds: ['dq_alert'] }), ns)), { maxDeletes: 0 });
  expect(first.failed).toEqual([]);
  liveOne('alerts');
  const p = await plan(c, manifestOf({ provider: { dq: [{ namespace: ns }] }, resource: {} }, ns));
  // pruned: no longer in code, so addressed by its fqn
  const address = 'dq_alert["res-retried-delete.alert0"]';
  expect(p.changes.map((ch) => [ch.address, ch.action])).toEqual([[address, 'delete']]);
  await setFaults(emu, [{ type: 'dropAfter', count: 1, pathPrefix: '/api/alerts/v2', method: 'DELETE' }]);
  serverLog.length = 0;

  const r = await apply(c, p, { maxDeletes: 1 });

  expect(r).toEqual({ applied: [{ address, action: 'delete', ms: expect.any(Number) }], failed: [], skipped: [] });
  expect(outcomes('DELETE', '/api/alerts/v2')).toEqual(['dropped (fault)', '404']);
  expect(emu.app.store.workspace('demo').collection('alerts').filter(() => true)).toEqual([]);
  const next = await plan(c, manifestOf({ provider: { dq: [{ namespace: ns }] }, resource: {} }, ns));
  expect(next.changes.filter((ch) => ch.action !== 'noop')).toEqual([]);
});
