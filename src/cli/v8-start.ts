/**
 * What bin/dqform.js sets up in V8 before it loads the CLI (issue 27: start-up). Nothing here
 * changes what dqform does or prints; each part checks that this Node has what it uses and is
 * skipped silently otherwise.
 *
 * - The interrupt budget (`--interrupt-budget`, four times V8's default): a short-lived CLI
 *   spends less of its time compiling optimised code on V8's background threads, which on a
 *   2-core machine compete with the main thread (issue 27 measured -84 to -116 ms on a plan of
 *   10,000 objects). Set only on a V8 whose default is known (`INTERRUPT_BUDGET_DEFAULTS`, read
 *   from `process.versions.v8`); `DQFORM_NO_V8_FLAGS=1` turns it off.
 * - A code cache of the bundle (`dist/bundle/`, tools/bundle.ts): V8 keeps the compiled code in
 *   the user's cache directory (`$DQFORM_CACHE_DIR`, else `$XDG_CACHE_HOME/dqform`, else
 *   `~/.cache/dqform`; this part uses its `v8/` folder) and the next start reads it instead of
 *   parsing the files again. Node 22.1+: `module.enableCompileCache`; Node 20: each bundle file is
 *   compiled with `vm.Script` and its `cachedData`, written at exit when there was none or V8
 *   refused it. A directory that cannot be written, or `DQFORM_NO_V8_CACHE=1`, means no cache.
 *
 * Only node's built-ins are loaded here (this runs before anything else of dqform).
 */
import * as fs from 'node:fs';
import Module from 'node:module';
import * as os from 'node:os';
import * as path from 'node:path';

/**
 * `--interrupt-budget`'s default per V8 `major.minor`, as `node --v8-options` prints it. Only V8
 * lines whose default was read are here: on any other the flag is not set (a fixed value could
 * lower the budget of a V8 whose default is higher). Node 20 ships V8 11.3.
 */
export const INTERRUPT_BUDGET_DEFAULTS: Readonly<Record<string, number>> = { '11.3': 67_584 };

/** How many times V8's default budget dqform asks for. */
export const INTERRUPT_BUDGET_FACTOR = 4;

/** The flag for this V8 (`process.versions.v8`, e.g. `11.3.244.8-node.38`), or undefined when its default is not known. */
export function interruptBudgetFlag(v8Version: string): string | undefined {
  const m = /^(\d+)\.(\d+)\./.exec(v8Version);
  const base = m ? INTERRUPT_BUDGET_DEFAULTS[`${Number(m[1])}.${Number(m[2])}`] : undefined;
  return base === undefined ? undefined : `--interrupt-budget=${base * INTERRUPT_BUDGET_FACTOR}`;
}

/** The user's cache directory for dqform (shared with other caches: each part uses a folder of it). */
export function cacheRoot(env: NodeJS.ProcessEnv, home: () => string): string | undefined {
  if (env.DQFORM_CACHE_DIR) return path.resolve(env.DQFORM_CACHE_DIR);
  if (env.XDG_CACHE_HOME && path.isAbsolute(env.XDG_CACHE_HOME)) return path.join(env.XDG_CACHE_HOME, 'dqform');
  let h: string;
  try {
    h = home();
  } catch {
    return undefined;
  }
  return h ? path.join(h, '.cache', 'dqform') : undefined;
}

/** Whether `node` (`process.versions.node`) has `module.enableCompileCache` (22.1 and later). */
export function hasCompileCache(node: string): boolean {
  const [major, minor] = node.split('.').map(Number);
  return major > 22 || (major === 22 && minor >= 1);
}

/** What the start-up set, for tests and `DQ_DEBUG`-style reports. */
export interface V8Start {
  /** The V8 flag set, if any. */
  flags?: string;
  /** How the bundle's code is cached: Node's compile cache, vm.Script cachedData, or not at all. */
  codeCache: 'node' | 'script' | 'off';
  /** The cache folder, when there is one. */
  dir?: string;
}

