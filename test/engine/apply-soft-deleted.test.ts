/**
 * Governance kinds delete softly: the platform keeps a deleted object, with its etag, and a
 * create at the same id must continue from that etag (compare-and-swap). In process against an
 * emulator: an owner deleted and declared again is created over its tombstone; `--replace` of an
 * owner deletes it and creates it again at the same id; both read back as the code says.
 * (Issue 23: the tombstone paths of apply were reached only by spawned CLI suites.)
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { deriveId } from '../../src/engine/identity';

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

const code = (ns: string, resource: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const live = (ns: string) =>
  emu.app.store
    .workspace('demo')
    .collection<{ id: string; title: string; deletedAt?: string }>('owners')
    .filter((o) => o.id === deriveId('demo', ns, 'dq_owner', 'a'))
    .map((o) => ({ title: o.title, deleted: !!o.deletedAt }));

async function applied(ns: string, resource: Record<string, unknown>, replace: string[] = []) {
  const p = await plan(client, code(ns, resource), { request: { destroy: false, refreshOnly: false, targets: [], replace } });
  expect(p.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  const r = await apply(client, p, { progressIntervalMs: 0 });
  expect(r.failed).toEqual([]);
  return r.applied.map((a) => `${a.action} ${a.address}`);
}

test('an owner deleted, then declared again: created over its tombstone, live again', async () => {
  expect(await applied('sd-again', { dq_owner: { a: { title: 'A' } } })).toEqual(['create dq_owner.a']);
  expect(await applied('sd-again', {})).toEqual([`delete dq_owner["${deriveId('demo', 'sd-again', 'dq_owner', 'a')}"]`]);
  expect(live('sd-again')).toEqual([{ title: 'A', deleted: true }]);
  expect(await applied('sd-again', { dq_owner: { a: { title: 'A again' } } })).toEqual(['create dq_owner.a']);
  expect(live('sd-again')).toEqual([{ title: 'A again', deleted: false }]);
});

test('--replace of an owner: deleted and created again at the same id', async () => {
  expect(await applied('sd-replace', { dq_owner: { a: { title: 'A' } } })).toEqual(['create dq_owner.a']);
  expect(await applied('sd-replace', { dq_owner: { a: { title: 'A' } } }, ['dq_owner.a'])).toEqual(['replace dq_owner.a']);
  expect(live('sd-replace')).toEqual([{ title: 'A', deleted: false }]);
  // and the next plan has nothing to do
  const next = await plan(client, code('sd-replace', { dq_owner: { a: { title: 'A' } } }));
  expect(next.changes.map((c) => c.action)).toEqual(['noop']);
});
