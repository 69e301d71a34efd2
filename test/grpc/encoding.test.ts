/**
 * What dqform's client puts on the gRPC wire, checked byte for byte by an independent reader:
 * each request the client builds (every rule config kind, every SQL-test kind, both delete
 * overviews) is captured by a bare grpc-js server, decoded by ./wire-reader.ts with the field
 * numbers of grpc-facts.md (no protobufjs, no .proto), and compared with the intended message
 * written out here from the facts. Responses go the other way: hand-made bytes with unknown
 * fields, unknown enum numbers and unpacked repeated enums must read without failing.
 *
 * @gateway
 */
import * as grpc from '@grpc/grpc-js';
import { PREVIEW_METHODS, type PreviewMethodName } from '../../schemas/platform/grpc';
import { PlatformClient, ResponseShapeError } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { overviewEffects } from '../../src/kinds/monitor-deployment-rule/handler';
import { sqlTestRuleToWire } from '../../schemas/platform/sql-tests';
import { readFacts } from './facts';
import { decodeWith, message, readFields, type WireField } from './wire-reader';

const facts = readFacts();
const PREFIX = 'acme.test';
const MID = '0f8e1a52-6c1d-4b7e-9a3f-5d2c4b6a8e10';
const SID = '7a3b9c1d-2e4f-4a6b-8c0d-1e2f3a4b5c6d';

interface Captured {
  path: string;
  bytes: Buffer;
  authorization: string | undefined;
}

let emu: RunningEmulator;
let server: grpc.Server;
let endpoint: string;
const captured: Captured[] = [];
/** The next answer's bytes per method (default: an empty response message). */
const answers = new Map<string, Buffer>();

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty', grpc: false }); // tokens only
  server = new grpc.Server();
  const byService = new Map<string, Record<string, grpc.MethodDefinition<Buffer, Buffer>>>();
  const impl = new Map<string, grpc.UntypedServiceImplementation>();
  for (const m of Object.values(PREVIEW_METHODS)) {
    const path = `/${PREFIX}.${m.service}/${m.name}`;
    const def = byService.get(m.service) ?? {};
    def[m.name] = { path, requestStream: false, responseStream: false, requestSerialize: (b) => b, requestDeserialize: (b) => b, responseSerialize: (b) => b, responseDeserialize: (b) => b };
    byService.set(m.service, def);
    const handlers = impl.get(m.service) ?? {};
    handlers[m.name] = ((call: grpc.ServerUnaryCall<Buffer, Buffer>, cb: grpc.sendUnaryData<Buffer>) => {
      captured.push({ path, bytes: call.request, authorization: call.metadata.get('authorization')[0] as string | undefined });
      cb(null, answers.get(m.name) ?? Buffer.alloc(0));
    }) as grpc.handleUnaryCall<Buffer, Buffer>;
    impl.set(m.service, handlers);
  }
  for (const [s, def] of byService) server.addService(def as grpc.ServiceDefinition, impl.get(s)!);
  const port = await new Promise<number>((res, rej) => server.bindAsync('127.0.0.1:0', grpc.ServerCredentials.createInsecure(), (e, p) => (e ? rej(e) : res(p))));
  endpoint = `127.0.0.1:${port}`;
});
afterAll(async () => {
  server.forceShutdown();
  await emu.close();
});
beforeEach(() => {
  captured.length = 0;
  answers.clear();
});

/** A client that asks everything over gRPC, at the capture server, with a non-default package prefix. */
function client(): PlatformClient {
  return PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint, packagePrefix: PREFIX, previewTransport: 'grpc' }, retry: { scale: 0.001 } });
}

const REQUEST_TYPE = (m: PreviewMethodName) => PREVIEW_METHODS[m].requestType;

