/**
 * Pure round trip per kind: `fromLive(<what the server answers after writing the desired config>)`
 * equals `fromDesired(desired)`, so a plan right after an apply is empty. Each case says why it
 * exists. A mutated live object must NOT compare equal (the normalisation is not vacuous).
 *
 * @gateway
 */
import { canonicalResolverQl, parseResolverQl, queryToResolverQl, resolverQlToQuery } from '../../schemas/tools/resolverql';
import { RESOURCE_SCHEMAS, type ResourceType } from '../../schemas/model/manifest';
import { HANDLERS, handlerFor } from '../../src/kinds/index';
import { hasConfigId } from '../../src/kinds/descriptors';

const OWNER = '11111111-1111-4111-8111-111111111111';
const DOMAIN = '22222222-2222-4222-8222-222222222222';
const PARENT = '33333333-3333-4333-8333-333333333333';
const PRODUCT = '44444444-4444-4444-8444-444444444444';
const RULE = '55555555-5555-4555-8555-555555555555';

const QL = 'with_type( "table" , filter = with_name("orders") )';
/** The trigger/selection a server stores for `QL`: text, canonical rendering, translated query. */
const stored = (ql: string) => ({ resolverQl: ql, renderedResolverQl: canonicalResolverQl(ql), query: resolverQlToQuery(parseResolverQl(ql)) });
const alertServer = { etag: 'W/"a-2"', createdAt: '2024-01-01T00:00:00Z', source: 'SOURCE_API' };
const server = { etag: 'W/"x-3"', createdAt: '2024-01-01T00:00:00Z', updatedAt: '2024-01-02T00:00:00Z', source: 'SOURCE_API' };

interface Case {
  type: ResourceType;
  reason: string;
  desired: Record<string, unknown>;
  live: Record<string, unknown>;
}