/** What {@link startV8} reads and calls: the real process by default, fakes in tests. */
export interface V8Host {
  versions: { node: string; v8: string };
  env: NodeJS.ProcessEnv;
  home: () => string;
  setFlagsFromString: (flags: string) => void;
  enableCompileCache?: (dir: string) => { status: number } | undefined;
  /** Compiles `files` with a cached-data code cache kept in `dir` (Node 20), its entries named also after `flags`; answers whether it could. */
  scriptCache: (files: readonly string[], dir: string, flags: string) => boolean;
  /** Whether `dir` (made if missing) and its parent are the user's own, written by nobody else ({@link ownPrivateDir}). */
  ownDir?: (dir: string) => boolean;
}

function realHost(): V8Host {
  const m = Module as unknown as { enableCompileCache?: (dir: string) => { status: number }; constants?: { compileCacheStatus?: Record<string, number> } };
  return {
    versions: { node: process.versions.node, v8: process.versions.v8 },
    env: process.env,
    home: os.homedir,
    setFlagsFromString: (f) => (require('node:v8') as typeof import('node:v8')).setFlagsFromString(f),
    enableCompileCache: typeof m.enableCompileCache === 'function' ? (dir) => m.enableCompileCache!(dir) : undefined,
    scriptCache: scriptCodeCache,
    ownDir: ownPrivateDir,
  };
}

/**
 * Makes `dir` (0700) if missing and answers whether it and its parent (the cache root) are real
 * directories of this user that no one else can write: compiled code read from a folder another
 * user controls would run as ours (V8 checks a cache entry's length, not its content's origin).
 * A folder of ours that group or others may write is tightened to 0700.
 */
export function ownPrivateDir(dir: string): boolean {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const uid = process.getuid?.();
    for (const d of [dir, path.dirname(dir)]) {
      const st = fs.lstatSync(d);
      if (!st.isDirectory() || (uid !== undefined && st.uid !== uid)) return false;
      if ((st.mode & 0o022) !== 0) fs.chmodSync(d, 0o700);
    }
    return true;
  } catch {
    return false;
  }
}

/**
 * Sets the V8 flag and, for the bundle `files` (none: the compiled tree or the sources, which
 * get no cache), the code cache. Call before the CLI's code is loaded.
 */
export function startV8(files: readonly string[], host: V8Host = realHost()): V8Start {
  const out: V8Start = { codeCache: 'off' };
  if (host.env.DQFORM_NO_V8_FLAGS !== '1') {
    const flag = interruptBudgetFlag(host.versions.v8);
    if (flag) {
      try {
        host.setFlagsFromString(flag);
        out.flags = flag;
      } catch {
        // not settable on this V8: run with its defaults
      }
    }
  }
  if (files.length === 0 || host.env.DQFORM_NO_V8_CACHE === '1') return out;
  const root = cacheRoot(host.env, host.home);
  if (!root) return out;
  const dir = path.join(root, 'v8');
  if (host.ownDir && !host.ownDir(dir)) return out;
  try {
    if (host.enableCompileCache && hasCompileCache(host.versions.node)) {
      // module.constants.compileCacheStatus: FAILED 0 (e.g. the directory cannot be made),
      // ENABLED 1, ALREADY_ENABLED 2 (NODE_COMPILE_CACHE: the user's own directory), DISABLED 3
      const r = host.enableCompileCache(dir);
      if (r && (r.status === 1 || r.status === 2)) Object.assign(out, { codeCache: 'node', dir });
    } else if (host.scriptCache(files, dir, out.flags ?? '')) Object.assign(out, { codeCache: 'script', dir });
  } catch {
    // no cache: the CLI compiles as usual
  }
  return out;
}

interface CjsModule extends NodeModule {
  paths: string[];
}
interface CjsLoader {
  _extensions: Record<string, (m: NodeModule, filename: string) => void>;
  _resolveFilename: (request: string, parent: NodeModule, isMain: boolean, options?: { paths?: string[] }) => string;
  _cache: Record<string, NodeModule | undefined>;
  wrap: (source: string) => string;
}

