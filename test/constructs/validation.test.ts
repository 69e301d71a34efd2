/**
 * Invalid inputs: each is reported before any network call by `app.synth()` (all errors at
 * once) and by `validateApp` as data, naming the construct path and the field.
 */
import type { App } from 'cdktf';
import { Alert, CheckCategorisationRule, DataProduct, Domain, DqStack, MonitorDeploymentRule, Owner, Ownership, Query, SqlTest, SqlTestDeploymentRule, Target, validateApp } from '../../constructs';
import { cronProblem, rruleProblem } from '../../constructs/validation';
import { newApp, synthError } from './synth';

const rule = { severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } as const;
const issue = (trigger = 'with_type("table")') => ({ trigger, targets: [Target.slack('#x')], settings: { severities: ['SEVERITY_ERROR' as const] } });
const stack = (app: App, id = 's', namespace = 'ns') => new DqStack(app, id, { namespace });

interface Case {
  reason: string;
  build: (app: App) => void;
  /** Construct path the error names. */
  path: string;
  /** Field the error names. */
  field: string;
  /** Text the error contains. */
  text: RegExp;
}

const cases: Case[] = [
  {
    reason: 'an alert needs exactly one kind',
    build: (app) => new Alert(stack(app), 'a', { name: 'x' }),
    path: 's/a', field: '', text: /exactly one of issueLifecycle, schemaChange, incidentLifecycle/,
  },
  {
    reason: 'alert names are at most 255 characters',
    build: (app) => new Alert(stack(app), 'a', { name: 'n'.repeat(256), issueLifecycle: issue() }),
    path: 's/a', field: 'name', text: /255/,
  },
  {
    reason: 'incident-lifecycle alerts refuse e-mail targets',
    build: (app) => new Alert(stack(app), 'inc', { name: 'x', incidentLifecycle: { targets: [Target.email(['a@b.co'])], settings: { states: ['STATE_OPEN'] } } }),
    path: 's/inc', field: 'incidentLifecycle.targets[0]', text: /e-mail/,
  },
  {
    reason: 'schema-change alerts refuse webhooks',
    build: (app) => new Alert(stack(app), 'sc', { name: 'x', schemaChange: { trigger: 'with_type("table")', targets: [Target.webhook('w')] } }),
    path: 's/sc', field: 'schemaChange.targets[0]', text: /webhook/,
  },
  {
    reason: 'an empty metric list',
    build: (app) => new MonitorDeploymentRule(stack(app), 'r', { title: 't', queryConfig: { ...rule, metricIds: [], query: 'with_type("table")' } }),
    path: 's/r', field: 'queryConfig.metricIds', text: /at least one metric/,
  },
  {
    reason: 'a cron with 6 fields',
    build: (app) => new Alert(stack(app), 'a', { name: 'x', issueLifecycle: { ...issue(), settings: { severities: ['SEVERITY_ERROR'], ongoing: { schedule: { cron: '0 0 9 * * 1' } } } } }),
    path: 's/a', field: 'issueLifecycle.settings.ongoing.schedule.cron', text: /expected 5 fields/,
  },
  {
    reason: 'an RRULE without FREQ',
    build: (app) => new SqlTest(stack(app), 't', { name: 'x', platform: { integrationId: 'i' }, recurrenceRule: 'BYHOUR=6', sqlExpression: 'select 1' }),
    path: 's/t', field: 'recurrenceRule', text: /FREQ is missing/,
  },
  {
    reason: 'ResolverQL that does not parse',
    build: (app) => new Alert(stack(app), 'a', { name: 'x', issueLifecycle: issue('with_type("table"') }),
    path: 's/a', field: 'issueLifecycle.trigger.resolverQl', text: /bad ResolverQL/,
  },
  {
    reason: 'two owners pinned to one id',
    build: (app) => {
      const s = stack(app);
      new Owner(s, 'o1', { id: '11111111-1111-1111-1111-111111111111', title: 'a' });
      new Owner(s, 'o2', { id: '11111111-1111-1111-1111-111111111111', title: 'b' });
    },
    path: 's/o2', field: 'id', text: /also used by s\/o1/,
  },
  {
    reason: 'a pinned fqn equal to another alert\'s default fqn',
    build: (app) => {
      const s = stack(app);
      new Alert(s, 'first', { name: 'a', issueLifecycle: issue() });
      new Alert(s, 'second', { name: 'b', fqn: 'ns.first', issueLifecycle: issue() });
    },
    path: 's/second', field: 'fqn', text: /fqn "ns\.first" is also used by s\/first/,
  },
  {
    reason: 'two stacks of one namespace declaring one address',
    build: (app) => {
      new Owner(stack(app, 's'), 'o', { title: 'a' });
      new Owner(stack(app, 't'), 'o', { title: 'b' });
    },
    path: 's/o', field: 'address', text: /dq_owner\.o in namespace "ns" is also used by t\/o/,
  },
  {
    reason: 'a reference to a construct in another stack',
    build: (app) => {
      const o = new Owner(stack(app, 'one', 'one'), 'o', { title: 'a' });
      new Ownership(stack(app, 'two', 'two'), 'own', { owner: o, query: 'with_type("table")' });
    },
    path: 'two/own', field: 'ownerId', text: /references one\/o, which is in stack "one"/,
  },
  {
    reason: 'a domain cycle',
    build: (app) => {
      const s = stack(app);
      const a = new Domain(s, 'a', { name: 'A' });
      const b = new Domain(s, 'b', { name: 'B', parent: a });
      a.setParent(b);
    },
    path: 's/a', field: 'parentId', text: /cycle/,
  },
  {
    reason: 'an ownership with two selections',
    build: (app) => {
      const s = stack(app);
      new Ownership(s, 'own', { owner: 'owner-id', dataProduct: new DataProduct(s, 'dp', { title: 'x' }), query: 'with_type("table")' });
    },
    path: 's/own', field: 'selection', text: /exactly one of/,
  },
  {
    reason: 'a domain selection needs ResolverQL, not a query model',
    build: (app) => new Domain(stack(app), 'd', { name: 'D', parts: [{ query: Query.identifiers({ custom: { id: 'x' } }) }] }),
    path: 's/d', field: 'definition.parts[0].query.resolverQl', text: /has no ResolverQL form/,
  },
  {
    reason: 'an invalid namespace',
    build: (app) => new Owner(stack(app, 's', 'Not Valid!'), 'o', { title: 'a' }),
    path: 's', field: 'namespace', text: /lower-case/,
  },
  {
    reason: 'removed() of something that is not a dq_* address',
    build: (app) => stack(app).removed('aws_s3_bucket.old'),
    path: 's', field: 'removed[0]', text: /type one of dq_alert/,
  },
  {
    reason: 'removed() of an address that is still declared',
    build: (app) => {
      const s = stack(app);
      new Owner(s, 'o', { title: 'a' });
      s.removed('dq_owner.o');
    },
    path: 's', field: 'removed[0]', text: /still in the stack/,
  },
  {
    reason: 'an e-mail target with a bad address',
    build: (app) => new Alert(stack(app), 'a', { name: 'x', issueLifecycle: { ...issue(), targets: [Target.email(['not-an-address'])] } }),
    path: 's/a', field: 'issueLifecycle.targets[0].email.recipientEmails[0]', text: /e-mail address/,
  },
  {
    reason: 'a categorisation rule needs TECHNICAL or GOVERNANCE',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', { dimension: 'TECHNIKAL' as never, title: 't', category: 'c', matcher: { expression: 'with_type("table")' } }),
    path: 's/c', field: 'dimension', text: /TECHNICAL or GOVERNANCE/,
  },
  {
    reason: 'a categorisation rule matches by attributes or by expression, not both',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', { dimension: 'TECHNICAL', title: 't', category: 'c', matcher: { attributes: { checkTypes: ['monitor'] }, expression: 'with_type("table")' } }),
    path: 's/c', field: 'matcher', text: /exactly one of attributes and expression; got attributes and expression/,
  },
  {
    reason: 'a categorisation rule priority is within +-1000000',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', { dimension: 'TECHNICAL', title: 't', category: 'c', matcher: { attributes: { nameContains: 'x' } }, priority: 2_000_000 }),
    path: 's/c', field: 'priority', text: /-1000000 to 1000000/,
  },
  {
    reason: 'a categorisation rule category is at most 200 characters',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', { dimension: 'GOVERNANCE', title: 't', category: 'c'.repeat(201), matcher: { attributes: { nameContains: 'x' } } }),
    path: 's/c', field: 'category', text: /1 to 200 characters/,
  },
  {
    reason: 'categorisation rule attributes need at least one attribute',
    build: (app) => new CheckCategorisationRule(stack(app), 'c', { dimension: 'GOVERNANCE', title: 't', category: 'c', matcher: { attributes: {} } }),
    path: 's/c', field: 'matcher.attributes', text: /at least one of checkTypes, nameContains, assetPathPrefix/,
  },
];

