/**
 * A YAML workspace reports every error in one pass: unknown fields, wrong values and ResolverQL
 * parse errors together (the ResolverQL error used to come only once the schema errors were
 * fixed), each at the file:line:column of what is wrong, each once.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ManifestError } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';
import { dqform, STACK_FRAME } from '../cli/helpers';

const BROKEN = `namespace: shop
owners:
  team: { title: Team, colour: red }
ownerships:
  own: { owner: team, query: 'in_folder("x"' }
alerts:
  a:
    name: A
    issueLifecycle:
      trigger: 'with_type("table"'
      targets: [{ owner: team }]
      settings: { severities: [SEVERITY_ERROR] }
  b:
    name: B
    schemaChange:
      trigger: { resolverQl: 'and(with_tag("pii"),)' }
      targets: [{ slack: { channel: '#dq' } }]
`;

function errors(text: string) {
  try {
    manifestFromYaml(text, { file: 'w.yaml' });
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics.filter((d) => d.severity === 'error');
    throw e;
  }
  return [];
}

it('schema and ResolverQL errors come together, each at its file:line:column, each once', () => {
  const found = errors(BROKEN).map((d) => `${d.source} ${d.address ?? ''} ${d.summary}`);
  expect(found).toEqual([
    expect.stringMatching(/^w\.yaml:3:24 +unknown field "colour" in owners\.team$/),
    expect.stringMatching(/^w\.yaml:5:30 dq_ownership\.own query: ResolverQL: at offset 13\b/),
    expect.stringMatching(/^w\.yaml:10:16 dq_alert\.a issueLifecycle\.trigger: ResolverQL: at offset 17\b/),
    expect.stringMatching(/^w\.yaml:16:30 dq_alert\.b schemaChange\.trigger\.resolverQl: ResolverQL: at offset 20\b/),
  ]);
});

it.each([
  ['a valid trigger, query and resolverQl', `namespace: s\nowners: { t: { title: T } }\nownerships:\n  o: { owner: t, query: 'in_folder("x")' }\n`],
  ['a reference is not parsed as ResolverQL', 'namespace: s\nownerships:\n  o: { ownerId: x, selection: { query: { resolverQl: "${dq_owner.t.id}" } } }\n'],
])('no ResolverQL error for %s', (_why, text) => {
  expect(errors(text).filter((d) => /ResolverQL/.test(d.summary))).toEqual([]);
});

it('dqform validate --file prints them all in one run, exit 1, no stack trace', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-yaml-'));
  try {
    fs.writeFileSync(path.join(dir, 'dqform.yaml'), BROKEN);
    const r = await dqform(['validate'], { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.err.match(/^Error: /gm)).toHaveLength(4);
    for (const at of ['dqform.yaml:3:24', 'dqform.yaml:5:30', 'dqform.yaml:10:16', 'dqform.yaml:16:30']) expect(r.err).toContain(`at ${at}`);
    expect(r.err).not.toMatch(STACK_FRAME);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
