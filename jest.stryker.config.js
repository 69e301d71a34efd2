/**
 * The jest configuration StrykerJS runs (`npm run mutate`): the normal one without the tests that
 * run dqform in a child process (CLI e2e, demo, npm pack, SIGKILL crash), because Stryker
 * activates a mutant inside the jest process only; those tests cannot kill mutants and only cost time.
 */
const base = require('./jest.config.js');
module.exports = {
  ...base,
  testPathIgnorePatterns: ['/node_modules/', '/test/cli/', '/test/constructs/pack\\.test\\.ts$', '/test/e2e/demo\\.test\\.ts$', '/test/engine/crash\\.test\\.ts$'],
};
