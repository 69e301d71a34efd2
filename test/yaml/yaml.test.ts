/**
 * The YAML front end: same manifest as the constructs, errors at file:line:column, JSON Schema fresh, CLI.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdktf';
import { build as buildQuickstart } from '../../examples/quickstart/main';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { main } from '../../src/cli/main';
import { manifestFromTerraformJson, ManifestError } from '../../src/engine/manifest';
import { resolveManifest, type Resolution } from '../../src/engine/resolve';
import { loadYamlWorkspace, manifestFromYaml } from '../../src/engine/yaml';
import { dqformJsonSchemaText, DQFORM_JSON_SCHEMA_FILE } from '../../schemas/tools/generate-json-schema';
import type { Diagnostic } from '../../schemas/model/plan';
import { synth } from '../constructs/synth';

const ROOT = path.resolve(__dirname, '..', '..');
const EXAMPLE = path.join(ROOT, 'examples', 'yaml', 'dqform.yaml');

/** The comparable part of a resolution: everything but where it was declared. */
function comparable(r: Resolution) {
  return {
    namespace: r.namespace,
    diagnostics: r.diagnostics,
    removed: r.removed,
    resources: r.resources.map(({ source: _s, ...rest }) => rest),
  };
}

describe('YAML and TypeScript give the same manifest', () => {
  it('examples/yaml/dqform.yaml equals examples/quickstart after resolution (ids, fqns, references, configs)', () => {
    const tf = synth((app: App) => buildQuickstart(app), 'quickstart');
    const fromTs = resolveManifest(manifestFromTerraformJson(tf.json, { stack: 'quickstart' }), 'demo');
    const fromYaml = resolveManifest(loadYamlWorkspace(EXAMPLE), 'demo');
    expect(fromYaml.diagnostics).toEqual([]);
    expect(fromYaml.resources.length).toBe(8);
    expect(comparable(fromYaml)).toEqual(comparable(fromTs));
    // and the YAML sources point into the file
    for (const r of fromYaml.resources) expect(r.source).toMatch(/examples\/yaml\/dqform\.yaml:\d+:3$/);
  });
});

it('schemas/dqform.schema.json is generated from the zod schemas (run `npm run schema` when this fails)', () => {
  expect(fs.readFileSync(DQFORM_JSON_SCHEMA_FILE, 'utf8')).toBe(dqformJsonSchemaText());
  const js = JSON.parse(dqformJsonSchemaText()) as { properties: Record<string, unknown>; additionalProperties: unknown };
  expect(Object.keys(js.properties)).toEqual(expect.arrayContaining(['namespace', 'owners', 'alerts', 'sqlTestDeploymentRules', 'moved', 'import', 'removed']));
  expect(js.additionalProperties).toBe(false);
});

