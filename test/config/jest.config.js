/**
 * The jest configuration of `npm test`, found through package.json (`"jest": { "preset": ... }`) so
 * that `npx jest <file>` works from the root; the other configurations here extend it.
 * ts-jest in transpile-only mode (isolatedModules in tsconfig); `tsc --noEmit` type-checks once in `npm test`.
 */
const path = require('node:path');

module.exports = {
  rootDir: path.join(__dirname, '..', '..'),
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { diagnostics: false }] },
  testTimeout: 30000,
  maxWorkers: 2,
};
