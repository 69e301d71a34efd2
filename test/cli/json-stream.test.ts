/**
 * `validate --json`, `plan --json` and `apply --json` (issue 26): one JSON object a line on
 * stdout, as Terraform's `-json`, each line of the shape schemas/model/json-stream.ts gives; apply's
 * lines are the applier's typed events. In-process through `main` against an emulator started
 * here on port 0.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { StreamLine } from '../../schemas/model/json-stream';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { alert, sqlTest, Workspace } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'stream-S3cret-c0ffee';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('stream-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

function workspace(ns: string, resources: Record<string, unknown>): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, resources);
  return w;
}

async function run(ws: Workspace, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'stream-writer', DQ_CLIENT_SECRET: SECRET };
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: ws.dir, isTty: false });
  return { code, out, err: err.join('\n') };
}

/** Every stdout line is one JSON object of the stream's schema; returns them. */
function lines(out: string[]): StreamLine[] {
  const all = out.flatMap((s) => s.split('\n'));
  return all.map((l) => StreamLine.parse(JSON.parse(l)));
}

describe('validate --json', () => {
  it('a valid stack: version, then validate_result; exit 0, nothing else on stdout', async () => {
    const ws = workspace('stream-valid', { dq_alert: { a: alert('A') } });
    const r = await run(ws, ['validate', '--json']);
    expect(r.code).toBe(0);
    const ls = lines(r.out);
    expect(ls.map((l) => l.type)).toEqual(['version', 'validate_result']);
    expect(ls[1]).toMatchObject({ '@level': 'info', stack: 'stream-valid', valid: true, error_count: 0, resources: 1 });
  });

  it('an invalid stack: each problem a diagnostic line at level error, then validate_result valid: false; exit 1', async () => {
    const ws = workspace('stream-invalid', { dq_alert: { a: alert('A'), b: { name: 'B' } } });
    const r = await run(ws, ['validate', '-json']);
    expect(r.code).toBe(1);
    const ls = lines(r.out);
    expect(ls[0].type).toBe('version');
    const diags = ls.filter((l) => l.type === 'diagnostic');
    expect(diags.length).toBeGreaterThan(0);
    expect(diags[0]).toMatchObject({ '@level': 'error', '@message': expect.stringMatching(/^Error: /), diagnostic: { severity: 'error' } });
    expect(ls[ls.length - 1]).toMatchObject({ type: 'validate_result', valid: false });
  });
});

describe('plan --json', () => {
  it('version, a planned_change per change with its address, type and id, the change_summary last; --detailed-exitcode 2; --format json keeps the document', async () => {
    const ws = workspace('stream-plan', { dq_alert: { a: alert('A') }, dq_sql_test: { t: sqlTest('T') } });
    const [r, doc] = await Promise.all([run(ws, ['plan', '--json', '--detailed-exitcode']), run(ws, ['plan', '--format', 'json'])]);
    expect(r.code).toBe(2);
    const ls = lines(r.out);
    expect(ls.map((l) => l.type)).toEqual(['version', 'planned_change', 'planned_change', 'change_summary']);
    expect(ls[1]).toMatchObject({ '@message': 'dq_alert.a: Plan to create', stack: 'stream-plan', change: { action: 'create', resource: { addr: 'dq_alert.a', resource_type: 'dq_alert', id: 'stream-plan.a' } } });
    expect(ls[2]).toMatchObject({ change: { resource: { addr: 'dq_sql_test.t', resource_type: 'dq_sql_test' } } });
    expect(ls[3]).toMatchObject({ '@message': 'Plan: 2 to add, 0 to change, 0 to destroy.', changes: { operation: 'plan', add: 2, change: 0, remove: 0 } });
    expect(JSON.parse(doc.out.join('\n'))).toMatchObject({ formatVersion: 1, stack: 'stream-plan' });
    expect(r.err).toMatch(/reading live state/);
  });

  it('--all-stacks --json: one stream, stack after stack (one version line); the combined summary on stderr', async () => {
    const ws = workspace('stream-one', { dq_alert: { a: alert('A') } });
    ws.stack('stream-two', {});
    const r = await run(ws, ['plan', '--all-stacks', '--json']);
    expect(r.code).toBe(0);
    const ls = lines(r.out);
    expect(ls.map((l) => [l.type, l.stack])).toEqual([
      ['version', undefined],
      ['planned_change', 'stream-one'],
      ['change_summary', 'stream-one'],
      ['change_summary', 'stream-two'],
    ]);
    expect(r.err).toMatch(/All stacks \(2\): none failed\./);
  });

  it('--refresh-only --json: a resource_drift line per difference', async () => {
    const ws = workspace('stream-drift', { dq_alert: { a: alert('A') } });
    const r = await run(ws, ['plan', '--refresh-only', '--json']);
    expect(r.code).toBe(0);
    const drift = lines(r.out).filter((l) => l.type === 'resource_drift');
    expect(drift).toEqual([expect.objectContaining({ change: { resource: expect.objectContaining({ addr: 'dq_alert.a' }), difference: 'absent', remedy: 'create' } })]);
  });
});

