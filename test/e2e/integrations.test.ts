/**
 * Issue 25, `dq_integration` end to end through the CLI (in process) against a real emulator:
 * plan, apply, plan again empty; drift after a change made in the platform; secrets written
 * only on create, on a version change and on --replace (the stored value is checked in the
 * emulator's store, the platform returns them empty); a change of config variant is a replace;
 * enabled/disabled through Enable/Disable; prune of the namespace's own integrations only (a
 * UI-made one and another namespace's are untouched); the import round trip; the quota error.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { setIntegrationQuota } from '../../src/emulator/routes/integrations';
import { main } from '../../src/cli/main';
import { PlatformClient } from '../../src/client';
import { deriveId } from '../../src/engine/identity';
import { parseTitle } from '../../src/kinds/integration/marker';
import { SecretUnreadableError } from '../../src/kinds/integration/secrets';
import { StepExecutor } from '../../src/engine/apply-executor';

let emu: RunningEmulator;
let raw: PlatformClient;
let dir: string;
const FIRST = 'Pg-first-S3cret-0a1b2c';
const SECOND = 'Pg-second-S3cret-3d4e5f';

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
});
afterAll(async () => {
  await raw.close();
  await emu.close();
});
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-int-'));
  process.env.E2E_PG_PASSWORD = FIRST;
  for (const i of await raw.integrations.list()) await raw.integrations.delete(i.id);
});
afterEach(() => {
  fs.rmSync(dir, { recursive: true, force: true });
  delete process.env.E2E_PG_PASSWORD;
  setIntegrationQuota(emu.app, undefined);
});

async function cli(args: string[], file = 'dqform.yaml') {
  const out: string[] = [];
  const err: string[] = [];
  // the secret's variable is passed in the environment the command is given (the CLI reads that, not process.env)
  const pg = process.env.E2E_PG_PASSWORD;
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', ...(pg === undefined ? {} : { E2E_PG_PASSWORD: pg }) };
  const withFile = args[0] === 'import' ? args : [...args, '--file', path.join(dir, file)];
  const code = await main(withFile, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const yaml = (ns: string, entries: string) => `namespace: ${ns}\nintegrations:\n${entries}`;
const pg = (extra = '', variant = 'relational') => `  pg:
    title: Warehouse PG
    config:
      ${variant}:
        host: db.example.com
        port: 5432
        user: dq
        password: { fromEnv: E2E_PG_PASSWORD }
${extra}`;
const write = (text: string, file = 'dqform.yaml') => fs.writeFileSync(path.join(dir, file), text);

/** The stored records (secrets included) of the emulator's integrations. */
const stored = () => emu.app.store.workspace('demo').collection<{ id: string; title: string; disabled?: boolean; config: Record<string, { password?: string; host?: string }> }>('integrations').filter(() => true);

