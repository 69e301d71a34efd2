/**
 * resolveManifest: every diagnostic a user meets, asserted whole (summary, field, hint, address,
 * source): references to nothing or to an attribute dqform does not know, what each reference
 * attribute resolves to, unknown fields, schema errors in Terraform's spelling, ids and fqns
 * declared twice, a moved block that changes the type, ResolverQL errors and warnings, removed
 * blocks' ids, the identity info line, the offline mode. (Issue 23: in-process tests of the
 * engine, so that a mutation of any of these paths is caught.)
 */
import { deriveId } from '../../src/engine/identity';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { resolveManifest } from '../../src/engine/resolve';

const WS = 'demo';
const NS = 'shop';
const load = (resource: Record<string, unknown>, extra: Record<string, unknown> = {}) => manifestFromTerraformJson({ provider: { dq: [{ namespace: NS }] }, resource, ...extra }, { stack: NS });
const meta = (path: string) => ({ '//': { metadata: { path } } });
const alert = (targets: unknown[], more: Record<string, unknown> = {}) => ({
  name: 'A',
  issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets, settings: { severities: ['SEVERITY_ERROR'] } },
  ...more,
});
const ownerTarget = (ref: string) => [{ owner: { owner_path: ref } }];

describe('references', () => {
  it('to nothing: the field in the code\'s keys, and what to declare', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert(ownerTarget('${dq_owner.nope.entity_id}'), meta('shop/a')) } }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        summary: 'reference ${dq_owner.nope.entity_id} points to nothing',
        address: 'dq_alert.a',
        source: 'shop/a',
        field: 'issueLifecycle.targets[0].owner.ownerPath',
        hint: 'Declare dq_owner.nope in this stack, or remove the reference (references across stacks are not supported).',
      },
    ]);
  });

  it.each([
    ['an attribute no kind has', '${dq_owner.t.title}'],
    ['fqn of a kind keyed by id', '${dq_owner.t.fqn}'],
  ])('to %s: names the reference, says which attributes exist', (_why, ref) => {
    const r = resolveManifest(load({ dq_owner: { t: { title: 'T' } }, dq_alert: { a: alert(ownerTarget(ref)) } }), WS);
    expect(r.diagnostics).toEqual([
      { severity: 'error', summary: `reference ${ref} names an attribute dqform does not know`, address: 'dq_alert.a', field: 'issueLifecycle.targets[0].owner.ownerPath', hint: 'Use .id or .entity_id.' },
    ]);
    // the resource stays (its reference unresolved), without a dependency on the target
    expect(r.resources.map((x) => [x.address, x.dependsOn])).toEqual([
      ['dq_alert.a', []],
      ['dq_owner.t', []],
    ]);
  });

  it('entity_id of an alert (no entity id) is not known either', () => {
    const r = resolveManifest(load({ dq_alert: { b: alert([{ slack: { channel: '#b' } }]) }, dq_owner: { t: { title: '${dq_alert.b.entity_id}' } } }), WS);
    expect(r.diagnostics.map((d) => [d.summary, d.field])).toEqual([['reference ${dq_alert.b.entity_id} names an attribute dqform does not know', 'title']]);
  });

  it('what each attribute resolves to: id and entity_id of an owner, id and fqn of an alert; the target becomes a dependency', () => {
    const r = resolveManifest(
      load({
        dq_owner: { t: { title: 'T' } },
        dq_alert: { b: alert([{ slack: { channel: '#b' } }], { fqn: 'shop.custom_b' }) },
        dq_data_product: { p: { title: 'id ${dq_owner.t.id}, entity ${dq_owner.t.entity_id}, alert ${dq_alert.b.id}, fqn ${dq_alert.b.fqn}', description: 'same ${dq_data_product.p.id}' } },
      }),
      WS,
    );
    expect(r.diagnostics).toEqual([]);
    const id = deriveId(WS, NS, 'dq_owner', 't');
    const p = r.resources.find((x) => x.address === 'dq_data_product.p')!;
    expect(p.desired.title).toBe(`id ${id}, entity owner-${id}, alert shop.custom_b, fqn shop.custom_b`);
    expect(p.desired.description).toBe(`same ${deriveId(WS, NS, 'dq_data_product', 'p')}`);
    expect(p.dependsOn).toEqual(['dq_alert.b', 'dq_owner.t']);
    expect(r.resources.map((x) => x.address)).toEqual(['dq_alert.b', 'dq_data_product.p', 'dq_owner.t']);
  });

  it('a reference in a list is reported at its index; the config without references is kept as it is', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert([{ slack: { channel: '#a' } }, { owner: { owner_path: '${dq_owner.x.id}' } }]) } }), WS);
    expect(r.diagnostics.map((d) => d.field)).toEqual(['issueLifecycle.targets[1].owner.ownerPath']);
    const clean = load({ dq_owner: { t: { title: 'T' } } });
    expect(resolveManifest(clean, WS).resources[0].desired).toMatchObject({ title: 'T' });
  });
});

