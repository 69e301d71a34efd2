/**
 * Issue 22 (part B): `validate` (and plan, through the same resolution) knows every ResolverQL
 * function the spec and the facts name, and a function dqform does not know is a WARNING ("the
 * platform checks it"), not an error, unless its text is malformed. Before: `with_columns(...)`,
 * used in the vendor's own examples (upstream-facts), was refused, and so was any unknown name.
 * Also the YAML front end (same rule) and the construct-time check.
 */
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';
import { manifestFromYaml } from '../../src/engine/yaml';
import { ManifestError } from '../../src/engine/manifest';

const tf = (resolverQl: string) => ({
  provider: { dq: [{ namespace: 'shop' }] },
  resource: { dq_alert: { a: { name: 'A', issue_lifecycle: { trigger: { resolver_ql: resolverQl }, targets: [{ slack: { channel: '#data' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } },
});
const diagsOf = (resolverQl: string) => resolveManifest(manifestFromTerraformJson(tf(resolverQl), { stack: 'shop' }), 'demo').diagnostics.map((d) => ({ severity: d.severity, field: d.field, summary: d.summary }));

describe('validate: ResolverQL functions', () => {
  test.each([
    ['with_columns, from the vendor examples', 'with_columns("email")'],
    ['the vendor in_folder(static_paths(...), types=[...]) form', 'in_folder(static_paths("folder-prod::issues"), types=["table"])'],
    ['and/or/not with every other known function', 'and(with_type("table"),or(with_name("sales"),with_tag("x"),with_platform("warehouse")),not(with_annotation("pii")))'],
  ])('%s: no diagnostic', (_why, text) => {
    expect(diagsOf(text)).toEqual([]);
  });

  test('a function dqform does not know: one warning naming the field, the function and that the platform checks it; no error', () => {
    const d = diagsOf('and(with_type("table"), with_owner("team-a"))');
    expect(d).toEqual([
      {
        severity: 'warning',
        field: 'issueLifecycle.trigger.resolverQl',
        summary: expect.stringMatching(/^issueLifecycle\.trigger\.resolverQl: ResolverQL: at offset 24 \(line 1, column 25\): function 'with_owner' is not one dqform knows .*the platform checks it/),
      },
    ]);
  });

  test.each([
    ['malformed arguments of the unknown function', 'with_owner(1)'],
    ['a known function misused inside an unknown one', 'with_owner(with_type("nope"))'],
    ['with_columns without a column', 'with_columns()'],
  ])('%s: an error', (_why, text) => {
    const d = diagsOf(text);
    expect(d.map((x) => x.severity)).toEqual(['error']);
    expect(d[0].summary).toMatch(/ResolverQL: at offset/);
  });
});

test('YAML: an unknown function is not an error in the load pass (the resolution warns once)', () => {
  const yaml = (q: string) => `namespace: shop\nowners:\n  team:\n    title: Team\nownerships:\n  own:\n    owner: team\n    query: '${q}'\n`;
  const errors = (text: string) => {
    try {
      manifestFromYaml(text, { file: 'w.yaml' });
      return [];
    } catch (e) {
      if (e instanceof ManifestError) return e.diagnostics.filter((d) => d.severity === 'error').map((d) => d.summary);
      throw e;
    }
  };
  expect(errors(yaml('with_owner("team-a")'))).toEqual([]);
  expect(errors(yaml('with_owner(1)')).join('\n')).toMatch(/query: ResolverQL: at offset 11/);
});