describe('dq_integration lifecycle', () => {
  it('plan, apply, plan empty; the secret is sent on create only, and never shown', async () => {
    write(yaml('team-a', pg()));
    const p = await cli(['plan']);
    expect(p.code).toBe(0);
    expect(p.out).toContain('# dq_integration.pg (integration "Warehouse PG") will be created');
    expect(p.out).toContain('config.relational.password (secret: set from its reference at apply)');
    expect(p.out).not.toContain(FIRST);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [rec] = stored();
    expect(rec.config.relational.password).toBe(FIRST);
    const m = parseTitle(rec.title);
    expect(m).toEqual({ title: 'Warehouse PG', id: deriveId('demo', 'team-a', 'dq_integration', 'pg'), versions: { password: 1 }, marked: true });
    expect(JSON.stringify(await raw.integrations.list())).not.toContain(FIRST);
    const again = await cli(['plan', '--detailed-exitcode']);
    expect([again.code, again.out]).toEqual([0, expect.stringContaining('No changes.')]);
  });

  it('a config change keeps the secret (omitted: kept); a version change rotates it; --replace sends it again', async () => {
    write(yaml('team-a', pg()));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    process.env.E2E_PG_PASSWORD = SECOND;
    write(yaml('team-a', pg().replace('port: 5432', 'port: 5433')));
    const p = await cli(['plan']);
    expect(p.out).toContain('config.relational.password (secret: unchanged, not readable)');
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()[0].config.relational).toEqual(expect.objectContaining({ port: 5433, password: FIRST }));

    write(yaml('team-a', pg('        passwordVersion: 2\n').replace('port: 5432', 'port: 5433')));
    const r = await cli(['plan']);
    expect(r.out).toContain('config.relational.password (secret: rotated)');
    expect(r.out).toContain('will be updated in place');
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()[0].config.relational.password).toBe(SECOND);
    expect(parseTitle(stored()[0].title).versions).toEqual({ password: 2 });
    expect((await cli(['plan'])).out).toContain('No changes.');

    process.env.E2E_PG_PASSWORD = FIRST;
    const forced = await cli(['plan', '--replace', 'dq_integration.pg']);
    expect(forced.out).toContain('config.relational.password (secret: rotated, sent to the new integration)');
    const oldId = stored()[0].id;
    const applied = await cli(['apply', '--auto-approve', '--replace', 'dq_integration.pg']);
    expect([applied.code, applied.err]).toEqual([0, expect.anything()]);
    expect(stored().map((s) => [s.id === oldId, s.config.relational.password])).toEqual([[false, FIRST]]);
  });

  it('drift: a change made in the platform shows, and apply puts it back', async () => {
    write(yaml('team-a', pg()));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const [live] = await raw.integrations.list();
    await raw.integrations.update(live.id, { title: live.title, config: { relational: { host: 'other.example.com', port: 5432, user: 'dq' } } }, live.etag);
    const d = await cli(['drift']);
    expect(d.code).not.toBe(0);
    expect(d.out).toContain('other.example.com');
    const p = await cli(['plan']);
    expect(p.out).toMatch(/config\.relational\.host = "other\.example\.com" -> "db\.example\.com"/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()[0].config.relational).toEqual(expect.objectContaining({ host: 'db.example.com', password: FIRST }));
  });

  it('enabled: false disables through Disable; a change of config variant is a replace', async () => {
    write(yaml('team-a', pg().replace('    title: Warehouse PG\n', '    title: Warehouse PG\n    enabled: false\n')));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()[0].disabled).toBe(true);
    expect((await cli(['plan'])).out).toContain('No changes.');
    write(yaml('team-a', pg()));
    expect((await cli(['plan'])).out).toMatch(/~ enabled = false -> true/);
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()[0].disabled).toBe(false);

    write(yaml('team-a', pg('', 'mysqlLike').replace('        user: dq\n', '        user: dq\n').replace('        port: 5432\n', '        port: 3306\n')));
    const p = await cli(['plan']);
    expect(p.out).toContain('must be replaced');
    expect(p.out).toContain('the config variant is fixed at create (relational -> mysqlLike)');
    const applied = await cli(['apply', '--auto-approve']);
    expect([applied.code, applied.out + applied.err]).toEqual([0, expect.anything()]);
    expect(stored().map((s) => Object.keys(s.config))).toEqual([['mysqlLike']]);
  });

  it('prune deletes only the namespace own integrations: a UI-made one and another namespace one stay', async () => {
    await raw.integrations.create({ title: 'Made in the UI', config: { relational: { host: 'ui.example.com' } } });
    write(yaml('team-b', pg()), 'b.yaml');
    expect((await cli(['apply', '--auto-approve'], 'b.yaml')).code).toBe(0);
    write(yaml('team-a', pg()));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    expect(stored()).toHaveLength(3);

    write('namespace: team-a\n');
    const p = await cli(['plan']);
    expect(p.out).toContain('dq_integration');
    expect(p.out).toContain('Plan: 0 to add, 0 to change, 1 to destroy.');
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const left = stored().map((s) => parseTitle(s.title).id ?? s.title).sort();
    expect(left).toEqual([deriveId('demo', 'team-b', 'dq_integration', 'pg'), 'Made in the UI'].sort());
  });

  it('import round trip: the namespace integrations as YAML with secret references, plan empty', async () => {
    write(yaml('team-a', pg('        passwordVersion: 3\n')));
    expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
    const out = path.join(dir, 'imported.yaml');
    const imp = await cli(['import', '--namespace', 'team-a', '--out', out]);
    expect(imp.code).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toMatch(/fromEnv: TODO_WAREHOUSE_PG_PASSWORD/);
    expect(text).toMatch(/passwordVersion: 3/);
    expect(text).not.toContain(FIRST);
    expect(text).not.toContain('[dqform');
    const p = await cli(['plan'], 'imported.yaml');
    expect([p.code, p.out]).toEqual([0, expect.stringContaining('No changes.')]);
    // the construct code: Secret.fromEnv references, the marker's id pinned
    const ts = path.join(dir, 'imported.ts');
    expect((await cli(['import', '--namespace', 'team-a', '--out', ts])).code).toBe(0);
    const code = fs.readFileSync(ts, 'utf8');
    expect(code).toContain("Secret.fromEnv('TODO_WAREHOUSE_PG_PASSWORD')");
    expect(code).toMatch(/import \{[^}]*\bSecret\b[^}]*\} from/);
    expect(code).toContain(`id: '${deriveId('demo', 'team-a', 'dq_integration', 'pg')}'`);
    expect(code).not.toContain(FIRST);
  });

  it('adopting a UI-made integration: import --adopt writes an import block, the plan is empty; a variant change is refused before any delete', async () => {
    const ui = await raw.integrations.create({ title: 'Made in the UI', config: { relational: { host: 'ui.example.com', port: 5432 } } });
    const out = path.join(dir, 'adopted.yaml');
    expect((await cli(['import', '--namespace', 'team-a', '--adopt', '--out', out])).code).toBe(0);
    const text = fs.readFileSync(out, 'utf8');
    expect(text).toContain(`id: ${ui.id}`);
    const p = await cli(['plan'], 'adopted.yaml');
    expect([p.code, p.out]).toEqual([0, expect.stringContaining('No changes.')]);
    write(text.replace('relational:', 'mysqlLike:'), 'adopted.yaml');
    const a = await cli(['apply', '--auto-approve'], 'adopted.yaml');
    expect(a.code).toBe(1);
    expect(a.out + a.err).toMatch(/was adopted with an import block|dqform never deletes such an object/);
    expect(stored().map((s) => s.id)).toEqual([ui.id]);
  });

  it('the quota error names the quota', async () => {
    setIntegrationQuota(emu.app, 0);
    write(yaml('team-a', pg()));
    const a = await cli(['apply', '--auto-approve']);
    expect(a.code).toBe(1);
    expect(`${a.out}\n${a.err}`).toMatch(/integrations, its quota is 0/);
    expect(`${a.out}\n${a.err}`).not.toContain(FIRST);
  });

  it('a missing environment variable fails the create naming the field and the variable, never writing', async () => {
    delete process.env.E2E_PG_PASSWORD;
    write(yaml('team-a', pg()));
    const a = await cli(['apply', '--auto-approve']);
    expect(a.code).toBe(1);
    expect(`${a.out}\n${a.err}`).toContain('config.relational.password: environment variable E2E_PG_PASSWORD is not set');
    expect(stored()).toEqual([]);
  });

  it('the create fails with a SecretUnreadableError (write.secret); the CLI prints its message as the failure', async () => {
    delete process.env.E2E_PG_PASSWORD;
    write(yaml('team-a', pg()));
    const fail = jest.spyOn(StepExecutor.prototype as unknown as { fail: (c: unknown, e: unknown) => void }, 'fail');
    try {
      const a = await cli(['apply', '--auto-approve']);
      const why = 'dq_integration.pg: config.relational.password: environment variable E2E_PG_PASSWORD is not set; set it to the secret before apply (dqform reads it only then)';
      expect(a.code).toBe(1);
      const lines = `${a.out}\n${a.err}`.split('\n').filter((l) => l.includes(why));
      expect(lines).toEqual([expect.stringMatching(/^ {2}create dq_integration\.pg: FAILED: dq_integration\.pg: .* \(after \d+\.\ds\)$/)]);
      expect(lines[0].replace(/^ {2}create dq_integration\.pg: FAILED: /, '').replace(/ \(after \d+\.\ds\)$/, '')).toBe(why);
      const e = fail.mock.calls.map((x) => x[1]);
      expect(e).toEqual([expect.any(SecretUnreadableError)]);
      expect([(e[0] as SecretUnreadableError).code, (e[0] as Error).message]).toEqual(['write.secret', why]);
    } finally {
      fail.mockRestore();
    }
  });

  it('a literal secret in YAML is refused, naming the field, without echoing it', async () => {
    write(yaml('team-a', pg().replace('{ fromEnv: E2E_PG_PASSWORD }', 'Literal-Pw-123')));
    const p = await cli(['plan']);
    expect(p.code).toBe(1);
    expect(`${p.out}\n${p.err}`).toContain('config.relational.password');
    expect(`${p.out}\n${p.err}`).toContain('a secret is never written in code');
    expect(`${p.out}\n${p.err}`).not.toContain('Literal-Pw-123');
  });
});
