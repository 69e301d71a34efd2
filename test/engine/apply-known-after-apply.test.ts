/**
 * apply, in process against an emulator, of a rule whose effects were known only after apply
 * (it depends on a data product the same plan creates): apply writes the product, asks the
 * platform for the rule's preview then, and writes the rule only when the preview creates and
 * nothing else. The preview is the real one, or a stand-in answer, so that every outcome is
 * asserted word for word: what the progress says, what fails and why, and the halt. (Issue 23:
 * this was reached only through spawned CLI suites, which the mutation run does not count.)
 *
 * @gateway
 */
import { PlatformClient, PlatformUnreachableError } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply, type ApplyOptions } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceHandler } from '../../src/kinds/shared/types';
import type { ResourceType } from '../../schemas/model/manifest';
import { Effects, type Change } from '../../schemas/model/plan';
import { StepExecutor, UnreviewedEffectsError } from '../../src/engine/apply-executor';

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

const RULE = 'dq_monitor_deployment_rule.r';
const AFTER = 'it depends on dq_data_product.p, which this plan creates; the platform can preview it only once that exists';
const code = (ns: string) =>
  manifestFromTerraformJson(
    {
      provider: { dq: [{ namespace: ns }] },
      resource: {
        dq_data_product: { p: { title: 'P' } },
        dq_monitor_deployment_rule: { r: { title: 'R', product_config: { product_id: '${dq_data_product.p.entity_id}', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } } },
      },
    },
    { stack: ns },
  );
type Preview = NonNullable<ResourceHandler['preview']>;
const effects = (e: Partial<Effects>) => Effects.parse({ source: 'deploy-overview', ...e });

/** Plans `ns` (the rule known after apply), then applies it with the rule's preview replaced by `preview` (the real one when omitted). */
async function run(ns: string, preview?: Preview, opts: ApplyOptions = {}) {
  const p = await plan(client, code(ns));
  expect(p.changes.find((c) => c.address === RULE)?.effects?.afterApply).toBe(AFTER);
  const handlers = { ...HANDLERS } as Record<ResourceType, ResourceHandler>;
  if (preview) handlers.dq_monitor_deployment_rule = { ...HANDLERS.dq_monitor_deployment_rule, preview };
  const progress: string[] = [];
  const r = await apply(client, p, { handlers, onProgress: (l) => progress.push(l), progressIntervalMs: 0, ...opts });
  return { r, progress: progress.filter((l) => l.startsWith('asking the platform what') || l.startsWith(`${RULE}:`)) };
}

test('the real preview: the product is written first, then the rule is previewed and written', async () => {
  const { r, progress } = await run('kaa-real');
  expect(r.failed).toEqual([]);
  expect(r.applied.map((a) => `${a.action} ${a.address}`)).toEqual(['create dq_data_product.p', `create ${RULE}`]);
  expect(progress[0]).toBe(`asking the platform what ${RULE} does, now that what it depends on exists`);
  expect(progress[1]).toMatch(new RegExp(`^${RULE.replace(/\./g, '\\.')}: the platform previews `));
  expect(r.halted).toBeUndefined();
});

test.each<[string, Partial<Effects>, string]>([
  ['monitors and SQL tests', { monitorsToCreate: ['a', 'b'], testsToCreate: ['t'] }, '2 monitor(s) and 1 SQL test(s) to create'],
  ['monitors only', { monitorsToCreate: ['a'] }, '1 monitor(s) to create'],
  ['SQL tests only', { testsToCreate: ['t1', 't2'] }, '2 SQL test(s) to create'],
  ['nothing', {}, 'nothing created, changed or deleted'],
])('a preview that only creates (%s) is written, the progress saying what it creates', async (_why, e, says) => {
  const { r, progress } = await run(`kaa-ok-${_why.replace(/\W+/g, '-').toLowerCase()}`, async () => effects(e));
  expect(r.failed).toEqual([]);
  expect(r.applied.map((a) => a.address)).toEqual(['dq_data_product.p', RULE]);
  expect(progress).toEqual([`asking the platform what ${RULE} does, now that what it depends on exists`, `${RULE}: the platform previews ${says}`]);
});

