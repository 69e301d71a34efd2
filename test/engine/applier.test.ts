/**
 * The applier's decisions as a pure-ish function of (plan, live state, what writes answer):
 * refusals before any write, the stale and not-ours checks, waves, failures and what they block,
 * the stop at the first conflict, the per-wave check and read-back of kinds without etags, and
 * the final read-back. Live state is an in-memory world behind stand-in handlers (no emulator,
 * no clock): the same against the emulator is in creates.test.ts, not-ours.test.ts, guards.test.ts
 * and the e2e suites.
 */
import { ApiError, ConflictError, UnavailableError } from '../../src/client/errors';
import { PlatformUnreachableError } from '../../src/client/reachability';
import { loadPlan, toPlanFile } from '../../src/plan/file';
import { apply, isConflict, missingScopes, NotOursError, PlanRefusedError, preflight, StalePlanError, type ApplyOptions } from '../../src/engine/applier';
import { ReplacementFailedError, StepExecutor } from '../../src/engine/apply-executor';
import { deriveId } from '../../src/engine/identity';
import { fingerprint, normalise } from '../../src/kinds/shared/normalise';
import { HANDLERS, SCOPES } from '../../src/kinds/index';
import { hasConfigId } from '../../src/kinds/descriptors';
import { WriteConflictError } from '../../src/kinds/shared/support';
import type { LiveObject, ResourceHandler } from '../../src/kinds/shared/types';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { Plan, type Change } from '../../schemas/model/plan';
import { fakeClient } from '../handlers/fake-client';

const WS = 'demo';
const NS = 'shop';
const ALL_SCOPES = [...new Set(Object.values(SCOPES).flatMap((s) => [...s.read, ...s.create, ...s.update, ...s.delete, ...(s.batch ?? [])]))];
const tagged = (type: ResourceType, name: string) => deriveId(WS, NS, type, name);

/** The in-memory platform: objects by type and key, and a log of the writes made. */
class World {
  readonly objs = new Map<string, LiveObject>();
  readonly log: string[] = [];
  /** address -> what its write does instead of succeeding (an error, or a function run before writing). */
  readonly onWrite = new Map<string, Error | ((c: Change) => void)>();
  private version = 0;

  put(type: ResourceType, o: Partial<LiveObject> & { id: string; raw?: Record<string, unknown> }): LiveObject {
    const obj: LiveObject = { key: o.id, etag: `W/"${o.id}-${++this.version}"`, raw: {}, ...o };
    this.objs.set(`${type}\u0000${obj.key}`, obj);
    return obj;
  }
  get(type: string, key: string): LiveObject | undefined {
    return this.objs.get(`${type}\u0000${key}`);
  }
  drop(type: string, key: string): void {
    this.objs.delete(`${type}\u0000${key}`);
  }
  of(type: string): LiveObject[] {
    return [...this.objs.entries()].filter(([k]) => k.startsWith(`${type}\u0000`)).map(([, o]) => o);
  }
}

const canonical = (o: Record<string, unknown>) => normalise(o, ['id', 'etag', 'configId']);

/** Stand-in handlers over a {@link World}: the real labels and prunability, writes that log and change the world. */
function handlersOf(world: World, opts: { batch?: ResourceType[]; preview?: ResourceType[] } = {}): Record<ResourceType, ResourceHandler> {
  const out = {} as Record<ResourceType, ResourceHandler>;
  for (const type of RESOURCE_TYPES) {
    const real = HANDLERS[type];
    const write = (verb: string, c: Change, ctx: { namespace: string }) => {
      world.log.push(`${verb} ${c.address}${c.etag ? ` ${c.etag}` : ''}`);
      const w = world.onWrite.get(c.address);
      if (w instanceof Error) throw w;
      w?.(c);
      if (verb === 'delete') world.drop(type, c.id);
      else world.put(type, { id: c.id, raw: { ...(c.after as object) }, ...(hasConfigId(type) ? { configId: ctx.namespace } : {}) });
    };
    out[type] = {
      type,
      label: real.label,
      async read(_client, q) {
        const found = q.keysOnly ? q.keys.map((k) => world.get(type, k)).filter((o): o is LiveObject => !!o) : world.of(type);
        return found.filter((o) => q.includeDeleted || !o.deleted);
      },
      fromLive: canonical,
      fromDesired: canonical,
      replaceReasons: () => [],
      create: async (_c, c, ctx) => write('create', c, ctx),
      update: async (_c, c, ctx) => write('update', c, ctx),
      delete: async (_c, c, ctx) => write('delete', c, ctx),
      ...(opts.batch?.includes(type)
        ? {
            writeMany: async (_c, cs, ctx) => {
              world.log.push(`batch ${cs.map((c) => c.address).join(',')}`);
              const errs = new Map<string, Error>();
              for (const c of cs) {
                const w = world.onWrite.get(c.address);
                if (w instanceof Error) errs.set(c.address, w);
                else world.put(type, { id: c.id, raw: { ...(c.after as object) }, configId: ctx.namespace });
              }
              return errs;
            },
          }
        : {}),
      ...(opts.preview?.includes(type) ? { preview: async () => undefined } : {}),
    };
  }
  return out;
}

function ch(type: ResourceType, name: string, action: Change['action'], over: Partial<Change> = {}): Change {
  const id = type === 'dq_alert' ? `${NS}.${name}` : type === 'dq_sql_test' || type.endsWith('_rule') ? `${name}-id` : tagged(type, name);
  return { address: `${type}.${name}`, type, action, id, before: null, after: action === 'delete' ? null : { title: name }, patch: [], sensitive: [], dependsOn: [], ...over };
}

function planOf(changes: Change[], over: Partial<Plan> = {}): Plan {
  return Plan.parse({ formatVersion: 1, workspace: WS, namespace: NS, stack: NS, manifestHash: 'h', changes, summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 }, diagnostics: [], ...over });
}

/** The plan file of {@link planOf}'s plan. */
const fileOf = (...a: Parameters<typeof planOf>) => toPlanFile(planOf(...a));

