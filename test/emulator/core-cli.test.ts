/**
 * `runEmulatorCli` (behind `dqform emulator`): arguments, printed URL and credentials, clean stop.
 *
 * @gateway-exempt asserts the emulator CLI's arguments, printed URL and credentials and clean stop, no response body's encoding
 */
import { EventEmitter } from 'node:events';
import { parseEmulatorArgs, runEmulatorCli, type RunningEmulator } from '../../src/emulator';
import { call, tokenFor } from './core-helpers';

const grpcOn = (grpcPort: number) => ({ grpc: true, grpcPort });
test.each([
  ['defaults (gRPC on the next port)', [], { port: 8787, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined, ...grpcOn(8788) }],
  ['all flags (port 0: gRPC on a free port too)', ['--port', '0', '--data', 'x.json', '--seed', 'empty', '--seed-size=500'], { port: 0, host: '127.0.0.1', dataFile: 'x.json', seed: 'empty', seedSize: 500, ...grpcOn(0) }],
  ['= form', ['--port=9000', '--seed=demo'], { port: 9000, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined, ...grpcOn(9001) }],
  ['--grpc-port', ['--port', '0', '--grpc-port', '9100'], { port: 0, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined, ...grpcOn(9100) }],
  ['--no-grpc', ['--no-grpc'], { port: 8787, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined, grpc: false, grpcPort: undefined }],
])('parse: %s', (_why, argv, expected) => {
  expect(parseEmulatorArgs(argv)).toEqual(expected);
});

test.each([
  ['unknown flag', ['--nope'], /unknown argument/],
  ['bad seed', ['--seed', 'full'], /demo or empty/],
  ['bad port', ['--port', 'abc'], /integer/],
  ['missing value', ['--data'], /needs a value/],
  ['--grpc-port with --no-grpc', ['--grpc-port', '9000', '--no-grpc'], /contradict/],
  ['--no-grpc with a value', ['--no-grpc=1'], /no value/],
  ['gRPC port equal to the REST port', ['--port', '9000', '--grpc-port', '9000'], /must differ/],
  ['bad gRPC port', ['--grpc-port', 'x'], /integer/],
  ['port above 65535', ['--port', '65536'], /^--port must be at most 65535$/],
  ['gRPC port above 65535', ['--grpc-port=70000'], /^--grpc-port must be at most 65535$/],
  ['bad marshal', ['--marshal', 'all'], /^--marshal takes omit or emit-unpopulated, got "all"$/],
  ['bad seed size', ['--seed-size', '-1'], /^--seed-size takes a non-negative integer, got "-1"$/],
  ['an inherited name is no flag', ['--toString'], /^unknown argument "--toString"/],
])('parse error: %s', (_why, argv, message) => {
  expect(() => parseEmulatorArgs(argv)).toThrow(message);
});

test('a bad argument exits 1 with a message on stderr', async () => {
  const err: string[] = [];
  expect(await runEmulatorCli(['--bogus'], { out: () => undefined, err: (l) => err.push(l) })).toBe(1);
  expect(err.join('\n')).toMatch(/unknown argument "--bogus"/);
});

test('prints its URL and the demo credentials, serves, and stops on SIGTERM', async () => {
  const out: string[] = [];
  const signals = new EventEmitter();
  let emu: RunningEmulator | undefined;
  const started = new Promise<void>((resolve) => {
    void runEmulatorCli(['--port', '0', '--seed', 'empty'], {
      out: (l) => out.push(l),
      err: (l) => out.push(`ERR ${l}`),
      signals,
      onStarted: (e) => {
        emu = e;
        resolve();
      },
    }).then((code) => out.push(`exit ${code}`));
  });
  await started;
  const text = out.join('\n');
  expect(text).toContain(`listening on ${emu!.url}`);
  expect(text).toContain('demo-admin');
  expect(text).toContain('demo-reader');
  expect(emu!.grpcEndpoint).toMatch(/^127\.0\.0\.1:\d+$/);
  expect(text).toContain(`DQ_GRPC_ENDPOINT=${emu!.grpcEndpoint}`);
  const token = await tokenFor(emu!.url, 'demo-admin');
  expect((await call(emu!.url, 'GET', '/api/iam/v1', { token })).status).toBe(200);
  signals.emit('SIGTERM');
  for (let i = 0; i < 100 && !out.includes('exit 0'); i++) await new Promise((r) => setTimeout(r, 20));
  expect(out).toContain('exit 0');
  await expect(fetch(`${emu!.url}/api/iam/v1`)).rejects.toThrow();
  expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
});
