/**
 * Every row of src/client/services/ROUTES.md is what the client sends: method, path, and
 * whether it is retried. The server answers `{}` (or a 503 for the retry check), so response
 * shapes do not matter here; only requests are checked.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DqClient, PlatformClient, PreviewUnavailableError, ResponseShapeError, UnavailableError } from '../../src/client';
import { makeClient } from './helpers/client';
import { TestServer } from './helpers/server';

const ID = '00000000-0000-4000-8000-000000000001';
const OWNER = '00000000-0000-4000-8000-000000000002';

interface Row {
  service: string;
  operation: string;
  method: string;
  path: string;
  retry: boolean;
}
const routeLines = readFileSync(join(__dirname, '../../src/client/services/ROUTES.md'), 'utf8').split('\n');
const tableStart = routeLines.findIndex((l) => l.startsWith('| service |'));
// the route table: from its header to the first line that is not a table row (other tables follow)
const rows: Row[] = routeLines
  .slice(tableStart, tableStart + routeLines.slice(tableStart).findIndex((l) => !l.startsWith('|')))
  .filter((l) => l.startsWith('| ') && !l.startsWith('| service') && !l.startsWith('| (auth)'))
  .map((l) => l.split('|').map((c) => c.trim()))
  .map((c) => ({
    service: c[1],
    operation: c[2],
    method: c[3],
    path: c[4].replace('{id}', ID).replace('{integration_id}', ID).replace('{owner_id}', OWNER),
    retry: !c[8].includes('no'),
  }));

const alert = { name: 'a', fqn: 'ns.a', incidentLifecycle: { targets: [{ slack: { channel: '#x' } }], settings: { states: ['STATE_OPEN' as const] } } };
const rule = { id: ID, title: 't', exclusiveStaticConfig: { path: 'a::b' } };
const sqlTest = { id: 't1', name: 't1', platform: { integrationId: 'i' }, sqlExpression: 'select 1', recurrenceRule: 'FREQ=DAILY' };
const testRule = { id: ID, title: 't', exclusiveStaticConfig: { path: 'a::b' } };
const integration = { title: 'pg', config: { relational: { host: 'h', database: 'd', user: 'u' } } };

const invoke: Record<string, (p: PlatformClient) => Promise<unknown>> = {
  'alerts.create': (p) => p.alerts.create(alert),
  'alerts.upsert': (p) => p.alerts.upsert(alert, 'W/"x-1"'),
  'alerts.delete': (p) => p.alerts.delete({ fqn: 'ns.a' }, 'W/"x-1"'),
  'alerts.rename': (p) => p.alerts.rename({ id: 'a1' }, 'new'),
  'alerts.updateSettings': (p) => p.alerts.updateSettings({ identifier: { id: 'a1' }, incidentLifecycle: { states: ['STATE_OPEN'] } }),
  'alerts.updateTargets': (p) => p.alerts.updateTargets({ id: 'a1' }, [{ slack: { channel: '#y' } }]),
  'alerts.updateTemplate': (p) => p.alerts.updateTemplate({ id: 'a1' }, { title: 't' }),
  'alerts.toggleEnabled': (p) => p.alerts.toggleEnabled({ id: 'a1' }, false),
  'alerts.toggleIncidentOwnerAlert': (p) => p.alerts.toggleIncidentOwnerAlert(true),
  'alerts.sendTestAlert': (p) => p.alerts.sendTestAlert([{ slack: { channel: '#x' } }]),
  'alerts.list': (p) => p.alerts.list({ owner: { ownerPath: `owner-${OWNER}`, ownershipId: ID } }),
  'alerts.batchGet': (p) => p.alerts.batchGet([{ id: 'a1' }]),
  'deploymentRules.deploy': (p) => p.deploymentRules.deploy(rule),
  'deploymentRules.batchDeploy': (p) => p.deploymentRules.batchDeploy([rule]),
  'deploymentRules.delete': (p) => p.deploymentRules.delete(ID),
  'deploymentRules.list': (p) => p.deploymentRules.list(),
  'deploymentRules.batchGet': (p) => p.deploymentRules.batchGet([ID]),
  'deploymentRules.deployOverview': (p) => p.deploymentRules.deployOverview(rule),
  'deploymentRules.deleteOverview': (p) => p.deploymentRules.deleteOverview(ID),
  'sqlTests.batchUpsert': (p) => p.sqlTests.batchUpsert([sqlTest]),
  'sqlTests.batchDelete': (p) => p.sqlTests.batchDelete(['t1']),
  'sqlTests.batchGet': (p) => p.sqlTests.batchGet(['t1']),
  'sqlTests.list': (p) => p.sqlTests.list(),
  'sqlTestRules.deploy': (p) => p.sqlTestRules.deploy(testRule),
  'sqlTestRules.batchDeploy': (p) => p.sqlTestRules.batchDeploy([testRule]),
  'sqlTestRules.delete': (p) => p.sqlTestRules.delete(ID),
  'sqlTestRules.batchDelete': (p) => p.sqlTestRules.batchDelete([ID]),
  'sqlTestRules.overview': (p) => p.sqlTestRules.overview(testRule),
  'sqlTestRules.deleteOverview': (p) => p.sqlTestRules.deleteOverview(ID),
  'sqlTestRules.batchGet': (p) => p.sqlTestRules.batchGet([ID]),
  'sqlTestRules.list': (p) => p.sqlTestRules.list(),
  'domains.upsert': (p) => p.domains.upsert({ id: ID, name: 'd' }),
  'domains.delete': (p) => p.domains.delete(ID, { etag: 'W/"x-1"' }),
  'domains.batchGet': (p) => p.domains.batchGet([ID]),
  'domains.list': (p) => p.domains.list(),
  'dataProducts.upsert': (p) => p.dataProducts.upsert({ id: ID, title: 'dp' }),
  'dataProducts.delete': (p) => p.dataProducts.delete(ID),
  'dataProducts.batchGet': (p) => p.dataProducts.batchGet([ID]),
  'dataProducts.list': (p) => p.dataProducts.list(),
  'owners.upsertOwner': (p) => p.owners.upsertOwner({ id: OWNER, title: 'team' }),
  'owners.deleteOwner': (p) => p.owners.deleteOwner(OWNER),
  'owners.upsertOwnership': (p) => p.owners.upsertOwnership({ id: ID, ownerId: OWNER, selection: { dataproductId: 'dp' } }),
  'owners.deleteOwnership': (p) => p.owners.deleteOwnership(ID),
  'owners.batchGetOwners': (p) => p.owners.batchGetOwners([OWNER]),
  'owners.batchGetOwnerships': (p) => p.owners.batchGetOwnerships([ID]),
  'owners.listOwners': (p) => p.owners.listOwners(),
  'owners.listOwnerships': (p) => p.owners.listOwnerships(OWNER),
  'savedViews.upsert': (p) => p.savedViews.upsert({ id: ID, title: 'v' }),
  'savedViews.delete': (p) => p.savedViews.delete(ID),
  'savedViews.batchGet': (p) => p.savedViews.batchGet([ID]),
  'savedViews.list': (p) => p.savedViews.list(),
  'categorisationRules.upsert': (p) => p.categorisationRules.upsert({ id: ID, dimension: 'TECHNICAL', title: 't', category: 'c', matcher: { expression: 'with_type("table")' } }, 'W/"x-1"'),
  'categorisationRules.delete': (p) => p.categorisationRules.delete(ID, { etag: 'W/"x-1"' }),
  'categorisationRules.batchGet': (p) => p.categorisationRules.batchGet([ID]),
  'categorisationRules.list': (p) => p.categorisationRules.list(),
  'categorisationRules.preview': (p) => p.categorisationRules.preview({ dimension: 'TECHNICAL', category: 'c', matcher: { attributes: { checkTypes: ['monitor'] } } }),
  'categorisationRules.listMatches': (p) => p.categorisationRules.listMatches(ID),
  'integrations.create': (p) => p.integrations.create(integration),
  'integrations.update': (p) => p.integrations.update(ID, integration, 'W/"x-1"'),
  'integrations.delete': (p) => p.integrations.delete(ID, 'W/"x-1"'),
  'integrations.enable': (p) => p.integrations.enable(ID),
  'integrations.disable': (p) => p.integrations.disable(ID),
  'integrations.batchGet': (p) => p.integrations.batchGet([ID]),
  'integrations.list': (p) => p.integrations.list(),
  'queries.translateResolverQl': (p) => p.queries.translateResolverQl('with_type("table")'),
  'queries.resolveQuery': (p) => p.queries.resolveQuery({ resolverQl: 'with_type("table")' }),
  'iam.get': (p) => p.iam.get(),
  'entities.list': (p) => p.entities.list(),
  'entities.search': (p) => p.entities.search('orders'),
  'entities.batchGet': (p) => p.entities.batchGet([{ custom: { id: 'x' } }]),
};

let server: TestServer;
let client: DqClient;
let platform: PlatformClient;
beforeAll(async () => {
  server = await new TestServer().start();
  client = makeClient(server, { retry: { maxAttempts: 2 } }).client;
  platform = new PlatformClient(client);
});
afterAll(async () => {
  await client.close();
  await server.stop();
});

test('ROUTES.md lists every operation the test invokes, and nothing else', () => {
  expect(rows.map((r) => `${r.service}.${r.operation}`).sort()).toEqual(Object.keys(invoke).sort());
});

describe.each(rows)('$service.$operation', (row) => {
  test(`sends ${row.method} ${row.path}`, async () => {
    server.on(row.method, row.path, () => ({ json: {} }));
    const before = server.requests.length;
    await invoke[`${row.service}.${row.operation}`](platform).catch((e: unknown) => {
      if (!(e instanceof ResponseShapeError)) throw e;
    });
    const sent = server.requests.slice(before);
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(sent.map(() => `${row.method} ${row.path}`));
  });

  test(row.retry ? 'is retried on 503' : 'is NOT retried on 503', async () => {
    server.on(row.method, row.path, () => ({ status: 503 }));
    const before = server.requests.length;
    await expect(invoke[`${row.service}.${row.operation}`](platform)).rejects.toBeInstanceOf(UnavailableError);
    expect(server.requests.length - before).toBe(row.retry ? 2 : 1);
  });
});

test('the deploy overview carries the rule as dotted scalar query parameters, never JSON', async () => {
  server.on('GET', '/api/monitors/automated/v1/deployment-rule', () => ({ json: { overview: {} } }));
  await platform.deploymentRules.deployOverview(rule);
  const r = server.calls('GET', '/api/monitors/automated/v1/deployment-rule').at(-1)!;
  expect([...r.query.entries()]).toEqual([
    ['deploymentRule.exclusiveStaticConfig.path', 'a::b'],
    ['deploymentRule.id', ID],
    ['deploymentRule.title', 't'],
  ]);
});

test.each([
  {
    reason: 'a monitor rule with metricOptions (a repeated message)',
    call: (p: PlatformClient) =>
      p.deploymentRules.deployOverview({
        id: ID,
        title: 't',
        queryConfig: { resolverQl: 'with_type("table")', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], metricOptions: [{ metricId: 'METRIC_ID_ROW_COUNT', sensitivity: 'SENSITIVITY_PRECISE' }] },
      }),
    field: 'deploymentRule.queryConfig.metricOptions',
  },
  {
    reason: 'a product rule with an upstream marker (an empty message)',
    call: (p: PlatformClient) => p.deploymentRules.deployOverview({ id: ID, title: 't', productConfig: { productId: 'p', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], upstream: { all: {} } } }),
    field: 'deploymentRule.productConfig.upstream.all',
  },
  {
    reason: "a SQL-test rule's tests (a repeated message)",
    call: (p: PlatformClient) => p.sqlTestRules.overview({ id: ID, title: 't', staticConfig: { path: 'a::b', tests: [{ name: 'n', notNullTest: { columnNames: ['id'] } }] } }),
    field: 'deploymentRule.staticConfig.tests',
  },
])('the REST overview of $reason throws PreviewUnavailableError before sending anything', async ({ call, field }) => {
  const before = server.requests.length;
  const e = await call(platform).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(PreviewUnavailableError);
  expect((e as PreviewUnavailableError).field).toBe(field);
  expect((e as Error).message).toMatch(/^cannot be previewed over REST: /);
  expect(server.requests.length).toBe(before);
});

test('a structured query goes as its ResolverQL rendering', async () => {
  server.on('GET', '/api/monitors/automated/v1/deployment-rule', () => ({ json: { overview: {} } }));
  await platform.deploymentRules.deployOverview({
    id: ID,
    title: 't',
    queryConfig: { query: { parts: [{ withNameSearch: { searchQuery: 'orders' } }] }, severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] },
  });
  const q = server.calls('GET', '/api/monitors/automated/v1/deployment-rule').at(-1)!.query;
  expect(q.get('deploymentRule.queryConfig.resolverQl')).toBe('with_name("orders")');
  expect(q.getAll('deploymentRule.queryConfig.metricIds')).toEqual(['1', '2']);
  expect(q.get('deploymentRule.queryConfig.severity')).toBe('2');
  expect([...q.keys()].some((k) => k.includes('parts'))).toBe(false);
});

test('integration delete sends the etag as a query parameter and no body', async () => {
  server.on('DELETE', `/api/integrations/v1/${ID}`, () => ({ json: {} }));
  await platform.integrations.delete(ID, 'W/"x-1"');
  const r = server.calls('DELETE', `/api/integrations/v1/${ID}`).at(-1)!;
  expect(r.query.get('etag')).toBe('W/"x-1"');
  expect(r.body).toBe('');
});

/**
 * Lists send their filters and page size in the query and read every page with the cursor the
 * previous page ended on. Mutation testing found a domain list could drop its filter and cursor,
 * and a data-product list its page size, unnoticed.
 */
