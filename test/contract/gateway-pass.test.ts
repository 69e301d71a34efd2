/**
 * The second pass of `npm test` (test/config/jest.gateway.config.js) must cover every suite that
 * talks to an emulator, so that "every test passes again with --marshal emit-unpopulated --enums
 * numbers" stays true as suites are added. The pass runs the suites tagged `@gateway` in their
 * leading docblock (test/config/gateway-suites.js); a suite that starts an emulator and must not
 * be repeated says `@gateway-exempt <reason>` (e.g. it pins its own encoding). Neither is a failure.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const { ROOT, allSuites, gatewayPragma, gatewaySuites } = require('../config/gateway-suites') as {
  ROOT: string;
  allSuites: () => string[];
  gatewayPragma: (source: string) => { tag?: 'gateway' | 'exempt'; reason?: string; problem?: string };
  gatewaySuites: () => string[];
};
const gateway = require('../config/jest.gateway.config.js') as { testMatch: string[] };

/** Test helpers that start an emulator for the suites that import them. */
const STARTS_EMULATOR = /startEmulator|runEmulatorCli|dqform\.js['"], *\[?['"]emulator|['"]emulator['"]/;

/** Does this suite (or a local helper it imports) start an emulator or `dqform emulator`? */
function talksToEmulator(file: string, source: string, read: (f: string) => string | undefined): boolean {
  if (STARTS_EMULATOR.test(source)) return true;
  for (const m of source.matchAll(/from\s+['"](\.{1,2}\/[^'"]+)['"]/g)) {
    const base = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
    if (!base.startsWith('test/') || base.endsWith('.test')) continue; // product code is not a helper
    const helper = read(`${base}.ts`) ?? read(`${base}.js`);
    if (helper !== undefined && STARTS_EMULATOR.test(helper)) return true;
  }
  return false;
}

/** The suites that talk to an emulator without a gateway pragma, and the malformed pragmas. */
function untagged(files: string[], read: (f: string) => string | undefined): string[] {
  const out: string[] = [];
  for (const f of files) {
    if (f === 'test/contract/gateway-pass.test.ts') continue; // its own examples below
    const source = read(f) ?? '';
    const p = gatewayPragma(source);
    if (p.problem) out.push(`${f}: ${p.problem}`);
    else if (p.tag === undefined && talksToEmulator(f, source, read)) {
      out.push(`${f}: starts an emulator: tag its leading docblock @gateway (runs again in the gateway encoding) or @gateway-exempt <reason>`);
    }
  }
  return out;
}

const readRepo = (f: string): string | undefined => {
  const full = path.join(ROOT, f);
  return fs.existsSync(full) ? fs.readFileSync(full, 'utf8') : undefined;
};

describe('the gateway-encoding pass', () => {
  it('reads the pragma of the leading docblock only, and wants a reason for an exemption', () => {
    expect(gatewayPragma('/**\n * Suite.\n *\n * @gateway\n */\nimport x;')).toEqual({ tag: 'gateway' });
    expect(gatewayPragma('/** @gateway */')).toEqual({ tag: 'gateway' });
    expect(gatewayPragma('/**\n * @gateway-exempt pins its encoding\n */')).toEqual({ tag: 'exempt', reason: 'pins its encoding' });
    expect(gatewayPragma('/**\n * Suite.\n */\n/**\n * @gateway\n */')).toEqual({ tag: undefined });
    expect(gatewayPragma('// @gateway\nimport x;')).toEqual({ tag: undefined });
    expect(gatewayPragma('/**\n * mentions the @gateway tag in prose\n */')).toEqual({ tag: undefined });
    expect(gatewayPragma('/**\n * @gateway-exempt\n */').problem).toMatch(/needs a reason/);
    expect(gatewayPragma('/**\n * @gateway\n * @gateway-exempt why\n */').problem).toMatch(/more than one/);
    expect(gatewayPragma('/**\n * @gateways\n */').problem).toMatch(/unknown pragma @gateways/);
  });

  it('flags a suite that starts an emulator, itself or through a helper, without a pragma', () => {
    const files: Record<string, string> = {
      'test/x/direct.test.ts': "import { startEmulator } from '../../src/emulator';",
      'test/x/cli.test.ts': "/** CLI. */\nrun(['emulator', '--port', '0']);",
      'test/x/helped.test.ts': "import { withEmu } from './helpers';",
      'test/x/helpers.ts': "export const withEmu = () => startEmulator({ port: 0 });",
      'test/x/tagged.test.ts': "/** @gateway */\nimport { startEmulator } from '../../src/emulator';",
      'test/x/exempt.test.ts': "/** @gateway-exempt pins its encoding */\nimport { startEmulator } from '../../src/emulator';",
      'test/x/pure.test.ts': "import { computePlan } from '../../src/engine/planner';",
    };
    const found = untagged(Object.keys(files).filter((f) => f.endsWith('.test.ts')), (f) => files[f]);
    expect(found.map((l) => l.split(':')[0])).toEqual(['test/x/direct.test.ts', 'test/x/cli.test.ts', 'test/x/helped.test.ts']);
  });

  it('every suite that starts an emulator is tagged @gateway or @gateway-exempt <reason>', () => {
    const suites = allSuites();
    expect(suites.filter((f) => talksToEmulator(f, readRepo(f) ?? '', readRepo)).length).toBeGreaterThan(40);
    expect(untagged(suites, readRepo)).toEqual([]);
  });

  it('runs exactly the suites tagged @gateway', () => {
    const tagged = gatewaySuites();
    expect(tagged.length).toBeGreaterThan(50);
    expect(gateway.testMatch).toEqual(tagged.map((f) => `<rootDir>/${f}`));
  });
});
