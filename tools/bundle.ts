/**
 * The CLI's bundle (issue 27: start-up), written by `npm run build` (and so by `npm pack`'s
 * prepack) next to the compiled tree: CommonJS for Node 20, in two files. bin/dqform.js runs it
 * when it is there (and not older than the sources of a checkout); the compiled tree in dist/src
 * stays the package's library entry (`main`, the constructs).
 *
 * - `dist/bundle/dqform.js` (the core): src/cli/main.ts and what it imports statically, commander
 *   included, and the command modules (`src/cli/commands/`: definitions, their actions' modules
 *   loaded on first use): what `dqform --version`, `help` and a usage error run, a small file.
 * - `dist/bundle/dqform-rest.js`: everything the core loads with `require()` on first use (the
 *   commands, `src/cli/lazy.ts`'s modules, zod), with their dependencies' code. The core asks it
 *   for a module by id (`load(id)`) when the command needs it; the rest asks the core for the
 *   modules the core holds (`__dqformShared(id)`), so that a module runs once in a process
 *   (error classes and module state are shared: `instanceof` holds across the two files).
 *   Inside it, a module reached by `require()` runs when it is first required (esbuild wraps it).
 *
 * - `dist/bundle/dqform-grpc.js`: `@grpc/grpc-js` and its dependencies, which the rest requires
 *   in its place on the first gRPC call (a plan that needs no gRPC preview never loads it), and
 *   protobufjs' light build, which `loadProtobufjs('light')` (schemas/platform/grpc.ts) takes
 *   from it in the bundle (`__DQFORM_GRPC_BUNDLE__`, defined here): one file in the V8 code cache
 *   instead of ~90 modules resolved, read and compiled from node_modules (issue 27). Without the
 *   `long` package ({@link noLong}).
 *
 * Left out, loaded from node_modules on first use as before: protobufjs' full build (the
 * `.proto` parser: `npm run proto` only) and zod's locale index (64 modules, only for `z.locales`: a stand-in loads
 * `zod/v4/locales` when something reads it, as `schemas/tools/zod-locales.ts` does for the compiled
 * tree). The files sit two levels under the package root (`dist/bundle/`), and `protoDir()` (schemas/platform/grpc.ts)
 * looks for `schemas/proto` from there too.
 *
 * Deterministic: ids and paths are relative to the repository and sorted, no source map, no
 * timestamps: the same sources give the same bytes (test/tools/bundle.test.ts).
 */
import * as esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import * as fs from 'node:fs';
import * as path from 'node:path';

/** The core file, relative to the package root (bin/dqform.js requires it). */
export const BUNDLE_PATH = path.join('dist', 'bundle', 'dqform.js');
/** The rest, next to the core. */
export const REST_FILE = 'dqform-rest.js';
/** grpc-js, next to the core. */
export const GRPC_FILE = 'dqform-grpc.js';

/** Loaded from node_modules at run time, not bundled (see the module's doc). */
export const EXTERNAL = ['@grpc/grpc-js', '@grpc/proto-loader', 'protobufjs'];

/** Modules the core requires lazily that stay in it (see {@link corePlugin}). */
const CORE_LAZY = /^src\/cli\/commands\/[^/]+\.ts$/;

const BUILTIN = new Set([...builtinModules, ...builtinModules.map((m) => `node:${m}`)]);
const NS = 'dqform-bundle';
const RESOLVING = Symbol('resolving');

const isExternal = (p: string) => BUILTIN.has(p) || p.startsWith('node:') || EXTERNAL.some((e) => p === e || p.startsWith(`${e}/`));

const common = (root: string): esbuild.BuildOptions => ({
  absWorkingDir: root,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  tsconfig: path.join(root, 'tsconfig.build.json'),
  // node_modules may be a link (a worktree's): paths stay under the root, the same in every checkout
  preserveSymlinks: true,
  external: EXTERNAL,
  sourcemap: false,
  legalComments: 'none',
  minifyWhitespace: true,
  minifySyntax: true,
  logLevel: 'warning',
  // an import the bundle cannot satisfy fails the build instead of running as undefined
  logOverride: { 'import-is-undefined': 'error', 'commonjs-variable-in-esm': 'error' },
  metafile: true,
  // where the bundle's code finds protobufjs' light build (schemas/platform/grpc.ts loadProtobufjs)
  define: { __DQFORM_GRPC_BUNDLE__: JSON.stringify(`./${GRPC_FILE}`) },
});

