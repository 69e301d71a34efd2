/**
 * Apply's guards, as pure functions and through `apply()` with a client that must never be
 * called (so these run without an emulator, and a refusal provably happens before any request):
 * --max-deletes counts deletes and replaces (default 10), --max-effect-deletes counts what the
 * platform deletes with the plan (default 100), unpreviewed rule changes need
 * --allow-unpreviewed, and a plan with error diagnostics is never applied.
 */
import { Change, Plan, type Effects } from '../../schemas/model/plan';
import { apply, PlanRefusedError } from '../../src/engine/applier';
import {
  DEFAULT_MAX_DELETES,
  DEFAULT_MAX_EFFECT_DELETES,
  destroyingChanges,
  effectDeleteCounts,
  effectDeletesText,
  destructiveEffects,
  guardRefusals,
  previewedKinds,
  unpreviewedChanges,
} from '../../src/engine/guards';
import type { PlatformClient } from '../../src/client';

/** A change of `type` `action` at `address` (the fields the guards look at). */
function change(address: string, action: Change['action'], effects?: Partial<Effects> & Pick<Effects, 'source'>): Change {
  const type = address.split('.')[0].replace(/\[.*$/, '');
  return Change.parse({ address, type, action, id: address, before: action === 'create' ? null : {}, after: action === 'delete' ? null : {}, ...(effects ? { effects } : {}) });
}
function plan(changes: Change[], diagnostics: Plan['diagnostics'] = []): Plan {
  return Plan.parse({
    formatVersion: 1,
    workspace: 'demo',
    namespace: 'ns',
    stack: 'ns',
    manifestHash: 'x',
    changes,
    summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 },
    diagnostics,
  });
}
const owners = (n: number, action: Change['action'] = 'delete') => Array.from({ length: n }, (_, i) => change(`dq_owner.o${i}`, action));
const monitors = (n: number) => Array.from({ length: n }, (_, i) => `wh::mart::t${i}`);
const previewed = { source: 'deploy-overview' as const };

/** A client whose every use fails the test: the guards must refuse before any request. */
const NO_CLIENT = new Proxy({}, { get: (_t, k) => (k === 'then' ? undefined : () => { throw new Error(`client.${String(k)} was used before the guards`); }) }) as unknown as PlatformClient;
/** A client that answers nothing: reaching it means the guards passed. */
class Reached extends Error {}
const REACHED_CLIENT = { iam: { get: async () => { throw new Reached('guards passed'); } } } as unknown as PlatformClient;