function errorsOf(text: string): Diagnostic[] {
  try {
    manifestFromYaml(text, { file: 'w.yaml' });
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  return [];
}

const OWNER = 'owners:\n  team:\n    title: Team\n';
const cases: { why: string; text: string; expect: { summary: RegExp; source: string; hint?: RegExp }[] }[] = [
  { why: 'YAML syntax error: points at the bad token', text: 'namespace: a\nowners:\n  team: {title: "x"\n', expect: [{ summary: /^YAML: /, source: 'w.yaml:4:1' }] },
  { why: 'unknown top-level section with a suggestion', text: 'namespace: a\nowner:\n  team: {title: x}\n', expect: [{ summary: /unknown section "owner"/, source: 'w.yaml:2:1', hint: /Did you mean "owners"/ }] },
  { why: 'unknown field inside a resource (typo)', text: 'namespace: a\nowners:\n  team:\n    titel: Team\n', expect: [{ summary: /unknown field "titel" in owners.team/, source: 'w.yaml:4:5', hint: /"title"/ }, { summary: /title: required, missing/, source: 'w.yaml:3:3' }] },
  { why: 'unknown field deep in a oneof member', text: `namespace: a\nsqlTests:\n  t:\n    name: T\n    platform: { integrationId: i }\n    recurrenceRule: FREQ=DAILY\n    template:\n      identifier: { warehouseAccountTable: { account: a, database: d, schema: s, table: t } }\n      notNull: { colums: [id] }\n`, expect: [{ summary: /unknown field "colums" in sqlTests.t.template.notNull/, source: 'w.yaml:9:18' }, { summary: /notNull.columns: required, missing/, source: 'w.yaml:9:7' }] },
  { why: 'wrong type: a number where a string is expected', text: 'namespace: a\nowners:\n  team:\n    title: 42\n', expect: [{ summary: /^title: .*string/, source: 'w.yaml:4:12' }] },
  { why: 'enum value misspelled', text: `namespace: a\n${OWNER}dataProducts:\n  p:\n    title: P\n    priority: PRIORITY_P9\n`, expect: [{ summary: /^priority: /, source: 'w.yaml:8:15' }] },
  { why: 'friendly reference to an owner that is not declared', text: `namespace: a\n${OWNER}ownerships:\n  o:\n    owner: nobody\n    query: with_tag("x")\n`, expect: [{ summary: /owner: no owner named "nobody"/, source: 'w.yaml:7:12' }] },
  { why: 'Terraform-style reference to nothing', text: `namespace: a\n${OWNER}ownerships:\n  o:\n    ownerId: \${dq_owner.ghost.id}\n    query: with_tag("x")\n`, expect: [{ summary: /reference \$\{dq_owner.ghost.id\} points to nothing/, source: 'w.yaml:7:14' }] },
  { why: 'ownership needs one of owner and ownerId', text: `namespace: a\n${OWNER}ownerships:\n  o:\n    query: with_tag("x")\n`, expect: [{ summary: /exactly one of owner, ownerId/, source: 'w.yaml:7:5' }] },
  { why: 'bad resource name (the key)', text: 'namespace: a\nowners:\n  "my team":\n    title: T\n', expect: [{ summary: /name starts with a letter/, source: 'w.yaml:3:3' }] },
  { why: 'moved to an address that is not declared, import into nothing, removed and declared at once', text: `namespace: a\n${OWNER}moved:\n  - { from: dq_owner.old, to: dq_owner.new }\nimport:\n  - { to: dq_owner.x, id: abc }\nremoved:\n  - dq_owner.team\n`, expect: [{ summary: /moved\[0\]: dq_owner.new is not declared/, source: 'w.yaml:6:31' }, { summary: /import\[0\]: dq_owner.x is not declared/, source: 'w.yaml:8:11' }, { summary: /removed\[0\]: dq_owner.team is declared and removed/, source: 'w.yaml:10:5' }] },
  { why: 'missing namespace and a bad one elsewhere: every error is collected', text: 'owners:\n  team:\n    title: 1\n  other:\n    contacts: []\n', expect: [{ summary: /namespace/, source: 'w.yaml:1:1' }, { summary: /^title: /, source: 'w.yaml:3:12' }, { summary: /^title: required, missing/, source: 'w.yaml:4:3' }] },
];

describe.each(cases)('YAML errors point at file:line:column: $why', ({ text, expect: want }) => {
  it('reports each expected diagnostic', () => {
    const diags = errorsOf(text);
    expect(diags.length).toBeGreaterThanOrEqual(want.length);
    for (const w of want) {
      const hit = diags.find((d) => w.summary.test(d.summary) && d.source === w.source && (!w.hint || w.hint.test(d.hint ?? '')));
      if (!hit) throw new Error(`no diagnostic ${w.summary} at ${w.source}; got:\n${diags.map((d) => `${d.source} ${d.summary} (${d.hint ?? ''})`).join('\n')}`);
    }
  });
});

it('friendly forms and ${} references load into the same config', () => {
  const friendly = manifestFromYaml(`namespace: a\n${OWNER}dataProducts:\n  p: { title: P }\nownerships:\n  o: { owner: team, dataProduct: p }\nalerts:\n  x:\n    name: X\n    incidentLifecycle:\n      targets: [{ owner: team }]\n      settings: { states: [STATE_OPEN] }\n`, { file: 'a.yaml' });
  const raw = manifestFromYaml(`namespace: a\n${OWNER}dataProducts:\n  p: { title: P }\nownerships:\n  o: { ownerId: "\${dq_owner.team.id}", selection: { dataproductId: "\${dq_data_product.p.id}" } }\nalerts:\n  x:\n    name: X\n    incidentLifecycle:\n      targets: [{ owner: { ownerPath: "\${dq_owner.team.entity_id}" } }]\n      settings: { states: [STATE_OPEN] }\n`, { file: 'a.yaml' });
  const strip = (m: typeof raw) => m.resources.map(({ source: _s, ...r }) => r);
  expect(strip(friendly)).toEqual(strip(raw));
  const res = resolveManifest(friendly, 'w');
  expect(res.diagnostics).toEqual([]);
  const owner = res.resources.find((r) => r.address === 'dq_owner.team')!;
  expect(res.resources.find((r) => r.address === 'dq_ownership.o')!.desired.ownerId).toBe(owner.id);
});

describe('CLI with a YAML workspace', () => {
  let emu: RunningEmulator;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeAll(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo' });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-yaml-'));
    env = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint!, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', NO_COLOR: '1' };
  });
  afterAll(async () => {
    await emu?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  const run = async (argv: string[], cwd = dir) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd, isTty: false });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  it('validate --file, plan, apply, plan again (dqform.yaml auto-detected in the cwd)', async () => {
    expect((await run(['validate', '--file', EXAMPLE])).code).toBe(0);
    fs.copyFileSync(EXAMPLE, path.join(dir, 'dqform.yaml'));
    const p1 = await run(['plan', '--detailed-exitcode']);
    expect(p1.out).toMatch(/8 to add/);
    // the rules' effects, the ones REST cannot carry over the emulator's gRPC port
    expect(p1.out).toMatch(/SQL tests to create: \d+/);
    expect(p1.out).not.toMatch(/effects unknown/);
    expect(p1.code).toBe(2);
    const a = await run(['apply', '--auto-approve']);
    expect(a.code).toBe(0);
    const p2 = await run(['plan', '--detailed-exitcode']);
    expect(p2.code).toBe(0);
    expect((await run(['drift'])).code).toBe(0);
  });

  it('a mistake in the YAML is a diagnostic with file:line:column, exit 1, no stack trace', async () => {
    const f = path.join(dir, 'bad.yaml');
    fs.writeFileSync(f, 'namespace: a\nowners:\n  team:\n    titel: Team\n');
    const r = await run(['validate', '--file', f]);
    expect(r.code).toBe(1);
    // named relative to the working directory, so plans do not depend on where the checkout lives
    expect(r.err).toContain(`${path.relative(dir, f)}:4:5`);
    expect(r.err).not.toContain(dir);
    expect(r.err).toMatch(/unknown field "titel"/);
    expect(r.err).not.toMatch(/\n\s+at .*\.ts:\d+/);
  });
});

