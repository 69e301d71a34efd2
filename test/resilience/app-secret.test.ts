/**
 * The CDKTF app never sees the client secret (issue 23). The app here is hostile: each time it
 * runs it reads its own environment and the environment of every ancestor process it can
 * (`/proc/<pid>/environ`, walking up through `/proc/<pid>/stat`), and appends all of it to
 * found.log. The documented flow is run as CI runs it: `dqform synth` in a step without
 * credentials, then `plan --out` and `apply PLANFILE` with the secret; and again after an app
 * file gets a future mtime (which made plan run the app beside the secret before issue 23). The
 * secret must appear nowhere in what the app found. A control run (synth with the secret set,
 * --allow-secret-env) shows that the probe does find a secret where one is.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { dqform, Workspace } from '../cli/helpers';
import { emulator, type RunningEmulator } from './helpers';

const CLIENT_ID = 'app-probe-admin';
const SECRET = 'AppProbe-S3cret-4e1d0c9b';
/** Set for every dqform run: found in the dump, it shows the probe can read its ancestors' environments. */
const MARKER = 'DQFORM_PROBE_MARKER=ancestor-visible-91f3';

const PROBE_APP = `
const fs = require('fs'), path = require('path');
const seen = ['own ' + Object.entries(process.env).map(([k, v]) => k + '=' + v).join('\\n')];
let pid = process.pid;
for (let i = 0; i < 64 && pid > 1; i++) {
  let stat;
  try { stat = fs.readFileSync('/proc/' + pid + '/stat', 'utf8'); } catch { break; }
  const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  if (!ppid) break;
  try { seen.push('pid ' + ppid + ' ' + fs.readFileSync('/proc/' + ppid + '/environ', 'utf8').split('\\0').join('\\n')); } catch (e) { seen.push('pid ' + ppid + ' unreadable ' + e.code); }
  pid = ppid;
}
fs.appendFileSync('found.log', '=== run\\n' + seen.join('\\n') + '\\n');
const dir = path.join(process.env.CDKTF_OUTDIR, 'stacks', 'probe');
fs.mkdirSync(dir, { recursive: true });
fs.writeFileSync(path.join(dir, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'probe' }] }, resource: { dq_owner: { team: { title: 'Probe team' } } } }));
`;

const onLinux = fs.existsSync('/proc/self/environ');
let emu: RunningEmulator;
const workspaces: Workspace[] = [];
beforeAll(async () => {
  emu = await emulator();
  emu.app.addCredential(CLIENT_ID, SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

function probeWorkspace(): Workspace {
  const ws = new Workspace();
  workspaces.push(ws);
  fs.writeFileSync(ws.path('app.js'), PROBE_APP);
  fs.writeFileSync(ws.path('cdktf.json'), JSON.stringify({ app: 'node app.js' }));
  return ws;
}
const [markerKey, markerValue] = MARKER.split('=');
const credentials = { DQ_BASE_URL: '', DQ_CLIENT_ID: CLIENT_ID, DQ_CLIENT_SECRET: SECRET };
const run = (ws: Workspace, args: string[], env: Record<string, string | undefined>) => dqform(args, { cwd: ws.dir, env: { [markerKey]: markerValue, ...env }, timeoutMs: 60_000 });
const found = (ws: Workspace) => (fs.existsSync(ws.path('found.log')) ? fs.readFileSync(ws.path('found.log'), 'utf8') : '');
const runsOf = (ws: Workspace) => found(ws).split('=== run').length - 1;

(onLinux ? it : it.skip)('the documented flow (synth without credentials, then plan and apply with them): the app finds no secret in its own or any ancestor environment, even with a future-dated app file', async () => {
  const ws = probeWorkspace();
  credentials.DQ_BASE_URL = emu.url;
  // the CI step that synthesises: no credentials in it
  const synth = await run(ws, ['synth'], { DQ_BASE_URL: emu.url });
  expect(synth.code).toBe(0);
  expect(runsOf(ws)).toBe(1);
  // the probe read its parent (dqform synth): the marker every dqform run carries is in the dump
  expect(found(ws)).toContain(MARKER);

  // the credentialed steps
  const plan = await run(ws, ['plan', '--out', 'plan.json'], credentials);
  expect(plan.code).toBe(0);
  const apply = await run(ws, ['apply', 'plan.json'], credentials);
  expect(apply.out).toMatch(/Apply complete: 1 applied/);
  expect(apply.code).toBe(0);

  // a pull request's app file dated in the future: plan and apply stop, they do not run the app
  fs.utimesSync(ws.path('app.js'), new Date(), new Date(Date.now() + 3_600_000));
  const stale: { args: string[]; code: number | null; err: string }[] = [];
  for (const args of [['plan'], ['apply', '--auto-approve'], ['drift'], ['destroy', '--auto-approve']]) stale.push({ args, ...(await run(ws, args, credentials)) });

  expect(found(ws)).not.toContain(SECRET);
  expect(found(ws)).not.toMatch(/DQ_CLIENT_SECRET=/);
  expect(runsOf(ws)).toBe(1);
  for (const r of stale) {
    expect({ args: r.args, code: r.code }).toEqual({ args: r.args, code: 1 });
    expect(r.err).toMatch(/app\.js is newer than cdktf\.out: run dqform synth first/);
  }
}, 120_000);

(onLinux ? it : it.skip)('control: synth run with the secret in its environment (--allow-secret-env) is readable by the app through its parent, which is why synth warns', async () => {
  const ws = probeWorkspace();
  const r = await run(ws, ['synth', '--allow-secret-env'], { DQ_CLIENT_SECRET: SECRET, CI: 'true' });
  expect(r.code).toBe(0);
  expect(r.err).toMatch(/Warning: DQ_CLIENT_SECRET is set, and synth runs the app, which can read it/);
  // withheld from the app's own environment, but its parent's still holds it
  const own = found(ws).split('\npid ')[0];
  expect(own).not.toContain(SECRET);
  expect(found(ws)).toContain(SECRET);
}, 60_000);
