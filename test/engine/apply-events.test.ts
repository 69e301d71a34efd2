/**
 * The applier's typed events (issue 24): the exact stream of one apply against an in-process
 * emulator (durations aside): an update, creates one by one and in a batch, a wave's read-back,
 * deletes, a conflict that halts the writing, the change it leaves not attempted, the final
 * read-back and the summary. The returned result is the summary the stream ends with.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { upsertOwnerIn } from '../../src/emulator/routes/governance';
import { apply, ApplyRecorder, progressLine, type ApplyEvent } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { HANDLERS } from '../../src/kinds/index';

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

const manifest = (ns: string, resource: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const sqlTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1' });

/** The events with every duration replaced by a matcher (they depend on the machine). */
function modDurations(events: ApplyEvent[]): unknown[] {
  return events.map((e) => {
    if (e.type === 'apply.done') return { ...e, summary: { ...e.summary, applied: e.summary.applied.map((a) => ({ ...a, ms: expect.any(Number) })), failed: e.summary.failed.map((f) => ({ ...f, ms: expect.any(Number) })) } };
    return 'durationMs' in e ? { ...e, durationMs: expect.any(Number) } : e;
  });
}

it('one apply: update, creates (one by one and batched), deletes, a conflict halt and a change not attempted', async () => {
  const ns = 'events';
  const before = await plan(client, manifest(ns, { dq_owner: { a: { title: 'A' }, b: { title: 'B' }, d: { title: 'D' }, e: { title: 'E' } } }));
  expect((await apply(client, before)).failed).toEqual([]);

  // a updated, b, d and e pruned (deleted), c and the SQL test t created
  const p = await plan(client, manifest(ns, { dq_owner: { a: { title: 'A2' }, c: { title: 'C' } }, dq_sql_test: { t: sqlTest('T') } }));
  const store = emu.app.store.workspace('demo');
  // pruned objects are addressed by id: the three deletes, in the order they run
  const [b, d, e] = p.changes.filter((c) => c.action === 'delete').sort((x, y) => (x.address < y.address ? -1 : 1));
  const events: ApplyEvent[] = [];
  const r = await apply(client, p, {
    concurrency: 1,
    progressIntervalMs: 0,
    onEvent: (ev) => {
      events.push(ev);
      // someone else renames d in the UI just before dqform deletes it: its etag moves on
      if (ev.type === 'step.start' && ev.address === d.address) upsertOwnerIn(store, { id: d.id, title: 'Renamed elsewhere', contacts: { contacts: [] } } as never, new Date(), 'someone');
    },
  });

  // the platform's refusal (its request id varies)
  const error = expect.stringMatching(new RegExp(`^POST /api/owners/v1/delete failed: 409 ABORTED: owner ${d.id} was modified since it was read \\(etag .* is stale, current is .*\\) \\(request id [0-9a-f-]+\\)$`));
  const halt = `${d.address} met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written`;
  expect(modDurations(events)).toEqual([
    { type: 'checks.start', objects: 6 },
    { type: 'apply.start', workspace: 'demo', namespace: ns, steps: 6, waves: 2 },
    { type: 'batch.start', kind: 'dq_sql_test', label: 'SQL test', addresses: ['dq_sql_test.t'] },
    { type: 'step.done', address: 'dq_sql_test.t', action: 'create', id: expect.any(String), durationMs: expect.any(Number) },
    { type: 'step.start', address: 'dq_owner.a', action: 'update' },
    { type: 'step.done', address: 'dq_owner.a', action: 'update', id: expect.any(String), durationMs: expect.any(Number) },
    { type: 'step.start', address: 'dq_owner.c', action: 'create' },
    { type: 'step.done', address: 'dq_owner.c', action: 'create', id: expect.any(String), durationMs: expect.any(Number) },
    { type: 'readback', when: 'wave', addresses: ['dq_sql_test.t'] },
    { type: 'step.start', address: b.address, action: 'delete' },
    { type: 'step.done', address: b.address, action: 'delete', id: b.id, durationMs: expect.any(Number) },
    { type: 'step.start', address: d.address, action: 'delete' },
    { type: 'step.failed', address: d.address, action: 'delete', phase: 'write', error, durationMs: expect.any(Number) },
    { type: 'halt', kind: 'conflict', reason: halt },
    { type: 'step.skipped', address: e.address, action: 'delete', reason: 'halted', halt: 'conflict' },
    { type: 'readback', when: 'end', addresses: ['dq_owner.a', 'dq_owner.c', 'dq_sql_test.t'] },
    {
      type: 'apply.done',
      summary: {
        applied: [
          { address: 'dq_owner.a', action: 'update', ms: expect.any(Number) },
          { address: 'dq_owner.c', action: 'create', ms: expect.any(Number) },
          { address: b.address, action: 'delete', ms: expect.any(Number) },
          { address: 'dq_sql_test.t', action: 'create', ms: expect.any(Number) },
        ],
        failed: [{ address: d.address, action: 'delete', error, ms: expect.any(Number) }],
        skipped: [{ address: e.address, action: 'delete', because: halt }],
        halted: { kind: 'conflict', reason: halt },
      },
    },
  ]);
  // the result is the stream's summary, and folding the stream again gives it too
  expect(r).toEqual((events[events.length - 1] as Extract<ApplyEvent, { type: 'apply.done' }>).summary);
  const again = new ApplyRecorder();
  for (const e of events) again.on(e);
  expect(again.summary()).toEqual(r);
  // the progress lines (what onProgress and the CLI print) of the same stream
  expect(events.map(progressLine).filter((l) => l !== undefined)).toEqual([
    'checking that live state has not moved since the plan',
    'writing 1 SQL test(s) in batches',
    'update dq_owner.a',
    'create dq_owner.c',
    `delete ${b.address}`,
    `delete ${d.address}`,
    'reading back the 3 object(s) written',
  ]);
});

