/**
 * docs/architecture.md says where things are (issue 24: the house in one page), so what it names
 * must be there: every repository path it gives in a code span exists (links are checked by
 * links.test.ts), and every "`name` (`file.ts`)" it writes names something that file holds.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const PAGE = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const TOP = /^(?:src|schemas|test|tools|constructs|bench|bin|docs|examples)\//;

/** The repository paths of `md`'s code spans (placeholders like `<kind>` and globs left out). */
export function pathsOf(md: string): string[] {
  const spans = [...md.matchAll(/`([^`\n]+)`/g)].map((m) => m[1].trim());
  return [...new Set(spans.filter((s) => TOP.test(s) && !/[<>*\s{}]/.test(s)))].sort();
}

/** The "`name` (`file`)" pairs of `md`: a name and the file said to hold it. */
export function placedNames(md: string): { name: string; file: string }[] {
  return [...md.matchAll(/`([A-Za-z_$][\w$]*)(?:\(\))?` \(`([\w/.-]+\.ts)`/g)].map((m) => ({ name: m[1], file: m[2] }));
}

test('the readers find paths and placed names (they can fail)', () => {
  const md = 'see `src/engine/planner.ts` and `src/kinds/<kind>/`, `--out`, `x` (`src/engine/nowhere.ts`), `draftPlan()` (`src/engine/planner.ts`)';
  expect(pathsOf(md)).toEqual(['src/engine/nowhere.ts', 'src/engine/planner.ts']);
  expect(placedNames(md)).toEqual([
    { name: 'x', file: 'src/engine/nowhere.ts' },
    { name: 'draftPlan', file: 'src/engine/planner.ts' },
  ]);
});

test('every path docs/architecture.md names exists', () => {
  const paths = pathsOf(PAGE);
  expect(paths.length).toBeGreaterThan(40);
  expect(paths.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
});

test('every "`name` (`file`)" of docs/architecture.md names something its file holds', () => {
  const pairs = placedNames(PAGE);
  expect(pairs.length).toBeGreaterThan(10);
  const wrong = pairs.filter(({ name, file }) => {
    const abs = path.join(ROOT, file);
    return !fs.existsSync(abs) || !new RegExp(`\\b${name.replace(/\$/g, '\\$')}\\b`).test(fs.readFileSync(abs, 'utf8'));
  });
  expect(wrong).toEqual([]);
});
