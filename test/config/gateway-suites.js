/**
 * Which suites the gateway-encoding pass (jest.gateway.config.js) runs again: a pragma in each
 * suite's leading docblock, not a list kept by hand.
 *
 *   @gateway                  runs again with the emulator answering as the real gateway can
 *   @gateway-exempt <reason>  talks to an emulator but is not repeated (e.g. it pins its own
 *                             encoding: it asserts exact response bodies)
 *
 * test/contract/gateway-pass.test.ts fails when a suite that starts an emulator has neither.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..', '..');

/** The text of the comment a file opens with (`/** ... *\/`, after an optional shebang), or ''. */
function leadingDocblock(source) {
  const m = /^(?:#![^\n]*\n)?\s*\/\*\*([\s\S]*?)\*\//.exec(source);
  return m ? m[1] : '';
}

/**
 * The gateway pragma of a suite's source: `{ tag: 'gateway' }`, `{ tag: 'exempt', reason }`,
 * `{ tag: undefined }` when it has none, or `{ problem }` when it is malformed.
 */
function gatewayPragma(source) {
  const lines = leadingDocblock(source)
    .split('\n')
    .map((l) => l.replace(/^\s*\*?/, '').trim())
    .filter((l) => l.startsWith('@gateway'));
  if (lines.length === 0) return { tag: undefined };
  if (lines.length > 1) return { problem: `more than one gateway pragma: ${lines.join(' / ')}` };
  const [line] = lines;
  if (line === '@gateway') return { tag: 'gateway' };
  const exempt = /^@gateway-exempt(?:\s+(\S.*))?$/.exec(line);
  if (exempt && exempt[1]) return { tag: 'exempt', reason: exempt[1] };
  if (exempt) return { problem: '@gateway-exempt needs a reason (@gateway-exempt <why the suite is not repeated>)' };
  return { problem: `unknown pragma ${line.split(/\s/)[0]} (@gateway or @gateway-exempt <reason>)` };
}

/** Every suite under test/, relative to the root with forward slashes, sorted. */
function allSuites(dir = 'test') {
  const out = [];
  for (const e of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = `${dir}/${e.name}`;
    if (e.isDirectory()) out.push(...allSuites(rel));
    else if (e.name.endsWith('.test.ts')) out.push(rel);
  }
  return out.sort();
}

/** The suites tagged `@gateway`. */
function gatewaySuites() {
  return allSuites().filter((f) => gatewayPragma(fs.readFileSync(path.join(ROOT, f), 'utf8')).tag === 'gateway');
}

module.exports = { ROOT, allSuites, gatewayPragma, gatewaySuites, leadingDocblock };
