/**
 * Typos are errors in constructs too (issue 21): an unknown property of an L2 construct or of a
 * nested object fails synth naming the construct path, the field and the closest known name, as
 * YAML does. (TypeScript catches most of these in a literal; JavaScript apps, spread objects and
 * `as` casts do not, so the props are cast here as such code would pass them.)
 */
import type { App } from 'cdktf';
import { Alert, CheckCategorisationRule, Contact, DataProduct, Domain, DqStack, MonitorDeploymentRule, Owner, Ownership, Query, SavedView, SqlTest, SqlTestDeploymentRule, Target, validateApp } from '../../constructs';
import { unknownProps } from '../../constructs/prop-keys';
import { newApp, synth, synthError } from './synth';

const stack = (app: App) => new DqStack(app, 's', { namespace: 'ns' });
const issue = { trigger: 'with_type("table")', targets: [Target.slack('#x')], settings: { severities: ['SEVERITY_ERROR' as const] } };
const rule = { severity: 'SEVERITY_WARNING' as const, sensitivity: 'SENSITIVITY_BALANCED' as const, metricIds: ['METRIC_ID_ROW_COUNT' as const] };
/** Lets a deliberately wrong value through the types (what a JS user or a typo'd cast can pass). */
const loose = (x: unknown): never => x as never;

interface Case {
  what: string;
  build: (app: App) => void;
  path: string;
  field: string;
  guess: string | undefined;
}

