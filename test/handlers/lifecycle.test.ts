/**
 * Per kind, against a real emulator over HTTP: create -> read -> fromLive equals fromDesired
 * (a plan right after apply is empty); a repeated create adopts; update one field -> read shows
 * it; delete -> read no longer returns it; delete again succeeds.
 *
 * Kinds whose emulator routes are not registered yet are skipped (reported as skipped by jest),
 * decided at load time from the emulator's own route table.
 *
 * @gateway
 */
import { discoverRouteModules, EmulatorApp, startEmulator, type RunningEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { Change } from '../../schemas/model/plan';
import { RESOURCE_SCHEMAS, type ResourceType } from '../../schemas/model/manifest';
import { handlerFor } from '../../src/kinds/index';
import { hasConfigId } from '../../src/kinds/descriptors';
import type { HandlerContext, LiveObject } from '../../src/kinds/shared/types';

const routes = new EmulatorApp({ seed: 'empty' });
for (const m of discoverRouteModules()) routes.register(m);
const routed = (method: string, path: string): boolean => routes.match(method, path) !== undefined;

const ctx: HandlerContext = { workspace: 'demo', namespace: 'hdl-test' };
const OWNER = '0a000000-0000-4000-8000-000000000001';
const PARENT = '0a000000-0000-4000-8000-000000000002';
const DOMAIN = '0a000000-0000-4000-8000-000000000003';
const PRODUCT = '0a000000-0000-4000-8000-000000000004';
const OWNERSHIP = '0a000000-0000-4000-8000-000000000005';
const OWNERSHIP_Q = '0a000000-0000-4000-8000-000000000006';
const RULE = '0a000000-0000-4000-8000-000000000007';
const TEST_ID = 'hdl-test-orders-not-negative';
const CAT_RULE = '0a000000-0000-4000-8000-000000000009';
const SQL_RULE = '0a000000-0000-4000-8000-000000000008';
const VIEW = '0a000000-0000-4000-8000-000000000009';

interface Spec {
  type: ResourceType;
  name: string;
  /** The identity key (id, or fqn for alerts). */
  id: string;
  /** Route that must exist for the kind to run. */
  route: [string, string];
  desired: Record<string, unknown>;
  /** One field changed. */
  updated: Record<string, unknown>;
  /** What must be visible in the raw read after the update. */
  check: (raw: Record<string, unknown>) => void;
  /** Objects this one needs, created first (type, id, desired). */
  needs?: { type: ResourceType; id: string; desired: Record<string, unknown> }[];
}

const owner = { type: 'dq_owner' as const, id: OWNER, desired: { title: 'Owner for tests' } };
const product = { type: 'dq_data_product' as const, id: PRODUCT, desired: { title: 'Product for tests' } };

const specs: Spec[] = [
  {
    type: 'dq_alert', name: 'issue alert', id: 'hdl-test.orders', route: ['PUT', '/api/alerts/v2'],
    desired: { name: 'Orders', issueLifecycle: { trigger: { resolverQl: 'with_type( "table" , filter = with_name("orders"))' }, targets: [{ email: { recipientEmails: ['b@x.io', 'a@x.io'] } }], settings: { severities: ['SEVERITY_ERROR'], ongoing: { stream: {} } } } },
    updated: { name: 'Orders (renamed)', issueLifecycle: { trigger: { resolverQl: 'with_type( "table" , filter = with_name("orders"))' }, targets: [{ email: { recipientEmails: ['b@x.io', 'a@x.io'] } }], settings: { severities: ['SEVERITY_ERROR'], ongoing: { stream: {} } } } },
    check: (raw) => expect(raw.name).toBe('Orders (renamed)'),
  },
  {
    type: 'dq_alert', name: 'schema-change alert', id: 'hdl-test.schema', route: ['PUT', '/api/alerts/v2'],
    desired: { name: 'Schema', schemaChange: { trigger: { resolverQl: 'with_tag("staging")' }, targets: [{ slack: { channel: '#dq' } }] } },
    updated: { name: 'Schema', template: { title: 'Heads up' }, schemaChange: { trigger: { resolverQl: 'with_tag("staging")' }, targets: [{ slack: { channel: '#dq' } }] } },
    check: (raw) => expect(raw.template).toEqual({ title: 'Heads up' }),
  },
  {
    type: 'dq_alert', name: 'incident alert', id: 'hdl-test.incidents', route: ['PUT', '/api/alerts/v2'],
    desired: { name: 'Incidents', incidentLifecycle: { targets: [{ slack: { channel: '#inc' } }], settings: { states: ['STATE_OPEN', 'STATE_CLOSED'] } } },
    updated: { name: 'Incidents', isDisabled: true, incidentLifecycle: { targets: [{ slack: { channel: '#inc' } }], settings: { states: ['STATE_OPEN', 'STATE_CLOSED'] } } },
    check: (raw) => expect(raw.isDisabled).toBe(true),
  },
  {
    type: 'dq_owner', name: 'owner with contacts', id: OWNER, route: ['POST', '/api/owners/v1'],
    desired: { title: 'Team', contacts: [{ slack: { channel: '#team' } }, { users: { userEmails: ['a@x.io'] } }] },
    updated: { title: 'Team', contacts: [] },
    check: (raw) => expect(raw.contacts ?? []).toEqual([]),
  },
  {
    type: 'dq_domain', name: 'domain with parent and definition', id: DOMAIN, route: ['POST', '/api/domains/v2'],
    needs: [{ type: 'dq_domain', id: PARENT, desired: { name: 'Parent' } }, product],
    desired: { name: 'Sales', description: 'All sales', parentId: `domain-${PARENT}`, definition: { parts: [{ dataproductId: `dataproduct-${PRODUCT}` }, { query: { resolverQl: 'with_tag( "sales" )' } }] } },
    updated: { name: 'Sales', definition: { parts: [{ dataproductId: PRODUCT }] } },
    check: (raw) => {
      expect(raw.parentId ?? '').toBe('');
      expect(raw.description ?? '').toBe('');
    },
  },
  {
    type: 'dq_data_product', name: 'data product with priority', id: PRODUCT, route: ['POST', '/api/dataproducts/v2'],
    desired: { title: 'Orders', folder: 'Sales', priority: 'PRIORITY_P1', definition: { parts: [{ entityId: 'wh-prod::mart::orders' }] } },
    updated: { title: 'Orders', folder: 'Sales' },
    check: (raw) => expect(['PRIORITY_UNSPECIFIED', undefined]).toContain(raw.priority),
  },
  {
    type: 'dq_ownership', name: 'ownership by data product', id: OWNERSHIP, route: ['POST', '/api/owners/v1/x/ownerships'],
    needs: [owner, product],
    desired: { ownerId: `owner-${OWNER}`, selection: { dataproductId: `dataproduct-${PRODUCT}` }, alert: { severities: ['SEVERITY_ERROR'] } },
    updated: { ownerId: OWNER, selection: { dataproductId: PRODUCT }, alert: { severities: ['SEVERITY_ERROR', 'SEVERITY_FATAL'] } },
    check: (raw) => expect((raw.alert as { severities: string[] }).severities).toHaveLength(2),
  },
  {
    type: 'dq_ownership', name: 'ownership by query', id: OWNERSHIP_Q, route: ['POST', '/api/owners/v1/x/ownerships'],
    needs: [owner],
    desired: { ownerId: OWNER, selection: { query: { resolverQl: 'with_tag( "finance" )' } } },
    updated: { ownerId: OWNER, selection: { query: { resolverQl: 'with_tag("finance")' } }, alert: { severities: ['SEVERITY_WARN'], notifyUpstream: true } },
    check: (raw) => expect(raw.alert).toMatchObject({ notifyUpstream: true }),
  },
  {
    type: 'dq_monitor_deployment_rule', name: 'static rule', id: RULE, route: ['POST', '/api/monitors/automated/v1/deployment-rules/deployed'],
    desired: { title: 'Orders monitors', staticConfig: { path: 'wh-prod::mart::orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } },
    updated: { title: 'Orders monitors', staticConfig: { path: 'wh-prod::mart::orders', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } },
    check: (raw) => expect((raw.staticConfig as { severity: string }).severity).toBe('SEVERITY_WARNING'),
  },
  {
    type: 'dq_saved_view', name: 'shared saved view', id: VIEW, route: ['POST', '/api/saved-views/v1'],
    desired: { title: 'Open PII issues', description: 'triage', context: 'issues', selection: { resolverQl: 'with_tag( "pii" )' }, config: { columns: ['title', 'severity'], sortBy: 'severity', sortDescending: true }, visibility: 'VISIBILITY_WORKSPACE', grants: [{ userEmail: 'b@x.io', permission: 'PERMISSION_EDIT' }, { groupId: 'analysts', permission: 'PERMISSION_EDIT' }] },
    updated: { title: 'Open PII issues', context: 'issues', config: { columns: ['title'] } },
    check: (raw) => {
      expect(raw.description ?? '').toBe('');
      expect(raw.selection).toBeUndefined();
      expect(raw.grants ?? []).toEqual([]);
      expect(raw.visibility).toBe('VISIBILITY_PRIVATE');
    },
  },
  {
    type: 'dq_sql_test', name: 'expression test', id: TEST_ID, route: ['POST', '/api/datachecks/sqltests/v1'],
    desired: { name: 'No negative totals', platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=DAILY;BYHOUR=6', sqlExpression: 'select * from orders where total < 0' },
    updated: { name: 'No negative totals', platform: { integrationId: 'int-1' }, recurrenceRule: 'FREQ=DAILY;BYHOUR=7', sqlExpression: 'select * from orders where total < 0' },
    check: (raw) => expect(raw.recurrenceRule).toBe('FREQ=DAILY;BYHOUR=7'),
  },
  {
    type: 'dq_sql_test_deployment_rule', name: 'static SQL-test rule', id: SQL_RULE, route: ['POST', '/api/datachecks/sql-test-deployment-rules/v1/deployed'],
    desired: { title: 'Orders tests', staticConfig: { path: 'wh-prod::mart::orders', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'id not null', notNull: { columns: ['id'] } }] } },
    updated: { title: 'Orders tests (2)', staticConfig: { path: 'wh-prod::mart::orders', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'id not null', notNull: { columns: ['id'] } }] } },
    check: (raw) => expect(raw.title).toBe('Orders tests (2)'),
  },
  {
    type: 'dq_check_categorisation_rule', name: 'categorisation rule', id: CAT_RULE, route: ['POST', '/api/entities/v2/checks/categorisation-rules'],
    desired: { dimension: 'GOVERNANCE', title: 'PII checks', category: 'Privacy', matcher: { expression: 'with_annotation( "pii" )' } },
    updated: { dimension: 'GOVERNANCE', title: 'PII checks', category: 'Privacy', matcher: { attributes: { checkTypes: ['sqlTest', 'monitor'], assetPathPrefix: 'wh-prod::mart' } }, priority: 7 },
    check: (raw) => expect(raw.priority).toBe(7),
  },
];

