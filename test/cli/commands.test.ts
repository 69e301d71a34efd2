/**
 * Every command's exit codes, spawned as a user would (a child `node bin/dqform.js` from the
 * sources) against an emulator started here on port 0. Complements test/e2e/lifecycle.test.ts
 * (in-process, per kind): this file checks what only a real process shows — exit statuses,
 * stdout vs stderr, TTY detection, colours, stack traces and secrets in the output.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { startEmulator, READ_SCOPES } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { SCOPES } from '../../schemas/platform/common';
import { alert, ANSI, dqform, dqformCommandLine, sqlTest, STACK_FRAME, withPty, Workspace, Workspaces, type Run, type RunOptions } from './helpers';

/** A secret no fixture or message contains by chance: if it shows up anywhere, it leaked. */
const SECRET = 'cli-e2e-S3cret-7f3a9c1d';
const WRITER = 'cli-e2e-writer';
const READER = 'cli-e2e-reader';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let raw: PlatformClient;
const runs: Run[] = [];
const workspaces = new Workspaces();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential(WRITER, SECRET, SCOPES);
  emu.app.addCredential(READER, SECRET, READ_SCOPES);
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: WRITER, clientSecret: SECRET });
});
afterAll(async () => {
  await raw.close();
  await emu.close();
  workspaces.removeAll();
});

function workspace(): Workspace {
  return workspaces.make();
}

/** Runs dqform in `ws` with the writer credential (override with opts.env); records the run for the secret check. */
async function run(ws: Workspace, args: string[], opts: RunOptions = {}): Promise<Run> {
  const r = await dqform(args, { cwd: ws.dir, ...opts, env: { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: WRITER, DQ_CLIENT_SECRET: SECRET, ...opts.env } });
  runs.push(r);
  return r;
}

/** A clean failure: exit 1, something on stderr, no JS stack frame, not an internal error. */
function expectDiagnostic(r: Run, message: RegExp): void {
  expect(r.err).toMatch(message);
  expect(r.code).toBe(1);
  expect(`${r.out}\n${r.err}`).not.toMatch(STACK_FRAME);
  expect(r.err).not.toMatch(/Internal error/);
}