const cases: Case[] = [
  {
    type: 'dq_alert',
    reason: 'issue alert: trigger text canonicalised, translated query dropped, server fields and fqn dropped, unordered severities/recipients',
    desired: {
      name: 'Orders issues',
      issueLifecycle: {
        trigger: { resolverQl: QL },
        targets: [{ email: { recipientEmails: ['b@x.io', 'a@x.io'] } }, { slack: { channel: '#dq' } }],
        settings: { severities: ['SEVERITY_FATAL', 'SEVERITY_ERROR'], ongoing: { stream: {} }, grouping: { systemDetected: {} } },
        owner: { ownerPath: `owner-${OWNER}`, ownershipId: OWNER },
      },
    },
    live: {
      id: 'a1', fqn: 'ns.orders', name: 'Orders issues', configId: 'ns', isDisabled: false, ...alertServer,
      issueLifecycle: {
        trigger: stored(QL),
        targets: [{ email: { recipientEmails: ['a@x.io', 'b@x.io'] } }, { slack: { channel: '#dq' } }],
        settings: { severities: ['SEVERITY_ERROR', 'SEVERITY_FATAL'], notifyUpstream: false, ongoing: { stream: {} }, grouping: { systemDetected: {} } },
        owner: { ownerPath: `owner-${OWNER}`, ownershipId: OWNER },
      },
    },
  },
  {
    type: 'dq_alert',
    reason: 'schema-change alert without settings: the server answers settings {} (and the schema default is {})',
    desired: { name: 'Schema', isDisabled: false, schemaChange: { trigger: { resolverQl: 'with_tag("staging")' }, targets: [{ owner: { ownerPath: `owner-${OWNER}` } }] } },
    live: { id: 'a2', fqn: 'ns.schema', name: 'Schema', configId: 'ns', ...alertServer, schemaChange: { trigger: stored('with_tag("staging")'), targets: [{ owner: { ownerPath: `owner-${OWNER}` } }], settings: {} } },
  },
  {
    type: 'dq_alert',
    reason: 'incident alert, disabled, with a template; states unordered',
    desired: { name: 'Incidents', isDisabled: true, template: { title: 'T', plain: 'P' }, incidentLifecycle: { targets: [{ webhook: { webhookId: 'w1' } }], settings: { states: ['STATE_CLOSED', 'STATE_OPEN'] } } },
    live: { id: 'a3', fqn: 'ns.inc', name: 'Incidents', ...alertServer, isDisabled: true, template: { title: 'T', plain: 'P' }, incidentLifecycle: { targets: [{ webhook: { webhookId: 'w1' } }], settings: { states: ['STATE_OPEN', 'STATE_CLOSED'] } } },
  },
  {
    type: 'dq_alert',
    reason: 'a trigger written as a query model compares with the rendering the server stores for that query',
    desired: { name: 'By query', schemaChange: { trigger: { query: resolverQlToQuery(parseResolverQl(QL)) }, targets: [{ slack: { channel: '#a' } }], settings: { ongoing: { stream: {} } } } },
    live: { id: 'a4', fqn: 'ns.q', name: 'By query', ...alertServer, schemaChange: { trigger: { query: resolverQlToQuery(parseResolverQl(QL)), renderedResolverQl: queryToResolverQl(resolverQlToQuery(parseResolverQl(QL))) }, targets: [{ slack: { channel: '#a' } }], settings: { ongoing: { stream: {} } } } },
  },
  {
    type: 'dq_monitor_deployment_rule',
    reason: 'queryConfig: renderedResolverQl and query from the server, monitorCount, zero-valued flags omitted, metricIds unordered',
    desired: { title: 'Mart tables', queryConfig: { resolverQl: QL, severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT'], delayModel: 'DELAY_MODEL_WEEKLY_PATTERN', keepDeletedMonitors: false } },
    live: { id: RULE, configId: 'ns', source: 'SOURCE_API', monitorCount: 7, title: 'Mart tables', queryConfig: { ...stored(QL), severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'], delayModel: 'DELAY_MODEL_WEEKLY_PATTERN' } },
  },
  {
    type: 'dq_monitor_deployment_rule',
    reason: 'exclusiveQueryConfig: only a selection',
    desired: { id: RULE, title: 'Exclude', exclusiveQueryConfig: { resolverQl: 'with_tag("tmp")' } },
    live: { id: RULE, configId: 'ns', source: 'SOURCE_API', title: 'Exclude', exclusiveQueryConfig: stored('with_tag("tmp")') },
  },
  {
    type: 'dq_monitor_deployment_rule',
    reason: 'staticConfig: a path and settings',
    desired: { title: 'Orders', staticConfig: { path: 'wh-prod::mart::orders', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_PRECISE', metricIds: ['METRIC_ID_ROW_COUNT'] } },
    live: { id: RULE, source: 'SOURCE_API', configId: 'ns', monitorCount: 1, title: 'Orders', staticConfig: { path: 'wh-prod::mart::orders', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_PRECISE', metricIds: ['METRIC_ID_ROW_COUNT'] } },
  },
  {
    type: 'dq_monitor_deployment_rule',
    reason: 'exclusiveStaticConfig: a path only',
    desired: { title: 'Not raw', exclusiveStaticConfig: { path: 'wh-prod::raw' } },
    live: { id: RULE, source: 'SOURCE_API', configId: 'ns', title: 'Not raw', exclusiveStaticConfig: { path: 'wh-prod::raw' } },
  },
  {
    type: 'dq_monitor_deployment_rule',
    reason: 'productConfig: oneof markers { all: {} } are kept on both sides',
    desired: { title: 'Product', productConfig: { productId: PRODUCT, severity: 'SEVERITY_INFO', sensitivity: 'SENSITIVITY_RELAXED', metricIds: ['METRIC_ID_VOLUME_CHANGE_DELAY'], upstream: { all: {} }, self: { all: {} } } },
    live: { id: RULE, source: 'SOURCE_API', configId: 'ns', monitorCount: 0, title: 'Product', productConfig: { productId: PRODUCT, severity: 'SEVERITY_INFO', sensitivity: 'SENSITIVITY_RELAXED', metricIds: ['METRIC_ID_VOLUME_CHANGE_DELAY'], upstream: { all: {} }, self: { all: {} } } },
  },
  {
    type: 'dq_sql_test',
    reason: 'expression test: timezone UTC is the default (absent in code), annotations unordered with values defaulting to []',
    desired: { name: 'No negative totals', severity: 'SEVERITY_ERROR', platform: { warehouseAccount: { account: 'acme', database: 'PROD' } }, recurrenceRule: 'FREQ=DAILY;BYHOUR=6', sqlExpression: 'select * from orders where total < 0', annotations: [{ name: 'tier', values: ['gold'] }, { name: 'team' }] },
    live: { id: 't1', configId: 'ns', source: 'SOURCE_API', name: 'No negative totals', severity: 'SEVERITY_ERROR', platform: { warehouseAccount: { account: 'acme', database: 'PROD' } }, recurrenceRule: 'FREQ=DAILY;BYHOUR=6', timezone: 'UTC', sqlExpression: 'select * from orders where total < 0', annotations: [{ name: 'team', values: [] }, { name: 'tier', values: ['gold'] }], saveFailures: false },
  },
  {
    type: 'dq_sql_test',
    reason: 'template test with a non-default time zone',
    desired: { name: 'ids not null', platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=HOURLY', timezone: 'Europe/Paris', saveFailures: true, template: { identifier: { warehouseAccountTable: { account: 'acme', database: 'PROD', schema: 'MART', table: 'ORDERS' } }, notNull: { columns: ['ID'] } } },
    live: { id: 't2', configId: 'ns', source: 'SOURCE_API', name: 'ids not null', platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=HOURLY', timezone: 'Europe/Paris', saveFailures: true, template: { identifier: { warehouseAccountTable: { account: 'acme', database: 'PROD', schema: 'MART', table: 'ORDERS' } }, notNull: { columns: ['ID'] } } },
  },
  {
    type: 'dq_sql_test_deployment_rule',
    reason: 'queryConfig: rendered selection, testCount, timezone UTC default',
    desired: { title: 'Keys unique', queryConfig: { resolverQl: QL, recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'unique id', unique: { columns: ['id'] } }, { name: 'fresh', severity: 'SEVERITY_WARNING', freshness: { column: 'updated_at', maxDelaySeconds: 3600 } }] } },
    live: { id: RULE, configId: 'ns', source: 'SOURCE_API', testCount: 12, title: 'Keys unique', queryConfig: { ...stored(QL), recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', timezone: 'UTC', keepRemovedTests: false, tests: [{ name: 'unique id', unique: { columns: ['id'] } }, { name: 'fresh', severity: 'SEVERITY_WARNING', freshness: { column: 'updated_at', maxDelaySeconds: 3600 } }] } },
  },
  {
    type: 'dq_sql_test_deployment_rule',
    reason: 'staticConfig, exclusive configs',
    desired: { title: 'Orders tests', staticConfig: { path: 'wh-prod::mart::orders', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', severity: 'SEVERITY_ERROR', tests: [{ name: 'status', acceptedValues: { column: 'status', values: ['open', 'closed'] } }] } },
    live: { id: RULE, configId: 'ns', source: 'SOURCE_API', title: 'Orders tests', staticConfig: { path: 'wh-prod::mart::orders', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', severity: 'SEVERITY_ERROR', tests: [{ name: 'status', acceptedValues: { column: 'status', values: ['closed', 'open'] } }] } },
  },
  {
    type: 'dq_sql_test_deployment_rule',
    reason: 'exclusiveQueryConfig',
    desired: { title: 'Skip tmp', exclusiveQueryConfig: { resolverQl: 'with_tag("tmp")' } },
    live: { id: RULE, configId: 'ns', source: 'SOURCE_API', title: 'Skip tmp', exclusiveQueryConfig: stored('with_tag("tmp")') },
  },
  {
    type: 'dq_domain',
    reason: 'domain with a parent and a definition: parent and member ids given with prefixes in code, stored bare; query part rendered',
    desired: { id: DOMAIN, name: 'Sales', description: 'All sales', parentId: `domain-${PARENT}`, definition: { parts: [{ dataproductId: `dataproduct-${PRODUCT}` }, { query: { resolverQl: QL } }, { entityId: 'wh-prod::mart::orders' }] } },
    live: { id: DOMAIN, ...server, name: 'Sales', description: 'All sales', parentId: PARENT, definition: { parts: [{ dataproductId: PRODUCT }, { query: { resolverQl: QL, renderedResolverQl: canonicalResolverQl(QL) } }, { entityId: 'wh-prod::mart::orders' }] } },
  },
  {
    type: 'dq_domain',
    reason: 'top-level domain without definition: the server may answer an empty definition',
    desired: { name: 'Top' },
    live: { id: DOMAIN, ...server, name: 'Top', description: '', definition: { parts: [] } },
  },
  {
    type: 'dq_data_product',
    reason: 'data product with priority, folder and a definition; entityId is server-computed',
    desired: { id: PRODUCT, title: 'Orders', description: 'Order facts', folder: 'Sales', priority: 'PRIORITY_P1', definition: { parts: [{ query: { resolverQl: QL } }] } },
    live: { id: PRODUCT, entityId: `dataproduct-${PRODUCT}`, ...server, title: 'Orders', description: 'Order facts', folder: 'Sales', priority: 'PRIORITY_P1', definition: { parts: [{ query: { resolverQl: QL, renderedResolverQl: canonicalResolverQl(QL) } }] } },
  },
  {
    type: 'dq_data_product',
    reason: 'data product written with explicit clears (priority UNSPECIFIED, folder "") compares with code that omits them',
    desired: { title: 'Bare' },
    live: { id: PRODUCT, entityId: `dataproduct-${PRODUCT}`, ...server, title: 'Bare', priority: 'PRIORITY_UNSPECIFIED', definition: { parts: [] } },
  },
  {
    type: 'dq_owner',
    reason: 'owner with contacts: read form contacts[] (any order) vs desired contacts[]',
    desired: { id: OWNER, title: 'Platform team', contacts: [{ slack: { channel: '#platform' } }, { users: { userEmails: ['b@x.io', 'a@x.io'] } }] },
    live: { id: OWNER, entityId: `owner-${OWNER}`, ...server, title: 'Platform team', contacts: [{ users: { userEmails: ['a@x.io', 'b@x.io'] } }, { slack: { channel: '#platform' } }] },
  },
  {
    type: 'dq_owner',
    reason: 'owner without contacts: the read form answers contacts []',
    desired: { title: 'Nobody' },
    live: { id: OWNER, entityId: `owner-${OWNER}`, ...server, title: 'Nobody', contacts: [] },
  },
  {
    type: 'dq_ownership',
    reason: 'ownership of a data product: owner and product referenced by entity id (prefixed), stored bare',
    desired: { ownerId: `owner-${OWNER}`, selection: { dataproductId: `dataproduct-${PRODUCT}` }, alert: { severities: ['SEVERITY_ERROR', 'SEVERITY_WARN'], notifyUpstream: true } },
    live: { id: 'o1', ...server, ownerId: OWNER, selection: { dataproductId: PRODUCT }, alert: { severities: ['SEVERITY_WARN', 'SEVERITY_ERROR'], notifyUpstream: true } },
  },
  {
    type: 'dq_ownership',
    reason: 'ownership by query without an alert: the empty alert written to clear compares as absent',
    desired: { ownerId: OWNER, selection: { query: { resolverQl: QL } } },
    live: { id: 'o2', ...server, ownerId: OWNER, selection: { query: { resolverQl: QL, renderedResolverQl: canonicalResolverQl(QL) } }, alert: { severities: [] } },
  },
];

describe('fromLive(server answer) equals fromDesired(desired)', () => {
  test.each(cases.map((c) => [`${c.type}: ${c.reason}`, c] as const))('%s', (_name, c) => {
    // the desired config is a valid manifest shape
    const parsed = RESOURCE_SCHEMAS[c.type].safeParse(c.desired);
    expect(parsed.success ? [] : parsed.error.issues).toEqual([]);
    const h = handlerFor(c.type);
    expect(h.fromLive(c.live)).toEqual(h.fromDesired(c.desired));
    // the zod-parsed desired (defaults filled in) compares the same
    expect(h.fromDesired(parsed.data as Record<string, unknown>)).toEqual(h.fromDesired(c.desired));
  });

  test.each(cases.map((c) => [`${c.type}: ${c.reason}`, c] as const))('a changed field is still a difference: %s', (_name, c) => {
    const h = handlerFor(c.type);
    const changed = { ...c.live, [c.type === 'dq_alert' || c.type === 'dq_sql_test' ? 'name' : c.type.includes('rule') ? 'title' : c.type === 'dq_domain' ? 'name' : c.type === 'dq_ownership' ? 'ownerId' : 'title']: 'CHANGED' };
    expect(h.fromLive(changed)).not.toEqual(h.fromDesired(c.desired));
  });

  test('normalised forms have sorted keys and no server fields', () => {
    for (const c of cases) {
      const out = handlerFor(c.type).fromLive(c.live);
      expect(Object.keys(out)).toEqual(Object.keys(out).sort());
      for (const k of ['id', 'fqn', 'etag', 'createdAt', 'updatedAt', 'source', 'configId', 'monitorCount', 'testCount', 'entityId']) expect(out).not.toHaveProperty(k);
    }
  });
});

describe('registry', () => {
  test('one handler per resource type, with the matching type and prunability', () => {
    expect(Object.keys(HANDLERS).sort()).toEqual(Object.keys(RESOURCE_SCHEMAS).sort());
    for (const [type, h] of Object.entries(HANDLERS)) expect(h.type).toBe(type);
    expect(Object.values(HANDLERS).filter((h) => hasConfigId(h.type)).map((h) => h.type).sort()).toEqual(['dq_alert', 'dq_monitor_deployment_rule', 'dq_sql_test', 'dq_sql_test_deployment_rule']);
    expect(() => handlerFor('dq_nope')).toThrow(/no handler/);
  });
});
