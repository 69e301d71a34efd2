/**
 * Progress of slow writes during apply, with the clock and timers driven by hand (no waiting):
 * a write still running after each interval reports `still creating <address> ... [Ns elapsed]`;
 * the report gives each write's duration; the timer stops with the write.
 *
 * @gateway
 */
import { startEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { apply, type ApplyClock } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceType } from '../../schemas/model/manifest';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let client: PlatformClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

/** A clock whose time moves only when `advance` is called, which also fires due intervals. */
function manualClock() {
  let now = 1_000_000;
  const timers = new Map<number, { fn: () => void; ms: number; next: number }>();
  let ids = 0;
  const clock: ApplyClock = {
    now: () => now,
    setInterval: (fn, ms) => {
      timers.set(++ids, { fn, ms, next: now + ms });
      return ids;
    },
    clearInterval: (h) => void timers.delete(h as number),
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers.values()].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.ms;
      due.fn();
    }
    now = end;
  };
  return { clock, advance, active: () => timers.size };
}

const alertDoc = (ns: string) => ({
  provider: { dq: [{ namespace: ns }] },
  resource: { dq_alert: { slow: { name: 'Slow', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#dq' } }], settings: { severities: [2] } } } } },
});

it('a create held for 25 s reports at 10 s and 20 s, then stops; the result carries its duration', async () => {
  const ns = 'progress-slow';
  const p = await plan(client, manifestFromTerraformJson(alertDoc(ns), { stack: ns }));
  const { clock, advance, active } = manualClock();
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let entered!: () => void;
  const started = new Promise<void>((r) => (entered = r));
  const handlers = {
    ...HANDLERS,
    dq_alert: {
      ...HANDLERS.dq_alert,
      create: async (...args: Parameters<typeof HANDLERS.dq_alert.create>) => {
        entered();
        await held;
        return HANDLERS.dq_alert.create(...args);
      },
    },
  } as Record<ResourceType, (typeof HANDLERS)[ResourceType]>;
  const lines: string[] = [];
  const done = apply(client, p, { handlers, clock, onProgress: (l) => lines.push(l) });
  await started;
  expect(active()).toBe(1);
  advance(9_999);
  expect(lines.filter((l) => l.startsWith('still'))).toEqual([]);
  advance(15_001);
  expect(lines.filter((l) => l.startsWith('still'))).toEqual(['still creating dq_alert.slow ... [10s elapsed]', 'still creating dq_alert.slow ... [20s elapsed]']);
  release();
  const r = await done;
  expect(r.applied).toEqual([{ address: 'dq_alert.slow', action: 'create', ms: 25_000 }]);
  // The timer went with the write: later time passing reports nothing more.
  expect(active()).toBe(0);
  advance(60_000);
  expect(lines.filter((l) => l.startsWith('still'))).toHaveLength(2);
});

it('progressIntervalMs 0 turns the reports off; a fast write reports nothing', async () => {
  const ns = 'progress-off';
  const p = await plan(client, manifestFromTerraformJson(alertDoc(ns), { stack: ns }));
  const { clock, active } = manualClock();
  const lines: string[] = [];
  const r = await apply(client, p, { clock, progressIntervalMs: 0, onProgress: (l) => lines.push(l) });
  expect(r.applied).toEqual([{ address: 'dq_alert.slow', action: 'create', ms: 0 }]);
  expect(active()).toBe(0);
  expect(lines.some((l) => l.startsWith('still'))).toBe(false);
});
