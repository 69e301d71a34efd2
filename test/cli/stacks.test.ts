/**
 * `dqform show PLANFILE`, `--all-stacks` on validate, plan and drift, and colour, spawned as a
 * user would against an emulator started here on port 0.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { alert, ANSI, dqform, sqlTest, STACK_FRAME, Workspace, Workspaces, type Run, type RunOptions } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'stacks-S3cret-9e21';
const workspaces = new Workspaces();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('stacks-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  workspaces.removeAll();
});

function workspace(): Workspace {
  return workspaces.make();
}

function run(ws: Workspace, args: string[], opts: RunOptions = {}): Promise<Run> {
  return dqform(args, { cwd: ws.dir, ...opts, env: { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'stacks-writer', DQ_CLIENT_SECRET: SECRET, ...opts.env } });
}

/** No credentials and an address nothing listens on: a command that needs the network fails. */
const OFFLINE = { DQ_BASE_URL: 'http://127.0.0.1:9', DQ_CLIENT_ID: undefined, DQ_CLIENT_SECRET: undefined };

describe('dqform show PLANFILE', () => {
  let ws: Workspace;
  let planned: { text: Run; markdown: Run; json: string };
  beforeAll(async () => {
    ws = workspace();
    ws.stack('show-ns', { dq_alert: { a: alert('A') }, dq_sql_test: { t: sqlTest('T') } });
    const [text, markdown] = await Promise.all([run(ws, ['plan', '--out', 'plan.json']), run(ws, ['plan', '--format', 'markdown'])]);
    planned = { text, markdown, json: fs.readFileSync(ws.path('plan.json'), 'utf8') };
  });

  it('renders the saved plan as text, markdown or JSON exactly as plan printed it, with no network and no credentials', async () => {
    const [text, markdown, json, jsonFlag] = await Promise.all([
      dqform(['show', 'plan.json'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show', 'plan.json', '--format', 'markdown'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show', 'plan.json', '--format=json'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show', '-json', 'plan.json'], { cwd: ws.dir, env: OFFLINE }),
    ]);
    for (const r of [text, markdown, json, jsonFlag]) {
      expect(r.code).toBe(0);
      expect(r.err).toBe('');
    }
    expect(text.out).toMatch(/Plan: 2 to add/);
    expect(text.out).toBe(planned.text.out);
    expect(markdown.out).toBe(planned.markdown.out);
    expect(`${json.out}`).toBe(planned.json);
    expect(jsonFlag.out).toBe(json.out);
  });

  it('refuses a missing file, a file that is not a plan, a hand-edited plan and a missing PLANFILE (exit 1, a diagnostic)', async () => {
    fs.writeFileSync(ws.path('foreign.json'), '{"hello":"world"}');
    const edited = JSON.parse(planned.json) as { changes: { action: string }[] };
    edited.changes[0].action = 'obliterate';
    fs.writeFileSync(ws.path('edited.json'), JSON.stringify(edited));
    const [missing, foreign, bad, none] = await Promise.all([
      dqform(['show', 'missing.json'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show', 'foreign.json'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show', 'edited.json'], { cwd: ws.dir, env: OFFLINE }),
      dqform(['show'], { cwd: ws.dir, env: OFFLINE }),
    ]);
    expect(missing.err).toMatch(/cannot read plan file missing\.json/);
    expect(foreign.err).toMatch(/not a dqform plan/);
    expect(bad.err).toMatch(/not a dqform plan/);
    expect(none.err).toMatch(/dqform show needs PLANFILE/);
    for (const r of [missing, foreign, bad, none]) {
      expect(r.code).toBe(1);
      expect(r.err).not.toMatch(STACK_FRAME);
    }
  });

  it('a plan whose errors make apply refuse it: shown, with the errors on stderr, exit 1', async () => {
    const p = JSON.parse(planned.json) as { diagnostics: unknown[] };
    p.diagnostics = [{ severity: 'error', summary: 'ResolverQL: at offset 3: expected "("', address: 'dq_alert.a' }];
    fs.writeFileSync(ws.path('errors.json'), JSON.stringify(p));
    const r = await dqform(['show', 'errors.json'], { cwd: ws.dir, env: OFFLINE });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Error: dq_alert\.a: ResolverQL/);
    expect(r.err).toMatch(/apply refuses it/);
  });

  it('colour: FORCE_COLOR colours without a terminal; NO_COLOR and --no-color win over it; FORCE_COLOR=0 is off', async () => {
    const env = (extra: Record<string, string>) => ({ ...OFFLINE, ...extra });
    const [forced, plain, noColorWins, flagWins, zero] = await Promise.all([
      dqform(['show', 'plan.json'], { cwd: ws.dir, env: env({ FORCE_COLOR: '1' }) }),
      dqform(['show', 'plan.json'], { cwd: ws.dir, env: env({}) }),
      dqform(['show', 'plan.json'], { cwd: ws.dir, env: env({ FORCE_COLOR: '1', NO_COLOR: '1' }) }),
      dqform(['show', 'plan.json', '--no-color'], { cwd: ws.dir, env: env({ FORCE_COLOR: '1' }) }),
      dqform(['show', 'plan.json'], { cwd: ws.dir, env: env({ FORCE_COLOR: '0' }) }),
    ]);
    expect(forced.out).toMatch(ANSI);
    // Same text once the colour codes are removed.
    expect(forced.out.replace(/\u001b\[\d+m/g, '')).toBe(plain.out);
    for (const r of [plain, noColorWins, flagWins, zero]) {
      expect(r.out).toMatch(/Plan: 2 to add/);
      expect(r.out).not.toMatch(ANSI);
    }
  });
});

describe('--all-stacks', () => {
  /** Three stacks: one with changes, one converged (nothing declared, nothing live), one broken. */
  function threeStacks(): Workspace {
    const ws = workspace();
    ws.stack('all-changes', { dq_alert: { a: alert('A') } });
    ws.stack('all-empty', {});
    ws.stack('all-broken', { dq_alert: { bad: alert('Bad', 'with_type("table"') } });
    return ws;
  }

  it('without --stack and with several stacks, plan says what to do', async () => {
    const ws = threeStacks();
    const r = await run(ws, ['plan']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/several stacks in .*cdktf\.out: all-broken, all-changes, all-empty/);
    expect(r.err).toMatch(/--stack .*--all-stacks/);
  });

  it('validate, plan and drift run each stack in turn: one combined summary, exit 1 when any stack fails', async () => {
    const ws = threeStacks();
    const [validate, plan, drift] = await Promise.all([run(ws, ['validate', '--all-stacks']), run(ws, ['plan', '--all-stacks', '--detailed-exitcode']), run(ws, ['drift', '--all-stacks'])]);
    for (const r of [validate, plan, drift]) {
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/All stacks \(3\): 1 failed\./);
      expect(r.out).toMatch(/^ {2}all-broken {3}(\d+ error\(s\)|failed \(see the errors above\))$/m);
      expect(r.err).toMatch(/dq_alert\.bad: .*ResolverQL/);
      expect(r.err).not.toMatch(STACK_FRAME);
    }
    expect(validate.out).toMatch(/^ {2}all-changes {2}valid, 1 resource\(s\)$/m);
    expect(validate.out).toMatch(/^ {2}all-empty {4}valid, 0 resource\(s\)$/m);
    // The other stacks were planned although one failed.
    expect(plan.out).toMatch(/^ {2}all-changes {2}Plan: 1 to add, 0 to change, 0 to destroy\.$/m);
    expect(plan.out).toMatch(/^ {2}all-empty {4}No changes\.$/m);
    expect(plan.out).toMatch(/dqform plan for namespace "all-changes"/);
    expect(drift.out).toMatch(/^ {2}all-changes {2}drift: Plan: 1 to add/m);
    expect(drift.out).toMatch(/^ {2}all-empty {4}No drift\.$/m);
  });

  it('exit 2 with --detailed-exitcode (plan) or always (drift) when a stack has changes and none failed; 0 without the flag', async () => {
    const ws = workspace();
    ws.stack('two-changes', { dq_sql_test: { t: sqlTest('T') } });
    ws.stack('two-empty', {});
    const [detailed, plain, drift] = await Promise.all([run(ws, ['plan', '--all-stacks', '--detailed-exitcode']), run(ws, ['plan', '--all-stacks']), run(ws, ['drift', '-all-stacks'])]);
    expect(detailed.code).toBe(2);
    expect(plain.code).toBe(0);
    expect(drift.code).toBe(2);
    expect(plain.out).toMatch(/All stacks \(2\): none failed\./);
    // Apply one stack: every stack converged, exit 0.
    expect((await run(ws, ['apply', '--auto-approve', '--stack', 'two-changes'])).code).toBe(0);
    const [after, driftAfter] = await Promise.all([run(ws, ['plan', '--all-stacks', '--detailed-exitcode']), run(ws, ['drift', '--all-stacks'])]);
    expect(after.code).toBe(0);
    expect(driftAfter.code).toBe(0);
  });

  it('--out with {stack} saves one plan per stack; markdown keeps stdout a document and the summary on stderr; --format json prints one JSON array', async () => {
    const ws = workspace();
    ws.stack('out-a', { dq_alert: { a: alert('A') } });
    ws.stack('out-b', {});
    const [md, json, badOut] = await Promise.all([
      run(ws, ['plan', '--all-stacks', '--out', 'plan-{stack}.json', '--format', 'markdown']),
      run(ws, ['plan', '--all-stacks', '--format', 'json']),
      run(ws, ['plan', '--all-stacks', '--out', 'plan.json']),
    ]);
    expect(md.code).toBe(0);
    expect(md.out).toMatch(/^### dqform plan: `out-a`/m);
    expect(md.out).toMatch(/^### dqform plan: `out-b`/m);
    expect(md.out).not.toMatch(/All stacks/);
    expect(md.err).toMatch(/All stacks \(2\): none failed\./);
    for (const s of ['out-a', 'out-b']) expect(JSON.parse(fs.readFileSync(ws.path(`plan-${s}.json`), 'utf8'))).toMatchObject({ stack: s, formatVersion: 1 });
    const plans = JSON.parse(json.out) as { stack: string }[];
    expect(plans.map((p) => p.stack)).toEqual(['out-a', 'out-b']);
    expect(badOut.code).toBe(1);
    expect(badOut.err).toMatch(/put \{stack\} in the file name/);
    expect(fs.existsSync(ws.path('plan.json'))).toBe(false);
  });
});