describe('exit codes', () => {
  it('validate 0, plan 0 / --detailed-exitcode 2, drift 2 before apply, markdown plan saved, apply of the saved plan 0, then plan and drift 0', async () => {
    const ws = workspace();
    ws.stack('cli-flow', { dq_alert: { a: alert('A') }, dq_sql_test: { t: sqlTest('T') } });

    const v = await run(ws, ['validate']);
    expect(v.out).toMatch(/Stack cli-flow \(namespace "cli-flow"\): 2 resource\(s\), valid\./);
    expect(v.code).toBe(0);

    const [plain, detailed, md, drift] = await Promise.all([
      run(ws, ['plan']),
      run(ws, ['plan', '--detailed-exitcode']),
      run(ws, ['plan', '--out', 'plan-cli-flow.json', '--format', 'markdown']),
      run(ws, ['drift']),
    ]);
    expect(plain.out).toMatch(/Plan: 2 to add, 0 to change, 0 to destroy\./);
    expect(plain.code).toBe(0);
    expect(detailed.out).toMatch(/Plan: 2 to add/);
    expect(detailed.code).toBe(2);
    expect(drift.out).toMatch(/Drift detected/);
    expect(drift.code).toBe(2);
    // Markdown on stdout (what CI posts), the hint on stderr, the JSON plan in the file.
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^### dqform plan: `cli-flow` in `demo`/);
    expect(md.out).toMatch(/^\*\*Plan: 2 to add, 0 to change, 0 to destroy\.\*\* 0 unchanged/m);
    expect(md.err).toMatch(/Saved the plan to plan-cli-flow\.json\. Apply exactly it with: dqform apply plan-cli-flow\.json/);
    const saved = JSON.parse(fs.readFileSync(ws.path('plan-cli-flow.json'), 'utf8')) as { namespace: string; changes: { address: string; action: string }[] };
    expect(saved.namespace).toBe('cli-flow');
    expect(saved.changes.filter((c) => c.action === 'create').map((c) => c.address).sort()).toEqual(['dq_alert.a', 'dq_sql_test.t']);

    const applied = await run(ws, ['apply', 'plan-cli-flow.json']);
    expect(applied.out).toMatch(/Apply complete: 2 applied, 0 failed, 0 not attempted\./);
    expect(applied.code).toBe(0);

    const [again, drift0, reapply] = await Promise.all([
      run(ws, ['plan', '--detailed-exitcode']),
      run(ws, ['drift']),
      // A saved plan is single-use: applying it twice must not create duplicates.
      run(ws, ['apply', 'plan-cli-flow.json']),
    ]);
    expect(again.out).toMatch(/No changes/);
    expect(again.code).toBe(0);
    expect(drift0.out).toMatch(/No drift/);
    expect(drift0.code).toBe(0);
    expectDiagnostic(reapply, /stale plan/);

    // A change behind dqform's back: drift names the object and exits 2.
    await raw.alerts.rename({ fqn: 'cli-flow.a' }, 'renamed in the UI');
    const drifted = await run(ws, ['drift']);
    expect(drifted.out).toMatch(/dq_alert\.a/);
    expect(drifted.code).toBe(2);
  }, 90_000);

  it('drift and plan exit 1 (not 0 or 2) when they cannot read live state', async () => {
    const ws = workspace();
    ws.stack('cli-down', { dq_alert: { a: alert('A') } });
    const env = { DQ_BASE_URL: 'http://127.0.0.1:9' };
    const [drift, plan] = await Promise.all([run(ws, ['drift'], { env }), run(ws, ['plan', '--detailed-exitcode'], { env })]);
    expectDiagnostic(drift, /ECONNREFUSED|connection failed/);
    expectDiagnostic(plan, /ECONNREFUSED|connection failed/);
  });

  it('--stack picks one stack of several', async () => {
    const ws = workspace();
    ws.stack('cli-s1', { dq_alert: { a: alert('A') } });
    ws.stack('cli-s2', { dq_sql_test: { t: sqlTest('T') }, dq_alert: { b: alert('B') } });
    const [s1, s2] = await Promise.all([run(ws, ['validate', '--stack', 'cli-s1']), run(ws, ['plan', '--stack', 'cli-s2'])]);
    expect(s1.out).toMatch(/Stack cli-s1 .*1 resource\(s\), valid/);
    expect(s1.code).toBe(0);
    expect(s2.out).toMatch(/Plan: 2 to add/);
    expect(s2.code).toBe(0);
  });
});

