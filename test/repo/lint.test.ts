/**
 * The linter runs in `npm test`, and the code silences it only line by line, naming the rule and
 * saying why (`// eslint-disable-next-line rule -- reason`): no file-wide or rule-less disables.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const DIRS = ['src', 'schemas', 'constructs', 'bin', 'test', 'bench', 'examples'];
const SKIP = new Set(['node_modules', 'generated', 'cdktf.out', 'golden']);

function sources(dir: string): string[] {
  const out: string[] = [];
  const full = path.join(ROOT, dir);
  if (!fs.existsSync(full)) return out;
  for (const e of fs.readdirSync(full, { withFileTypes: true })) {
    if (SKIP.has(e.name)) continue;
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...sources(rel));
    else if (/\.(?:[cm]?[jt]s)$/.test(e.name)) out.push(rel);
  }
  return out;
}

/** The disable comments of a source that are not `eslint-disable(-next)-line <rules> -- <reason>`. */
export function badDisables(source: string): string[] {
  const bad: string[] = [];
  for (const m of source.matchAll(/(?:\/\/|\/\*)\s*eslint-(disable|enable)\S*[^\n]*/g)) {
    const text = m[0].replace(/\s*\*\/\s*$/, '');
    const ok = /^(?:\/\/|\/\*)\s*eslint-disable-(?:next-)?line\s+[@\w/-]+(?:\s*,\s*[@\w/-]+)*\s+--\s+\S/.test(text);
    if (!ok) bad.push(text.trim());
  }
  return bad;
}

describe('the linter', () => {
  it('runs in npm test, over the whole repository', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.lint).toMatch(/^eslint (?:-c|--config) \S+ \.$/);
    expect(pkg.scripts.test).toMatch(/(?:^|&& )npm run lint &&/);
  });

  it('tells a line-level, rule-named, explained disable from a blanket one', () => {
    expect(badDisables('// eslint-disable-next-line no-console -- the test prints its figure\nx();')).toEqual([]);
    expect(badDisables('x(); // eslint-disable-line @typescript-eslint/no-explicit-any, no-undef -- a JS global')).toEqual([]);
    expect(badDisables('/* eslint-disable @typescript-eslint/no-require-imports */')).toEqual(['/* eslint-disable @typescript-eslint/no-require-imports']);
    expect(badDisables('/* eslint-disable */')).toHaveLength(1);
    expect(badDisables('// eslint-disable-next-line no-console')).toHaveLength(1);
    expect(badDisables('// eslint-disable-next-line -- no rule named')).toHaveLength(1);
  });

  it('is silenced nowhere by a blanket, rule-less or unexplained disable', () => {
    const files = DIRS.flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    const found: string[] = [];
    for (const f of files) {
      if (f === path.join('test', 'repo', 'lint.test.ts')) continue; // its own examples above
      for (const d of badDisables(fs.readFileSync(path.join(ROOT, f), 'utf8'))) found.push(`${f}: ${d}`);
    }
    expect(found).toEqual([]);
  });
});
