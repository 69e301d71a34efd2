/**
 * The second pass of `npm test`: every suite that talks to an emulator, again with the emulator
 * answering as the real gateway can (wire-facts, decisions): every unset field emitted (zeros,
 * "", [], null for unset messages) and enums as numbers. Suites that assert the emulator's exact
 * response encoding pin their own mode and are not repeated here (test/emulator/* but
 * deployment-rules and core-faults); suites that start no emulator are not repeated either.
 * A new suite that talks to an emulator belongs in this list.
 */
const base = require('./jest.config');

module.exports = {
  ...base,
  displayName: 'gateway encoding (--marshal emit-unpopulated --enums numbers)',
  setupFiles: ['<rootDir>/test/gateway-encoding.setup.js'],
  testMatch: [
    '<rootDir>/test/handlers/**/*.test.ts',
    '<rootDir>/test/engine/{crash,race,requests,creates,not-ours,apply-progress,enum-spellings}.test.ts',
    '<rootDir>/test/e2e/**/*.test.ts',
    '<rootDir>/test/lifecycle/**/*.test.ts',
    '<rootDir>/test/import/**/*.test.ts',
    '<rootDir>/test/resilience/**/*.test.ts',
    '<rootDir>/test/yaml/**/*.test.ts',
    '<rootDir>/test/cli/{commands,stacks,flags,guards,observability,emulator,synth,modes,not-ours,kill-apply,prevent-destroy,secrets}.test.ts',
    '<rootDir>/test/client/grpc.test.ts',
    '<rootDir>/test/grpc/{encoding,lazy}.test.ts',
    '<rootDir>/test/docs/readme.test.ts',
    '<rootDir>/test/emulator/{deployment-rules,core-faults}.test.ts',
    '<rootDir>/test/contract/**/*.test.ts',
  ],
};
