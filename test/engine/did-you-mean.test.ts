/**
 * "Did you mean X?" (issue 26): one shared helper (schemas/tools/did-you-mean.ts) for references to
 * nothing (CDKTF and YAML), unknown ResolverQL functions and unknown enum values.
 */
import { closestName, editDistance, sharedPrefix } from '../../schemas/tools/did-you-mean';
import { AlertSeverityEnum } from '../../schemas/platform/alerts';
import { MetricIdEnum, SeverityEnum } from '../../schemas/platform/deployment-rules';
import { checkResolverQlText, parseResolverQl } from '../../schemas/tools/resolverql';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';
import { ManifestError } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';

describe('the helper', () => {
  it('Levenshtein, ignoring case', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('baseURL', 'baseUrl')).toBe(0);
    expect(editDistance('nmae', 'name')).toBe(1); // a swap of neighbours is one edit
    expect(closestName('nmae', ['id', 'name'])).toBe('name');
  });
  it('suggests within a small distance that grows with the word, none for a short word far off', () => {
    expect(closestName('comerce_team', ['analytics', 'commerce_team'])).toBe('commerce_team');
    expect(closestName('a', ['b', 'c'])).toBe('b'); // distance 1 within 1
    expect(closestName('ab', ['xy'])).toBeUndefined();
    expect(closestName('orders', ['payments'])).toBeUndefined();
    expect(closestName('desc', ['id', 'description'])).toBe('description'); // a name cut short
    expect(closestName('de', ['description'])).toBeUndefined();
  });
  it('is deterministic: the smallest distance, then the first known', () => {
    expect(closestName('cat', ['bat', 'cab', 'car'])).toBe('bat');
    expect(closestName('cat', ['car', 'cab', 'bat'])).toBe('car');
    expect(closestName('cart', ['bat', 'car'])).toBe('car');
  });
  it('may compare without the names\' shared prefix', () => {
    expect(sharedPrefix(['SEVERITY_WARN', 'SEVERITY_ERROR'])).toBe('SEVERITY_');
    expect(closestName('error', ['SEVERITY_WARN', 'SEVERITY_ERROR'], { strip: 'SEVERITY_' })).toBe('SEVERITY_ERROR');
  });
});

describe('enum values', () => {
  const message = (schema: { safeParse: (v: unknown) => { success: boolean; error?: { issues: { message: string }[] } } }, v: unknown) => schema.safeParse(v).error!.issues[0].message;
  it.each([
    ['a severity', SeverityEnum.schema, 'SEVERITY_EROR', 'SEVERITY_ERROR'],
    ['a severity without its prefix', SeverityEnum.schema, 'info', 'SEVERITY_INFO'],
    ['an alert severity', AlertSeverityEnum.schema, 'SEVERITY_WRAN', 'SEVERITY_WARN'],
    ['a metric id', MetricIdEnum.schema, 'METRIC_ID_ROWCOUNT', 'METRIC_ID_ROW_COUNT'],
  ])('%s', (_what, schema, bad, good) => {
    expect(message(schema, bad)).toMatch(new RegExp(`; got "${bad}"; did you mean ${good}\\?$`));
  });
  it('nothing near: no guess', () => {
    expect(message(SeverityEnum.schema, 'PURPLE')).not.toMatch(/did you mean/);
  });
});

describe('ResolverQL functions', () => {
  it('a misspelled function: the parse error names the closest', () => {
    expect(() => parseResolverQl('with_typ("table")')).toThrow(/found 'with_typ'.*; did you mean 'with_type'\?$/);
  });
  it('an unknown function in the lenient check: the warning names the closest', () => {
    const r = checkResolverQlText('and(with_type("table"), with_nme("orders"))');
    expect(r?.warnings?.map((w) => w.message).join('\n')).toMatch(/function 'with_nme' is not one dqform knows \(did you mean 'with_name'\?\)/);
  });
});

describe('references', () => {
  const tf = (resources: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: 'shop' }] }, resource: resources }, { stack: 'shop' });
  const summaries = (resources: Record<string, unknown>) => resolveManifest(tf(resources), 'demo').diagnostics.map((d) => d.summary);

  it('a misspelled owner in CDKTF code', () => {
    expect(
      summaries({
        dq_owner: { commerce_team: { title: 'Commerce' } },
        dq_ownership: { own: { owner_id: '${dq_owner.comerce_team.id}', selection: { query: { resolver_ql: 'with_type("table")' } } } },
      }),
    ).toContain('reference ${dq_owner.comerce_team.id} points to nothing (did you mean ${dq_owner.commerce_team.id}?)');
  });

  it('an unknown attribute of a declared object', () => {
    expect(
      summaries({
        dq_owner: { team: { title: 'T' } },
        dq_ownership: { own: { owner_id: '${dq_owner.team.ids}', selection: { query: { resolver_ql: 'with_type("table")' } } } },
      }),
    ).toContain('reference ${dq_owner.team.ids} names an attribute dqform does not know (did you mean .id?)');
  });

  it('nothing near: no guess', () => {
    const s = summaries({
      dq_owner: { commerce_team: { title: 'Commerce' } },
      dq_ownership: { own: { owner_id: '${dq_owner.zz.id}', selection: { query: { resolver_ql: 'with_type("table")' } } } },
    });
    expect(s).toContain('reference ${dq_owner.zz.id} points to nothing');
  });

  const yamlErrors = (text: string): string[] => {
    try {
      manifestFromYaml(text, { file: 'w.yaml' });
    } catch (e) {
      if (e instanceof ManifestError) return e.diagnostics.map((d) => d.summary);
      throw e;
    }
    throw new Error('expected a ManifestError');
  };

  it('a misspelled owner in YAML, by ${...} and by name', () => {
    const owner = 'owners:\n  commerce_team:\n    title: Commerce\n';
    expect(yamlErrors(`namespace: a\n${owner}ownerships:\n  o:\n    ownerId: \${dq_owner.commerce_tem.id}\n    query: with_tag("x")\n`)).toContain(
      'ownerId: reference ${dq_owner.commerce_tem.id} points to nothing (did you mean ${dq_owner.commerce_team.id}?)',
    );
    expect(yamlErrors(`namespace: a\n${owner}ownerships:\n  o:\n    owner: comerce_team\n    query: with_tag("x")\n`)).toContain('owner: no owner named "comerce_team" in this file (did you mean "commerce_team"?)');
  });
});
