/**
 * Terraform's verbs and mode flags, spawned as a user would (a child `dqform` against an
 * emulator started here on port 0): `destroy`, `plan --destroy`, `--target`, `--replace`,
 * `--refresh-only`, `--show-unmanaged`, and saved plans made with them. Each test checks what
 * the platform holds afterwards, not only what dqform printed.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { startEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { SCOPES } from '../../schemas/platform/common';
import { alert, dqform, dqformCommandLine, sqlTest, STACK_FRAME, withPty, Workspace, Workspaces, type Run, type RunOptions } from './helpers';

const SECRET = 'cli-modes-S3cret-51b2e0aa';
const WRITER = 'cli-modes-writer';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let raw: PlatformClient;
const runs: Run[] = [];
const workspaces = new Workspaces();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential(WRITER, SECRET, SCOPES);
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
const env = () => ({ DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: WRITER, DQ_CLIENT_SECRET: SECRET });
async function run(ws: Workspace, args: string[], opts: RunOptions = {}): Promise<Run> {
  const r = await dqform(args, { cwd: ws.dir, timeoutMs: 60_000, ...opts, env: { ...env(), ...opts.env } });
  runs.push(r);
  return r;
}
function expectDiagnostic(r: Run, message: RegExp): void {
  expect(r.err).toMatch(message);
  expect(r.code).toBe(1);
  expect(`${r.out}\n${r.err}`).not.toMatch(STACK_FRAME);
  expect(r.err).not.toMatch(/Internal error/);
}
/** The names of the live alerts with these fqns (absent ones left out). */
async function alertNames(...fqns: string[]): Promise<Record<string, string>> {
  const live = await raw.alerts.batchGet(fqns.map((fqn) => ({ fqn })));
  return Object.fromEntries(Object.values(live).map((a) => [a.fqn, a.name ?? '']));
}
const json = (ws: Workspace, f: string) => JSON.parse(fs.readFileSync(ws.path(f), 'utf8')) as { options: Record<string, unknown>; changes: { address: string; action: string }[]; drift: { address: string; difference: string; remedy: string }[] };

// Each test spawns several dqform processes against an emulator: 90 s is a ceiling, not a speed
// test (the first one took 12 s alone and over 30 s in npm test at load 30 on 2 cores).
jest.setTimeout(90_000);

