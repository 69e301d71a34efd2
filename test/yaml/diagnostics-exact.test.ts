/**
 * The YAML front end's diagnostics, word for word: what a user reads for a bad moved, removed or
 * import entry, a YAML warning, a duplicate key, an alias bomb, a reference to an undeclared
 * product, bad ResolverQL and a document that is no mapping; and what the good forms of
 * moved, import and removed load into. yaml.test.ts checks where diagnostics point; this file
 * pins their whole text. (Written for the uncovered mutants of the mutation run of src/engine,
 * issue 12: these paths were reached only by spawned CLI tests.)
 *
 * @gateway
 */
import { ManifestError } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';
import type { Diagnostic } from '../../schemas/model/plan';

const OWNER = 'owners:\n  team:\n    title: Team\n';

function diagnostics(text: string): Diagnostic[] {
  try {
    manifestFromYaml(text, { file: 'w.yaml' });
  } catch (e) {
    if (e instanceof ManifestError) return e.diagnostics;
    throw e;
  }
  throw new Error('expected a ManifestError');
}

test('moved: each side must be a dq_* address, the old one no longer declared', () => {
  expect(diagnostics(`namespace: a\n${OWNER}moved:\n  - { from: nope, to: dq_owner.team }\n  - { from: dq_owner.team, to: bad }\n  - dq_owner.team\n`)).toEqual([
    { severity: 'error', summary: 'moved[2]: Invalid input: expected object, received string', source: 'w.yaml:8:5', field: 'moved[2]' },
    { severity: 'error', summary: 'moved[0].from: "nope" is not a dq_* address', source: 'w.yaml:6:13' },
    { severity: 'error', summary: 'moved[1].to: "bad" is not a dq_* address', source: 'w.yaml:7:32' },
    { severity: 'error', summary: 'moved[1]: dq_owner.team is still declared', source: 'w.yaml:7:13', address: 'dq_owner.team', hint: 'Remove the old entry or the moved entry.' },
    { severity: 'error', summary: 'moved[2].to: "" is not a dq_* address', source: 'w.yaml:8:5' },
    { severity: 'error', summary: 'moved[2]: dq_owner.team is still declared', source: 'w.yaml:8:5', address: 'dq_owner.team', hint: 'Remove the old entry or the moved entry.' },
  ]);
});

test('removed: a dq_* address (a string or { from }), nothing else', () => {
  expect(diagnostics(`namespace: a\n${OWNER}removed:\n  - nope\n  - { from: dq_owner.gone, destroy: false, id: "owner-1" }\n  - 7\n`)).toEqual([
    { severity: 'error', summary: 'removed[2]: Invalid input', source: 'w.yaml:8:5', field: 'removed[2]' },
    { severity: 'error', summary: 'removed[0]: "nope" is not a dq_* address', source: 'w.yaml:6:5' },
    { severity: 'error', summary: 'removed[2]: "" is not a dq_* address', source: 'w.yaml:8:5' },
  ]);
});

test('the good forms of moved, import and removed', () => {
  const m = manifestFromYaml(
    `namespace: a\n${OWNER}moved:\n  - { from: dq_owner.old, to: dq_owner.team }\nimport:\n  - { to: dq_owner.team, id: "owner-1" }\nremoved:\n  - dq_owner.gone\n  - { from: dq_owner.kept, destroy: false, id: "owner-2" }\n  - { from: dq_owner.plain, id: "" }\n`,
    { file: 'w.yaml' },
  );
  expect(m.stack).toBe('a');
  expect(m.moved).toEqual([{ from: 'dq_owner.old', to: 'dq_owner.team' }]);
  expect(m.imports).toEqual([{ to: 'dq_owner.team', id: 'owner-1' }]);
  expect(m.removed).toEqual([
    { from: 'dq_owner.gone', destroy: true },
    { from: 'dq_owner.kept', destroy: false, id: 'owner-2' },
    { from: 'dq_owner.plain', destroy: true },
  ]);
});

test('stack, region and base URL are read from the file; --stack wins', () => {
  const text = `namespace: a\nstack: s1\nregion: us\nbaseUrl: https://x.example\n${OWNER}`;
  expect(manifestFromYaml(text, { file: 'w.yaml' })).toMatchObject({ stack: 's1', namespace: 'a', region: 'us', baseUrl: 'https://x.example' });
  expect(manifestFromYaml(text, { file: 'w.yaml', stack: 'other' }).stack).toBe('other');
});

test('a YAML warning is a warning, next to the errors', () => {
  expect(diagnostics(`namespace: a\n${OWNER}x: !!custom 3\n`)).toEqual([
    {
      severity: 'warning',
      summary: 'YAML: Unresolved tag: tag:yaml.org,2002:custom',
      source: 'w.yaml:5:4',
      hint: 'dqform ignores it and reads the value as written; remove it to silence this warning.',
    },
    {
      severity: 'error',
      summary: 'unknown section "x"',
      source: 'w.yaml:5:1',
      field: 'x',
      hint: 'Known sections here: $schema, version, namespace, stack, region, baseUrl, grpcEndpoint, credentialsFrom, owners, domains, dataProducts, ownerships, alerts, monitorDeploymentRules, sqlTests, sqlTestDeploymentRules, integrations, savedViews, categorisationRules, moved, import, removed.',
    },
  ]);
});