/** A world, its handlers, a fake client (iam and owners' ownerships) and `run` to apply a plan. */
function setup(opts: { scopes?: string[]; workspace?: string; batch?: ResourceType[]; preview?: ResourceType[]; ownerships?: Record<string, { id: string }[]> } = {}) {
  const world = new World();
  const handlers = handlersOf(world, opts);
  const { client, calls } = fakeClient({
    'iam.get': { workspace: opts.workspace ?? WS, scopes: opts.scopes ?? ALL_SCOPES },
    'owners.listOwnerships': (id: unknown) => opts.ownerships?.[id as string] ?? [],
  });
  const progress: string[] = [];
  const run = (p: Plan, o: ApplyOptions = {}) => apply(client, p, { handlers, onProgress: (l) => progress.push(l), progressIntervalMs: 0, ...o });
  return { world, handlers, client, calls, progress, run };
}

/** A live object the plan read, and the change with its etag and content fingerprint. */
function existing(world: World, type: ResourceType, name: string, action: Change['action'], over: Partial<LiveObject> = {}, change: Partial<Change> = {}): Change {
  const c = ch(type, name, action, change);
  const o = world.put(type, { id: c.id, raw: { title: name }, ...(hasConfigId(type) ? { configId: NS } : {}), ...over });
  return { ...c, etag: o.etag, liveHash: fingerprint(canonical(o.raw)), before: canonical(o.raw), ...change };
}

