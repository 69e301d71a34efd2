/**
 * The one writer of golden files (test/engine/golden.test.ts, test/constructs/golden.test.ts).
 * `UPDATE_GOLDEN=1` rewrites the file. A missing file is written on a developer's machine (a new
 * case: review it and commit it), but fails when `CI` is set: there a written file would be thrown
 * away and the test would pass without comparing anything.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export type GoldenEnv = { UPDATE_GOLDEN?: string; CI?: string };

/** What to do with `file` before comparing: 'write' (then compare), 'compare', or an error message. */
export function goldenAction(file: string, env: GoldenEnv, exists = fs.existsSync(file)): 'write' | 'compare' | { error: string } {
  if (env.UPDATE_GOLDEN === '1') return 'write';
  if (exists) return 'compare';
  const ci = env.CI !== undefined && env.CI !== '' && env.CI !== '0' && env.CI.toLowerCase() !== 'false';
  if (!ci) return 'write';
  const rel = path.relative(path.join(__dirname, '..', '..'), file);
  return { error: `golden file ${rel} is missing: run UPDATE_GOLDEN=1 npx jest <this test file> locally, review the new file and commit it` };
}

/** Compares `actual` with the golden `file` (see goldenAction); throws when the file is missing in CI. */
export function expectGolden(file: string, actual: string, env: GoldenEnv = process.env): void {
  const action = goldenAction(file, env);
  if (typeof action === 'object') throw new Error(action.error);
  if (action === 'write') fs.writeFileSync(file, actual);
  expect(actual).toBe(fs.readFileSync(file, 'utf8'));
}
