/**
 * Synth, spawned as a user would: only `dqform synth` runs the app; plan/apply/drift/destroy/
 * validate stop when the app's files are newer than cdktf.out (--no-synth is accepted and
 * changes nothing); synth never passes the credentials to the app, warns when one is set (refuses
 * in CI), and shows construct validation errors by construct path without cdktf's stack trace or
 * its "skipValidation" advice.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { synthFailureLines } from '../../src/cli/synth';
import { dqform, ROOT, STACK_FRAME, Workspace, type Run } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'synth-S3cret-c0ffee';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('synth-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

/**
 * A CDKTF "app" in plain JavaScript (any command is an app to cdktf.json): it writes the stacks
 * listed in stacks.json to $CDKTF_OUTDIR, counts its runs in runs.log, records which credentials
 * it saw in env.json, and fails when fail.txt exists (with its content on stderr).
 */
const APP = `
const fs = require('fs'), path = require('path');
fs.appendFileSync('runs.log', 'run\\n');
fs.writeFileSync('env.json', JSON.stringify({ id: 'DQ_CLIENT_ID' in process.env, secret: 'DQ_CLIENT_SECRET' in process.env, base: 'DQ_BASE_URL' in process.env }));
if (fs.existsSync('fail.txt')) { console.error(fs.readFileSync('fail.txt', 'utf8')); process.exit(3); }
const stacks = JSON.parse(fs.readFileSync('stacks.json', 'utf8'));
for (const [ns, resources] of Object.entries(stacks)) {
  const dir = path.join(process.env.CDKTF_OUTDIR, 'stacks', ns);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource: resources }));
}
console.log('app: synthesised ' + Object.keys(stacks).join(', '));
`;

const sqlTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: 'select 1' });

function appWorkspace(stacks: Record<string, unknown>, cdktf: Record<string, unknown> = { app: 'node app.js' }): Workspace {
  const ws = new Workspace();
  workspaces.push(ws);
  fs.writeFileSync(ws.path('app.js'), APP);
  fs.writeFileSync(ws.path('cdktf.json'), JSON.stringify(cdktf));
  fs.writeFileSync(ws.path('stacks.json'), JSON.stringify(stacks));
  return ws;
}

const runs = (ws: Workspace) => (fs.existsSync(ws.path('runs.log')) ? fs.readFileSync(ws.path('runs.log'), 'utf8').split('\n').filter(Boolean).length : 0);
/** Makes `file` newer than anything synth wrote (a minute in the future). */
const touchFuture = (file: string) => fs.utimesSync(file, new Date(), new Date(Date.now() + 60_000));

function cli(ws: Workspace, args: string[], env: Record<string, string | undefined> = {}): Promise<Run> {
  return dqform(args, { cwd: ws.dir, env: { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'synth-writer', DQ_CLIENT_SECRET: SECRET, ...env } });
}

/** What plan, apply, drift, destroy and validate say instead of running the app (issue 23). */
const refusal = (why: string) => new RegExp(`Error: ${why}: run dqform synth first\\.\\n {2}dqform runs the app only in dqform synth, never beside credentials`);