describe('counting', () => {
  it('destroyingChanges: deletes and replaces, nothing else', () => {
    const p = plan([change('dq_owner.a', 'delete'), change('dq_alert.b', 'replace'), change('dq_owner.c', 'update'), change('dq_owner.d', 'create'), change('dq_owner.e', 'noop'), change('dq_owner.f', 'unmanaged')]);
    expect(destroyingChanges(p).map((c) => c.address)).toEqual(['dq_owner.a', 'dq_alert.b']);
  });

  it('effectDeleteCounts: monitors and tests of rule previews, cascaded deletes the plan does not make itself; noop/unmanaged ignored', () => {
    const p = plan([
      change('dq_monitor_deployment_rule.narrowed', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(21), monitorsToCreate: monitors(5) }),
      change('dq_sql_test_deployment_rule.gone', 'delete', { source: 'sql-test-delete-overview', testsToDelete: ['a', 'b', 'c'] }),
      change('dq_owner.team', 'delete', {
        source: 'cascade',
        cascade: [
          { effect: 'deleted', type: 'dq_ownership', id: '1', name: 'x', managedBy: 'made in the UI', alsoDeleted: false },
          { effect: 'deleted', type: 'dq_ownership', id: '2', name: 'y', managedBy: 'this namespace', alsoDeleted: true },
          { effect: 'loses-parent', type: 'dq_domain', id: '3', name: 'z', managedBy: 'this namespace', alsoDeleted: false },
        ],
      }),
      change('dq_monitor_deployment_rule.same', 'noop', { source: 'deploy-overview', monitorsToDelete: monitors(50) }),
    ]);
    const e = effectDeleteCounts(p);
    expect(e).toEqual({
      monitors: 21,
      tests: 3,
      cascaded: { dq_ownership: 1 },
      total: 25,
      by: [
        { address: 'dq_monitor_deployment_rule.narrowed', count: 21 },
        { address: 'dq_sql_test_deployment_rule.gone', count: 3 },
        { address: 'dq_owner.team', count: 1 },
      ],
    });
    expect(effectDeletesText(e)).toBe('21 monitor(s), 3 SQL test(s) and 1 ownership(s) by cascade');
    expect(effectDeletesText(effectDeleteCounts(plan([])))).toBe('nothing');
  });

  it('unpreviewedChanges: rule writes whose preview failed or is missing; other kinds and noops never', () => {
    const kinds = previewedKinds();
    expect([...kinds].sort()).toEqual(['dq_check_categorisation_rule', 'dq_monitor_deployment_rule', 'dq_sql_test_deployment_rule']);
    const p = plan([
      change('dq_monitor_deployment_rule.ok', 'update', previewed),
      change('dq_monitor_deployment_rule.failed', 'create', { source: 'deploy-overview', error: 'HTTP 503' }),
      change('dq_sql_test_deployment_rule.none', 'delete'),
      change('dq_monitor_deployment_rule.kept', 'noop'),
      change('dq_owner.o', 'update'),
    ]);
    expect(unpreviewedChanges(p, kinds)).toEqual([
      { address: 'dq_monitor_deployment_rule.failed', why: 'HTTP 503' },
      { address: 'dq_sql_test_deployment_rule.none', why: 'the plan carries no preview of it' },
    ]);
  });

  it('unpreviewedChanges: a rule whose effects are known after apply is not unpreviewed (apply previews it then); no guard refuses it', () => {
    const p = plan([change('dq_monitor_deployment_rule.product', 'create', { source: 'deploy-overview', afterApply: 'it depends on dq_data_product.p, which this plan creates' })]);
    expect(unpreviewedChanges(p)).toEqual([]);
    expect(guardRefusals(p)).toEqual([]);
  });

  it.each<[string, Partial<Effects>, string | undefined]>([
    ['creates only: fine', { monitorsToCreate: ['a'], testsToCreate: ['t'], activeMonitors: 0 }, undefined],
    ['deletes monitors', { monitorsToDelete: ['a', 'b'] }, 'deletes 2 monitor(s) (a, b)'],
    ['deletes SQL tests', { testsToDelete: ['x/t'] }, 'deletes 1 SQL test(s) (x/t)'],
    ['resets baselines', { baselineResets: [{ assetPath: 'a', reason: 'metrics change' }] }, 'resets the baseline of 1 monitor(s) (a)'],
    ['takes over the settings of existing monitors', { settingsChanges: [{ assetPath: 'a', from: 'x', to: 'y' }] }, 'takes over the settings of 1 existing monitor(s) (a)'],
    ['takes over existing SQL tests', { testsToUpdate: ['x/t'] }, 'takes over 1 existing SQL test(s) (x/t)'],
  ])('destructiveEffects: %s', (_why, e, expected) => {
    const effects = change('dq_monitor_deployment_rule.r', 'create', { source: 'deploy-overview', ...e }).effects!;
    expect(destructiveEffects(effects)).toBe(expected);
  });
});

describe('guardRefusals', () => {
  const cases: [string, Plan, Parameters<typeof guardRefusals>[1], RegExp[]][] = [
    ['10 deletes pass the default', plan(owners(DEFAULT_MAX_DELETES)), {}, []],
    ['11 deletes trip the default of 10 (not Infinity)', plan(owners(DEFAULT_MAX_DELETES + 1)), {}, [/destroys 11 object\(s\), more than --max-deletes 10/]],
    ['replaces count: 6 deletes + 5 replaces is 11', plan([...owners(6), ...Array.from({ length: 5 }, (_, i) => change(`dq_alert.r${i}`, 'replace'))]), {}, [/destroys 11 object\(s\) \(5 of them replaced: destroyed, then created anew\), more than --max-deletes 10/]],
    ['a single replace under --max-deletes 0', plan([change('dq_alert.r', 'replace')]), { maxDeletes: 0 }, [/destroys 1 object\(s\) \(1 of them replaced/]],
    ['creates and updates do not count', plan([...owners(20, 'create'), ...owners(20, 'update').map((c) => ({ ...c, address: `${c.address}u` }))]), { maxDeletes: 0 }, []],
    ['--max-deletes raised to the count passes', plan(owners(12)), { maxDeletes: 12 }, []],
    [
      '21 monitors of a narrowed rule under --max-effect-deletes 20 (the issue: they went under --max-deletes 0)',
      plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(21) })]),
      { maxDeletes: 0, maxEffectDeletes: 20 },
      [/the plan makes the platform delete 21 monitor\(s\), more than --max-effect-deletes 20: dq_monitor_deployment_rule\.n \(21\)/],
    ],
    ['100 effect deletes pass the default', plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(DEFAULT_MAX_EFFECT_DELETES) })]), {}, []],
    ['101 trip the default of 100', plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(DEFAULT_MAX_EFFECT_DELETES + 1) })]), {}, [/delete 101 monitor\(s\), more than --max-effect-deletes 100/]],
    [
      'cascaded ownerships count toward --max-effect-deletes',
      plan([change('dq_owner.team', 'delete', { source: 'cascade', cascade: [{ effect: 'deleted', type: 'dq_ownership', id: '1', name: 'x', managedBy: 'made in the UI', alsoDeleted: false }] })]),
      { maxEffectDeletes: 0 },
      [/1 ownership\(s\) by cascade, more than --max-effect-deletes 0: dq_owner\.team \(1\)/],
    ],
    ['an unpreviewed rule change is refused', plan([change('dq_sql_test_deployment_rule.t', 'create', { source: 'sql-test-overview', error: 'effects unknown: REST cannot carry tests[]' })]), {}, [/preview of 1 change\(s\) failed or is missing.*dq_sql_test_deployment_rule\.t \(effects unknown: REST cannot carry tests\[\]\)/]],
    ['... unless --allow-unpreviewed', plan([change('dq_sql_test_deployment_rule.t', 'create', { source: 'sql-test-overview', error: 'x' })]), { allowUnpreviewed: true }, []],
    ['a rule change without any preview (a plan made without them) is refused', plan([change('dq_monitor_deployment_rule.m', 'update')]), {}, [/dq_monitor_deployment_rule\.m \(the plan carries no preview of it\)/]],
    ['all three at once are all reported', plan([...owners(11), change('dq_monitor_deployment_rule.m', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(101) }), change('dq_sql_test_deployment_rule.t', 'update')]), {}, [/--max-deletes 10/, /--max-effect-deletes 100/, /failed or is missing/]],
  ];
  it.each(cases)('%s', (_why, p, opts, expected) => {
    const got = guardRefusals(p, opts);
    expect(got).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(got[i].message).toMatch(re));
  });
});

