/**
 * `npx tsx bench/previews.ts [--n 400] [--concurrency 8]`: what gRPC previews cost, against an
 * in-process emulator on loopback (demo seed). Prints figures; asserts nothing.
 *
 * - cold: loading grpc-js and the .proto subset in this fresh process (what the first gRPC
 *   preview of a plan pays, measured before the emulator loads them for its own server), then
 *   the first gRPC preview of a client (opens the channel) against a second one;
 * - steady state: N deploy overviews of one rule (every mart table) over REST and over gRPC,
 *   `--concurrency` in flight (the plan's default preview concurrency is 8); the same rule both
 *   ways (no metricOptions, so REST can carry it).
 */
import { protoRegistry } from '../schemas/platform/grpc';
import { PlatformClient } from '../src/client';
import { startEmulator } from '../src/emulator';

const arg = (name: string, dflt: number): number => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : dflt;
};
const N = arg('n', 400);
const CONCURRENCY = arg('concurrency', 8);

const rule = {
  id: '0f8e1a52-6c1d-4b7e-9a3f-5d2c4b6a8e10',
  title: 'Mart',
  queryConfig: { resolverQl: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] },
  source: 'SOURCE_API',
  configId: 'bench',
};

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const v = await fn();
  return [performance.now() - t, v];
}

async function many(c: PlatformClient): Promise<number> {
  let next = 0;
  const [ms] = await timed(() =>
    Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < N) {
          next++;
          await c.deploymentRules.deployOverview(rule as never);
        }
      }),
    ),
  );
  return ms;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  require('@grpc/grpc-js');
  const grpcJsMs = performance.now() - t0;
  const protoMs = protoRegistry().loadMs;
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  const mk = (previewTransport: 'rest' | 'grpc') => PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { grpc: { endpoint: emu.grpcEndpoint, previewTransport } });
  try {
    const rest = mk('rest');
    const grpc = mk('grpc');
    await rest.iam.get();
    await grpc.iam.get();
    const [restFirst, ov] = await timed(() => rest.deploymentRules.deployOverview(rule as never));
    const [grpcFirst] = await timed(() => grpc.deploymentRules.deployOverview(rule as never));
    const [grpcSecond] = await timed(() => grpc.deploymentRules.deployOverview(rule as never));
    const restMs = await many(rest);
    const grpcMs = await many(grpc);
    const line = (k: string, v: string) => process.stdout.write(`${k.padEnd(58)} ${v}\n`);
    line('overview size', `${ov.monitorsToCreateFor.length} monitors to create`);
    line('first REST preview (token cached)', `${restFirst.toFixed(1)} ms`);
    line('cold: require(@grpc/grpc-js)', `${grpcJsMs.toFixed(1)} ms`);
    line('cold: load the .proto subset (protobufjs included)', `${protoMs.toFixed(1)} ms`);
    line('first gRPC preview of a client (opens the channel)', `${grpcFirst.toFixed(1)} ms`);
    line('second gRPC preview', `${grpcSecond.toFixed(1)} ms`);
    line(`${N} previews over REST, ${CONCURRENCY} in flight`, `${restMs.toFixed(0)} ms (${(restMs / N).toFixed(2)} ms each)`);
    line(`${N} previews over gRPC, ${CONCURRENCY} in flight`, `${grpcMs.toFixed(0)} ms (${(grpcMs / N).toFixed(2)} ms each)`);
    await rest.close();
    await grpc.close();
  } finally {
    await emu.close();
  }
}

main().catch((e) => {
  process.stderr.write(`${(e as Error).stack}\n`);
  process.exitCode = 1;
});