function change(type: ResourceType, id: string, action: 'create' | 'update' | 'delete', desired: Record<string, unknown> | null, etag?: string): Change {
  const h = handlerFor(type);
  return Change.parse({ address: `${type}.t`, type, action, id, ...(type === 'dq_alert' ? { fqn: id } : {}), before: null, after: desired ? h.fromDesired(desired) : null, etag });
}

async function readOne(client: PlatformClient, type: ResourceType, id: string): Promise<LiveObject | undefined> {
  const live = await handlerFor(type).read(client, { ...ctx, keys: [id] });
  return live.find((l) => l.key === id);
}

/** What a second create of an existing id gives, per kind (see the test). */
const REPEATED_CREATE: Record<ResourceType, string> = {
  dq_owner: 'WriteConflictError',
  dq_domain: 'WriteConflictError',
  dq_data_product: 'WriteConflictError',
  dq_ownership: 'WriteConflictError',
  dq_sql_test: 'WriteConflictError',
  dq_saved_view: 'WriteConflictError',
  dq_alert: 'done',
  dq_monitor_deployment_rule: 'done',
  dq_sql_test_deployment_rule: 'done',
  // no spec above: the platform assigns integration ids (test/e2e/integrations.test.ts)
  dq_integration: 'not applicable',
  dq_check_categorisation_rule: 'WriteConflictError',
};

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint } });
});
afterAll(async () => {
  await client?.close();
  await emu?.close();
});

