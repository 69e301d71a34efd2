/**
 * `dq_check_categorisation_rule` in process, exact outputs: the comparable form, every validation
 * message and hint at its boundaries, the writes and reads against a recording fake client
 * (test/handlers/fake-client.ts), the preview's mapping (examples capped, names falling back to
 * ids), import and YAML forms. Complements check-categorisation-rule.test.ts.
 */
import { Effects } from '../../schemas/model/plan';
import { NotFoundError } from '../../src/client/errors';
import { deriveId } from '../../src/engine/identity';
import { checkCategorisationRuleDescriptor } from '../../src/kinds/check-categorisation-rule/descriptor';
import { canonicalCategorisationRule as canonical, categorisationPreview, checkCategorisationRulesHandler as h, GLOBAL_RULE_REASON, PREVIEW_EXAMPLES } from '../../src/kinds/check-categorisation-rule/handler';
import { checkCategorisationRuleImport } from '../../src/kinds/check-categorisation-rule/import';
import { validateCategorisationRule as validate } from '../../src/kinds/check-categorisation-rule/validate';
import { checkCategorisationRuleYaml } from '../../src/kinds/check-categorisation-rule/yaml';
import { fakeClient } from '../handlers/fake-client';
import { changesOf } from '../handlers/change';

const ctx = { workspace: 'demo', namespace: 'shop' };
const ID = deriveId('demo', 'shop', 'dq_check_categorisation_rule', 'r');
const rule = { dimension: 'TECHNICAL', title: 'T', category: 'C', matcher: { attributes: { nameContains: 'x' } } };
const change = changesOf('dq_check_categorisation_rule.r', ID);

describe('comparable form', () => {
  it('drops scope and every bookkeeping field; keeps a non-zero priority; leaves a matcher without checkTypes as it is', () => {
    const live = { id: ID, etag: 'e', createdAt: 't', updatedAt: 't', deletedAt: 't', createdBy: 'u', updatedBy: 'u', source: 'SOURCE_API', entityId: 'x', scope: 'WORKSPACE', ...rule, priority: -3 };
    expect(canonical(live)).toEqual({ category: 'C', dimension: 'TECHNICAL', matcher: { attributes: { nameContains: 'x' } }, priority: -3, title: 'T' });
    expect(canonical({ ...rule, matcher: { attributes: { checkTypes: 'monitor' } } })).toEqual({ ...rule, matcher: { attributes: { checkTypes: 'monitor' } } });
    expect(canonical({ ...rule, matcher: { expression: 5 } })).toEqual({ ...rule, matcher: { expression: 5 } });
    expect(canonical({ ...rule, matcher: 'x' })).toEqual({ ...rule, matcher: 'x' });
    expect(canonical({ ...rule, matcher: { attributes: 'x' } })).toEqual({ ...rule, matcher: { attributes: 'x' } });
    expect(canonical({ title: 'T' })).toEqual({ title: 'T' });
  });

  it('canonicalises the expression and sorts checkTypes without touching the input', () => {
    const input = { ...rule, matcher: { expression: 'with_annotation( "pii" )', attributes: { checkTypes: ['sqlTest', 'monitor', 'metric'], nameContains: 'a' } } };
    expect(canonical(input)).toEqual({ ...rule, matcher: { expression: 'with_annotation("pii")', attributes: { checkTypes: ['metric', 'monitor', 'sqlTest'], nameContains: 'a' } } });
    expect(input.matcher.attributes.checkTypes).toEqual(['sqlTest', 'monitor', 'metric']);
    expect(input.matcher.expression).toBe('with_annotation( "pii" )');
  });

  it('fromLive and fromDesired are the comparable form; replaceReasons is empty', () => {
    expect(h.fromLive({ ...rule, scope: 'GLOBAL', priority: 0 })).toEqual(rule);
    expect(h.fromDesired({ ...rule, priority: 0 })).toEqual(rule);
    expect(h.replaceReasons!(rule, { ...rule, title: 'X' })).toEqual([]);
  });
});

