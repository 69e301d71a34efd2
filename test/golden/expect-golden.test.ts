/** A missing golden file fails in CI instead of being written (and the test passing without comparing). */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { expectGolden, goldenAction } from './expect-golden';

describe('golden files', () => {
  let dir: string;
  beforeEach(() => (dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-golden-'))));
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a missing golden file fails when CI is set, names the file and how to create it, and writes nothing', () => {
    const file = path.join(dir, 'plan.txt');
    expect(() => expectGolden(file, 'x\n', { CI: 'true' })).toThrow(/golden file .*plan\.txt is missing: run UPDATE_GOLDEN=1/);
    expect(fs.existsSync(file)).toBe(false);
    expect(() => expectGolden(file, 'x\n', { CI: '1' })).toThrow(/is missing/);
  });

  it('a missing golden file is written locally (CI unset, empty, 0 or false), and compared', () => {
    for (const CI of [undefined, '', '0', 'false']) {
      const file = path.join(dir, `new-${CI}.txt`);
      expectGolden(file, 'new\n', { CI });
      expect(fs.readFileSync(file, 'utf8')).toBe('new\n');
    }
  });

  it('an existing golden file is compared, also in CI; UPDATE_GOLDEN=1 rewrites it', () => {
    const file = path.join(dir, 'plan.txt');
    fs.writeFileSync(file, 'old\n');
    expect(goldenAction(file, { CI: 'true' })).toBe('compare');
    expect(() => expectGolden(file, 'new\n', { CI: 'true' })).toThrow();
    expectGolden(file, 'new\n', { CI: 'true', UPDATE_GOLDEN: '1' });
    expect(fs.readFileSync(file, 'utf8')).toBe('new\n');
  });

  it('every golden suite writes through expectGolden only', () => {
    for (const suite of ['../engine/golden.test.ts', '../constructs/golden.test.ts']) {
      const src = fs.readFileSync(path.join(__dirname, suite), 'utf8');
      expect({ suite, usesHelper: src.includes('expectGolden('), writes: /writeFileSync/.test(src) }).toEqual({ suite, usesHelper: true, writes: false });
    }
  });
});
