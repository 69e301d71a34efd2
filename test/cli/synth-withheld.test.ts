/**
 * The app never receives a stack's credentials (issue 21: credentials from the variables a stack
 * names): DQ_CLIENT_ID/SECRET, every DQ_*CLIENT_ID/SECRET, and the variables the synthesised
 * stacks name in credentials_from are withheld from it, and masked in what it prints.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runApp, withheldVariables } from '../../src/cli/synth';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-withheld-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const ENV = {
  PATH: process.env.PATH,
  DQ_CLIENT_SECRET: 'default-secret-0000',
  DQ_PROD_CLIENT_ID: 'prod-id-1111',
  DQ_PROD_CLIENT_SECRET: 'prod-secret-2222',
  TEAM_SECRET_VAR: 'team-secret-3333',
  HARMLESS: 'kept',
};

it('withholds DQ_*CLIENT_ID/SECRET and the variables a synthesised stack names; masks their values in what the app prints', () => {
  const out = path.join(dir, 'cdktf.out');
  fs.mkdirSync(path.join(out, 'stacks', 'prod'), { recursive: true });
  fs.writeFileSync(path.join(out, 'stacks', 'prod', 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'p', credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'TEAM_SECRET_VAR' } }] } }));
  expect(withheldVariables(ENV, out)).toEqual(['DQ_CLIENT_ID', 'DQ_CLIENT_SECRET', 'DQ_PROD_CLIENT_ID', 'DQ_PROD_CLIENT_SECRET', 'TEAM_SECRET_VAR']);
  fs.writeFileSync(
    path.join(dir, 'app.js'),
    "for (const k of ['DQ_CLIENT_SECRET', 'DQ_PROD_CLIENT_ID', 'DQ_PROD_CLIENT_SECRET', 'TEAM_SECRET_VAR', 'HARMLESS']) console.log(k + '=' + (process.env[k] ?? 'unset'));\nconsole.log('found elsewhere: team-secret-3333');",
  );
  const printed: string[] = [];
  const r = runApp(`"${process.execPath}" app.js`, dir, out, ENV, (t) => printed.push(t));
  expect(r.ok).toBe(true);
  const text = printed.join('\n');
  expect(text).toContain('DQ_PROD_CLIENT_SECRET=unset');
  expect(text).toContain('DQ_PROD_CLIENT_ID=unset');
  expect(text).toContain('TEAM_SECRET_VAR=unset');
  expect(text).toContain('DQ_CLIENT_SECRET=unset');
  expect(text).toContain('HARMLESS=kept');
  expect(text).not.toContain('team-secret-3333');
});