describe('fields', () => {
  it('an unknown field with a near name: did you mean, and the known fields with where to fix it', () => {
    const r = resolveManifest(load({ dq_owner: { t: { title: 'T', titel: 'x', ...meta('shop/t') } } }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        summary: 'titel: unknown field "titel" (did you mean "title"?)',
        address: 'dq_owner.t',
        source: 'shop/t',
        field: 'titel',
        hint: expect.stringMatching(/^Remove it or correct its name in shop\/t; known fields here: .*\btitle\b.*\.$/),
      },
    ]);
    expect(r.resources).toEqual([]);
  });

  it('an unknown field with no near name, nested: no guess; the address stands in for a missing source', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert([{ slack: { channel: '#a', zzzzzzzzzz: 1 } }]) } }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        summary: 'issueLifecycle.targets[0].slack.zzzzzzzzzz: unknown field "zzzzzzzzzz"',
        address: 'dq_alert.a',
        field: 'issueLifecycle.targets[0].slack.zzzzzzzzzz',
        hint: expect.stringMatching(/^Remove it or correct its name in dq_alert\.a; known fields here: .*channel/),
      },
    ]);
  });

  it('a wrong type: the field in the code\'s keys, the hint in Terraform\'s spelling and where', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert([{ slack: { channel: '#a' } }], { is_disabled: 'yes', ...meta('shop/a') }) } }), WS);
    expect(r.diagnostics).toEqual([
      { severity: 'error', summary: expect.stringMatching(/^isDisabled: /), address: 'dq_alert.a', source: 'shop/a', field: 'isDisabled', hint: 'Fix the "is_disabled" attribute in shop/a.' },
    ]);
    expect(r.resources).toEqual([]);
  });
});

