/**
 * The progress apply reports while a write runs long, per kind of write (Terraform's words:
 * creating, updating, replacing, destroying; a batch: writing N <kind>(s)), with the clock moved
 * by hand from inside the write. In process against an emulator. (Issue 23: apply-progress.test.ts
 * covers a create; these are the other verbs.)
 *
 * @gateway
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { apply, type ApplyClock } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceHandler } from '../../src/kinds/shared/types';
import type { ResourceType } from '../../schemas/model/manifest';
import type { PlanRequest } from '../../schemas/model/plan';

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

/** A clock moved only by `advance`, which fires the intervals that fall due. */
function manualClock() {
  let now = 0;
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
  return { clock, advance };
}

const code = (ns: string, resource: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const sqlTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1' });

/** Applies the plan of `resource` with every write of the kinds in `slow` taking 12 s (by the clock); the `still` lines. */
async function slowApply(ns: string, resource: Record<string, unknown>, slow: ResourceType[], request?: PlanRequest) {
  const p = await plan(client, code(ns, resource), request ? { request } : {});
  const { clock, advance } = manualClock();
  const handlers = { ...HANDLERS } as Record<ResourceType, ResourceHandler>;
  for (const t of slow) {
    const h = HANDLERS[t];
    const wrap =
      <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
      async (...a: A): Promise<R> => {
        advance(12_000);
        return f(...a);
      };
    handlers[t] = { ...h, create: wrap(h.create), update: wrap(h.update), delete: wrap(h.delete), ...(h.writeMany ? { writeMany: wrap(h.writeMany) } : {}) };
  }
  const lines: string[] = [];
  const r = await apply(client, p, { handlers, clock, onProgress: (l) => lines.push(l) });
  expect(r.failed).toEqual([]);
  return { still: lines.filter((l) => l.startsWith('still')), r };
}

test('create, update, replace and destroy each report in their own words, with the time elapsed', async () => {
  expect((await slowApply('pv-a', { dq_owner: { a: { title: 'A' } } }, ['dq_owner'])).still).toEqual(['still creating dq_owner.a ... [10s elapsed]']);
  expect((await slowApply('pv-a', { dq_owner: { a: { title: 'A2' } } }, ['dq_owner'])).still).toEqual(['still updating dq_owner.a ... [10s elapsed]']);
  const replaced = await slowApply('pv-a', { dq_owner: { a: { title: 'A2' } } }, ['dq_owner'], { destroy: false, refreshOnly: false, targets: [], replace: ['dq_owner.a'] });
  // a replace is one write of 24 s (a delete, then a create)
  expect(replaced.still).toEqual(['still replacing dq_owner.a ... [10s elapsed]', 'still replacing dq_owner.a ... [20s elapsed]']);
  expect(replaced.r.applied).toEqual([{ address: 'dq_owner.a', action: 'replace', ms: 24_000 }]);
  const destroyed = await slowApply('pv-a', {}, ['dq_owner']);
  expect(destroyed.still).toEqual([expect.stringMatching(/^still destroying dq_owner\["[0-9a-f-]+"\] \.\.\. \[10s elapsed\]$/)]);
});

test('a batch reports as one write of the whole batch', async () => {
  const { still, r } = await slowApply('pv-b', { dq_sql_test: { t: sqlTest('T'), u: sqlTest('U') } }, ['dq_sql_test']);
  expect(still).toEqual(['still writing 2 SQL test(s) ... [10s elapsed]']);
  expect(r.applied).toEqual([
    { address: 'dq_sql_test.t', action: 'create', ms: 12_000 },
    { address: 'dq_sql_test.u', action: 'create', ms: 12_000 },
  ]);
});
