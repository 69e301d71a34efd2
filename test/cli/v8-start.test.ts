/**
 * src/cli/v8-start.ts (issue 27): the interrupt budget is set only on a V8 whose default is known
 * (read from `process.versions.v8`) and not with DQFORM_NO_V8_FLAGS=1; the code cache uses Node's
 * compile cache on 22.1+, vm.Script cachedData on Node 20, and nothing when the cache directory
 * cannot be written. Fake versions and hosts; the real Node 20 path in fresh processes.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cacheRoot, hasCompileCache, interruptBudgetFlag, ownPrivateDir, scriptCodeCache, startV8, type V8Host } from '../../src/cli/v8-start';

const NODE20 = { node: '20.20.2', v8: '11.3.244.8-node.38' };
const NODE22 = { node: '22.12.0', v8: '12.4.254.21-node.21' };

/** A host that records what it was asked to do. */
function fake(over: Partial<V8Host> = {}): V8Host & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    versions: NODE20,
    env: { DQFORM_CACHE_DIR: '/cache' },
    home: () => '/home/u',
    setFlagsFromString: (f) => calls.push(`flags ${f}`),
    enableCompileCache: undefined,
    scriptCache: (files, dir, flags) => (calls.push(`script ${files.join(',')} ${dir} [${flags}]`), true),
    ...over,
  };
}

describe('the interrupt budget', () => {
  it('is four times the known default of V8 11.3 (Node 20)', () => {
    expect(interruptBudgetFlag('11.3.244.8-node.38')).toBe('--interrupt-budget=270336');
    const h = fake();
    expect(startV8([], h)).toEqual({ flags: '--interrupt-budget=270336', codeCache: 'off' });
    expect(h.calls).toEqual(['flags --interrupt-budget=270336']);
  });

  it('is not set on a V8 whose default is not known, or whose version does not parse', () => {
    for (const v8 of ['12.4.254.21-node.21', '13.6.233.10-node.27', '11.30.1.1', '10.2.154.26-node.36', 'eleven', '']) {
      expect({ v8, flag: interruptBudgetFlag(v8) }).toEqual({ v8, flag: undefined });
      const h = fake({ versions: { node: '99.0.0', v8 } });
      expect(startV8([], h)).toEqual({ codeCache: 'off' });
      expect(h.calls).toEqual([]);
    }
  });

  it('is not set with DQFORM_NO_V8_FLAGS=1, and a V8 that refuses it is run with its defaults', () => {
    const off = fake({ env: { DQFORM_NO_V8_FLAGS: '1' } });
    expect(startV8([], off)).toEqual({ codeCache: 'off' });
    expect(off.calls).toEqual([]);
    const refuses = fake({ setFlagsFromString: () => { throw new Error('no such flag'); } });
    expect(startV8([], refuses)).toEqual({ codeCache: 'off' });
  });
});

