/**
 * Secrets never appear in output, plan files, logs or errors, through the spawned CLI with the
 * most talkative settings a user has (DQFORM_LOG=debug traces every HTTP call, DQFORM_DEBUG=1
 * prints stack traces): plan --out, apply of the saved plan, drift, a stale apply, a wrong
 * secret (401), a server that is not there, a refused plain-http URL, and synth of an app that
 * echoes the credentials it found in a .env file. Checked for the client secret, the client id
 * (withheld from the app and masked in what it prints), and every access token the emulator
 * issued during the runs.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { dqform, Workspace, type Run } from './helpers';

const CLIENT_ID = 'leakcheck-admin-5b1e';
const SECRET = 'Leakcheck-S3cret-9d41f07a';
const WRONG = 'Wr0ng-Leakcheck-77e2c1';

let emu: RunningEmulator;
const ws = new Workspace();
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential(CLIENT_ID, SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  ws.remove();
});

/** A port nothing listens on (bound, then released). */
async function deadPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as net.AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}

/** Every access token the emulator has issued (its token table). */
const issuedTokens = (): string[] => [...(emu.app.auth as unknown as { tokens: Map<string, unknown> }).tokens.keys()];

it('DQFORM_LOG=debug and DQFORM_DEBUG=1: no run prints the client secret, the client id to the app, or a token; no plan file holds one', async () => {
  const env = (extra: Record<string, string> = {}) => ({ DQ_BASE_URL: emu.url, DQ_CLIENT_ID: CLIENT_ID, DQ_CLIENT_SECRET: SECRET, DQFORM_LOG: 'debug', DQFORM_DEBUG: '1', ...extra });
  const run = (args: string[], extra: Record<string, string> = {}) => dqform(args, { cwd: ws.dir, env: env(extra), timeoutMs: 60_000 });
  ws.stack('leak', { dq_domain: { d: { name: 'Finance' } }, dq_owner: { o: { title: 'Team' } } });

  const runs: [string, Run, number][] = [];
  const keep = async (what: string, r: Promise<Run>, code: number) => runs.push([what, await r, code]);
  await keep('plan --out', run(['plan', '--out', 'plan.json']), 0);
  await keep('apply PLANFILE', run(['apply', 'plan.json']), 0);
  await keep('drift', run(['drift']), 0);
  await keep('apply PLANFILE again (stale)', run(['apply', 'plan.json']), 1);
  await keep('plan with a wrong secret', run(['plan'], { DQ_CLIENT_SECRET: WRONG }), 1);
  await keep('plan against a dead port', run(['plan'], { DQ_BASE_URL: `http://127.0.0.1:${await deadPort()}` }), 1);
  await keep('plan against plain http to another host', run(['plan'], { DQ_BASE_URL: 'http://192.0.2.1:8787' }), 1);

  // an app that finds the credentials in a .env file and prints them (the app itself gets neither)
  fs.writeFileSync(ws.path('.env'), `DQ_CLIENT_ID=${CLIENT_ID}\nDQ_CLIENT_SECRET=${SECRET}\n`);
  fs.writeFileSync(ws.path('app.js'), "process.stdout.write(require('fs').readFileSync('.env', 'utf8') + JSON.stringify(process.env) + '\\n');\n");
  await keep('synth of an app echoing .env and its environment', run(['synth', '--app', 'node app.js', '--out', 'synth-out']), 0);

  expect(runs.map(([what, r]) => [what, r.code])).toEqual(runs.map(([what, , code]) => [what, code]));
  // the checks can fail: the runs did trace HTTP calls, and the app did print the masked values
  const all = runs.map(([, r]) => `${r.out}\n${r.err}`).join('\n');
  expect(all).toMatch(/debug: http POST \/oauth2\/token -> 200/);
  expect(all).toMatch(/debug: http POST \/oauth2\/token -> 401/);
  expect(all).toMatch(/DQ_CLIENT_SECRET=\[REDACTED\]/);
  expect(all).toMatch(/DQ_CLIENT_ID=\[REDACTED\]/);
  const tokens = issuedTokens();
  expect(tokens.length).toBeGreaterThan(0);

  const texts: [string, string][] = [...runs.map(([what, r]) => [what, `${r.out}\n${r.err}`] as [string, string]), ['plan.json', fs.readFileSync(ws.path('plan.json'), 'utf8')]];
  for (const [what, text] of texts) {
    for (const [name, value] of [['the client secret', SECRET], ['the wrong secret', WRONG], ...tokens.map((t) => ['a token', t])] as const) {
      expect([what, name, text.includes(value)]).toEqual([what, name, false]);
    }
  }
  // the client id is not a secret in dqform's own lines, but the app must not learn it
  const synth = runs.find(([what]) => what.startsWith('synth'))![1];
  expect(synth.out).not.toContain(CLIENT_ID);
  expect(synth.out).not.toContain('DQ_CLIENT_SECRET":');
}, 120_000);

it('show of a file that starts with the secret (or holds it in a plan field): the secret is not echoed, in text or --json (issue 23)', async () => {
  // short enough that the JSON parser's message quotes the whole text (a secret file handed to show by mistake)
  const short = 'Sh0rt-S3cret-1';
  const env = { DQ_CLIENT_ID: CLIENT_ID, DQ_CLIENT_SECRET: short, OTHER_CLIENT_SECRET: 'Other-Stack-S3cret-41aa' };
  fs.writeFileSync(ws.path('leaky.json'), `${short}\n`);
  fs.writeFileSync(ws.path('leaky2.json'), JSON.stringify({ formatVersion: short, stack: 'Other-Stack-S3cret-41aa' }));
  for (const file of ['leaky.json', 'leaky2.json']) {
    for (const extra of [[], ['--json']]) {
      const r = await dqform(['show', file, ...extra], { cwd: ws.dir, env });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/Error: /);
      expect(r.out + r.err).not.toContain(short);
      expect(r.out + r.err).not.toContain('Sh0rt-S3');
      expect(r.out + r.err).not.toContain('Other-Stack-S3cret-41aa');
    }
  }
  // the secret registered before the file is read: masked even in the parser's words
  const named = await dqform(['show', 'leaky.json'], { cwd: ws.dir, env });
  expect(named.err).toMatch(/cannot read plan file leaky\.json: it is not JSON/);
  // an argument that holds a secret, echoed in an error before any client exists: masked, as the
  // secrets were registered before the arguments were read
  for (const secret of [short, 'Other-Stack-S3cret-41aa']) {
    const r = await dqform(['show', `${secret}.json`], { cwd: ws.dir, env });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot read plan file \[REDACTED\]\.json/);
    expect(r.out + r.err).not.toContain(secret);
  }
});
