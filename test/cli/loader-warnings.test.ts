/**
 * The loader's warnings (resources of another provider in cdk.tf.json, one warning per type; a
 * YAML tag dqform does not know) reach the user when nothing else is wrong: `validate` and `plan`
 * print each one, with its address, construct path (or file:line:column) and what to do, in text and in `--json`, and
 * still exit 0; a warm run (the resolution cache) shows them as a cold one. In-process through
 * `main` against an emulator started here on port 0.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import { StreamLine } from '../../schemas/model/json-stream';
import { startEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { Workspace } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
let cacheDir: string;
const SECRET = 'loader-warn-S3cret-5e1f';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0 });
  emu.app.addCredential('loader-warn', SECRET, SCOPES);
  cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-loader-warn-cache-'));
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
  fs.rmSync(cacheDir, { recursive: true, force: true });
});

async function run(ws: Workspace, argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'loader-warn', DQ_CLIENT_SECRET: SECRET, DQFORM_CACHE_DIR: cacheDir };
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: ws.dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n'), outLines: out };
}

const streamLines = (out: string[]) => out.flatMap((s) => s.split('\n')).map((l) => StreamLine.parse(JSON.parse(l)));

/** A stack with an owner and an S3 bucket (another provider's resource), as synth writes them. */
function mixedStack(ns: string): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, {
    dq_owner: { team: { title: 'Team', '//': { metadata: { path: `${ns}/team` } } } },
    aws_s3_bucket: { logs: { bucket: 'logs', '//': { metadata: { path: `${ns}/logs` } } } },
  });
  return w;
}

const WARNING = [
  "Warning: aws_s3_bucket: 1 resource of type aws_s3_bucket is not dqform's and is ignored: aws_s3_bucket.logs",
  '  at lw-STACK/logs',
  '  dqform plans and applies dq_* resources only: deploy aws_s3_bucket with its own provider (cdktf deploy). Nothing to do if that is intended.',
].join('\n');
const warningOf = (ns: string) => WARNING.replace('lw-STACK', ns);

describe("another provider's resource in cdk.tf.json", () => {
  it('validate prints the warning (address, construct path, what to do) and exits 0, cold and warm alike', async () => {
    const ws = mixedStack('lw-validate');
    for (const pass of ['cold', 'warm']) {
      const r = await run(ws, ['validate']);
      expect({ pass, code: r.code }).toEqual({ pass, code: 0 });
      expect(r.err).toBe(warningOf('lw-validate'));
      expect(r.out).toBe('Stack lw-validate (namespace "lw-validate"): 1 resource(s), valid.');
    }
  });

  it('validate --json: the warning is a diagnostic line at level warn, counted in validate_result; exit 0', async () => {
    const ws = mixedStack('lw-json');
    const r = await run(ws, ['validate', '--json']);
    expect(r.code).toBe(0);
    const ls = streamLines(r.outLines);
    expect(ls.map((l) => l.type)).toEqual(['version', 'diagnostic', 'validate_result']);
    expect(ls[1]).toMatchObject({
      '@level': 'warn',
      '@message': "Warning: aws_s3_bucket: 1 resource of type aws_s3_bucket is not dqform's and is ignored: aws_s3_bucket.logs",
      diagnostic: { severity: 'warning', address: 'aws_s3_bucket', source: 'lw-json/logs', hint: expect.stringMatching(/^dqform plans and applies dq_\* resources only/) },
    });
    expect(ls[2]).toMatchObject({ valid: true, error_count: 0, warning_count: 1, resources: 1 });
  });

  it('plan prints the same warning with the plan, and exits 0; plan --json has it as a diagnostic line', async () => {
    const ws = mixedStack('lw-plan');
    const p = await run(ws, ['plan']);
    expect(p.code).toBe(0);
    expect(p.out).toContain(warningOf('lw-plan'));
    expect(p.out).toMatch(/Plan: 1 to add, 0 to change, 0 to destroy\./);
    const j = await run(ws, ['plan', '--json']);
    expect(j.code).toBe(0);
    const diags = streamLines(j.outLines).filter((l) => l.type === 'diagnostic');
    expect(diags).toEqual([expect.objectContaining({ '@level': 'warn', diagnostic: expect.objectContaining({ address: 'aws_s3_bucket', source: 'lw-plan/logs' }) })]);
  });

  it('many resources of one type: one warning for the type (five addresses, then how many more), not one per resource', async () => {
    const ws = new Workspace();
    workspaces.push(ws);
    const ns = 'lw-many';
    const buckets = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`b${String(i).padStart(2, '0')}`, { bucket: `b${i}`, '//': { metadata: { path: `${ns}/b${i}` } } }]));
    ws.stack(ns, { dq_owner: { team: { title: 'Team' } }, aws_s3_bucket: buckets, aws_iam_role: { r: {} } });
    const r = await run(ws, ['validate']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      [
        "Warning: aws_iam_role: 1 resource of type aws_iam_role is not dqform's and is ignored: aws_iam_role.r",
        '  dqform plans and applies dq_* resources only: deploy aws_iam_role with its own provider (cdktf deploy). Nothing to do if that is intended.',
        "Warning: aws_s3_bucket: 12 resources of type aws_s3_bucket are not dqform's and are ignored: aws_s3_bucket.b00, aws_s3_bucket.b01, aws_s3_bucket.b02, aws_s3_bucket.b03, aws_s3_bucket.b04 and 7 more",
        `  at ${ns}/b0`,
        '  dqform plans and applies dq_* resources only: deploy aws_s3_bucket with its own provider (cdktf deploy). Nothing to do if that is intended.',
      ].join('\n'),
    );
  });
});

describe('a YAML workspace', () => {
  it('a tag dqform does not know: validate prints the warning at its line and column, with what to do, and exits 0', async () => {
    const ws = new Workspace();
    workspaces.push(ws);
    fs.writeFileSync(ws.path('dqform.yaml'), 'namespace: lw-yaml\nowners:\n  team:\n    title: !shout Team\n');
    const r = await run(ws, ['validate']);
    expect(r.code).toBe(0);
    expect(r.err).toBe(
      ['Warning: YAML: Unresolved tag: !shout', '  at dqform.yaml:4:12', '  dqform ignores it and reads the value as written; remove it to silence this warning.'].join('\n'),
    );
    expect(r.out).toMatch(/^Stack lw-yaml \(namespace "lw-yaml"\): 1 resource\(s\), valid\.$/);
  });
});
