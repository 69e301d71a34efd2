/**
 * Issue 25 acceptance: every command run with integration secrets given (one from an
 * environment variable, one from a file), through the spawned CLI with DQFORM_LOG=debug and
 * DQFORM_DEBUG=1: synth, validate, plan, plan --out (text and the markdown comment), show (text
 * and markdown), apply of the saved plan (the secrets are sent), a rotation (sent again), drift,
 * import, destroy. No stdout, stderr, plan file, markdown file, cdktf.out file or imported file
 * holds a secret value; the emulator did receive them (the checks can fail).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { dqform, Workspace, type Run } from './helpers';

const ENV_SECRET = 'Int-Env-S3cret-41c9e2d7';
const FILE_SECRET = 'Int-File-S3cret-8b06f3a5';
const ROTATED = 'Int-Rotated-S3cret-5e7a90c1';

let emu: RunningEmulator;
const ws = new Workspace();
/** Imports go outside the app's folder (a file newer than cdktf.out there makes the next command ask for synth). */
const imports = new Workspace();
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
});
afterAll(async () => {
  await emu.close();
  ws.remove();
  imports.remove();
});

/** A CDKTF app in plain JavaScript: writes the stack in stack.json to $CDKTF_OUTDIR (what `Integration` with `Secret.fromEnv`/`fromFile` synthesises). */
const APP = `
const fs = require('fs'), path = require('path');
const dir = path.join(process.env.CDKTF_OUTDIR, 'stacks', 'int-leak');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'cdk.tf.json'), fs.readFileSync('stack.json', 'utf8'));
`;
const stack = (version: number) => ({
  provider: { dq: [{ namespace: 'int-leak' }] },
  resource: {
    dq_integration: {
      pg: { title: 'Warehouse PG', config: { relational: { host: 'db.example.com', port: 5432, user: 'dq', password: { from_env: 'LEAK_PG_PASSWORD' }, password_version: version } } },
      wh: { title: 'Warehouse', enabled: false, config: { warehouse_account: { account: 'acme', user: 'dq', key_pair: { private_key_secret: { from_file: 'wh.key' }, public_key: 'pub' } } } },
    },
  },
});

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): [string, string][] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).flatMap((f) => {
    const p = path.join(dir, f);
    return fs.statSync(p).isFile() ? [[p, fs.readFileSync(p, 'utf8')] as [string, string]] : [];
  });
}

it('no command prints, logs or writes an integration secret value', async () => {
  fs.writeFileSync(ws.path('app.js'), APP);
  fs.writeFileSync(ws.path('cdktf.json'), JSON.stringify({ app: 'node app.js' }));
  fs.writeFileSync(ws.path('stack.json'), JSON.stringify(stack(1)));
  fs.writeFileSync(ws.path('wh.key'), `${FILE_SECRET}\n`);
  const env = (password: string) => ({ DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', DQFORM_LOG: 'debug', DQFORM_DEBUG: '1', LEAK_PG_PASSWORD: password });
  const runs: [string, Run, number][] = [];
  const keep = async (what: string, args: string[], code: number, password = ENV_SECRET) => runs.push([what, await dqform(args, { cwd: ws.dir, env: env(password), timeoutMs: 60_000 }), code]);

  await keep('synth', ['synth'], 0);
  await keep('validate', ['validate'], 0);
  await keep('plan', ['plan'], 0);
  await keep('plan --out --format markdown', ['plan', '--out', 'plan.json', '--format', 'markdown'], 0);
  fs.writeFileSync(ws.path('plan.md'), runs[runs.length - 1][1].out);
  await keep('show', ['show', 'plan.json'], 0);
  await keep('show --format markdown', ['show', 'plan.json', '--format', 'markdown'], 0);
  await keep('apply PLANFILE', ['apply', 'plan.json'], 0);
  await keep('drift', ['drift'], 0);
  // rotation: version 2, a new value in the variable
  fs.writeFileSync(ws.path('stack.json'), JSON.stringify(stack(2)));
  await keep('synth (version 2)', ['synth'], 0, ROTATED);
  await keep('plan (rotation)', ['plan', '--out', 'rotate.json'], 0, ROTATED);
  await keep('apply (rotation)', ['apply', 'rotate.json'], 0, ROTATED);
  // the platform did receive both values (the rotated one, and the file's without its newline)
  const stored = JSON.stringify(emu.app.store.workspace('demo').collection('integrations').filter(() => true));
  expect([stored.includes(ROTATED), stored.includes(`"${FILE_SECRET}"`), stored.includes(ENV_SECRET)]).toEqual([true, true, false]);
  await keep('import', ['import', '--namespace', 'int-leak', '--out', imports.path('imported.ts')], 0, ROTATED);
  await keep('import yaml', ['import', '--namespace', 'int-leak', '--out', imports.path('imported.yaml')], 0, ROTATED);
  await keep('destroy', ['destroy', '--auto-approve'], 0, ROTATED);

  expect(runs.map(([what, r]) => [what, r.code, r.code === 1 ? r.out + r.err : ''])).toEqual(runs.map(([what, , code]) => [what, code, '']));
  const all = runs.map(([, r]) => `${r.out}\n${r.err}`).join('\n');
  // the checks can fail: the runs traced HTTP calls, the plan noted the secrets, and the platform got them
  expect(all).toMatch(/debug: http POST \/api\/integrations\/v1 -> 200/);
  expect(all).toContain('config.relational.password (secret: rotated)');
  expect(all).toContain('config.warehouseAccount.keyPair.privateKeySecret (secret: set from its reference at apply)');
  const texts: [string, string][] = [
    ...runs.map(([what, r]) => [what, `${r.out}\n${r.err}`] as [string, string]),
    ...['plan.json', 'plan.md', 'rotate.json'].map((f) => [f, fs.readFileSync(ws.path(f), 'utf8')] as [string, string]),
    ...['imported.ts', 'imported.yaml'].map((f) => [f, fs.readFileSync(imports.path(f), 'utf8')] as [string, string]),
    ...filesUnder(ws.path('cdktf.out')),
  ];
  expect(texts.some(([, t]) => t.includes('LEAK_PG_PASSWORD'))).toBe(true);
  for (const [what, text] of texts) {
    for (const value of [ENV_SECRET, FILE_SECRET, ROTATED]) expect([what, text.includes(value)]).toEqual([what, false]);
  }
  // a dozen spawned commands: the default 30 s is too short on a loaded machine (as test/cli/commands.test.ts)
}, 120_000);