test('the effect guard names the first five rules by count, counts the rest, and gives the flag that would pass (mutation run survivors)', () => {
  const rules = Array.from({ length: 7 }, (_, i) => change(`dq_monitor_deployment_rule.r${i}`, 'update', { source: 'deploy-overview', monitorsToDelete: monitors(i + 1) }));
  const [g] = guardRefusals(plan(rules), { maxEffectDeletes: 0 });
  expect(g.message).toMatch(/^the plan makes the platform delete 28 monitor\(s\), more than --max-effect-deletes 0: (dq_monitor_deployment_rule\.r\d \(\d\), ){4}dq_monitor_deployment_rule\.r\d \(\d\), and 2 more$/);
  expect(g.hint).toBe("Review the plan's effects, then re-run with --max-effect-deletes 28 if they are intended.");
  expect(g.addresses).toHaveLength(7);
  const [five] = guardRefusals(plan(rules.slice(0, 5)), { maxEffectDeletes: 0 });
  expect(five.message).not.toMatch(/more$/);
  const [d] = guardRefusals(plan(owners(11)), {});
  expect(d.hint).toBe('Review the deletions, then re-run with --max-deletes 11 if they are intended.');
});

describe('apply() refuses before any request', () => {
  it('a plan with error diagnostics is never applied, naming the errors', async () => {
    const p = plan([change('dq_owner.a', 'create')], [{ severity: 'error', summary: 'replaces the alert and preventDestroy forbids it', address: 'dq_alert.x' }]);
    const err = await apply(NO_CLIENT, p).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanRefusedError);
    expect((err as Error).message).toMatch(/the plan has 1 error\(s\) and cannot be applied: dq_alert\.x: replaces the alert and preventDestroy forbids it/);
    expect((err as PlanRefusedError).addresses).toEqual(['dq_alert.x']);
  });

  it('warnings and info do not block', async () => {
    const p = plan([change('dq_owner.a', 'create')], [{ severity: 'warning', summary: 'w' }, { severity: 'info', summary: 'i' }]);
    await expect(apply(REACHED_CLIENT, p)).rejects.toBeInstanceOf(Reached);
  });

  it.each([
    ['11 deletes, default --max-deletes', plan(owners(11)), {}, /--max-deletes 10/],
    ['a replace under --max-deletes 0', plan([change('dq_alert.r', 'replace')]), { maxDeletes: 0 }, /--max-deletes 0/],
    ['monitors under --max-effect-deletes', plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', monitorsToDelete: monitors(3) })]), { maxEffectDeletes: 2 }, /--max-effect-deletes 2/],
    ['an unpreviewed change', plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', error: '503' })]), {}, /--allow-unpreviewed/],
  ] as const)('%s: PlanRefusedError, nothing sent', async (_why, p, opts, re) => {
    const err = await apply(NO_CLIENT, p, opts).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanRefusedError);
    expect(`${(err as Error).message}\n${(err as PlanRefusedError).hint}`).toMatch(re);
    expect((err as Error).message).toMatch(/^nothing was applied: /);
  });

  it.each([
    ['10 deletes, default --max-deletes', plan(owners(10)), {}],
    ['12 deletes with --max-deletes 12', plan(owners(12)), { maxDeletes: 12 }],
    ['an unpreviewed change with --allow-unpreviewed', plan([change('dq_monitor_deployment_rule.n', 'update', { source: 'deploy-overview', error: '503' })]), { allowUnpreviewed: true }],
  ] as const)('%s: passes the guards (reaches the client)', async (_why, p, opts) => {
    await expect(apply(REACHED_CLIENT, p, opts)).rejects.toBeInstanceOf(Reached);
  });
});
