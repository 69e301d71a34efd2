/**
 * `dq_check_categorisation_rule` without a server: the comparable form, config validation (each
 * problem naming its field), the YAML section and its short form, the preview's mapping of
 * PreviewRule / ListRuleMatches answers (and of a failure), and the read's treatment of
 * platform-provided rules.
 */
import type { PlatformClient } from '../../src/client';
import { manifestFromYaml } from '../../src/engine/yaml';
import { resolveManifest } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { canonicalCategorisationRule, checkCategorisationRulesHandler as h, GLOBAL_RULE_REASON } from '../../src/kinds/check-categorisation-rule/handler';
import { validateCategorisationRule } from '../../src/kinds/check-categorisation-rule/validate';
import { Change } from '../../schemas/model/plan';

const rule = { dimension: 'TECHNICAL', title: 'T', category: 'C', matcher: { attributes: { nameContains: 'x' } } };

describe('comparable form', () => {
  it('drops scope and bookkeeping, priority 0, sorts checkTypes, canonicalises the expression', () => {
    const live = { id: 'i', etag: 'W/"i-1"', scope: 'WORKSPACE', createdAt: 't', updatedAt: 't', createdBy: 'u', updatedBy: 'u', ...rule, priority: 0, matcher: { attributes: { checkTypes: ['sqlTest', 'monitor'] } } };
    expect(canonicalCategorisationRule(live)).toEqual({ category: 'C', dimension: 'TECHNICAL', matcher: { attributes: { checkTypes: ['monitor', 'sqlTest'] } }, title: 'T' });
    expect(canonicalCategorisationRule({ ...rule, matcher: { expression: 'with_annotation( "pii" )' } })).toEqual(canonicalCategorisationRule({ ...rule, matcher: { expression: 'with_annotation("pii")' } }));
  });
});

describe('config validation', () => {
  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ['a dimension other than the two', { ...rule, dimension: 'OTHER' }, 'dimension', /TECHNICAL or GOVERNANCE/],
    ['both matchers', { ...rule, matcher: { attributes: { nameContains: 'x' }, expression: 'with_type("table")' } }, 'matcher', /got attributes and expression/],
    ['no matcher', { ...rule, matcher: {} }, 'matcher', /got none/],
    ['a priority out of range', { ...rule, priority: 1_000_001 }, 'priority', /-1000000 to 1000000/],
    ['a fractional priority', { ...rule, priority: 1.5 }, 'priority', /whole number/],
    ['a long title', { ...rule, title: 't'.repeat(201) }, 'title', /1 to 200 characters; got 201/],
    ['an empty category', { ...rule, category: '' }, 'category', /1 to 200 characters; got 0/],
    ['empty attributes', { ...rule, matcher: { attributes: {} } }, 'matcher.attributes', /at least one of checkTypes/],
    ['a long expression', { ...rule, matcher: { expression: 'x'.repeat(20001) } }, 'matcher.expression', /1 to 20000 characters/],
  ])('%s is a problem naming its field', (_why, desired, field, message) => {
    const p = validateCategorisationRule(desired, {});
    expect(p.map((x) => x.field)).toEqual([field]);
    expect(p[0].message).toMatch(message);
    expect(p[0].hint).toBeTruthy();
  });
  it('a valid rule has none', () => {
    expect(validateCategorisationRule({ ...rule, priority: -1_000_000 }, {})).toEqual([]);
  });
});

describe('YAML', () => {
  const load = (body: string) => manifestFromYaml(`namespace: shop\ncategorisationRules:\n  r:\n${body}`, { file: 'w.yaml' });
  it('the short form `matcher: "<ResolverQL>"` is the expression; the rule resolves with a tagged id', () => {
    const m = load('    dimension: GOVERNANCE\n    title: PII\n    category: Privacy\n    matcher: \'with_annotation("pii")\'\n');
    const r = resolveManifest(m, 'demo');
    expect(r.diagnostics).toEqual([]);
    const res = r.resources.find((x) => x.address === 'dq_check_categorisation_rule.r')!;
    expect(res.desired).toMatchObject({ matcher: { expression: 'with_annotation("pii")' } });
    expect(res.id).toBe(deriveId('demo', 'shop', 'dq_check_categorisation_rule', 'r'));
  });
  it('a misspelt dimension is an error naming the field and the line', () => {
    let err: unknown;
    try {
      resolveManifest(load('    dimension: TECHNIKAL\n    title: T\n    category: C\n    matcher: { attributes: { nameContains: x } }\n'), 'demo');
    } catch (e) {
      err = e;
    }
    expect(String((err as Error).message)).toMatch(/dq_check_categorisation_rule\.r[\s\S]*dimension/);
  });
});