describe.each([
  ['domains.list', '/api/domains/v2', 'domains', (p: PlatformClient) => p.domains.list(2, { parentId: 'dom-parent' }), ['parentId', 'dom-parent']],
  ['dataProducts.list', '/api/dataproducts/v2', 'dataproducts', (p: PlatformClient) => p.dataProducts.list(2, { folder: 'sales' }), ['folder', 'sales']],
  ['owners.listOwners', '/api/owners/v1', 'owners', (p: PlatformClient) => p.owners.listOwners(2), null],
  ['owners.listOwnerships', `/api/owners/v1/${OWNER}/ownerships`, 'ownerships', (p: PlatformClient) => p.owners.listOwnerships(OWNER, 2), null],
  ['sqlTests.list', '/api/datachecks/sqltests/v1', 'sqlTests', (p: PlatformClient) => p.sqlTests.list({ sources: ['SOURCE_API'] }, 2), ['sources', '1']],
] as const)('%s: filters, page size and cursor', (_op, route, key, list, filter) => {
  test('every page is read, each request with the filter and the page size, the next with the cursor', async () => {
    // two pages, told apart by the cursor (other tests of this file call the same routes)
    server.on('GET', route, (r) => (r.query.get('pagination.cursor') === 'item-1' ? { json: { [key]: [{ id: 'item-2' }], pageInfo: {} } } : { json: { [key]: [{ id: 'item-1' }], pageInfo: { lastId: 'item-1' } } }));
    const before = server.calls('GET', route).length;
    const items = (await list(platform)) as { id: string }[];
    const sent = server.calls('GET', route).slice(before);
    expect(items.map((i) => i.id)).toEqual(['item-1', 'item-2']);
    expect(sent.map((r) => r.query.get('pagination.pageSize'))).toEqual(['2', '2']);
    expect(sent.map((r) => r.query.get('pagination.cursor'))).toEqual([null, 'item-1']);
    if (filter) expect(sent.map((r) => r.query.get(filter[0]))).toEqual([filter[1], filter[1]]);
  });
});
