/**
 * The second pass of `npm test` (jest.gateway.config.js) must cover every suite that talks to an
 * emulator, so that "every test passes again with --marshal emit-unpopulated --enums numbers"
 * stays true as suites are added. The only suites left out are those that assert the emulator's
 * exact response encoding (they pin their own mode).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const gateway = require(path.join(ROOT, 'jest.gateway.config.js')) as { testMatch: string[] };

/** Suites that pin the emulator's encoding (they assert exact response bodies). */
const PINNED = [
  'test/emulator/admin-browser.test.ts',
  'test/emulator/alerts.test.ts',
  'test/emulator/core-persistence.test.ts',
  'test/emulator/core-store.test.ts',
  'test/emulator/core.test.ts',
  'test/emulator/entities.test.ts',
  'test/emulator/governance.test.ts',
  'test/emulator/grpc.test.ts',
  'test/emulator/host-check.test.ts',
  'test/emulator/integrations.test.ts',
  'test/emulator/marshal.test.ts',
  'test/emulator/queries.test.ts',
  'test/emulator/sql-test-rules.test.ts',
  'test/emulator/sql-tests.test.ts',
  // `dqform help` output only (the emulator it starts answers nothing the test reads)
  'test/cli/help.test.ts',
];

/** A jest glob (`**`, `*`, `{a,b}`) as a regular expression over paths relative to the root. */
function globRegex(glob: string): RegExp {
  let re = '';
  const g = glob.replace('<rootDir>/', '');
  for (let i = 0; i < g.length; i++) {
    const c = g[i];
    if (g.startsWith('**/', i)) {
      re += '(?:.*/)?';
      i += 2;
    } else if (c === '*') re += '[^/]*';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function suites(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...suites(rel));
    else if (e.name.endsWith('.test.ts')) out.push(rel);
  }
  return out;
}

test('every suite that starts an emulator runs again in the gateway-encoding pass (or pins its encoding)', () => {
  const matchers = gateway.testMatch.map(globRegex);
  const talking = suites('test').filter((f) => /startEmulator|dqform\.js['"], *\[?['"]emulator|['"]emulator['"]/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')));
  expect(talking.length).toBeGreaterThan(20);
  const missing = talking.filter((f) => !PINNED.includes(f) && !matchers.some((m) => m.test(f)));
  expect(missing).toEqual([]);
});
