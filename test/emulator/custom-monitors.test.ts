/**
 * Issue 22 (part B), "dropped information": deploy overviews carry `customMonitorSettingsChanges`
 * (grpc-facts 3.2 field 8, wire-facts 4); the client used to drop them, so a plan never showed
 * changes to custom monitors' settings. The emulator now produces them where it places custom
 * monitors (a choice: a monitor on an asset annotated `freshness_field=<column>` is a custom
 * freshness monitor), the client reads them over REST and gRPC, and the plan keeps and renders
 * them. Runs in both encodings (test/config/jest.gateway.config.js).
 *
 * @gateway
 */
import { buildCatalog, createCatalog } from '../../src/emulator/catalog';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { PlatformClient } from '../../src/client';
import { overviewEffects } from '../../src/kinds/monitor-deployment-rule/handler';
import type { DeploymentOverview } from '../../schemas/platform/deployment-rules';

const uid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const MART = 'in_folder("folder-wh-prod::mart")';
const settings = { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] } as const;
const rule = (extra: Record<string, unknown> = {}) => ({ id: uid(1), title: 'mart', source: 'SOURCE_API', configId: 'shop', queryConfig: { resolverQl: MART, ...settings, ...extra } });

let emu: RunningEmulator;
let custom: string; // the mart table annotated freshness_field=updated_at
let clients: PlatformClient[] = [];

beforeAll(async () => {
  const demo = buildCatalog('demo');
  const target = demo.entities.find((e) => e.folder.join('::') === 'folder-wh-prod::mart' && e.type.endsWith('_TABLE'))!;
  custom = target.path;
  const entities = demo.entities.map((e) => (e === target ? { ...e, annotations: [...e.annotations, { name: 'freshness_field', value: 'updated_at' }] } : e));
  emu = await startEmulator({ port: 0, seed: 'demo', buildCatalog: () => createCatalog({ entities, edges: [...demo.edges] }) });
});
afterAll(async () => {
  await emu.close();
});
afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  clients = [];
});

const client = (previewTransport: 'rest' | 'grpc') => {
  const c = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint, previewTransport }, retry: { scale: 0.001 } });
  clients.push(c);
  return c;
};

describe.each(['rest', 'grpc'] as const)('deploy overview over %s', (transport) => {
  test('a settings change of a rule lists the custom monitor under customMonitorSettingsChanges with its freshness field; the plan keeps it (rendering: test/golden/plan/overviews)', async () => {
    const c = client(transport);
    await c.deploymentRules.deploy(rule() as never);
    try {
      const ov: DeploymentOverview = await c.deploymentRules.deployOverview(rule({ severity: 'SEVERITY_WARNING' }) as never);
      expect(ov.customMonitorSettingsChanges).toEqual([
        {
          monitoredAssetPath: custom,
          originalSettings: expect.objectContaining({ severity: 'SEVERITY_ERROR', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] }),
          newSettings: expect.objectContaining({ severity: 'SEVERITY_WARNING', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] }),
          resolvedFreshnessField: 'updated_at',
        },
      ]);
      expect(ov.monitorSettingsChanges.length).toBeGreaterThan(0);
      expect(ov.monitorSettingsChanges.map((m) => m.monitoredAssetPath)).not.toContain(custom);

      const effects = overviewEffects('deploy-overview', ov);
      expect(effects.settingsChanges.filter((s) => s.custom)).toEqual([{ assetPath: custom, from: 'ERROR/BALANCED/ROW_COUNT,DELAY', to: 'WARNING/BALANCED/ROW_COUNT,DELAY', custom: true, freshnessField: 'updated_at' }]);
    } finally {
      await c.deploymentRules.delete(uid(1));
    }
  });

  test('the custom monitor is created, kept active and deleted under the custom keys', async () => {
    const c = client(transport);
    const created = await c.deploymentRules.deployOverview(rule() as never);
    expect(created.customMonitorsToCreateFor).toEqual([custom]);
    expect(created.monitorsToCreateFor).not.toContain(custom);
    await c.deploymentRules.deploy(rule() as never);
    try {
      const same = await c.deploymentRules.deployOverview(rule() as never);
      expect(same.activeCustomMonitorsFor).toEqual([custom]);
      expect(same.customMonitorSettingsChanges).toEqual([]);
      const deleted = await c.deploymentRules.deleteOverview(uid(1));
      expect(deleted.customMonitorsToDeleteFor).toEqual([custom]);
    } finally {
      await c.deploymentRules.delete(uid(1));
    }
  });
});
