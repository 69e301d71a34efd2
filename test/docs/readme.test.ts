/**
 * The README and docs/ pages: no repository path that does not exist (links and anchors: links.test.ts), and one
 * figure for the test suite's time (in docs/testing.md). Every flag of every command is in the
 * generated docs/cli.md (test/docs/generated.test.ts).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** Text outside fenced code blocks (a link inside a code sample is not a link). */
const prose = (md: string) => md.replace(/```[\s\S]*?```/g, '');

const PAGES = ['README.md', ...fs.readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];

it.each(PAGES)('%s: every repository path it names in backticks exists', (page) => {
  const text = page === 'README.md' ? README : fs.readFileSync(path.join(ROOT, page), 'utf8');
  const paths = [...prose(text).matchAll(/`((?:schemas|src|examples|test|bench|constructs|bin|tools)\/[^`\s]*)`/g)].map((m) => m[1]).filter((p) => !/[<>{}*]/.test(p));
  if (page === 'README.md') expect(paths.length).toBeGreaterThan(5);
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