describe.each(cases)('$reason', (c) => {
  it('fails app.synth() with an error naming the construct path and field', () => {
    const msg = synthError(c.build);
    expect(msg).toBeDefined();
    expect(msg).toContain(`${c.path}${c.field ? `: ${c.field}` : ''}: `);
    expect(msg).toMatch(c.text);
    expect(msg).toContain('Fix: ');
  });
  it('is returned by validateApp as data', () => {
    const { app } = newApp();
    c.build(app);
    const ds = validateApp(app);
    const d = ds.find((x) => x.constructPath === c.path && (x.field ?? '') === c.field && c.text.test(x.summary));
    expect(d).toMatchObject({ severity: 'error', constructPath: c.path });
    expect(d?.hint).toBeTruthy();
  });
});

it('collects every error, not only the first', () => {
  const msg = synthError((app) => {
    const s = stack(app);
    new Alert(s, 'inc', { name: 'x', incidentLifecycle: { targets: [Target.email(['a@b.co'])], settings: { states: ['STATE_OPEN'] } } });
    new MonitorDeploymentRule(s, 'r', { title: 't', queryConfig: { ...rule, metricIds: [], query: 'with_type("table")' } });
    new SqlTest(s, 't', { name: 'x', platform: { integrationId: 'i' }, recurrenceRule: 'FREQ=SOMETIMES', sqlExpression: 'select 1' });
  });
  expect(msg).toContain('s/inc: incidentLifecycle.targets[0]');
  expect(msg).toContain('s/r: queryConfig.metricIds');
  expect(msg).toContain('s/t: recurrenceRule');
});