describe('validation: each message and hint exactly', () => {
  const hints = {
    dimension: 'Set dimension: TECHNICAL (how a check tests) or GOVERNANCE (why it matters).',
    title: 'Shorten title to at most 200 characters.',
    category: 'Shorten category to at most 200 characters.',
    priority: 'Among matching rules the highest priority wins; pick a value in range.',
    matcher: 'Match by attributes (checkTypes, nameContains, assetPathPrefix) or by a ResolverQL expression, not both.',
    expression: 'Give a ResolverQL expression, e.g. with_annotation("pii").',
    attributes: 'An empty attribute set would match every check; name what the rule is about.',
  };

  it('an empty rule has every problem, in field order', () => {
    expect(validate({}, {})).toEqual([
      { field: 'dimension', message: 'must be TECHNICAL or GOVERNANCE; got undefined', hint: hints.dimension },
      { field: 'title', message: 'must be 1 to 200 characters; got undefined', hint: hints.title },
      { field: 'category', message: 'must be 1 to 200 characters; got undefined', hint: hints.category },
      { field: 'matcher', message: 'needs exactly one of attributes and expression; got none', hint: hints.matcher },
    ]);
  });

  it('boundaries: 1 and 200 characters, priority ±1000000, an expression of 20000 are fine', () => {
    expect(validate({ ...rule, dimension: 'GOVERNANCE', title: 'x', category: 'c'.repeat(200), priority: 1_000_000 }, {})).toEqual([]);
    expect(validate({ ...rule, priority: -1_000_000, matcher: { expression: 'x'.repeat(20000) } }, {})).toEqual([]);
    expect(validate({ ...rule, matcher: { attributes: { checkTypes: [] } } }, {})).toEqual([]);
    expect(validate({ ...rule, matcher: { expression: 'x' } }, {})).toEqual([]);
    expect(validate({ ...rule, matcher: { attributes: { assetPathPrefix: 'db.' } } }, {})).toEqual([]);
  });

  it('just past them, and wrong types, are problems naming the value', () => {
    expect(validate({ ...rule, dimension: 'technical', title: 5, category: 'c'.repeat(201), priority: -1_000_001 }, {})).toEqual([
      { field: 'dimension', message: 'must be TECHNICAL or GOVERNANCE; got "technical"', hint: hints.dimension },
      { field: 'title', message: 'must be 1 to 200 characters; got 5', hint: hints.title },
      { field: 'category', message: 'must be 1 to 200 characters; got 201', hint: hints.category },
      { field: 'priority', message: 'must be a whole number from -1000000 to 1000000; got -1000001', hint: hints.priority },
    ]);
    expect(validate({ ...rule, priority: '5' }, {})).toEqual([{ field: 'priority', message: 'must be a whole number from -1000000 to 1000000; got "5"', hint: hints.priority }]);
    expect(validate({ ...rule, priority: 1_000_001 }, {}).map((p) => p.field)).toEqual(['priority']);
  });

  it('matcher problems: both, neither, not an object, an empty or non-string expression, attributes without a known key', () => {
    const m = (matcher: unknown) => validate({ ...rule, matcher }, {});
    expect(m({ attributes: { nameContains: 'x' }, expression: 'e' })).toEqual([{ field: 'matcher', message: 'needs exactly one of attributes and expression; got attributes and expression', hint: hints.matcher }]);
    expect(m('with_type("table")')).toEqual([{ field: 'matcher', message: 'needs exactly one of attributes and expression; got none', hint: hints.matcher }]);
    expect(m({ expression: '' })).toEqual([{ field: 'matcher.expression', message: 'must be 1 to 20000 characters', hint: hints.expression }]);
    expect(m({ expression: 7 })).toEqual([{ field: 'matcher.expression', message: 'must be 1 to 20000 characters', hint: hints.expression }]);
    expect(m({ expression: 'x'.repeat(20001) }).map((p) => p.field)).toEqual(['matcher.expression']);
    expect(m({ attributes: { other: 'x' } })).toEqual([{ field: 'matcher.attributes', message: 'needs at least one of checkTypes, nameContains, assetPathPrefix', hint: hints.attributes }]);
    expect(m({ attributes: null })).toEqual([{ field: 'matcher.attributes', message: 'needs at least one of checkTypes, nameContains, assetPathPrefix', hint: hints.attributes }]);
    expect(m({ attributes: 'x' })).toEqual([{ field: 'matcher.attributes', message: 'needs at least one of checkTypes, nameContains, assetPathPrefix', hint: hints.attributes }]);
  });
});

