/**
 * `dqform import` in-process (src/engine/import.ts): reading live state through a recording fake
 * client, choosing (namespace, other namespaces, made in the UI, `--adopt` and its narrowing),
 * naming, references, and the exact YAML and TypeScript written. The live objects of
 * fixtures/team-live.json were read from an emulator after applying a workspace of every kind
 * (plus objects made in the UI); fixtures/team-{plain,adopt}.{yaml,ts.txt} are what import writes
 * for them, byte for byte. That the written files plan as no change against live is
 * test/import/import.test.ts (emulator, tsx child process).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { adoptNarrowing, desiredFromLive, importNamespace, ownerOf, planImport, readForImport, renderTs, renderYaml, slug, tsLiteral, type ImportResult, type LiveItem } from '../../src/engine/import';
import { deriveId } from '../../src/engine/identity';
import { manifestFromYaml } from '../../src/engine/yaml';
import { fakeClient } from '../handlers/fake-client';

const FIXTURES = path.join(__dirname, 'fixtures');
const fixture = (f: string) => fs.readFileSync(path.join(FIXTURES, f), 'utf8');
const LIVE = JSON.parse(fixture('team-live.json')) as { workspace: string; items: LiveItem[] };
const WS = 'demo';
const NS = 'team';
const OPTS = { namespace: NS, workspace: WS };

const item = (type: LiveItem['type'], key: string, raw: Record<string, unknown>, extra: Partial<LiveItem> = {}): LiveItem => ({ type, key, raw, ...extra });
const ours = (type: LiveItem['type'], name: string) => deriveId(WS, NS, type, name);
const theirs = (type: LiveItem['type'], name: string) => deriveId(WS, 'other', type, name);
const UI_ID = (n: number) => `0a0a0000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const listOf = (r: ImportResult) => r.objects.map((o) => `${o.type} ${o.name} ${o.key}${o.adopted ? ' adopted' : ''}`);

describe('readForImport: what import reads', () => {
  const answers = () => ({
    'iam.get': { workspace: WS },
    'alerts.list': ['a2', 'a1'],
    'alerts.batchGet': (ids: unknown) => Object.fromEntries((ids as { id: string }[]).map(({ id }) => [id, { id, fqn: `${NS}.${id}`, name: id, ...(id === 'a1' ? { configId: NS } : {}), source: 'SOURCE_API' }])),
    'deploymentRules.list': [{ id: 'r1', configId: 'other', title: 'R' }],
    'sqlTests.list': [{ id: 't1', configId: NS, deploymentRuleId: 'sr1', name: 'T' }],
    'sqlTestRules.list': [{ id: 'sr1', configId: NS, title: 'S' }],
    'owners.listOwners': [{ id: 'o2', title: 'O2', source: 'SOURCE_UI' }, { id: 'o1', title: 'O1' }],
    'owners.listOwnerships': (id: unknown) => [{ id: `os-${String(id)}`, ownerId: id }],
    'domains.list': [{ id: 'd1', name: 'D' }],
    'dataProducts.list': [{ id: 'p1', title: 'P' }],
    'integrations.list': [{ id: 'plat-1', title: 'I [dqform:0227e68e-e962-8690-9c44-9f0ce3f45f49]' }],
    'savedViews.list': [{ id: 'v1', title: 'V' }],
    'categorisationRules.list': [
      { id: 'c1', title: 'C', scope: 'WORKSPACE' },
      { id: 'g1', title: 'G', scope: 'GLOBAL' },
    ],
  });

  test('the configId kinds by their read (every namespace), then every other kind listed whole; ownerships of every listed owner', async () => {
    const { client, calls } = fakeClient(answers());
    const r = await readForImport(client, NS);
    expect(r.workspace).toBe(WS);
    expect(r.items).toEqual([
      { type: 'dq_alert', key: 'team.a1', configId: NS, source: 'SOURCE_API', deploymentRuleId: undefined, raw: { id: 'a1', fqn: 'team.a1', name: 'a1', configId: NS, source: 'SOURCE_API' } },
      { type: 'dq_alert', key: 'team.a2', configId: undefined, source: 'SOURCE_API', deploymentRuleId: undefined, raw: { id: 'a2', fqn: 'team.a2', name: 'a2', source: 'SOURCE_API' } },
      { type: 'dq_monitor_deployment_rule', key: 'r1', configId: 'other', source: undefined, deploymentRuleId: undefined, raw: { id: 'r1', configId: 'other', title: 'R' } },
      { type: 'dq_sql_test', key: 't1', configId: NS, source: undefined, deploymentRuleId: 'sr1', raw: { id: 't1', configId: NS, deploymentRuleId: 'sr1', name: 'T' } },
      { type: 'dq_sql_test_deployment_rule', key: 'sr1', configId: NS, source: undefined, deploymentRuleId: undefined, raw: { id: 'sr1', configId: NS, title: 'S' } },
      { type: 'dq_owner', key: 'o2', source: 'SOURCE_UI', raw: { id: 'o2', title: 'O2', source: 'SOURCE_UI' } },
      { type: 'dq_owner', key: 'o1', source: undefined, raw: { id: 'o1', title: 'O1' } },
      { type: 'dq_domain', key: 'd1', source: undefined, raw: { id: 'd1', name: 'D' } },
      { type: 'dq_data_product', key: 'p1', source: undefined, raw: { id: 'p1', title: 'P' } },
      { type: 'dq_ownership', key: 'os-o1', raw: { id: 'os-o1', ownerId: 'o1' } },
      { type: 'dq_ownership', key: 'os-o2', raw: { id: 'os-o2', ownerId: 'o2' } },
      { type: 'dq_integration', key: '0227e68e-e962-8690-9c44-9f0ce3f45f49', raw: { id: 'plat-1', title: 'I [dqform:0227e68e-e962-8690-9c44-9f0ce3f45f49]' } },
      { type: 'dq_saved_view', key: 'v1', source: undefined, raw: { id: 'v1', title: 'V' } },
      { type: 'dq_check_categorisation_rule', key: 'c1', source: undefined, raw: { id: 'c1', title: 'C', scope: 'WORKSPACE' } },
    ]);
    // the fields of what the configId kinds' read lifts are there, not only equal to undefined
    expect(Object.keys(r.items[0]).sort()).toEqual(['configId', 'deploymentRuleId', 'key', 'raw', 'source', 'type']);
    expect(calls.map((c) => c.op)).toEqual([
      'iam.get',
      'alerts.list',
      'alerts.batchGet',
      'deploymentRules.list',
      'sqlTests.list',
      'sqlTestRules.list',
      'owners.listOwners',
      'domains.list',
      'dataProducts.list',
      'integrations.list',
      'savedViews.list',
      'categorisationRules.list',
      'owners.listOwnerships',
      'owners.listOwnerships',
    ]);
    expect(calls.filter((c) => c.op === 'owners.listOwnerships').map((c) => c.args[0])).toEqual(['o1', 'o2']);
  });

  test('importNamespace: the read, the choice and the text in the format asked for', async () => {
    const yaml = await importNamespace(fakeClient(answers()).client, { namespace: NS, format: 'yaml' });
    expect(yaml.workspace).toBe(WS);
    // the integration's marker carries the namespace's derived id; the other ids are no derived ids (made in the UI)
    expect(listOf(yaml)).toEqual(['dq_alert a1 team.a1', 'dq_sql_test_deployment_rule s sr1', 'dq_integration i 0227e68e-e962-8690-9c44-9f0ce3f45f49']);
    expect(yaml.left).toEqual({ otherNamespace: 1, madeInUi: 9, byRule: 1 });
    expect(yaml.namespacesSeen).toEqual(['other', 'team']);
    expect(yaml.text).toBe(renderYaml(yaml, { namespace: NS }));
    expect(yaml.text).toMatch(/^# yaml-language-server/);
    const ts = await importNamespace(fakeClient(answers()).client, { namespace: NS, format: 'ts', adopt: true, adoptKinds: ['dq_owner'], stack: 'prod' });
    expect(listOf(ts)).toEqual(['dq_owner o1 o1 adopted', 'dq_owner o2 o2 adopted', 'dq_alert a1 team.a1', 'dq_sql_test_deployment_rule s sr1', 'dq_integration i 0227e68e-e962-8690-9c44-9f0ce3f45f49']);
    expect(ts.left).toEqual({ otherNamespace: 1, madeInUi: 7, byRule: 1 });
    expect(ts.text).toBe(renderTs(ts, { namespace: NS, stack: 'prod' }));
    expect(ts.text).toContain("const stack = new DqStack(app, 'prod', { namespace: 'team' });");
  });
});

describe('ownerOf: whose a live object is, seen from the namespace', () => {
  test.each<[string, LiveItem, ReturnType<typeof ownerOf>]>([
    ['alert with configId = namespace', item('dq_alert', 'team.a', {}, { configId: NS }), 'namespace'],
    ['alert with another configId', item('dq_alert', 'team.a', {}, { configId: 'other' }), 'other'],
    ['alert without configId (an fqn is never a tag, even one shaped like a derived id)', item('dq_alert', theirs('dq_alert', 'a'), {}), 'none'],
    ['rule without configId, id tagged for another namespace', item('dq_monitor_deployment_rule', theirs('dq_monitor_deployment_rule', 'r'), {}), 'other'],
    ['rule without configId, id tagged for the namespace (configId decides: made elsewhere)', item('dq_monitor_deployment_rule', ours('dq_monitor_deployment_rule', 'r'), {}), 'none'],
    ['rule without configId, UI id', item('dq_monitor_deployment_rule', UI_ID(1), {}), 'none'],
    ['rule with configId = namespace, id tagged for another', item('dq_monitor_deployment_rule', theirs('dq_monitor_deployment_rule', 'r'), {}, { configId: NS }), 'namespace'],
    ['owner tagged for the namespace', item('dq_owner', ours('dq_owner', 'o'), {}), 'namespace'],
    ['owner tagged for the namespace, entity-id form', item('dq_owner', `owner-${ours('dq_owner', 'o')}`, {}), 'namespace'],
    ['owner tagged for another namespace', item('dq_owner', theirs('dq_owner', 'o'), {}), 'other'],
    ['owner with a configId of the namespace is still judged by its id', item('dq_owner', UI_ID(2), {}, { configId: NS }), 'none'],
    ['owner with a UI id', item('dq_owner', UI_ID(2), {}), 'none'],
  ])('%s', (_why, i, want) => {
    expect(ownerOf(i, WS, NS)).toBe(want);
  });
  test('the tag is per workspace', () => {
    expect(ownerOf(item('dq_owner', ours('dq_owner', 'o'), {}), 'prod', NS)).toBe('other');
  });
});

describe('desiredFromLive: the config code declares for a live object', () => {
  test('server fields and zero values dropped, keys sorted, id pinned first', () => {
    const id = ours('dq_data_product', 'p');
    const raw = {
      title: 'Orders',
      id,
      entityId: `dataproduct-${id}`,
      etag: 'W/"3"',
      createdAt: 'x',
      updatedAt: 'x',
      deletedAt: 'x',
      createdBy: 'x',
      updatedBy: 'x',
      source: 'SOURCE_API',
      configId: NS,
      monitorCount: 3,
      testCount: 2,
      deploymentRuleId: 'r',
      inputTables: ['t'],
      fqn: 'x.y',
      folder: '',
      description: null,
      priority: 'PRIORITY_UNSPECIFIED',
      flag: false,
      zero: 0,
      tags: [],
      nested: { a: '', b: [{ c: false, d: 'x' }], e: 'SEVERITY_UNSPECIFIED', f: true },
      kept: 'NOT_UNSPECIFIED_YET',
    };
    const c = desiredFromLive(item('dq_data_product', id, raw));
    expect(c).toEqual({ id, kept: 'NOT_UNSPECIFIED_YET', nested: { b: [{ d: 'x' }], f: true }, title: 'Orders', zero: 0 });
    expect(Object.keys(c)).toEqual(['id', 'kept', 'nested', 'title', 'zero']);
  });

  test('an alert is pinned by its fqn (first), not its id', () => {
    const c = desiredFromLive(item('dq_alert', 'team.a', { id: 'server-id', fqn: 'team.a', name: 'A', configId: NS, incidentLifecycle: { settings: {} } }, { configId: NS }));
    expect(c).toEqual({ fqn: 'team.a', incidentLifecycle: { settings: {} }, name: 'A' });
    expect(Object.keys(c)[0]).toBe('fqn');
  });

  test('queries: the server translation dropped when ResolverQL is there; the rendering stands for missing ResolverQL', () => {
    const parts = [{ inFolder: { path: ['f'] } }];
    const at = (trigger: Record<string, unknown>) => (desiredFromLive(item('dq_alert', 'team.a', { name: 'A', schemaChange: { trigger } })).schemaChange as Record<string, unknown>).trigger;
    // ResolverQL and the server's model: only ResolverQL
    expect(at({ query: { parts }, resolverQl: 'in_folder("f")', renderedResolverQl: 'in_folder( "f" )' })).toEqual({ resolverQl: 'in_folder("f")' });
    // only the rendering: it becomes the ResolverQL
    expect(at({ query: { parts }, renderedResolverQl: 'in_folder("f")' })).toEqual({ resolverQl: 'in_folder("f")' });
    // empty ResolverQL and rendering: the model is what there is
    expect(at({ query: { parts }, resolverQl: '', renderedResolverQl: '' })).toEqual({ query: { parts } });
    // a `query` that is not a model (no parts array) is kept
    expect(at({ query: { operand: 'QUERY_OPERAND_AND' }, resolverQl: 'x' })).toEqual({ query: { operand: 'QUERY_OPERAND_AND' }, resolverQl: 'x' });
    expect(at({ query: 'text', resolverQl: 'x' })).toEqual({ query: 'text', resolverQl: 'x' });
  });

  test('definition parts lose their server-minted ids; an empty definition, template or alert is left out', () => {
    const id = ours('dq_domain', 'd');
    expect(desiredFromLive(item('dq_domain', id, { id, name: 'D', definition: { parts: [{ id: 'p-1', dataproductId: 'x' }, 'odd', { id: 'p-2', query: { renderedResolverQl: 'q' } }] } }))).toEqual({
      id,
      definition: { parts: [{ dataproductId: 'x' }, 'odd', { query: { resolverQl: 'q' } }] },
      name: 'D',
    });
    expect(desiredFromLive(item('dq_domain', id, { id, name: 'D', definition: { parts: [] } }))).toEqual({ id, name: 'D' });
    expect(desiredFromLive(item('dq_domain', id, { id, name: 'D', definition: { note: 'kept' } }))).toEqual({ id, definition: { note: 'kept' }, name: 'D' });
    const o = ours('dq_ownership', 'o');
    expect(desiredFromLive(item('dq_ownership', o, { id: o, ownerId: 'x', alert: { severities: [] }, template: { a: '' }, selection: {} }))).toEqual({ id: o, ownerId: 'x', selection: {} });
    expect(desiredFromLive(item('dq_ownership', o, { id: o, ownerId: 'x', alert: { notifyUpstream: true } }))).toEqual({ id: o, alert: { notifyUpstream: true }, ownerId: 'x' });
  });

  test("a disabled integration is imported disabled: the read form's `enabled: false` is no zero value to drop", () => {
    const id = ours('dq_integration', 'pg');
    const disabled = item('dq_integration', id, { id: 'plat-1', title: `PG [dqform:${id}]`, config: { relational: { host: 'h', ssl: false } }, disabled: true });
    expect(desiredFromLive(disabled)).toEqual({ id, config: { relational: { host: 'h' } }, enabled: false, title: 'PG' });
    // an enabled one: nothing to say
    expect(desiredFromLive({ ...disabled, raw: { ...disabled.raw, disabled: false } })).toEqual({ id, config: { relational: { host: 'h' } }, title: 'PG' });
    const r = planImport([disabled], OPTS);
    expect(r.warnings).toEqual([]);
    expect(renderYaml(r, OPTS)).toContain('    title: PG\n    config:\n      relational:\n        host: h\n    enabled: false\n');
    expect(renderTs(r, OPTS)).toContain(`  new Integration(stack, 'pg', {\n    id: '${id}',\n    title: 'PG',\n    config: { relational: { host: 'h' } },\n    enabled: false,\n  });`);
  });

  test("the kind's read form first (a SQL test's platform messages in dqform's shape)", () => {
    const c = desiredFromLive(item('dq_sql_test', 't1', { id: 't1', name: 'T', platform: { integrationId: 'i' }, template: { identifier: { table: 'x' }, notNullTest: { columnNames: ['a'] } } }, { configId: NS }));
    expect(c).toEqual({ id: 't1', name: 'T', platform: { integrationId: 'i' }, template: { identifier: { table: 'x' }, notNull: { columns: ['a'] } } });
  });
});

describe('slug', () => {
  test.each([
    ['Commerce data team', 'commerce_data_team'],
    ['  Ünïcode -- Orders!! ', 'unicode_orders'],
    ['42 tables', 'owner_42_tables'],
    ['!!!', 'owner'],
    ['', 'owner'],
    ['Ａｃｍｅ', 'acme'],
    ['__a__b__', 'a_b'],
    ['x'.repeat(70), 'x'.repeat(60)],
    [`${'a'.repeat(59)} b`, 'a'.repeat(59)],
    [`${'a'.repeat(58)}  bcd`, `${'a'.repeat(58)}_b`],
    ['9', 'owner_9'],
  ])('slug(%j) = %j', (input, want) => {
    expect(slug(input, 'owner')).toBe(want);
  });
});

describe('planImport: what is chosen', () => {
  const plain = () => planImport(LIVE.items, OPTS);
  const adopt = (extra: Parameters<typeof planImport>[1] extends infer O ? Partial<O> : never = {}) => planImport(LIVE.items, { ...OPTS, adopt: true, ...extra });

  test("the namespace's objects of every kind; others counted by why they were left out", () => {
    const r = plain();
    expect(listOf(r)).toEqual([
      'dq_owner data_team 0227e68e-e962-8b9d-96dd-abdb7bd7afe1',
      'dq_owner finance 0227e68e-e962-8304-ae77-0328d5111ba8',
      'dq_domain commerce 0227e68e-e962-8860-91e8-8b08d9f4077a',
      'dq_domain retail 0227e68e-e962-8086-a191-7d4545651e50',
      'dq_data_product orders 0227e68e-e962-8c36-9d5d-27c56abd2e5a',
      'dq_ownership data_team_owns_orders 0227e68e-e962-8a65-af2d-a9fe8c139679',
      'dq_ownership finance_owns_selection 0227e68e-e962-8303-889c-9084a2def59c',
      'dq_alert incidents team.incidents',
      'dq_alert orders_issues team.orders_issues',
      'dq_alert schema_changes team.schema_changes',
      'dq_monitor_deployment_rule mart_tables 0227e68e-e962-8a70-8285-a586fab74529',
      'dq_monitor_deployment_rule orders_product 0227e68e-e962-8ece-9111-db40dc3837d8',
      'dq_monitor_deployment_rule orders_static 0227e68e-e962-8088-9dd7-ae48e7c7ebf7',
      'dq_sql_test fct_orders_order_id_is_never_null 0227e68e-e962-8bb8-970e-0fb5b19455d1',
      'dq_sql_test no_negative_totals_it_s_a_quoted_name 0227e68e-e962-8abf-a3f8-b470e13864f2',
      'dq_sql_test_deployment_rule orders_tests 0227e68e-e962-8e9c-9841-2928e826d401',
      'dq_integration warehouse_pg 0227e68e-e962-8690-9c44-9f0ce3f45f49',
      'dq_saved_view open_issues_on_pii_tables 0227e68e-e962-8f08-9d01-f516f5dda31d',
      'dq_check_categorisation_rule sql_tests 0227e68e-e962-8301-9820-16cf89f56fe1',
    ]);
    // other namespace: its alert and its owner; in the UI: 3 ownerships, an owner, a domain, an alert, a rule; by a rule: one SQL test
    expect(r.left).toEqual({ otherNamespace: 2, madeInUi: 7, byRule: 1 });
    expect(r.namespacesSeen).toEqual(['other', 'team']);
    expect(r.warnings).toEqual([]);
  });

  test('--adopt: objects made in the UI too, marked adopted; an ownership made in the UI only with its owner', () => {
    const r = adopt();
    expect(listOf(r).filter((l) => l.endsWith(' adopted'))).toEqual([
      'dq_owner data_platform_team_made_in_the_ui 5eed0000-0000-4000-8000-000000000e7a adopted',
      'dq_domain retail_made_in_the_ui 5eed0000-0000-4000-8000-0000000d0a1a adopted',
      'dq_ownership data_platform_team_made_in_the_ui_owns_selection 0a0a0000-0000-4000-8000-000000000004 adopted',
      'dq_ownership data_team_owns_selection 0a0a0000-0000-4000-8000-000000000005 adopted',
      'dq_alert ui_orders_freshness ui.orders-freshness adopted',
      'dq_monitor_deployment_rule ui_rule 6f1c2a8e-0000-4000-8000-000000000001 adopted',
    ]);
    expect(listOf(r).filter((l) => !l.endsWith(' adopted'))).toEqual(listOf(plain()));
    // the ownership of the other namespace's owner stays out
    expect(r.left).toEqual({ otherNamespace: 2, madeInUi: 1, byRule: 1 });
  });

  test('--adopt-kind and --adopt-id narrow what is adopted (ids case-insensitively); an ownership needs its owner adopted', () => {
    const adopted = (r: ImportResult) => r.objects.filter((o) => o.adopted).map((o) => `${o.type}:${o.key}`);
    expect(adopted(adopt({ adoptKinds: ['dq_alert', 'dq_domain'] }))).toEqual(['dq_domain:5eed0000-0000-4000-8000-0000000d0a1a', 'dq_alert:ui.orders-freshness']);
    expect(adopt({ adoptKinds: ['dq_alert', 'dq_domain'] }).left.madeInUi).toBe(5);
    expect(adopted(adopt({ adoptIds: ['UI.Orders-Freshness', '6F1C2A8E-0000-4000-8000-000000000001'] }))).toEqual(['dq_alert:ui.orders-freshness', 'dq_monitor_deployment_rule:6f1c2a8e-0000-4000-8000-000000000001']);
    expect(adopted(adopt({ adoptKinds: ['dq_owner'], adoptIds: ['ui.orders-freshness'] }))).toEqual([]);
    expect(adopted(adopt({ adoptKinds: ['dq_ownership'] }))).toEqual(['dq_ownership:0a0a0000-0000-4000-8000-000000000005']);
    expect(adopted(adopt({ adoptIds: [UI_ID(4)] }))).toEqual([]);
    expect(adopted(adopt({ adoptIds: [UI_ID(4), '5eed0000-0000-4000-8000-000000000e7a'] }))).toEqual(['dq_owner:5eed0000-0000-4000-8000-000000000e7a', `dq_ownership:${UI_ID(4)}`]);
    // without --adopt the narrowing takes nothing
    expect(adopted(planImport(LIVE.items, { ...OPTS, adoptKinds: ['dq_alert'], adoptIds: ['ui.orders-freshness'] }))).toEqual([]);
  });

  test("an ownership made in the UI comes with its owner named in the entity-id form; one of the namespace's own comes without", () => {
    const owner = UI_ID(9);
    const items = [
      item('dq_owner', owner, { id: owner, title: 'UI' }),
      item('dq_ownership', UI_ID(10), { id: UI_ID(10), ownerId: `OWNER-${owner.toUpperCase()}`, selection: { query: { resolverQl: 'q' } } }),
      item('dq_ownership', UI_ID(11), { id: UI_ID(11), selection: { query: { resolverQl: 'q2' } } }),
      item('dq_ownership', ours('dq_ownership', 'x'), { id: ours('dq_ownership', 'x'), ownerId: theirs('dq_owner', 'gone'), selection: { query: { resolverQl: 'q3' } } }),
    ];
    const r = planImport(items, { ...OPTS, adopt: true });
    expect(listOf(r)).toEqual([`dq_owner ui ${owner} adopted`, `dq_ownership ownership ${ours('dq_ownership', 'x')}`, `dq_ownership ui_owns_selection ${UI_ID(10)} adopted`]);
    expect(r.left).toEqual({ otherNamespace: 0, madeInUi: 1, byRule: 0 });
    expect(r.objects[2].config.ownerId).toBe('${dq_owner.ui.entity_id}');
  });

  test('a SQL test a rule deployed is left to its rule, even with --adopt', () => {
    const r = planImport([item('dq_sql_test', 'x', { id: 'x', name: 'X' }, { configId: NS, deploymentRuleId: 'r' }), item('dq_sql_test', 'y', { id: 'y', name: 'Y' }, { deploymentRuleId: 'r' })], { ...OPTS, adopt: true });
    expect(r.objects).toEqual([]);
    expect(r.left).toEqual({ otherNamespace: 0, madeInUi: 0, byRule: 2 });
    expect(r.namespacesSeen).toEqual([NS]);
  });

  test('namespacesSeen: every configId once, sorted, empty ones left out', () => {
    const items = ['zeta', 'alpha', 'zeta', '', 'mid'].map((c, i) => item('dq_sql_test', `t${i}`, { id: `t${i}` }, c ? { configId: c } : {}));
    expect(planImport(items, OPTS).namespacesSeen).toEqual(['alpha', 'mid', 'zeta']);
  });
});

describe('planImport: names and references', () => {
  test('names: slugs of titles or names (alerts: the fqn without the namespace), numbered in (type, slug, key) order across kinds', () => {
    const [k1, k2] = [ours('dq_owner', 'x'), ours('dq_owner', 'y')].sort();
    const d = ours('dq_domain', 'd');
    const items = [
      item('dq_alert', 'team.data', { fqn: 'team.data', name: 'whatever', schemaChange: { targets: [{ slack: { channel: '#x' } }] } }, { configId: NS }),
      item('dq_alert', 'elsewhere.data', { fqn: 'elsewhere.data', name: 'n', schemaChange: { targets: [{ slack: { channel: '#x' } }] } }, { configId: NS }),
      item('dq_owner', k2, { id: k2, title: 'Data' }),
      item('dq_domain', d, { id: d, name: 'Data' }),
      item('dq_sql_test', 't-c', { id: 't-c', title: 'Title wins', name: 'Data' }, { configId: NS }),
      item('dq_owner', k1, { id: k1, title: 'Data' }),
      item('dq_sql_test', 't-b', { id: 't-b', name: 'Data' }, { configId: NS }),
      item('dq_sql_test', 't-a', { id: 't-a', name: 'Data' }, { configId: NS }),
      item('dq_saved_view', ours('dq_saved_view', 'v'), { id: ours('dq_saved_view', 'v'), description: 'no title' }),
    ];
    const want = [
      `dq_owner data ${k1}`,
      `dq_owner data_2 ${k2}`,
      `dq_domain data_3 ${d}`,
      'dq_alert data_4 team.data',
      'dq_alert elsewhere_data elsewhere.data',
      'dq_sql_test data_5 t-a',
      'dq_sql_test data_6 t-b',
      'dq_sql_test title_wins t-c',
      `dq_saved_view saved_view ${ours('dq_saved_view', 'v')}`,
    ];
    expect(listOf(planImport(items, OPTS))).toEqual(want);
    expect(listOf(planImport([...items].reverse(), OPTS))).toEqual(want);
  });

  test('ownerships and integrations are named after what they belong to, once those have names', () => {
    const owner = ours('dq_owner', 'o');
    const dp = ours('dq_data_product', 'p');
    const os = (n: string, raw: Record<string, unknown>) => item('dq_ownership', ours('dq_ownership', n), { id: ours('dq_ownership', n), ...raw });
    const items = [
      os('c', { ownerId: 'not-imported', selection: { dataproductId: dp } }),
      os('a', { ownerId: `owner-${owner}`, selection: { dataproductId: `dataproduct-${dp}` } }),
      os('b', { ownerId: owner, selection: { query: { resolverQl: 'q' } } }),
      item('dq_owner', owner, { id: owner, title: 'Owner' }),
      item('dq_data_product', dp, { id: dp, title: 'Sales' }),
      item('dq_integration', ours('dq_integration', 'i'), { id: 'plat', title: `Ownership [dqform:${ours('dq_integration', 'i')}]` }),
    ];
    expect(listOf(planImport(items, OPTS))).toEqual([
      `dq_owner owner ${owner}`,
      `dq_data_product sales ${dp}`,
      `dq_ownership owner_owns_sales ${ours('dq_ownership', 'a')}`,
      `dq_ownership owner_owns_selection ${ours('dq_ownership', 'b')}`,
      `dq_ownership ownership ${ours('dq_ownership', 'c')}`,
      `dq_integration ownership_2 ${ours('dq_integration', 'i')}`,
    ]);
  });

  test('ids of imported objects become references (entity ids for prefixed ones); other ids stay', () => {
    const owner = ours('dq_owner', 'o');
    const dp = ours('dq_data_product', 'p');
    const parent = ours('dq_domain', 'parent');
    const child = ours('dq_domain', 'child');
    const items = [
      item('dq_owner', owner, { id: owner, title: 'Owner' }),
      item('dq_data_product', dp, { id: dp, title: 'Sales' }),
      item('dq_domain', parent, { id: parent, name: 'Parent' }),
      item('dq_domain', child, { id: child, name: 'Child', parentId: parent, definition: { parts: [{ dataproductId: dp }, { domainId: `DOMAIN-${parent}` }, { dataproductId: 'unknown' }, { domainId: 7 }] } }),
      item('dq_ownership', ours('dq_ownership', 'a'), { id: ours('dq_ownership', 'a'), ownerId: owner, selection: { dataproductId: dp } }),
      item('dq_ownership', ours('dq_ownership', 'b'), { id: ours('dq_ownership', 'b'), ownerId: owner, selection: { dataproductId: `dataproduct-${dp}` } }),
      item('dq_alert', 'team.a', { fqn: 'team.a', name: 'A', issueLifecycle: { owner: `owner-${owner}`, targets: [{ owner: { ownerPath: `owner-${owner}` } }, { owner: { ownerPath: 'owner-elsewhere' } }, { slack: { channel: '#a' } }] } }, { configId: NS }),
      item('dq_monitor_deployment_rule', 'r', { id: 'r', title: 'R', productConfig: { productId: dp } }, { configId: NS }),
    ];
    const byName = Object.fromEntries(planImport(items, OPTS).objects.map((o) => [o.name, o.config]));
    expect(byName.child).toEqual({
      id: child,
      definition: { parts: [{ dataproductId: '${dq_data_product.sales.id}' }, { domainId: '${dq_domain.parent.entity_id}' }, { dataproductId: 'unknown' }, { domainId: 7 }] },
      name: 'Child',
      parentId: '${dq_domain.parent.id}',
    });
    expect(byName.owner_owns_sales).toEqual({ id: ours('dq_ownership', 'a'), ownerId: '${dq_owner.owner.id}', selection: { dataproductId: '${dq_data_product.sales.id}' } });
    expect(byName.owner_owns_sales_2).toEqual({ id: ours('dq_ownership', 'b'), ownerId: '${dq_owner.owner.id}', selection: { dataproductId: '${dq_data_product.sales.entity_id}' } });
    expect(byName.a).toEqual({
      fqn: 'team.a',
      issueLifecycle: { owner: '${dq_owner.owner.entity_id}', targets: [{ owner: { ownerPath: '${dq_owner.owner.entity_id}' } }, { owner: { ownerPath: 'owner-elsewhere' } }, { slack: { channel: '#a' } }] },
      name: 'A',
    });
    expect(byName.r).toEqual({ id: 'r', productConfig: { productId: '${dq_data_product.sales.id}' }, title: 'R' });
  });

  test('a live object that does not fit the desired schema, or whose imported form would not plan as no change, is imported with a warning naming it', () => {
    const i = ours('dq_integration', 'i');
    const o = ours('dq_owner', 'o');
    const r = planImport(
      [
        item('dq_owner', o, { id: o, title: 'Team', contacts: 'not a list' }),
        // a secret the marker lists at a version the read cannot show, and a disabled integration
        item('dq_integration', i, { id: 'plat', title: `PG [dqform:${i} host@1]`, config: { relational: { host: 'h' } } }),
      ],
      OPTS,
    );
    expect(r.warnings).toEqual([
      `dq_owner ${o}: the live object does not fit the desired schema; review team`,
      `dq_integration ${i}: the imported form does not compare equal to live; review pg`,
      `dq_integration ${i}: the live object does not fit the desired schema; review pg`,
    ]);
    expect(r.objects.map((x) => x.name)).toEqual(['team', 'pg']);
  });
});

describe('the YAML written', () => {
  test('plain: every kind in its section, references as names, friendly forms (golden)', () => {
    expect(renderYaml(planImport(LIVE.items, OPTS), OPTS)).toBe(fixture('team-plain.yaml'));
  });
  test('--adopt: import entries for the objects made in the UI (golden)', () => {
    const opts = { ...OPTS, adopt: true };
    expect(renderYaml(planImport(LIVE.items, opts), opts)).toBe(fixture('team-adopt.yaml'));
  });
  test('what is written loads back to the imported configs, with an import block per adopted object', () => {
    const r = planImport(LIVE.items, { ...OPTS, adopt: true });
    const m = manifestFromYaml(renderYaml(r, OPTS), { file: 'dqform.yaml' });
    expect(m.namespace).toBe(NS);
    expect(m.resources.map((x) => `${x.type}.${x.name}`).sort()).toEqual(r.objects.map((o) => `${o.type}.${o.name}`).sort());
    expect(m.imports.map((x) => [x.to, x.id])).toEqual(r.objects.filter((o) => o.adopted).map((o) => [`${o.type}.${o.name}`, o.key]));
    for (const o of r.objects) expect([o.name, m.resources.find((x) => x.type === o.type && x.name === o.name)?.config.id ?? m.resources.find((x) => x.type === o.type && x.name === o.name)?.config.fqn]).toEqual([o.name, o.key]);
  });
  test('a stack other than the namespace is written; the namespace as stack is not', () => {
    const r = planImport([], OPTS);
    const head = '# yaml-language-server: $schema=node_modules/dqform/schemas/dqform.schema.json\n# Imported by `dqform import --namespace team`. Ids are pinned: rename entries freely.\n';
    expect(renderYaml(r, { namespace: NS })).toBe(`${head}namespace: team\n`);
    expect(renderYaml(r, { namespace: NS, stack: NS })).toBe(`${head}namespace: team\n`);
    expect(renderYaml(r, { namespace: NS, stack: 'prod' })).toBe(`${head}namespace: team\nstack: prod\n`);
  });
  test('friendly forms only where they are exact: a selection with more than a query, a reference of another kind, stay as they are', () => {
    const owner = ours('dq_owner', 'o');
    const dp = ours('dq_data_product', 'p');
    const os = ours('dq_ownership', 'x');
    const r: ImportResult = {
      objects: [
        { type: 'dq_ownership', name: 'x', key: os, adopted: false, config: { id: os, ownerId: '${dq_data_product.p.id}', selection: { dataproductId: '${dq_data_product.p.id}', query: { resolverQl: 'q' } } } },
        { type: 'dq_ownership', name: 'y', key: os, adopted: false, config: { id: os, ownerId: '${dq_owner.o.entity_id}', selection: { query: { resolverQl: 'q', extra: 1 } } } },
        { type: 'dq_ownership', name: 'z', key: os, adopted: false, config: { id: os, ownerId: owner, selection: { dataproductId: dp } } },
        { type: 'dq_alert', name: 'a', key: 'team.a', adopted: false, config: { fqn: 'team.a', name: 'A', schemaChange: { trigger: { resolverQl: 'q', query: { parts: [] } }, targets: [{ owner: { ownerPath: '${dq_owner.o.id}' } }, { owner: { ownerPath: '${dq_owner.o.entity_id}', ownershipId: 'x' } }] } } },
      ],
      warnings: [],
      left: { otherNamespace: 0, madeInUi: 0, byRule: 0 },
      namespacesSeen: [],
    };
    const text = renderYaml(r, OPTS);
    expect(text.slice(text.indexOf('ownerships:'))).toBe(
      [
        'ownerships:',
        '  x:',
        `    id: ${os}`,
        '    ownerId: ${dq_data_product.p.id}',
        '    selection:',
        '      dataproductId: ${dq_data_product.p.id}',
        '      query:',
        '        resolverQl: q',
        '  y:',
        `    id: ${os}`,
        '    ownerId: ${dq_owner.o.entity_id}',
        '    selection:',
        '      query:',
        '        resolverQl: q',
        '        extra: 1',
        '  z:',
        `    id: ${os}`,
        `    ownerId: ${owner}`,
        '    selection:',
        `      dataproductId: ${dp}`,
        'alerts:',
        '  a:',
        '    fqn: team.a',
        '    name: A',
        '    schemaChange:',
        '      trigger:',
        '        resolverQl: q',
        '        query:',
        '          parts: []',
        '      targets:',
        '        - owner:',
        '            ownerPath: ${dq_owner.o.id}',
        '        - owner:',
        '            ownerPath: ${dq_owner.o.entity_id}',
        '            ownershipId: x',
        '',
      ].join('\n'),
    );
  });
});

describe('the TypeScript written', () => {
  test('plain: constructs in declaration order, references as variables (golden)', () => {
    expect(renderTs(planImport(LIVE.items, OPTS), OPTS)).toBe(fixture('team-plain.ts.txt'));
  });
  test('--adopt: importFrom on the adopted constructs, on the variable when one is declared (golden)', () => {
    const opts = { ...OPTS, adopt: true };
    expect(renderTs(planImport(LIVE.items, opts), opts)).toBe(fixture('team-adopt.ts.txt'));
  });
  test('nothing imported: the stack alone, from the constructs module and stack asked for', () => {
    expect(renderTs(planImport([], OPTS), { namespace: "it's", stack: 'prod', constructsModule: '../constructs' })).toBe(
      [
        '/**',
        " * Imported by `dqform import --namespace it's`: the live objects as constructs.",
        ' * Ids (alerts: fqns) are pinned, so `dqform plan` shows no changes; rename constructs freely.',
        ' */',
        "import { App, DqStack } from '../constructs';",
        '',
        "/** Declares the stack of namespace 'it\\'s' in `app`. */",
        'export function build(app: App): DqStack {',
        "  const stack = new DqStack(app, 'prod', { namespace: 'it\\'s' });",
        '',
        '  return stack;',
        '}',
        '',
        '// The app cdktf runs (cdktf.json: "app": "npx tsx <this file>"). To reuse build() in another app,',
        '// move it into a module of its own.',
        'const app = new App();',
        'build(app);',
        'app.synth();',
        '',
      ].join('\n'),
    );
  });

  const body = (text: string) => text.slice(text.indexOf('  const stack'), text.indexOf('  return stack;'));

  test('domains after data products, a parent before its children whatever the input order; references to later or unknown objects as ids', () => {
    const dp = ours('dq_data_product', 'p');
    const [a, b, c] = ['a', 'b', 'c'].map((n) => ours('dq_domain', n));
    const r = planImport(
      [
        item('dq_domain', a, { id: a, name: 'A child', parentId: b, definition: { parts: [{ domainId: c }, { dataproductId: dp }, { query: { resolverQl: 'with_tag("x")' } }, { other: 1 }] } }),
        item('dq_domain', b, { id: b, name: 'B parent', parentId: c }),
        item('dq_domain', c, { id: c, name: 'C root', parentId: 'elsewhere', definition: { parts: [{ domainId: a }] } }),
        item('dq_data_product', dp, { id: dp, title: 'P', definition: { parts: [{ query: { renderedResolverQl: 'q' } }, { entityId: 'e' }] } }),
      ],
      OPTS,
    );
    expect(body(renderTs(r, OPTS))).toBe(
      [
        "  const stack = new DqStack(app, 'team', { namespace: 'team' });",
        "  const pProduct = new DataProduct(stack, 'p', {",
        `    id: '${dp}',`,
        "    title: 'P',",
        "    parts: [{ query: 'q' }, { entityId: 'e' }],",
        '  });',
        "  const cRootDomain = new Domain(stack, 'c_root', {",
        `    id: '${c}',`,
        "    name: 'C root',",
        "    parent: 'elsewhere',",
        `    parts: [{ domain: '${a}' }],`,
        '  });',
        "  const bParentDomain = new Domain(stack, 'b_parent', {",
        `    id: '${b}',`,
        "    name: 'B parent',",
        '    parent: cRootDomain,',
        '  });',
        "  new Domain(stack, 'a_child', {",
        `    id: '${a}',`,
        "    name: 'A child',",
        '    parent: bParentDomain,',
        '    parts: [',
        '      { domain: cRootDomain },',
        '      { dataProduct: pProduct },',
        `      { query: 'with_tag("x")' },`,
        '      { other: 1 },',
        '    ],',
        '  });',
        '',
      ].join('\n'),
    );
  });

  test('kinds without a rendering of their own: props in the import order; classes imported once, sorted', () => {
    const o = ours('dq_owner', 'o');
    const r: ImportResult = {
      objects: [
        { type: 'dq_owner', name: 'o', key: o, adopted: true, config: { zeta: 1, title: 'T', id: o, alpha: 2, description: 'D', contacts: [{ msTeams: { channelId: 'c' } }, { users: { userEmails: ['u@x'] } }, { pager: { n: 1 } }] } },
        { type: 'dq_check_categorisation_rule', name: 'c', key: 'c1', adopted: true, config: { title: 'T', id: 'c1' } },
      ],
      warnings: [],
      left: { otherNamespace: 0, madeInUi: 0, byRule: 0 },
      namespacesSeen: [],
    };
    const text = renderTs(r, OPTS);
    expect(text).toContain("import { App, CheckCategorisationRule, Contact, DqStack, Owner } from 'dqform';");
    expect(body(text)).toBe(
      [
        "  const stack = new DqStack(app, 'team', { namespace: 'team' });",
        "  new Owner(stack, 'o', {",
        `    id: '${o}',`,
        "    title: 'T',",
        "    description: 'D',",
        "    alpha: 2,",
        "    contacts: [Contact.msTeams('c'), Contact.users(['u@x']), { pager: { n: 1 } }],",
        '    zeta: 1,',
        `  }).importFrom('${o}');`,
        "  new CheckCategorisationRule(stack, 'c', { id: 'c1', title: 'T' }).importFrom('c1');",
        '',
      ].join('\n'),
    );
  });

  test('alert owners: a variable when the owner is declared, else the id; an entity id of an unknown reference stays as written', () => {
    const owner = ours('dq_owner', 'o');
    const r: ImportResult = {
      objects: [
        { type: 'dq_owner', name: 'o', key: owner, adopted: false, config: { id: owner, title: 'O' } },
        {
          type: 'dq_alert',
          name: 'a',
          key: 'team.a',
          adopted: false,
          config: {
            fqn: 'team.a',
            issueLifecycle: {
              owner: '${dq_owner.o.entity_id}',
              targets: [{ owner: { ownerPath: '${dq_owner.o.entity_id}' } }, { owner: { ownerPath: '${dq_owner.o.id}' } }, { owner: { ownerPath: '${dq_owner.gone.entity_id}' } }, { owner: { ownerPath: 'owner-x' } }],
              trigger: { query: { parts: [{ withTag: { tag: 't' } }] } },
            },
            schemaChange: { owner: 'user-1', trigger: { resolverQl: 'q' } },
            incidentLifecycle: { trigger: {} },
          },
        },
      ],
      warnings: [],
      left: { otherNamespace: 0, madeInUi: 0, byRule: 0 },
      namespacesSeen: [],
    };
    expect(renderTs(r, OPTS)).toContain("import { App, Alert, DqStack, Owner, Query, Target } from 'dqform';");
    expect(body(renderTs(r, OPTS))).toBe(
      [
        "  const stack = new DqStack(app, 'team', { namespace: 'team' });",
        "  const oOwner = new Owner(stack, 'o', {",
        `    id: '${owner}',`,
        "    title: 'O',",
        '  });',
        "  new Alert(stack, 'a', {",
        "    fqn: 'team.a',",
        '    incidentLifecycle: { trigger: Query.model({ parts: [] }) },',
        '    issueLifecycle: {',
        '      owner: oOwner,',
        '      targets: [',
        '        Target.owner(oOwner),',
        `        { owner: { ownerPath: '${owner}' } },`,
        "        { owner: { ownerPath: '${dq_owner.gone.entity_id}' } },",
        "        { owner: { ownerPath: 'owner-x' } },",
        '      ],',
        "      trigger: Query.model({ parts: [{ withTag: { tag: 't' } }] }),",
        '    },',
        "    schemaChange: { owner: 'user-1', trigger: 'q' },",
        '  });',
        '',
      ].join('\n'),
    );
  });
});

