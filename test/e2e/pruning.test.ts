/**
 * Issue 11 acceptance, per governance kind, through the CLI against a real emulator: create,
 * remove from code, the plan shows the destroy with the object's name (and, for an owner, the
 * ownerships that go with it, including one made in the UI), apply, plan empty; objects made in
 * the UI and objects of another namespace (another stack of the same app) are untouched,
 * checked through the API.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { PlatformClient } from '../../src/client';
import { deriveId } from '../../src/engine/identity';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let dir: string;
let raw: PlatformClient;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
});
afterAll(async () => {
  await raw.close();
  await emu.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-prune-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** Writes stack `ns` (namespace = stack name) into the app's synth output. */
function write(ns: string, resources: Record<string, unknown>) {
  const stackDir = path.join(dir, 'out', 'stacks', ns);
  fs.mkdirSync(stackDir, { recursive: true });
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: resources }));
}

/** A random-looking UUIDv4, as the UI would choose (no namespace tag). */
const uiId = (n: number) => `5eed1100-0000-4000-8000-${String(n).padStart(12, '0')}`;

interface Kind {
  type: 'dq_domain' | 'dq_data_product' | 'dq_owner' | 'dq_ownership';
  /** The stack's code with the object, and without it. */
  code: Record<string, unknown>;
  without: Record<string, unknown>;
  /** The lines the plan shows for the destroy. */
  shows: RegExp[];
  /** Makes an object of this kind "in the UI" (through the API, with an id that carries no tag); returns its id. */
  makeInUi: (ns: string) => Promise<string>;
  exists: (id: string) => Promise<boolean>;
  /** Objects made in the UI that the platform deletes along with ours (shown in the plan). */
  goesWithIt?: (ns: string) => Promise<string[]>;
}

const OWNER = { dq_owner: { team: { title: 'Pruned team', contacts: [{ email: { recipient_emails: ['t@example.com'] } }] } } };
const OWNERSHIP = { dq_ownership: { mine: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } } };

const KINDS: Kind[] = [
  {
    type: 'dq_domain',
    code: { dq_domain: { sales: { name: 'Pruned sales' } } },
    without: {},
    shows: [/# dq_domain\["[0-9a-f-]{36}"\] \(domain "Pruned sales"\) will be destroyed\n\s+# {3}\(domain "Pruned sales" is no longer declared in namespace "prune-dq-domain"\)/, /left with a deleted parent domain: 1 domain\(s\): domain "EMEA, made in the UI" \(made in the UI\)/],
    makeInUi: async (ns) => {
      // a sub-domain made in the UI under our domain, and a free-standing one
      await raw.domains.upsert({ id: uiId(1), name: 'EMEA, made in the UI', parentId: deriveId('demo', ns, 'dq_domain', 'sales') });
      await raw.domains.upsert({ id: uiId(2), name: 'Made in the UI' });
      return uiId(2);
    },
    exists: async (id) => Object.keys(await raw.domains.batchGet([id])).length === 1,
  },
  {
    type: 'dq_data_product',
    code: { dq_data_product: { orders: { title: 'Pruned orders', priority: 'PRIORITY_P2' } } },
    without: {},
    shows: [/# dq_data_product\["[0-9a-f-]{36}"\] \(data product "Pruned orders"\) will be destroyed\n\s+# {3}\(data product "Pruned orders" is no longer declared in namespace "prune-dq-data-product"\)/],
    makeInUi: async () => {
      await raw.dataProducts.upsert({ id: uiId(3), title: 'Made in the UI' });
      return uiId(3);
    },
    exists: async (id) => Object.keys(await raw.dataProducts.batchGet([id])).length === 1,
  },
  {
    type: 'dq_owner',
    code: { ...OWNER, ...OWNERSHIP },
    without: {},
    shows: [
      /# dq_owner\["[0-9a-f-]{36}"\] \(owner "Pruned team"\) will be destroyed\n\s+# {3}\(owner "Pruned team" is no longer declared in namespace "prune-dq-owner"\)/,
      /# dq_ownership\["[0-9a-f-]{36}"\] \(ownership of "Pruned team" over with_tag\("pii"\)\) will be destroyed\n\s+# {3}\(ownership of "Pruned team" over with_tag\("pii"\) is no longer declared/,
      /! deleted with it: 2 ownership\(s\): ownership over with_tag\("finance"\) \(made in the UI\), ownership over with_tag\("pii"\) \(this namespace, also deleted by this plan\)/,
    ],
    makeInUi: async (ns) => {
      // an ownership made in the UI under our owner (the platform deletes it with the owner), and an owner made in the UI
      await raw.owners.upsertOwnership({ id: uiId(4), ownerId: deriveId('demo', ns, 'dq_owner', 'team'), selection: { query: { resolverQl: 'with_tag("finance")' } } });
      await raw.owners.upsertOwner({ id: uiId(5), title: 'Made in the UI' });
      return uiId(5);
    },
    exists: async (id) => Object.keys(await raw.owners.batchGetOwners([id])).length === 1,
    goesWithIt: async () => [uiId(4)],
  },
  {
    type: 'dq_ownership',
    code: { ...OWNER, ...OWNERSHIP },
    without: OWNER,
    shows: [/# dq_ownership\["[0-9a-f-]{36}"\] \(ownership of "Pruned team" over with_tag\("pii"\)\) will be destroyed\n\s+# {3}\(ownership of "Pruned team" over with_tag\("pii"\) is no longer declared in namespace "prune-dq-ownership"\)/],
    makeInUi: async (ns) => {
      // made in the UI under our owner: it stays, since the owner stays
      await raw.owners.upsertOwnership({ id: uiId(6), ownerId: deriveId('demo', ns, 'dq_owner', 'team'), selection: { query: { resolverQl: 'with_tag("ui")' } } });
      return uiId(6);
    },
    exists: async (id) => Object.keys(await raw.owners.batchGetOwnerships([id])).length === 1,
  },
];

describe.each(KINDS)('pruning $type', (k) => {
  it('create, remove from code, the plan shows the destroy, apply, plan empty; UI-made and other-namespace objects untouched', async () => {
    const ns = `prune-${k.type.replace(/_/g, '-')}`;
    const other = `${ns}-other`;
    // two stacks of one app: ours, and another namespace declaring the same code
    write(ns, k.code);
    write(other, k.code);
    for (const s of [ns, other]) expect((await cli(['apply', '--auto-approve', '--stack', s])).code).toBe(0);
    const ui = await k.makeInUi(ns);
    expect((await cli(['plan', '--detailed-exitcode', '--stack', ns])).code).toBe(0);

    write(ns, k.without);
    const plan = await cli(['plan', '--detailed-exitcode', '--stack', ns]);
    expect(plan.code).toBe(2);
    for (const re of k.shows) expect(plan.out).toMatch(re);
    expect(plan.out).not.toMatch(/Made in the UI"? .*will be destroyed/);
    const applied = await cli(['apply', '--auto-approve', '--stack', ns]);
    expect(applied.err).not.toMatch(/FAILED/);
    expect(applied.code).toBe(0);
    const again = await cli(['plan', '--detailed-exitcode', '--stack', ns]);
    expect(again.out).toMatch(/No changes/);
    expect(again.code).toBe(0);

    // through the API: ours is gone; UI-made and the other namespace's are still there
    const gone = k.type === 'dq_owner' ? ['dq_owner', 'dq_ownership'] : [k.type];
    for (const t of gone) {
      const name = t === 'dq_owner' ? 'team' : t === 'dq_ownership' ? 'mine' : Object.keys((k.code[t] as Record<string, unknown>) ?? {})[0];
      const exists = t === 'dq_ownership' ? KINDS[3].exists : KINDS.find((x) => x.type === t)!.exists;
      expect([t, await exists(deriveId('demo', ns, t as never, name))]).toEqual([t, false]);
      expect([t, await exists(deriveId('demo', other, t as never, name))]).toEqual([t, true]);
    }
    expect(await k.exists(ui)).toBe(true);
    for (const id of (await k.goesWithIt?.(ns)) ?? []) expect(await KINDS[3].exists(id)).toBe(false);
    expect((await cli(['plan', '--detailed-exitcode', '--stack', other])).code).toBe(0);
  });
});

describe('removed blocks against the emulator', () => {
  it('destroy = false leaves a tagged owner in place; a removed block naming a UI-made owner is refused, nothing written', async () => {
    const ns = 'prune-removed';
    write(ns, OWNER);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const stackDir = path.join(dir, 'out', 'stacks', ns);
    const writeExtra = (extra: Record<string, unknown>) => fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: {}, ...extra }));
    writeExtra({ removed: [{ from: 'dq_owner.team', lifecycle: { destroy: false } }] });
    let r = await cli(['apply', '--auto-approve']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/No changes/);
    expect(Object.keys(await raw.owners.batchGetOwners([deriveId('demo', ns, 'dq_owner', 'team')]))).toHaveLength(1);

    await raw.owners.upsertOwner({ id: uiId(9), title: 'Someone else' });
    writeExtra({ removed: [{ from: 'dq_owner.team', lifecycle: { destroy: false } }, { from: 'dq_owner.theirs', id: uiId(9), lifecycle: { destroy: true } }] });
    r = await cli(['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/declared removed, but owner "Someone else" \("5eed1100-0000-4000-8000-000000000009"\) was made in the UI, not by namespace "prune-removed": dqform never deletes it/);
    expect(Object.keys(await raw.owners.batchGetOwners([uiId(9)]))).toHaveLength(1);
  });
});

describe('a changed namespace', () => {
  const code = {
    ...OWNER,
    dq_domain: { sales: { name: 'Renamed sales' } },
    dq_alert: { orders: { name: 'Orders', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } } },
  };

  it('a stack whose namespace owns nothing, while another owns its addresses, warns that it may have been renamed', async () => {
    write('rename-old', code);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    fs.rmSync(path.join(dir, 'out', 'stacks', 'rename-old'), { recursive: true });
    write('rename-new', code);
    const r = await cli(['plan']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/Warning: namespace "rename-new" owns nothing here, but namespace "rename-old" owns 3 object\(s\) at the same addresses \(dq_alert\.orders, dq_domain\.sales, dq_owner\.team\): was the namespace renamed\?/);
    expect(r.out).toMatch(/set the namespace back to "rename-old"/);
    expect(r.out).toMatch(/Plan: 3 to add/);
  });

  it('a new stack sharing one common name with another namespace does not warn', async () => {
    write('rename-other', code);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    fs.rmSync(path.join(dir, 'out', 'stacks', 'rename-other'), { recursive: true });
    write('brand-new', { ...OWNER, dq_domain: { north: { name: 'N' } }, dq_data_product: { p: { title: 'P' } } });
    const r = await cli(['plan']);
    expect(r.out).not.toMatch(/renamed/);
    expect(r.out).toMatch(/Plan: 3 to add/);
  });
});

describe('a saved plan that deletes an owner', () => {
  it('is stale when an ownership was added to the owner after the plan (deleting the owner would take it unseen)', async () => {
    const ns = 'prune-stale-owner';
    write(ns, { ...OWNER, ...OWNERSHIP });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    write(ns, {});
    const planFile = path.join(dir, 'plan.json');
    expect((await cli(['plan', '--out', planFile])).code).toBe(0);
    const ownerId = deriveId('demo', ns, 'dq_owner', 'team');
    await raw.owners.upsertOwnership({ id: uiId(20), ownerId, selection: { query: { resolverQl: 'with_tag("late")' } } });
    const r = await cli(['apply', planFile]);
    expect(r.code).toBe(1);
    // apply plans again before writing: the owner's cascade now holds an ownership the review did not show
    expect(r.err).toMatch(new RegExp(`stale plan: live state changed since the plan was made; apply refuses it and wrote nothing:\\n {2}dq_owner\\["${ownerId}"\\]: what it deletes downstream changed since the plan \\(cascade: now also dq_ownership:${uiId(20)}\\)`));
    // nothing was written: the owner and both ownerships are still there
    expect(Object.keys(await raw.owners.batchGetOwners([ownerId]))).toHaveLength(1);
    expect(Object.keys(await raw.owners.batchGetOwnerships([uiId(20), deriveId('demo', ns, 'dq_ownership', 'mine')]))).toHaveLength(2);
    // a fresh plan shows the new ownership going with the owner, and applies
    const again = await cli(['plan']);
    expect(again.out).toMatch(/! deleted with it: 2 ownership\(s\): ownership over with_tag\("late"\) \(made in the UI\)/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
  });
});