describe.each(specs.map((s) => [s.type, s.name, s] as const))('%s (%s) against the emulator', (_t, _n, s) => {
  const run = routed(s.route[0], s.route[1]) ? test : test.skip;
  run('create, plan empty, adopt on retry, update, delete, delete again', async () => {
    const h = handlerFor(s.type);
    expect(RESOURCE_SCHEMAS[s.type].safeParse(s.desired).success).toBe(true);
    // prerequisites another spec made (and maybe deleted: a soft-deleted id keeps its version, so
    // writing it again is reported as a conflict by these direct handler calls) are fine as they are
    for (const n of s.needs ?? []) await handlerFor(n.type).create(client, change(n.type, n.id, 'create', n.desired), ctx).catch((e: Error) => {
      if (e.name !== 'WriteConflictError') throw e;
    });

    // another spec may have made this id as its prerequisite: a create guarded by the etag it holds
    // (as the applier guards a create over a soft-deleted object) is a compare-and-swap
    const pre = (await h.read(client, { ...ctx, keys: [s.id], keysOnly: true, includeDeleted: true })).find((l) => l.key === s.id);
    await h.create(client, change(s.type, s.id, 'create', s.desired, hasConfigId(s.type) ? undefined : pre?.etag), ctx);
    const created = await readOne(client, s.type, s.id);
    expect(created).toBeDefined();
    expect(h.fromLive(created!.raw)).toEqual(h.fromDesired(s.desired));
    if (hasConfigId(s.type)) {
      expect(created!.configId).toBe(ctx.namespace);
      expect(created!.source).toBe('SOURCE_API');
    }

    // a create of an id that exists (someone made it meanwhile) never duplicates and is never
    // silently "done": kinds that can tell report a conflict (governance kinds: the answered
    // version; SQL tests: reported as an update), an alert holding exactly this content counts as
    // done; rules cannot tell here (the applier checks them right before and after the write)
    const again = await h.create(client, change(s.type, s.id, 'create', s.desired), ctx).then(
      () => 'done',
      (e: Error) => e.name,
    );
    expect(again).toBe(REPEATED_CREATE[s.type]);
    const all = await h.read(client, { ...ctx, keys: [s.id] });
    expect(all.filter((l) => l.key === s.id)).toHaveLength(1);
    expect(all.find((l) => l.key === s.id)!.id).toBe(created!.id);

    const current = all.find((l) => l.key === s.id)!;
    await h.update(client, change(s.type, s.id, 'update', s.updated, current.etag), ctx);
    const updated = await readOne(client, s.type, s.id);
    s.check(updated!.raw);
    expect(h.fromLive(updated!.raw)).toEqual(h.fromDesired(s.updated));
    expect(h.fromLive(updated!.raw)).not.toEqual(h.fromDesired(s.desired));

    await h.delete(client, change(s.type, s.id, 'delete', null, updated!.etag), ctx);
    expect(await readOne(client, s.type, s.id)).toBeUndefined();
    await expect(h.delete(client, change(s.type, s.id, 'delete', null), ctx)).resolves.toBeUndefined();
  });
});
