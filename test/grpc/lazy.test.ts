/**
 * Module loading time matters for plan performance: the gRPC stack (grpc-js, proto-loader,
 * protobufjs, the .proto files) loads only when a gRPC preview is asked for. Checked in a fresh
 * node process (jest's module registry would hide what node itself loaded).
 *
 * @gateway
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

const SCRIPT = `
const { startEmulator } = require('./src/emulator');
const { PlatformClient } = require('./src/client');
require('./src/engine/reconcile');
const loaded = () => Object.keys(require.cache).filter((k) => /@grpc[\\\\/]grpc-js|protobufjs|proto-loader/.test(k)).length;
(async () => {
  const out = { imported: loaded() };
  const emu = await startEmulator({ port: 0, seed: 'demo', grpc: false });
  out.emulatorWithoutGrpc = loaded();
  const c = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  const rule = { id: '11111111-1111-4111-8111-111111111111', title: 't', staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } };
  await c.deploymentRules.deployOverview(rule);
  out.afterRestPreview = loaded();
  await c.deploymentRules.deployOverview({ ...rule, staticConfig: undefined, queryConfig: { resolverQl: 'with_name("orders")', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], metricOptions: [{ metricId: 'METRIC_ID_ROW_COUNT', sensitivity: 'SENSITIVITY_RELAXED' }] } }).catch(() => undefined);
  out.afterGrpcPreview = loaded();
  // the subset comes from its JSON descriptor: protobufjs' .proto parser never loads
  out.protoParser = Object.keys(require.cache).filter((k) => /protobufjs[\\\\/]src[\\\\/](parse|tokenize)\\.js$/.test(k)).length;
  await c.close();
  await emu.close();
  process.stdout.write(JSON.stringify(out));
})();
`;

it('a plan that needs no gRPC preview never loads grpc-js, proto-loader or protobufjs; the first gRPC preview does', () => {
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', SCRIPT], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  const r = JSON.parse(out) as Record<string, number>;
  expect(r.imported).toBe(0);
  expect(r.emulatorWithoutGrpc).toBe(0);
  expect(r.afterRestPreview).toBe(0);
  expect(r.afterGrpcPreview).toBeGreaterThan(0); // the fallback tried gRPC (nothing listens: effects unknown)
  expect(r.protoParser).toBe(0);
}, 60_000);

it('loading the proto registry does not load perf_hooks (the global performance loads it on first read: ~2 ms of a changed plan)', () => {
  const script = `require('./schemas/platform/grpc').protoRegistry(); process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => /perf_hooks|internal\\/perf\\/performance$/.test(m))));`;
  const out = execFileSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 });
  expect(JSON.parse(out)).toEqual([]);
}, 60_000);