describe('writes (recording fake client)', () => {
  const answer = (version: number) => async () => ({ etag: `W/"${ID}-${version}"` });

  it('create and update write every field (priority 0 by default) with the plan etag; delete sends the etag; NOT_FOUND is success', async () => {
    const { client, calls } = fakeClient({ 'categorisationRules.upsert': answer(1), 'categorisationRules.delete': new NotFoundError({ method: 'DELETE', path: '/x', status: 404 }) });
    await h.create(client, change('create', { ...rule, priority: 7, extra: 'dropped' }), ctx);
    await h.update(client, change('update', { title: 'T' }, { etag: `W/"${ID}-0"` }), ctx);
    await h.delete(client, change('delete', null, { etag: `W/"${ID}-1"` }), ctx);
    expect(calls).toEqual([
      { op: 'categorisationRules.upsert', args: [{ id: ID, ...rule, priority: 7 }, null] },
      { op: 'categorisationRules.upsert', args: [{ id: ID, title: 'T', priority: 0 }, `W/"${ID}-0"`] },
      { op: 'categorisationRules.delete', args: [ID, { etag: `W/"${ID}-1"` }] },
    ]);
  });

  it('a version answered out of step is a conflict naming the kind and the versions', async () => {
    const { client } = fakeClient({ 'categorisationRules.upsert': answer(5) });
    await expect(h.update(client, change('update', rule, { etag: `W/"${ID}-2"` }), ctx)).rejects.toThrow(
      `conflict: the check categorisation rule ${JSON.stringify(ID)} was written by someone else while dqform wrote it (the platform answered version 5, expected 3 after version 2)`,
    );
  });
});

describe('reads (recording fake client)', () => {
  const other = deriveId('demo', 'other', 'dq_check_categorisation_rule', 'r');
  const G1 = '00000000-0000-4000-8000-0000000c0de1';
  const G2 = 'ffffffff-0000-4000-8000-0000000c0de2';
  const all = [
    { id: G2, scope: 'GLOBAL', ...rule },
    { id: ID, scope: 'WORKSPACE', etag: `W/"${ID}-4"`, ...rule },
    { id: other, scope: 'WORKSPACE', ...rule },
    { id: G1, scope: 'GLOBAL', ...rule },
  ];

  it('lists every page once; ours and the asked-for, then every platform rule (unmanageable), sorted by key', async () => {
    const { client, calls } = fakeClient({ 'categorisationRules.list': all });
    const live = await h.read(client, { ...ctx, keys: [], owns: (id) => id === ID });
    expect(live.map((o) => [o.key, o.etag, o.unmanageable])).toEqual([
      [G1, undefined, [GLOBAL_RULE_REASON]],
      [ID, `W/"${ID}-4"`, undefined],
      [G2, undefined, [GLOBAL_RULE_REASON]],
    ]);
    expect(calls).toEqual([{ op: 'categorisationRules.list', args: [1000] }]);
    expect(GLOBAL_RULE_REASON).toBe('it is platform-provided (scope GLOBAL): a workspace cannot edit or delete it');
  });

  it('another namespace\'s rule is read when asked for by key', async () => {
    const { client } = fakeClient({ 'categorisationRules.list': all });
    expect((await h.read(client, { ...ctx, keys: [other] })).map((o) => o.key)).toEqual([G1, other, G2].sort());
  });

  it('a platform rule asked for by key is still unmanageable', async () => {
    const { client } = fakeClient({ 'categorisationRules.list': all });
    expect((await h.read(client, { ...ctx, keys: [G1] })).map((o) => [o.key, o.unmanageable])).toEqual([
      [G1, [GLOBAL_RULE_REASON]],
      [G2, [GLOBAL_RULE_REASON]],
    ]);
  });

  it('keysOnly reads the keys by BatchGet, not the list', async () => {
    const { client, calls } = fakeClient({ 'categorisationRules.batchGet': { [ID]: all[1] } });
    const live = await h.read(client, { ...ctx, keys: [ID, 'missing'], keysOnly: true });
    expect(live.map((o) => o.key)).toEqual([ID]);
    expect(calls.map((c) => c.op)).toEqual(['categorisationRules.batchGet']);
  });

  it('import lists every rule but the platform-provided ones, with their source', async () => {
    const { client } = fakeClient({ 'categorisationRules.list': [{ ...all[1], source: 'SOURCE_APP' }, all[0]] });
    expect(await h.listAll!(client, async () => [])).toEqual([{ key: ID, source: 'SOURCE_APP', raw: { ...all[1], source: 'SOURCE_APP' } }]);
  });
});

