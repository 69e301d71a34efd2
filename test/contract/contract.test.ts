/**
 * Contract tests: for every operation the client uses, the request it REALLY sends (recorded by
 * a proxy in front of a real emulator) is checked against the table written by hand from
 * wire-facts.md (./wire-table.ts, not the client's schemas): method, path, query names, body
 * keys, enums as numbers, no JSON in a query parameter. The emulator must accept exactly that
 * (200), and refuse the same request with an undeclared key, an envelope, an unknown query
 * parameter, a JSON-valued message parameter, or a body where none is taken.
 *
 * @gateway
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { sqlTestRuleToWire, sqlTestToWire } from '../../schemas/platform/sql-tests';
import { ENUM_NAME, TEST_HOLDER_FIELDS, TEST_INNER_MESSAGES, TEST_MESSAGES, WIRE, type WireRow } from './wire-table';

interface Recorded {
  method: string;
  path: string;
  query: [string, string][];
  body: string;
  status: number;
  response: string;
}

let emu: RunningEmulator;
let proxy: http.Server;
let client: PlatformClient;
let token: string;
const recorded: Recorded[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  proxy = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const u = new URL(req.url ?? '/', 'http://proxy');
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string' && k !== 'host' && k !== 'content-length') headers[k] = v;
      const r = await fetch(`${emu.url}${req.url}`, { method: req.method, headers, body: body || undefined });
      const text = await r.text();
      if (u.pathname.startsWith('/api/')) recorded.push({ method: req.method ?? 'GET', path: u.pathname, query: [...u.searchParams.entries()], body, status: r.status, response: text });
      res.writeHead(r.status, { 'content-type': r.headers.get('content-type') ?? 'application/json' });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  client = PlatformClient.create({ baseUrl: url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  const t = await fetch(`${emu.url}/oauth2/token`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'grant_type=client_credentials&client_id=demo-admin&client_secret=demo-secret' });
  token = ((await t.json()) as { access_token: string }).access_token;
});
afterAll(async () => {
  await client.close();
  await new Promise<void>((resolve) => proxy.close(() => resolve()));
  await emu.close();
});

const OWNER = '0c000000-0000-4000-8000-000000000001';
const DOMAIN = '0c000000-0000-4000-8000-000000000002';
const PRODUCT = '0c000000-0000-4000-8000-000000000003';
const OWNERSHIP = '0c000000-0000-4000-8000-000000000004';
const VIEW = '0c000000-0000-4000-8000-00000000000a';
const RULE1 = '0c000000-0000-4000-8000-000000000005';
const RULE2 = '0c000000-0000-4000-8000-000000000006';
const TRULE1 = '0c000000-0000-4000-8000-000000000007';
const TRULE2 = '0c000000-0000-4000-8000-000000000008';
const XRULE = '0c000000-0000-4000-8000-000000000009';
const CRULE = '0c000000-0000-4000-8000-00000000000a';
const FQN = 'contract.orders';
const settings = { severity: 'SEVERITY_ERROR' as const, sensitivity: 'SENSITIVITY_BALANCED' as const, metricIds: ['METRIC_ID_ROW_COUNT' as const, 'METRIC_ID_DELAY' as const] };
const alert = {
  name: 'Orders',
  fqn: FQN,
  configId: 'contract',
  source: 'SOURCE_API' as const,
  issueLifecycle: { trigger: { resolverQl: 'with_name("orders")' }, targets: [{ slack: { channel: '#o' } }], settings: { severities: ['SEVERITY_ERROR' as const] } },
};
const staticRule = (id: string) => ({ id, title: 'r', configId: 'contract', source: 'SOURCE_API' as const, staticConfig: { path: 'wh-prod::mart::fct_orders', ...settings } });
/** One test of every kind, in dqform's shapes (what code and YAML declare): sent through the one mapping (schemas/platform/sql-test-kinds.ts). */
const DQFORM_TESTS: Record<string, Record<string, unknown>> = {
  notNull: { columns: ['order_id'] },
  empty: { columns: ['status'] },
  acceptedValues: { column: 'status', values: ['open', 'closed'] },
  rejectedValues: { column: 'status', values: ['void'] },
  unique: { columns: ['order_id'] },
  freshness: { column: 'loaded_at', maxDelaySeconds: 86400 },
  minMax: { column: 'amount', min: 0, max: 1000000 },
  relativeTime: { column: 'shipped_at', relativeColumn: 'ordered_at' },
  businessRule: { sqlExpression: 'amount >= 0' },
  minValue: { column: 'amount', value: 0 },
  maxValue: { column: 'amount', value: 1000000 },
  relationships: { column: 'customer_id', targetTable: 'wh-prod::mart::dim_customers', targetColumn: 'customer_id' },
  businessQuery: { sqlQuery: 'select * from orders where amount < 0' },
};
const ORDERS_ID = { warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } };
const templateTests = () =>
  Object.entries(DQFORM_TESTS).map(([kind, body]) =>
    sqlTestToWire({ id: `contract-${kind}`, name: kind, severity: 'SEVERITY_ERROR', source: 'SOURCE_API', configId: 'contract', template: { identifier: ORDERS_ID, [kind]: body } }),
  );
