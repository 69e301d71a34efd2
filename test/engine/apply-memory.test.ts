/**
 * The applier, the planner's previews and its secret marking against an in-memory world (fake
 * handlers, a fake client): no emulator, so these run in milliseconds and mutation testing can
 * afford them. Each case is one of the defects mutation testing found unnoticed: a failed parent
 * not blocking its dependents, deletes in the wrong order, a stale check that misses a SQL test
 * taken over by another namespace, a plan made without the rule previews, secret fields not
 * marked.
 */
import { SCOPES as ALL_SCOPES } from '../../schemas/platform/common';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { TAG_PRUNED_TYPES } from '../../src/kinds/descriptors';
import { deriveId } from '../../src/engine/identity';
import { Change, Effects, Plan } from '../../schemas/model/plan';
import type { PlatformClient } from '../../src/client';
import { apply, NotOursError, StalePlanError } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan } from '../../src/engine/planner';
import { plan as makePlan } from '../../src/engine/reconcile';
import type { Resolution } from '../../src/engine/resolve';
import { fingerprint } from '../../src/kinds/shared/normalise';
import type { LiveObject, ResourceHandler } from '../../src/kinds/shared/types';

const NS = 'mem';
/** The in-memory platform: per kind, id -> object (with configId and etag). */
let world: Map<string, Map<string, { raw: Record<string, unknown>; configId?: string; version: number }>>;
/** Writes in the order they happened: `create dq_owner.a`. */
let log: string[];
/** Addresses whose write fails. */
let failing: Set<string>;
/** Preview calls made. */
let previews: string[];

