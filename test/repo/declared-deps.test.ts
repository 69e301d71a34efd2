/**
 * Every bare import is a declared dependency: what the shipped code (src/, schemas/, constructs/
 * but its codegen, bin/) imports is in `dependencies` (an install of dqform gets it), what the
 * tooling (tests, bench, examples, codegen, configs) imports is in `dependencies` or
 * `devDependencies`. An undeclared import works only while another package happens to bring it.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { builtinModules } from 'node:module';

const ROOT = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  name: string;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};

const SOURCE = /\.(?:[cm]?[jt]s)$/;
const SKIP_DIRS = new Set(['node_modules', 'dist', 'cdktf.out', 'reports', 'coverage', '.dqform', '.stryker-tmp']);

function files(dir: string, skip: (rel: string) => boolean = () => false): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, e.name);
      const rel = path.relative(ROOT, full).split(path.sep).join('/');
      if (SKIP_DIRS.has(e.name) || skip(rel)) continue;
      if (e.isDirectory()) walk(full);
      else if (SOURCE.test(e.name) && !e.name.endsWith('.d.ts')) out.push(full);
    }
  };
  walk(path.join(ROOT, dir));
  return out.sort();
}

/** The package names of the bare specifiers a source file imports, requires or resolves. */
export function bareImports(source: string): string[] {
  const specs = new Set<string>();
  const patterns = [
    /^\s*(?:import|export)\s+(?:type\s+)?[^'"`;]*?\bfrom\s*(['"])([^'"\n]+)\1/gm,
    /^\s*import\s*(['"])([^'"\n]+)\1/gm,
    /\b(?:require|require\.resolve|import)\s*\(\s*(['"])([^'"\n]+)\1\s*[,)]/g,
  ];
  for (const re of patterns) for (const m of source.matchAll(re)) specs.add(m[2]);
  const names = new Set<string>();
  for (const s of specs) {
    if (s.startsWith('.') || s.startsWith('/') || s.startsWith('node:') || s.includes('${')) continue;
    const name = s.startsWith('@') ? s.split('/').slice(0, 2).join('/') : s.split('/')[0];
    if (builtinModules.includes(name)) continue;
    names.add(name);
  }
  return [...names].sort();
}

/** Shipped files that may import a dev dependency, each with its reason. */
const SOURCE_CHECKOUT_ONLY: Record<string, string> = {
  'bin/dqform.js: tsx': 'runs the TypeScript sources in a source checkout only; the installed package runs dist/',
};

function undeclared(paths: string[], declared: Set<string>): string[] {
  const out: string[] = [];
  for (const f of paths) {
    if (f === __filename) continue; // its own examples above
    for (const name of bareImports(fs.readFileSync(f, 'utf8'))) {
      const where = `${path.relative(ROOT, f).split(path.sep).join('/')}: ${name}`;
      if (name !== pkg.name && !declared.has(name) && !(where in SOURCE_CHECKOUT_ONLY && name in pkg.devDependencies)) out.push(where);
    }
  }
  return out;
}

describe('declared dependencies', () => {
  it('finds imports, requires, dynamic imports, type imports and require.resolve, not relative or built-in ones', () => {
    const src = [
      "import * as a from 'alpha';",
      "import type * as P from '@scope/pkg/sub';",
      "export { x } from 'beta/deep/path';",
      "import 'side-effect';",
      "const c = require('gamma');",
      "const d = require.resolve('delta/package.json');",
      "const e = await import('epsilon');",
      "import * as fs from 'node:fs';",
      "import * as net from 'net';",
      "import { y } from './local';",
      "const t = `import { App } from '${mod}'`;",
    ].join('\n');
    expect(bareImports(src)).toEqual(['@scope/pkg', 'alpha', 'beta', 'delta', 'epsilon', 'gamma', 'side-effect']);
  });

  it('the shipped code (src, schemas, constructs but codegen, bin) imports only `dependencies`', () => {
    const shipped = [
      ...files('src'),
      ...files('schemas'),
      ...files('constructs', (rel) => rel === 'constructs/codegen'),
      ...files('bin'),
    ];
    expect(shipped.length).toBeGreaterThan(50);
    expect(undeclared(shipped, new Set(Object.keys(pkg.dependencies)))).toEqual([]);
  });

  it('the tooling (test, bench, examples, codegen) imports only declared packages', () => {
    const tooling = [...files('test'), ...files('bench'), ...files('examples'), ...files('constructs/codegen')];
    expect(tooling.length).toBeGreaterThan(50);
    expect(undeclared(tooling, new Set([...Object.keys(pkg.dependencies), ...Object.keys(pkg.devDependencies)]))).toEqual([]);
  });
});
