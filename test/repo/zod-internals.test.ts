/**
 * One module reads zod's private internals (issue 24): schemas/tools/zod-walk.ts. Every other product
 * file (src/, schemas/, constructs/, tools/; generated code aside) walks a schema through its API,
 * so a zod upgrade that moves `_zod.def` is fixed in one place.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const WALKER = 'schemas/tools/zod-walk.ts';
/** What reading zod's internals looks like: `._zod`, `._def`, `.def.type`/`.def.shape`/..., `['_zod']`. */
const INTERNALS = /\._zod|\._def\b|\.def\.|\[\s*['"]_zod['"]\s*\]/;

/** The lines of `text` that read zod internals, as `line: text`. */
export function internalReads(text: string): string[] {
  return text
    .split('\n')
    .map((l, i) => (INTERNALS.test(l) ? `${i + 1}: ${l.trim()}` : undefined))
    .filter((x): x is string => x !== undefined);
}

function productFiles(): string[] {
  const out: string[] = [];
  for (const dir of ['src', 'schemas', 'constructs', 'tools']) {
    for (const f of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      const rel = path.posix.join(dir, f.split(path.sep).join('/'));
      if (!rel.endsWith('.ts') || rel.endsWith('.generated.ts') || rel.startsWith('constructs/generated/')) continue;
      out.push(rel);
    }
  }
  return out.sort();
}

describe('zod internals are read in schemas/tools/zod-walk.ts only', () => {
  it('finds the reads it looks for', () => {
    const text = [
      'const d = (s as unknown as { _zod: { def: Def } })._zod.def;',
      'const old = schema._def.typeName;',
      'if (schema.def.type === "object") return;',
      "const x = s['_zod'];",
      'const def = kindOf(schema); // def.type is fine without a leading dot',
      'const defaults = s.defaults;',
    ].join('\n');
    expect(internalReads(text)).toEqual([
      '1: const d = (s as unknown as { _zod: { def: Def } })._zod.def;',
      '2: const old = schema._def.typeName;',
      '3: if (schema.def.type === "object") return;',
      "4: const x = s['_zod'];",
    ]);
  });

  it('scans the product files, the walker among them', () => {
    const files = productFiles();
    expect(files).toEqual(expect.arrayContaining([WALKER, 'schemas/platform/wire.ts', 'src/engine/unknown-fields.ts', 'constructs/codegen/provider-schema.ts']));
    expect(files.some((f) => f.includes('generated'))).toBe(false);
    // the walker does read the internals: the check above would see them anywhere else
    expect(internalReads(fs.readFileSync(path.join(ROOT, WALKER), 'utf8')).length).toBeGreaterThan(0);
  });

  it('no other file in src/, schemas/, constructs/, tools/ reads them', () => {
    const found: string[] = [];
    for (const f of productFiles()) {
      if (f === WALKER) continue;
      for (const l of internalReads(fs.readFileSync(path.join(ROOT, f), 'utf8'))) found.push(`${f}:${l}`);
    }
    expect(found).toEqual([]);
  });
});
