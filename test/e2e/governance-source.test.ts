/**
 * Issue 22 (part B): `source` on domains, data products and owners. The platform's value names
 * carry product words (wire-facts 7: send the integer), so the gateway may answer a name dqform
 * has never seen. A governance object stays manageable whatever name or number the platform
 * answers, except the external catalog's value (1), which is read-only in the platform: such an
 * object is listed as not managed and never written. Before, any name but dqform's own neutral
 * ones (and any number but 0 and 1) made the object "cannot be managed by this version".
 * The objects are written straight into the emulator's store, as the platform would hold them;
 * the suite runs in both encodings (the gateway pass renders names as numbers where it can).
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
const NS = 'govsource';
const AT = '2026-01-01T00:00:00.000Z';
let emu: Emu;
let dir: string;

const DOMAIN = deriveId('demo', NS, 'dq_domain', 'sales');
const PRODUCT = deriveId('demo', NS, 'dq_data_product', 'orders');
const OWNER = deriveId('demo', NS, 'dq_owner', 'team');
const ORPHAN = deriveId('demo', NS, 'dq_domain', 'orphan'); // tagged, not declared: pruned unless read-only

function put(source: unknown, orphanSource: unknown = source): void {
  const ws = emu.app.store.workspace('demo');
  ws.collection<Record<string, unknown>>('domains').put(DOMAIN, { id: DOMAIN, name: 'Sales', source, etag: `W/"${DOMAIN}-1"`, createdAt: AT, updatedAt: AT });
  ws.collection<Record<string, unknown>>('domains').put(ORPHAN, { id: ORPHAN, name: 'Orphan', source: orphanSource, etag: `W/"${ORPHAN}-1"`, createdAt: AT, updatedAt: AT });
  ws.collection<Record<string, unknown>>('dataproducts').put(PRODUCT, { id: PRODUCT, entityId: `dataproduct-${PRODUCT}`, title: 'Orders', source, etag: `W/"${PRODUCT}-1"`, createdAt: AT, updatedAt: AT });
  ws.collection<Record<string, unknown>>('owners').put(OWNER, { id: OWNER, entityId: `owner-${OWNER}`, title: 'Team', contacts: [], source, etag: `W/"${OWNER}-1"`, createdAt: AT });
}
function snapshot(): unknown {
  const ws = emu.app.store.workspace('demo');
  return [ws.collection('domains').get(DOMAIN), ws.collection('domains').get(ORPHAN), ws.collection('dataproducts').get(PRODUCT), ws.collection('owners').get(OWNER)];
}

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-govsource-'));
  const stackDir = path.join(dir, 'out', 'stacks', NS);
  fs.mkdirSync(stackDir, { recursive: true });
  const resources = { dq_domain: { sales: { name: 'Sales' } }, dq_data_product: { orders: { title: 'Orders' } }, dq_owner: { team: { title: 'Team' } } };
  fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: NS }] }, resource: resources }));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main([...args, '--dir', path.join(dir, 'out')], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

test.each([
  ['the neutral name of native', 'SOURCE_NATIVE'],
  ['native as the number 0', 0],
  ['a product-worded name the platform may answer', 'SOURCE_ACMEDQ'],
  ['another product-worded name', 'SOURCE_ACME_PLATFORM_APP'],
  ['a number this version does not name', 7],
])('source %s: every governance object stays manageable (the plan is empty; the orphan is pruned)', async (_why, source) => {
  put(source);
  const plan = await cli(['plan', '--stack', NS, '--show-unmanaged']);
  expect(plan.err).not.toMatch(/^Error/m);
  expect(`${plan.out}\n${plan.err}`).not.toMatch(/cannot be managed|external catalog/);
  expect(plan.code).toBe(0);
  // the three declared objects equal live; the tagged orphan is this namespace's and is deleted
  expect(plan.out).toMatch(/Plan: 0 to add, 0 to change, 1 to destroy/);
  expect(plan.out).toContain(ORPHAN);
});

test.each([
  ['the number 1', 1],
  ['the neutral name', 'SOURCE_EXTERNAL_CATALOG'],
  ['a product-worded catalog name', 'SOURCE_ACME_DATA_CATALOG'],
])('source external catalog (%s): listed as not managed, never written; declaring it is an error naming the address', async (_why, source) => {
  put('SOURCE_NATIVE', source);
  const before = snapshot();
  const plan = await cli(['plan', '--stack', NS, '--show-unmanaged', '--out', path.join(dir, 'plan.json')]);
  expect(plan.code).toBe(0);
  expect(plan.out).toMatch(new RegExp(`dq_domain\\["${ORPHAN}"\\] \\([^)]*\\): cannot be managed by this version: it comes from an external catalog \\(source SOURCE_EXTERNAL_CATALOG\\), read-only in the platform`));
  expect(plan.out.trimEnd()).toMatch(/\nNo changes\. Live state matches the code\.$/);
  const apply = await cli(['apply', path.join(dir, 'plan.json')]);
  expect(apply.code).toBe(0);
  expect(snapshot()).toEqual(before);

  put(source);
  const declared = await cli(['plan', '--stack', NS]);
  expect(declared.code).toBe(1);
  expect(`${declared.out}\n${declared.err}`).toMatch(new RegExp(`dq_domain\\.sales: the domain "${DOMAIN}" cannot be managed by this version: it comes from an external catalog`));
});
