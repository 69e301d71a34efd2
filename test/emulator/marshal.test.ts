/**
 * The emulator answers the way the real gateway can (wire-facts, decisions): `--marshal
 * emit-unpopulated` emits every unset field (zeros, "", [], {} for maps, null for unset messages;
 * an unset oneof member is not emitted, as protojson does) and `--enums numbers` answers enums
 * as numbers. Each case states why the encoding matters to a client.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { startEmulator, parseEmulatorArgs, wireModeOf, type RunningEmulator } from '../../src/emulator';
import { call, tokenFor } from './core-helpers';

const ID = '0d000000-0000-4000-8000-000000000001';
const RULE = '0d000000-0000-4000-8000-000000000002';
const alert = {
  name: 'Orders',
  fqn: 'ns.orders',
  configId: 'ns',
  issueLifecycle: { trigger: { resolverQl: 'with_name("orders")' }, targets: [{ slack: { channel: '#o' } }], settings: { severities: [2] } },
};
const rule = { id: RULE, title: 'r', configId: 'ns', staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 2, sensitivity: 2, metricIds: [1] } };

async function seeded(opts: { marshal: 'omit' | 'emit-unpopulated'; enums: 'names' | 'numbers' }): Promise<{ emu: RunningEmulator; get: (method: string, path: string, body?: unknown) => Promise<any> }> {
  const emu = await startEmulator({ port: 0, seed: 'demo', ...opts });
  const token = await tokenFor(emu.url, 'demo-admin');
  const get = async (method: string, path: string, body?: unknown) => {
    const r = await call(emu.url, method, path, { token, body });
    expect(r.status).toBe(200);
    return r.body;
  };
  await get('POST', '/api/alerts/v2', alert);
  await get('POST', '/api/domains/v2', { id: ID, name: 'd' });
  await get('POST', '/api/monitors/automated/v1/deployment-rules/deployed', { deploymentRule: rule });
  return { emu, get };
}

describe('--marshal emit-unpopulated --enums numbers', () => {
  let s: Awaited<ReturnType<typeof seeded>>;
  beforeAll(async () => {
    s = await seeded({ marshal: 'emit-unpopulated', enums: 'numbers' });
  });
  afterAll(() => s.emu.close());

  test('an alert: unset messages are null, zero scalars emitted, enums numbers, the unset kinds (a oneof) absent', async () => {
    const ids = (await s.get('POST', '/api/alerts/v2/list', {})).alertsIds as string[];
    const got = (await s.get('POST', '/api/alerts/v2/get', { identifiers: ids.map((id) => ({ id })) })).alerts;
    const a = Object.values(got).find((x: any) => x.fqn === 'ns.orders') as any;
    expect(a.template).toBeNull(); // an unset message
    expect(a.isDisabled).toBe(false);
    expect(a.source).toBe(1); // SOURCE_API as its number
    expect(a.issueLifecycle.owner).toBeNull();
    expect(a.issueLifecycle.settings.severities).toEqual([2]);
    expect(a.issueLifecycle.settings.notifyUpstream).toBe(false);
    expect(a.issueLifecycle.settings.ongoing).toBeNull();
    expect('schemaChange' in a).toBe(false); // oneof members are not emitted when unset
    // the UI-made seed alert has no configId: emitted as ""
    const ui = Object.values(got).find((x: any) => x.fqn === 'ui.orders-freshness') as any;
    expect(ui.configId).toBe('');
    expect(ui.source).toBe(0);
  });

  test('a domain: "" for unset strings, null for an unset definition, a number for source', async () => {
    const d = (await s.get('POST', '/api/domains/v2/batch-get', { ids: [ID] })).domains[ID];
    expect(d).toMatchObject({ description: '', parentId: '', deletedAt: '', definition: null, source: 0 });
  });

  test('a rule from the list: enums as numbers, unset config messages absent (oneof), zeros emitted', async () => {
    const list = await s.get('GET', '/api/monitors/automated/v1/deployment-rules');
    const r = list.deploymentRules.find((x: any) => x.id === RULE);
    expect(r.staticConfig).toMatchObject({ severity: 2, sensitivity: 2, metricIds: [1], metricOptions: [], delayModel: 0 });
    expect('queryConfig' in r).toBe(false);
    expect(list.pageInfo).toMatchObject({ lastId: '', totalCount: 0 });
  });

  test('error bodies (google.rpc.Status) are not re-encoded', async () => {
    const r = await call(s.emu.url, 'POST', '/api/domains/v2', { token: await tokenFor(s.emu.url, 'demo-admin'), body: { domain: {} } });
    expect(r.status).toBe(400);
    expect(r.body.code).toBe(3);
  });
});

describe('--marshal emit-unpopulated --enums names', () => {
  test('an unset enum reads as its zero name', async () => {
    const s = await seeded({ marshal: 'emit-unpopulated', enums: 'names' });
    try {
      const r = (await s.get('GET', '/api/monitors/automated/v1/deployment-rules')).deploymentRules.find((x: any) => x.id === RULE);
      expect(r.staticConfig.delayModel).toBe('DELAY_MODEL_UNSPECIFIED');
      expect(r.staticConfig.severity).toBe('SEVERITY_ERROR');
    } finally {
      await s.emu.close();
    }
  });
});

describe('--marshal omit --enums numbers', () => {
  test('numbers, and unset fields absent', async () => {
    const s = await seeded({ marshal: 'omit', enums: 'numbers' });
    try {
      const d = (await s.get('POST', '/api/domains/v2/batch-get', { ids: [ID] })).domains[ID];
      expect(d.definition).toBeUndefined();
      expect(d.description).toBeUndefined();
      expect(d.source).toBe(0);
    } finally {
      await s.emu.close();
    }
  });
});

describe('configuration', () => {
  test('every platform route declares its response shape, so the modes cover every answer', async () => {
    const emu = await startEmulator({ port: 0, seed: 'empty' });
    try {
      const missing = emu.app
        .routeInfo()
        .filter((r) => r.pattern.startsWith('/api/') && !r.options.response)
        .map((r) => `${r.method} ${r.pattern}`);
      // GET lineage answers integer enums by itself (spec 4.2)
      expect(missing).toEqual(['GET /api/lineage/v1']);
    } finally {
      await emu.close();
    }
  });

  test.each([
    { reason: 'defaults', opts: {}, env: {}, want: { marshal: 'omit', enums: 'names' } },
    { reason: 'environment defaults', opts: {}, env: { DQ_EMULATOR_MARSHAL: 'emit-unpopulated', DQ_EMULATOR_ENUMS: 'numbers' }, want: { marshal: 'emit-unpopulated', enums: 'numbers' } },
    { reason: 'options win over the environment', opts: { marshal: 'omit' as const }, env: { DQ_EMULATOR_MARSHAL: 'emit-unpopulated' }, want: { marshal: 'omit', enums: 'names' } },
  ])('wire mode: $reason', ({ opts, env, want }) => {
    expect(wireModeOf(opts, env)).toEqual(want);
  });

  test('a bad mode is refused, in the environment and on the command line', () => {
    expect(() => wireModeOf({}, { DQ_EMULATOR_ENUMS: 'roman' })).toThrow(/names or numbers/);
    expect(parseEmulatorArgs(['--marshal', 'emit-unpopulated', '--enums=numbers'])).toMatchObject({ marshal: 'emit-unpopulated', enums: 'numbers' });
    expect(() => parseEmulatorArgs(['--marshal', 'everything'])).toThrow(/omit or emit-unpopulated/);
    expect(() => parseEmulatorArgs(['--enums', 'roman'])).toThrow(/names or numbers/);
  });
});
