/**
 * A secret's `fromEnv` variable is read from the environment the command was given (the CLI's
 * `io.env`), not from `process.env`: run in-process (a library, a test), `apply` sends the value
 * the given environment holds, and a value only in `process.env` is not set. A relative
 * `fromFile` path is relative to the directory the command was given (`io.cwd`). The saved-plan path
 * (`apply PLANFILE`), `apply --auto-approve` and `--json` alike. No output holds a secret value. In-process
 * through `main` against an emulator started here on port 0.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { Workspace } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const CLIENT_SECRET = 'given-env-S3cret-0b7e';
const GIVEN = 'given-env-Pg-Pw-6c2d91';
const GIVEN_SAVED = 'given-env-Saved-Pw-19e5b7';
const GIVEN_JSON = 'given-env-Json-Pw-72ac04';
const GIVEN_FILE = 'given-cwd-File-Pw-3e81d6';
const PROCESS_ONLY = 'process-env-Pg-Pw-a4f3e8';
const VAR = 'DQFORM_TEST_GIVEN_ENV_PG_PW';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  emu.app.addCredential('given-env', CLIENT_SECRET, SCOPES, 'given-env');
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
  delete process.env[VAR];
});

async function run(ws: Workspace, argv: string[], extra: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'given-env', DQ_CLIENT_SECRET: CLIENT_SECRET, DQFORM_NO_CACHE: '1', ...extra };
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: ws.dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A stack with one integration whose password is read from {@link VAR}. */
function stack(ns: string): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, {
    dq_integration: { pg: { title: `PG ${ns}`, config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_env: VAR }, password_version: 1 } } } },
  });
  return w;
}

/** What the platform holds of the integrations (the secret values it was sent among them). */
const stored = () => JSON.stringify(emu.app.store.workspace('given-env').collection('integrations').filter(() => true));

const noSecret = (text: string) => [GIVEN, GIVEN_SAVED, GIVEN_JSON, GIVEN_FILE, PROCESS_ONLY, CLIENT_SECRET].filter((s) => text.includes(s));

describe('a fromEnv secret set only in the environment the command was given', () => {
  beforeEach(() => {
    delete process.env[VAR];
  });

  it('apply --auto-approve sends it (process.env lacks it); nothing printed holds it', async () => {
    const ws = stack('given-env-auto');
    const r = await run(ws, ['apply', '--auto-approve'], { [VAR]: GIVEN });
    expect(process.env[VAR]).toBeUndefined();
    expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: expect.not.stringMatching(/not set/) });
    expect(r.out).toMatch(/Apply complete: 1 applied, 0 failed, 0 not attempted\./);
    expect(stored()).toContain(`"${GIVEN}"`);
    expect(noSecret(`${r.out}\n${r.err}`)).toEqual([]);
  });

  it('apply --json sends it too; no line of the stream holds a value', async () => {
    const ws = stack('given-env-json');
    const r = await run(ws, ['apply', '--auto-approve', '--json'], { [VAR]: GIVEN_JSON });
    expect(r.code).toBe(0);
    expect(r.out).toContain('"type":"apply_complete"');
    expect(stored()).toContain(`"${GIVEN_JSON}"`);
    expect(noSecret(`${r.out}\n${r.err}`)).toEqual([]);
  });

  it('apply PLANFILE (plan --out first) sends it too; plan, the plan file and apply hold no value', async () => {
    const ws = stack('given-env-saved');
    const p = await run(ws, ['plan', '--out', 'plan.json'], { [VAR]: GIVEN_SAVED });
    expect(p.code).toBe(0);
    expect(p.out).toContain('config.relational.password (secret: set from its reference at apply)');
    const a = await run(ws, ['apply', 'plan.json'], { [VAR]: GIVEN_SAVED });
    expect({ code: a.code, err: a.err }).toEqual({ code: 0, err: expect.not.stringMatching(/not set/) });
    expect(a.out).toMatch(/Apply complete: 1 applied, 0 failed, 0 not attempted\./);
    expect(stored()).toContain(`"${GIVEN_SAVED}"`);
    expect(noSecret(`${p.out}\n${p.err}\n${a.out}\n${a.err}\n${fs.readFileSync(ws.path('plan.json'), 'utf8')}`)).toEqual([]);
  });
});

it('a value only in process.env, not in the given environment, is not set: the change fails naming the variable, never the value', async () => {
  const ws = stack('given-env-missing');
  process.env[VAR] = PROCESS_ONLY;
  try {
    const r = await run(ws, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    expect(r.err).toContain(`create dq_integration.pg: FAILED: dq_integration.pg: config.relational.password: environment variable ${VAR} is not set`);
    expect(stored()).not.toContain(PROCESS_ONLY);
    expect(noSecret(`${r.out}\n${r.err}`)).toEqual([]);
  } finally {
    delete process.env[VAR];
  }
});

it("a relative fromFile path is relative to the directory the command was given, not the process's", async () => {
  const ws = new Workspace();
  workspaces.push(ws);
  const ns = 'given-env-file';
  fs.writeFileSync(ws.path('pg.pw'), `${GIVEN_FILE}\n`);
  ws.stack(ns, { dq_integration: { pg: { title: `PG ${ns}`, config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_file: 'pg.pw' }, password_version: 1 } } } } });
  expect(process.cwd()).not.toBe(ws.dir);
  const r = await run(ws, ['apply', '--auto-approve']);
  expect({ code: r.code, err: r.err }).toEqual({ code: 0, err: expect.not.stringMatching(/cannot read file/) });
  expect(stored()).toContain(`"${GIVEN_FILE}"`);
  expect(noSecret(`${r.out}\n${r.err}`)).toEqual([]);
});
