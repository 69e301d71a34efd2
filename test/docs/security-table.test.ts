/**
 * The Security table (docs/security.md): every row names the tests that hold its promise, and they exist;
 * the limits it promises are the limits the code enforces.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { RESOLVERQL_MAX_DEPTH } from '../../schemas/tools/resolverql';
import { MAX_YAML_BYTES } from '../../src/engine/yaml';
import { MARKDOWN_LIMIT } from '../../src/cli/render';

const ROOT = path.resolve(__dirname, '..', '..');
const SECURITY = fs.readFileSync(path.join(ROOT, 'docs', 'security.md'), 'utf8');

/** The rows of the promises table of docs/security.md (its first table, before any "## "): [promise, [test files]]. */
function securityRows(): Array<{ promise: string; tests: string[] }> {
  const section = SECURITY.split(/^## /m)[0];
  if (!/^\| Promise \| Held by \|$/m.test(section)) throw new Error('docs/security.md has no "| Promise | Held by |" table before its first "## "');
  return section
    .split('\n')
    .filter((l) => l.startsWith('| ') && !/^\| Promise \|/.test(l) && !/^\|-/.test(l))
    .map((l) => {
      const cells = l.split(/ \| /);
      const held = cells[cells.length - 1];
      return { promise: cells.slice(0, -1).join(' | ').replace(/^\| /, ''), tests: [...held.matchAll(/`(test\/[^`]+\.test\.ts)`/g)].map((m) => m[1]) };
    });
}

it('every promise names at least one test file, and each exists', () => {
  const rows = securityRows();
  expect(rows.length).toBeGreaterThan(10);
  expect(rows.filter((r) => r.tests.length === 0).map((r) => r.promise)).toEqual([]);
  const missing = rows.flatMap((r) => r.tests.filter((t) => !fs.existsSync(path.join(ROOT, t))));
  expect(missing).toEqual([]);
});

/** The row whose promise matches `promise`, exactly one. */
function row(promise: RegExp) {
  const found = securityRows().filter((r) => promise.test(r.promise));
  expect(found.map((r) => r.promise)).toHaveLength(1);
  return found[0];
}

it('inert output (markdown, terminal, server text) is promised and held by its tests', () => {
  const r = row(/^Output is inert/);
  expect(r.promise).toMatch(/markdown/);
  expect(r.promise).toMatch(/terminal/);
  expect(r.promise).toMatch(/server text/);
  expect(r.tests).toEqual(expect.arrayContaining(['test/cli/inert.test.ts', 'test/import/inert-source.test.ts']));
});

it(`ResolverQL nesting is promised at most ${RESOLVERQL_MAX_DEPTH} deep, the code's limit`, () => {
  const r = row(/^ResolverQL nests/);
  expect(r.promise).toContain(`at most ${RESOLVERQL_MAX_DEPTH} deep`);
  expect(r.tests).toEqual(expect.arrayContaining(['test/emulator/resolverql.test.ts', 'test/emulator/queries.test.ts']));
});

it('the YAML front end is promised linear, and files over the code\'s limit refused', () => {
  const r = row(/^The YAML front end/);
  expect(r.promise).toMatch(/linear/);
  expect(r.promise).toContain(`over ${MAX_YAML_BYTES / 1024 / 1024} MiB`);
  expect(r.tests).toEqual(['test/yaml/linear.test.ts']);
});

it('the markdown plan is promised within the code\'s MARKDOWN_LIMIT, unmanaged lists included', () => {
  const r = row(/^The markdown plan/);
  expect(r.promise).toContain(`within ${MARKDOWN_LIMIT.toLocaleString('en-US')} characters`);
  expect(r.promise).toMatch(/unmanaged lists included/);
  expect(r.tests).toEqual(['test/cli/markdown-size.test.ts']);
});