describe('preview', () => {
  const matches = (n: number, applied = true) => Array.from({ length: n }, (_, i) => ({ checkId: `sqltest-${i}`, checkName: i % 2 ? `N${i}` : '', checkType: 'sqlTest', category: `C${i}`, applied }));

  it('a delete shows at most PREVIEW_EXAMPLES of the applied matches, names falling back to ids, and counts them all', async () => {
    expect(PREVIEW_EXAMPLES).toBe(5);
    const { client, calls } = fakeClient({ 'categorisationRules.listMatches': [...matches(7), ...matches(2, false)] });
    expect(await categorisationPreview(client, change('delete', null))).toEqual(Effects.parse({
      source: 'categorisation-preview',
      checksCategorised: 0,
      categoryChangeCount: 7,
      categoryChanges: [
        { check: 'sqltest-0', from: 'C0', to: '' },
        { check: 'N1', from: 'C1', to: '' },
        { check: 'sqltest-2', from: 'C2', to: '' },
        { check: 'N3', from: 'C3', to: '' },
        { check: 'sqltest-4', from: 'C4', to: '' },
      ],
    }));
    expect(calls).toEqual([{ op: 'categorisationRules.listMatches', args: [ID] }]);
  });

  it('an update asks PreviewRule with the written rule and maps every field; a name falls back to the id', async () => {
    const { client, calls } = fakeClient({
      'categorisationRules.preview': { matchedCount: 9, categorisedCount: 3, changedCount: 2, changes: [{ checkId: 'monitor-1', checkName: '', from: 'Old', to: 'C' }, { checkId: 'monitor-2', checkName: 'M2', from: '', to: 'C' }] },
    });
    expect(await h.preview!(client, change('update', { ...rule, priority: 2 }), ctx)).toEqual(Effects.parse({
      source: 'categorisation-preview',
      checksMatched: 9,
      checksCategorised: 3,
      categoryChangeCount: 2,
      categoryChanges: [
        { check: 'monitor-1', from: 'Old', to: 'C' },
        { check: 'M2', from: '', to: 'C' },
      ],
    }));
    expect(calls).toEqual([{ op: 'categorisationRules.preview', args: [{ id: ID, ...rule, priority: 2 }, 5] }]);
  });

  it('a failed delete preview is "effects unknown" without the request id or the query string', async () => {
    const { client } = fakeClient({ 'categorisationRules.listMatches': new Error('GET /v2/rules/x/matches?pageSize=100 failed (request id r-1)') });
    expect(await categorisationPreview(client, change('delete', null))).toEqual(Effects.parse({ source: 'categorisation-preview', error: 'effects unknown: GET /v2/rules/x/matches failed' }));
  });
});

describe('descriptor, import and YAML', () => {
  it('the descriptor: a derived, tagged id guarded by etags, previewed by the categorisation preview', () => {
    expect(checkCategorisationRuleDescriptor).toMatchObject({
      type: 'dq_check_categorisation_rule',
      label: 'check categorisation rule',
      identity: { key: 'id', derivedUuid: true },
      ownership: 'idTag',
      concurrency: 'etag',
      construct: { className: 'CheckCategorisationRule' },
      preview: { source: 'categorisation-preview', overlapping: false },
    });
  });

  it('import drops the platform\'s scope; YAML shows a lone expression in its short form', () => {
    const raw = { id: ID, scope: 'WORKSPACE', ...rule };
    expect(checkCategorisationRuleImport.fromLive!(raw)).toEqual({ id: ID, ...rule });
    const y = (matcher: unknown) => {
      const x: Record<string, unknown> = { matcher };
      checkCategorisationRuleImport.yaml!(x, { refName: () => undefined, qlOnly: () => undefined });
      return x.matcher;
    };
    expect(y({ expression: 'with_type("table")' })).toBe('with_type("table")');
    expect(y({ expression: 'e', attributes: {} })).toEqual({ expression: 'e', attributes: {} });
    expect(y({ expression: 5 })).toEqual({ expression: 5 });
    expect(y({ attributes: { nameContains: 'x' } })).toEqual({ attributes: { nameContains: 'x' } });
    expect(y('already')).toBe('already');
  });

  it('the YAML binding expands the short form only', () => {
    const named = () => '';
    expect(checkCategorisationRuleYaml({ matcher: 'with_type("table")' }, named)).toEqual({ matcher: { expression: 'with_type("table")' } });
    expect(checkCategorisationRuleYaml({ matcher: { attributes: { nameContains: 'x' } } }, named)).toEqual({ matcher: { attributes: { nameContains: 'x' } } });
  });
});
