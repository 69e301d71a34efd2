/**
 * Issue 25 acceptance: a plan adding a categorisation rule shows the number of checks it would
 * categorise, from the emulator's preview (PreviewRule over the workspace's SQL tests), in the
 * text plan, the markdown comment and the JSON plan; the number follows the platform's checks.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import type { Plan } from '../../schemas/model/plan';

let emu: RunningEmulator;
let client: PlatformClient;
let dir: string;
const ORDERS = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } };

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-catpreview-'));
  fs.writeFileSync(
    path.join(dir, 'dqform.yaml'),
    'namespace: preview\ncategorisationRules:\n  orders:\n    dimension: GOVERNANCE\n    title: Orders checks\n    category: Finance\n    matcher: \'with_name("fct_orders")\'\n',
  );
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function run(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const io = { out: (s: string) => out.push(s), err: (s: string) => err.push(s), env: { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', NO_COLOR: '1' }, cwd: dir, isTty: false };
  const code = await main(args, io);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const test = (id: string, name: string) => ({ id, name, template: { identifier: ORDERS, businessRuleTest: { sqlExpression: 'amount >= 0' } } });

it('a plan adding a categorisation rule shows the number of checks it would categorise, from the emulator\'s preview', async () => {
  expect((await client.sqlTests.batchUpsert([test('p-one', 'Amounts positive'), test('p-two', 'Amounts bounded')] as never)).errors).toEqual([]);
  const text = await run(['plan', '--file', 'dqform.yaml', '--out', 'plan.json']);
  expect(text.code).toBe(0);
  expect(text.out).toContain('checks categorised: 2 (of 2 matched); category changes: 2 (Amounts bounded: none -> Finance, Amounts positive: none -> Finance)');
  expect(text.out).toContain('Categorisation rules change the category of 2 check(s).');
  const plan = JSON.parse(fs.readFileSync(path.join(dir, 'plan.json'), 'utf8')) as Plan;
  expect(plan.changes.find((c) => c.address === 'dq_check_categorisation_rule.orders')?.effects).toMatchObject({ source: 'categorisation-preview', checksMatched: 2, checksCategorised: 2, categoryChangeCount: 2 });
  const md = await run(['plan', '--file', 'dqform.yaml', '--format', 'markdown']);
  expect(md.out).toContain('checks categorised: 2 (of 2 matched)');

  // one more check on the table: the preview (the platform's, not a guess) counts it
  expect((await client.sqlTests.batchUpsert([test('p-three', 'Amounts rounded')] as never)).errors).toEqual([]);
  expect((await run(['plan', '--file', 'dqform.yaml'])).out).toContain('checks categorised: 3 (of 3 matched); category changes: 3');
});

it('a preview the platform cannot make is "effects unknown", and apply then refuses without --allow-unpreviewed', async () => {
  fs.writeFileSync(path.join(dir, 'bad.yaml'), 'namespace: preview\ncategorisationRules:\n  bad:\n    dimension: TECHNICAL\n    title: Bad\n    category: X\n    matcher: \'no_such_function(\'\n');
  const r = await run(['plan', '--file', 'bad.yaml']);
  expect(r.out).toMatch(/! effects unknown: .*matcher\.expression/);
  expect(r.out).toContain('Effects unknown for 1 change(s).');
  const a = await run(['apply', '--file', 'bad.yaml', '--auto-approve']);
  expect(a.code).toBe(1);
  expect(`${a.out}\n${a.err}`).toContain('--allow-unpreviewed');
  expect(await client.categorisationRules.list(100, { scope: 'WORKSPACE' })).toEqual([]);
});