describe('guards', () => {
  it('a saved plan whose objects moved since is refused with exit 1, naming the object, and nothing is written', async () => {
    const ws = workspace();
    ws.stack('cli-stale', { dq_alert: { a: alert('A') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    ws.stack('cli-stale', { dq_alert: { a: alert('B') } });
    expect((await run(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    await raw.alerts.rename({ fqn: 'cli-stale.a' }, 'someone else');
    const r = await run(ws, ['apply', 'plan.json']);
    expectDiagnostic(r, /stale plan: live state changed since the plan was made; apply refuses it and wrote nothing/);
    expect(r.err).toMatch(/dq_alert\.a: it changed since the plan \(etag /);
    expect(r.err).toMatch(/dqform plan/);
    const live = await raw.alerts.batchGet([{ fqn: 'cli-stale.a' }]);
    expect(Object.values(live)[0].name).toBe('someone else');
  });

  it('--stack and a plan file\'s stack name only stacks of the synth output: a path out of it reads nothing (issue 23)', async () => {
    const ws = workspace();
    ws.stack('cli-inside', { dq_alert: { a: alert('A') } });
    // desired state outside the synth output, reachable by a relative path from cdktf.out/stacks
    const outside = ws.path('elsewhere', 'x');
    fs.mkdirSync(outside, { recursive: true });
    fs.writeFileSync(`${outside}/cdk.tf.json`, JSON.stringify({ provider: { dq: [{ namespace: 'cli-inside' }] }, resource: {} }));
    const plan = await run(ws, ['plan', '--stack', '../../elsewhere/x']);
    expectDiagnostic(plan, /no stack "\.\.\/\.\.\/elsewhere\/x" in .*cdktf\.out \(it holds cli-inside\)/);
    expect(plan.out).toBe('');
    expect((await run(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const p = JSON.parse(fs.readFileSync(ws.path('plan.json'), 'utf8')) as { stack: string };
    p.stack = '../../elsewhere/x';
    fs.writeFileSync(ws.path('plan.json'), JSON.stringify(p));
    const apply = await run(ws, ['apply', 'plan.json']);
    expectDiagnostic(apply, /no stack "\.\.\/\.\.\/elsewhere\/x" in /);
    expect(apply.out).not.toMatch(/Apply complete/);
  });

  it('show and apply refuse a plan file whose patch or summary disagrees with its changes: a hidden Slack target, "0 to destroy" over three deletes (issue 23)', async () => {
    const ws = workspace();
    ws.stack('cli-agree', { dq_alert: { a: alert('A') }, dq_sql_test: { t1: sqlTest('T1'), t2: sqlTest('T2'), t3: sqlTest('T3') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const withTarget = alert('A');
    withTarget.issue_lifecycle.targets.push({ slack: { channel: '#attacker' } });
    ws.stack('cli-agree', { dq_alert: { a: withTarget } });
    expect((await run(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const honest = await run(ws, ['show', 'plan.json']);
    expect(honest.code).toBe(0);
    expect(honest.out).toMatch(/#attacker/);
    expect(honest.out).toMatch(/Plan: 0 to add, 1 to change, 3 to destroy\./);
    const plan = JSON.parse(fs.readFileSync(ws.path('plan.json'), 'utf8')) as { changes: { address: string; patch: unknown[] }[]; summary: Record<string, number> };
    const hidden = structuredClone(plan);
    hidden.changes.find((c) => c.address === 'dq_alert.a')!.patch = [];
    fs.writeFileSync(ws.path('hidden.json'), JSON.stringify(hidden));
    const fewer = structuredClone(plan);
    fewer.summary.destroy = 0;
    fs.writeFileSync(ws.path('fewer.json'), JSON.stringify(fewer));
    for (const [file, why] of [
      ['hidden.json', /changes\.\d+ \(dq_alert\.a\): its patch is not the difference between its before and after/],
      ['fewer.json', /summary\.destroy is 0, and its changes count 3/],
    ] as const) {
      for (const args of [['show', file], ['show', file, '--format', 'markdown'], ['apply', file]]) {
        const r = await run(ws, args);
        expectDiagnostic(r, why);
        expect(r.out).not.toMatch(/to destroy|#attacker/);
      }
    }
    const live = await raw.alerts.batchGet([{ fqn: 'cli-agree.a' }]);
    expect(JSON.stringify(Object.values(live)[0])).not.toMatch(/#attacker/);
    expect((await raw.sqlTests.list()).filter((t) => /^T[123]$/.test(t.name))).toHaveLength(3);
  });

  it('apply without a TTY and without --auto-approve refuses with the hint, even with "yes" piped in, and writes nothing', async () => {
    const ws = workspace();
    ws.stack('cli-notty', { dq_sql_test: { t: sqlTest('T') } });
    const r = await run(ws, ['apply'], { input: 'yes\n' });
    expectDiagnostic(r, /no terminal to ask on/);
    expect(r.err).toMatch(/--auto-approve/);
    expect(r.err).toMatch(/dqform plan --out plan\.json; dqform apply plan\.json/);
    const after = await run(ws, ['plan', '--detailed-exitcode']);
    expect(after.out).toMatch(/Plan: 1 to add/);
    expect(after.code).toBe(2);
  });

  it('--max-deletes refuses a plan destroying more, for --auto-approve and for a saved plan; a bad value is a usage error', async () => {
    const ws = workspace();
    ws.stack('cli-deletes', { dq_sql_test: { a: sqlTest('A'), b: sqlTest('B') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    ws.stack('cli-deletes', {});
    expect((await run(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const [auto, saved, bad] = await Promise.all([
      run(ws, ['apply', '--auto-approve', '--max-deletes', '1']),
      run(ws, ['apply', 'plan.json', '--max-deletes', '1']),
      run(ws, ['apply', 'plan.json', '--max-deletes', 'many']),
    ]);
    expectDiagnostic(auto, /destroys 2 object\(s\), more than --max-deletes 1/);
    expectDiagnostic(saved, /destroys 2 object\(s\), more than --max-deletes 1/);
    expectDiagnostic(bad, /--max-deletes takes a whole number/);
    const ok = await run(ws, ['apply', 'plan.json', '--max-deletes', '2']);
    expect(ok.out).toMatch(/Apply complete: 2 applied/);
    expect(ok.code).toBe(0);
  });

  it('the read-only credential plans and drifts (exit 0/2) but apply exits 1 naming the missing scope', async () => {
    const ws = workspace();
    ws.stack('cli-reader', { dq_sql_test: { t: sqlTest('T') } });
    const env = { DQ_CLIENT_ID: READER };
    const [plan, drift] = await Promise.all([run(ws, ['plan', '--out', 'plan.json'], { env }), run(ws, ['drift'], { env })]);
    expect(plan.code).toBe(0);
    expect(drift.code).toBe(2);
    const r = await run(ws, ['apply', 'plan.json'], { env });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/SCOPE_\w+_EDIT|permission|scope/i);
    expect(r.err).not.toMatch(STACK_FRAME);
  });
});

describe('user mistakes: a diagnostic naming the file or address, exit 1, no stack trace', () => {
  it('malformed cdk.tf.json, a missing cdktf.out, bad ResolverQL, missing credentials, a wrong secret, a bad --format, a missing or foreign plan file', async () => {
    const broken = workspace();
    const file = broken.rawStack('cli-broken', '{"provider": {"dq": [{"namespace": "cli-broken"}]}, "resource": {');
    const empty = workspace();
    const badQl = workspace();
    badQl.stack('cli-badql', { dq_alert: { bad: alert('Bad', 'with_type("table"') } });
    const good = workspace();
    good.stack('cli-good', { dq_alert: { a: alert('A') } });
    fs.writeFileSync(good.path('foreign.json'), JSON.stringify({ hello: 'world' }));

    const [malformedValidate, malformedPlan, noOut, qlValidate, qlPlan, noCreds, wrongSecret, format, noPlanFile, foreign] = await Promise.all([
      run(broken, ['validate']),
      run(broken, ['plan']),
      run(empty, ['validate']),
      run(badQl, ['validate']),
      run(badQl, ['plan', '--detailed-exitcode']),
      run(good, ['plan'], { env: { DQ_CLIENT_ID: undefined, DQ_CLIENT_SECRET: undefined, DQ_BASE_URL: emu.url } }),
      run(good, ['drift'], { env: { DQ_CLIENT_SECRET: 'wrong-S3cret-e2e-0b1d' } }),
      run(good, ['plan', '--format', 'html']),
      run(good, ['apply', 'missing.json']),
      run(good, ['apply', 'foreign.json']),
    ]);
    expectDiagnostic(malformedValidate, new RegExp(`${file.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} is not valid JSON`));
    expectDiagnostic(malformedPlan, /cdk\.tf\.json is not valid JSON/);
    expect(malformedValidate.err).toMatch(/dqform synth/);
    expectDiagnostic(noOut, /cannot read .*cdktf\.out/);
    expect(noOut.err).toMatch(/dqform synth/);
    expectDiagnostic(qlValidate, /dq_alert\.bad: .*resolverQl: ResolverQL: at offset 17/);
    // plan prints its errors as diagnostics on stderr (where CI logs show them), and no plan text.
    expect(qlPlan.err).toMatch(/Error: dq_alert\.bad: .*ResolverQL/);
    expect(qlPlan.out).not.toMatch(/Plan: \d+ to add/);
    expect(qlPlan.code).toBe(1);
    expect(qlPlan.out + qlPlan.err).not.toMatch(STACK_FRAME);
    expectDiagnostic(noCreds, /DQ_CLIENT_ID/);
    expectDiagnostic(wrongSecret, /401|refused the client credentials/);
    expect(`${wrongSecret.out}${wrongSecret.err}`).not.toContain('wrong-S3cret-e2e-0b1d');
    expectDiagnostic(format, /--format must be text, markdown or json; got "html"/);
    expectDiagnostic(noPlanFile, /cannot read plan file missing\.json/);
    expect(noPlanFile.err).toMatch(/dqform plan --out missing\.json/);
    expectDiagnostic(foreign, /not a dqform plan/);
  });
});

describe('colour', () => {
  const changes = (ws: Workspace) => ws.stack('cli-colour', { dq_alert: { a: alert('A') } });

  it('is off without a terminal, with or without NO_COLOR and --no-color', async () => {
    const ws = workspace();
    changes(ws);
    const rs = await Promise.all([run(ws, ['plan']), run(ws, ['plan'], { env: { NO_COLOR: '1' } }), run(ws, ['plan', '--no-color']), run(ws, ['drift'])]);
    for (const r of rs) {
      expect(r.out).toMatch(/Plan: 1 to add/);
      expect(r.out + r.err).not.toMatch(ANSI);
    }
  });

  const pty = withPty('true');
  (pty ? it : it.skip)('on a pseudo-terminal: colour by default, none with NO_COLOR=1 or --no-color, none with CI=true', async () => {
    const ws = workspace();
    changes(ws);
    const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: WRITER, DQ_CLIENT_SECRET: SECRET };
    const [coloured, noColorEnv, noColorFlag, ci] = await Promise.all([
      withPty(dqformCommandLine(['plan']), { cwd: ws.dir, env })!,
      withPty(dqformCommandLine(['plan']), { cwd: ws.dir, env: { ...env, NO_COLOR: '1' } })!,
      withPty(dqformCommandLine(['plan', '--no-color']), { cwd: ws.dir, env })!,
      withPty(dqformCommandLine(['plan']), { cwd: ws.dir, env: { ...env, CI: 'true' } })!,
    ]);
    runs.push(coloured, noColorEnv, noColorFlag, ci);
    // The positive control: the same plan does carry colour on a terminal.
    expect(coloured.out).toMatch(/Plan: 1 to add/);
    expect(coloured.out).toMatch(ANSI);
    for (const r of [noColorEnv, noColorFlag, ci]) {
      expect(r.out).toMatch(/Plan: 1 to add/);
      expect(r.out).not.toMatch(ANSI);
      expect(r.code).toBe(0);
    }
  });

  (pty ? it : it.skip)('on a pseudo-terminal apply asks; anything but "yes" cancels with exit 1, "yes" applies', async () => {
    const ws = workspace();
    ws.stack('cli-confirm', { dq_sql_test: { t: sqlTest('T') } });
    const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: WRITER, DQ_CLIENT_SECRET: SECRET, NO_COLOR: '1' };
    const no = await withPty(dqformCommandLine(['apply']), { cwd: ws.dir, env, input: 'y\n' })!;
    runs.push(no);
    expect(no.out).toMatch(/Apply these changes\? Only "yes" is accepted/);
    expect(no.out).toMatch(/Apply cancelled/);
    expect(no.code).toBe(1);
    const yes = await withPty(dqformCommandLine(['apply']), { cwd: ws.dir, env, input: 'yes\n' })!;
    runs.push(yes);
    expect(yes.out).toMatch(/Apply complete: 1 applied/);
    expect(yes.code).toBe(0);
  });
});

it('no run printed the client secret, on stdout or stderr', () => {
  expect(runs.length).toBeGreaterThan(20);
  for (const r of runs) expect(`${r.out}\n${r.err}`).not.toContain(SECRET);
});
