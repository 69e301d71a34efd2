/**
 * The README and the other project docs: no link or path to a file that does not exist, every
 * flag of every command documented in the README, and one figure for the test suite's time.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { main } from '../../src/cli/main';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const DOCS = ['README.md', 'CHANGELOG.md', 'examples/ci/README.md', 'examples/acme/README.md', 'examples/quickstart/README.md', 'examples/yaml/README.md', 'bench/README.md', 'src/emulator/README.md', 'src/client/services/ROUTES.md', 'docs/architecture.md'];

/** Text outside fenced code blocks (a link inside a code sample is not a link). */
const prose = (md: string) => md.replace(/```[\s\S]*?```/g, '');

it.each(DOCS)('%s: every relative link resolves to a file or directory of the repository', (doc) => {
  const md = prose(fs.readFileSync(path.join(ROOT, doc), 'utf8'));
  const links = [...md.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^(https?:|mailto:|#)/.test(l));
  const broken = links.filter((l) => !fs.existsSync(path.resolve(ROOT, path.dirname(doc), decodeURIComponent(l.split('#')[0]))));
  expect(broken).toEqual([]);
});

it('README.md: every repository path it names in backticks exists', () => {
  const paths = [...prose(README).matchAll(/`((?:schemas|src|examples|test|bench|constructs|bin)\/[^`\s]*)`/g)].map((m) => m[1]).filter((p) => !/[<>{}*]/.test(p));
  expect(paths.length).toBeGreaterThan(5);
  expect(paths.filter((p) => !fs.existsSync(path.join(ROOT, p)))).toEqual([]);
});

it('README.md documents every flag of every command (as dqform <command> --help lists them)', async () => {
  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: () => undefined, env: {}, cwd: ROOT, isTty: false };
  expect(await main(['--help'], io)).toBe(0);
  const commands = [...out.join('\n').split(/^Commands:$/m)[1].matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
  expect(commands).toEqual(expect.arrayContaining(['synth', 'validate', 'plan', 'show', 'apply', 'drift', 'import', 'emulator']));
  const missing: string[] = [];
  for (const c of commands) {
    out.length = 0;
    expect(await main([c, '--help'], io)).toBe(0);
    const options = out.join('\n').split(/^Options:$/m)[1] ?? '';
    for (const [, flag] of options.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)) {
      if (flag === '--help') continue;
      if (!README.includes(`\`dqform ${c}`) || !new RegExp(`${flag}(?![a-z-])`).test(README)) missing.push(`${c} ${flag}`);
    }
    if (!README.includes(`dqform ${c}`)) missing.push(c);
  }
  expect(missing).toEqual([]);
});

it('README.md gives one figure for the time of npm test', () => {
  const timed = README.split('\n').filter((l) => /npm test/.test(l) && /\b\d+(\.\d+)? ?(s|seconds?|min|minutes?)\b/.test(l));
  expect(timed).toHaveLength(1);
});

it('README.md says cdktf is deprecated, what that means, and pins the versions package.json pins', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
  const deps = { ...pkg.dependencies, ...pkg.devDependencies, ...pkg.peerDependencies };
  const section = README.split(/^## /m).find((s) => /^CDKTF is deprecated/.test(s));
  expect(section).toBeDefined();
  expect(section).toMatch(/archived CDK for Terraform in December 2025; \*\*cdktf 0\.21 is its final release\*\*/);
  for (const name of ['cdktf', 'constructs']) expect(section).toContain(`${name}@${deps[name].replace(/^[~^]/, '')}`);
  expect(section).toMatch(/YAML front end/); // the way out that does not need cdktf
});