describe('removed entries', () => {
  it('take destroy: false (stop managing, leave in place) like Terraform JSON lifecycle.destroy', () => {
    const yaml = 'namespace: a\nremoved:\n  - dq_owner.gone\n  - { from: dq_domain.kept, destroy: false }\n  - { from: dq_owner.pinned, id: 5eed0000-0000-4000-8000-000000000e7a }\n';
    const fromYaml = manifestFromYaml(yaml, { file: 'w.yaml' });
    const fromTf = manifestFromTerraformJson(
      {
        provider: { dq: [{ namespace: 'a' }] },
        removed: [
          { from: 'dq_owner.gone', lifecycle: { destroy: true } },
          { from: 'dq_domain.kept', lifecycle: { destroy: false } },
          { from: 'dq_owner.pinned', id: '5eed0000-0000-4000-8000-000000000e7a' },
        ],
      },
      { stack: 'a' },
    );
    expect(fromYaml.removed).toEqual([
      { from: 'dq_owner.gone', destroy: true },
      { from: 'dq_domain.kept', destroy: false },
      { from: 'dq_owner.pinned', destroy: true, id: '5eed0000-0000-4000-8000-000000000e7a' },
    ]);
    expect(fromTf.removed).toEqual(fromYaml.removed);
  });
});

describe('lifecycle in YAML (issue 12: mutation testing found preventDestroy and ignoreChanges: all ignored unnoticed)', () => {
  const TF = (lifecycle: Record<string, unknown>) =>
    manifestFromTerraformJson({ provider: { dq: [{ namespace: 'a' }] }, resource: { dq_owner: { team: { title: 'T', lifecycle } } } }, { stack: 'a' }).resources[0].lifecycle;
  const YAML = (lifecycle: string) => manifestFromYaml(`namespace: a\nowners:\n  team:\n    title: T\n    lifecycle: ${lifecycle}\n`, { file: 'w.yaml' }).resources[0].lifecycle;
  it.each([
    ['{ preventDestroy: true }', { prevent_destroy: true }, { preventDestroy: true, ignoreChanges: undefined }],
    ['{ ignoreChanges: all }', { ignore_changes: 'all' }, { preventDestroy: undefined, ignoreChanges: 'all' }],
    ['{ ignoreChanges: [title, contacts] }', { ignore_changes: ['title', 'contacts'] }, { preventDestroy: undefined, ignoreChanges: ['title', 'contacts'] }],
    ['{ preventDestroy: false }', { prevent_destroy: false }, { preventDestroy: undefined, ignoreChanges: undefined }],
  ])('%s reads as the Terraform JSON lifecycle does', (yaml, tf, expected) => {
    expect(YAML(yaml)).toEqual(expected);
    expect(TF(tf)).toEqual(expected);
  });
});