describe('identity', () => {
  it('one owner id pinned twice: both addresses, what to do', () => {
    const id = 'abababab-abab-4bab-8bab-abababababab';
    const r = resolveManifest(load({ dq_owner: { a: { title: 'A', id }, b: { title: 'B', id: `owner-${id.toUpperCase()}`, ...meta('shop/b') } } }), WS, { offline: true });
    expect(r.diagnostics).toEqual([
      { severity: 'error', summary: `id ${id} is declared twice (dq_owner.a and dq_owner.b)`, address: 'dq_owner.b', source: 'shop/b', hint: 'Pin a different id or fqn on one of them.' },
    ]);
  });

  it('one alert fqn declared twice (a pin and a default): named by the fqn', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert([{ slack: { channel: '#a' } }]), b: alert([{ slack: { channel: '#b' } }], { fqn: 'shop.a' }) } }), WS);
    expect(r.diagnostics.map((d) => [d.summary, d.address])).toEqual([['fqn "shop.a" is declared twice (dq_alert.a and dq_alert.b)', 'dq_alert.b']]);
  });

  it('one id pinned on two kinds is no duplicate: ids are per kind (issue 27: checked by kind, then id)', () => {
    const id = 'cdcdcdcd-cdcd-4dcd-8dcd-cdcdcdcdcdcd';
    const r = resolveManifest(load({ dq_owner: { a: { title: 'A', id } }, dq_domain: { d: { name: 'D', id } } }), WS, { offline: true });
    expect(r.diagnostics.filter((d) => d.summary.includes('declared twice'))).toEqual([]);
    expect(r.resources.map((x) => [x.address, x.id])).toEqual([
      ['dq_domain.d', id],
      ['dq_owner.a', id],
    ]);
  });

  it('a moved block that changes the type is refused', () => {
    const r = resolveManifest(load({ dq_domain: { d: { name: 'D' } } }, { moved: [{ from: 'dq_owner.d', to: 'dq_domain.d' }] }), WS);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([
      { severity: 'error', summary: 'moved block changes the type (dq_owner.d -> dq_domain.d)', address: 'dq_domain.d', hint: 'A moved block keeps the resource type.' },
    ]);
  });

  it('a moved block keeps the old name\'s id; the resource says where it moved from', () => {
    const r = resolveManifest(load({ dq_owner: { b: { title: 'B' } } }, { moved: [{ from: 'dq_owner.a', to: 'dq_owner.b' }] }), WS);
    expect(r.resources.map((x) => [x.address, x.id, x.movedFrom, x.importedId])).toEqual([['dq_owner.b', deriveId(WS, NS, 'dq_owner', 'a'), 'dq_owner.a', undefined]]);
  });

  it('one import block of an alert: "their object" and an fqn pin in the info line; a pinned import is not listed', () => {
    const r = resolveManifest(load({ dq_alert: { a: alert([{ slack: { channel: '#a' } }]), b: alert([{ slack: { channel: '#b' } }], { fqn: 'ui.b' }) } }, { import: [{ to: 'dq_alert.a', id: 'ui.a' }, { to: 'dq_alert.b', id: 'ui.b' }] }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'info',
        summary: '1 import block(s) hold the identity of their object: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)',
        detail: 'dq_alert.a: imported "ui.a", or pin fqn = "ui.a"',
      },
    ]);
    expect(r.resources.map((x) => [x.address, x.id, x.fqn, x.importedId])).toEqual([
      ['dq_alert.a', 'ui.a', 'shop.a', 'ui.a'],
      ['dq_alert.b', 'ui.b', 'ui.b', 'ui.b'],
    ]);
  });

  it('one moved block alone: "1 moved block(s)"', () => {
    const r = resolveManifest(load({ dq_owner: { b: { title: 'B' } } }, { moved: [{ from: 'dq_owner.a', to: 'dq_owner.b' }] }), WS);
    expect(r.diagnostics.map((d) => d.summary)).toEqual(['1 moved block(s) hold the identity of their object: keep them, or pin the id/fqn (dqform keeps no state; without either, a later plan replaces the object)']);
  });

  it('offline, an id tagged for another namespace is not judged (the workspace is a stand-in)', () => {
    const id = deriveId(WS, 'elsewhere', 'dq_owner', 'x');
    const m = load({ dq_owner: { t: { title: 'T', id } } });
    expect(resolveManifest(m, WS, { offline: true }).diagnostics).toEqual([]);
    expect(resolveManifest(m, WS).diagnostics.map((d) => d.severity)).toEqual(['error']);
  });

  it('an imported id tagged for another namespace: "imported", no field, and the hint says to drop the import block', () => {
    const id = deriveId(WS, 'elsewhere', 'dq_owner', 'x');
    const r = resolveManifest(load({ dq_owner: { t: { title: 'T' } } }, { import: [{ to: 'dq_owner.t', id }] }), WS);
    const e = r.diagnostics.find((d) => d.severity === 'error')!;
    expect(e).toEqual({
      severity: 'error',
      summary: `imported id "${id}" carries the tag of another namespace, not of namespace "shop" (this stack): two stacks would manage one object`,
      address: 'dq_owner.t',
      field: undefined,
      hint: 'An object belongs to the namespace its id is tagged with. Manage it in the stack of that namespace, or drop the import block so that this stack creates its own object.',
    });
  });
});