it('an apply that writes nothing: start and done, nothing between', async () => {
  const ns = 'events-none';
  const p = await plan(client, manifest(ns, {}));
  const events: ApplyEvent[] = [];
  const r = await apply(client, p, { onEvent: (e) => events.push(e) });
  expect(events).toEqual([
    { type: 'apply.start', workspace: 'demo', namespace: ns, steps: 0, waves: 0 },
    { type: 'apply.done', summary: { applied: [], failed: [], skipped: [] } },
  ]);
  expect(r).toEqual({ applied: [], failed: [], skipped: [] });
});

it('a failed change: its dependents are skipped with reason dependency-failed, naming it', async () => {
  const ns = 'events-dep';
  const p = await plan(client, manifest(ns, { dq_owner: { o: { title: 'O' } }, dq_sql_test: { t: { ...sqlTest('T'), depends_on: ['dq_owner.o'] } } }));
  const handlers = { ...HANDLERS };
  handlers.dq_owner = {
    ...handlers.dq_owner,
    create: async () => {
      throw new Error('boom');
    },
  };
  const events: ApplyEvent[] = [];
  const r = await apply(client, p, { handlers, progressIntervalMs: 0, onEvent: (e) => events.push(e) });
  expect(modDurations(events.filter((e) => e.type.startsWith('step.')))).toEqual([
    { type: 'step.start', address: 'dq_owner.o', action: 'create' },
    { type: 'step.failed', address: 'dq_owner.o', action: 'create', phase: 'write', error: 'boom', durationMs: expect.any(Number) },
    { type: 'step.skipped', address: 'dq_sql_test.t', action: 'create', reason: 'dependency-failed', dependency: 'dq_owner.o' },
  ]);
  expect(r.skipped).toEqual([{ address: 'dq_sql_test.t', action: 'create', because: 'dq_owner.o failed' }]);
  expect(r.halted).toBeUndefined();
});