/** Resolves `args` as esbuild would (answers undefined for what stays external). */
async function resolveAsUsual(build: esbuild.PluginBuild, args: esbuild.OnResolveArgs): Promise<string | undefined> {
  if (isExternal(args.path)) return undefined;
  const r = await build.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: RESOLVING });
  if (r.errors.length) throw new Error(`bundle: cannot resolve ${args.path} from ${args.importer}`);
  return r.external ? undefined : r.path;
}

/** The id of a file: its path relative to the repository, with forward slashes. */
const idOf = (root: string, file: string) => path.relative(root, file).split(path.sep).join('/');

/** A CommonJS module answering `request`'s members, `require()`d on the first read (`__esModule` answered without it). */
function lazyProxy(request: string): string {
  return `let real;
const load = () => (real ??= require(${JSON.stringify(request)}));
module.exports = new Proxy({}, {
  get: (_t, k) => (k === '__esModule' ? true : load()[k]),
  has: (_t, k) => k === '__esModule' || k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_t, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; },
  set: (_t, k, v) => Reflect.set(load(), k, v),
  defineProperty: (_t, k, d) => Reflect.defineProperty(load(), k, d),
  deleteProperty: (_t, k) => Reflect.deleteProperty(load(), k),
});
`;
}

/**
 * The `node:http2` constants undici's HTTP/2 client (dispatcher/client-h2.js) reads when it is
 * loaded. dqform never asks undici for HTTP/2 (no `allowH2`), and loading node's http2 costs 3-5
 * ms of every plan: its stand-in answers these, and any other member from node:http2 itself,
 * loaded then (test/cli/bundle-http2.test.ts checks them against node's).
 */
export const HTTP2_CONSTANTS: Readonly<Record<string, string | number>> = {
  HTTP2_HEADER_AUTHORITY: ':authority',
  HTTP2_HEADER_METHOD: ':method',
  HTTP2_HEADER_PATH: ':path',
  HTTP2_HEADER_SCHEME: ':scheme',
  HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
  HTTP2_HEADER_EXPECT: 'expect',
  HTTP2_HEADER_STATUS: ':status',
  HTTP2_HEADER_PROTOCOL: ':protocol',
  NGHTTP2_REFUSED_STREAM: 7,
  NGHTTP2_CANCEL: 8,
};

/** The stand-in for `node:http2` in undici: {@link HTTP2_CONSTANTS} at once, everything else from node:http2 on first read. */
export function http2StandIn(): string {
  return `let real;
const load = () => (real ??= require('node:http2'));
const given = ${JSON.stringify(HTTP2_CONSTANTS)};
const constants = new Proxy(given, { get: (t, k) => (Object.prototype.hasOwnProperty.call(t, k) ? t[k] : load().constants[k]) });
module.exports = new Proxy({}, {
  get: (_t, k) => (k === 'constants' ? constants : load()[k]),
  has: (_t, k) => k in load(),
  ownKeys: () => Reflect.ownKeys(load()),
  getOwnPropertyDescriptor: (_t, k) => { const d = Object.getOwnPropertyDescriptor(load(), k); return d && { ...d, configurable: true }; },
});
`;
}

