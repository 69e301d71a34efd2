/**
 * Secrets in play (a client secret of our own, the access token it buys, an integration's
 * password): no CLI output, saved plan file, client log line or error contains any of them.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import { PlatformClient } from '../../src/client';
import { cli, emulator, writeStack, type RunningEmulator } from './helpers';

const CLIENT_ID = 'secret-admin';
const CLIENT_SECRET = 'Cl1ent-S3cret-7f3a9d1e44b2';
const PASSWORD = 'Integr4tion-P4ssw0rd-c0ffee';
const WRONG_SECRET = 'Wr0ng-S3cret-deadbeef91';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator({ seed: 'demo' });
  emu.app.addCredential(CLIENT_ID, CLIENT_SECRET, SCOPES, 'demo');
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-secrets-'));
});
afterAll(async () => {
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function expectClean(text: string, secrets: string[]): void {
  for (const s of secrets) expect(text).not.toContain(s);
}

it('no output, plan file, log line or error contains the client secret, the token or an integration password', async () => {
  const logs: string[] = [];
  const c = PlatformClient.create({ baseUrl: emu.url, clientId: CLIENT_ID, clientSecret: CLIENT_SECRET }, { onLog: (l) => logs.push(l), retry: { scale: 0.01 } });
  const errors: string[] = [];
  const record = (e: unknown) => {
    const err = e as Error;
    errors.push(`${err.message}\n${err.stack ?? ''}\n${JSON.stringify(err)}\n${String(err)}`);
  };

  // an integration with a password: create, read back, and provoke errors around it
  const created = await c.integrations.create({ title: 'Warehouse', config: { relational: { host: 'db.local', database: 'wh', user: 'svc', password: PASSWORD } } });
  const token = await c.http.tokens.getToken();
  expect(token.length).toBeGreaterThan(8);
  const listed = await c.integrations.list();
  expect(JSON.stringify(listed)).not.toContain(PASSWORD); // the platform answers "" for stored secrets
  await c.integrations.update(created.id, { title: 'Warehouse', config: { relational: { host: 'db.local', database: 'wh', user: 'svc', password: PASSWORD } } }, 'W/"stale-etag"').catch(record);
  await c.integrations.update(created.id, { title: '', config: { relational: { host: 'db.local', database: 'wh', user: 'svc', password: PASSWORD } } }).catch(record);
  await c.integrations.create({ title: 'Bad', config: { relational: { host: '', database: 'wh', user: 'svc', password: PASSWORD } } } as never).catch(record);
  expect(errors.length).toBe(3);
  await c.close();

  // the CLI with the same credentials: plan (saved), apply, drift, and an error
  writeStack(dir, 'res-secrets', { provider: { dq: [{ namespace: 'res-secrets' }] }, resource: { dq_domain: { d: { name: 'Finance', description: `ingest with ${PASSWORD.slice(0, 4)}` } } } });
  const planFile = path.join(dir, 'plan.json');
  const runs = [
    await cli(emu.url, dir, ['plan', '--out', planFile], [CLIENT_ID, CLIENT_SECRET]),
    await cli(emu.url, dir, ['apply', planFile], [CLIENT_ID, CLIENT_SECRET]),
    await cli(emu.url, dir, ['drift'], [CLIENT_ID, CLIENT_SECRET]),
    await cli(emu.url, dir, ['apply', planFile], [CLIENT_ID, CLIENT_SECRET]), // stale now: an error
    await cli(emu.url, dir, ['plan'], [CLIENT_ID, WRONG_SECRET]), // 401: an error
  ];
  expect(runs.map((r) => r.code)).toEqual([0, 0, 0, 1, 1]);
  expect(runs[4].err).toMatch(/invalid_client|credentials|401/i);

  const everything = [...logs, ...errors, ...runs.flatMap((r) => [r.out, r.err]), fs.readFileSync(planFile, 'utf8')].join('\n');
  expect(logs.length).toBeGreaterThan(5);
  expectClean(everything, [CLIENT_SECRET, token, PASSWORD, WRONG_SECRET]);
});