type Fake = Partial<Record<'preview' | 'listMatches' | 'list' | 'batchGet', jest.Mock>>;
const clientWith = (f: Fake) => ({ categorisationRules: f }) as unknown as PlatformClient;
const change = (action: 'create' | 'delete', after: Record<string, unknown> | null) =>
  Change.parse({ address: 'dq_check_categorisation_rule.r', type: 'dq_check_categorisation_rule', action, id: '0e000000-0000-4000-8000-000000000001', before: null, after });
const ctx = { workspace: 'demo', namespace: 'shop' };

describe('preview', () => {
  it('a create asks PreviewRule with the whole rule (priority 0 by default) and maps its answer', async () => {
    const preview = jest.fn().mockResolvedValue({ matchedCount: 4, categorisedCount: 2, changedCount: 1, changes: [{ checkId: 'sqltest-a', checkName: 'A', checkType: 'sqlTest', from: '', to: 'C' }] });
    const e = await h.preview!(clientWith({ preview }), change('create', h.fromDesired(rule)), ctx);
    expect(preview).toHaveBeenCalledWith({ id: '0e000000-0000-4000-8000-000000000001', ...rule, priority: 0 }, 5);
    expect(e).toMatchObject({ source: 'categorisation-preview', checksMatched: 4, checksCategorised: 2, categoryChangeCount: 1, categoryChanges: [{ check: 'A', from: '', to: 'C' }] });
  });
  it('a delete lists the rule\'s matches: the checks whose category it gives lose it', async () => {
    const listMatches = jest.fn().mockResolvedValue([
      { checkId: 'sqltest-a', checkName: 'A', checkType: 'sqlTest', category: 'C', applied: true },
      { checkId: 'sqltest-b', checkName: '', checkType: 'sqlTest', category: 'Own', applied: false },
      { checkId: 'sqltest-c', checkName: '', checkType: 'sqlTest', category: 'C', applied: true },
    ]);
    const e = await h.preview!(clientWith({ listMatches }), change('delete', null), ctx);
    expect(e).toMatchObject({ checksCategorised: 0, categoryChangeCount: 2, categoryChanges: [{ check: 'A', from: 'C', to: '' }, { check: 'sqltest-c', from: 'C', to: '' }] });
    expect(e!.checksMatched).toBeUndefined();
  });
  it('a failure is "effects unknown", never a guess', async () => {
    const preview = jest.fn().mockRejectedValue(new Error('HTTP 503 (request id abc)'));
    const e = await h.preview!(clientWith({ preview }), change('create', h.fromDesired(rule)), ctx);
    expect(e).toMatchObject({ source: 'categorisation-preview', error: 'effects unknown: HTTP 503' });
    expect(e!.categoryChangeCount).toBeUndefined();
  });
});

describe('read', () => {
  const tagged = deriveId('demo', 'shop', 'dq_check_categorisation_rule', 'r');
  const other = deriveId('demo', 'other', 'dq_check_categorisation_rule', 'r');
  const GLOBAL = '9a0b0000-0000-4000-8000-0000000c0de1';
  const list = jest.fn().mockResolvedValue([
    { id: tagged, scope: 'WORKSPACE', ...rule },
    { id: other, scope: 'WORKSPACE', ...rule },
    { id: GLOBAL, scope: 'GLOBAL', ...rule },
  ]);
  it('keeps the namespace\'s rules and every platform-provided one (unmanageable), not another namespace\'s', async () => {
    const live = await h.read(clientWith({ list }), { ...ctx, keys: [], owns: (id) => id === tagged });
    expect(live.map((o) => [o.key, o.unmanageable])).toEqual([
      [GLOBAL, [GLOBAL_RULE_REASON]],
      [tagged, undefined],
    ]);
  });
  it('import lists every rule but the platform-provided ones', async () => {
    const all = await h.listAll!(clientWith({ list }), async () => []);
    expect(all.map((o) => o.key)).toEqual([tagged, other]);
  });
});