/** The core: main.ts and its static imports; each `require()` of ours answers the rest's module. */
function corePlugin(root: string, lazyIds: Set<string>): esbuild.Plugin {
  return {
    name: 'dqform-core',
    setup(build) {
      // commander loads child_process at once, for executable subcommands dqform has none of
      // (5-15 ms of every start): it is loaded if commander ever reads it
      build.onResolve({ filter: /^(node:)?child_process$/ }, (args) =>
        /[\\/]node_modules[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: NS, pluginData: 'proxy' } : undefined,
      );
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.namespace === NS || args.importer === '<stdin>' || path.basename(args.importer) === 'dqform-core-entry.js') return undefined;
        if (args.kind !== 'require-call' || /[\\/]node_modules[\\/]/.test(args.importer)) return undefined;
        const file = await resolveAsUsual(build, args);
        if (!file) return undefined;
        const id = idOf(root, file);
        // the command modules (definitions; each loads its action's modules itself) stay in the
        // core: `help` and a usage error define every command
        if (CORE_LAZY.test(id)) return { path: file };
        lazyIds.add(id);
        return { path: `lazy/${id.replace(/\.[cm]?[jt]s$/, '')}`, namespace: NS, pluginData: id };
      });
      build.onLoad({ filter: /.*/, namespace: NS }, (args) => ({
        loader: 'js',
        contents:
          args.pluginData === 'proxy'
            ? lazyProxy('node:child_process')
            : `module.exports = require(${JSON.stringify(`./${REST_FILE}`)}).load(${JSON.stringify(args.pluginData)});\n`,
      }));
      build.onResolve({ filter: new RegExp(`^\\./${REST_FILE.replace('.', '\\.')}$`) }, () => ({ path: `./${REST_FILE}`, external: true }));
    },
  };
}

/** The rest: the core's lazy modules; what the core holds is asked of it; zod's locales stay out. */
function restPlugin(root: string, coreIds: Set<string>): esbuild.Plugin {
  return {
    name: 'dqform-rest',
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.cjs$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: 'zod-locales', namespace: NS } : undefined,
      );
      build.onResolve({ filter: /^zod\/v4\/locales$/ }, (args) => (args.namespace === NS ? { path: 'zod/v4/locales', external: true } : undefined));
      build.onResolve({ filter: /^\.\/dqform\.js$/ }, (args) => (args.namespace === NS ? { path: './dqform.js', external: true } : undefined));
      build.onResolve({ filter: /^@grpc\/grpc-js$/ }, () => ({ path: 'grpc-js', namespace: NS }));
      build.onResolve({ filter: /^(node:)?http2$/ }, (args) => (/[\\/]node_modules[\\/]undici[\\/]/.test(args.importer) ? { path: 'undici-http2', namespace: NS } : undefined));
      build.onResolve({ filter: new RegExp(`^\\./${GRPC_FILE.replace('.', '\\.')}$`) }, () => ({ path: `./${GRPC_FILE}`, external: true }));
      build.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING || args.namespace === NS) return undefined;
        const file = await resolveAsUsual(build, args);
        if (!file) return undefined;
        const id = idOf(root, file);
        // the virtual module's path has no extension: esbuild would read `.mjs` as ESM
        return coreIds.has(id) ? { path: `shared/${id.replace(/\.[cm]?[jt]s$/, '')}`, namespace: NS, pluginData: id } : { path: file };
      });
      build.onLoad({ filter: /.*/, namespace: NS }, (args) => {
        if (args.path === 'grpc-js') return { loader: 'js', resolveDir: root, contents: `module.exports = require('./${GRPC_FILE}').grpcJs();\n` };
        if (args.path === 'undici-http2') return { loader: 'js', resolveDir: root, contents: http2StandIn() };
        if (args.path === 'zod-locales') {
          return { loader: 'js', resolveDir: root, contents: lazyProxy('zod/v4/locales') };
        }
        return { loader: 'js', resolveDir: root, contents: `module.exports = require('./dqform.js').__dqformShared(${JSON.stringify(args.pluginData)});\n` };
      });
    },
  };
}

/** The entry that maps ids to their modules (thunks: nothing runs before it is asked for). */
function table(root: string, ids: Iterable<string>): string {
  return [...ids]
    .sort()
    .map((id) => `  ${JSON.stringify(id)}: () => require(${JSON.stringify(path.join(root, id))}),`)
    .join('\n');
}

/** Inputs of a build that are files of ours or of node_modules (not the virtual modules). */
const inputsOf = (r: esbuild.BuildResult) => Object.keys(r.metafile!.inputs).filter((k) => !k.includes(':'));

