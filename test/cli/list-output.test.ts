/**
 * `dqform list` (what the namespace manages, from live) and `dqform output` (the ids of the
 * code's objects by address), issue 26. In-process through `main` against an emulator started
 * here on port 0.
 *
 * @gateway
 */
import { SCOPES } from '../../schemas/platform/common';
import { ManagedObject, Outputs } from '../../schemas/model/listing';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { alert, sqlTest, Workspace } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'list-S3cret-5b7e0';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('list-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

async function run(ws: Workspace, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'list-writer', DQ_CLIENT_SECRET: SECRET };
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: ws.dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A namespace with alerts a, b and SQL test t applied; then the code drops b and declares c (not created). */
async function applied(ns: string): Promise<Workspace> {
  const ws = new Workspace();
  workspaces.push(ws);
  ws.stack(ns, { dq_alert: { a: alert('Alpha'), b: alert('Beta') }, dq_sql_test: { t: sqlTest('Tee') } });
  const r = await run(ws, ['apply', '--auto-approve']);
  expect(r.code).toBe(0);
  ws.stack(ns, { dq_alert: { a: alert('Alpha'), c: alert('Gamma') }, dq_sql_test: { t: sqlTest('Tee') } });
  return ws;
}

describe('dqform list', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await applied('list-ns');
  });

  it('lists what the namespace manages from live, one a line sorted by address: declared, and no longer declared; not what is only declared', async () => {
    const r = await run(ws, ['list']);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toMatch(/^dq_alert\.a +alert +\S+ +"Alpha"$/);
    expect(lines[1]).toMatch(/^dq_alert\["[^"]+"\] +alert +\S+ +"Beta" +\(not in the code: apply deletes it\)$/);
    expect(lines[2]).toMatch(/^dq_sql_test\.t +sql_test +\S+ +"Tee"$/);
    expect(r.out).not.toMatch(/Gamma|dq_alert\.c/);
    // deterministic: the same twice
    expect((await run(ws, ['list'])).out).toBe(r.out);
  });

  it('--json prints an array (the schema of schemas/model/listing.ts); --kind keeps one kind (dq_ prefix or not)', async () => {
    const [json, kind, prefixed] = await Promise.all([run(ws, ['list', '--json']), run(ws, ['list', '--kind', 'sql_test', '--json']), run(ws, ['list', '--kind=dq_sql_test'])]);
    const all = ManagedObject.array().parse(JSON.parse(json.out));
    expect(all.map((o) => [o.address.replace(/\[.*\]/, '[]'), o.kind, o.title, o.declared])).toEqual([
      ['dq_alert.a', 'alert', 'Alpha', true],
      ['dq_alert[]', 'alert', 'Beta', false],
      ['dq_sql_test.t', 'sql_test', 'Tee', true],
    ]);
    expect(all.every((o) => o.stack === 'list-ns' && o.namespace === 'list-ns' && o.id !== '')).toBe(true);
    expect(ManagedObject.array().parse(JSON.parse(kind.out))).toEqual([all[2]]);
    expect(prefixed.out).toMatch(/^dq_sql_test\.t +sql_test/);
    expect(prefixed.out.split('\n')).toHaveLength(1);
  });

  it('--kind that is not a kind: a usage error with a did-you-mean, nothing read', async () => {
    const before = emu.app.requestCounters().total;
    const r = await run(ws, ['list', '--kind', 'alrt']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--kind "alrt" is not a dqform kind; did you mean alert\?/);
    expect(emu.app.requestCounters().total).toBe(before);
  });

  it('--all-stacks: each stack under its header, one combined summary; --json one array of every stack', async () => {
    const two = new Workspace();
    workspaces.push(two);
    two.stack('list-one', { dq_alert: { x: alert('X1') } });
    two.stack('list-two', { dq_alert: { y: alert('Y2') } });
    expect((await run(two, ['apply', '--all-stacks', '--auto-approve'])).code).toBe(0);
    const [text, json] = await Promise.all([run(two, ['list', '--all-stacks']), run(two, ['list', '--all-stacks', '--json'])]);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/^Stack list-one \(namespace "list-one"\): 1 object\(s\)\ndq_alert\.x +alert +\S+ +"X1"\nStack list-two \(namespace "list-two"\): 1 object\(s\)\ndq_alert\.y +alert +\S+ +"Y2"\n\nAll stacks \(2\): none failed\./);
    expect(ManagedObject.array().parse(JSON.parse(json.out)).map((o) => [o.stack, o.address])).toEqual([
      ['list-one', 'dq_alert.x'],
      ['list-two', 'dq_alert.y'],
    ]);
  });
});

describe('dqform output', () => {
  let ws: Workspace;
  beforeAll(async () => {
    ws = await applied('output-ns');
  });

  it("prints the ids of the code's live objects by address (list's ids), names the ones not created yet on stderr", async () => {
    const [text, json, listed] = await Promise.all([run(ws, ['output']), run(ws, ['output', '--json']), run(ws, ['list', '--json'])]);
    const ids = Object.fromEntries(ManagedObject.array().parse(JSON.parse(listed.out)).map((o) => [o.address, o.id]));
    expect(json.code).toBe(0);
    expect(Outputs.parse(JSON.parse(json.out))).toEqual({ 'dq_alert.a': ids['dq_alert.a'], 'dq_sql_test.t': ids['dq_sql_test.t'] });
    expect(text.out).toBe(`dq_alert.a = ${JSON.stringify(ids['dq_alert.a'])}\ndq_sql_test.t = ${JSON.stringify(ids['dq_sql_test.t'])}`);
    expect(text.err).toMatch(/Not created yet \(dqform apply creates them\): dq_alert\.c/);
  });

  it('output ADDRESS prints the id alone (--json: a JSON string); not created yet, or not declared with a did-you-mean: exit 1', async () => {
    const [one, oneJson, absent, unknown, bad] = await Promise.all([
      run(ws, ['output', 'dq_sql_test.t']),
      run(ws, ['output', 'dq_sql_test.t', '--json']),
      run(ws, ['output', 'dq_alert.c']),
      run(ws, ['output', 'dq_alert.aa']),
      run(ws, ['output', 'nonsense']),
    ]);
    expect(one.code).toBe(0);
    expect(one.out).toMatch(/^\S+$/);
    expect(oneJson.out).toBe(JSON.stringify(one.out));
    expect({ code: absent.code, err: absent.err }).toEqual({ code: 1, err: expect.stringMatching(/dq_alert\.c is declared but not created yet/) });
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/declares no object at dq_alert\.aa\.\n {2}Did you mean dq_alert\.a\?/);
    expect(bad.code).toBe(1);
    expect(bad.err).toMatch(/is not a resource address/);
  });
});