describe('dqform destroy', () => {
  it('refuses without a terminal or --auto-approve, keeps the guards, and deletes only what the namespace owns', async () => {
    const ws = workspace();
    const ns = 'cli-destroy';
    ws.stack(ns, { dq_alert: { a: alert('A'), b: alert('B') }, dq_sql_test: { t: sqlTest('T') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    // an alert made in the UI with a fqn under the namespace's name, and one of another namespace's style: never deleted
    await raw.alerts.upsert({ name: 'Made in the UI', fqn: `${ns}.ui`, incidentLifecycle: { targets: [{ slack: { channel: '#ui' } }], settings: { states: ['STATE_CLOSED'] } } });

    const noTty = await run(ws, ['destroy'], { input: 'yes\n' });
    expectDiagnostic(noTty, /destroy needs confirmation, and there is no terminal to ask on\.\n {2}Review a saved destroy plan \(dqform plan --destroy --out destroy\.json; dqform apply --destroy destroy\.json\)/);

    const guarded = await run(ws, ['destroy', '--auto-approve', '--max-deletes', '2']);
    expectDiagnostic(guarded, /the plan destroys 3 object\(s\), more than --max-deletes 2/);
    expect(guarded.out).toMatch(/^dqform destroy plan for namespace "cli-destroy"/);
    expect(Object.keys(await alertNames(`${ns}.a`, `${ns}.b`))).toHaveLength(2);

    const done = await run(ws, ['destroy', '--auto-approve']);
    expect(done.out).toMatch(/# dq_alert\.a \(alert "A"\) will be destroyed/);
    expect(done.out).toMatch(/Plan: 0 to add, 0 to change, 3 to destroy\./);
    expect(done.out).toMatch(/Destroy complete: 3 applied, 0 failed, 0 not attempted/);
    expect(done.code).toBe(0);
    expect(await alertNames(`${ns}.a`, `${ns}.b`, `${ns}.ui`)).toEqual({ [`${ns}.ui`]: 'Made in the UI' });

    const again = await run(ws, ['destroy', '--auto-approve']);
    expect(again.out).toMatch(/No changes\. Namespace "cli-destroy" owns nothing to destroy\./);
    expect(again.code).toBe(0);
    // the code is unchanged: a plan recreates everything
    expect((await run(ws, ['plan'])).out).toMatch(/Plan: 3 to add, 0 to change, 0 to destroy\./);
  });

  it('lifecycle.preventDestroy makes destroy an error and nothing is deleted; --target destroys the rest', async () => {
    const ws = workspace();
    const ns = 'cli-destroy-kept';
    ws.stack(ns, { dq_alert: { kept: { ...alert('Kept'), lifecycle: { prevent_destroy: true } }, other: alert('Other') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const refused = await run(ws, ['destroy', '--auto-approve']);
    expectDiagnostic(refused, /dq_alert\.kept: lifecycle\.preventDestroy forbids destroying this object/);
    expect(Object.keys(await alertNames(`${ns}.kept`, `${ns}.other`))).toHaveLength(2);
    const targeted = await run(ws, ['destroy', '--auto-approve', '--target', 'dq_alert.other']);
    expect(targeted.out).toMatch(/Targeted \(partial plan\): dq_alert\.other, with what depends on it/);
    expect(targeted.code).toBe(0);
    expect(Object.keys(await alertNames(`${ns}.kept`, `${ns}.other`))).toEqual([`${ns}.kept`]);
  });

  const pty = withPty('true');
  (pty ? it : it.skip)('on a terminal destroy asks; only "yes" destroys', async () => {
    const ws = workspace();
    const ns = 'cli-destroy-tty';
    ws.stack(ns, { dq_alert: { a: alert('A') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const e = { ...env(), NO_COLOR: '1' };
    const no = await withPty(dqformCommandLine(['destroy']), { cwd: ws.dir, env: e, input: 'y\n', timeoutMs: 60_000 })!;
    runs.push(no);
    expect(no.out).toMatch(/Destroy the 1 object\(s\) above\? There is no undo\. Only "yes" is accepted/);
    expect(no.out).toMatch(/Destroy cancelled/);
    expect(no.code).toBe(1);
    expect(Object.keys(await alertNames(`${ns}.a`))).toHaveLength(1);
    const yes = await withPty(dqformCommandLine(['destroy']), { cwd: ws.dir, env: e, input: 'yes\n', timeoutMs: 60_000 })!;
    runs.push(yes);
    expect(yes.out).toMatch(/Destroy complete: 1 applied/);
    expect(await alertNames(`${ns}.a`)).toEqual({});
  });

  it('plan --destroy saves a destroy plan; show says what it is; apply of it destroys', async () => {
    const ws = workspace();
    const ns = 'cli-plan-destroy';
    ws.stack(ns, { dq_alert: { a: alert('A') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const p = await run(ws, ['plan', '-destroy', '-out=destroy.json', '-detailed-exitcode']);
    expect(p.out).toMatch(/^dqform destroy plan for namespace "cli-plan-destroy"/);
    expect(p.code).toBe(2);
    expect(json(ws, 'destroy.json').options).toEqual({ destroy: true, refreshOnly: false, targets: [], replace: [] });
    const shown = await run(ws, ['show', 'destroy.json', '--format', 'markdown']);
    expect(shown.out).toMatch(/^### dqform destroy plan: `cli-plan-destroy`/);
    // The file records its mode, but apply must be told it too: a reviewed normal plan file
    // swapped for (or edited into) a destroy plan is refused, and nothing is deleted.
    const unstated = await run(ws, ['apply', 'destroy.json']);
    expectDiagnostic(unstated, /destroy\.json was made with destroy, and this apply states no mode flags \(a normal plan\) \(--destroy missing\)[^]*run dqform apply --destroy destroy\.json/);
    expect(Object.keys(await alertNames(`${ns}.a`))).toEqual([`${ns}.a`]);
    const applied = await run(ws, ['apply', '--destroy', 'destroy.json']);
    expect(applied.out).toMatch(/Destroy complete: 1 applied/);
    expect(await alertNames(`${ns}.a`)).toEqual({});
  });
});

describe('--target', () => {
  it('plans and applies only the target and what it depends on, says so, and a saved targeted plan applies only it', async () => {
    const ws = workspace();
    const ns = 'cli-target';
    ws.stack(ns, { dq_alert: { a: alert('A'), b: alert('B'), c: alert('C') } });
    const p = await run(ws, ['plan', '--target', 'dq_alert.a', '--out', 'a.json']);
    expect(p.out).toMatch(/^Targeted \(partial plan\): dq_alert\.a, with what it depends on$/m);
    expect(p.out).toMatch(/^Warning: resource targeting is in effect/m);
    expect(p.out).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy\./);
    expect(json(ws, 'a.json').options.targets).toEqual(['dq_alert.a']);
    expect(json(ws, 'a.json').changes.map((c) => c.address)).toEqual(['dq_alert.a']);

    expectDiagnostic(await run(ws, ['apply', 'a.json']), /a\.json was made with --target dq_alert\.a, and this apply states no mode flags \(a normal plan\) \(--target dq_alert\.a missing\)/);
    expectDiagnostic(await run(ws, ['apply', '--target', 'dq_alert.a', '--replace', 'dq_alert.a', 'a.json']), /--replace dq_alert\.a not in the plan/);
    expect(Object.keys(await alertNames(`${ns}.a`, `${ns}.b`, `${ns}.c`))).toEqual([]);
    const fromFile = await run(ws, ['apply', '-target=dq_alert.a', 'a.json']);
    expect(fromFile.out).toMatch(/Apply complete: 1 applied/);
    expect(fromFile.err).toMatch(/Warning: applied changes may be incomplete: this plan was targeted \(dq_alert\.a\)/);
    expect(Object.keys(await alertNames(`${ns}.a`, `${ns}.b`, `${ns}.c`))).toEqual([`${ns}.a`]);

    // Terraform's single-dash spelling, repeated
    const direct = await run(ws, ['apply', '--auto-approve', '-target=dq_alert.b', '-target', 'dq_alert.b']);
    expect(direct.out).toMatch(/Apply complete: 1 applied/);
    expect(Object.keys(await alertNames(`${ns}.a`, `${ns}.b`, `${ns}.c`)).sort()).toEqual([`${ns}.a`, `${ns}.b`]);
    expect((await run(ws, ['plan'])).out).toMatch(/# dq_alert\.c \(alert "C"\) will be created\n[^]*Plan: 1 to add, 0 to change, 0 to destroy\./);
  });

  it.each<[string, string[], RegExp]>([
    ['an address nobody has, with a "did you mean"', ['plan', '--target', 'dq_alert.aa'], /--target dq_alert\.aa: neither the code nor live state has an object at this address\n {2}Did you mean dq_alert\.a\?/],
    ['a type that is not a dqform kind', ['plan', '--target', 'dq_alrt.a'], /--target "dq_alrt\.a": dq_alrt is not a dqform resource type; did you mean dq_alert\?/],
    ['not an address', ['plan', '--target', 'orders'], /--target "orders" is not a resource address: write TYPE\.NAME/],
    ['a value missing', ['plan', '--target'], /--target needs a value/],
    ['--refresh-only with --destroy', ['plan', '--refresh-only', '--destroy'], /--refresh-only cannot be used with --destroy/],
    ['--replace with --refresh-only', ['apply', '--refresh-only', '--replace', 'dq_alert.a'], /cannot be used with/],
  ])('refuses %s (exit 1, nothing written)', async (_why, args, message) => {
    const ws = workspace();
    ws.stack('cli-target-bad', { dq_alert: { a: alert('A') } });
    const r = await run(ws, args);
    expectDiagnostic(r, message);
    expect(await alertNames('cli-target-bad.a')).toEqual({});
  });
});

describe('--replace', () => {
  it('destroys and recreates an unchanged object (a new platform id), on plan and apply', async () => {
    const ws = workspace();
    const ns = 'cli-replace';
    ws.stack(ns, { dq_alert: { a: alert('A') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    const before = Object.values(await raw.alerts.batchGet([{ fqn: `${ns}.a` }]))[0].id;
    const p = await run(ws, ['plan', '--replace', 'dq_alert.a', '--detailed-exitcode']);
    expect(p.out).toMatch(/# dq_alert\.a \(alert "A"\) must be replaced\n {2}# {3}\(replacement requested with --replace\)/);
    expect(p.out).toMatch(/Plan: 1 to add, 0 to change, 1 to destroy\./);
    expect(p.code).toBe(2);
    const a = await run(ws, ['apply', '--auto-approve', '-replace=dq_alert.a']);
    expect(a.out).toMatch(/Apply complete: 1 applied/);
    const after = Object.values(await raw.alerts.batchGet([{ fqn: `${ns}.a` }]))[0];
    expect(after.name).toBe('A');
    expect(after.id).not.toBe(before);
    expect((await run(ws, ['plan', '--detailed-exitcode'])).code).toBe(0);
  });

  it('an address the code does not declare is an error', async () => {
    const ws = workspace();
    ws.stack('cli-replace-bad', { dq_alert: { a: alert('A') } });
    expectDiagnostic(await run(ws, ['plan', '--replace', 'dq_alert.b']), /--replace dq_alert\.b: neither the code nor live state has an object at this address/);
  });
});

describe('--refresh-only', () => {
  it('shows live changes made outside dqform, proposes nothing, and apply writes nothing (saved or not)', async () => {
    const ws = workspace();
    const ns = 'cli-refresh';
    ws.stack(ns, { dq_alert: { a: alert('A'), b: alert('B') } });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    await raw.alerts.rename({ fqn: `${ns}.a` }, 'renamed in the UI');

    const p = await run(ws, ['plan', '--refresh-only', '--out', 'refresh.json']);
    expect(p.out).toMatch(/^dqform refresh-only plan for namespace "cli-refresh"/);
    expect(p.out).toMatch(/# dq_alert\.a \(alert "A"\) has changed outside dqform\n[^]*~ name: code "A", live "renamed in the UI"/);
    expect(p.out).toMatch(/Refresh-only: 1 object\(s\) differ from the code \(1 changed outside dqform\)\. Nothing to apply\./);
    expect(p.code).toBe(0);
    expect(json(ws, 'refresh.json').drift.map((c) => [c.address, c.difference, c.remedy])).toEqual([['dq_alert.a', 'changed', 'update']]);
    expect(json(ws, 'refresh.json').changes.every((c) => c.action === 'noop' || c.action === 'unmanaged')).toBe(true);
    expect((await run(ws, ['plan', '-refresh-only', '-detailed-exitcode'])).code).toBe(2);

    // no terminal and no --auto-approve: fine, nothing is written
    const applied = await run(ws, ['apply', '--refresh-only']);
    expect(applied.out).toMatch(/Nothing to apply: this is a refresh-only plan/);
    expect(applied.code).toBe(0);
    const saved = await run(ws, ['apply', 'refresh.json']);
    expect(saved.out).toMatch(/Nothing to apply: this is a refresh-only plan/);
    expect(saved.code).toBe(0);
    expect(await alertNames(`${ns}.a`)).toEqual({ [`${ns}.a`]: 'renamed in the UI' });
  });
});

describe('--show-unmanaged and saved plans of other formats', () => {
  it('counts the objects not managed here by who manages them; --show-unmanaged lists them, in plan, show, apply and destroy', async () => {
    const ws = workspace();
    ws.stack('cli-unmanaged', { dq_alert: { a: alert('A') } });
    for (const i of [1, 2, 3]) await raw.alerts.upsert({ name: `UI ${i}`, fqn: `cli-unmanaged-ui.x${i}`, incidentLifecycle: { targets: [{ slack: { channel: '#ui' } }], settings: { states: ['STATE_CLOSED'] } } });
    const counted = await run(ws, ['plan', '--out', 'p.json']);
    expect(counted.out).toMatch(/^Not managed here \(\d+, never changed by this stack\): (\d+ [^,]+, )*\d+ not managed by dqform.*; --show-unmanaged lists them\.$/m);
    expect(counted.out).not.toMatch(/^ {2}\? /m);
    const listed = await run(ws, ['plan', '--show-unmanaged']);
    for (const i of [1, 2, 3]) expect(listed.out).toMatch(new RegExp(`^ {2}\\? dq_alert\\["cli-unmanaged-ui\\.x${i}"\\] \\(alert "UI ${i}"\\): not managed by dqform$`, 'm'));
    const shown = await run(ws, ['show', 'p.json', '--show-unmanaged']);
    expect(shown.out).toMatch(/^ {2}\? dq_alert\["cli-unmanaged-ui\.x1"\] \(alert "UI 1"\): not managed by dqform$/m);
    // apply and destroy print the same list before they write (and never touch what it lists)
    const applied = await run(ws, ['apply', '--auto-approve', '--show-unmanaged']);
    expect(applied.out).toMatch(/^ {2}\? dq_alert\["cli-unmanaged-ui\.x2"\] \(alert "UI 2"\): not managed by dqform$/m);
    expect(applied.out).toMatch(/Apply complete: 1 applied/);
    const destroyed = await run(ws, ['destroy', '--auto-approve', '--show-unmanaged']);
    expect(destroyed.out).toMatch(/^ {2}\? dq_alert\["cli-unmanaged-ui\.x3"\] \(alert "UI 3"\): not managed by dqform$/m);
    expect(destroyed.out).toMatch(/Destroy complete: 1 applied/);
    expect(await alertNames('cli-unmanaged.a', 'cli-unmanaged-ui.x1', 'cli-unmanaged-ui.x2', 'cli-unmanaged-ui.x3')).toEqual({ 'cli-unmanaged-ui.x1': 'UI 1', 'cli-unmanaged-ui.x2': 'UI 2', 'cli-unmanaged-ui.x3': 'UI 3' });
  });

  it.each<[string, number, RegExp]>([
    ['a plan of a newer format', 2, /this plan was written by a newer dqform \(plan format 2\); this dqform reads format 1\n {2}Use the dqform version that made the plan/],
    ['a plan of an older format', 0, /this plan was written by an older dqform \(plan format 0\); this dqform reads format 1\n {2}Plan again with this dqform version/],
  ])('show and apply refuse %s with a clear message', async (_why, version, message) => {
    const ws = workspace();
    fs.writeFileSync(ws.path('plan.json'), JSON.stringify({ formatVersion: version, changes: [] }));
    expectDiagnostic(await run(ws, ['show', 'plan.json']), message);
    expectDiagnostic(await run(ws, ['apply', 'plan.json']), message);
  });
});

it('no run printed the client secret', () => {
  expect(runs.length).toBeGreaterThan(20);
  for (const r of runs) expect(`${r.out}\n${r.err}`).not.toContain(SECRET);
});
