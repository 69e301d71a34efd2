/**
 * The per-kind end-to-end of `dq_saved_view` against a real emulator over HTTP, through the CLI as a
 * user would (YAML `savedViews:`): plan, apply, plan again empty, drift after a change made in the
 * platform, per-user pins never shown, import round trip (YAML plans empty; TypeScript renders the
 * `SavedView` construct), prune by the namespace tag (a view made in the UI is left alone), and
 * apply's scope check before any write (edit or admin scope).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { PlatformClient } from '../../src/client';
import { deriveId } from '../../src/engine/identity';
import { SetPinRequest } from '../../schemas/platform/saved-views';
import { z } from 'zod';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let dir: string;
let raw: PlatformClient;
const NS = 'e2e-views';

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('views-editor', 'demo-secret', ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_READ'], 'demo');
  emu.app.addCredential('views-reader', 'demo-secret', ['SCOPE_SAVED_VIEW_READ'], 'demo');
  raw = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-e2e-views-'));
});
afterAll(async () => {
  await raw.close();
  await emu.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

async function cli(args: string[], creds = 'demo-admin') {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: creds, DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const TRIAGE = `  triage:
    title: Open issues on PII tables
    description: The privacy team triages these every morning
    context: issues
    selection: 'with_tag("pii")'
    config: { columns: [title, severity], sortBy: severity, sortDescending: true }
    visibility: VISIBILITY_WORKSPACE
    grants:
      - { groupId: privacy-team, permission: PERMISSION_EDIT }
      - { userEmail: dpo@example.com, permission: PERMISSION_EDIT }
`;
const SCRATCH = `  scratch:
    title: My scratch view
`;
const yaml = (views: string) => `namespace: ${NS}\nsavedViews:\n${views}`;
const write = (views: string) => fs.writeFileSync(path.join(dir, 'dqform.yaml'), yaml(views));
const plan = (creds?: string) => cli(['plan', '--detailed-exitcode', '--file', 'dqform.yaml'], creds);
const applyNow = (creds?: string) => cli(['apply', '--auto-approve', '--file', 'dqform.yaml'], creds);

it('plan, apply, plan empty, drift, pins ignored, import round trip, prune; apply checks the edit-or-admin scope first', async () => {
  const triageId = deriveId('demo', NS, 'dq_saved_view', 'triage');
  const scratchId = deriveId('demo', NS, 'dq_saved_view', 'scratch');
  const uiMade = randomUUID();
  await raw.savedViews.upsert({ id: uiMade, title: 'Made in the UI', visibility: 'VISIBILITY_WORKSPACE' });

  write(TRIAGE + SCRATCH);
  // a credential that may only read saved views is refused before any write, naming the scopes
  const refused = await applyNow('views-reader');
  expect(refused.code).toBe(1);
  expect(refused.err).toContain('SCOPE_SAVED_VIEW_EDIT');
  expect(refused.err).toContain('SCOPE_SAVED_VIEW_ADMIN');
  expect(await raw.savedViews.batchGet([triageId, scratchId])).toEqual({});

  let r = await plan();
  expect(r.code).toBe(2);
  expect(r.out).toMatch(/# dq_saved_view\.triage \(saved view "Open issues on PII tables"\) will be created/);
  expect(r.out).toMatch(/Plan: 2 to add, 0 to change, 0 to destroy/);
  // the edit scope suffices for views the credential makes
  r = await applyNow('views-editor');
  expect(r.out).toMatch(/Apply complete: 2 applied, 0 failed/);
  const made = await raw.savedViews.batchGet([triageId, scratchId]);
  expect(made[triageId]).toMatchObject({ title: 'Open issues on PII tables', visibility: 'VISIBILITY_WORKSPACE', selection: { resolverQl: 'with_tag("pii")' }, ownerId: 'client:views-editor' });
  r = await plan();
  expect(r.out).toMatch(/No changes/);
  expect(r.code).toBe(0);

  // a change in the platform is drift; apply puts the code's value back
  await raw.savedViews.upsert({ id: triageId, description: 'edited in the UI', grants: { grants: [] } });
  r = await cli(['drift', '--file', 'dqform.yaml']);
  expect(r.code).toBe(2);
  expect(r.out).toMatch(/Drift detected/);
  expect(r.out).toMatch(/description/);
  expect(r.out).toMatch(/grants/);
  expect((await applyNow()).code).toBe(0);
  expect((await cli(['drift', '--file', 'dqform.yaml'])).code).toBe(0);

  // a user's pin is theirs: never a change
  await raw.http.call({ method: 'POST', path: '/api/saved-views/v1/set-pin', body: { id: triageId, pinned: true }, requestSchema: SetPinRequest, responseSchema: z.object({}), idempotent: true });
  expect((await plan()).code).toBe(0);

  // import round trip: the namespace's views, and only those, plan empty from the imported YAML
  r = await cli(['import', '--namespace', NS, '--out', 'imported.yaml']);
  expect(r.code).toBe(0);
  const imported = fs.readFileSync(path.join(dir, 'imported.yaml'), 'utf8');
  expect(imported).toMatch(/savedViews:/);
  expect(imported).toContain('selection: with_tag("pii")');
  expect(imported).not.toContain('Made in the UI');
  r = await cli(['plan', '--detailed-exitcode', '--file', 'imported.yaml']);
  expect(r.out).toMatch(/No changes/);
  expect(r.code).toBe(0);
  r = await cli(['import', '--namespace', NS, '--out', 'main.ts']);
  expect(r.code).toBe(0);
  const ts = fs.readFileSync(path.join(dir, 'main.ts'), 'utf8');
  expect(ts).toMatch(/new SavedView\(stack, 'open_issues_on_pii_tables', \{\n {4}id: '[0-9a-f-]{36}',\n {4}title: 'Open issues on PII tables',/);
  expect(ts).toMatch(/new SavedView\(stack, 'my_scratch_view', \{\n {4}id: '[0-9a-f-]{36}',\n {4}title: 'My scratch view',\n {2}\}\);/);
  expect(ts).toContain(`selection: 'with_tag("pii")'`);

  // dropped from code: pruned by the namespace tag of its id; the UI's view stays
  write(TRIAGE);
  r = await plan();
  expect(r.out).toContain(`# dq_saved_view["${scratchId}"] (saved view "My scratch view") will be destroyed\n  #   (saved view "My scratch view" is no longer declared in namespace "${NS}")`);
  expect(r.out).not.toContain('Made in the UI');
  expect(r.out).toMatch(/Plan: 0 to add, 0 to change, 1 to destroy/);
  expect((await applyNow()).code).toBe(0);
  expect((await plan()).code).toBe(0);
  const left = await raw.savedViews.batchGet([triageId, scratchId, uiMade]);
  expect(Object.keys(left).sort()).toEqual([triageId, uiMade].sort());
}, 60_000);