describe('tsLiteral', () => {
  test.each<[unknown, string]>([
    ['plain', "'plain'"],
    ["it's a \\ path\nwith\r\u2028\u2029", "'it\\'s a \\\\ path\\nwith\\r\\u2028\\u2029'"],
    [42, '42'],
    [true, 'true'],
    [false, 'false'],
    [null, 'null'],
    [undefined, 'undefined'],
    [[], '[]'],
    [{}, '{}'],
    [{ a: undefined }, '{}'],
    [{ a: 1, b: undefined, 'not-ident': 2, $ok_1: 3, '1st': 4 }, "{ a: 1, 'not-ident': 2, $ok_1: 3, '1st': 4 }"],
    [[1, 'x', [2], { y: [] }], "[1, 'x', [2], { y: [] }]"],
  ])('%j', (v, want) => {
    expect(tsLiteral(v)).toBe(want);
  });

  test('inline up to column 100, counted from where it starts; beyond, one entry a line at the indentation', () => {
    const s = (n: number) => 'x'.repeat(n);
    expect(tsLiteral([s(96)])).toBe(`['${s(96)}']`); // 100 characters
    expect(tsLiteral([s(97)])).toBe(`[\n  '${s(97)}',\n]`);
    expect(tsLiteral([s(86)], 0, 10)).toBe(`['${s(86)}']`);
    expect(tsLiteral([s(87)], 0, 10)).toBe(`[\n  '${s(87)}',\n]`);
    expect(tsLiteral({ k: s(87) }, 4)).toBe(`{ k: '${s(87)}' }`);
    expect(tsLiteral({ k: s(88) }, 4)).toBe(`{\n      k: '${s(88)}',\n    }`);
    // nested: each level inline when it fits where it starts
    expect(tsLiteral({ list: [s(40), s(40)], obj: { a: s(90) } }, 2)).toBe(`{\n    list: ['${s(40)}', '${s(40)}'],\n    obj: {\n      a: '${s(90)}',\n    },\n  }`);
    expect(tsLiteral([[s(60)], [s(60)]])).toBe(`[\n  ['${s(60)}'],\n  ['${s(60)}'],\n]`);
  });
});

