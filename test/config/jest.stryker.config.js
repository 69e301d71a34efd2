/**
 * The jest configuration StrykerJS runs (`npm run mutate`, test/config/stryker.config.json; not part of `npm test`): the normal
 * one, with a mutation-run sequencer and runner (test/stryker/), minus the suites below. Leaving a
 * suite out can only lower the mutation score (a mutant it alone would kill counts as survived),
 * never raise it. The same file serves every run, so scores of different commits compare.
 */
const base = require('./jest.config.js');

/**
 * Suites that run dqform (or the code under test) in a child process: Stryker activates a mutant
 * inside the jest process only, so they cannot kill mutants; they only cost time.
 */
const CHILD_PROCESS = [
  '/test/cli/',
  '/test/constructs/pack\\.test\\.ts$',
  '/test/e2e/demo\\.test\\.ts$',
  '/test/engine/crash\\.test\\.ts$',
  '/test/e2e/acme-previews\\.test\\.ts$',
  '/test/grpc/lazy\\.test\\.ts$',
  '/test/docs/', // the README tutorial and the docs' commands, run through the CLI (and a packed tarball)
];

/**
 * Suites that import nothing of src/engine, src/kinds or src/client (the emulator and the
 * constructs depend on schemas/ only; gateway-pass reads jest configurations; test/repo reads the
 * repository's files; test/golden tests the golden-file writer): they cover no mutant;
 * left out to save the first run's time.
 */
const COVERS_NOTHING = ['/test/emulator/', '/test/constructs/', '/test/contract/gateway-pass\\.test\\.ts$', '/test/repo/', '/test/golden/'];

/**
 * Integration suites too slow per mutant: each mutant re-runs the covering suites, and these start
 * an emulator and apply hundreds of objects (or thousands of requests) in their beforeAll or in
 * every test, for 4-13 s per run on the shared 2-core machine, while they cover most of the code.
 * What they check is also checked by fast suites that stay in (unit tests of the planner,
 * applier, handlers and client, the handler lifecycle and client route tests).
 */
const TOO_SLOW = [
  '/test/client/pool\\.test\\.ts$', // 10,000 concurrent calls through the connection pool
  '/test/e2e/lifecycle\\.test\\.ts$', // every kind through plan/apply/drift against an emulator
  '/test/import/import\\.test\\.ts$', // import of a seeded workspace, TS output synthesised in a child
  '/test/engine/requests\\.test\\.ts$', // request counts of plans over 1,000 objects
  '/test/resilience/bad-inputs\\.test\\.ts$', // the CLI against a seeded emulator, 60+ cases
  '/test/resilience/faults\\.test\\.ts$', // applies of hundreds of objects under injected faults
  '/test/resilience/restart\\.test\\.ts$', // an emulator restarted in the middle of an apply
  '/test/resilience/retried-write\\.test\\.ts$', // dropped responses per kind with retries
  '/test/engine/race\\.test\\.ts$', // concurrent applies against one emulator
  '/test/resilience/race\\.test\\.ts$', // two applies of 107 objects racing, 10 times
];

module.exports = {
  ...base,
  testSequencer: '<rootDir>/test/stryker/sequencer.js',
  runner: '<rootDir>/test/stryker/runner.js',
  testPathIgnorePatterns: ['/node_modules/', ...CHILD_PROCESS, ...COVERS_NOTHING, ...TOO_SLOW],
};