describe('removed blocks', () => {
  it('ids: an alert\'s default fqn or the one given; an owner\'s derived or the one given, canonicalised', () => {
    const id = 'abababab-abab-4bab-8bab-abababababab';
    const r = resolveManifest(
      load({}, {
        removed: [
          { from: 'dq_alert.a' },
          { from: 'dq_alert.b', id: 'x.b', lifecycle: { destroy: false } },
          { from: 'dq_owner.c' },
          { from: 'dq_owner.d', id: `owner-${id.toUpperCase()}` },
          { from: 'dq_sql_test.e', id: 'Some-Id' },
        ],
      }),
      WS,
    );
    expect(r.removed).toEqual([
      { address: 'dq_alert.a', type: 'dq_alert', id: 'shop.a', fqn: 'shop.a', explicitId: false, destroy: true },
      { address: 'dq_alert.b', type: 'dq_alert', id: 'x.b', fqn: 'x.b', explicitId: true, destroy: false },
      { address: 'dq_owner.c', type: 'dq_owner', id: deriveId(WS, NS, 'dq_owner', 'c'), explicitId: false, destroy: true },
      { address: 'dq_owner.d', type: 'dq_owner', id, explicitId: true, destroy: true },
      { address: 'dq_sql_test.e', type: 'dq_sql_test', id: 'Some-Id', explicitId: true, destroy: true },
    ]);
  });
});

