/**
 * The jest test runner of mutation runs (test/config/jest.stryker.config.js; `npm run mutate`): jest's own,
 * with a bail per mutant. StrykerJS stops at the first failing test of a mutant (its default,
 * `disableBail: false`: the mutant is killed), but cannot tell jest to (jest's `bail` exits the
 * process, so Stryker turns it off). This runner does it between test files: in a run with a
 * test-name pattern (a mutant's run; the first, coverage-measuring run has none and runs
 * everything) it runs the files one at a time, in the sequencer's order (cheapest first,
 * sequencer.js), and starts no further file once a test has failed. A mutant that survives still
 * runs every test that covers it.
 */
const TestRunner = require('jest-runner').default;

class BailingRunner extends TestRunner {
  async runTests(tests, watcher, options) {
    if (!options.serial || !this._globalConfig.testNamePattern) return super.runTests(tests, watcher, options);
    let failed = false;
    const offSuccess = this.on('test-file-success', ([, result]) => {
      if (result.numFailingTests > 0 || result.testExecError) failed = true;
    });
    const offFailure = this.on('test-file-failure', () => {
      failed = true;
    });
    try {
      for (const test of tests) {
        if (failed || watcher.isInterrupted()) break;
        await super.runTests([test], watcher, options);
      }
    } finally {
      offSuccess();
      offFailure();
    }
  }
}

module.exports = BailingRunner;