const PRUNABLE = new Set(['dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);

function memHandler(type: ResourceType, preview?: ResourceHandler['preview']): ResourceHandler {
  const objs = () => world.get(type) ?? world.set(type, new Map()).get(type)!;
  const write = async (c: Change, op: string) => {
    log.push(`${op} ${c.address}`);
    if (failing.has(c.address)) throw new Error(`${c.address} refused`);
    const prev = objs().get(c.id);
    objs().set(c.id, { raw: c.after as Record<string, unknown>, configId: PRUNABLE.has(type) ? NS : undefined, version: (prev?.version ?? 0) + 1 });
  };
  return {
    type,
    label: type.replace(/^dq_/, ''),
    async read(_c, q): Promise<LiveObject[]> {
      const keys = q.keysOnly ? q.keys : [...objs().keys()];
      return keys
        .filter((k) => objs().has(k))
        .map((k) => {
          const o = objs().get(k)!;
          return { key: k, id: k, raw: o.raw, etag: `W/"${k}-${o.version}"`, ...(o.configId ? { configId: o.configId } : {}) };
        });
    },
    fromLive: (r) => r,
    fromDesired: (d) => d,
    replaceReasons: () => [],
    ...(preview ? { preview } : {}),
    create: (_c, ch) => write(ch, 'create'),
    update: (_c, ch) => write(ch, 'update'),
    async delete(_c, ch) {
      log.push(`delete ${ch.address}`);
      if (failing.has(ch.address)) throw new Error(`${ch.address} refused`);
      objs().delete(ch.id);
    },
  };
}

const rulePreview: ResourceHandler['preview'] = async (_c, ch) => {
  previews.push(ch.address);
  return Effects.parse({ source: 'deploy-overview', monitorsToCreate: [`m-${ch.id}`] });
};
const handlers = Object.fromEntries(RESOURCE_TYPES.map((t) => [t, memHandler(t, t === 'dq_monitor_deployment_rule' ? rulePreview : undefined)])) as Record<ResourceType, ResourceHandler>;
const client = {
  iam: { get: async () => ({ workspace: 'demo', scopes: [...ALL_SCOPES], subject: 's', clientType: 'c' }) },
  owners: { listOwnerships: async () => [] },
} as unknown as PlatformClient;

beforeEach(() => {
  world = new Map();
  log = [];
  failing = new Set();
  previews = [];
});

/** The id of `name`: derived (carrying the namespace tag) for the governance kinds, the name for the others. */
const idOf = (type: string, name: string) => (TAG_PRUNED_TYPES.includes(type as ResourceType) ? deriveId('demo', NS, type as ResourceType, name) : name);

/** Puts an object in the world (the state a plan read). */
function put(type: ResourceType, name: string, raw: Record<string, unknown>, configId?: string): void {
  const id = idOf(type, name);
  if (!world.has(type)) world.set(type, new Map());
  world.get(type)!.set(id, { raw, configId, version: 1 });
}
function change(address: string, action: Change['action'], extra: Partial<Change> = {}): Change {
  const type = address.split('.')[0];
  const id = idOf(type, address.split('.')[1]);
  const before = world.get(type)?.get(id)?.raw ?? null;
  return Change.parse({ address, type, action, id, before, after: action === 'delete' ? null : { v: address }, etag: before ? `W/"${id}-1"` : undefined, liveHash: before ? fingerprint(before) : undefined, ...extra });
}
function planOf(changes: Change[]): Plan {
  return Plan.parse({ formatVersion: 1, workspace: 'demo', namespace: NS, stack: NS, manifestHash: 'h', changes, summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 } });
}

describe('apply order and failures', () => {
  it('a failed parent blocks its dependents (transitively); unrelated changes still apply', async () => {
    failing.add('dq_owner.parent');
    const r = await apply(
      client,
      planOf([
        change('dq_owner.parent', 'create'),
        change('dq_ownership.child', 'create', { dependsOn: ['dq_owner.parent'] }),
        change('dq_alert.grandchild', 'create', { dependsOn: ['dq_ownership.child'] }),
        change('dq_domain.other', 'create'),
      ]),
      { handlers },
    );
    expect(r.failed.map((f) => f.address)).toEqual(['dq_owner.parent']);
    expect(r.skipped).toEqual([
      { address: 'dq_alert.grandchild', action: 'create', because: 'dq_owner.parent failed' },
      { address: 'dq_ownership.child', action: 'create', because: 'dq_owner.parent failed' },
    ]);
    expect(r.applied.map((a) => a.address)).toEqual(['dq_domain.other']);
    expect(log).not.toContain('create dq_ownership.child');
  });

  it('deletes run children first: alerts and ownerships before their owner', async () => {
    put('dq_owner', 'team', { v: 'o' });
    put('dq_ownership', 'own', { v: 'os' });
    put('dq_alert', 'al', { v: 'a' }, NS);
    put('dq_domain', 'dom', { v: 'd' });
    const r = await apply(client, planOf([change('dq_owner.team', 'delete'), change('dq_ownership.own', 'delete'), change('dq_alert.al', 'delete'), change('dq_domain.dom', 'delete')]), { handlers });
    expect(r.failed).toEqual([]);
    const at = (s: string) => log.indexOf(s);
    expect(at('delete dq_owner.team')).toBeGreaterThan(at('delete dq_ownership.own'));
    expect(at('delete dq_owner.team')).toBeGreaterThan(at('delete dq_alert.al'));
    expect(at('delete dq_domain.dom')).toBeGreaterThan(at('delete dq_ownership.own'));
  });

  it('creates and updates run before deletes, parents before children', async () => {
    put('dq_owner', 'old', { v: 'x' });
    await apply(client, planOf([change('dq_owner.old', 'delete'), change('dq_ownership.c', 'create', { dependsOn: ['dq_owner.p'] }), change('dq_owner.p', 'create')]), { handlers });
    expect(log).toEqual(['create dq_owner.p', 'create dq_ownership.c', 'delete dq_owner.old']);
  });
});

describe('stale check', () => {
  it('a SQL test taken over by another namespace since the plan is refused, nothing written', async () => {
    put('dq_sql_test', 't', { v: 'mine' }, NS);
    const p = planOf([change('dq_sql_test.t', 'update'), change('dq_owner.new', 'create')]);
    world.get('dq_sql_test')!.get('t')!.configId = 'other';
    const err = await apply(client, p, { handlers }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(NotOursError);
    expect((err as Error).message).toMatch(/dq_sql_test\.t: it is managed by namespace "other"/);
    expect(log).toEqual([]);
  });

  it.each([
    ['an etag that moved', (o: { version: number }) => (o.version = 2), /etag W\/"t-2" differs from W\/"t-1" read at plan time/],
    ['content that changed (same etag: a kind without etags)', (o: { raw: Record<string, unknown> }) => (o.raw = { v: 'edited' }), /its live content changed since the plan/],
  ])('%s: StalePlanError naming the object, nothing written', async (_why, edit, message) => {
    put('dq_sql_test', 't', { v: 'mine' }, NS);
    const p = planOf([change('dq_sql_test.t', 'update')]);
    edit(world.get('dq_sql_test')!.get('t')!);
    const err = await apply(client, p, { handlers }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StalePlanError);
    expect((err as StalePlanError).addresses).toEqual(['dq_sql_test.t']);
    expect((err as Error).message).toMatch(message);
    expect(log).toEqual([]);
  });

  it('an object created since the plan (the plan creates it) is stale', async () => {
    const p = planOf([change('dq_owner.n', 'create')]);
    put('dq_owner', 'n', { v: 'someone' });
    await expect(apply(client, p, { handlers })).rejects.toThrow(/dq_owner\.n: a owner ".*" was created since the plan/);
  });
});

describe('plan', () => {
  const doc = {
    provider: { dq: [{ namespace: NS }] },
    resource: {
      dq_owner: { o: { title: 'O' } },
      dq_monitor_deployment_rule: {
        changed: { title: 'R', static_config: { path: 'a::b::c', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } },
      },
    },
  };
  it('every rule change carries the platform preview (asked once per change); other kinds and unchanged rules are not previewed', async () => {
    const p = await makePlan(client, manifestFromTerraformJson(doc, { stack: NS }), { handlers });
    const rule = p.changes.find((c) => c.address === 'dq_monitor_deployment_rule.changed')!;
    expect(rule.action).toBe('create');
    expect(rule.effects).toMatchObject({ source: 'deploy-overview', monitorsToCreate: [`m-${rule.id}`] });
    expect(previews).toEqual(['dq_monitor_deployment_rule.changed']);
    expect(p.changes.find((c) => c.address === 'dq_owner.o')?.effects).toBeUndefined();
    // applied, a second plan has nothing to preview
    put('dq_monitor_deployment_rule', rule.id, rule.after as Record<string, unknown>, NS);
    previews = [];
    const again = await makePlan(client, manifestFromTerraformJson(doc, { stack: NS }), { handlers });
    expect(again.changes.find((c) => c.address === 'dq_monitor_deployment_rule.changed')?.action).toBe('noop');
    expect(previews).toEqual([]);
  });

  it('secret-named fields are marked sensitive: a create, an update (both sides), a delete', () => {
    // the updated owner's id carries the namespace tag: it is this namespace's own (issue 23)
    const upd = deriveId('demo', NS, 'dq_owner', 'upd');
    const resolution: Resolution = {
      workspace: 'demo',
      namespace: NS,
      stack: NS,
      diagnostics: [],
      removed: [],
      resources: [
        { address: 'dq_owner.new', type: 'dq_owner', name: 'new', id: 'new', desired: { title: 'N', contacts: [{ hook: { token: 'abc-123' } }] }, lifecycle: {}, dependsOn: [] },
        { address: 'dq_owner.upd', type: 'dq_owner', name: 'upd', id: upd, desired: { title: 'U2', password: 'new-pass' }, lifecycle: {}, dependsOn: [] },
      ],
    };
    const live = {
      dq_owner: [{ key: upd, id: upd, raw: { title: 'U1', apiKey: 'old-key' } }],
      dq_alert: [{ key: 'gone', id: 'gone', configId: NS, raw: { name: 'G', settings: { secret: 's' } } }],
    };
    const p = computePlan({ resolution, live, handlers, manifestHash: 'h' });
    const by = (a: string) => p.changes.find((c) => c.address === a)!;
    expect(by('dq_owner.new').sensitive).toEqual(['/contacts/0/hook/token']);
    expect(by('dq_owner.upd').sensitive).toEqual(['/apiKey', '/password']);
    expect(by('dq_alert["gone"]').action).toBe('delete');
    expect(by('dq_alert["gone"]').sensitive).toEqual(['/settings/secret']);
  });
});