test('a preview that deletes: the rule is not written, naming why, and the apply halts', async () => {
  const { r } = await run('kaa-deletes', async () => effects({ monitorsToCreate: ['a'], monitorsToDelete: ['m1', 'm2'] }));
  expect(r.applied.map((a) => a.address)).toEqual(['dq_data_product.p']);
  expect(r.failed).toEqual([{ address: RULE, action: 'create', error: `not written: its effects were known only after apply (${AFTER}), and now its preview deletes 2 monitor(s) (m1, m2)` }]);
  expect(r.halted).toEqual({ kind: 'preview', reason: `apply stopped before ${RULE}, whose effects known only after apply need a new review: nothing more was written` });
});

test('the rule not written is an UnreviewedEffectsError (write.unreviewed-effects), its message unchanged', async () => {
  const fail = jest.spyOn(StepExecutor.prototype as unknown as { fail: (c: Change, e: unknown) => void }, 'fail');
  try {
    const { r } = await run('kaa-code', async () => effects({ monitorsToDelete: ['m1'] }));
    const why = `not written: its effects were known only after apply (${AFTER}), and now its preview deletes 1 monitor(s) (m1)`;
    expect(r.failed).toEqual([{ address: RULE, action: 'create', error: why }]);
    const e = fail.mock.calls.map((x) => x[1]);
    expect(e).toEqual([expect.any(UnreviewedEffectsError)]);
    expect([(e[0] as UnreviewedEffectsError).code, (e[0] as Error).message]).toEqual(['write.unreviewed-effects', why]);
  } finally {
    fail.mockRestore();
  }
});

test.each<[string, Preview, string]>([
  ['fails (an error in the effects)', async () => effects({ error: 'effects unknown: 503' }), 'effects unknown: 503'],
  ['gives nothing', async () => undefined, 'no preview'],
  [
    'throws',
    async () => {
      throw new Error('socket hang up');
    },
    'socket hang up',
  ],
])('a preview that %s: not written without --allow-unpreviewed, written with it', async (why, preview, text) => {
  const ns = `kaa-fail-${why.replace(/\W+/g, '-').toLowerCase()}`;
  const { r } = await run(ns, preview);
  expect(r.applied.map((a) => a.address)).toEqual(['dq_data_product.p']);
  expect(r.failed).toEqual([
    { address: RULE, action: 'create', error: `not written: its effects were known only after apply (${AFTER}), and now its preview failed (${text}); re-run with --allow-unpreviewed to write it without knowing its effects` },
  ]);
  expect(r.halted?.kind).toBe('preview');
  const allowed = await run(`${ns}-allowed`, preview, { allowUnpreviewed: true });
  expect(allowed.r.failed).toEqual([]);
  expect(allowed.r.applied.map((a) => a.address)).toEqual(['dq_data_product.p', RULE]);
  expect(allowed.r.halted).toBeUndefined();
});

test('the platform gone while previewing: the apply stops as unreachable, the rule skipped', async () => {
  const { r } = await run('kaa-gone', async () => {
    throw new PlatformUnreachableError({ method: 'POST', path: '/x', status: 0, grpcCode: 'UNAVAILABLE' }, 'the platform at http://127.0.0.1:1 is not answering');
  });
  expect(r.applied.map((a) => a.address)).toEqual(['dq_data_product.p']);
  expect(r.failed).toEqual([]);
  expect(r.halted).toEqual({ kind: 'unreachable', reason: 'the platform at http://127.0.0.1:1 is not answering: nothing more was written' });
  expect(r.skipped.map((s) => s.address)).toEqual([RULE]);
});