describe('adoptNarrowing: --adopt-kind and --adopt-id', () => {
  test('unset flags narrow nothing', () => {
    expect(adoptNarrowing({})).toEqual({ adoptKinds: undefined, adoptIds: undefined });
  });
  test('kinds by type or YAML section, comma-separated, blanks dropped; ids as given', () => {
    expect(adoptNarrowing({ adoptKind: ' alerts, dq_owner ,,savedViews', adoptId: ' a , B,,' })).toEqual({ adoptKinds: ['dq_alert', 'dq_owner', 'dq_saved_view'], adoptIds: ['a', 'B'] });
  });
  test.each([
    [{ adoptKind: '' }, '--adopt-kind needs at least one kind'],
    [{ adoptKind: ' , ' }, '--adopt-kind needs at least one kind'],
    [{ adoptId: ',' }, '--adopt-id needs at least one id'],
    [{ adoptKind: 'alerts', adoptId: '' }, '--adopt-id needs at least one id'],
  ])('%j: %s', (flags, want) => {
    expect(adoptNarrowing(flags)).toBe(want);
  });
  test('unknown kinds are named, with the list of kinds', () => {
    expect(adoptNarrowing({ adoptKind: 'widgets,alerts,Owners' })).toBe(
      '--adopt-kind: unknown kind "widgets", "Owners"; the kinds are dq_owner (owners), dq_domain (domains), dq_data_product (dataProducts), dq_ownership (ownerships), dq_alert (alerts), dq_monitor_deployment_rule (monitorDeploymentRules), dq_sql_test (sqlTests), dq_sql_test_deployment_rule (sqlTestDeploymentRules), dq_integration (integrations), dq_saved_view (savedViews), dq_check_categorisation_rule (categorisationRules)',
    );
  });
});
