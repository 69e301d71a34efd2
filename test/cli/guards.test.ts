/**
 * Apply's guards through the CLI (in-process, against an emulator with the demo catalog), where
 * a user meets them: --max-deletes counts replaces and defaults to 10, --max-effect-deletes
 * counts the monitors a narrowed rule deletes (default 100) and the plan summary shows them, and
 * a rule change the platform could not preview is refused unless --allow-unpreviewed. Every
 * refusal writes nothing.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator, type RunningEmulator } from '../../src/emulator';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(() => emu.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-guards-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function stack(ns: string, resource: Record<string, unknown>): void {
  const d = path.join(dir, 'cdktf.out', 'stacks', ns);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource }));
}

async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

async function writes(): Promise<number> {
  const r = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { routes: Record<string, number> };
  return Object.entries(r.routes)
    .filter(([k]) => !k.startsWith('GET ') && k.includes(' /api/') && !/(batch-get|by-id|\/list|\/get)$/.test(k))
    .reduce((n, [, v]) => n + v, 0);
}
const resetCounters = () => fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });

const owners = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`o${i}`, { title: `Owner ${i}` }]));
const issueAlert = { name: 'A', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } };
const schemaAlert = { name: 'A', schema_change: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: {} } };
const rule = (ql: string) => ({ title: 'Row count', query_config: { resolver_ql: ql, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } });

describe('--max-deletes', () => {
  it('defaults to 10: 11 deletes are refused with nothing written and the count to pass; the plan says so up front; 10 would pass', async () => {
    stack('g-default', { dq_owner: owners(11) });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    stack('g-default', {});
    const p = await cli(['plan']);
    expect(p.out).toMatch(/Plan: 0 to add, 0 to change, 11 to destroy\./);
    expect(p.out).toMatch(/Note: apply refuses this plan as it is: the plan destroys 11 object\(s\), more than --max-deletes 10\. Review the deletions, then re-run with --max-deletes 11/);
    await resetCounters();
    const refused = await cli(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/nothing was applied: the plan destroys 11 object\(s\), more than --max-deletes 10/);
    expect(refused.err).toMatch(/--max-deletes 11/);
    expect(await writes()).toBe(0);
    // one object back in the code: 10 deletes pass the default
    stack('g-default', { dq_owner: { o0: { title: 'Owner 0' } } });
    const ok = await cli(['apply', '--auto-approve']);
    expect(ok.out).toMatch(/Apply complete: 10 applied/);
    expect(ok.code).toBe(0);
  });

  it('counts a replace (an alert whose kind changes is destroyed and created anew)', async () => {
    stack('g-replace', { dq_alert: { a: issueAlert } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    stack('g-replace', { dq_alert: { a: schemaAlert } });
    await resetCounters();
    const refused = await cli(['apply', '--auto-approve', '--max-deletes', '0']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the plan destroys 1 object\(s\) \(1 of them replaced: destroyed, then created anew\), more than --max-deletes 0/);
    expect(await writes()).toBe(0);
    const ok = await cli(['apply', '--auto-approve', '--max-deletes', '1']);
    expect(ok.out).toMatch(/replace dq_alert\.a: done/);
    expect(ok.code).toBe(0);
  });
});

describe('guards on a saved plan (apply PLANFILE, as the CI example runs it)', () => {
  it('an 11-delete plan file is refused by the default --max-deletes before any request (not even a token); --max-deletes 11 applies it', async () => {
    stack('g-file', { dq_owner: owners(11) });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    stack('g-file', {});
    expect((await cli(['plan', '--out', 'plan.json'])).code).toBe(0);
    await resetCounters();
    const refused = await cli(['apply', 'plan.json']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/nothing was applied: the plan destroys 11 object\(s\), more than --max-deletes 10/);
    const counted = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { total: number };
    expect(counted.total).toBe(0);
    const ok = await cli(['apply', 'plan.json', '--max-deletes', '11']);
    expect(ok.out).toMatch(/Apply complete: 11 applied/);
    expect(ok.code).toBe(0);
  }, 60_000);

  it('--max-effect-deletes counts the ownerships an owner takes with it (one made in the UI included); the plan summary shows them', async () => {
    const ownership = (q: string) => ({ owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: `with_tag("${q}")` } } });
    stack('g-cascade', { dq_owner: { team: { title: 'Team' } }, dq_ownership: { a: ownership('a') } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    // someone adds an ownership to the owner in the UI
    const { PlatformClient } = await import('../../src/client');
    const raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
    const { deriveId } = await import('../../src/engine/identity');
    await raw.owners.upsertOwnership({ id: '0a0a0a0a-0000-4000-8000-000000000001', ownerId: deriveId('demo', 'g-cascade', 'dq_owner', 'team'), selection: { query: { resolverQl: 'with_tag("ui")' } } });
    await raw.close();
    stack('g-cascade', {});
    const p = await cli(['plan', '--out', 'plan.json']);
    expect(p.out).toMatch(/2 to destroy/);
    expect(p.out).toMatch(/1 ownership\(s\) by cascade/);
    await resetCounters();
    const refused = await cli(['apply', 'plan.json', '--max-effect-deletes', '0']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the plan makes the platform delete 1 ownership\(s\) by cascade, more than --max-effect-deletes 0: dq_owner\["[0-9a-f-]+"\] \(1\)/);
    expect(await writes()).toBe(0);
    const ok = await cli(['apply', 'plan.json']);
    expect(ok.code).toBe(0);
  }, 60_000);
});

describe('--max-effect-deletes', () => {
  it('counts the monitors a narrowed rule deletes (the issue: 21 monitors went under --max-deletes 0); the summary shows them', async () => {
    stack('g-effects', { dq_monitor_deployment_rule: { r: rule('with_type("table")') } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    stack('g-effects', { dq_monitor_deployment_rule: { r: rule('with_name("orders")') } });
    const p = await cli(['plan']);
    const n = Number(/The platform also deletes (\d+) monitor\(s\)\./.exec(p.out)?.[1]);
    expect(n).toBeGreaterThan(5);
    await resetCounters();
    const refused = await cli(['apply', '--auto-approve', '--max-deletes', '0', '--max-effect-deletes', String(n - 1)]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(new RegExp(`the plan makes the platform delete ${n} monitor\\(s\\), more than --max-effect-deletes ${n - 1}: dq_monitor_deployment_rule\\.r \\(${n}\\)`));
    expect(refused.err).toMatch(new RegExp(`re-run with --max-effect-deletes ${n}`));
    expect(await writes()).toBe(0);
    // the default (100) lets them through: deletes of objects (--max-deletes 0) are a different count
    const ok = await cli(['apply', '--auto-approve', '--max-deletes', '0']);
    expect(ok.out).toMatch(/update dq_monitor_deployment_rule\.r: done/);
    expect(ok.code).toBe(0);
  });
});

describe('unpreviewed changes', () => {
  afterEach(() => fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' }));

  it('a rule change whose preview failed (503) shows "effects unknown" and apply refuses it unless --allow-unpreviewed', async () => {
    stack('g-unpreviewed', { dq_monitor_deployment_rule: { r: rule('with_name("orders")') } });
    // the deploy overview of a new rule (exact path: the list, `.../deployment-rules`, stays up)
    const faults = { rules: [{ type: 'unavailable', method: 'GET', path: '/api/monitors/automated/v1/deployment-rule' }] };
    const set = await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) });
    expect(set.status).toBe(200);
    const p = await cli(['plan']);
    expect(p.out).toMatch(/! effects unknown: GET \/api\/monitors\/automated\/v1\/deployment-rule failed: 503/);
    expect(p.out).toMatch(/Effects unknown for 1 change\(s\)\./);
    expect(p.out).toMatch(/Note: apply refuses this plan as it is: .*--allow-unpreviewed/s);
    await resetCounters();
    const refused = await cli(['apply', '--auto-approve']);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the platform's preview of 1 change\(s\) failed or is missing, so what they delete downstream is unknown: dq_monitor_deployment_rule\.r/);
    expect(refused.err).toMatch(/--allow-unpreviewed/);
    expect(await writes()).toBe(0);
    const ok = await cli(['apply', '--auto-approve', '--allow-unpreviewed']);
    expect(ok.out).toMatch(/create dq_monitor_deployment_rule\.r: done/);
    expect(ok.code).toBe(0);
  }, 60_000);
});

describe('destroy keeps the guards', () => {
  afterEach(() => fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' }));

  it('--max-effect-deletes counts the monitors a destroyed rule takes with it; a failed preview is refused unless --allow-unpreviewed', async () => {
    // an asset no other rule in this file monitors: a monitor belongs to the first rule that placed it
    stack('g-destroy', { dq_monitor_deployment_rule: { r: rule('with_name("customers")') } });
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const p = await cli(['plan', '--destroy']);
    const n = Number(/The platform also deletes (\d+) monitor\(s\)/.exec(p.out)?.[1]);
    expect(n).toBeGreaterThan(0);
    await resetCounters();
    const refused = await cli(['destroy', '--auto-approve', '--max-effect-deletes', String(n - 1)]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(new RegExp(`the plan makes the platform delete ${n} monitor\\(s\\), more than --max-effect-deletes ${n - 1}: dq_monitor_deployment_rule\\.r \\(${n}\\)`));
    expect(await writes()).toBe(0);
    // the delete preview (GET .../deployment-rule/<id>/deleted) fails: effects unknown, refused
    const faults = { rules: [{ type: 'unavailable', method: 'GET', pathPrefix: '/api/monitors/automated/v1/deployment-rule/' }] };
    expect((await fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(faults) })).status).toBe(200);
    await resetCounters();
    const unpreviewed = await cli(['destroy', '--auto-approve']);
    expect(unpreviewed.code).toBe(1);
    expect(unpreviewed.err).toMatch(/the platform's preview of 1 change\(s\) failed or is missing, so what they delete downstream is unknown: dq_monitor_deployment_rule\.r/);
    expect(await writes()).toBe(0);
    const ok = await cli(['destroy', '--auto-approve', '--allow-unpreviewed']);
    expect(ok.out).toMatch(/delete dq_monitor_deployment_rule\.r: done/);
    expect(ok.out).toMatch(/Destroy complete: 1 applied/);
    expect(ok.code).toBe(0);
  }, 60_000);
});
