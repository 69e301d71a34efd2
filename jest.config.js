/** ts-jest in transpile-only mode (isolatedModules in tsconfig); `tsc --noEmit` type-checks once in `npm test`. */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  maxWorkers: 2,
};
