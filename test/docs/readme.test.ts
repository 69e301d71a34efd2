/**
 * The README and the other project docs: no link or path to a file that does not exist, and one
 * figure for the test suite's time (in docs/testing.md). Every flag of every command is in the
 * generated docs/cli.md (test/docs/generated.test.ts).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const DOCS = ['README.md', 'CHANGELOG.md', 'examples/ci/README.md', 'examples/acme/README.md', 'examples/quickstart/README.md', 'examples/yaml/README.md', 'bench/README.md', 'src/emulator/README.md', 'src/client/services/ROUTES.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];

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

it('docs/testing.md gives one figure for the time of npm test, and the README none', () => {
  const testing = fs.readFileSync(path.join(ROOT, 'docs', 'testing.md'), 'utf8');
  const figure = /\b\d+(\.\d+)? ?(s|seconds?|min|minutes?)\b/;
  expect(README.split('\n').filter((l) => /npm test/.test(l) && figure.test(l))).toEqual([]);
  const timed = testing.split('\n').filter((l) => /npm test/.test(l) && /\b\d+(\.\d+)? ?(s|seconds?|min|minutes?)\b/.test(l));
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
