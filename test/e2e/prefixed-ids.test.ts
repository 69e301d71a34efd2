/**
 * Issue 22 (part B): prefixed ids (`domain-`, `dataproduct-`, `owner-` + uuid) are accepted by the
 * platform (wire-facts 7, 7b: id patterns `^(domain-)?<uuid>$`...) and by the emulator; dqform
 * must read them wherever the platform answers them (ids, parent and member ids, an ownership's
 * owner and data product). Identity is the uuid part: the namespace tag is read from it, so a
 * prefixed id of this namespace is this namespace's object (never "made in the UI"), matched to
 * its declaration by its bare, lower-case uuid. The objects are written straight into the
 * emulator's store with prefixed ids, as a platform that echoes the written form would hold them.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { deriveId } from '../../src/engine/identity';
import { startEmulator } from '../../src/emulator';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
const NS = 'prefixed';
const AT = '2026-01-01T00:00:00.000Z';
let emu: Emu;
let dir: string;

const PARENT = deriveId('demo', NS, 'dq_domain', 'parent');
const CHILD = deriveId('demo', NS, 'dq_domain', 'child');
const PRODUCT = deriveId('demo', NS, 'dq_data_product', 'orders');
const OWNER = deriveId('demo', NS, 'dq_owner', 'team');
const OWNERSHIP = deriveId('demo', NS, 'dq_ownership', 'owns');
const ORPHAN = deriveId('demo', NS, 'dq_owner', 'orphan');
const up = (s: string) => s.toUpperCase();

function seed(): void {
  const ws = emu.app.store.workspace('demo');
  const meta = (id: string) => ({ etag: `W/"${id}-1"`, createdAt: AT, updatedAt: AT, source: 0 });
  ws.collection<Record<string, unknown>>('domains').put(PARENT, { id: `domain-${PARENT}`, name: 'Parent', ...meta(PARENT) });
  ws.collection<Record<string, unknown>>('domains').put(CHILD, { id: `domain-${up(CHILD)}`, name: 'Child', parentId: `domain-${PARENT}`, definition: { parts: [{ id: 'p-1', dataproductId: `dataproduct-${PRODUCT}` }] }, ...meta(CHILD) });
  ws.collection<Record<string, unknown>>('dataproducts').put(PRODUCT, { id: `dataproduct-${PRODUCT}`, entityId: `dataproduct-${PRODUCT}`, title: 'Orders', ...meta(PRODUCT) });
  ws.collection<Record<string, unknown>>('owners').put(OWNER, { id: `owner-${OWNER}`, entityId: `owner-${OWNER}`, title: 'Team', contacts: [], ...meta(OWNER) });
  ws.collection<Record<string, unknown>>('owners').put(ORPHAN, { id: `owner-${ORPHAN}`, entityId: `owner-${ORPHAN}`, title: 'Orphan', contacts: [], ...meta(ORPHAN) });
  ws.collection<Record<string, unknown>>('ownerships').put(OWNERSHIP, { id: OWNERSHIP, ownerId: `owner-${OWNER}`, selection: { dataproductId: `dataproduct-${PRODUCT}` }, etag: `W/"${OWNERSHIP}-1"`, createdAt: AT, updatedAt: AT });
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  seed();
});
afterAll(async () => {
  await emu.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-prefixed-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test('objects answered with prefixed ids are matched to their declarations by the uuid (no create, no delete of a declared one); the undeclared one of the namespace is pruned', async () => {
  const stackDir = path.join(dir, 'out', 'stacks', NS);
  fs.mkdirSync(stackDir, { recursive: true });
  const resources = {
    dq_domain: { parent: { name: 'Parent' }, child: { name: 'Child', parent_id: '${dq_domain.parent.id}', definition: { parts: [{ dataproduct_id: '${dq_data_product.orders.id}' }] } } },
    dq_data_product: { orders: { title: 'Orders' } },
    dq_owner: { team: { title: 'Team' } },
    dq_ownership: { owns: { owner_id: '${dq_owner.team.id}', selection: { dataproduct_id: '${dq_data_product.orders.id}' } } },
  };
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: NS }] }, resource: resources }));
  const plan = await cli(['plan', '--stack', NS, '--show-unmanaged']);
  if (process.env.SHOW) console.log(plan.out, plan.err);
  expect(plan.err).not.toMatch(/^Error/m);
  expect(plan.code).toBe(0);
  expect(plan.out).not.toMatch(/cannot be managed/);
  for (const id of [PARENT, CHILD, PRODUCT, OWNER, OWNERSHIP]) expect(plan.out).not.toContain(id); // matched, unchanged
  expect(plan.out).toMatch(/Plan: 0 to add, 0 to change, 1 to destroy/);
  // the orphan (this namespace's by the tag of its uuid) is keyed by its bare id
  expect(plan.out).toContain(`# dq_owner["${ORPHAN}"] (owner "Orphan") will be destroyed`);
});
