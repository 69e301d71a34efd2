/**
 * One error base (issue 24): every error class dqform defines extends DqformError, has its own
 * stable code, unique, and listed in docs/errors.md; the CLI's top-level handler shows an error
 * by its code's family, never by its class name.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { DqformError, isErrorOf } from '../../schemas/tools/errors';

const ROOT = path.join(__dirname, '..', '..');
/** Classes that extend Error but are not dqform's errors (docs/errors.md says why). */
const NOT_DQFORM = ['EmulatorError', 'DeadlinePassed'];

/** Every `.ts` file under src/ and schemas/ with the names of the classes it declares as extending something. */
function declaredClasses(): { file: string; name: string; base: string }[] {
  const out: { file: string; name: string; base: string }[] = [];
  for (const dir of ['src', 'schemas']) {
    for (const f of (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).filter((x) => x.endsWith('.ts')).sort()) {
      const text = fs.readFileSync(path.join(ROOT, dir, f), 'utf8');
      for (const m of text.matchAll(/^(?:export )?(?:abstract )?class (\w+)(?:<[^>]*>)? extends (\w+)/gm)) out.push({ file: path.join(dir, f), name: m[1], base: m[2] });
    }
  }
  return out;
}

/** The error classes: those whose chain of bases (within the sources) reaches Error. */
function errorClasses(): { file: string; name: string; base: string }[] {
  const all = declaredClasses();
  const byName = new Map(all.map((c) => [c.name, c]));
  const isError = (name: string, seen = 0): boolean => name === 'Error' || (seen < 20 && byName.has(name) && isError(byName.get(name)!.base, seen + 1));
  return all.filter((c) => isError(c.base));
}

describe('the error classes', () => {
  const classes = errorClasses();

  it('are found (the scan sees the client, engine, CLI and schema errors)', () => {
    const names = classes.map((c) => c.name);
    for (const n of ['UsageError', 'ManifestError', 'PlanRefusedError', 'ConfigError', 'ApiError', 'NotFoundError', 'ResolverQlError', 'DqformError']) expect(names).toContain(n);
  });

  it('each extends DqformError, has its own code, and the codes are unique and documented in docs/errors.md', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'errors.md'), 'utf8');
    const codes = new Map<string, string>();
    const problems: string[] = [];
    for (const c of classes.filter((x) => x.name !== 'DqformError' && !NOT_DQFORM.includes(x.name))) {
      const mod = require(path.join(ROOT, c.file)) as Record<string, unknown>;
      const cls = mod[c.name] as (typeof DqformError & { name: string }) | undefined;
      if (typeof cls !== 'function') {
        problems.push(`${c.file}: ${c.name} is not exported`);
        continue;
      }
      if (!(cls.prototype instanceof DqformError)) problems.push(`${c.file}: ${c.name} does not extend DqformError`);
      if (!Object.hasOwn(cls, 'code')) problems.push(`${c.file}: ${c.name} has no code of its own`);
      else if (codes.has(cls.code)) problems.push(`${c.name}: code ${cls.code} is ${codes.get(cls.code)}'s too`);
      else codes.set(cls.code, c.name);
      if (!doc.includes(`| \`${cls.code}\` | \`${c.name}\` |`)) problems.push(`${c.name}: no row | \`${cls.code}\` | \`${c.name}\` | in docs/errors.md`);
    }
    expect(problems).toEqual([]);
    expect(codes.size).toBeGreaterThan(30);
  });

  it('only the documented exceptions extend Error directly', () => {
    const direct = classes.filter((c) => c.base === 'Error').map((c) => c.name).sort();
    expect(direct).toEqual(['DeadlinePassed', 'DqformError', 'EmulatorError']);
  });

  it('an instance carries its class code, hint and diagnostics', () => {
    const { UsageError } = require('../../src/cli/usage-error') as typeof import('../../src/cli/usage-error');
    const { ManifestError } = require('../../src/engine/manifest') as typeof import('../../src/engine/manifest');
    const { NotFoundError } = require('../../src/client/errors') as typeof import('../../src/client/errors');
    const u = new UsageError('bad flag', 'plan');
    expect([u.code, u.hint]).toEqual(['usage', 'Run dqform plan --help for its options.']);
    const d = [{ severity: 'error' as const, summary: 'x' }];
    expect(new ManifestError(d).diagnostics).toBe(d);
    const nf = new NotFoundError({ method: 'GET', path: '/x', status: 404 });
    expect([nf.code, nf.hint, Object.keys(nf).includes('code')]).toEqual(['api.not-found', undefined, false]);
    // another copy of the module: instanceof fails, the class is still recognised
    expect(isErrorOf(Object.assign(new Error('gone'), { name: 'NotFoundError' }), NotFoundError)).toBe(true);
    expect(isErrorOf(new Error('gone'), NotFoundError)).toBe(false);
  });
});

describe('no plain Error reaches a user', () => {
  /**
   * The plain `new Error(` left in src/ outside the emulator: broken invariants, never a user's
   * mistake (docs/errors.md says so). Each is named by its file and the start of its message.
   */
  const INVARIANTS = [
    // the schemas admit only the registered resource types
    'src/kinds/index.ts: no handler for resource type',
    'src/kinds/descriptors.ts: resource type ${type} has no src/kinds/<kind>/descriptor.ts',
    // a call after close() is a bug of the caller
    "src/client/grpc.ts: 'the gRPC transport is closed'",
  ];

  it('src/ (outside the emulator) makes plain Errors only for the named invariants', () => {
    const found: string[] = [];
    for (const f of (fs.readdirSync(path.join(ROOT, 'src'), { recursive: true }) as string[]).filter((x) => x.endsWith('.ts')).sort()) {
      const file = path.join('src', f).split(path.sep).join('/');
      if (file.startsWith('src/emulator/')) continue;
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/new Error\(\s*[`'"]?/g)) {
        const rest = text.slice(m.index);
        const line = rest.slice(0, rest.indexOf('\n'));
        const hit = INVARIANTS.find((x) => x.startsWith(`${file}: `) && line.includes(x.slice(file.length + 2)));
        found.push(hit ?? `${file}: ${line.trim()}`);
      }
    }
    expect(found.sort()).toEqual([...INVARIANTS].sort());
  });
});

describe('the CLI maps errors by code family, not by class name', () => {
  it('src/ and schemas/ read an error name in one place only (schemas/tools/errors.ts isErrorOf)', () => {
    const hits: string[] = [];
    for (const dir of ['src', 'schemas']) {
      for (const f of (fs.readdirSync(path.join(ROOT, dir), { recursive: true }) as string[]).filter((x) => x.endsWith('.ts'))) {
        const text = fs.readFileSync(path.join(ROOT, dir, f), 'utf8');
        if (/name === '\w+Error'/.test(text)) hits.push(path.join(dir, f));
      }
    }
    expect(hits).toEqual([]);
  });
});