/** A short, stable name for a cache entry: FNV-1a of the key, hex. */
function entryName(key: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193) >>> 0;
  return h.toString(16).padStart(8, '0');
}

/** What {@link scriptCodeCache} did, file by file in this process: had an entry, and V8 refused it. */
export const scriptCacheLoads: { file: string; cached: boolean; rejected: boolean }[] = [];

/**
 * Node 20: `require()` of one of `files` compiles it with `vm.Script` and a code cache read from
 * `dir`. An entry is named after the file, its size, its mtime, this Node and V8 and the flags set
 * (V8 itself checks only the source's length, its version and its flags: a run with other flags
 * would otherwise refuse and rewrite the entry each time), and written at exit (to a temporary
 * name, then renamed: a reader never sees half a file) when there was none or V8 refused it.
 */
export function scriptCodeCache(files: readonly string[], dir: string, flags = ''): boolean {
  fs.mkdirSync(dir, { recursive: true });
  fs.accessSync(dir, fs.constants.W_OK);
  const vm = require('node:vm') as typeof import('node:vm');
  const loader = Module as unknown as CjsLoader;
  // Node loads a module by its real path: name the files so too (a package reached through a
  // symlinked folder, e.g. a dist/ link, would otherwise never match and never be cached)
  const real = (f: string) => {
    try {
      return fs.realpathSync(f);
    } catch {
      return f;
    }
  };
  const ours = new Set(files.map(real));
  const plain = loader._extensions['.js'];
  const pending: { file: string; script: import('node:vm').Script }[] = [];
  loader._extensions['.js'] = function (this: unknown, mod: NodeModule, filename: string) {
    if (!ours.has(filename)) return plain.call(this, mod, filename);
    // read as bytes, then decoded: Node 20's fs.readFileSync(f, 'utf8') took 4.4 ms CPU for the
    // bundle's 2.6 MB, Buffer#toString 2.6 ms (the same text)
    const source = fs.readFileSync(filename).toString('utf8');
    const st = fs.statSync(filename);
    // runs with and without the flags keep an entry each (the older builds' entries are pruned by name)
    const file = path.join(dir, `${path.basename(filename, '.js')}${flags ? '' : '-noflags'}-${entryName(`${filename}\0${st.size}\0${st.mtimeMs}\0${process.version}\0${process.versions.v8}\0${flags}`)}.bin`);
    let cachedData: Buffer | undefined;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      cachedData = undefined;
    }
    const script = new vm.Script(loader.wrap(source), { filename, cachedData });
    const rejected = script.cachedDataRejected === true;
    scriptCacheLoads.push({ file: filename, cached: cachedData !== undefined, rejected });
    if (!cachedData || rejected) pending.push({ file, script });
    const m = mod as CjsModule;
    const req = ((id: string) => m.require(id)) as NodeJS.Require;
    req.resolve = ((request: string, options?: { paths?: string[] }) => loader._resolveFilename(request, m, false, options)) as NodeJS.RequireResolve;
    req.main = require.main;
    req.cache = loader._cache as NodeJS.Require['cache'];
    (script.runInThisContext() as (...a: unknown[]) => void).call(m.exports, m.exports, req, m, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    for (const { file, script } of pending) {
      try {
        const tmp = `${file}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, script.createCachedData());
        fs.renameSync(tmp, file);
        // the entries of older builds of this file go
        const name = path.basename(file);
        const base = name.slice(0, -'-00000000.bin'.length);
        for (const f of fs.readdirSync(dir)) if (f !== name && f.length === name.length && f.startsWith(`${base}-`) && /-[0-9a-f]{8}\.bin$/.test(f)) fs.rmSync(path.join(dir, f), { force: true });
      } catch {
        // a cache that cannot be written is no cache
      }
    }
  });
  return true;
}