describe('refused before any request', () => {
  test('a plan with error diagnostics: at most three named, the count of the rest, their addresses', async () => {
    const { run, calls } = setup();
    const diagnostics = ['a', 'b', 'c', 'd', 'e'].map((n) => ({ severity: 'error' as const, summary: `bad ${n}`, address: `dq_owner.${n}` }));
    const p = planOf([ch('dq_owner', 'a', 'create')], { diagnostics: [...diagnostics, { severity: 'error', summary: 'no address' }, { severity: 'warning', summary: 'w' }] });
    const e = (await run(p).catch((x: unknown) => x)) as PlanRefusedError;
    expect(e).toBeInstanceOf(PlanRefusedError);
    expect(e.message).toBe('the plan has 6 error(s) and cannot be applied: dq_owner.a: bad a; dq_owner.b: bad b; dq_owner.c: bad c; and 3 more');
    expect(e.hint).toBe('Fix the errors `dqform plan` reports, then plan again.');
    expect(e.addresses).toEqual(['dq_owner.a', 'dq_owner.b', 'dq_owner.c', 'dq_owner.d', 'dq_owner.e']);
    expect(calls).toEqual([]);
  });

  test('one error is named without a count; one without an address has no prefix', () => {
    expect(() => preflight(planOf([], { diagnostics: [{ severity: 'error', summary: 'broken' }] }))).toThrow(/^the plan has 1 error\(s\) and cannot be applied: broken$/);
  });

  test('warnings and info alone do not refuse', () => {
    expect(() => preflight(planOf([], { diagnostics: [{ severity: 'warning', summary: 'w' }, { severity: 'info', summary: 'i' }] }))).not.toThrow();
  });

  test('guard refusals are joined, with their hints and the addresses once each', () => {
    const deletes = Array.from({ length: 3 }, (_, i) => ch('dq_owner', `d${i}`, 'delete'));
    const rule = ch('dq_monitor_deployment_rule', 'r', 'delete');
    let e: PlanRefusedError | undefined;
    try {
      preflight(planOf([...deletes, rule]), { maxDeletes: 2 }, { ...HANDLERS });
    } catch (x) {
      e = x as PlanRefusedError;
    }
    expect(e?.message).toMatch(/^nothing was applied: the plan destroys 4 object\(s\), more than --max-deletes 2;\n {2}and the platform's preview of 1 change\(s\) failed or is missing/);
    expect(e?.hint).toBe(
      'Review the deletions, then re-run with --max-deletes 4 if they are intended.\n  Plan again when the platform can preview them, or re-run with --allow-unpreviewed to apply without knowing their effects.',
    );
    expect(e?.addresses).toEqual(['dq_owner.d0', 'dq_owner.d1', 'dq_owner.d2', 'dq_monitor_deployment_rule.r']);
  });

  test('another workspace: refused after learning it, naming both', async () => {
    const { run } = setup({ workspace: 'prod' });
    await expect(run(planOf([ch('dq_owner', 'a', 'create')]))).rejects.toThrow('the plan was made for workspace "demo", but these credentials act in "prod"');
  });

  test('nothing to write: no read, no write, an empty result', async () => {
    const { run, calls, world } = setup();
    const r = await run(planOf([ch('dq_owner', 'a', 'noop'), ch('dq_owner', 'b', 'unmanaged')]));
    expect(r).toEqual({ applied: [], failed: [], skipped: [] });
    expect(calls.map((c) => c.op)).toEqual(['iam.get']);
    expect(world.log).toEqual([]);
  });

  test('missing scopes: one line per any-of set, five addresses each and a count, nothing read or written', async () => {
    const { run, world, progress } = setup({ scopes: ['SCOPE_OWNERS_READ'] });
    const owners = Array.from({ length: 7 }, (_, i) => ch('dq_owner', `o${i}`, 'create'));
    const e = (await run(planOf([...owners, ch('dq_domain', 'd', 'delete')])).catch((x: unknown) => x)) as PlanRefusedError;
    expect(e.message).toBe(
      "these credentials lack the scope(s) the plan's writes need; nothing was written:\n" +
        '  one of SCOPE_OWNERS_EDIT, SCOPE_MCP_WRITE: needed by dq_owner.o0, dq_owner.o1, dq_owner.o2, dq_owner.o3, dq_owner.o4, and 2 more\n' +
        '  one of SCOPE_DOMAIN_EDIT, SCOPE_MCP_WRITE: needed by dq_domain.d',
    );
    expect(e.addresses).toHaveLength(8);
    expect(world.log).toEqual([]);
    expect(progress).toEqual([]);
  });
});

describe('missingScopes', () => {
  test('a replace needs delete and create; each address is listed once per set; unknown kinds are skipped', () => {
    // an alert's Create and Delete take SCOPE_ALERTS_EDIT; its Upsert (update) only SCOPE_MCP_WRITE
    const m = missingScopes([ch('dq_alert', 'a', 'replace'), ch('dq_alert', 'b', 'delete'), ch('dq_alert', 'c', 'update'), { ...ch('dq_owner', 'x', 'create'), type: 'dq_widget' }], new Set(['SCOPE_ALERTS_EDIT']));
    expect([...m.entries()]).toEqual([['SCOPE_MCP_WRITE', ['dq_alert.c']]]);
    expect([...missingScopes([ch('dq_alert', 'a', 'replace')], new Set()).entries()]).toEqual([['SCOPE_ALERTS_EDIT, SCOPE_MCP_WRITE', ['dq_alert.a']]]);
  });

  test('creates and updates need their set; a replace whose delete and create share a set lists the address once (mutation run survivors)', () => {
    const m = missingScopes([ch('dq_owner', 'a', 'replace'), ch('dq_owner', 'b', 'create'), ch('dq_owner', 'c', 'update')], new Set());
    expect([...m.entries()]).toEqual([['SCOPE_OWNERS_EDIT, SCOPE_MCP_WRITE', ['dq_owner.a', 'dq_owner.b', 'dq_owner.c']]]);
  });

  test('all granted: nothing missing; noops need nothing', () => {
    expect(missingScopes([ch('dq_owner', 'a', 'update'), ch('dq_owner', 'b', 'noop')], new Set(['SCOPE_MCP_WRITE'])).size).toBe(0);
  });
});

describe('loadPlan', () => {
  test('not a plan: the first three schema issues, and what to do', () => {
    expect(() => loadPlan({ formatVersion: 1 })).toThrow(/^not a dqform plan \(format 1\): workspace: [^;]*; namespace: [^;]*; stack: [^;]*$/);
  });

  test('an unknown resource type is refused naming the change, its index and the known types', () => {
    const changes = ['dq_widget', 'dq_owner', 'dq_a', 'dq_b', 'dq_c'].map((t, i) => ({ ...ch('dq_owner', `n${i}`, 'create'), type: t, address: `${t}.n${i}` }));
    let e: PlanRefusedError | undefined;
    try {
      loadPlan(fileOf(changes));
    } catch (x) {
      e = x as PlanRefusedError;
    }
    expect(e?.message).toBe(
      `not a dqform plan: changes.0 (dq_widget.n0): unknown resource type "dq_widget"; changes.2 (dq_a.n2): unknown resource type "dq_a"; changes.3 (dq_b.n3): unknown resource type "dq_b"; and 1 more (dqform manages ${RESOURCE_TYPES.join(', ')})`,
    );
    expect(e?.addresses).toEqual(['dq_widget.n0', 'dq_a.n2', 'dq_b.n3', 'dq_c.n4']);
    expect(e?.hint).toBe('Create the plan with `dqform plan --out FILE`; do not edit it by hand.');
  });

  // (added for survivors of the mutation run of src/engine: versions, repeats, the cut at three)
  test.each([
    [2, 'this plan was written by a newer dqform (plan format 2); this dqform reads format 1', 'Use the dqform version that made the plan (or a newer one), or plan again with this one.'],
    [0, 'this plan was written by an older dqform (plan format 0); this dqform reads format 1', 'Plan again with this dqform version and apply that plan.'],
  ])('format version %i is refused by its version, with what to do', (version, message, hint) => {
    let e: PlanRefusedError | undefined;
    try {
      loadPlan({ ...JSON.parse(JSON.stringify(planOf([]))), formatVersion: version });
    } catch (x) {
      e = x as PlanRefusedError;
    }
    expect(e?.message).toBe(message);
    expect(e?.hint).toBe(hint);
  });

  test('exactly three unknown types are all named, with nothing counted', () => {
    const changes = ['dq_a', 'dq_b', 'dq_c'].map((t, i) => ({ ...ch('dq_owner', `n${i}`, 'create'), type: t, address: `${t}.n${i}` }));
    expect(() => loadPlan(fileOf(changes))).toThrow(/; changes\.2 \(dq_c\.n2\): unknown resource type "dq_c" \(dqform manages /);
  });

  test('a repeated address: the first three repeats named, the rest counted, each address once', () => {
    let e: PlanRefusedError | undefined;
    try {
      loadPlan(fileOf(['a', 'a', 'b', 'b', 'a', 'c', 'c'].map((n) => ch('dq_owner', n, 'create'))));
    } catch (x) {
      e = x as PlanRefusedError;
    }
    expect(e?.message).toBe(
      'not a dqform plan: changes.1 (dq_owner.a) repeats changes.0; changes.3 (dq_owner.b) repeats changes.2; changes.4 (dq_owner.a) repeats changes.0; and 1 more (a plan has one change per address)',
    );
    expect(e?.addresses).toEqual(['dq_owner.a', 'dq_owner.b', 'dq_owner.c']);
  });

  test('a valid plan loads as it is', () => {
    const p = planOf([ch('dq_owner', 'a', 'create')], { summary: { import: 0, add: 1, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 } });
    expect(loadPlan(JSON.parse(JSON.stringify(toPlanFile(p))))).toEqual(p);
  });

  // issue 23: show renders patch and summary, apply checks the other fields; they must agree
  const alertBefore = { name: 'Orders', targets: [{ slack: { channel: '#dq' } }] };
  const alertAfter = { name: 'Orders', targets: [{ slack: { channel: '#dq' } }, { slack: { channel: '#attacker' } }] };
  const upd = (patch: Change['patch']) => ch('dq_alert', 'orders', 'update', { before: alertBefore, after: alertAfter, patch });
  const honestPatch = [{ op: 'add' as const, path: '/targets/1', value: { slack: { channel: '#attacker' } } }];
  const sum = (over: Partial<Plan['summary']>) => ({ import: 0, add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0, ...over });
  const refusal = (p: unknown) => {
    try {
      loadPlan(JSON.parse(JSON.stringify(toPlanFile(p as Plan))));
    } catch (e) {
      return (e as PlanRefusedError).message;
    }
    return 'loaded';
  };

  test.each([
    ['a patch op removed by hand hides a Slack target apply writes', [upd([])], sum({ change: 1 }), /^not a plan dqform wrote: changes\.0 \(dq_alert\.orders\): its patch is not the difference between its before and after \(what show prints would not be what apply does\)$/],
    ['a patch op whose value was edited', [upd([{ op: 'add', path: '/targets/1', value: { slack: { channel: '#dq-team' } } }])], sum({ change: 1 }), /changes\.0 \(dq_alert\.orders\): its patch is not/],
    ['a patch on a create (rendered nowhere else)', [ch('dq_owner', 'a', 'create', { patch: [{ op: 'remove', path: '/title' }] })], sum({ add: 1 }), /changes\.0 \(dq_owner\.a\): its patch is not/],
    ['summary.destroy = 0 for a plan that destroys three', ['a', 'b', 'c'].map((n) => ch('dq_owner', n, 'delete', { before: { title: n } })), sum({ destroy: 0 }), /^not a plan dqform wrote: summary\.destroy is 0, and its changes count 3 /],
    ['summary.add raised, summary.change lowered', [upd(honestPatch)], sum({ add: 2 }), /summary\.add is 2, and its changes count 0; summary\.change is 0, and its changes count 1/],
  ])('refused when they disagree: %s', (_why, changes, summary, message) => {
    expect(refusal(planOf(changes, { summary }))).toMatch(message);
  });

  test('an honest patch loads whatever the order of its operations (key order is not kept by JSON)', () => {
    const before = { a: 1, b: 2, c: { d: 1 } };
    const after = { c: { d: 2 }, b: 3, e: 4 };
    const ops = [
      { op: 'remove' as const, path: '/a' },
      { op: 'replace' as const, path: '/b', value: 3 },
      { op: 'replace' as const, path: '/c/d', value: 2 },
      { op: 'add' as const, path: '/e', value: 4 },
    ];
    for (const patch of [ops, [...ops].reverse()]) {
      expect(refusal(planOf([ch('dq_owner', 'a', 'update', { before, after, patch })], { summary: sum({ change: 1 }) }))).toBe('loaded');
    }
    expect(refusal(planOf([upd(honestPatch)], { summary: sum({ change: 1 }) }))).toBe('loaded');
  });
});

describe('stale: live state moved since the plan, nothing written', () => {
  test.each([
    ['an object to create now exists', (w: World) => [ch('dq_owner', 'a', 'create'), () => w.put('dq_owner', { id: tagged('dq_owner', 'a') })], `a owner "${tagged('dq_owner', 'a')}" was created since the plan`],
    ['an object to update was deleted', (w: World) => [existing(w, 'dq_owner', 'a', 'update'), () => w.drop('dq_owner', tagged('dq_owner', 'a'))], 'the owner was deleted since the plan'],
    ['its etag moved', (w: World) => [existing(w, 'dq_owner', 'a', 'update'), () => w.put('dq_owner', { id: tagged('dq_owner', 'a'), raw: { title: 'a' }, etag: 'W/"x-9"' })], /^etag W\/"x-9" differs from W\/".*" read at plan time$/],
    [
      'a kind without etags: its content changed',
      (w: World) => [existing(w, 'dq_sql_test', 't', 'update', { etag: undefined }), () => w.put('dq_sql_test', { id: 't-id', raw: { title: 'other' }, configId: NS, etag: undefined })],
      'its live content changed since the plan',
    ],
    ['a replace whose object was deleted', (w: World) => [existing(w, 'dq_owner', 'a', 'replace'), () => w.drop('dq_owner', tagged('dq_owner', 'a'))], 'the owner was deleted since the plan'],
  ] as const)('%s', async (_why, make, why) => {
    const s = setup();
    const [c, move] = make(s.world) as [Change, () => void];
    move();
    const e = (await s.run(planOf([c])).catch((x: unknown) => x)) as StalePlanError;
    expect(e).toBeInstanceOf(StalePlanError);
    expect(e.stale).toEqual([{ address: c.address, why: expect.stringMatching(typeof why === 'string' ? new RegExp(`^${why.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`) : why) }]);
    expect(e.message).toBe(`stale plan: 1 object(s) changed since the plan was made, re-run plan:\n  ${c.address}: ${e.stale[0].why}`);
    expect(e.hint).toBe('Run `dqform plan` again, review it, and apply the new plan.');
    expect(e.addresses).toEqual([c.address]);
    expect(s.world.log).toEqual([]);
  });

  test('unchanged objects are not stale; a delete of an object already gone is not either', async () => {
    const s = setup();
    const up = existing(s.world, 'dq_owner', 'a', 'update', {}, { after: { title: 'a2' } });
    const same = existing(s.world, 'dq_sql_test', 't', 'update', { etag: undefined }, { after: { title: 't2' } });
    const gone = ch('dq_owner', 'gone', 'delete');
    const r = await s.run(planOf([up, same, gone]));
    expect(r.failed).toEqual([]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.a', 'dq_owner.gone', 'dq_sql_test.t']);
  });

  test('a change without etag or fingerprint is not checked for content', async () => {
    const s = setup();
    const c = { ...existing(s.world, 'dq_owner', 'a', 'update', {}, { after: { title: 'a2' } }), etag: undefined, liveHash: undefined };
    s.world.put('dq_owner', { id: c.id, raw: { title: 'changed' } });
    expect((await s.run(planOf([c]))).applied).toHaveLength(1);
  });

  test('an owner the plan deletes gained ownerships the plan did not show: stale, naming them (sorted); the shown ones are fine', async () => {
    const s = setup({ ownerships: { [tagged('dq_owner', 'o')]: [{ id: 'S2' }, { id: 'shown' }, { id: 's1' }] } });
    const c = existing(s.world, 'dq_owner', 'o', 'delete', {}, { effects: { source: 'cascade', cascade: [{ effect: 'deleted', type: 'dq_ownership', id: 'SHOWN', name: 'x', managedBy: 'made in the UI', alsoDeleted: false }] } as never });
    const e = (await s.run(planOf([c])).catch((x: unknown) => x)) as StalePlanError;
    expect(e.stale).toEqual([{ address: 'dq_owner.o', why: 'ownership(s) S2, s1 were added to the owner since the plan; deleting the owner would delete them too' }]);
  });

  test('an owner to delete whose ownerships cannot be listed because it is gone is not stale; other failures are thrown', async () => {
    const s = setup();
    const { NotFoundError } = await import('../../src/client/errors');
    const gone = fakeClient({ 'iam.get': { workspace: WS, scopes: ALL_SCOPES }, 'owners.listOwnerships': new NotFoundError({ method: 'GET', path: '/o', status: 404 }) });
    const c = existing(s.world, 'dq_owner', 'o', 'delete');
    expect((await apply(gone.client, planOf([c]), { handlers: s.handlers })).applied).toHaveLength(1);
    const down = fakeClient({ 'iam.get': { workspace: WS, scopes: ALL_SCOPES }, 'owners.listOwnerships': new UnavailableError({ method: 'GET', path: '/o', status: 503 }) });
    s.world.put('dq_owner', { id: c.id, raw: { title: 'o' }, etag: c.etag });
    await expect(apply(down.client, planOf([c]), { handlers: s.handlers })).rejects.toBeInstanceOf(UnavailableError);
  });

  test('several stale objects are all named, in address order', async () => {
    const s = setup();
    const b = ch('dq_owner', 'b', 'create');
    const a = ch('dq_owner', 'a', 'create');
    s.world.put('dq_owner', { id: a.id });
    s.world.put('dq_owner', { id: b.id });
    const e = (await s.run(planOf([b, a])).catch((x: unknown) => x)) as StalePlanError;
    expect(e.stale.map((x) => x.address)).toEqual(['dq_owner.b', 'dq_owner.a']);
    expect(e.message).toMatch(/^stale plan: 2 object\(s\)/);
  });
});

describe("never touches what is not the namespace's, whatever the plan says", () => {
  const refused = async (s: ReturnType<typeof setup>, c: Change) => {
    const e = (await s.run(planOf([c])).catch((x: unknown) => x)) as NotOursError;
    expect(e).toBeInstanceOf(NotOursError);
    expect(s.world.log).toEqual([]);
    return e;
  };

  test.each([
    ['an alert of another namespace', 'dq_alert', 'update', { configId: 'other' }, {}, 'it is managed by namespace "other"'],
    ['an alert made in the UI', 'dq_alert', 'delete', { configId: undefined }, {}, 'it was made in the UI'],
    ['an object this version cannot model', 'dq_alert', 'update', { unmanageable: ['unknown field "x"', 'unknown target "y"'] }, {}, 'this version of dqform cannot model it (unknown field "x"; unknown target "y")'],
    ['a SQL test a rule made', 'dq_sql_test', 'delete', { deploymentRuleId: 'r9' }, {}, 'SQL-test rule r9 made it; only the rule manages it'],
    ['an owner tagged for another namespace', 'dq_owner', 'update', { id: deriveId(WS, 'other', 'dq_owner', 'a') }, { id: deriveId(WS, 'other', 'dq_owner', 'a') }, "its id carries another namespace's tag"],
    ['a delete of an untagged owner', 'dq_owner', 'delete', { id: 'ui-owner' }, { id: 'ui-owner' }, 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform never deletes such an object'],
    ['a replace of an untagged domain', 'dq_domain', 'replace', { id: 'ui-domain' }, { id: 'ui-domain' }, 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform never deletes such an object'],
  ] as const)('%s', async (_why, type, action, obj, change, why) => {
    const s = setup();
    const c = existing(s.world, type, 'a', action, obj as Partial<LiveObject>, change as Partial<Change>);
    const e = await refused(s, c);
    expect(e.objects).toEqual([{ address: c.address, why }]);
    expect(e.message).toBe(
      `the plan writes or deletes 1 object(s) that namespace "shop" does not own; dqform never touches those, whatever a plan file or a removed block says, and wrote nothing:\n  ${c.address}: ${why}`,
    );
    expect(e.hint).toBe('Plan again from the code. To manage such an object, adopt it with an import block; to stop managing one, use removed { destroy = false }.');
    expect(e.addresses).toEqual([c.address]);
    expect(e.name).toBe('NotOursError');
  });

  test('allowed: an update adopting a UI-made alert through an import block, an update of an untagged (pinned) owner adopted through an import block, a create', async () => {
    const s = setup();
    const adopted = existing(s.world, 'dq_alert', 'a', 'update', { configId: undefined }, { importedId: 'shop.a', after: { title: 'mine now' } });
    const pinned = existing(s.world, 'dq_owner', 'p', 'update', { id: 'pinned-owner' }, { id: 'pinned-owner', importedId: 'pinned-owner', after: { title: 'p2' } });
    const r = await s.run(planOf([adopted, pinned, ch('dq_owner', 'new', 'create')]));
    expect(r.failed).toEqual([]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_alert.a', 'dq_owner.new', 'dq_owner.p']);
  });

  test("an update through an import block is refused for an object of another namespace (import blocks adopt what the UI made only)", async () => {
    const s = setup();
    const e = await refused(s, existing(s.world, 'dq_alert', 'a', 'update', { configId: 'other' }, { importedId: 'shop.a', after: { title: 'mine now' } }));
    expect(e.objects[0].why).toBe('it is managed by namespace "other"');
  });

  test('a delete through an import block is still refused for an object of another namespace', async () => {
    const s = setup();
    const e = await refused(s, existing(s.world, 'dq_alert', 'a', 'delete', { configId: 'other' }, { importedId: 'shop.a' }));
    expect(e.objects[0].why).toBe('it is managed by namespace "other"');
  });

  test('not-ours wins over stale: the object is named once, as not ours', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_alert', 'a', 'update', { configId: 'other' });
    s.world.put('dq_alert', { id: c.id, configId: 'other', etag: 'W/"moved-1"' });
    const e = await refused(s, c);
    expect(e.objects).toHaveLength(1);
  });
});

describe('execution', () => {
  test('waves in dependency order; deletes last; the result sorted by address; progress names each write', async () => {
    const s = setup();
    const owner = ch('dq_owner', 'o', 'create');
    const product = ch('dq_data_product', 'p', 'create', { dependsOn: ['dq_owner.o'] });
    const ownership = ch('dq_ownership', 's', 'create', { dependsOn: ['dq_owner.o', 'dq_data_product.p'] });
    const old = existing(s.world, 'dq_alert', 'old', 'delete');
    const r = await s.run(planOf([ownership, old, product, owner]), { concurrency: 1 });
    expect(s.world.log).toEqual(['create dq_owner.o', 'create dq_data_product.p', 'create dq_ownership.s', `delete dq_alert.old ${old.etag}`]);
    expect(r.applied.map((a) => [a.address, a.action])).toEqual([
      ['dq_alert.old', 'delete'],
      ['dq_data_product.p', 'create'],
      ['dq_owner.o', 'create'],
      ['dq_ownership.s', 'create'],
    ]);
    expect(r.applied.every((a) => typeof a.ms === 'number')).toBe(true);
    expect(s.progress).toEqual([
      'checking that live state has not moved since the plan',
      'create dq_owner.o',
      'create dq_data_product.p',
      'create dq_ownership.s',
      'delete dq_alert.old',
      'reading back the 3 object(s) written',
    ]);
  });

  test('a failed change blocks what depends on it (transitively); everything else is written', async () => {
    const s = setup();
    s.world.onWrite.set('dq_owner.o', new Error('boom'));
    const r = await s.run(
      planOf([ch('dq_owner', 'o', 'create'), ch('dq_data_product', 'p', 'create', { dependsOn: ['dq_owner.o'] }), ch('dq_ownership', 's', 'create', { dependsOn: ['dq_data_product.p'] }), ch('dq_owner', 'q', 'create')]),
    );
    expect(r.failed).toEqual([{ address: 'dq_owner.o', action: 'create', error: 'boom', ms: expect.any(Number) }]);
    expect(r.skipped).toEqual([
      { address: 'dq_data_product.p', action: 'create', because: 'dq_owner.o failed' },
      { address: 'dq_ownership.s', action: 'create', because: 'dq_owner.o failed' },
    ]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.q']);
  });

  test('a non-Error failure is reported as text', async () => {
    const s = setup();
    s.world.onWrite.set('dq_owner.o', () => {
      throw 'plain string';
    });
    expect((await s.run(planOf([ch('dq_owner', 'o', 'create')]))).failed[0].error).toBe('plain string');
  });

  test('the first conflict stops the writing: nothing more is attempted, in this wave or later ones', async () => {
    const s = setup();
    s.world.onWrite.set('dq_owner.a', new WriteConflictError('dq_owner.a', 'someone else wrote it'));
    const r = await s.run(planOf([ch('dq_owner', 'a', 'create'), ch('dq_owner', 'b', 'create'), ch('dq_domain', 'd', 'create', { dependsOn: ['dq_owner.z'] }), ch('dq_owner', 'z', 'create')]), { concurrency: 1 });
    const halt = 'dq_owner.a met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written';
    expect(r.failed.map((f) => [f.address, f.error])).toEqual([['dq_owner.a', 'conflict: someone else wrote it']]);
    expect(r.skipped).toEqual([
      { address: 'dq_domain.d', action: 'create', because: halt },
      { address: 'dq_owner.b', action: 'create', because: halt },
      { address: 'dq_owner.z', action: 'create', because: halt },
    ]);
    expect(s.world.log).toEqual(['create dq_owner.a']);
  });

  test('an etag refusal (ConflictError) also stops the writing; other failures do not', async () => {
    const s = setup();
    s.world.onWrite.set('dq_owner.a', new UnavailableError({ method: 'PUT', path: '/o', status: 503 }));
    const r = await s.run(planOf([ch('dq_owner', 'a', 'create'), ch('dq_owner', 'b', 'create')]), { concurrency: 1 });
    expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.b']);
    expect(isConflict(new ConflictError({ method: 'PUT', path: '/o', status: 409 }))).toBe(true);
    expect(isConflict(Object.assign(new Error('x'), { name: 'WriteConflictError' }))).toBe(true);
    expect(isConflict(new Error('x'))).toBe(false);
    expect(isConflict(undefined)).toBe(false);
  });

  test('a create over a soft-deleted object carries that object\'s etag (compare-and-swap); other creates carry none', async () => {
    const s = setup();
    const a = ch('dq_owner', 'a', 'create');
    s.world.put('dq_owner', { id: a.id, deleted: true, etag: 'W/"tomb-4"' });
    s.world.put('dq_owner', { id: ch('dq_owner', 'b', 'create').id, deleted: true, etag: undefined });
    const r = await s.run(planOf([a, ch('dq_owner', 'b', 'create'), ch('dq_owner', 'c', 'create')]), { concurrency: 1 });
    expect(r.failed).toEqual([]);
    expect(s.world.log).toEqual(['create dq_owner.a W/"tomb-4"', 'create dq_owner.b', 'create dq_owner.c']);
  });

  test('a replace deletes with the plan etag, then creates without it', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'r', 'replace', {}, { after: { title: 'new' } });
    const r = await s.run(planOf([c]));
    expect(s.world.log).toEqual([`delete dq_owner.r ${c.etag}`, 'create dq_owner.r']);
    expect(r.applied).toEqual([{ address: 'dq_owner.r', action: 'replace', ms: expect.any(Number) }]);
  });

  test('a replace whose create fails says the old object is gone and what to do; a conflict stays a conflict', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'r', 'replace');
    let n = 0;
    s.world.onWrite.set('dq_owner.r', () => {
      if (n++ === 1) throw new Error('quota');
    });
    const r = await s.run(planOf([c]));
    expect(r.failed[0].error).toBe('the old owner was destroyed, but creating its replacement failed (quota); run plan and apply again to create it');
    const t = setup();
    const d = existing(t.world, 'dq_owner', 'r', 'replace');
    let m = 0;
    t.world.onWrite.set('dq_owner.r', () => {
      if (m++ === 1) throw new WriteConflictError('dq_owner.r', 'taken meanwhile');
    });
    expect((await t.run(planOf([d]))).failed[0].error).toBe('conflict: taken meanwhile');
  });

  test('the failed replace\'s error is a ReplacementFailedError (write.replacement-failed) whose cause is the create\'s error', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'r', 'replace');
    const quota = new Error('quota');
    let n = 0;
    s.world.onWrite.set('dq_owner.r', () => {
      if (n++ === 1) throw quota;
    });
    const fail = jest.spyOn(StepExecutor.prototype as unknown as { fail: (c: Change, e: unknown) => void }, 'fail');
    try {
      const r = await s.run(planOf([c]));
      expect(r.failed.map((f) => f.error)).toEqual(['the old owner was destroyed, but creating its replacement failed (quota); run plan and apply again to create it']);
      const e = fail.mock.calls.map((x) => x[1]);
      expect(e).toEqual([expect.any(ReplacementFailedError)]);
      expect([(e[0] as ReplacementFailedError).code, (e[0] as Error).cause]).toEqual(['write.replacement-failed', quota]);
    } finally {
      fail.mockRestore();
    }
  });

  test('a replace whose create meets the platform gone halts the apply as unreachable, and a create that may have landed says so (the ReplacementFailedError wraps, it does not hide)', async () => {
    const gone = new PlatformUnreachableError({ method: 'POST', path: '/api/x', status: 0, grpcCode: 'UNAVAILABLE' }, 'the platform at http://127.0.0.1:1 stopped answering');
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'r', 'replace');
    let n = 0;
    s.world.onWrite.set('dq_owner.r', () => {
      if (n++ === 1) throw gone;
    });
    const r = await s.run(planOf([c, ch('dq_owner', 'z', 'create')]), { concurrency: 1 });
    expect(r.halted).toEqual({ kind: 'unreachable', reason: 'the platform at http://127.0.0.1:1 stopped answering: nothing more was written' });
    expect(r.skipped.map((x) => x.address)).toEqual(['dq_owner.z']);
    const t = setup();
    const d = existing(t.world, 'dq_owner', 'r', 'replace');
    let m = 0;
    t.world.onWrite.set('dq_owner.r', () => {
      if (m++ === 1) throw Object.assign(new ApiError({ method: 'POST', path: '/api/x', status: 0, cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) }), { mayHaveLanded: true });
    });
    const q = await t.run(planOf([d]));
    expect([q.halted?.kind, q.failed.map((f) => f.mayHaveLanded)]).toEqual(['unreachable', [true]]);
    expect(q.failed[0].error).toMatch(/^the old owner was destroyed, but creating its replacement failed/);
  });

  test('batch writes: creates and updates of a kind that has them go in one batch per kind and wave; per-item errors fail only those', async () => {
    const s = setup({ batch: ['dq_sql_test'] });
    s.world.onWrite.set('dq_sql_test.b', new Error('bad sql'));
    const old = existing(s.world, 'dq_sql_test', 'old', 'delete', { etag: undefined });
    const r = await s.run(planOf([ch('dq_sql_test', 'a', 'create'), ch('dq_sql_test', 'b', 'create'), old]));
    expect(s.world.log).toEqual(['batch dq_sql_test.a,dq_sql_test.b', 'delete dq_sql_test.old']);
    expect(r.failed.map((f) => [f.address, f.error])).toEqual([['dq_sql_test.b', 'bad sql']]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_sql_test.a', 'dq_sql_test.old']);
    expect(s.progress).toContain('writing 2 SQL test(s) in batches');
  });

  test('a batch that throws fails every change in it', async () => {
    const s = setup({ batch: ['dq_sql_test'] });
    s.handlers.dq_sql_test.writeMany = async () => {
      throw new Error('batch refused');
    };
    const r = await s.run(planOf([ch('dq_sql_test', 'a', 'create'), ch('dq_sql_test', 'b', 'create')]));
    expect(r.failed.map((f) => [f.address, f.error])).toEqual([
      ['dq_sql_test.a', 'batch refused'],
      ['dq_sql_test.b', 'batch refused'],
    ]);
  });

  test('without the batch scope the changes are written one by one', async () => {
    // rules: BatchDeploy takes only the edit scope, a single Deploy also SCOPE_MCP_WRITE
    const t = setup({ batch: ['dq_monitor_deployment_rule'], scopes: ['SCOPE_MCP_WRITE', 'SCOPE_MCP_READ'] });
    const r = await t.run(planOf([ch('dq_monitor_deployment_rule', 'a', 'create'), ch('dq_monitor_deployment_rule', 'b', 'create')]), { allowUnpreviewed: true });
    expect(t.world.log).toEqual(['create dq_monitor_deployment_rule.a', 'create dq_monitor_deployment_rule.b']);
    expect(r.applied).toHaveLength(2);
  });

  test('after a conflict, later batches are skipped too', async () => {
    const s = setup({ batch: ['dq_sql_test'] });
    s.world.onWrite.set('dq_owner.o', new ConflictError({ method: 'PUT', path: '/o', status: 409 }));
    const r = await s.run(planOf([ch('dq_owner', 'o', 'create'), ch('dq_sql_test', 't', 'create', { dependsOn: ['dq_owner.x'] }), ch('dq_owner', 'x', 'create')]), { concurrency: 1 });
    expect(r.skipped.map((x) => x.address)).toEqual(['dq_owner.x', 'dq_sql_test.t']);
  });
});

