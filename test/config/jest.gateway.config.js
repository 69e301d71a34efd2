/**
 * The second pass of `npm test`: every suite that talks to an emulator, again with the emulator
 * answering as the real gateway can (wire-facts, decisions): every unset field emitted (zeros,
 * "", [], null for unset messages) and enums as numbers. The suites are those whose leading
 * docblock says `@gateway` (gateway-suites.js). Suites that assert the emulator's exact response
 * encoding pin their own mode and say `@gateway-exempt <reason>`; suites that start no emulator
 * say nothing. test/contract/gateway-pass.test.ts holds every emulator-talking suite to one of them.
 */
const base = require('./jest.config');
const { gatewaySuites } = require('./gateway-suites');

module.exports = {
  ...base,
  displayName: 'gateway encoding (--marshal emit-unpopulated --enums numbers)',
  setupFiles: ['<rootDir>/test/gateway-encoding.setup.js'],
  testMatch: gatewaySuites().map((f) => `<rootDir>/${f}`),
};