const martQuery = {
  parts: [
    { withType: { types: [{ default: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE' }, { custom: 50001 }] } },
    { inFolder: { path: ['folder-wh-prod::mart'] } },
    { withAnnotation: { name: 'tier', acceptedValues: ['1', '2'] } },
    {
      identifierList: {
        identifiers: [
          { warehouseAccountTable: { account: 'acme', database: 'wh', schema: 'mart', table: 'orders' } },
          { monitor: { monitoredId: { custom: { id: 'c1' } }, monitorId: 'm1', integrationId: 'i1' } },
        ],
      },
    },
    { query: { parts: [{ withNameSearch: { searchQuery: 'orders' } }], operand: 'QUERY_OPERAND_OR' } },
  ],
  operand: 'QUERY_OPERAND_AND',
};
const martQueryWire = {
  parts: [
    { with_type: { types: [{ default: 503 }, { custom: 50001 }] } },
    { in_folder: { path: ['folder-wh-prod::mart'] } },
    { with_annotation: { name: 'tier', accepted_values: ['1', '2'] } },
    {
      identifier_list: {
        identifiers: [
          { warehouse_account_table: { account: 'acme', database: 'wh', schema: 'mart', table: 'orders' } },
          { monitor: { monitored_id: { custom: { id: 'c1' } }, monitor_id: 'm1', integration_id: 'i1' } },
        ],
      },
    },
    { query: { parts: [{ with_name_search: { search_query: 'orders' } }], operand: 2 } },
  ],
  operand: 1,
};

// the REST form of every test kind (proto3 JSON of the RuleTest messages, schemas/platform/sql-test-kinds.ts)
const ALL_TESTS = [
  { name: 'nn', description: 'keys', severity: 'SEVERITY_ERROR', notNullTest: { columnNames: ['id', 'code'] } },
  { name: 'em', emptyTest: { columnNames: ['x'] } },
  { name: 'av', acceptedValuesTest: { columnName: 'status', acceptedValues: [{ stringLiteral: 'a' }, { stringLiteral: 'b' }] } },
  { name: 'rv', rejectedValuesTest: { columnName: 'status', rejectedValues: [{ stringLiteral: 'z' }] } },
  { name: 'un', uniqueTest: { columnNames: ['id'] } },
  { name: 'fr', freshnessTest: { timePartitionColumnName: 'loaded_at', timeWindowSeconds: '7200' } },
  { name: 'mm', minMaxTest: { columnName: 'qty', minValue: { expression: '0' }, maxValue: { expression: '100.5' } } },
  { name: 'rt', relativeTimeTest: { columnName: 'shipped_at', relativeColumnName: 'ordered_at' } },
  { name: 'br', businessRuleTest: { sqlExpression: 'qty < 0' } },
  { name: 'mi', minValueTest: { columnName: 'qty', minValue: { expression: '-1' } } },
  { name: 'ma', maxValueTest: { columnName: 'qty', maxValue: { expression: '10' } } },
  { name: 'rel', relationshipsTest: { references: [{ entity: { platformPath: { path: 'wh-prod::mart::dim_products' } }, columns: [{ source: 'product_id', reference: 'id' }] }] } },
  { name: 'bq', businessQueryTest: { sqlQuery: 'select 1' } },
];
const ALL_TESTS_WIRE = [
  { name: 'nn', description: 'keys', severity: 2, not_null_test: { column_names: ['id', 'code'] } },
  { name: 'em', empty_test: { column_names: ['x'] } },
  { name: 'av', accepted_values_test: { column_name: 'status', accepted_values: [{ string_literal: 'a' }, { string_literal: 'b' }] } },
  { name: 'rv', rejected_values_test: { column_name: 'status', rejected_values: [{ string_literal: 'z' }] } },
  { name: 'un', unique_test: { column_names: ['id'] } },
  { name: 'fr', freshness_test: { time_partition_column_name: 'loaded_at', time_window_seconds: 7200 } },
  { name: 'mm', min_max_test: { column_name: 'qty', min_value: { expression: '0' }, max_value: { expression: '100.5' } } },
  { name: 'rt', relative_time_test: { column_name: 'shipped_at', relative_column_name: 'ordered_at' } },
  { name: 'br', business_rule_test: { sql_expression: 'qty < 0' } },
  { name: 'mi', min_value_test: { column_name: 'qty', min_value: { expression: '-1' } } },
  { name: 'ma', max_value_test: { column_name: 'qty', max_value: { expression: '10' } } },
  { name: 'rel', relationships_test: { references: [{ entity: { platform_path: { path: 'wh-prod::mart::dim_products' } }, columns: [{ source: 'product_id', reference: 'id' }] }] } },
  { name: 'bq', business_query_test: { sql_query: 'select 1' } },
];

type Case = [reason: string, method: PreviewMethodName, send: (c: PlatformClient) => Promise<unknown>, intended: Record<string, unknown>];

const CASES: Case[] = [
  [
    'monitor query rule: structured query (every part kind, nested query, identifiers incl. a nested monitor identifier), per-metric sensitivities, delay model, source, configId',
    'GetDeployOverview',
    (c) =>
      c.deploymentRules.deployOverview({
        id: MID,
        title: 'Mart',
        queryConfig: {
          query: martQuery,
          resolverQl: 'in_folder("folder-wh-prod::mart")',
          severity: 'SEVERITY_ERROR',
          sensitivity: 'SENSITIVITY_BALANCED',
          metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'],
          keepDeletedMonitors: true,
          metricOptions: [{ sensitivity: 'SENSITIVITY_RELAXED', metricId: 'METRIC_ID_DELAY' }],
          delayModel: 'DELAY_MODEL_WEEKLY_PATTERN',
        },
        source: 'SOURCE_API',
        configId: 'ns',
      } as never),
    {
      deployment_rule: {
        id: MID,
        title: 'Mart',
        query_config: {
          query: martQueryWire,
          severity: 2,
          sensitivity: 2,
          metric_ids: [1, 2],
          keep_deleted_monitors: true,
          metric_options: [{ sensitivity: 3, metric_id: 2 }],
          resolver_ql: 'in_folder("folder-wh-prod::mart")',
          delay_model: 2,
        },
        source: 1,
        config_id: 'ns',
      },
    },
  ],
  [
    'monitor static rule',
    'GetDeployOverview',
    (c) =>
      c.deploymentRules.deployOverview({
        id: MID,
        title: 'Orders',
        staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_PRECISE', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_VOLUME_CHANGE_DELAY'] },
        source: 'SOURCE_API',
        configId: 'ns',
      } as never),
    { deployment_rule: { id: MID, title: 'Orders', static_config: { path: 'wh-prod::mart::fct_orders', severity: 2, sensitivity: 1, metric_ids: [1, 3] }, source: 1, config_id: 'ns' } },
  ],
  [
    'monitor product rule: empty-message strategy markers travel as present, empty messages; false keep flag is left out (proto3 default)',
    'GetDeployOverview',
    (c) =>
      c.deploymentRules.deployOverview({
        id: MID,
        title: 'Inventory',
        productConfig: {
          productId: 'dp-1',
          severity: 'SEVERITY_WARNING',
          sensitivity: 'SENSITIVITY_BALANCED',
          metricIds: ['METRIC_ID_ROW_COUNT'],
          upstream: { sources: {} },
          self: { selection: { query: { parts: [{ withNameSearch: { searchQuery: 'stock' } }] } } },
          keepDeletedMonitors: false,
        },
        source: 'SOURCE_API',
        configId: 'ns',
      } as never),
    {
      deployment_rule: {
        id: MID,
        title: 'Inventory',
        product_config: { product_id: 'dp-1', severity: 1, sensitivity: 2, metric_ids: [1], upstream: { sources: {} }, self: { selection: { query: { parts: [{ with_name_search: { search_query: 'stock' } }] } } } },
        source: 1,
        config_id: 'ns',
      },
    },
  ],
  [
    'monitor exclusive query rule',
    'GetDeployOverview',
    (c) => c.deploymentRules.deployOverview({ id: MID, title: 'No scratch', exclusiveQueryConfig: { resolverQl: 'with_name("scratch")' }, source: 'SOURCE_API', configId: 'ns' } as never),
    { deployment_rule: { id: MID, title: 'No scratch', exclusive_query_config: { resolver_ql: 'with_name("scratch")' }, source: 1, config_id: 'ns' } },
  ],
  [
    'monitor exclusive static rule made in the app: SOURCE_APP is 0, the proto3 default, so it is not on the wire',
    'GetDeployOverview',
    (c) => c.deploymentRules.deployOverview({ id: MID, title: 'No dates', exclusiveStaticConfig: { path: 'wh-prod::mart::dim_dates' }, source: 'SOURCE_APP', configId: 'ns' } as never),
    { deployment_rule: { id: MID, title: 'No dates', exclusive_static_config: { path: 'wh-prod::mart::dim_dates' }, config_id: 'ns' } },
  ],
  ['monitor delete overview: the id alone', 'GetDeployDeleteOverview', (c) => c.deploymentRules.deleteOverview(MID), { id: MID }],
  [
    'SQL-test query rule: every test kind as the platform message of its kind, schedule, severity, flags',
    'GetSqlTestDeployOverview',
    (c) =>
      c.sqlTestRules.overview({
        id: SID,
        title: 'Dims',
        queryConfig: { resolverQl: 'with_name("dim_")', tests: ALL_TESTS, recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7', timezone: 'Europe/Berlin', severity: 'SEVERITY_WARNING', saveFailures: true, keepRemovedTests: true },
        source: 'SOURCE_API',
        configId: 'ns',
      } as never),
    {
      deployment_rule: {
        id: SID,
        title: 'Dims',
        query_config: { resolver_ql: 'with_name("dim_")', tests: ALL_TESTS_WIRE, recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7', timezone: 'Europe/Berlin', severity: 1, save_failures: true, keep_removed_tests: true },
        source: 1,
        config_id: 'ns',
      },
    },
  ],
  [
    'SQL-test static rule with a structured-query-free path',
    'GetSqlTestDeployOverview',
    (c) =>
      c.sqlTestRules.overview({
        id: SID,
        title: 'Orders',
        staticConfig: { path: 'wh-prod::mart::fct_orders', tests: [{ name: 'id unique', uniqueTest: { columnNames: ['order_id'] } }], recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=HOURLY', severity: 'SEVERITY_ERROR' },
        source: 'SOURCE_API',
        configId: 'ns',
      } as never),
    { deployment_rule: { id: SID, title: 'Orders', static_config: { path: 'wh-prod::mart::fct_orders', tests: [{ name: 'id unique', unique_test: { column_names: ['order_id'] } }], recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=HOURLY', severity: 2 }, source: 1, config_id: 'ns' } },
  ],
  [
    'SQL-test exclusive query rule',
    'GetSqlTestDeployOverview',
    (c) => c.sqlTestRules.overview({ id: SID, title: 'Skip staging', exclusiveQueryConfig: { query: { parts: [{ inFolder: { path: ['folder-wh-prod::staging'] } }] } }, source: 'SOURCE_API', configId: 'ns' } as never),
    { deployment_rule: { id: SID, title: 'Skip staging', exclusive_query_config: { query: { parts: [{ in_folder: { path: ['folder-wh-prod::staging'] } }] } }, source: 1, config_id: 'ns' } },
  ],
  ['SQL-test delete overview: the id alone', 'GetSqlTestDeployDeleteOverview', (c) => c.sqlTestRules.deleteOverview(SID), { id: SID }],
];

describe('each request the client builds, decoded independently, equals the intended message', () => {
  test.each(CASES)('%s', async (_reason, method, send, intended) => {
    const c = client();
    try {
      await send(c);
      expect(captured).toHaveLength(1);
      expect(captured[0].path).toBe(`/${PREFIX}.${PREVIEW_METHODS[method].service}/${method}`);
      expect(decodeWith(facts, REQUEST_TYPE(method), captured[0].bytes)).toEqual(intended);
      // the REST client's token, as `Bearer <token>` metadata
      expect(captured[0].authorization).toBe(`Bearer ${await c.http.tokens.getToken()}`);
    } finally {
      await c.close();
    }
  });
});

test('repeated enums go packed (proto3 default): one length-delimited field, not one field per value', async () => {
  const c = client();
  try {
    await CASES[0][2](c);
    const rule = readFields(captured[0].bytes).find((f) => f.number === 1)!.value as Uint8Array;
    const config = readFields(rule).find((f) => f.number === 3)!.value as Uint8Array;
    const metricIds = readFields(config).filter((f) => f.number === 4);
    expect(metricIds).toHaveLength(1);
    expect(metricIds[0].wireType).toBe(2);
  } finally {
    await c.close();
  }
});

test('a rule field with no counterpart on the wire is refused before sending (named), never dropped', async () => {
  // dqform's freshness `timePartition` has no place in FreshnessTest: the one mapping refuses it
  // (validate names it first, schemas/platform/sql-tests.ts), so nothing reaches either transport
  const rule = { id: SID, title: 't', queryConfig: { resolverQl: 'with_name("x")', tests: [{ name: 'f', freshness: { column: 'a', timePartition: 'p', maxDelaySeconds: 5 } }], recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', severity: 'SEVERITY_ERROR' } };
  expect(() => sqlTestRuleToWire(rule)).toThrow(/queryConfig\.tests\[0\]\.freshness\.timePartition: has no counterpart/);
  expect(captured).toHaveLength(0);
});

describe('the independent reader itself', () => {
  test('packed and unpacked repeated varints decode alike; a negative int32 is 10 bytes of two\'s complement', () => {
    const packed = message([{ n: 4, packed: [1, 2, 3] }]);
    const unpacked = message([{ n: 4, varint: 1 }, { n: 4, varint: 2 }, { n: 4, varint: 3 }]);
    const t = 'platform.monitors.automated_monitors.v1.QueryConfig';
    expect(decodeWith(facts, t, packed)).toEqual({ metric_ids: [1, 2, 3] });
    expect(decodeWith(facts, t, unpacked)).toEqual({ metric_ids: [1, 2, 3] });
    expect(decodeWith(facts, 'platform.queries.v1.WithType.Type', message([{ n: 2, varint: -5 }]))).toEqual({ custom: -5 });
  });

  test('an unknown field number shows up (so an extra field fails the comparison)', () => {
    expect(decodeWith(facts, 'platform.monitors.automated_monitors.v1.MetricOption', message([{ n: 1, varint: 2 }, { n: 9, varint: 1 }]))).toEqual({ sensitivity: 2, '#9': '1' });
  });
});

// ---------------------------------------------------------------------------------------------
// Responses: tolerant reads

const settings = (fields: WireField[]): WireField[] => fields;
const MONITOR_OVERVIEW: WireField[] = [
  { n: 1, str: 'wh::a' },
  { n: 1, str: 'wh::b' },
  { n: 2, str: 'wh::gone' },
  { n: 3, str: 'wh::a' },
  {
    n: 4,
    msg: [
      { n: 1, str: 'wh::c' },
      // severity 7 and metric 42 do not exist (yet); metric ids unpacked; an unknown field 99
      { n: 2, msg: settings([{ n: 1, varint: 7 }, { n: 2, varint: 2 }, { n: 3, varint: 1 }, { n: 3, varint: 42 }, { n: 4, msg: [{ n: 1, varint: 3 }, { n: 2, varint: 2 }] }, { n: 99, varint: 5 }]) },
      { n: 3, msg: settings([{ n: 1, varint: 2 }, { n: 3, packed: [1, 2] }]) },
    ],
  },
  { n: 8, msg: [{ n: 1, str: 'wh::custom' }, { n: 4, str: 'updated_at' }] },
  { n: 9, msg: [{ n: 1, str: 'wh::v' }, { n: 2, str: 'a view' }] },
  // fields this version does not know, of every wire type
  { n: 50, str: 'future' },
  { n: 51, fixed64: 1n },
  { n: 52, fixed32: 1 },
  { n: 53, varint: 9 },
];

test('a monitor overview with unknown fields (every wire type), unknown enum numbers and unpacked repeated enums reads; numbers stay numbers', async () => {
  answers.set('GetDeployOverview', message([{ n: 1, msg: MONITOR_OVERVIEW }, { n: 2, str: 'a response field from the future' }]));
  const c = client();
  try {
    const ov = await c.deploymentRules.deployOverview({ id: MID, title: 'x', exclusiveStaticConfig: { path: 'p' } } as never);
    expect(ov.monitorsToCreateFor).toEqual(['wh::a', 'wh::b']);
    expect(ov.monitorsToDeleteFor).toEqual(['wh::gone']);
    expect(ov.activeMonitorsFor).toEqual(['wh::a']);
    expect(ov.skippedAssets).toEqual([{ assetPath: 'wh::v', reason: 'a view' }]);
    expect(ov.monitorSettingsChanges).toEqual([
      {
        monitoredAssetPath: 'wh::c',
        originalSettings: { severity: 7, sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 42], metricOptions: [{ sensitivity: 'SENSITIVITY_RELAXED', metricId: 'METRIC_ID_DELAY' }] },
        // read through the REST read path (readClean): an empty optional list reads as absent
        newSettings: { severity: 'SEVERITY_ERROR', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] },
      },
    ]);
    // issue 22: field 8 (custom monitor settings changes) is read, not dropped; unset settings read as empty
    expect(ov.customMonitorSettingsChanges).toEqual([{ monitoredAssetPath: 'wh::custom', originalSettings: { metricIds: [] }, newSettings: { metricIds: [] }, resolvedFreshnessField: 'updated_at' }]);
    // and the plan can say what it means
    const e = overviewEffects('deploy-overview', ov);
    expect(e.settingsChanges).toEqual([
      { assetPath: 'wh::c', from: 'unknown(7)/BALANCED/ROW_COUNT,unknown(42) (DELAY: RELAXED)', to: 'ERROR/-/ROW_COUNT,DELAY' },
      { assetPath: 'wh::custom', from: '-/-/-', to: '-/-/-', custom: true, freshnessField: 'updated_at' },
    ]);
  } finally {
    await c.close();
  }
});

test('a SQL-test overview with unknown fields reads', async () => {
  const change = (table: string, name: string, extra: WireField[] = []): WireField[] => [{ n: 1, str: table }, { n: 3, str: name }, ...extra];
  answers.set(
    'GetSqlTestDeployOverview',
    message([
      {
        n: 1,
        msg: [
          { n: 1, msg: change('wh::a', 'id unique', [{ n: 77, str: 'x' }]) },
          { n: 3, msg: change('wh::b', 'old', [{ n: 2, str: 'rule:wh::b:old' }]) },
          { n: 5, msg: [{ n: 1, str: 'wh::v' }, { n: 2, str: 'not a table' }] },
          { n: 40, varint: 1 },
        ],
      },
    ]),
  );
  const c = client();
  try {
    const ov = await c.sqlTestRules.overview({ id: SID, title: 'x', exclusiveStaticConfig: { path: 'p' } } as never);
    expect(ov.testsToCreate).toEqual([{ tablePath: 'wh::a', testName: 'id unique' }]);
    expect(ov.testsToDelete).toEqual([{ tablePath: 'wh::b', sqlTestPath: 'rule:wh::b:old', testName: 'old' }]);
    expect(ov.skippedTables).toEqual([{ tablePath: 'wh::v', reason: 'not a table' }]);
  } finally {
    await c.close();
  }
});

test('an empty response (overview unset) reads as an empty overview; bytes that are no message are a ResponseShapeError, not retried', async () => {
  const c = client();
  try {
    const ov = await c.deploymentRules.deleteOverview(MID);
    expect(ov.monitorsToCreateFor).toEqual([]);
    answers.set('GetDeployDeleteOverview', Buffer.from([0x0a, 0x05, 0x01]));
    captured.length = 0;
    await expect(c.deploymentRules.deleteOverview(MID)).rejects.toBeInstanceOf(ResponseShapeError);
    expect(captured).toHaveLength(1);
  } finally {
    await c.close();
  }
});