describe('ResolverQL', () => {
  it('a text that does not parse: an error at its field, in every resource', () => {
    const r = resolveManifest(load({ dq_alert: { a: { ...alert([{ slack: { channel: '#a' } }]), issue_lifecycle: { trigger: { resolver_ql: 'with_type(' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } }), WS);
    expect(r.diagnostics).toEqual([{ severity: 'error', summary: expect.stringMatching(/^issueLifecycle\.trigger\.resolverQl: \S/), address: 'dq_alert.a', field: 'issueLifecycle.trigger.resolverQl', hint: 'Fix the ResolverQL text.' }]);
    // the same text again: the same error (the parse is remembered, not its absence)
    const again = resolveManifest(load({ dq_alert: { b: { ...alert([]), issue_lifecycle: { trigger: { resolver_ql: 'with_type(' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } }), WS);
    expect(again.diagnostics.map((d) => [d.address, d.summary])).toEqual([['dq_alert.b', r.diagnostics[0].summary.replace('dq_alert.a', 'dq_alert.b')]]);
  });

  it('a function dqform does not know: a warning that the platform checks it; the resource stays', () => {
    const r = resolveManifest(load({ dq_alert: { a: { ...alert([]), issue_lifecycle: { trigger: { resolver_ql: 'with_frobnicate("x")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'warning',
        summary: expect.stringMatching(/^issueLifecycle\.trigger\.resolverQl: .*with_frobnicate/),
        address: 'dq_alert.a',
        field: 'issueLifecycle.trigger.resolverQl',
        hint: 'dqform cannot check this function offline; the platform does (plan previews it, apply refuses what the platform refuses). Check the spelling if it is not a platform function.',
      },
    ]);
    expect(r.resources.map((x) => x.address)).toEqual(['dq_alert.a']);
  });
});

describe('domain cycles', () => {
  it('two domains each the other\'s parent: the chain from each, at the parent field', () => {
    const r = resolveManifest(load({ dq_domain: { a: { name: 'A', parent_id: '${dq_domain.b.id}' }, b: { name: 'B', parent_id: '${dq_domain.a.entity_id}' } } }), WS);
    expect(r.diagnostics.filter((d) => d.summary.startsWith('domain cycle')).map((d) => [d.summary, d.address, d.field, d.hint])).toEqual([
      ['domain cycle: dq_domain.a -> dq_domain.b -> dq_domain.a', 'dq_domain.a', 'parentId', 'A domain cannot be its own ancestor; break the loop.'],
      ['domain cycle: dq_domain.b -> dq_domain.a -> dq_domain.b', 'dq_domain.b', 'parentId', 'A domain cannot be its own ancestor; break the loop.'],
    ]);
  });

  it('a chain that ends (a parent not declared here) is no cycle', () => {
    const r = resolveManifest(load({ dq_domain: { a: { name: 'A', parent_id: '${dq_domain.b.id}' }, b: { name: 'B', parent_id: 'abababab-abab-4bab-8bab-abababababab' } } }), WS);
    expect(r.diagnostics).toEqual([]);
  });
});

describe('text fields checked offline', () => {
  it('a bad RRULE of a SQL test: an error at the field, the hint with where to fix it; the resource is still resolved', () => {
    const r = resolveManifest(load({ dq_sql_test: { t: { name: 'T', platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1', recurrence_rule: 'FREQ=NOPE', ...meta('shop/t') } } }), WS);
    expect(r.diagnostics).toEqual([
      {
        severity: 'error',
        summary: expect.stringMatching(/^recurrenceRule: bad RRULE "FREQ=NOPE": \S/),
        address: 'dq_sql_test.t',
        source: 'shop/t',
        field: 'recurrenceRule',
        hint: 'Fix it in shop/t: write an iCal RRULE, e.g. "FREQ=DAILY;BYHOUR=6" (leave it out to run on demand).',
      },
    ]);
    expect(r.resources.map((x) => x.address)).toEqual(['dq_sql_test.t']);
  });

  it('a bad ResolverQL text and a bad cron in one alert: both, the ResolverQL error first, each at its field', () => {
    const lifecycle = (ql: string, cron: string) => ({ trigger: { resolver_ql: ql }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'], ongoing: { schedule: { cron } } } });
    const r = resolveManifest(load({ dq_alert: { a: { ...alert([]), issue_lifecycle: lifecycle('with_type(', '61 * * * *') } } }), WS);
    expect(r.diagnostics.map((d) => [d.severity, d.field, d.summary.split(':')[0]])).toEqual([
      ['error', 'issueLifecycle.trigger.resolverQl', 'issueLifecycle.trigger.resolverQl'],
      ['error', 'issueLifecycle.settings.ongoing.schedule.cron', 'issueLifecycle.settings.ongoing.schedule.cron'],
    ]);
    expect(r.diagnostics[1].summary).toMatch(/bad cron "61 \* \* \* \*"/);
    // a clean text and a good cron: nothing
    expect(resolveManifest(load({ dq_alert: { a: { ...alert([]), issue_lifecycle: lifecycle('with_type("table")', '0 9 * * 1-5') } } }), WS).diagnostics).toEqual([]);
  });

  it("one RRULE text without an inline start: fine for a SQL test, refused for a SQL-test rule (the kind's own check, in the same walk)", () => {
    const rrule = 'FREQ=DAILY;BYHOUR=7';
    const r = resolveManifest(
      load({
        dq_sql_test: { t: { name: 'T', platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1', recurrence_rule: rrule } },
        dq_sql_test_deployment_rule: { r: { title: 'R', static_config: { path: 'wh::none::t0', recurrence_rule: rrule, tests: [{ name: 'ids', not_null: { columns: ['id'] } }] } } },
      }),
      WS,
    );
    expect(r.diagnostics.map((d) => [d.severity, d.address, d.field])).toEqual([['error', 'dq_sql_test_deployment_rule.r', 'staticConfig.recurrenceRule']]);
    expect(r.diagnostics[0].summary).toMatch(/^staticConfig\.recurrenceRule: RRULE "FREQ=DAILY;BYHOUR=7" has no inline DTSTART/);
    expect(r.resources.map((x) => x.address)).toEqual(['dq_sql_test.t', 'dq_sql_test_deployment_rule.r']);
  });

  it('a good RRULE says nothing', () => {
    const r = resolveManifest(load({ dq_sql_test: { t: { name: 'T', platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1', recurrence_rule: 'FREQ=DAILY;BYHOUR=6' } } }), WS);
    expect(r.diagnostics).toEqual([]);
  });
});