describe('the code cache', () => {
  it('Node 20: the bundle files through vm.Script cachedData, in the v8/ folder of the cache directory; entries named after the flags', () => {
    const h = fake();
    expect(startV8(['/pkg/a.js', '/pkg/b.js'], h)).toEqual({ flags: '--interrupt-budget=270336', codeCache: 'script', dir: path.join('/cache', 'v8') });
    expect(h.calls).toEqual(['flags --interrupt-budget=270336', `script /pkg/a.js,/pkg/b.js ${path.join('/cache', 'v8')} [--interrupt-budget=270336]`]);
    const noFlags = fake({ env: { DQFORM_CACHE_DIR: '/cache', DQFORM_NO_V8_FLAGS: '1' } });
    startV8(['/pkg/a.js'], noFlags);
    expect(noFlags.calls).toEqual([`script /pkg/a.js ${path.join('/cache', 'v8')} []`]);
  });

  it('Node 22.1+: module.enableCompileCache; FAILED (0) or DISABLED (3) is no cache, ALREADY_ENABLED (2) is; 22.0 uses the Node 20 way', () => {
    const dirs: string[] = [];
    const ok = fake({ versions: NODE22, enableCompileCache: (d) => (dirs.push(d), { status: 1 }) });
    expect(startV8(['/pkg/a.js'], ok)).toEqual({ codeCache: 'node', dir: path.join('/cache', 'v8') });
    expect(dirs).toEqual([path.join('/cache', 'v8')]);
    expect(ok.calls).toEqual([]);
    for (const status of [0, 3]) {
      // FAILED, DISABLED (NODE_DISABLE_COMPILE_CACHE)
      const failed = fake({ versions: NODE22, enableCompileCache: () => ({ status }) });
      expect(startV8(['/pkg/a.js'], failed)).toEqual({ codeCache: 'off' });
    }
    expect(startV8(['/pkg/a.js'], fake({ versions: NODE22, enableCompileCache: () => ({ status: 2 }) })).codeCache).toBe('node');
    expect(hasCompileCache('22.0.0')).toBe(false);
    expect(hasCompileCache('22.1.0')).toBe(true);
    expect(hasCompileCache('24.11.1')).toBe(true);
    expect(hasCompileCache('20.20.2')).toBe(false);
  });

  it('none for the compiled tree or the sources (no files), with DQFORM_NO_V8_CACHE=1, without a home, or when the cache throws', () => {
    const enable = () => {
      throw new Error('not expected');
    };
    expect(startV8([], fake({ versions: NODE22, enableCompileCache: enable })).codeCache).toBe('off');
    expect(startV8(['/pkg/a.js'], fake({ env: { DQFORM_CACHE_DIR: '/cache', DQFORM_NO_V8_CACHE: '1' } })).codeCache).toBe('off');
    expect(startV8(['/pkg/a.js'], fake({ env: {}, home: () => { throw new Error('no home'); } })).codeCache).toBe('off');
    expect(startV8(['/pkg/a.js'], fake({ scriptCache: () => { throw new Error('EACCES'); } })).codeCache).toBe('off');
  });

  it('a directory that cannot be made is no cache (the real Node 20 way), silently', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-v8-')), 'a-file');
    fs.writeFileSync(file, '');
    try {
      expect(() => scriptCodeCache(['/pkg/a.js'], path.join(file, 'v8'))).toThrow();
      expect(startV8(['/pkg/a.js'], fake({ env: { DQFORM_CACHE_DIR: file }, scriptCache: scriptCodeCache }))).toEqual({ flags: '--interrupt-budget=270336', codeCache: 'off' });
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it('the cache directory: DQFORM_CACHE_DIR, else $XDG_CACHE_HOME/dqform (absolute only), else ~/.cache/dqform', () => {
    const home = () => '/home/u';
    expect(cacheRoot({ DQFORM_CACHE_DIR: '/x', XDG_CACHE_HOME: '/xdg' }, home)).toBe(path.resolve('/x'));
    expect(cacheRoot({ XDG_CACHE_HOME: '/xdg' }, home)).toBe(path.join('/xdg', 'dqform'));
    expect(cacheRoot({ XDG_CACHE_HOME: 'relative' }, home)).toBe(path.join('/home/u', '.cache', 'dqform'));
    expect(cacheRoot({}, home)).toBe(path.join('/home/u', '.cache', 'dqform'));
    expect(cacheRoot({}, () => '')).toBeUndefined();
  });
});

describe('vm.Script cachedData (Node 20), in fresh processes', () => {
  const V8_START = path.join(__dirname, '..', '..', 'src', 'cli', 'v8-start.ts');
  /** Requires `mod` through the cache in `dir`; answers its exports' answer and the cache files. */
  function run(mod: string, dir: string): { answer: unknown; loads: unknown } {
    const script = `
const s = require(${JSON.stringify(V8_START)});
s.scriptCodeCache([${JSON.stringify(mod)}], ${JSON.stringify(dir)}, 'f');
const m = require(${JSON.stringify(mod)});
process.stdout.write(JSON.stringify({ answer: m.answer(), loads: s.scriptCacheLoads }));`;
    return JSON.parse(execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 })) as { answer: unknown; loads: unknown };
  }

  it('the first run writes the entry at exit, the next reads it (V8 accepts it) and the module works the same; a changed file gets a new entry', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-v8-'));
    try {
      const mod = path.join(tmp, 'mod.js');
      fs.writeFileSync(mod, "'use strict';\nconst path = require('node:path');\nexports.answer = () => [path.basename(__filename), typeof module.exports.answer, require.resolve('./mod.js') === __filename];\n");
      const dir = path.join(tmp, 'cache', 'v8');
      const first = run(mod, dir);
      expect(first).toEqual({ answer: ['mod.js', 'function', true], loads: [{ file: mod, cached: false, rejected: false }] });
      const entries = fs.readdirSync(dir);
      expect(entries).toEqual([expect.stringMatching(/^mod-[0-9a-f]{8}\.bin$/)]);
      expect(run(mod, dir)).toEqual({ answer: ['mod.js', 'function', true], loads: [{ file: mod, cached: true, rejected: false }] });
      // a new build of the file: a new entry, the old one pruned
      fs.appendFileSync(mod, '// changed\n');
      fs.utimesSync(mod, new Date(Date.now() + 5000), new Date(Date.now() + 5000));
      expect(run(mod, dir).loads).toEqual([{ file: mod, cached: false, rejected: false }]);
      const after = fs.readdirSync(dir);
      expect(after).toHaveLength(1);
      expect(after[0]).not.toBe(entries[0]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  it('a file with UTF-8 text loads as UTF-8 (read as bytes, then decoded)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-v8-'));
    try {
      const mod = path.join(tmp, 'mod.js');
      fs.writeFileSync(mod, "'use strict';\nexports.answer = () => ['Équipe ü 日本 ✓', '\\u00e9'];\n");
      const dir = path.join(tmp, 'cache', 'v8');
      expect(run(mod, dir).answer).toEqual(['Équipe ü 日本 ✓', 'é']);
      expect(run(mod, dir)).toEqual({ answer: ['Équipe ü 日本 ✓', 'é'], loads: [{ file: mod, cached: true, rejected: false }] });
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);

  it('a file named through a symlinked folder (a dist/ link) is cached too: Node loads it by its real path', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-v8-'));
    try {
      fs.mkdirSync(path.join(tmp, 'real'));
      const mod = path.join(tmp, 'real', 'mod.js');
      fs.writeFileSync(mod, "'use strict';\nexports.answer = () => 42;\n");
      fs.symlinkSync(path.join(tmp, 'real'), path.join(tmp, 'link'), 'dir');
      const viaLink = path.join(tmp, 'link', 'mod.js');
      const dir = path.join(tmp, 'cache', 'v8');
      expect(run(viaLink, dir)).toEqual({ answer: 42, loads: [{ file: mod, cached: false, rejected: false }] });
      expect(fs.readdirSync(dir)).toEqual([expect.stringMatching(/^mod-[0-9a-f]{8}\.bin$/)]);
      expect(run(viaLink, dir).loads).toEqual([{ file: mod, cached: true, rejected: false }]);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the code cache lives only in a folder of the user\'s own', () => {
  it('no cache when the folder is not ours (compiled code read from it would run as us)', () => {
    const host = fake({ ownDir: () => false });
    expect(startV8(['/pkg/a.js'], host)).toEqual({ flags: '--interrupt-budget=270336', codeCache: 'off' });
    expect(host.calls.filter((c) => c.startsWith('script'))).toEqual([]);
  });

  it('makes the folder 0700, tightens a group-writable one of ours, refuses a symlink and (as root) a folder of another user', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-v8own-'));
    try {
      const made = path.join(tmp, 'root', 'v8');
      expect(ownPrivateDir(made)).toBe(true);
      expect(fs.statSync(made).mode & 0o777).toBe(0o700);
      fs.chmodSync(made, 0o775);
      expect(ownPrivateDir(made)).toBe(true);
      expect(fs.statSync(made).mode & 0o777).toBe(0o700);
      const linked = path.join(tmp, 'linkroot');
      fs.mkdirSync(linked);
      fs.symlinkSync(made, path.join(linked, 'v8'), 'dir');
      expect(ownPrivateDir(path.join(linked, 'v8'))).toBe(false);
      if (process.getuid?.() === 0) {
        const theirs = path.join(tmp, 'theirs', 'v8');
        fs.mkdirSync(theirs, { recursive: true });
        fs.chownSync(theirs, 65534, 65534);
        expect(ownPrivateDir(theirs)).toBe(false);
        fs.chownSync(theirs, 0, 0);
        fs.chownSync(path.dirname(theirs), 65534, 65534);
        expect(ownPrivateDir(theirs)).toBe(false);
      }
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  });
});