describe('apply --json', () => {
  it("prints the plan's lines, then one line per applier event, the apply's change_summary last; every line JSON; the ids known", async () => {
    const ws = workspace('stream-apply', { dq_alert: { a: alert('A') }, dq_sql_test: { t: sqlTest('T') } });
    const r = await run(ws, ['apply', '--json', '--auto-approve']);
    expect(r.code).toBe(0);
    const ls = lines(r.out);
    const types = ls.map((l) => l.type);
    expect(types[0]).toBe('version');
    expect(types.slice(1, 4)).toEqual(['planned_change', 'planned_change', 'change_summary']);
    expect(types).toEqual(expect.arrayContaining(['checks_start', 'apply_begin', 'apply_complete']));
    expect(types[types.length - 1]).toBe('change_summary');
    expect(ls[ls.length - 1]).toMatchObject({ '@level': 'info', '@message': expect.stringMatching(/^Apply complete! Resources: 2 added, 0 changed, 0 destroyed/), changes: { operation: 'apply', add: 2, failed: 0 } });
    const done = ls.filter((l) => l.type === 'apply_complete');
    expect(done.map((l) => l.type === 'apply_complete' && l.hook.resource.addr).sort()).toEqual(['dq_alert.a', 'dq_sql_test.t']);
    for (const l of done) if (l.type === 'apply_complete') expect([l.hook.resource.id, l.hook.id_key]).toEqual([l.hook.id_value, 'id']);
    // nothing of the text report on stdout
    expect(r.out.join('\n')).not.toMatch(/^ {2}create /m);
  });

  it('a saved plan file: the same stream; without --auto-approve or a plan file, or with --all-stacks, refused before anything is read', async () => {
    const ws = workspace('stream-saved', { dq_alert: { a: alert('A') } });
    expect((await run(ws, ['plan', '--out', 'plan.json'])).code).toBe(0);
    const saved = await run(ws, ['apply', '--json', 'plan.json']);
    expect(saved.code).toBe(0);
    const types = lines(saved.out).map((l) => l.type);
    expect(types).toEqual(expect.arrayContaining(['version', 'planned_change', 'apply_start', 'apply_complete']));
    expect(fs.existsSync(ws.path('plan.json'))).toBe(true);
    const before = emu.app.requestCounters().total;
    const [ask, all] = await Promise.all([run(ws, ['apply', '--json']), run(ws, ['apply', '--json', '--all-stacks', '--auto-approve'])]);
    expect(ask.code).toBe(1);
    expect(ask.err).toMatch(/--json asks nothing\.\n {2}.*--auto-approve/);
    expect(all.code).toBe(1);
    expect(all.err).toMatch(/--json streams one apply/);
    expect(emu.app.requestCounters().total).toBe(before);
  });
});