const cases: Case[] = [
  {
    what: 'lifecycle: { preventDestory } (the protection would be absent)',
    build: (app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: issue, lifecycle: { preventDestory: true } })),
    path: 's/a', field: 'lifecycle.preventDestory', guess: 'preventDestroy',
  },
  {
    what: 'a lifecycle key dqform does not read (createBeforeDestroy)',
    build: (app) => new Owner(stack(app), 'o', { title: 'T', lifecycle: { createBeforeDestroy: true } }),
    path: 's/o', field: 'lifecycle.createBeforeDestroy', guess: undefined,
  },
  {
    what: 'a top-level prop of an alert',
    build: (app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: issue, isDisbled: true })),
    path: 's/a', field: 'isDisbled', guess: 'isDisabled',
  },
  {
    what: 'a key of issueLifecycle',
    build: (app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: { ...issue, ownr: 'x' } })),
    path: 's/a', field: 'issueLifecycle.ownr', guess: 'owner',
  },
  {
    what: 'a key of issueLifecycle.settings (today a "dqform bug" crash)',
    build: (app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: { ...issue, settings: { severities: ['SEVERITY_ERROR'], notifyUpstrem: true } } })),
    path: 's/a', field: 'issueLifecycle.settings.notifyUpstrem', guess: 'notifyUpstream',
  },
  {
    what: 'a key of a target',
    build: (app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: { ...issue, targets: [Target.slack('#ok'), { slack: { chanel: '#x' } }] } })),
    path: 's/a', field: 'issueLifecycle.targets[1].slack.chanel', guess: 'channel',
  },
  {
    what: 'a key of a monitor rule\'s queryConfig',
    build: (app) => new MonitorDeploymentRule(stack(app), 'r', loose({ title: 't', queryConfig: { ...rule, query: 'with_type("table")', keepDeletedMonitor: true } })),
    path: 's/r', field: 'queryConfig.keepDeletedMonitor', guess: 'keepDeletedMonitors',
  },
  {
    what: 'productConfig: the L2 name (product), not the API one (productId)',
    build: (app) => new MonitorDeploymentRule(stack(app), 'r', loose({ title: 't', productConfig: { ...rule, productId: 'x' } })),
    path: 's/r', field: 'productConfig.productId', guess: 'product',
  },
  {
    what: 'a key of a SQL test template',
    build: (app) => new SqlTest(stack(app), 't', loose({ name: 'x', platform: { integrationId: 'i' }, template: { identifier: { custom: { id: 'e' } }, notNull: { colums: ['id'] } } })),
    path: 's/t', field: 'template.notNull.colums', guess: 'columns',
  },
  {
    what: 'a key of a SQL-test rule\'s staticConfig',
    build: (app) => new SqlTestDeploymentRule(stack(app), 'r', loose({ title: 't', staticConfig: { path: 'a::b', tests: [{ name: 'n', notNull: { columns: ['id'] } }], timezon: 'UTC' } })),
    path: 's/r', field: 'staticConfig.timezon', guess: 'timezone',
  },
  {
    what: 'a domain part (L2 names: dataProduct, domain)',
    build: (app) => new Domain(stack(app), 'd', loose({ name: 'D', parts: [{ entityId: 'e1' }, { dataProdcut: 'p' }] })),
    path: 's/d', field: 'parts[1].dataProdcut', guess: 'dataProduct',
  },
  {
    what: 'a domain prop (parent, not parentId)',
    build: (app) => new Domain(stack(app), 'd', loose({ name: 'D', parentId: 'x' })),
    path: 's/d', field: 'parentId', guess: 'parent',
  },
  {
    what: 'a categorisation rule matcher attribute',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', loose({ dimension: 'TECHNICAL', title: 'T', category: 'C', matcher: { attributes: { nameContain: 'x' } } })),
    path: 's/c', field: 'matcher.attributes.nameContain', guess: 'nameContains',
  },
  {
    what: 'a data product prop',
    build: (app) => new DataProduct(stack(app), 'p', loose({ title: 'P', prority: 'PRIORITY_P1' })),
    path: 's/p', field: 'prority', guess: 'priority',
  },
  {
    what: 'an ownership\'s alert settings',
    build: (app) => new Ownership(stack(app), 'w', loose({ owner: 'o', query: 'with_type("table")', alert: { severites: ['SEVERITY_ERROR'] } })),
    path: 's/w', field: 'alert.severites', guess: 'severities',
  },
  {
    what: 'an owner contact',
    build: (app) => new Owner(stack(app), 'o', loose({ title: 'T', contacts: [{ slack: { channnel: '#t' } }] })),
    path: 's/o', field: 'contacts[0].slack.channnel', guess: 'channel',
  },
  {
    what: 'a saved view\'s visiblity (the view would stay private)',
    build: (app) => new SavedView(stack(app), 'v', loose({ title: 'V', visiblity: 'VISIBILITY_WORKSPACE' })),
    path: 's/v', field: 'visiblity', guess: 'visibility',
  },
  {
    what: 'a key of a saved view\'s config',
    build: (app) => new SavedView(stack(app), 'v', loose({ title: 'V', config: { columns: ['a'], sortBY: 'a' } })),
    path: 's/v', field: 'config.sortBY', guess: 'sortBy',
  },
  {
    what: 'a key of a saved view\'s grant',
    build: (app) => new SavedView(stack(app), 'v', loose({ title: 'V', grants: [{ gruopId: 'g', permission: 'PERMISSION_VIEW' }] })),
    path: 's/v', field: 'grants[0].gruopId', guess: 'groupId',
  },
  {
    what: 'DqStack props: baseURL (the stack would plan against DQ_BASE_URL, i.e. prod)',
    build: (app) => new DqStack(app, 'staging', loose({ namespace: 'shop', baseURL: 'https://staging.platform.example' })),
    path: 'staging', field: 'baseURL', guess: 'baseUrl',
  },
  {
    what: 'DqStack props: regoin',
    build: (app) => new DqStack(app, 'staging', loose({ namespace: 'shop', regoin: 'us' })),
    path: 'staging', field: 'regoin', guess: 'region',
  },
  {
    what: 'DqStack props: credentialFrom (the stack would take DQ_CLIENT_ID/DQ_CLIENT_SECRET)',
    build: (app) => new DqStack(app, 'staging', loose({ namespace: 'shop', credentialFrom: { clientId: 'DQ_STAGING_CLIENT_ID' } })),
    path: 'staging', field: 'credentialFrom', guess: 'credentialsFrom',
  },
  {
    what: 'DqStack props: a key nested in credentialsFrom',
    build: (app) => new DqStack(app, 'staging', loose({ namespace: 'shop', credentialsFrom: { clientID: 'DQ_STAGING_CLIENT_ID' } })),
    path: 'staging', field: 'credentialsFrom.clientID', guess: 'clientId',
  },
  {
    what: 'removed() options: destory (the object meant to be kept would be deleted)',
    build: (app) => stack(app).removed('dq_owner.team', loose({ destory: false })),
    path: 's', field: 'removed[0].destory', guess: 'destroy',
  },
  {
    what: 'removed() options: an unknown key with no close name',
    build: (app) => stack(app).removed('dq_owner.team', loose({ keepInPlace: true })),
    path: 's', field: 'removed[0].keepInPlace', guess: undefined,
  },
];

describe.each(cases)('$what', (c) => {
  it('fails app.synth() naming the construct path, the field and the closest known name', () => {
    const msg = synthError(c.build);
    expect(msg).toBeDefined();
    expect(msg).toContain(`${c.path}: ${c.field}: unknown property "${c.field.split('.').pop()!.replace(/\[\d+\]$/, '')}"`);
    if (c.guess) expect(msg).toContain(`(did you mean "${c.guess}"?)`);
    expect(msg).not.toMatch(/dqform bug/);
  });
  it('is an error diagnostic from validateApp', () => {
    const { app } = newApp();
    c.build(app);
    const d = validateApp(app).find((x) => x.constructPath === c.path && x.field === c.field && /unknown property/.test(x.summary));
    expect(d).toMatchObject({ severity: 'error', constructPath: c.path, field: c.field });
    expect(d?.hint).toEqual(c.guess ? `rename it to "${c.guess}"` : expect.stringMatching(/^remove it; the known properties here are /));
  });
});

