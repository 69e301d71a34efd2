/**
 * schemas/dqform.schema.json, the editors' schema of dqform.yaml, checked with a real validator
 * (ajv, draft-07: what the common YAML editor extension supports): it compiles in strict mode,
 * accepts the YAML the project ships (examples, README, what `dqform import` writes is covered
 * by the loader tests), rejects bad input the loader rejects, and describes every field.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import Ajv from 'ajv';
import { parse } from 'yaml';
import { DQFORM_JSON_SCHEMA_FILE } from '../../schemas/tools/generate-json-schema';
import { manifestFromYaml } from '../../src/engine/yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const schema = JSON.parse(fs.readFileSync(DQFORM_JSON_SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
const ajv = new Ajv({ allErrors: true, strict: true, strictRequired: false });
const validate = ajv.compile(schema);

/** The README's YAML workspace (the block that starts with the editor's schema comment). */
function readmeYaml(): string {
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const block = /```yaml\n(# yaml-language-server[\s\S]*?)```/.exec(readme);
  if (!block) throw new Error('README.md has no yaml-language-server YAML block');
  return block[1];
}

it('is draft-07 and uses no newer keywords', () => {
  expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
  const text = JSON.stringify(schema);
  for (const k of ['$defs', 'prefixItems', 'unevaluatedProperties', 'dependentRequired', '$dynamicRef']) expect(text).not.toContain(`"${k}"`);
});

it('describes every field (the help text editors show)', () => {
  const missing: string[] = [];
  let fields = 0;
  const walk = (v: unknown, at: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}/${i}`));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.properties) {
      for (const [k, p] of Object.entries(o.properties as Record<string, { description?: unknown }>)) {
        fields++;
        if (typeof p.description !== 'string' || p.description.length < 3) missing.push(`${at}/${k}`);
      }
    }
    for (const [k, x] of Object.entries(o)) walk(x, `${at}/${k}`);
  };
  walk(schema, '');
  expect(fields).toBeGreaterThan(300);
  expect(missing).toEqual([]);
  // A field that refers to a shared definition keeps its description visible (draft-07 ignores $ref siblings).
  expect(JSON.stringify(schema)).not.toMatch(/"\$ref":"[^"]*","description"|"description":"[^"]*","\$ref"/);
});

it.each([
  ['examples/yaml/dqform.yaml', () => fs.readFileSync(path.join(ROOT, 'examples', 'yaml', 'dqform.yaml'), 'utf8')],
  ['the README workspace', readmeYaml],
])('accepts %s (which the loader accepts too)', (_name, text) => {
  const doc = parse(text()) as unknown;
  const ok = validate(doc);
  expect(validate.errors ?? []).toEqual([]);
  expect(ok).toBe(true);
  expect(() => manifestFromYaml(text(), { file: 'x.yaml' })).not.toThrow();
});

describe('rejects what the loader rejects', () => {
  const base = 'namespace: shop\nowners:\n  team: { title: Team }\n';
  const CASES: [string, string, RegExp][] = [
    ['no namespace', 'owners:\n  team: { title: Team }\n', /namespace/],
    ['a namespace with capitals', 'namespace: Shop\n', /pattern/],
    ['an unknown section', `${base}alarms: {}\n`, /additional/],
    ['an unknown owner field (a typo)', 'namespace: shop\nowners:\n  team: { title: Team, colour: red }\n', /additional/],
    ['a resource name with a dot', 'namespace: shop\nowners:\n  my.team: { title: Team }\n', /property name|pattern/],
    ['an unknown alert severity', `${base}alerts:\n  a:\n    name: A\n    issueLifecycle:\n      trigger: 'with_type("table")'\n      targets: [{ owner: team }]\n      settings: { severities: [SEVERITY_LOUD] }\n`, /enum|anyOf|type/],
    ['a title of the wrong type', 'namespace: shop\nowners:\n  team: { title: [Team] }\n', /must be string/],
    ['an empty target list', `${base}alerts:\n  a:\n    name: A\n    issueLifecycle:\n      trigger: 'with_type("table")'\n      targets: []\n      settings: { severities: [SEVERITY_ERROR] }\n`, /fewer than 1|minItems/],
  ];
  it.each(CASES)('%s', (_why, text, message) => {
    expect(validate(parse(text))).toBe(false);
    expect(ajv.errorsText(validate.errors)).toMatch(message);
    expect(() => manifestFromYaml(text, { file: 'x.yaml' })).toThrow();
  });
});
