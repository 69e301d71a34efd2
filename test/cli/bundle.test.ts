/**
 * The CLI's bundle (tools/bundle.ts, issue 27): built twice, the same bytes, with no path of this
 * checkout in it; installed as the package lays it out (bin/, dist/bundle, dist/src/cli/v8-start.js,
 * schemas/proto), bin/dqform.js runs it; `--version` and `help` load the core only, never the
 * rest, the gRPC stack, zod's locales or node's child_process; and its output is the sources' output, byte for byte, on
 * a set of commands (text, JSON stream, a plan whose rule previews go over gRPC, errors): with the
 * V8 flag and the code cache (a first run writing the cache, a second reading it) and without
 * either (DQFORM_NO_V8_FLAGS=1, DQFORM_NO_V8_CACHE=1).
 *
 * @gateway-exempt compares the bundle's output with the sources' against one emulator; the encoding is not what it checks
 */
import { spawn } from 'node:child_process';
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type * as Protobuf from 'protobufjs';
import { DESCRIPTOR_FILE, loadProtobufjs, protoDir, READ_OPTIONS } from '../../schemas/platform/grpc';
import { startEmulator } from '../../src/emulator';
import { bundleCli, GRPC_FILE, REST_FILE } from '../../tools/bundle';
import { baseEnv, dqform, ROOT, type Run } from './helpers';

jest.setTimeout(300_000);

let tmp: string;
let pkg: string;
let emu: Awaited<ReturnType<typeof startEmulator>>;
const YAML = path.join(ROOT, 'examples', 'yaml', 'dqform.yaml');

/** An installed-like package in `pkg`: the bundle built into it, bin, v8-start, package.json, node_modules and the .proto files. */
async function install(into: string): Promise<void> {
  fs.mkdirSync(path.join(into, 'bin'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'bin', 'dqform.js'), path.join(into, 'bin', 'dqform.js'));
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(into, 'package.json'));
  fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(into, 'node_modules'), 'dir');
  fs.mkdirSync(path.join(into, 'schemas'));
  fs.symlinkSync(path.join(ROOT, 'schemas', 'proto'), path.join(into, 'schemas', 'proto'), 'dir');
  await esbuild.build({ entryPoints: [path.join(ROOT, 'src', 'cli', 'v8-start.ts')], outfile: path.join(into, 'dist', 'src', 'cli', 'v8-start.js'), platform: 'node', format: 'cjs', target: 'node20', logLevel: 'error' });
  await bundleCli(ROOT, path.join(into, 'dist', 'bundle'));
}