const testRule = (id: string) =>
  sqlTestRuleToWire({
    id,
    title: 't',
    configId: 'contract',
    source: 'SOURCE_API' as const,
    staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_WARNING' as const, tests: Object.entries(DQFORM_TESTS).map(([kind, body]) => ({ name: kind, [kind]: body })) },
  }) as never as { id: string; title: string; staticConfig: { path: string; severity: 'SEVERITY_WARNING'; tests: never[] } };
/** Fails a step whose batch answered per-item errors (a 200 that wrote nothing). */
const noItemErrors = async (p: Promise<{ errors: unknown[] }>) => {
  const r = await p;
  if (r.errors.length) throw new Error(`per-item errors: ${JSON.stringify(r.errors)}`);
  return r;
};
let integrationId = '';
let integrationEtag = '';

/** The operations in an order the platform accepts (each one's request must get a 200). */
const STEPS: [op: string, run: (c: PlatformClient) => Promise<unknown>][] = [
  ['owners.upsertOwner', (c) => c.owners.upsertOwner({ id: OWNER, title: 'Team', contacts: { contacts: [{ slack: { channel: '#t' } }] } })],
  ['owners.batchGetOwners', (c) => c.owners.batchGetOwners([OWNER])],
  ['owners.listOwners', (c) => c.owners.listOwners(50)],
  ['domains.upsert', (c) => c.domains.upsert({ id: DOMAIN, name: 'Sales', description: 'd', parentId: '', definition: { parts: [{ query: { resolverQl: 'with_tag("sales")' } }] } })],
  ['domains.batchGet', (c) => c.domains.batchGet([DOMAIN])],
  ['domains.list', (c) => c.domains.list(50, { parentId: '' })],
  ['dataProducts.upsert', (c) => c.dataProducts.upsert({ id: PRODUCT, title: 'Orders', priority: 'PRIORITY_P2', definition: { parts: [{ entityId: 'wh-prod::mart::fct_orders' }] } })],
  ['dataProducts.batchGet', (c) => c.dataProducts.batchGet([PRODUCT])],
  ['dataProducts.list', (c) => c.dataProducts.list(50, { priorities: ['PRIORITY_P2'] })],
  ['categorisationRules.upsert', (c) => c.categorisationRules.upsert({ id: CRULE, dimension: 'GOVERNANCE', title: 'PII', category: 'Privacy', matcher: { expression: 'with_annotation("pii")' }, priority: 5 })],
  ['categorisationRules.batchGet', (c) => c.categorisationRules.batchGet([CRULE])],
  ['categorisationRules.list', (c) => c.categorisationRules.list(50, { dimension: 'GOVERNANCE', scope: 'WORKSPACE' })],
  ['categorisationRules.preview', (c) => c.categorisationRules.preview({ dimension: 'TECHNICAL', category: 'Volume', matcher: { attributes: { checkTypes: ['monitor'], assetPathPrefix: 'wh-prod::mart' } } }, 5)],
  ['categorisationRules.listMatches', (c) => c.categorisationRules.listMatches(CRULE, 50)],
  ['owners.upsertOwnership', (c) => c.owners.upsertOwnership({ id: OWNERSHIP, ownerId: OWNER, selection: { dataproductId: PRODUCT }, alert: { severities: ['SEVERITY_ERROR'] } })],
  ['owners.batchGetOwnerships', (c) => c.owners.batchGetOwnerships([OWNERSHIP])],
  ['owners.listOwnerships', (c) => c.owners.listOwnerships(OWNER, 50)],
  ['alerts.create', (c) => c.alerts.create(alert)],
  ['alerts.upsert', (c) => c.alerts.upsert({ ...alert, fqn: `${FQN}-2` })],
  ['alerts.list', (c) => c.alerts.list({})],
  ['alerts.batchGet', (c) => c.alerts.batchGet([{ fqn: FQN }])],
  ['alerts.rename', (c) => c.alerts.rename({ fqn: FQN }, 'Orders 2')],
  ['alerts.updateSettings', (c) => c.alerts.updateSettings({ identifier: { fqn: FQN }, issueLifecycle: { severities: ['SEVERITY_FATAL'] } })],
  ['alerts.updateTargets', (c) => c.alerts.updateTargets({ fqn: FQN }, [{ slack: { channel: '#p' } }])],
  ['alerts.updateTemplate', (c) => c.alerts.updateTemplate({ fqn: FQN }, { title: 'T', plain: 'body' })],
  ['alerts.toggleEnabled', (c) => c.alerts.toggleEnabled({ fqn: FQN }, false)],
  ['alerts.toggleIncidentOwnerAlert', (c) => c.alerts.toggleIncidentOwnerAlert(true)],
  ['alerts.sendTestAlert', (c) => c.alerts.sendTestAlert([{ slack: { channel: '#t' } }], { name: 'check', kind: 'TEST_ALERT_KIND_ISSUE' })],
  ['alerts.delete', (c) => c.alerts.delete({ fqn: FQN })],
  ['deploymentRules.deploy', (c) => c.deploymentRules.deploy(staticRule(RULE1))],
  ['deploymentRules.batchDeploy', (c) => c.deploymentRules.batchDeploy([{ ...staticRule(RULE2), staticConfig: { ...staticRule(RULE2).staticConfig, path: 'wh-prod::mart::dim_customers' } }])],
  ['deploymentRules.list', (c) => c.deploymentRules.list({ sources: ['SOURCE_API'], ruleTypes: ['RULE_TYPE_STATIC_PATH'], configsFilter: { ids: ['contract'] } }, 50)],
  ['deploymentRules.batchGet', (c) => c.deploymentRules.batchGet([RULE1, RULE2])],
  ['deploymentRules.deployOverview', (c) => c.deploymentRules.deployOverview({ ...staticRule(RULE1), staticConfig: { ...staticRule(RULE1).staticConfig, severity: 'SEVERITY_WARNING' } })],
  ['deploymentRules.deleteOverview', (c) => c.deploymentRules.deleteOverview(RULE1)],
  ['deploymentRules.delete', (c) => c.deploymentRules.delete(RULE2)],
  ['sqlTests.batchUpsert', (c) => noItemErrors(c.sqlTests.batchUpsert([{ id: 'contract-t', name: 'T', severity: 'SEVERITY_ERROR', source: 'SOURCE_API', configId: 'contract', platform: { warehouseAccount: { account: 'acme-retail', database: 'wh-prod' } }, sqlExpression: 'select 1' }, ...(templateTests() as never[])]))],
  ['sqlTests.batchGet', (c) => c.sqlTests.batchGet(['contract-t', ...Object.keys(DQFORM_TESTS).map((k) => `contract-${k}`)])],
  ['sqlTests.list', (c) => c.sqlTests.list({ sources: ['SOURCE_API'], annotations: { name: 'tier', values: ['1'] } }, 50)],
  ['sqlTests.batchDelete', (c) => c.sqlTests.batchDelete(['contract-t', ...Object.keys(DQFORM_TESTS).map((k) => `contract-${k}`)])],
  ['sqlTestRules.deploy', (c) => c.sqlTestRules.deploy(testRule(TRULE1))],
  ['sqlTestRules.batchDeploy', (c) => noItemErrors(c.sqlTestRules.batchDeploy([{ ...testRule(TRULE2), staticConfig: { ...testRule(TRULE2).staticConfig, path: 'wh-prod::mart::dim_customers' } }]))],
  ['sqlTestRules.batchGet', (c) => c.sqlTestRules.batchGet([TRULE1])],
  ['sqlTestRules.list', (c) => c.sqlTestRules.list({ sources: ['SOURCE_API'] }, 50)],
  ['sqlTestRules.overview', (c) => c.sqlTestRules.overview({ id: XRULE, title: 'x', source: 'SOURCE_API', exclusiveStaticConfig: { path: 'wh-prod::mart::fct_orders' } })],
  ['sqlTestRules.deleteOverview', (c) => c.sqlTestRules.deleteOverview(TRULE1)],
  ['sqlTestRules.delete', (c) => c.sqlTestRules.delete(TRULE1)],
  ['sqlTestRules.batchDelete', (c) => c.sqlTestRules.batchDelete([TRULE2])],
  [
    'integrations.create',
    async (c) => {
      const i = await c.integrations.create({ title: 'pg', config: { relational: { host: 'db', database: 'd', user: 'u', password: 'contract-secret' } } });
      integrationId = i.id;
      integrationEtag = i.etag ?? '';
    },
  ],
  [
    'integrations.update',
    async (c) => {
      const i = await c.integrations.update(integrationId, { title: 'pg 2', config: { relational: { host: 'db', database: 'd', user: 'u' } } }, integrationEtag);
      integrationEtag = i.etag ?? '';
    },
  ],
  ['integrations.disable', (c) => c.integrations.disable(integrationId)],
  [
    'integrations.enable',
    async (c) => {
      integrationEtag = (await c.integrations.enable(integrationId)).etag ?? '';
    },
  ],
  ['integrations.batchGet', (c) => c.integrations.batchGet([integrationId])],
  ['integrations.list', (c) => c.integrations.list({ disabled: false })],
  ['integrations.delete', (c) => c.integrations.delete(integrationId, integrationEtag)],
  ['savedViews.upsert', (c) => c.savedViews.upsert({ id: VIEW, title: 'PII', context: 'issues', selection: { resolverQl: 'with_tag("pii")' }, config: { columns: ['title'] }, visibility: 'VISIBILITY_WORKSPACE', grants: { grants: [{ groupId: 'g', permission: 'PERMISSION_EDIT' }] } })],
  ['savedViews.batchGet', (c) => c.savedViews.batchGet([VIEW])],
  ['savedViews.list', (c) => c.savedViews.list(50, { scopes: ['RELATIONSHIP_OWNED'], context: 'issues' })],
  ['savedViews.delete', (c) => c.savedViews.delete(VIEW)],
  ['queries.translateResolverQl', (c) => c.queries.translateResolverQl('with_type("table")')],
  ['queries.resolveQuery', (c) => c.queries.resolveQuery({ resolverQl: 'with_name("orders")', pagination: { pageSize: 5 } })],
  ['iam.get', (c) => c.iam.get()],
  ['entities.list', (c) => c.entities.list({ pageSize: 1000 })],
  ['entities.search', (c) => c.entities.search('orders')],
  ['entities.batchGet', (c) => c.entities.batchGet([{ warehouseAccountTable: { account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' } }])],
  ['owners.deleteOwnership', (c) => c.owners.deleteOwnership(OWNERSHIP)],
  ['owners.deleteOwner', (c) => c.owners.deleteOwner(OWNER)],
  ['domains.delete', (c) => c.domains.delete(DOMAIN)],
  ['categorisationRules.delete', (c) => c.categorisationRules.delete(CRULE)],
  ['dataProducts.delete', (c) => c.dataProducts.delete(PRODUCT)],
];

const rowOf = (op: string): WireRow => {
  const r = WIRE.find((x) => x.op === op);
  if (!r) throw new Error(`no wire-table row for ${op}`);
  return r;
};
const pathMatches = (pattern: string, path: string) => new RegExp(`^${pattern.replace(/:[a-z_]+/g, '[^/]+')}$`).test(path);
const queryAllowed = (allowed: readonly string[], name: string) =>
  allowed.some((a) => (a.endsWith('.*') ? name.startsWith(a.slice(0, -1)) && name.length > a.length - 1 : a === name));

/** Every value at a dotted path (`a.b[]` fans out over lists). */
function at(v: unknown, path: string): unknown[] {
  let cur: unknown[] = [v];
  for (const seg of path.split('.')) {
    const list = seg.endsWith('[]');
    const key = list ? seg.slice(0, -2) : seg;
    cur = cur.flatMap((x) => (x && typeof x === 'object' && !Array.isArray(x) && (x as Record<string, unknown>)[key] !== undefined ? [(x as Record<string, unknown>)[key]] : []));
    if (list) cur = cur.flatMap((x) => (Array.isArray(x) ? x : [x]));
  }
  return cur;
}
function strings(v: unknown): string[] {
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(strings);
  if (v && typeof v === 'object') return Object.values(v).flatMap(strings);
  return [];
}
/** A GET's query parameters as the nested value the table's enum paths address. */
function nested(pairs: [string, string][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of pairs) {
    const segs = k.split('.');
    let o = out;
    for (const s of segs.slice(0, -1)) o = (o[s] ??= {}) as Record<string, unknown>;
    const last = segs[segs.length - 1];
    const val = /^-?\d+$/.test(v) ? Number(v) : v;
    o[last] = o[last] === undefined ? val : [...(Array.isArray(o[last]) ? (o[last] as unknown[]) : [o[last]]), val];
  }
  return out;
}
const asList = (x: unknown) => (Array.isArray(x) ? x : [x]);

const captured = new Map<string, Recorded>();

test('the table and the steps cover every operation of src/client/services/ROUTES.md', () => {
  expect(STEPS.map(([op]) => op).sort()).toEqual(WIRE.map((r) => r.op).sort());
});

describe.each(STEPS.map(([op, run]) => ({ op, run })))('$op', ({ op, run }) => {
  test('sends exactly the platform\'s request, and the emulator accepts it', async () => {
    const row = rowOf(op);
    const before = recorded.length;
    await run(client);
    const mine = recorded.slice(before).filter((r) => r.path !== '/api/iam/v1' || op === 'iam.get');
    expect(mine.map((r) => `${r.method} ${r.path}`)).toHaveLength(1);
    const r = mine[0];
    captured.set(op, r);
    expect(r.method).toBe(row.method);
    expect(pathMatches(row.path, r.path)).toBe(true);
    expect(r.status).toBe(200);
    // body
    if (row.body === null) expect(r.body).toBe('');
    else {
      const body = JSON.parse(r.body || '{}') as Record<string, unknown>;
      expect(Object.keys(body).filter((k) => !row.body!.includes(k))).toEqual([]);
    }
    // query
    const names = [...new Set(r.query.map(([k]) => k))];
    expect(names.filter((n) => !queryAllowed(row.query ?? [], n))).toEqual([]);
    expect(r.query.filter(([, v]) => /^\s*[[{]/.test(v))).toEqual([]);
    // enums: numbers on the wire, never a name anywhere
    const value = row.body === null ? nested(r.query) : (JSON.parse(r.body || '{}') as unknown);
    for (const p of row.enums ?? []) {
      const vals = at(value, p).flatMap(asList);
      expect({ path: p, present: vals.length > 0 }).toEqual({ path: p, present: true });
      expect({ path: p, numbers: vals.every((x) => typeof x === 'number') }).toEqual({ path: p, numbers: true });
    }
    expect(strings(value).filter((s) => ENUM_NAME.test(s))).toEqual([]);
    expect(r.query.map(([, v]) => v).filter((s) => ENUM_NAME.test(s))).toEqual([]);
  });
});

/** Sends a request straight to the emulator with the admin token. */
async function send(method: string, pathAndQuery: string, body?: string): Promise<{ status: number; text: string }> {
  const r = await fetch(`${emu.url}${pathAndQuery}`, { method, headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) }, body });
  return { status: r.status, text: await r.text() };
}
const qs = (pairs: [string, string][]) => (pairs.length ? `?${new URLSearchParams(pairs).toString()}` : '');

describe('the strict emulator refuses what the platform would not read', () => {
  const withBody = WIRE.filter((r) => r.body !== null);
  const withoutBody = WIRE.filter((r) => r.body === null);

  test.each(withBody.map((r) => ({ op: r.op, row: r })))('$op: an undeclared key is 400 naming it', async ({ op, row }) => {
    const r = captured.get(op)!;
    const body = { ...(JSON.parse(r.body || '{}') as Record<string, unknown>), notAField: true };
    const res = await send(row.method, `${r.path}${qs(r.query)}`, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(res.text).toContain('notAField');
  });

  test.each(withBody.filter((r) => r.envelope).map((r) => ({ op: r.op, row: r })))('$op: the envelope form ($row.envelope) is 400 naming the envelope', async ({ op, row }) => {
    const r = captured.get(op)!;
    const res = await send(row.method, r.path, JSON.stringify({ [row.envelope!]: JSON.parse(r.body || '{}') }));
    expect(res.status).toBe(400);
    expect(res.text).toContain(`"${row.envelope}"`);
  });

  test.each(withoutBody.map((r) => ({ op: r.op, row: r })))('$op: an unknown query parameter is 400 naming it', async ({ op, row }) => {
    const r = captured.get(op)!;
    const res = await send(row.method, `${r.path}${qs([...r.query, ['notAParam', '1']])}`);
    expect(res.status).toBe(400);
    expect(res.text).toContain('notAParam');
  });

  test.each(withoutBody.filter((r) => r.method === 'DELETE').map((r) => ({ op: r.op, row: r })))('$op: a DELETE whose fields are query parameters refuses a JSON body', async ({ op, row }) => {
    const r = captured.get(op)!;
    const res = await send(row.method, `${r.path}${qs(r.query)}`, '{"ids":["x"]}');
    expect(res.status).toBe(400);
    expect(res.text).toContain('takes no body');
  });

  test.each(['deploymentRules.deployOverview', 'sqlTestRules.overview'])('%s: the rule as a JSON-valued parameter is 400', async (op) => {
    const r = captured.get(op)!;
    const res = await send('GET', `${r.path}${qs([['deploymentRule', JSON.stringify(nested(r.query).deploymentRule)]])}`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/never a JSON value/);
  });
});

/** Every value at a dotted path: `a[]` fans out over a list, `a.*` over a map's values. */
function atPath(v: unknown, path: string): unknown[] {
  let cur: unknown[] = [v];
  for (const seg of path.split('.')) {
    if (seg === '*') {
      cur = cur.flatMap((x) => (x && typeof x === 'object' && !Array.isArray(x) ? Object.values(x) : []));
      continue;
    }
    const list = seg.endsWith('[]');
    const key = list ? seg.slice(0, -2) : seg;
    cur = cur.flatMap((x) => (x && typeof x === 'object' && !Array.isArray(x) && (x as Record<string, unknown>)[key] != null ? [(x as Record<string, unknown>)[key]] : []));
    if (list) cur = cur.flatMap((x) => (Array.isArray(x) ? x : [x]));
  }
  return cur;
}
/** What in one test holder is not the platform's (empty when all is): keys, message fields, inner message fields. */
function testShapeProblems(holder: Record<string, unknown>): string[] {
  const out: string[] = [];
  const kinds = Object.keys(holder).filter((k) => !TEST_HOLDER_FIELDS.includes(k));
  if (kinds.length !== 1 || !TEST_MESSAGES[kinds[0]]) return [`holds ${JSON.stringify(kinds)}, not one test message`];
  const msg = holder[kinds[0]] as Record<string, unknown>;
  for (const [f, v] of Object.entries(msg)) {
    if (!TEST_MESSAGES[kinds[0]].includes(f)) out.push(`${kinds[0]}.${f}`);
    const inner = TEST_INNER_MESSAGES[f];
    for (const item of inner && v ? (Array.isArray(v) ? v : [v]) : []) {
      for (const k of Object.keys(item as object)) if (!inner.includes(k)) out.push(`${kinds[0]}.${f}.${k}`);
      if (f === 'references') for (const c of ((item as { columns?: object[] }).columns ?? [])) for (const k of Object.keys(c)) if (!TEST_INNER_MESSAGES['references.columns'].includes(k)) out.push(`${kinds[0]}.references.columns.${k}`);
    }
  }
  return out;
}

describe('template tests travel as the platform\'s messages (grpc-facts 4.2), both ways', () => {
  const rows = WIRE.filter((r) => r.tests);
  test.each(rows.map((r) => ({ op: r.op, row: r })))('$op: every test is one platform message with only its fields', ({ op, row }) => {
    const r = captured.get(op)!;
    const holders = [
      ...(row.tests!.request ?? []).flatMap((p) => atPath(JSON.parse(r.body || '{}'), p)),
      ...(row.tests!.response ?? []).flatMap((p) => atPath(JSON.parse(r.response), p)),
    ] as Record<string, unknown>[];
    // the steps send (and read back) one test of every kind
    expect(new Set(holders.map((h) => Object.keys(h).find((k) => TEST_MESSAGES[k])))).toEqual(new Set(Object.keys(TEST_MESSAGES)));
    expect(holders.flatMap(testShapeProblems)).toEqual([]);
  });

  // dqform's own inner shapes (what REST carried before): the emulator reads them as the platform would not
  const OLD_INNER = { columns: ['order_id'] };
  test('sqlTestRules.deploy: a test with dqform\'s inner keys is 400 INVALID_ARGUMENT (code 3) naming the key', async () => {
    const r = captured.get('sqlTestRules.deploy')!;
    const body = JSON.parse(r.body) as { deploymentRule: { staticConfig: { tests: unknown[] } } };
    body.deploymentRule.staticConfig.tests[0] = { name: 'n', notNullTest: OLD_INNER };
    const res = await send('POST', r.path, JSON.stringify(body));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toMatchObject({ code: 3, details: [{ violations: [{ field: 'staticConfig.tests[0].notNullTest.columns' }] }] });
  });

  test('sqlTestRules.batchDeploy: a rule with dqform\'s inner keys is refused, per item, naming the key (nothing deployed)', async () => {
    const r = captured.get('sqlTestRules.batchDeploy')!;
    const body = JSON.parse(r.body) as { deploymentRules: { id: string; staticConfig: { tests: unknown[] } }[] };
    body.deploymentRules[0].staticConfig.tests[0] = { name: 'n', notNullTest: OLD_INNER };
    const res = await send('POST', r.path, JSON.stringify(body));
    const out = JSON.parse(res.text) as { deployedIds?: string[]; errors: { id: string; reason: string }[] };
    expect(res.status).toBe(200);
    expect(out.deployedIds ?? []).toEqual([]);
    expect(out.errors).toEqual([{ id: body.deploymentRules[0].id, reason: expect.stringMatching(/notNullTest\.columns/) }]);
  });

  test('sqlTests.batchUpsert: a template with dqform\'s inner keys is refused, per item, naming the key (nothing written)', async () => {
    const r = captured.get('sqlTests.batchUpsert')!;
    const body = JSON.parse(r.body) as { sqlTests: Record<string, unknown>[] };
    const item = { ...body.sqlTests[1], id: 'contract-old-shape', template: { identifier: ORDERS_ID, freshnessTest: { column: 'loaded_at', maxDelaySeconds: 60 } } };
    const res = await send('POST', r.path, JSON.stringify({ sqlTests: [item] }));
    expect(res.status).toBe(200);
    const out = JSON.parse(res.text) as { createdIds?: string[]; errors: { id: string; reason: string }[] };
    expect(out.createdIds ?? []).toEqual([]);
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0].reason).toMatch(/template\.freshnessTest\.column\b.*unknown field/);
    expect(out.errors[0].reason).toContain('batch_upsert.unknown_field');
  });
});
