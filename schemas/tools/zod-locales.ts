/**
 * zod's classic entry (`import { z } from 'zod'`) loads every one of its locales (64 modules,
 * about 25 ms of a CLI start: issue 15) only to expose them as `z.locales` and
 * `z.core.locales`. dqform uses zod's default English messages, which zod loads by their own
 * path (`locales/en`), never through that index.
 *
 * {@link deferZodLocales}, called before zod is first loaded, puts a stand-in for zod's locale
 * index in node's module cache: the real index is loaded the first time any member of it is
 * read (`z.locales.fr`, a `for ... in`, `Object.keys`), and every read is answered by it, so
 * nothing a caller can observe changes except when the 64 modules load. Called by the CLI
 * (src/cli/main.ts, as a command loads) and the package entry (src/index.ts); a process where zod is loaded already,
 * or where the index cannot be found, is left as it is.
 */
import Module from 'node:module';

interface CjsModuleApi {
  _cache: Record<string, NodeModule | undefined>;
  new (id: string, parent?: NodeModule): NodeModule;
}

let tried = false;

/**
 * Installs the stand-in (see the module's doc). Answers whether it did: false when zod's locale
 * index is loaded already, this was called before, or the index cannot be resolved.
 */
export function deferZodLocales(): boolean {
  if (tried) return false;
  tried = true;
  const cjs = Module as unknown as CjsModuleApi;
  const cache = cjs._cache;
  if (!cache || typeof Module.createRequire !== 'function') return false;
  const req = Module.createRequire(__filename);
  let file: string;
  try {
    file = req.resolve('zod/v4/locales');
  } catch {
    return false;
  }
  if (cache[file]) return false;
  let real: Record<PropertyKey, unknown> | undefined;
  const load = (): Record<PropertyKey, unknown> => {
    if (!real) {
      if (cache[file] === stub) delete cache[file];
      real = req(file) as Record<PropertyKey, unknown>;
    }
    return real;
  };
  // `__esModule` is answered without loading: zod's `__importStar` returns such a module as is
  // (instead of copying its members, which would load it at once)
  const exports = new Proxy({} as Record<PropertyKey, unknown>, {
    get: (_t, k) => (k === '__esModule' ? true : load()[k]),
    has: (_t, k) => k === '__esModule' || k in load(),
    ownKeys: () => Reflect.ownKeys(load()),
    getOwnPropertyDescriptor: (_t, k) => {
      const d = Object.getOwnPropertyDescriptor(load(), k);
      return d && { ...d, configurable: true };
    },
    set: (_t, k, v) => Reflect.set(load(), k, v),
    defineProperty: (_t, k, d) => Reflect.defineProperty(load(), k, d),
    deleteProperty: (_t, k) => Reflect.deleteProperty(load(), k),
  });
  const stub = new cjs(file, module);
  stub.filename = file;
  stub.exports = exports;
  stub.loaded = true;
  cache[file] = stub;
  return true;
}
