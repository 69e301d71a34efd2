/**
 * `apply` shows an error's hint (docs/errors.md) after its message wherever it reports a
 * DqformError, as plan and validate do: a refusal before any write, and a change that fails
 * mid-apply (its FAILED line, then the hint; `--json`: the `apply_errored` line's `hint`). Hints
 * are static text: the secret never shows. In-process through `main` against an emulator
 * started here on port 0.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { StreamLine } from '../../schemas/model/json-stream';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { Workspace, Workspaces } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'apply-hints-S3cret-9d2b';
const PG_PASSWORD = 'apply-hints-Pg-Pw-31f7';
const workspaces = new Workspaces();

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  emu.app.addCredential('apply-hints', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  workspaces.removeAll();
});

function workspace(): Workspace {
  return workspaces.make();
}

async function run(ws: Workspace, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'apply-hints', DQ_CLIENT_SECRET: SECRET, DQFORM_NO_CACHE: '1' };
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: ws.dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n'), outLines: out };
}

/** Two integrations: `pg` reads its password from pg.pw (written here), `wh` its key from `keyFile` (empty: apply cannot read it). */
function integrations(ws: Workspace, ns: string, keyFile: string): void {
  fs.writeFileSync(ws.path('pg.pw'), `${PG_PASSWORD}\n`);
  ws.stack(ns, {
    dq_integration: {
      pg: { title: 'Warehouse PG', config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_file: ws.path('pg.pw') }, password_version: 1 } } },
      wh: { title: 'Warehouse', enabled: false, config: { warehouse_account: { account: 'acme', user: 'dq', key_pair: { private_key_secret: { from_file: keyFile }, public_key: 'pub' } } } },
    },
  });
}

const EMPTY_FILE_HINT = 'Write the secret into the file (one trailing newline is dropped).';

describe('a change that fails mid-apply', () => {
  it('its FAILED line is followed by its error\'s hint; the other change is applied; exit 1; no secret shown', async () => {
    const ws = workspace();
    fs.writeFileSync(ws.path('empty.key'), '');
    integrations(ws, 'hints-mid', ws.path('empty.key'));
    const r = await run(ws, ['apply', '--auto-approve']);
    expect(r.code).toBe(1);
    const lines = r.err.split('\n');
    const failed = lines.findIndex((l) => l.startsWith('  create dq_integration.wh: FAILED: '));
    expect(lines[failed]).toMatch(/^ {2}create dq_integration\.wh: FAILED: dq_integration\.wh: config\.warehouseAccount\.keyPair\.privateKeySecret: file ".*empty\.key" is empty \(after \d+\.\ds\)$/);
    expect(lines[failed + 1]).toBe(`    ${EMPTY_FILE_HINT}`);
    expect(r.out).toMatch(/^ {2}create dq_integration\.pg: done in /m);
    expect(r.out).toMatch(/Apply stopped: 1 applied, 1 failed, 0 not attempted\./);
    expect(`${r.out}\n${r.err}`).not.toContain(PG_PASSWORD);
    expect(`${r.out}\n${r.err}`).not.toContain(SECRET);
  });

  it('--json: the apply_errored line carries the hint', async () => {
    const ws = workspace();
    fs.writeFileSync(ws.path('empty.key'), '');
    integrations(ws, 'hints-json', ws.path('empty.key'));
    const r = await run(ws, ['apply', '--auto-approve', '--json']);
    expect(r.code).toBe(1);
    const errored = r.outLines
      .flatMap((s) => s.split('\n'))
      .map((l) => StreamLine.parse(JSON.parse(l)))
      .filter((l) => l.type === 'apply_errored');
    expect(errored).toEqual([expect.objectContaining({ hook: expect.objectContaining({ resource: expect.objectContaining({ addr: 'dq_integration.wh' }), hint: EMPTY_FILE_HINT }) })]);
    expect(r.out).not.toContain(PG_PASSWORD);
  });
});

describe('a refusal before any write', () => {
  it('the guard\'s message, then its hint on the next line', async () => {
    const ws = workspace();
    ws.stack('hints-guard', { dq_owner: Object.fromEntries(Array.from({ length: 2 }, (_, i) => [`o${i}`, { title: `Owner ${i}` }])) });
    expect((await run(ws, ['apply', '--auto-approve'])).code).toBe(0);
    ws.stack('hints-guard', {});
    const r = await run(ws, ['apply', '--auto-approve', '--max-deletes', '1']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/^Error: nothing was applied: .*\n {2}Review the deletions, then re-run with --max-deletes 2 if they are intended\.$/m);
  });
});
