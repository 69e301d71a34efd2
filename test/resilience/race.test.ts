/**
 * Issue 12's acceptance: two applies of conflicting plans, started together, 10 times. Both plan
 * the same 107 objects of every kind (same addresses, different values) before either applies,
 * as two CI jobs of two pull requests would; then both `dqform apply PLANFILE` run at once.
 *
 * Before this issue, both exited 0 "Apply complete" in 2 of 3 runs, leaving a mix of both
 * configs. Now:
 * - never both exit 0;
 * - the side that exits 0 (if one does) finds live state exactly as its code says, except for
 *   objects the other side names as conflicts in its report: nothing is overwritten silently;
 * - a side that exits 1 names conflicts.
 * And an alert made in the UI with the same fqn while an apply runs is never overwritten.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { terraformJson } from '../../bench/fixtures';
import { createAlert } from '../../src/emulator/routes/alerts';
import { emulator, manifestOf, fastClient, setFaults, type RunningEmulator } from './helpers';
import { plan } from '../../src/engine/reconcile';

let emu: RunningEmulator;
let root: string;
beforeAll(async () => {
  emu = await emulator({ seed: 'empty' });
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-race-'));
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(root, { recursive: true, force: true });
});

/** `dqform ...args` in-process in `dir` (synth output in `<dir>/out`), with the emulator's REST and gRPC endpoints. */
async function dqform(dir: string, args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint ?? '', DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', DQFORM_PROGRESS_SECONDS: '0' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A checkout holding stack `ns` with `doc` synthesised. */
function checkout(name: string, ns: string, doc: Record<string, unknown>): string {
  const dir = path.join(root, name);
  fs.mkdirSync(path.join(dir, 'out', 'stacks', ns), { recursive: true });
  fs.writeFileSync(path.join(dir, 'out', 'stacks', ns, 'cdk.tf.json'), JSON.stringify(doc));
  return dir;
}

/** Addresses whose live state differs from `doc` (a plan of it, not counting unchanged or unmanaged). */
async function differing(ns: string, doc: Record<string, unknown>): Promise<string[]> {
  const c = fastClient(emu.url);
  try {
    const p = await plan(c, manifestOf(doc, ns));
    return p.changes.filter((x) => x.action !== 'noop' && x.action !== 'unmanaged').map((x) => x.address);
  } finally {
    await c.close();
  }
}

const N = 107;

describe('two applies of conflicting plans, started together', () => {
  const outcomes: string[] = [];
  afterAll(() => {
    console.log(`race outcomes over ${outcomes.length} runs (A/B exit codes): ${outcomes.join(', ')}`);
  });

  it.each(Array.from({ length: 10 }, (_, i) => [i + 1]))('run %d: never both exit 0; whatever differs from the winner is named by the loser', async (run) => {
    const ns = `race-${run}`;
    const docA = terraformJson(ns, N);
    const docB = terraformJson(ns, N, { changedEvery: 1 });
    const a = checkout(`a${run}`, ns, docA);
    const b = checkout(`b${run}`, ns, docB);
    // both reviewed against the same (empty) live state
    expect((await dqform(a, ['plan', '--out', path.join(a, 'plan.json')])).code).toBe(0);
    expect((await dqform(b, ['plan', '--out', path.join(b, 'plan.json')])).code).toBe(0);

    // random latency (seeded per run) on half the requests shuffles how the two applies interleave
    await setFaults(emu, [{ type: 'latency', latencyMs: 4, rate: 0.5, pathPrefix: '/api/' }], run);
    const [ra, rb] = await Promise.all([dqform(a, ['apply', path.join(a, 'plan.json')]), dqform(b, ['apply', path.join(b, 'plan.json')])]);
    await setFaults(emu, []);
    outcomes.push(`${ra.code}/${rb.code}`);
    if (process.env.RACE_DEBUG) fs.writeFileSync(path.join(os.tmpdir(), `race-${run}.log`), `A ${ra.code}\n${ra.out}\n${ra.err}\n\nB ${rb.code}\n${rb.out}\n${rb.err}\n`);

    expect([ra.code, rb.code]).not.toEqual([0, 0]);
    for (const r of [ra, rb]) {
      expect([0, 1]).toContain(r.code);
      expect(r.err).not.toMatch(/Internal error/);
      if (r.code === 1) expect(r.err).toMatch(/conflict|stale plan|changed since the plan|created since the plan/i);
    }
    for (const [winner, loser, doc] of [
      [ra, rb, docA],
      [rb, ra, docB],
    ] as const) {
      if (winner.code !== 0) continue;
      expect(winner.out).toMatch(new RegExp(`Apply complete: ${N + 0}|Apply complete: \\d+ applied, 0 failed, 0 not attempted`));
      // live state is the winner's code, except what the loser reports having met or replaced
      for (const address of await differing(ns, doc)) expect(loser.err).toContain(address);
    }
  }, 120_000);
});

describe('an alert made in the UI with the same fqn while an apply runs', () => {
  it('is never overwritten nor adopted: the apply reports the conflict (exit 1), the UI alert stays as it was', async () => {
    const ns = 'race-ui';
    const doc = {
      provider: { dq: [{ namespace: ns }] },
      resource: {
        dq_owner: { team: { title: 'Team' } },
        dq_alert: { a: { name: 'From code', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#code' } }], settings: { severities: [2] } } } },
      },
    };
    const dir = checkout('ui', ns, doc);
    expect((await dqform(dir, ['plan', '--out', path.join(dir, 'plan.json')])).code).toBe(0);
    // the UI user saves their alert after apply's checks and just before its create
    const store = emu.app.store.workspace('demo');
    const uiAlert = {
      name: 'Made in the UI',
      fqn: `${ns}.a`,
      issueLifecycle: { trigger: { resolverQl: 'with_type("view")' }, targets: [{ email: { recipientEmails: ['ui@example.com'] } }], settings: { severities: ['SEVERITY_FATAL'] } },
    };
    const out: string[] = [];
    const err: string[] = [];
    const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
    const io = {
      out: (s: string) => out.push(s),
      err: (s: string) => {
        err.push(s);
        if (s === 'create dq_alert.a') createAlert(store, uiAlert as never, 'SOURCE_APP', new Date());
      },
      env,
      cwd: dir,
      isTty: false,
    };
    const code = await main(['apply', path.join(dir, 'plan.json'), '--dir', path.join(dir, 'out')], io);
    expect(code).toBe(1);
    const text = err.join('\n');
    expect(text).toMatch(/create dq_alert\.a: FAILED: conflict: an alert with fqn "race-ui\.a" was created by someone in the UI after the plan; dqform did not overwrite it/);
    // the owner (no conflict) went through; the UI alert is exactly what the UI saved
    expect(out.join('\n')).toMatch(/create dq_owner\.team: done/);
    const c = fastClient(emu.url);
    const live = Object.values(await c.alerts.batchGet([{ fqn: `${ns}.a` }]));
    await c.close();
    expect(live).toHaveLength(1);
    expect(live[0].name).toBe('Made in the UI');
    expect(live[0].source ?? 'SOURCE_APP').toBe('SOURCE_APP');
    expect(live[0].configId).toBeUndefined();
    expect(live[0].etag).toMatch(/-1"$/);
  }, 60_000);
});
