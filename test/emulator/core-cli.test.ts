/** `runEmulatorCli` (behind `dqform emulator`): arguments, printed URL and credentials, clean stop. */
import { EventEmitter } from 'node:events';
import { parseEmulatorArgs, runEmulatorCli, type RunningEmulator } from '../../src/emulator';
import { call, tokenFor } from './core-helpers';

test.each([
  ['defaults', [], { port: 8787, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined }],
  ['all flags', ['--port', '0', '--data', 'x.json', '--seed', 'empty', '--seed-size=500'], { port: 0, host: '127.0.0.1', dataFile: 'x.json', seed: 'empty', seedSize: 500 }],
  ['= form', ['--port=9000', '--seed=demo'], { port: 9000, host: '127.0.0.1', dataFile: undefined, seed: 'demo', seedSize: undefined }],
])('parse: %s', (_why, argv, expected) => {
  expect(parseEmulatorArgs(argv)).toEqual(expected);
});

test.each([
  ['unknown flag', ['--nope'], /unknown argument/],
  ['bad seed', ['--seed', 'full'], /demo or empty/],
  ['bad port', ['--port', 'abc'], /integer/],
  ['missing value', ['--data'], /needs a value/],
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
  const token = await tokenFor(emu!.url, 'demo-admin');
  expect((await call(emu!.url, 'GET', '/api/iam/v1', { token })).status).toBe(200);
  signals.emit('SIGTERM');
  for (let i = 0; i < 100 && !out.includes('exit 0'); i++) await new Promise((r) => setTimeout(r, 20));
  expect(out).toContain('exit 0');
  await expect(fetch(`${emu!.url}/api/iam/v1`)).rejects.toThrow();
  expect(signals.listenerCount('SIGINT') + signals.listenerCount('SIGTERM')).toBe(0);
});