describe('a write refused for a stale etag may be its own retried write that landed: read and confirmed', () => {
  const conflictOnce = (world: World, address: string, land: (c: Change) => void) => {
    world.onWrite.set(address, (c) => {
      world.onWrite.delete(address);
      land(c);
      throw new ConflictError({ method: 'PUT', path: '/x', status: 409 });
    });
  };

  test('an update whose object now holds what the plan wanted counts as applied', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'a', 'update', {}, { after: { title: 'wanted' } });
    conflictOnce(s.world, c.address, () => s.world.put('dq_owner', { id: c.id, raw: { title: 'wanted' } }));
    expect((await s.run(planOf([c]))).applied.map((a) => a.address)).toEqual(['dq_owner.a']);
  });

  test('an update whose object holds something else is a conflict', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'a', 'update', {}, { after: { title: 'wanted' } });
    conflictOnce(s.world, c.address, () => s.world.put('dq_owner', { id: c.id, raw: { title: 'theirs' } }));
    const r = await s.run(planOf([c]));
    expect(r.failed.map((f) => f.address)).toEqual(['dq_owner.a']);
  });

  test('a delete whose object is gone counts as applied; one still there is a conflict', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'a', 'delete');
    conflictOnce(s.world, c.address, () => s.world.drop('dq_owner', c.id));
    expect((await s.run(planOf([c]))).applied).toHaveLength(1);
    const t = setup();
    const d = existing(t.world, 'dq_owner', 'a', 'delete');
    conflictOnce(t.world, d.address, () => undefined);
    expect((await t.run(planOf([d]))).failed).toHaveLength(1);
  });

  test('a create whose object now holds what the plan wanted counts as applied', async () => {
    const s = setup();
    const c = ch('dq_owner', 'a', 'create', { after: canonical({ title: 'a' }) });
    conflictOnce(s.world, c.address, () => s.world.put('dq_owner', { id: c.id, raw: { title: 'a' } }));
    expect((await s.run(planOf([c]))).applied).toHaveLength(1);
  });

  test('errors other than an etag refusal are not second-guessed', async () => {
    const s = setup();
    const c = existing(s.world, 'dq_owner', 'a', 'update', {}, { after: { title: 'wanted' } });
    s.world.onWrite.set(c.address, () => {
      s.world.put('dq_owner', { id: c.id, raw: { title: 'wanted' } });
      throw new Error('timeout');
    });
    expect((await s.run(planOf([c]))).failed.map((f) => f.error)).toEqual(['timeout']);
  });
});

