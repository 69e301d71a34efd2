/**
 * schemas/tools/zod-locales.ts: zod's locale index is loaded only when something reads it (issue 15:
 * start-up), and reading it answers exactly what the real index answers. Checked in fresh node
 * processes: jest's module registry is not node's, so the stand-in cannot be seen from here.
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const LOCALES = path.join(ROOT, 'schemas', 'tools', 'zod-locales.ts');

/** Runs `body` in a fresh process (tsx), after `deferZodLocales()` when `defer`; answers its JSON. */
function fresh(defer: boolean, body: string): Record<string, unknown> {
  const script = `
${defer ? `const installed = require(${JSON.stringify(LOCALES)}).deferZodLocales();` : 'const installed = null;'}
const localeFiles = () => Object.keys(require.cache).filter((k) => /[\\\\/]zod[\\\\/]v4[\\\\/]locales[\\\\/]/.test(k) && !/[\\\\/](index|en)\\.c?js$/.test(k)).length;
${body}`;
  return JSON.parse(execFileSync(process.execPath, ['--require', require.resolve('tsx/cjs'), '-e', script], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 })) as Record<string, unknown>;
}

// what z.locales looks like, read through the stand-in or the real index
const OBSERVE = `
const { z } = require('zod');
const loadedBeforeUse = localeFiles();
const english = z.string().safeParse(1).error.issues[0].message;
const afterParse = localeFiles();
const keys = Object.keys(z.locales).sort();
const coreKeys = Object.keys(z.core.locales).sort();
const has = ['fr' in z.locales, 'nope' in z.locales];
z.config(z.locales.fr());
const french = z.string().safeParse(1).error.issues[0].message;
z.config(z.locales.en());
process.stdout.write(JSON.stringify({ installed, loadedBeforeUse, afterParse, english, keys, coreKeys, has, french, loadedAfterUse: localeFiles() > 0 }));`;

it('zod loads no locale but English until z.locales is read; then z.locales answers as the real index does', () => {
  const deferred = fresh(true, OBSERVE);
  const real = fresh(false, OBSERVE);
  // without the stand-in, loading zod loads every locale (the cost this module removes)
  expect(real.loadedBeforeUse).toBeGreaterThan(50);
  expect(deferred.installed).toBe(true);
  expect(deferred.loadedBeforeUse).toBe(0);
  // parsing (and its English messages) needs no locale index
  expect(deferred.afterParse).toBe(0);
  expect(deferred.english).toBe('Invalid input: expected string, received number');
  // reading z.locales loads it, and every answer is the real one
  expect(deferred.loadedAfterUse).toBe(true);
  for (const k of ['english', 'keys', 'coreKeys', 'has', 'french']) expect({ k, v: deferred[k] }).toEqual({ k, v: real[k] });
  expect((deferred.keys as string[]).length).toBeGreaterThan(50);
}, 120_000);

it('does nothing when zod is loaded already', () => {
  const r = fresh(false, `require('zod'); process.stdout.write(JSON.stringify({ again: require(${JSON.stringify(LOCALES)}).deferZodLocales() }));`);
  expect(r.again).toBe(false);
}, 60_000);

it('the CLI sets zod up before a command loads it: no locale module, and parses without generated code (jitless)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-locales-'));
  try {
    const stack = path.join(dir, 'cdktf.out', 'stacks', 'loc');
    fs.mkdirSync(stack, { recursive: true });
    fs.writeFileSync(path.join(stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: 'loc' }] }, resource: { dq_owner: { team: { title: 'Team' } } } }));
    const r = fresh(false, `
process.chdir(${JSON.stringify(dir)});
const { main } = require(${JSON.stringify(path.join(ROOT, 'src/cli/main.ts'))});
main(['validate', '--no-synth'], { out: () => undefined, err: () => undefined }).then((code) => {
  process.stdout.write(JSON.stringify({ code, zodLoaded: Object.keys(require.cache).some((k) => /[\\\\/]zod[\\\\/]v4[\\\\/]classic[\\\\/]/.test(k)), locales: localeFiles(), jitless: require('zod').config().jitless }));
});`);
    expect(r).toEqual({ code: 0, zodLoaded: true, locales: 0, jitless: true });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
