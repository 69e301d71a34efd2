/**
 * The YAML front end's diagnostics asserted whole (summary, file:line:column, field, address,
 * hint), for the cases test/yaml/yaml.test.ts matches only by pattern: unknown sections with and
 * without a guess, unknown nested fields, required fields, the namespace, a bad name, friendly
 * and Terraform-style references to nothing, depends_on, ResolverQL in a friendly form, an empty
 * document; what the settings and lifecycle load into; the size limit, in memory and on disk.
 * (Issue 23: the engine's in-process tests.)
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ManifestError } from '../../src/engine/manifest';
import { loadYamlWorkspace, manifestFromYaml, MAX_YAML_BYTES } from '../../src/engine/yaml';
import type { Diagnostic } from '../../schemas/model/plan';

const OWNER = 'owners:\n  team:\n    title: Team\n';

function diagnostics(f: () => unknown): Diagnostic[] {
  try {
    f();
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a ManifestError');
}
const of = (text: string) => diagnostics(() => manifestFromYaml(text, { file: 'w.yaml' }));

test('an unknown section with no near name lists the known sections', () => {
  expect(of('namespace: a\nzzzzzzzz: 1\n')).toEqual([
    {
      severity: 'error',
      summary: 'unknown section "zzzzzzzz"',
      source: 'w.yaml:2:1',
      field: 'zzzzzzzz',
      hint: 'Known sections here: $schema, version, namespace, stack, region, baseUrl, grpcEndpoint, credentialsFrom, owners, domains, dataProducts, ownerships, alerts, monitorDeploymentRules, sqlTests, sqlTestDeploymentRules, integrations, savedViews, categorisationRules, moved, import, removed.',
    },
  ]);
});

test('an unknown section with a near name: did you mean', () => {
  expect(of('namespace: a\nowner:\n  team: {title: x}\n')).toEqual([{ severity: 'error', summary: 'unknown section "owner"', source: 'w.yaml:2:1', field: 'owner', hint: 'Did you mean "owners"?' }]);
});

test('an unknown field deep in a list: where, the guess, and the required field it left missing', () => {
  expect(of('namespace: a\nowners:\n  team:\n    title: T\n    contacts:\n      - { email: { recipientEmailz: [a@b.c] } }\n')).toEqual([
    {
      severity: 'error',
      summary: 'unknown field "recipientEmailz" in owners.team.contacts[0].email',
      source: 'w.yaml:6:20',
      field: 'owners.team.contacts[0].email.recipientEmailz',
      hint: 'Did you mean "recipientEmails"?',
    },
    { severity: 'error', summary: 'contacts[0].email.recipientEmails: required, missing', source: 'w.yaml:6:11', address: 'dq_owner.team', field: 'contacts[0].email.recipientEmails' },
  ]);
});

test('an unknown field with no near name lists the known fields; a missing one points at the entry', () => {
  expect(of('namespace: a\nowners:\n  team:\n    description: d\n')).toEqual([
    { severity: 'error', summary: 'unknown field "description" in owners.team', source: 'w.yaml:4:5', field: 'owners.team.description', hint: 'Known fields here: id, title, contacts, lifecycle, dependsOn.' },
    { severity: 'error', summary: 'title: required, missing', source: 'w.yaml:3:3', address: 'dq_owner.team', field: 'title' },
  ]);
});

test('no namespace: says how to start the file', () => {
  expect(of('owners:\n  team:\n    title: T\n')).toEqual([
    { severity: 'error', summary: 'namespace: required, missing', source: 'w.yaml:1:1', field: 'namespace', hint: 'Start the file with `namespace: <your namespace>`.' },
  ]);
});

test('a bad entry name is reported at its key, with the address it would have', () => {
  expect(of('namespace: a\nowners:\n  "my team":\n    title: T\n')).toEqual([
    { severity: 'error', summary: 'a name starts with a letter or "_" and has letters, digits, "_" and "-" only', source: 'w.yaml:3:3', address: 'dq_owner.my team' },
  ]);
});

test('a Terraform-style reference to nothing: at the value, what to declare', () => {
  expect(of(`namespace: a\n${OWNER}ownerships:\n  o:\n    ownerId: \${dq_owner.ghost.id}\n    query: with_tag("x")\n`)).toEqual([
    { severity: 'error', summary: 'ownerId: reference ${dq_owner.ghost.id} points to nothing', source: 'w.yaml:7:14', address: 'dq_ownership.o', field: 'ownerId', hint: 'Declare dq_owner.ghost in this file.' },
  ]);
});

test('dependsOn naming what the file does not declare: at the item, by index; a declared one is kept', () => {
  expect(of('namespace: a\nowners:\n  team:\n    title: T\n    dependsOn: [dq_owner.nope, dq_owner.team]\n')).toEqual([
    { severity: 'error', summary: 'dependsOn[0]: dq_owner.nope is not declared in this file', source: 'w.yaml:5:17', address: 'dq_owner.team', field: 'dependsOn[0]' },
  ]);
  const m = manifestFromYaml('namespace: a\nowners:\n  a:\n    title: A\n  b:\n    title: B\n    dependsOn: [dq_owner.a]\n', { file: 'w.yaml' });
  expect(m.resources.map((r) => [r.address, r.dependsOn])).toEqual([
    ['dq_owner.a', []],
    ['dq_owner.b', ['dq_owner.a']],
  ]);
});

test('ResolverQL in a friendly query that does not parse: at the string', () => {
  expect(of(`namespace: a\n${OWNER}ownerships:\n  o:\n    owner: team\n    query: with_tag(\n`)).toEqual([
    {
      severity: 'error',
      summary: 'query: ResolverQL: at offset 9 (line 1, column 10): expected a function call, a string or a list but found end of input',
      source: 'w.yaml:8:12',
      address: 'dq_ownership.o',
      field: 'query',
      hint: 'Fix the ResolverQL text.',
    },
  ]);
});

test('an empty document has no position to point at: the file', () => {
  expect(of('')).toEqual([{ severity: 'error', summary: 'the document must be a mapping with at least "namespace"', source: 'w.yaml', hint: 'Start the file with `namespace: <your namespace>`.' }]);
});

test('settings, lifecycle and sources: what the file says, entries sorted by name', () => {
  const m = manifestFromYaml(
    `namespace: a\nstack: st\nregion: eu\nbaseUrl: https://x.example\ngrpcEndpoint: g:443\n${OWNER}  b:\n    title: B\n    lifecycle: { preventDestroy: true, ignoreChanges: [title] }\n  c:\n    title: C\n    lifecycle: { ignoreChanges: all, preventDestroy: false }\n`,
    { file: 'w.yaml' },
  );
  expect([m.stack, m.namespace, m.region, m.baseUrl, m.grpcEndpoint, m.credentialsFrom]).toEqual(['st', 'a', 'eu', 'https://x.example', 'g:443', undefined]);
  expect(m.resources.map((r) => [r.address, r.source, r.lifecycle, r.config])).toEqual([
    ['dq_owner.b', 'w.yaml:9:3', { preventDestroy: true, ignoreChanges: ['title'] }, { title: 'B' }],
    ['dq_owner.c', 'w.yaml:12:3', { ignoreChanges: 'all' }, { title: 'C' }],
    ['dq_owner.team', 'w.yaml:7:3', {}, { title: 'Team' }],
  ]);
  // --stack wins over the file's; without either the namespace names the stack
  expect(manifestFromYaml(`namespace: a\nstack: st\n${OWNER}`, { file: 'w.yaml', stack: 'cli' }).stack).toBe('cli');
  expect(manifestFromYaml(`namespace: a\n${OWNER}`, { file: 'w.yaml' }).stack).toBe('a');
});

test('credentialsFrom is read from the file', () => {
  const m = manifestFromYaml(`namespace: a\ncredentialsFrom: { clientId: DQ_P_CLIENT_ID, clientSecret: DQ_P_CLIENT_SECRET }\n${OWNER}`, { file: 'w.yaml' });
  expect(m.credentialsFrom).toEqual({ clientId: 'DQ_P_CLIENT_ID', clientSecret: 'DQ_P_CLIENT_SECRET' });
});

describe('the size limit', () => {
  test('counted in UTF-8 bytes, not characters: a third of the limit in three-byte characters and one more is refused unread', () => {
    const n = Math.floor(MAX_YAML_BYTES / 3) + 1;
    const text = `namespace: a\n# ${'€'.repeat(n)}\n`;
    const bytes = Buffer.byteLength(text, 'utf8');
    expect(bytes).toBeGreaterThan(MAX_YAML_BYTES);
    expect(of(text)).toEqual([
      {
        severity: 'error',
        summary: `YAML: w.yaml is too large (${bytes} bytes; the limit is ${MAX_YAML_BYTES} = 5 MiB): refused unread`,
        source: 'w.yaml',
        hint: 'Split the workspace into several stacks (one dqform.yaml each), or use the CDKTF front end.',
      },
    ]);
  });

  test('ASCII one byte over the limit is refused; at the limit it is read', () => {
    const head = `namespace: a\n${OWNER}# `;
    const at = head + 'x'.repeat(MAX_YAML_BYTES - head.length - 1) + '\n';
    expect(at.length).toBe(MAX_YAML_BYTES);
    expect(manifestFromYaml(at, { file: 'w.yaml' }).resources.map((r) => r.address)).toEqual(['dq_owner.team']);
    expect(of(`${at}#`)[0].summary).toBe(`YAML: w.yaml is too large (${MAX_YAML_BYTES + 1} bytes; the limit is ${MAX_YAML_BYTES} = 5 MiB): refused unread`);
  });
});

describe('loadYamlWorkspace', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-yaml-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('sources are named relative to the working directory', () => {
    const file = path.join(dir, 'sub', 'dqform.yaml');
    fs.mkdirSync(path.dirname(file));
    fs.writeFileSync(file, `namespace: a\n${OWNER}`);
    expect(loadYamlWorkspace(file, undefined, { cwd: dir }).resources[0].source).toBe(path.join('sub', 'dqform.yaml') + ':3:3');
    expect(loadYamlWorkspace(file, 'st').stack).toBe('st');
    expect(loadYamlWorkspace(file).resources[0].source).toBe(`${file}:3:3`);
  });

  test('a file that cannot be read: says to check --file, naming it as given relative to the cwd', () => {
    expect(diagnostics(() => loadYamlWorkspace(path.join(dir, 'nope.yaml'), undefined, { cwd: dir }))).toEqual([{ severity: 'error', summary: 'cannot read nope.yaml', hint: 'Check the --file path.' }]);
  });

  test('a file over the limit is refused by its size on disk, before reading it', () => {
    const file = path.join(dir, 'big.yaml');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_YAML_BYTES + 1);
    expect(diagnostics(() => loadYamlWorkspace(file, undefined, { cwd: dir }))).toEqual([
      {
        severity: 'error',
        summary: `YAML: big.yaml is too large (${MAX_YAML_BYTES + 1} bytes; the limit is ${MAX_YAML_BYTES} = 5 MiB): refused unread`,
        source: 'big.yaml',
        hint: 'Split the workspace into several stacks (one dqform.yaml each), or use the CDKTF front end.',
      },
    ]);
  });
});

test('moved to nothing, import into nothing, removed and declared at once: each with what to do', () => {
  expect(of(`namespace: a\n${OWNER}moved:\n  - { from: dq_owner.old, to: dq_owner.new }\nimport:\n  - { to: dq_owner.x, id: abc }\nremoved:\n  - dq_owner.team\n`)).toEqual([
    { severity: 'error', summary: 'moved[0]: dq_owner.new is not declared', source: 'w.yaml:6:31', address: 'dq_owner.new', hint: 'Move to an address that exists in this file.' },
    { severity: 'error', summary: 'import[0]: dq_owner.x is not declared', source: 'w.yaml:8:11', address: 'dq_owner.x', hint: 'Declare the resource the object is imported into.' },
    { severity: 'error', summary: 'removed[0]: dq_owner.team is declared and removed at once', source: 'w.yaml:10:5', address: 'dq_owner.team', hint: 'Delete the entry, or drop the removed declaration.' },
  ]);
});

test('the same mistake in two entries is reported for each, at its own place, in entry order', () => {
  const d = of(`namespace: a\n${OWNER}ownerships:\n  o:\n    owner: nobody\n    query: with_tag("x")\n  p:\n    owner: nobody\n    query: with_tag("x")\n`);
  expect(d.map((x) => `${x.source} ${x.summary}`)).toEqual([
    'w.yaml:7:12 owner: no owner named "nobody" in this file',
    'w.yaml:6:3 ownerId: reference ${dq_owner.nobody.id} points to nothing',
    'w.yaml:10:12 owner: no owner named "nobody" in this file',
    'w.yaml:9:3 ownerId: reference ${dq_owner.nobody.id} points to nothing',
  ]);
});
