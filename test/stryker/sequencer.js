/**
 * The test sequencer of mutation runs (test/config/jest.stryker.config.js; `npm run mutate`). A speed-up of
 * StrykerJS's per-mutant jest runs that changes no mutant's result.
 *
 * For each mutant, Stryker runs jest with `--testNamePattern` set to the tests that covered the
 * mutant in its first (dry) run. Jest still loads every test file it is given, only to skip all
 * of their tests: with ~60 test files that is most of the time a mutant takes (each file loads the
 * engine, the client and the schemas into a fresh module registry, ~0.2 s a file on the shared
 * machine). In a run with a name pattern this sequencer
 * - drops the files none of whose tests match it: jest would have run nothing in them (jest-circus
 *   runs neither the tests nor the beforeAll/afterAll hooks of a describe block without an
 *   enabled test);
 * - orders the rest cheapest first (their mean duration in earlier runs), so that runner.js, which
 *   stops at the first failing file, usually runs one fast file for a killed mutant.
 *
 * The test names of a file are learnt from each run's results (every run reports every test of a
 * file, skipped ones included); a file not seen yet is always kept. Names are matched as
 * jest-circus matches them: the describe titles and the test title joined by spaces, against
 * `new RegExp(testNamePattern, 'i')`. What is learnt is kept in `.stryker-test-files.json` in the
 * sandbox, for the test-runner processes Stryker starts later (after a timeout, for instance).
 *
 * With `DQFORM_STRYKER_STATS=<file>` it appends one JSON line per run (the files run, each with
 * its duration and the tests it ran), to see where a mutation run spends its time.
 */
const fs = require('node:fs');
const path = require('node:path');
const BaseSequencer = require('@jest/test-sequencer').default;

/** Test file path -> { names: full test names as last reported, n: runs seen, mean: mean duration in ms }. */
let FILES;

function storeOf(rootDir) {
  return path.join(rootDir, '.stryker-test-files.json');
}

function load(rootDir) {
  if (FILES) return FILES;
  FILES = new Map();
  try {
    for (const [file, v] of Object.entries(JSON.parse(fs.readFileSync(storeOf(rootDir), 'utf8')))) FILES.set(file, v);
  } catch {
    // nothing learnt yet
  }
  return FILES;
}

function save(rootDir) {
  const file = storeOf(rootDir);
  const tmp = `${file}.${process.pid}`;
  fs.writeFileSync(tmp, JSON.stringify(Object.fromEntries(FILES)));
  fs.renameSync(tmp, file);
}

class MutationSequencer extends BaseSequencer {
  constructor(options) {
    super(options);
    this.globalConfig = options.globalConfig;
  }

  sort(tests) {
    const sorted = super.sort(tests);
    const pattern = this.globalConfig.testNamePattern;
    if (!pattern) return sorted;
    const files = load(this.globalConfig.rootDir);
    const re = new RegExp(pattern, 'i');
    const cost = (t) => (files.has(t.path) ? files.get(t.path).mean : Infinity);
    return sorted
      .filter((t) => {
        const known = files.get(t.path);
        return known === undefined || known.names.some((n) => re.test(n));
      })
      .sort((a, b) => cost(a) - cost(b) || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  cacheResults(tests, results) {
    super.cacheResults(tests, results);
    const files = load(this.globalConfig.rootDir);
    for (const r of results.testResults) {
      const f = files.get(r.testFilePath) ?? { names: [], n: 0, mean: 0 };
      // a file that failed to load reports no tests: keep the names an earlier run learnt
      if (!r.testExecError && r.testResults.length > 0) f.names = r.testResults.map((a) => a.fullName);
      f.n++;
      f.mean += (r.perfStats.end - r.perfStats.start - f.mean) / f.n;
      files.set(r.testFilePath, f);
    }
    if (results.testResults.length > 0) save(this.globalConfig.rootDir);
    const stats = process.env.DQFORM_STRYKER_STATS;
    if (stats) {
      const line = {
        mutant: process.env.__STRYKER_ACTIVE_MUTANT__,
        files: results.testResults.map((r) => ({
          file: path.relative(this.globalConfig.rootDir, r.testFilePath),
          ms: r.perfStats.end - r.perfStats.start,
          ran: r.testResults.filter((a) => a.status !== 'pending' && a.status !== 'skipped').length,
          failed: r.numFailingTests,
        })),
      };
      fs.appendFileSync(stats, `${JSON.stringify(line)}\n`);
    }
  }
}

module.exports = MutationSequencer;
