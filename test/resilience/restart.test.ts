/**
 * The emulator restarted in the middle of an apply (same data file; first on the same port,
 * then on a new one): every write the apply reported as done survives, the apply completes or
 * reports exactly what failed, and re-running plan and apply converges with no object lost and
 * none duplicated.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformClient } from '../../src/client';
import { apply } from '../../src/engine/applier';
import { plan } from '../../src/engine/reconcile';
import { kindCounts, terraformJson } from '../../bench/fixtures';
import { countsByKind, emulator, manifestOf, type RunningEmulator } from './helpers';

let dir: string;
let emu: RunningEmulator;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-restart-'));
});
afterEach(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const client = (url: string) =>
  // retries long enough to outlast a restart (~0.05 s up to ~1.6 s between attempts)
  PlatformClient.create({ baseUrl: url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.2, maxAttempts: 8 } });

it('restart mid-apply: acknowledged writes survive, a re-run converges, no object lost or duplicated', async () => {
  const dataFile = path.join(dir, 'state.json');
  emu = await emulator({ dataFile });
  const port = emu.port;
  const ns = 'res-restart';
  const N = 80;
  const doc = terraformJson(ns, N);
  let c = client(emu.url);
  const p = await plan(c, manifestOf(doc, ns));
  let creates = 0;
  let restarted: Promise<void> | undefined;
  const r = await apply(c, p, {
    maxDeletes: 0,
    // this client has no gRPC endpoint (the restart moves ports): SQL-test rule previews are unknown
    allowUnpreviewed: true,
    concurrency: 4,
    onProgress: (line) => {
      if (line.startsWith('create ') && ++creates === 12) {
        restarted = (async () => {
          await emu.close();
          emu = await emulator({ dataFile, port });
        })();
      }
    },
  });
  expect(restarted).toBeDefined();
  await restarted;
  const reported = [...r.applied, ...r.failed, ...r.skipped].map((x) => x.address).sort();
  expect(reported).toEqual(p.changes.map((ch) => ch.address).sort());
  await c.close();

  // a second restart on a new port, same data file: what apply said it did is still there
  await emu.close();
  emu = await emulator({ dataFile });
  expect(emu.port).not.toBe(port);
  c = client(emu.url);
  const after = await plan(c, manifestOf(doc, ns));
  const creating = new Set(after.changes.filter((ch) => ch.action === 'create').map((ch) => ch.address));
  for (const a of r.applied) expect(creating.has(a.address)).toBe(false);

  // re-run converges
  for (let i = 0; i < 3; i++) {
    const again = await plan(c, manifestOf(doc, ns));
    if (again.changes.every((ch) => ch.action === 'noop')) break;
    await apply(c, again, { maxDeletes: 0, allowUnpreviewed: true });
  }
  const final = await plan(c, manifestOf(doc, ns));
  expect(final.changes.filter((ch) => ch.action !== 'noop')).toEqual([]);
  expect(countsByKind(emu)).toEqual(kindCounts(N));
  await c.close();
});