it('a valid app has no diagnostics and references count as valid strings', () => {
  const { app } = newApp();
  const s = stack(app);
  const o = new Owner(s, 'o', { title: 'Team' });
  new Ownership(s, 'own', { owner: o, query: Query.withType('table') });
  new Alert(s, 'a', { name: 'x', issueLifecycle: { ...issue(), targets: [Target.owner(o)] } });
  expect(validateApp(app)).toEqual([]);
});

// issue 22: with_columns (vendor examples) is known; a function dqform does not know is left to
// validate's warning (the platform checks it), not a construct-time error; malformed text still is
it('ResolverQL at synth: with_columns and unknown functions pass, malformed text does not', () => {
  const { app } = newApp();
  const s = stack(app);
  const o = new Owner(s, 'o', { title: 'Team' });
  new Ownership(s, 'cols', { owner: o, query: Query.withColumns('email', 'phone') });
  new Ownership(s, 'unknown', { owner: o, query: Query.and(Query.withType('table'), 'with_owner("team-a")') });
  expect(validateApp(app)).toEqual([]);
  new Ownership(s, 'bad', { owner: o, query: 'with_owner(1)' });
  expect(validateApp(app).map((d) => `${d.constructPath}: ${d.summary}`)).toEqual([expect.stringMatching(/\/bad: bad ResolverQL: ResolverQL: at offset 11/)]);
});

describe('text grammars', () => {
  it.each([
    ['0 9 * * 1-5', undefined],
    ['*/15 * * * *', undefined],
    ['0 9 * *', /expected 5 fields/],
    ['61 * * * *', /outside 0-59/],
  ])('cron %s', (cron, problem) => {
    const got = cronProblem(cron);
    if (problem) expect(got).toMatch(problem);
    else expect(got).toBeUndefined();
  });
  it.each([
    ['FREQ=DAILY;BYHOUR=6', undefined],
    ['RRULE:FREQ=WEEKLY;BYDAY=MO', undefined],
    ['FREQ=DAILY;FREQ=HOURLY', /twice/],
    ['FREQ=DAILY;NOPE=1', /unknown RRULE part/],
    ['FREQ=DAILY;INTERVAL=x', /number/],
  ])('rrule %s', (r, problem) => {
    const got = rruleProblem(r);
    if (problem) expect(got).toMatch(problem);
    else expect(got).toBeUndefined();
  });
});

// grpc-facts `recurrence_rule` / wire-facts 6: a SQL-test rule's schedule, when set, must contain an
// inline DTSTART:. Before, validate accepted the plain form the platform refuses.
describe('SQL-test rule schedules need an inline DTSTART:', () => {
  const tests = [{ name: 'nn', notNull: { columns: ['id'] } }];
  it.each([
    ['FREQ=DAILY;BYHOUR=7', 'queryConfig', 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7'],
    ['RRULE:FREQ=HOURLY', 'staticConfig', 'DTSTART:20260101T000000Z\nRRULE:FREQ=HOURLY'],
    ['DTSTART;TZID=Europe/Paris:20260101T070000\nRRULE:FREQ=DAILY', 'queryConfig', 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY'],
  ])('%j in %s is an error whose hint shows the corrected value', (recurrenceRule, config, fixed) => {
    const { app } = newApp();
    const s = stack(app);
    if (config === 'queryConfig') new SqlTestDeploymentRule(s, 'r', { title: 'R', queryConfig: { query: 'with_type("table")', tests, recurrenceRule } });
    else new SqlTestDeploymentRule(s, 'r', { title: 'R', staticConfig: { path: 'wh-prod::mart::orders', tests, recurrenceRule } });
    const ds = validateApp(app);
    expect(ds).toHaveLength(1);
    expect(ds[0]).toMatchObject({ severity: 'error', constructPath: 's/r', field: `${config}.recurrenceRule` });
    expect(ds[0].summary).toMatch(/no inline DTSTART/);
    expect(ds[0].hint).toContain(JSON.stringify(fixed));
  });

  it('the inline form is valid for a rule; a SQL test keeps the plain form (nothing declares otherwise)', () => {
    const { app } = newApp();
    const s = stack(app);
    new SqlTestDeploymentRule(s, 'r', { title: 'R', queryConfig: { query: 'with_type("table")', tests, recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7' } });
    new SqlTest(s, 't', { name: 'x', platform: { integrationId: 'i' }, recurrenceRule: 'FREQ=DAILY;BYHOUR=7', sqlExpression: 'select 1' });
    expect(validateApp(app)).toEqual([]);
  });
});