describe('kinds without etags: checked right before their wave, read back after it', () => {
  test('a rule created by someone else while an earlier wave ran is not written', async () => {
    const s = setup({ preview: [] });
    const rule = ch('dq_monitor_deployment_rule', 'r', 'create', { dependsOn: ['dq_owner.o'] });
    s.world.onWrite.set('dq_owner.o', () => s.world.put('dq_monitor_deployment_rule', { id: rule.id, configId: 'other', raw: { title: 'theirs' } }));
    const r = await s.run(planOf([ch('dq_owner', 'o', 'create'), rule]));
    expect(r.failed).toEqual([{ address: rule.address, action: 'create', error: `conflict: a monitor deployment rule "${rule.id}" was created since the plan (checked right before writing it); not written` }]);
    expect(s.world.log).toEqual(['create dq_owner.o']);
  });

  test('a SQL test taken over by another namespace while an earlier wave ran is not written', async () => {
    const s = setup();
    const t = existing(s.world, 'dq_sql_test', 't', 'update', { etag: undefined }, { dependsOn: ['dq_owner.o'], after: { title: 't2' } });
    s.world.onWrite.set('dq_owner.o', () => s.world.put('dq_sql_test', { id: t.id, configId: 'other', raw: { title: 't' }, etag: undefined }));
    const r = await s.run(planOf([ch('dq_owner', 'o', 'create'), t]));
    expect(r.failed.map((f) => f.error)).toEqual(['conflict: it is managed by namespace "other" (checked right before writing it); not written']);
  });

  test('written, but another writer replaced it at once: the read-back moves it from applied to failed', async () => {
    const s = setup();
    const t = ch('dq_sql_test', 't', 'create', { after: canonical({ title: 'mine' }) });
    s.world.onWrite.set(t.address, () => queueMicrotask(() => s.world.put('dq_sql_test', { id: t.id, configId: NS, raw: { title: 'theirs' }, etag: undefined })));
    const r = await s.run(planOf([t]));
    expect(r.applied).toEqual([]);
    expect(r.failed).toEqual([
      { address: t.address, action: 'create', error: 'conflict: the SQL test holds something other than what this apply wrote (someone else wrote it at the same time)', ms: expect.any(Number) },
    ]);
  });

  test('read back gone, or now another namespace\'s', async () => {
    for (const [after, why] of [
      [(w: World, id: string) => w.drop('dq_sql_test_deployment_rule', id), 'conflict: the SQL-test deployment rule is gone (deleted by someone else)'],
      [(w: World, id: string) => w.put('dq_sql_test_deployment_rule', { id, configId: 'other', raw: { title: 'r' } }), 'conflict: the SQL-test deployment rule is now managed by namespace "other"'],
      [(w: World, id: string) => w.put('dq_sql_test_deployment_rule', { id, raw: { title: 'r' } }), 'conflict: the SQL-test deployment rule is now managed by the UI'],
    ] as const) {
      const s = setup();
      const c = ch('dq_sql_test_deployment_rule', 'r', 'create', { after: canonical({ title: 'r' }) });
      s.world.onWrite.set(c.address, () => queueMicrotask(() => after(s.world, c.id)));
      const r = await s.run(planOf([c]), { allowUnpreviewed: true });
      expect(r.failed.map((f) => f.error)).toEqual([why]);
    }
  });

  test('kinds with etags are read back once, at the end of the apply', async () => {
    const s = setup();
    const o = ch('dq_owner', 'o', 'create', { after: canonical({ title: 'mine' }) });
    const later = ch('dq_owner', 'p', 'create', { dependsOn: ['dq_owner.o'], after: canonical({ title: 'p' }) });
    s.world.onWrite.set(later.address, () => s.world.put('dq_owner', { id: o.id, raw: { title: 'theirs' } }));
    const r = await s.run(planOf([o, later]));
    expect(r.failed).toEqual([{ address: 'dq_owner.o', action: 'create', error: 'conflict: the owner holds something other than what this apply wrote (someone else wrote it at the same time) after this apply wrote it', ms: expect.any(Number) }]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.p']);
    expect(s.progress).toContain('reading back the 2 object(s) written');
  });

  test('deletes are not read back; nothing written means no final read', async () => {
    const s = setup();
    const d = existing(s.world, 'dq_sql_test', 't', 'delete', { etag: undefined });
    const r = await s.run(planOf([d]));
    expect(r.applied).toHaveLength(1);
    expect(s.progress.some((l) => l.startsWith('reading back'))).toBe(false);
  });
});
