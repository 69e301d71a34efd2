/**
 * Scopes: the read-only credential can plan and check drift; apply with it fails, names the
 * missing scope, and changes nothing. It should fail BEFORE any write request: the applier
 * can learn the token's scopes (`GET /api/iam/v1`) and compare them with what the plan's
 * writes need.
 *
 * @gateway
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

describe('per-service scopes (any-of sets per operation, wire-facts)', () => {
  const GOVERNANCE: [string, string] = ['demo-governance', 'demo-secret'];
  const governance = (ns: string, withProduct: boolean) => ({
    provider: { dq: [{ namespace: ns }] },
    resource: {
      dq_domain: { sales: { name: 'Sales' } },
      dq_owner: { team: { title: 'Sales team', contacts: [{ slack: { channel: '#sales' } }] } },
      ...(withProduct ? { dq_data_product: { orders: { title: 'Orders' } } } : {}),
    },
  });

  it('demo-governance (domain and owner edit scopes, no SCOPE_MCP_WRITE) applies domains and owners, and the plan after is empty', async () => {
    writeStack(dir, 'res-gov', governance('res-gov', false));
    const plan = await cli(emu.url, dir, ['plan', '--detailed-exitcode', '--stack', 'res-gov'], GOVERNANCE);
    expect(plan.code).toBe(2);
    expect(plan.out).toMatch(/Plan: 2 to add/);
    // kinds it cannot read are named, not silently skipped
    expect(`${plan.out}\n${plan.err}`).toMatch(/cannot read alerts \(they need one of SCOPE_ALERTS_READ\)/);
    const apply = await cli(emu.url, dir, ['apply', '--auto-approve', '--stack', 'res-gov'], GOVERNANCE);
    expect(apply.err).not.toMatch(/^Error/m);
    expect(apply.code).toBe(0);
    expect(countsByKind(emu)).toMatchObject({ dq_domain: 1, dq_owner: 1 });
    expect((await cli(emu.url, dir, ['plan', '--detailed-exitcode', '--stack', 'res-gov'], GOVERNANCE)).code).toBe(0);
  });

  it('with a data product in the stack, demo-governance is refused before any write, naming the set it lacks and the address', async () => {
    writeStack(dir, 'res-gov2', governance('res-gov2', true));
    const plan = await cli(emu.url, dir, ['plan', '--detailed-exitcode', '--stack', 'res-gov2'], GOVERNANCE);
    expect(plan.code).toBe(2); // it can read data products
    await resetCounters(emu);
    const before = countsByKind(emu);
    const r = await cli(emu.url, dir, ['apply', '--auto-approve', '--stack', 'res-gov2'], GOVERNANCE);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/one of SCOPE_DATAPRODUCT_EDIT, SCOPE_MCP_WRITE: needed by dq_data_product\.orders/);
    expect(r.err).not.toMatch(/dq_domain\.sales|dq_owner\.team/);
    expect(await writeRequests(emu)).toEqual({});
    expect(countsByKind(emu)).toEqual(before);
  });

  it('scope names dqform does not know are accepted and ignored', async () => {
    emu.app.addCredential('future', 'future-secret', ['SCOPE_DOMAIN_EDIT', 'SCOPE_DOMAIN_READ', 'SCOPE_FROM_THE_FUTURE', 'SCOPE_OWNERS_EDIT', 'SCOPE_OWNERS_READ']);
    writeStack(dir, 'res-future', governance('res-future', false));
    const r = await cli(emu.url, dir, ['apply', '--auto-approve', '--stack', 'res-future'], ['future', 'future-secret']);
    expect(r.err).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
  });

  // wire-facts 3: Create takes ALERTS_EDIT; spec 4.1 files it under MCP_WRITE too: any one suffices.
  // Before: apply's pre-check asked SCOPE_MCP_WRITE for a create and refused this credential.
  it('SCOPE_ALERTS_EDIT (no SCOPE_MCP_WRITE) creates a disabled alert: Create, then ToggleEnabled; the plan after is empty', async () => {
    emu.app.addCredential('alerts-edit', 'alerts-secret', ['SCOPE_ALERTS_EDIT', 'SCOPE_ALERTS_READ']);
    const ALERTS: [string, string] = ['alerts-edit', 'alerts-secret'];
    const alert = { name: 'A', is_disabled: true, issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } };
    writeStack(dir, 'res-alerts', { provider: { dq: [{ namespace: 'res-alerts' }] }, resource: { dq_alert: { a: alert } } });
    await resetCounters(emu);
    const r = await cli(emu.url, dir, ['apply', '--auto-approve', '--stack', 'res-alerts'], ALERTS);
    expect(r.err).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    expect(await writeRequests(emu)).toEqual({ 'POST /api/alerts/v2': 1, 'POST /api/alerts/v2/toggle': 1 });
    expect((await cli(emu.url, dir, ['plan', '--detailed-exitcode', '--stack', 'res-alerts'], ALERTS)).code).toBe(0);
  });

  it('without the batch scope, rule deploys go one by one (Deploy takes SCOPE_MCP_WRITE, BatchDeploy does not)', async () => {
    emu.app.addCredential('mcp', 'mcp-secret', ['SCOPE_MCP_WRITE', 'SCOPE_MCP_READ', 'SCOPE_ALERTS_READ']);
    const rule = (n: number) => ({ title: `R${n}`, static_config: { path: `wh-prod::mart::t${n}`, severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } });
    writeStack(dir, 'res-mcp', { provider: { dq: [{ namespace: 'res-mcp' }] }, resource: { dq_monitor_deployment_rule: { a: rule(1), b: rule(2) } } });
    await resetCounters(emu);
    const r = await cli(emu.url, dir, ['apply', '--auto-approve', '--stack', 'res-mcp'], ['mcp', 'mcp-secret']);
    expect(r.err).not.toMatch(/^Error/m);
    expect(r.code).toBe(0);
    expect(await writeRequests(emu)).toEqual({ 'POST /api/monitors/automated/v1/deployment-rules/deployed': 2 });
  });
});
