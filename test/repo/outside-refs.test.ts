/**
 * No references to files outside the repository (issue 24): no tracked file names a path into
 * the team's workspace (`/work/...`, `../shared/spec/...`, `../shared/tools/...`) or a `spec/`
 * folder the repository does not have. The platform's documents may be cited by name
 * (`wire-facts 4`, `grpc-facts.md`); a copy the repository keeps is named by its own path
 * (`test/grpc/grpc-facts.md`).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');

/** Files that reach outside on purpose, and why. */
const EXCEPTIONS: Record<string, string> = {
  'test/grpc/facts.ts': "compares the repository's copy of grpc-facts.md with the team's, when that one exists (skipped otherwise)",
  'test/repo/outside-refs.test.ts': 'this test: its patterns and examples',
};

const OUTSIDE = /\/work\/[\w.-]|(?:\.\.\/)+shared\/(?:spec|tools)\/|(?<![\w/.-])spec\/[\w-]+\.md/g;

/** The references to outside files in `text`, as `line: match`. */
export function outsideRefs(text: string): string[] {
  return text.split('\n').flatMap((l, i) => [...l.matchAll(OUTSIDE)].map((m) => `${i + 1}: ${m[0]}`));
}

test('the pattern finds workspace paths and spec/ files, not imports of a kinds/shared module or test/grpc/grpc-facts.md', () => {
  const text = [
    '// written from /work/shared/spec/grpc-facts.md',
    'Written from `../shared/spec/wire-facts.md`',
    'node ../../shared/tools/wire-check.mjs',
    ' * (spec/wire-facts.md, section 1)',
    "import { omit } from '../shared/support';",
    'the copy in test/grpc/grpc-facts.md, cited as wire-facts 4',
  ].join('\n');
  expect(outsideRefs(text)).toEqual(['1: /work/s', '2: ../shared/spec/', '3: ../../shared/tools/', '4: spec/wire-facts.md']);
});

test('no tracked file references a file outside the repository', () => {
  const files = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' }).split('\0').filter(Boolean);
  const found: string[] = [];
  for (const f of files) {
    if (EXCEPTIONS[f]) continue;
    const abs = path.join(ROOT, f);
    if (!fs.existsSync(abs) || fs.statSync(abs).size > 2_000_000) continue;
    const text = fs.readFileSync(abs, 'utf8');
    if (text.includes('\0')) continue;
    for (const r of outsideRefs(text)) found.push(`${f}:${r}`);
  }
  expect(found).toEqual([]);
  for (const f of Object.keys(EXCEPTIONS)) expect([f, fs.existsSync(path.join(ROOT, f))]).toEqual([f, true]);
});