/** Writes the core and the rest of `root`'s CLI into `outDir` (default: dist/bundle under `root`). */
export async function bundleCli(root: string, outDir = path.join(root, path.dirname(BUNDLE_PATH))): Promise<void> {
  const main = path.join(root, 'src', 'cli', 'main.ts');
  // pass 1: which modules the core holds, and which it requires lazily
  const lazyIds = new Set<string>();
  const probe = await esbuild.build({ ...common(root), entryPoints: [main], write: false, outfile: path.join(outDir, 'probe.js'), plugins: [corePlugin(root, lazyIds)] });
  const coreIds = new Set(inputsOf(probe).map((k) => idOf(root, path.resolve(root, k))));
  // pass 2: the core, exporting main's exports and its modules for the rest
  const coreEntry = `const cli = require(${JSON.stringify(main)});
const shared = {
${table(root, coreIds)}
};
module.exports = { ...cli, __dqformShared: (id) => shared[id]() };
`;
  const core = await esbuild.build({
    ...common(root),
    stdin: { contents: coreEntry, resolveDir: root, sourcefile: 'dqform-core-entry.js', loader: 'js' },
    outfile: path.join(outDir, path.basename(BUNDLE_PATH)),
    plugins: [corePlugin(root, new Set())],
  });
  const coreAgain = new Set(inputsOf(core).map((k) => idOf(root, path.resolve(root, k))));
  coreAgain.delete('dqform-core-entry.js');
  if ([...coreAgain].sort().join('\n') !== [...coreIds].sort().join('\n')) throw new Error('bundle: the core holds other modules than its probe');
  const restEntry = `const lazy = {
${table(root, lazyIds)}
};
exports.load = (id) => lazy[id]();
`;
  await esbuild.build({
    ...common(root),
    stdin: { contents: restEntry, resolveDir: root, sourcefile: 'dqform-rest-entry.js', loader: 'js' },
    outfile: path.join(outDir, REST_FILE),
    plugins: [restPlugin(root, coreIds)],
  });
  await esbuild.build({
    ...common(root),
    external: [],
    stdin: {
      contents: "let g, p;\nexports.grpcJs = () => (g ??= require('@grpc/grpc-js'));\nexports.protobufLight = () => (p ??= require('protobufjs/light'));\n",
      resolveDir: root,
      sourcefile: 'dqform-grpc-entry.js',
      loader: 'js',
    },
    outfile: path.join(outDir, GRPC_FILE),
    plugins: [noLong()],
  });
}

/**
 * The gRPC file without the `long` package: protobufjs takes it when it is there (64-bit
 * integers read as Long objects), and its load compiles a WebAssembly module (~2.6 ms of the first
 * gRPC preview). Without it protobufjs keeps 64-bit integers as numbers: the same bytes, and the
 * same numbers where the registry reads them (`longs: Number`); proto-loader (grpc-js' channelz
 * only, off here) exports it as null. The compiled tree and the emulator keep it.
 */
function noLong(): esbuild.Plugin {
  return {
    name: 'dqform-no-long',
    setup(build) {
      build.onResolve({ filter: /^long$/ }, () => ({ path: 'long', namespace: NS }));
      build.onLoad({ filter: /.*/, namespace: NS }, () => ({ loader: 'js', contents: 'module.exports = null;\n' }));
    },
  };
}

/** `tsx tools/bundle.ts [outDir]`: the bundle into `outDir` (default dist/bundle); prints the files' sizes. */
if (require.main === module) {
  const root = path.resolve(__dirname, '..');
  const dir = process.argv[2] ? path.resolve(process.argv[2]) : path.join(root, path.dirname(BUNDLE_PATH));
  bundleCli(root, dir).then(
    () => {
      for (const f of fs.readdirSync(dir).sort()) process.stdout.write(`${path.relative(root, path.join(dir, f))}: ${fs.statSync(path.join(dir, f)).size} bytes\n`);
    },
    (err: unknown) => {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