/** Runs the installed bin with `args` (and a preload reporting what was loaded, on fd 3, when `preload`). */
function bundled(args: readonly string[], env: Record<string, string | undefined>, preload?: string): Promise<Run & { loaded?: string[] }> {
  return new Promise((resolve, reject) => {
    const argv = [...(preload ? ['-r', preload] : []), path.join(pkg, 'bin', 'dqform.js'), ...args];
    const child = spawn(process.execPath, argv, { cwd: ROOT, env: baseEnv(env), stdio: ['ignore', 'pipe', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let fd3 = '';
    child.stdout!.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    (child.stdio[3] as NodeJS.ReadableStream).setEncoding('utf8').on('data', (d: string) => (fd3 += d));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, out, err, ...(preload ? { loaded: JSON.parse(fd3) as string[] } : {}) }));
  });
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-bundle-'));
  pkg = path.join(tmp, 'pkg');
  await install(pkg);
  emu = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(async () => {
  await emu?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

it('the same sources give the same bytes, and no path of this checkout is in them', async () => {
  const again = path.join(tmp, 'again');
  await bundleCli(ROOT, again);
  for (const f of ['dqform.js', REST_FILE, GRPC_FILE]) {
    const a = fs.readFileSync(path.join(pkg, 'dist', 'bundle', f));
    expect({ f, same: a.equals(fs.readFileSync(path.join(again, f))) }).toEqual({ f, same: true });
    expect(a.toString('utf8')).not.toContain(ROOT);
    expect(a.toString('utf8')).not.toContain(fs.realpathSync(path.join(ROOT, 'node_modules')));
  }
});

it('--version and help run the core only: not the rest, zod, undici, the gRPC stack or child_process', async () => {
  const preload = path.join(tmp, 'preload.js');
  // the require cache, and node's child_process (commander loads it at once, for executable subcommands dqform has none of)
  fs.writeFileSync(preload, "process.on('exit', () => require('fs').writeSync(3, JSON.stringify([...Object.keys(require.cache), ...process.moduleLoadList.filter((m) => /child_process/.test(m))])));\n");
  const env = { DQFORM_CACHE_DIR: path.join(tmp, 'cache-lazy') };
  for (const args of [['--version'], ['help']]) {
    const r = await bundled(args, env, preload);
    expect({ args, code: r.code, err: r.err }).toEqual({ args, code: 0, err: '' });
    const files = r.loaded!.map((k) => path.relative(pkg, k));
    expect(files).toContain(path.join('dist', 'bundle', 'dqform.js'));
    expect(files.filter((k) => k.includes(REST_FILE) || k.includes(GRPC_FILE) || /node_modules|child_process/.test(k))).toEqual([]);
  }
  const v = await bundled(['validate', '--file', YAML], env, preload);
  expect(v.code).toBe(0);
  const loaded = v.loaded!.map((k) => path.relative(pkg, k));
  expect(loaded).toContain(path.join('dist', 'bundle', REST_FILE));
  expect(loaded).not.toContain(path.join('dist', 'bundle', GRPC_FILE));
  // zod is in the bundle; what node_modules gives is zod's locale stand-in at most, never the gRPC stack
  expect(loaded.filter((k) => /node_modules/.test(k) && !/node_modules[\\/]zod[\\/]v4[\\/]locales[\\/]index\.cjs$/.test(k))).toEqual([]);
});

it('a plan whose previews go over gRPC takes grpc-js and protobufjs from the bundle, none of their modules from node_modules', async () => {
  const preload = path.join(tmp, 'preload-grpc.js');
  fs.writeFileSync(preload, "process.on('exit', () => require('fs').writeSync(3, JSON.stringify(Object.keys(require.cache))));\n");
  const api = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', DQFORM_CACHE_DIR: path.join(tmp, 'cache-grpc') };
  const r = await bundled(['plan', '--no-color', '--file', YAML], api, preload);
  expect(r.out).toMatch(/The platform also creates \d+ monitor\(s\)/);
  const loaded = r.loaded!.map((k) => path.relative(pkg, k));
  expect(loaded).toContain(path.join('dist', 'bundle', GRPC_FILE));
  expect(loaded.filter((k) => /node_modules[\\/](@grpc|protobufjs|@protobufjs)[\\/]/.test(k))).toEqual([]);
});

it('the gRPC file\'s protobufjs has no `long`: 64-bit integers encode to the same bytes and read as the same numbers as with it', () => {
  const light = (require(path.join(pkg, 'dist', 'bundle', GRPC_FILE)) as { protobufLight: () => typeof Protobuf }).protobufLight();
  const withLong = loadProtobufjs('light');
  expect(light.util.Long).toBeNull();
  expect(withLong.util.Long).toBeTruthy();
  const { nested } = JSON.parse(fs.readFileSync(path.join(protoDir(), DESCRIPTOR_FILE), 'utf8')) as { nested: Protobuf.INamespace['nested'] };
  const [a, b] = [light, withLong].map((pb) => pb.Root.fromJSON({ nested }));
  const big = [0, 1, -1, 300, 2 ** 31, -(2 ** 31) - 1, 2 ** 40 + 7, Number.MAX_SAFE_INTEGER, -Number.MAX_SAFE_INTEGER];
  const cases: [string, Record<string, unknown>[]][] = [
    ['platform.datachecks.sqltests.v1.FreshnessTest', big.map((n) => ({ timeWindowSeconds: n }))],
    ['buf.validate.FieldPathElement', big.map((n) => ({ fieldName: 'f', intKey: n, index: Math.abs(n), uintKey: Math.abs(n) }))],
    ['google.protobuf.Duration', big.map((n) => ({ seconds: n, nanos: 5 }))],
  ];
  for (const [name, values] of cases) {
    const [ta, tb] = [a.lookupType(name), b.lookupType(name)];
    for (const v of values) {
      const bytes = Buffer.from(ta.encode(ta.fromObject(v)).finish());
      expect({ name, v, bytes: bytes.toString('hex') }).toEqual({ name, v, bytes: Buffer.from(tb.encode(tb.fromObject(v)).finish()).toString('hex') });
      expect(ta.toObject(ta.decode(bytes), READ_OPTIONS)).toEqual(tb.toObject(tb.decode(bytes), READ_OPTIONS));
      expect(ta.toObject(ta.decode(bytes), READ_OPTIONS)).toMatchObject(v);
    }
  }
});

it('prints what the sources print, byte for byte, with and without the V8 flag and code cache', async () => {
  const api = { DQ_BASE_URL: emu.url, DQ_GRPC_ENDPOINT: emu.grpcEndpoint, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const commands: string[][] = [
    ['--version'],
    ['help'],
    ['plan', '--bogus'],
    ['validate', '--file', YAML],
    ['validate', '--json', '--file', YAML],
    ['validate', '--file', path.join(tmp, 'missing.yaml')],
    ['plan', '--no-color', '--file', YAML],
    ['plan', '--json', '--file', YAML],
  ];
  const cache = path.join(tmp, 'cache');
  const variants: [string, Record<string, string | undefined>][] = [
    ['flags and cache, first run', { DQFORM_CACHE_DIR: cache }],
    ['flags and cache, cache read', { DQFORM_CACHE_DIR: cache }],
    ['neither', { DQFORM_CACHE_DIR: cache, DQFORM_NO_V8_FLAGS: '1', DQFORM_NO_V8_CACHE: '1' }],
  ];
  for (const args of commands) {
    const want = await dqform(args, { env: api, timeoutMs: 120_000 });
    expect(want.signal).toBeNull();
    for (const [variant, env] of variants) {
      const got = await bundled(args, { ...api, ...env });
      expect({ args, variant, code: got.code, out: got.out, err: got.err }).toEqual({ args, variant, code: want.code, out: want.out, err: want.err });
    }
  }
  // the plan asked the emulator's gRPC port (the .proto files were found from the bundle)
  const plan = await bundled(['plan', '--no-color', '--file', YAML], api);
  expect(plan.out).toMatch(/The platform also creates \d+ monitor\(s\)/);
  // Node 22.1+ keeps its own compile cache (module.enableCompileCache: one folder per Node build); Node 20 our three files
  // (grpc-js's bundle too: the plans above asked for gRPC previews)
  const nodeCache = typeof (require('node:module') as { enableCompileCache?: unknown }).enableCompileCache === 'function';
  expect(fs.readdirSync(path.join(cache, 'v8')).sort()).toEqual(
    nodeCache ? [expect.stringMatching(new RegExp(`^${process.version.replace(/\./g, '\\.')}-`))] : [expect.stringMatching(/^dqform-[0-9a-f]{8}\.bin$/), expect.stringMatching(/^dqform-grpc-[0-9a-f]{8}\.bin$/), expect.stringMatching(/^dqform-rest-[0-9a-f]{8}\.bin$/)],
  );
});
