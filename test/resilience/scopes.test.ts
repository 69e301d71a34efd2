/**
 * Scopes: the read-only credential can plan and check drift; apply with it fails, names the
 * missing scope, and changes nothing. It should fail BEFORE any write request: the applier
 * can learn the token's scopes (`GET /api/iam/v1`) and compare them with what the plan's
 * writes need.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli, countsByKind, emulator, resetCounters, writeRequests, writeStack, type RunningEmulator } from './helpers';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator({ seed: 'empty' });
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-scopes-'));
  writeStack(dir, 'res-scopes', {
    provider: { dq: [{ namespace: 'res-scopes' }] },
    resource: {
      dq_sql_test: { t: { name: 'T', platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: 'select 1' } },
      dq_owner: { o: { title: 'Team' } },
    },
  });
  await resetCounters(emu);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const READER: [string, string] = ['demo-reader', 'demo-secret'];

it('plan and drift succeed with demo-reader; apply fails naming the missing scope and changes nothing', async () => {
  const plan = await cli(emu.url, dir, ['plan', '--detailed-exitcode'], READER);
  expect(plan.code).toBe(2);
  expect(plan.out).toMatch(/Plan: 2 to add/);
  const drift = await cli(emu.url, dir, ['drift'], READER);
  expect(drift.code).toBe(2);
  expect(drift.out).toMatch(/Drift detected/);
  const before = countsByKind(emu);
  const r = await cli(emu.url, dir, ['apply', '--auto-approve'], READER);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/SCOPE_(MCP_WRITE|DATACHECKS_SQLTESTS_EDIT)/);
  expect(countsByKind(emu)).toEqual(before);
});

// Apply with a read-only credential is refused before any write: the applier reads the token's
// scopes (GET /api/iam/v1) and names the scopes the plan's writes need.
it('apply with demo-reader is refused before any write request, naming the missing scope', async () => {
  const r = await cli(emu.url, dir, ['apply', '--auto-approve'], READER);
  expect(await writeRequests(emu)).toEqual({});
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/SCOPE_(MCP_WRITE|DATACHECKS_SQLTESTS_EDIT)/);
});