it('every prop the constructs take is known: a full app has no unknown-property finding', () => {
  const { app } = newApp();
  const s = stack(app);
  const o = new Owner(s, 'o', { title: 'Team', contacts: [Contact.slack('#t')], lifecycle: { preventDestroy: true, ignoreChanges: ['contacts'] } });
  const parent = new Domain(s, 'parent', { name: 'P' });
  const d = new Domain(s, 'd', { name: 'D', description: 'x', parent, parts: [{ entityId: 'e' }, { query: Query.withType('table') }] });
  const p = new DataProduct(s, 'p', { title: 'P', description: 'x', folder: 'f', priority: 'PRIORITY_P1', parts: [{ entityId: 'e' }, { query: 'with_type("table")' }], domain: d });
  d.addPart({ domain: parent });
  const w = new Ownership(s, 'w', { owner: o, dataProduct: p, alert: { severities: ['SEVERITY_ERROR'], notifyUpstream: true } });
  new Ownership(s, 'w2', { owner: 'owner-id', query: Query.withName('x') });
  new Alert(s, 'a', { name: 'A', fqn: 'ns.a', isDisabled: false, template: { title: 't' }, issueLifecycle: { ...issue, targets: [Target.owner(o), Target.email(['a@b.co'])], owner: w }, dependsOn: [o] });
  new Alert(s, 'sc', { name: 'S', schemaChange: { trigger: Query.withType('table'), targets: [Target.slack('#s')], settings: { notifyUpstream: true } } });
  new MonitorDeploymentRule(s, 'r', { title: 'R', queryConfig: { ...rule, query: 'with_type("table")', metricOptions: [{ metricId: 'METRIC_ID_ROW_COUNT', sensitivity: 'SENSITIVITY_RELAXED' }], keepDeletedMonitors: true } });
  new MonitorDeploymentRule(s, 'rp', { title: 'RP', productConfig: { ...rule, product: p, upstream: { all: {} }, self: { selection: 'with_type("table")' } } });
  new MonitorDeploymentRule(s, 'rx', { title: 'RX', exclusiveStaticConfig: { path: 'a::b' } });
  new SqlTest(s, 't', { name: 'T', platform: { integrationId: 'i' }, sqlExpression: 'select 1', recurrenceRule: 'FREQ=DAILY', timezone: 'UTC', saveFailures: true });
  new SqlTestDeploymentRule(s, 'sr', { title: 'SR', queryConfig: { query: 'with_type("table")', tests: [{ name: 'n', notNull: { columns: ['id'] } }], keepRemovedTests: true } });
  new CheckCategorisationRule(s, 'cr', { dimension: 'GOVERNANCE', title: 'PII', category: 'Privacy', matcher: { expression: Query.withAnnotation('pii') }, priority: 3 });
  new CheckCategorisationRule(s, 'ca', { dimension: 'TECHNICAL', title: 'M', category: 'Volume', matcher: { attributes: { checkTypes: ['monitor'], nameContains: 'rows', assetPathPrefix: 'wh' } } });
  s.removed('dq_owner.old', { id: 'owner-1', destroy: false });
  new DqStack(app, 'other', { namespace: 'other', region: 'us', baseUrl: 'https://other.platform.example', credentialsFrom: { clientId: 'DQ_OTHER_CLIENT_ID', clientSecret: 'DQ_OTHER_CLIENT_SECRET' } });
  expect(validateApp(app).filter((x) => /unknown property/.test(x.summary))).toEqual([]);
});

it('a typo in a nested object no longer crashes construction ("dqform bug"): the construct is built and synth reports it', () => {
  expect(() => synth((app) => new Alert(stack(app), 'a', loose({ name: 'x', issueLifecycle: { ...issue, settings: { severities: ['SEVERITY_ERROR'], grouppping: {} } } })), 's')).toThrow(
    /s\/a: issueLifecycle\.settings\.grouppping: unknown property "grouppping" in issueLifecycle\.settings \(did you mean "grouping"\?\)/,
  );
});

it('unknownProps lists every unknown key with the known ones at its level (known keys from the zod schema)', () => {
  const found = unknownProps('dq_owner', { title: 'T', titel: 'x', contacts: [{ email: { recipientEmails: [], cc: [] } }] });
  expect(found.map((u) => u.field)).toEqual(['titel', 'contacts[0].email.cc']);
  expect(found[0].known).toEqual(expect.arrayContaining(['contacts', 'dependsOn', 'id', 'lifecycle', 'title']));
});
