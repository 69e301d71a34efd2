// sampled re-test of static-flagged mutants with the suites of their folder (MUT_TEST_DIRS, comma-separated);
// leaving suites out can only lower the score
const base = require('./jest.stryker.config.js');
module.exports = { ...base, testMatch: (process.env.MUT_TEST_DIRS || 'test').split(',').map((d) => `<rootDir>/${d}/**/*.test.ts`) };
