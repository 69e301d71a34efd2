/**
 * schemas/ in three folders (issue 24): `platform/` (the platform's contract: wire and gRPC
 * schemas, the envelopes' helpers), `model/` (dqform's own model: manifest, kinds' desired and
 * YAML shapes, plan, plan file, plan JSON, JSON stream) and `tools/` (ResolverQL, zod-walk,
 * did-you-mean, canonical JSON, the JSON-schema generator, the error base...). Beside them only
 * `dqform.schema.json` (editors' `$schema` path) and `proto/`. The platform's contract depends on
 * nothing of dqform's: no platform file imports model/ or src/ (not even a type), nor loads them
 * through another module; model/ imports nothing from src/.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const SCHEMAS = path.join(ROOT, 'schemas');
const TOP = ['dqform.schema.json', 'model', 'platform', 'proto', 'tools'];

interface Import {
  spec: string;
  /** Erased at compile time (`import type`, `export type`): loads nothing. */
  typeOnly: boolean;
}

/** The module specifiers `text` imports, re-exports, requires or loads dynamically. */
export function importsOf(text: string): Import[] {
  const out: Import[] = [];
  for (const m of text.matchAll(/^\s*(import|export)\s+(type\s+)?[^'";]*?\bfrom\s+['"]([^'"]+)['"]/gm)) out.push({ spec: m[3], typeOnly: m[2] !== undefined });
  for (const m of text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm)) out.push({ spec: m[1], typeOnly: false });
  for (const m of text.matchAll(/\b(?:require|import)\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push({ spec: m[1], typeOnly: false });
  return out;
}

/** The repository-relative `.ts` file a relative specifier of `from` names (undefined: a package). */
function resolveSpec(from: string, spec: string, exists: (rel: string) => boolean): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of [base, `${base}.ts`, `${base}/index.ts`]) if (c.endsWith('.ts') && exists(c)) return c;
  return base;
}

/** Whether `rel` (repository-relative) lies in `dir`. */
const inDir = (rel: string, dir: string): boolean => rel === dir || rel.startsWith(`${dir}/`);

/**
 * What breaks the layout, one line each: entries at the top of schemas/ other than {@link TOP};
 * imports (even type-only) from schemas/platform into schemas/model or src/, or from
 * schemas/model into src/; and any model/ or src/ module a platform file loads at run time
 * through other modules (`file -> module -> ... -> model file`).
 */
export function layoutProblems(top: readonly string[], files: ReadonlyMap<string, string>): string[] {
  const problems = top.filter((e) => !TOP.includes(e)).map((e) => `schemas/${e}: only ${TOP.join(', ')} belong at the top of schemas/; put it in platform/, model/ or tools/`);
  const exists = (rel: string): boolean => files.has(rel);
  const edges = new Map<string, Array<{ to: string; typeOnly: boolean }>>();
  for (const [file, text] of files) {
    edges.set(
      file,
      importsOf(text).flatMap((i) => {
        const to = resolveSpec(file, i.spec, exists);
        return to === undefined ? [] : [{ to, typeOnly: i.typeOnly }];
      }),
    );
  }
  const forbidden = (from: string): string[] => (inDir(from, 'schemas/platform') ? ['schemas/model', 'src'] : inDir(from, 'schemas/model') ? ['src'] : []);
  for (const [file, out] of edges) {
    for (const e of out) {
      const bad = forbidden(file).find((d) => inDir(e.to, d));
      if (bad) problems.push(`${file} imports ${e.to}: ${inDir(file, 'schemas/platform') ? 'the platform\'s contract depends on nothing of dqform\'s' : 'dqform\'s model depends on no product code'} (${bad}/)`);
    }
  }
  // what a platform file loads at run time, through any chain of modules
  for (const start of [...files.keys()].filter((f) => inDir(f, 'schemas/platform')).sort()) {
    const seen = new Map<string, string[]>([[start, [start]]]);
    const queue = [start];
    while (queue.length > 0) {
      const cur = queue.shift() as string;
      for (const e of edges.get(cur) ?? []) {
        if (e.typeOnly || seen.has(e.to)) continue;
        const chain = [...(seen.get(cur) as string[]), e.to];
        seen.set(e.to, chain);
        if (chain.length > 2 && (inDir(e.to, 'schemas/model') || inDir(e.to, 'src'))) problems.push(`${start} loads ${e.to} at run time: ${chain.join(' -> ')}`);
        else queue.push(e.to);
      }
    }
  }
  return problems;
}

/** Every `.ts` file of schemas/ and src/, repository-relative, with its text. */
function repoFiles(): Map<string, string> {
  const out = new Map<string, string>();
  for (const dir of ['schemas', 'src']) {
    for (const f of fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]) {
      const rel = path.posix.join(dir, f.split(path.sep).join('/'));
      if (rel.endsWith('.ts')) out.set(rel, fs.readFileSync(path.join(ROOT, rel), 'utf8'));
    }
  }
  return out;
}

describe('schemas/ layout', () => {
  it('holds platform/, model/, tools/, dqform.schema.json and proto/ only; platform/ depends on nothing of dqform\'s, model/ on nothing of src/', () => {
    expect(layoutProblems(fs.readdirSync(SCHEMAS).sort(), repoFiles())).toEqual([]);
  });

  it('each folder holds modules', () => {
    for (const d of ['platform', 'model', 'tools']) expect(fs.readdirSync(path.join(SCHEMAS, d)).filter((f) => f.endsWith('.ts')).length).toBeGreaterThan(0);
  });

  it('names a file added at the top of schemas/', () => {
    expect(layoutProblems([...TOP, 'report-boards.ts'], new Map())).toEqual(['schemas/report-boards.ts: only dqform.schema.json, model, platform, proto, tools belong at the top of schemas/; put it in platform/, model/ or tools/']);
  });

  it('names a platform file importing the model or src/, even for a type', () => {
    const files = new Map([
      ['schemas/platform/a.ts', "import type { Plan } from '../model/plan';\nimport { x } from '../../src/engine/x';\n"],
      ['schemas/model/plan.ts', 'export const Plan = 1;\n'],
      ['src/engine/x.ts', 'export const x = 1;\n'],
    ]);
    expect(layoutProblems(TOP, files)).toEqual([
      "schemas/platform/a.ts imports schemas/model/plan.ts: the platform's contract depends on nothing of dqform's (schemas/model/)",
      "schemas/platform/a.ts imports src/engine/x.ts: the platform's contract depends on nothing of dqform's (src/)",
    ]);
  });

  it('names a model file importing src/, and a platform file loading the model through a tool', () => {
    const files = new Map([
      ['schemas/model/m.ts', "export { y } from '../../src/cli/y';\n"],
      ['src/cli/y.ts', 'export const y = 1;\n'],
      ['schemas/platform/b.ts', "import { t } from '../tools/t';\n"],
      ['schemas/tools/t.ts', "import type { P } from '../model/p';\nexport const t = require('../model/m');\n"],
      ['schemas/model/p.ts', 'export type P = 1;\n'],
    ]);
    expect(layoutProblems(TOP, files)).toEqual([
      "schemas/model/m.ts imports src/cli/y.ts: dqform's model depends on no product code (src/)",
      'schemas/platform/b.ts loads schemas/model/m.ts at run time: schemas/platform/b.ts -> schemas/tools/t.ts -> schemas/model/m.ts',
    ]);
  });
});