test('a duplicate key is a syntax error', () => {
  expect(diagnostics('namespace: a\nowners:\n  team:\n    title: A\n    title: B\n')).toEqual([
    { severity: 'error', summary: 'YAML: Map keys must be unique', source: 'w.yaml:5:5', hint: 'Fix the YAML syntax.' },
  ]);
});

test('an alias bomb is refused at its first alias', () => {
  const rows = ['a: &a [x,x,x,x,x,x,x,x,x]', 'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]', 'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]', 'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]', 'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]'];
  expect(diagnostics(`namespace: a\n${rows.join('\n')}\n`)).toEqual([
    {
      severity: 'error',
      summary: 'YAML: the aliases (*name) expand to too much data (more than 1000 aliased nodes): refused, as a resource exhaustion attack would be',
      source: 'w.yaml:3:8',
      hint: 'Write the repeated values out, or use fewer and smaller anchors (&name) and aliases.',
    },
  ]);
});

test('a friendly product reference to nothing names the section to declare it in', () => {
  const d = diagnostics('namespace: a\ndataProducts:\n  p:\n    title: P\nmonitorDeploymentRules:\n  r:\n    productConfig: { product: ghost }\n');
  expect(d).toContainEqual({
    severity: 'error',
    summary: 'productConfig.product: no data product named "ghost" in this file',
    source: 'w.yaml:7:31',
    address: 'dq_monitor_deployment_rule.r',
    field: 'productConfig.product',
    hint: 'Declare it under dataProducts, or use its id.',
  });
  expect(d).toContainEqual({
    severity: 'error',
    summary: 'productConfig.productId: reference ${dq_data_product.ghost.id} points to nothing',
    source: 'w.yaml:7:5',
    address: 'dq_monitor_deployment_rule.r',
    field: 'productConfig.productId',
    hint: 'Declare dq_data_product.ghost in this file.',
  });
});

test('ResolverQL that does not parse points into the string', () => {
  expect(diagnostics(`namespace: a\n${OWNER}ownerships:\n  o:\n    owner: team\n    query: 'with_tag("x"'\n`)).toEqual([
    {
      severity: 'error',
      summary: "query: ResolverQL: at offset 12 (line 1, column 13): expected ')' or ',' but found end of input",
      source: 'w.yaml:8:12',
      address: 'dq_ownership.o',
      field: 'query',
      hint: 'Fix the ResolverQL text.',
    },
  ]);
});

test('a document that is no mapping says how to start', () => {
  expect(diagnostics('- a\n- b\n')).toEqual([
    { severity: 'error', summary: 'the document must be a mapping with at least "namespace"', source: 'w.yaml:1:1', hint: 'Start the file with `namespace: <your namespace>`.' },
  ]);
});

test('friendly references in domain parts, parents and product rules become Terraform references', () => {
  const m = manifestFromYaml(
    `namespace: a\ndataProducts:\n  orders:\n    title: Orders\ndomains:\n  sales:\n    name: Sales\n  emea:\n    name: EMEA\n    parent: sales\n    definition:\n      parts:\n        - dataProduct: orders\n        - domain: sales\n        - query: 'with_tag("x")'\nmonitorDeploymentRules:\n  r:\n    title: R\n    productConfig: { product: orders, severity: SEVERITY_ERROR, sensitivity: SENSITIVITY_BALANCED, metricIds: [METRIC_ID_ROW_COUNT] }\n`,
    { file: 'w.yaml' },
  );
  const config = Object.fromEntries(m.resources.map((r) => [r.address, r.config]));
  expect(config['dq_domain.emea']).toEqual({
    name: 'EMEA',
    parentId: '${dq_domain.sales.id}',
    definition: { parts: [{ dataproductId: '${dq_data_product.orders.id}' }, { domainId: '${dq_domain.sales.id}' }, { query: { resolverQl: 'with_tag("x")' } }] },
  });
  expect(config['dq_monitor_deployment_rule.r']).toEqual({
    title: 'R',
    productConfig: { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], productId: '${dq_data_product.orders.id}' },
  });
});

test('a resource that already has an error is not also checked against its schema (one cause, not a cascade)', () => {
  expect(diagnostics(`namespace: a\n${OWNER}ownerships:\n  o:\n    owner: nobody\n    query: with_tag("x")\n`)).toEqual([
    { severity: 'error', summary: 'owner: no owner named "nobody" in this file', source: 'w.yaml:7:12', address: 'dq_ownership.o', field: 'owner', hint: 'Declare it under owners, or use its id.' },
    { severity: 'error', summary: 'ownerId: reference ${dq_owner.nobody.id} points to nothing', source: 'w.yaml:6:3', address: 'dq_ownership.o', field: 'ownerId', hint: 'Declare dq_owner.nobody in this file.' },
  ]);
});