describe('plan, apply, drift, destroy and validate never run the app: a missing or stale cdktf.out is an error (issue 23)', () => {
  it('no cdktf.out yet: plan exits 1 saying to run dqform synth first, and the app is not run', async () => {
    const ws = appWorkspace({ 'synth-first': { dq_sql_test: { t: sqlTest('T') } } });
    const r = await cli(ws, ['plan', '--format', 'json']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(refusal('there is no synth output in cdktf\\.out'));
    expect(r.out).toBe('');
    expect(runs(ws)).toBe(0);
    expect((await cli(ws, ['synth'], { DQ_CLIENT_SECRET: undefined, DQ_CLIENT_ID: undefined })).code).toBe(0);
    const planned = await cli(ws, ['plan', '--format', 'json']);
    expect(planned.code).toBe(0);
    expect(JSON.parse(planned.out)).toMatchObject({ stack: 'synth-first', summary: { add: 1 } });
    expect(runs(ws)).toBe(1);
  });

  it('fresh output: the app is not run; a changed app file: plan refuses until dqform synth runs, then shows the change', async () => {
    const ws = appWorkspace({ 'synth-fresh': { dq_sql_test: { t: sqlTest('T') } } });
    expect((await cli(ws, ['synth'])).code).toBe(0);
    expect(runs(ws)).toBe(1);
    const [plan, drift, validate] = await Promise.all([cli(ws, ['plan']), cli(ws, ['drift']), cli(ws, ['validate'])]);
    expect(plan.out).toMatch(/Plan: 1 to add/);
    expect(drift.code).toBe(2);
    expect(validate.code).toBe(0);
    for (const r of [plan, drift, validate]) expect(r.err).not.toMatch(/synth first/);
    expect(runs(ws)).toBe(1);

    // The code changes (two tests now) and app.js is newer than cdktf.out.
    fs.writeFileSync(ws.path('stacks.json'), JSON.stringify({ 'synth-fresh': { dq_sql_test: { t: sqlTest('T'), u: sqlTest('U') } } }));
    touchFuture(ws.path('app.js'));
    const stale = await cli(ws, ['plan']);
    expect(stale.code).toBe(1);
    expect(stale.err).toMatch(refusal('app\\.js is newer than cdktf\\.out'));
    expect(stale.out).toBe('');
    expect(runs(ws)).toBe(1);
    // synth writes now, but app.js is a minute in the future: make it older than the output
    expect((await cli(ws, ['synth'])).code).toBe(0);
    fs.utimesSync(ws.path('app.js'), new Date(), new Date(Date.now() - 60_000));
    const again = await cli(ws, ['plan']);
    expect(again.out).toMatch(/Plan: 2 to add/);
    expect(runs(ws)).toBe(2);
  });

  it('apply (with or without a plan file), drift, destroy and validate refuse a stale output too, --no-synth or not; after dqform synth a saved plan of the same code applies', async () => {
    const ws = appWorkspace({ 'synth-apply': { dq_sql_test: { t: sqlTest('T') } } });
    expect((await cli(ws, ['synth'])).code).toBe(0);
    expect((await cli(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    touchFuture(ws.path('app.js'));
    const refused = /app\.js is newer than cdktf\.out: run dqform synth first/;
    for (const args of [['apply', '--auto-approve'], ['apply', 'plan.json'], ['drift'], ['destroy', '--auto-approve'], ['validate'], ['plan', '--no-synth'], ['apply', '--no-synth', 'plan.json']]) {
      const r = await cli(ws, args);
      expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 1, err: expect.stringMatching(refused) });
      expect(r.out).not.toMatch(/Apply complete|Destroy complete/);
    }
    expect(runs(ws)).toBe(1);
    expect(emu.app.store.workspace('demo').collection<{ name: string }>('sqlTests').filter((t) => t.name === 'T')).toHaveLength(0);
    // synthesised again (same desired state), the output newer than the app: the saved plan applies
    expect((await cli(ws, ['synth'])).code).toBe(0);
    fs.utimesSync(ws.path('app.js'), new Date(), new Date(Date.now() - 60_000));
    const saved = await cli(ws, ['apply', 'plan.json']);
    expect(saved.out).toMatch(/Apply complete: 1 applied/);
    expect(saved.code).toBe(0);
    expect(runs(ws)).toBe(2);
  }, 90_000); // nine spawned commands: a ceiling for a loaded 2-core box

  it('what counts as the app: source files and cdktf.json/package.json/tsconfig, not node_modules, dot-directories, plan files or the output', async () => {
    const ws = appWorkspace({ 'synth-which': {} });
    expect((await cli(ws, ['synth'])).code).toBe(0);
    const noise = ['plan.json', 'plan.md', 'node_modules/dep/index.js', '.git/HEAD.js', 'cdktf.out/extra.js', 'notes.txt'];
    for (const f of noise) {
      fs.mkdirSync(path.dirname(ws.path(f)), { recursive: true });
      fs.writeFileSync(ws.path(f), '{}');
      touchFuture(ws.path(f));
    }
    const fresh = await cli(ws, ['validate']);
    expect(fresh.err).not.toMatch(/synth/);
    expect(fresh.code).toBe(0);
    for (const [i, f] of ['lib/stack.ts', 'package.json', 'tsconfig.build.json'].entries()) {
      fs.mkdirSync(path.dirname(ws.path(f)), { recursive: true });
      fs.writeFileSync(ws.path(f), '{}');
      fs.utimesSync(ws.path(f), new Date(), new Date(Date.now() + 60_000 * (i + 2)));
      const r = await cli(ws, ['validate']);
      expect(r.err).toContain(`${f} is newer than cdktf.out: run dqform synth first`);
      expect(r.code).toBe(1);
    }
    expect(runs(ws)).toBe(1);
  });

  it('cdktf.json "output" is where synth writes and plan reads', async () => {
    const ws = appWorkspace({ 'synth-output': { dq_sql_test: { t: sqlTest('T') } } }, { app: 'node app.js', output: 'build/out' });
    const r = await cli(ws, ['plan']);
    expect(r.err).toMatch(refusal('there is no synth output in build/out'));
    expect((await cli(ws, ['synth'])).code).toBe(0);
    expect(fs.existsSync(ws.path('build', 'out', 'stacks', 'synth-output', 'cdk.tf.json'))).toBe(true);
    expect((await cli(ws, ['plan'])).out).toMatch(/Plan: 1 to add/);
  });
});

describe('when synth cannot run', () => {
  it('cdktf.json names no "app": a stale output is used with a warning (there is nothing dqform could run)', async () => {
    const ws = appWorkspace({ 'synth-noapp': { dq_sql_test: { t: sqlTest('T') } } });
    expect((await cli(ws, ['synth'])).code).toBe(0);
    fs.writeFileSync(ws.path('cdktf.json'), JSON.stringify({}));
    touchFuture(ws.path('cdktf.json'));
    const r = await cli(ws, ['plan']);
    expect(r.code).toBe(0);
    expect(r.err).toMatch(/Warning: cdktf\.json is newer than cdktf\.out, and cdktf\.json names no "app" to run: using the synth output as it is/);
    expect(r.out).toMatch(/Plan: 1 to add/);
  });

  it('an app that fails: synth exits 1 with the app error', async () => {
    const ws = appWorkspace({ 'synth-fails': { dq_sql_test: { t: sqlTest('T') } } });
    fs.writeFileSync(ws.path('fail.txt'), 'main.ts(3,7): error TS2304: Cannot find name "Alrt".');
    const r = await cli(ws, ['synth']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Error: the app failed \(node app\.js\), exit 3:\n {2}main\.ts\(3,7\): error TS2304/);
  });
});

it("the CI example's flow: plan in one checkout, apply the plan file in a fresh checkout of the same commit (synth there first); a checkout whose code differs is refused", async () => {
  const stacks = { 'synth-ci': { dq_sql_test: { t: sqlTest('T') } } };
  const planJob = appWorkspace(stacks);
  expect((await cli(planJob, ['synth'])).code).toBe(0);
  expect((await cli(planJob, ['plan', '--stack', 'synth-ci', '--out', 'plan-synth-ci.json'])).code).toBe(0);
  const plan = fs.readFileSync(planJob.path('plan-synth-ci.json'), 'utf8');
  // the apply job: a fresh checkout (no cdktf.out), the plan artifact downloaded into it
  const applyJob = appWorkspace(stacks);
  fs.writeFileSync(applyJob.path('plan-synth-ci.json'), plan);
  expect((await cli(applyJob, ['synth'])).code).toBe(0);
  const applied = await cli(applyJob, ['apply', 'plan-synth-ci.json', '--stack', 'synth-ci', '--max-deletes', '10']);
  expect(applied.out).toMatch(/Apply complete: 1 applied, 0 failed/);
  expect(applied.code).toBe(0);
  // a merge commit whose code differs from what was reviewed (another PR changed the stack)
  const moved = appWorkspace({ 'synth-ci': { dq_sql_test: { t: sqlTest('T'), u: sqlTest('U') } } });
  fs.writeFileSync(moved.path('plan-synth-ci.json'), plan);
  expect((await cli(moved, ['synth'])).code).toBe(0);
  const refused = await cli(moved, ['apply', 'plan-synth-ci.json', '--stack', 'synth-ci']);
  expect(refused.code).toBe(1);
  expect(refused.err).toMatch(/the code changed since the plan; apply refuses it and wrote nothing/);
}, 90_000); // three synths and four other spawned commands: a ceiling (over 30 s in npm test at load 28 on 2 cores)

it('synth withholds every client secret from the app, warns that it is set, and refuses in CI unless --allow-secret-env (issue 23)', async () => {
  const ws = appWorkspace({ 'synth-env': {} });
  const warned = /Warning: DQ_CLIENT_SECRET, STAGING_CLIENT_SECRET are set, and synth runs the app, which can read them from this environment or its parent's\. dqform synth needs no credentials/;
  const r = await cli(ws, ['synth'], { STAGING_CLIENT_SECRET: 'staging-S3cret-7a' });
  expect(r.code).toBe(0);
  expect(r.err).toMatch(warned);
  expect(JSON.parse(fs.readFileSync(ws.path('env.json'), 'utf8'))).toEqual({ id: false, secret: false, base: true });
  expect(runs(ws)).toBe(1);
  // CI: refused before the app runs
  const ci = await cli(ws, ['synth'], { CI: 'true' });
  expect(ci.code).toBe(1);
  expect(ci.err).toMatch(/Error: DQ_CLIENT_SECRET is set, and synth runs the app, which can read it from this environment or its parent's: refused in CI\.\n {2}Run dqform synth in a step without credentials/);
  expect(runs(ws)).toBe(1);
  const allowed = await cli(ws, ['synth', '--allow-secret-env'], { CI: 'true' });
  expect(allowed.code).toBe(0);
  expect(allowed.err).toMatch(/Warning: DQ_CLIENT_SECRET is set/);
  expect(runs(ws)).toBe(2);
  // no credential: no word about it, CI or not
  const clean = await cli(ws, ['synth'], { CI: 'true', DQ_CLIENT_SECRET: undefined, DQ_CLIENT_ID: undefined });
  expect(clean.code).toBe(0);
  expect(clean.err).toBe('');
  expect(runs(ws)).toBe(3);
  for (const x of [r, ci, allowed]) expect(x.out + x.err).not.toMatch(/staging-S3cret-7a|synth-S3cret/);
});

it("synth in CI with a stack's named secret set (DQ_STAGING_CLIENT_SECRET, no DQ_CLIENT_SECRET): refused on a fresh checkout before the app runs; a secret variable not named *_CLIENT_SECRET fails synth and plan", async () => {
  const ws = appWorkspace({ 'synth-named': {} });
  // the app's stack takes its credentials from the variables named in creds.json
  fs.writeFileSync(ws.path('app.js'), APP.replace("provider: { dq: [{ namespace: ns }] }", "provider: { dq: [{ namespace: ns, credentials_from: JSON.parse(fs.readFileSync('creds.json', 'utf8')) }] }"));
  fs.writeFileSync(ws.path('creds.json'), JSON.stringify({ client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' }));
  const job = { CI: 'true', DQ_CLIENT_ID: undefined, DQ_CLIENT_SECRET: undefined, DQ_STAGING_CLIENT_ID: 'stg-id', DQ_STAGING_CLIENT_SECRET: 'stg-S3cret-named-41' };
  expect(fs.existsSync(ws.path('cdktf.out'))).toBe(false); // a fresh checkout: no earlier output names the variable
  const ci = await cli(ws, ['synth'], job);
  expect(ci.code).toBe(1);
  expect(ci.err).toMatch(/Error: DQ_STAGING_CLIENT_SECRET is set, and synth runs the app, which can read it from this environment or its parent's: refused in CI\./);
  expect(runs(ws)).toBe(0);
  // without credentials the same app synthesises
  const clean = await cli(ws, ['synth'], { ...job, DQ_STAGING_CLIENT_ID: undefined, DQ_STAGING_CLIENT_SECRET: undefined });
  expect(clean.err).toBe('');
  expect(clean.code).toBe(0);

  // a secret variable dqform cannot know by its name: synth fails (it would not be withheld, refused or masked), and so does plan
  fs.writeFileSync(ws.path('creds.json'), JSON.stringify({ client_id: 'STAGING_ID', client_secret: 'STAGING_SECRET' }));
  const misnamed = await cli(ws, ['synth'], { ...job, DQ_STAGING_CLIENT_ID: undefined, DQ_STAGING_CLIENT_SECRET: undefined });
  expect(misnamed.code).toBe(1);
  expect(misnamed.err).toContain('Error: stack(s) synth-named: credentialsFrom.clientSecret must name a variable ending in _CLIENT_SECRET, e.g. DQ_PROD_CLIENT_SECRET');
  const plan = await cli(ws, ['plan'], { STAGING_ID: 'stg-id', STAGING_SECRET: 'stg-S3cret-named-41' });
  expect(plan.code).toBe(1);
  expect(plan.err).toMatch(/credentialsFrom\.clientSecret: must name a variable ending in _CLIENT_SECRET/);
  for (const x of [ci, clean, misnamed, plan]) expect(x.out + x.err).not.toContain('stg-S3cret-named-41');
});

it('what the app prints is relayed with DQ_CLIENT_SECRET and DQ_CLIENT_ID masked, on success and on failure (the app found them elsewhere: a .env file)', async () => {
  const ws = appWorkspace({ 'synth-echo': {} });
  // the app echoes a file that holds the credentials, to stdout; and to stderr when it fails
  fs.writeFileSync(ws.path('.env'), `DQ_CLIENT_ID=synth-writer\nDQ_CLIENT_SECRET=${SECRET}\n`);
  fs.writeFileSync(ws.path('app.js'), `${APP}\nconsole.log(require('fs').readFileSync('.env', 'utf8'));\n`);
  const ok = await cli(ws, ['synth']);
  expect(ok.code).toBe(0);
  expect(ok.out).toMatch(/DQ_CLIENT_SECRET=\[REDACTED\]/);
  expect(ok.out).toMatch(/DQ_CLIENT_ID=\[REDACTED\]/);
  fs.writeFileSync(ws.path('fail.txt'), `boom: ${SECRET} and synth-writer`);
  const failed = await cli(ws, ['synth']);
  expect(failed.code).toBe(1);
  expect(failed.err).toMatch(/boom: \[REDACTED\] and \[REDACTED\]/);
  for (const r of [ok, failed]) {
    expect(r.out + r.err).not.toContain(SECRET);
    expect(r.out + r.err).not.toContain('synth-writer');
  }
});

describe('construct validation errors', () => {
  // A real CDKTF app with two invalid constructs, run by tsx as `npx tsx main.ts` would.
  const MAIN = `
import { App } from '${path.join(ROOT, 'node_modules', 'cdktf').replace(/\\/g, '/')}';
import { Alert, DqStack, Query, SqlTest, Target } from '${path.join(ROOT, 'constructs').replace(/\\/g, '/')}';
const app = new App();
const stack = new DqStack(app, 'shop', { namespace: 'shop' });
new Alert(stack, 'orders', { name: '', issueLifecycle: { trigger: Query.withType('table'), targets: [Target.slack('#dq')], settings: { severities: ['ALERT_SEVERITY_ERROR'] } } });
new SqlTest(stack, 'nulls', { name: 'Nulls', platform: { warehouseAccount: { account: 'a', database: 'd' } }, recurrenceRule: 'FREQ=SOMETIMES', sqlExpression: 'select 1' });
app.synth();
`;

  it('dqform synth names the construct path and field, with no stack trace and no skipValidation advice', async () => {
    const ws = new Workspace();
    workspaces.push(ws);
    fs.writeFileSync(ws.path('main.ts'), MAIN);
    fs.writeFileSync(ws.path('cdktf.json'), JSON.stringify({ app: `${JSON.stringify(process.execPath)} ${JSON.stringify(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'))} main.ts` }));
    const synth = await cli(ws, ['synth']);
    // nothing was synthesised, and plan does not run the app: it says so
    const plan = await cli(ws, ['plan']);
    expect(plan.code).toBe(1);
    expect(plan.err).toMatch(/there is no synth output in cdktf\.out: run dqform synth first/);
    for (const r of [synth]) {
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/Error: the app's constructs are invalid: 2 error\(s\); nothing was synthesised\./);
      expect(r.err).toMatch(/^ {2}shop\/orders: name: .*\n {4}Fix: give name at least 1 character/m);
      expect(r.err).toMatch(/^ {2}shop\/nulls: recurrenceRule: .*FREQ=SOMETIMES/m);
      expect(r.err).not.toMatch(STACK_FRAME);
      expect(r.err).not.toMatch(/skipValidation/);
      expect(r.err).not.toMatch(/node_modules/);
    }
  }, 60_000);

  it.each([
    [
      'cdktf validation block',
      "Error: Validation failed with the following errors:\n  [s] s/a: name: Too small. Fix: give name at least 1 character(s)\n  [s] s/b: x: bad\n\nIf you wish to ignore these validations, pass 'skipValidation: true' to your App configuration.\n\n    at stackValidationFailure (/x/node_modules/cdktf/lib/errors.ts:216:3)",
      ["Error: the app's constructs are invalid: 2 error(s); nothing was synthesised.", '  s/a: name: Too small', '    Fix: give name at least 1 character(s)', '  s/b: x: bad', '  Correct the constructs named above and run dqform synth again.'],
    ],
    [
      "the app's own error keeps the user's frames only",
      'TypeError: boom\n    at main (/app/main.ts:3:1)\n    at Module._compile (node:internal/modules/cjs/loader:1521:14)\n    at x (/app/node_modules/tsx/dist/a.cjs:1:1)\n\nNode.js v20.20.2',
      ['Error: the app failed (app), exit 1:', '  TypeError: boom', '      at main (/app/main.ts:3:1)'],
    ],
  ])('synthFailureLines: %s', (_why, stderr, expected) => {
    expect(synthFailureLines('app', 1, stderr)).toEqual(expected);
  });
});
