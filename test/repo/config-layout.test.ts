/**
 * The test tooling's configurations live in test/config/, not at the top level (which holds
 * package.json, tsconfig*.json, README.md, CHANGELOG.md, .ci, .github and the source folders),
 * and every reference to them resolves.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; jest: { preset: string } };

describe('test configurations', () => {
  it('none at the top level', () => {
    const top = fs.readdirSync(ROOT).filter((f) => /^(?:jest|stryker|eslint)\b.*\.(?:c?js|mjs|json)$/.test(f));
    expect(top).toEqual([]);
  });

  it('package.json finds jest through a preset in test/config, and every config a script names exists', () => {
    expect(pkg.jest.preset).toBe('./test/config/jest.config.js');
    expect(fs.existsSync(path.join(ROOT, pkg.jest.preset))).toBe(true);
    const named = Object.values(pkg.scripts).flatMap((s) => [...s.matchAll(/(?:-c|--config|stryker run)\s+(\S+)/g)].map((m) => m[1]));
    expect(named.sort()).toEqual(['test/config/eslint.config.mjs', 'test/config/jest.gateway.config.js', 'test/config/stryker.config.json']);
    for (const f of named) expect({ f, exists: fs.existsSync(path.join(ROOT, f)) }).toEqual({ f, exists: true });
  });

  it('stryker runs the jest configuration in test/config, whose sequencer and runner exist', () => {
    const stryker = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/config/stryker.config.json'), 'utf8')) as { jest: { configFile: string } };
    expect(fs.existsSync(path.join(ROOT, stryker.jest.configFile))).toBe(true);
    const jestStryker = require(path.join(ROOT, stryker.jest.configFile)) as { rootDir: string; testSequencer: string; runner: string };
    expect(jestStryker.rootDir).toBe(ROOT);
    for (const f of [jestStryker.testSequencer, jestStryker.runner]) expect(fs.existsSync(f.replace('<rootDir>', ROOT))).toBe(true);
  });
});
