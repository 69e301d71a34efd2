/**
 * No broken link in the docs (issue 26): in README.md, docs/**\/*.md, examples/**\/README.md and
 * the other Markdown the project ships, every relative link names a file or directory of the
 * repository, and every `#anchor` (alone, or after a Markdown file) names a heading of that file
 * as GitHub makes its anchors (lower case, punctuation but `-` and `_` dropped, spaces as `-`,
 * `-1`, `-2` for repeats) or an explicit `<a name>`/`id`. Links inside code are not links.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** Every Markdown file under `dir` (relative to ROOT), recursively, dot-directories and node_modules left out. */
function markdownUnder(dir: string, only?: RegExp): string[] {
  const abs = path.join(ROOT, dir);
  if (!fs.existsSync(abs)) return [];
  return (fs.readdirSync(abs, { recursive: true }) as string[])
    .map((f) => path.join(dir, f).split(path.sep).join('/'))
    .filter((f) => f.endsWith('.md') && !/(^|\/)(node_modules|\.[^/]+)\//.test(f.slice(dir.length + 1)) && (!only || only.test(path.basename(f))))
    .sort();
}

const FILES = [
  'README.md',
  'CHANGELOG.md',
  ...markdownUnder('docs'),
  ...markdownUnder('examples', /^README\.md$/),
  'bench/README.md',
  'src/emulator/README.md',
  'src/client/services/ROUTES.md',
  'test/lifecycle/README.md',
].filter((f) => fs.existsSync(path.join(ROOT, f)));

/** Markdown without its fenced code blocks and inline code spans. */
export function withoutCode(md: string): string {
  return md.replace(/^( *)(```|~~~)[\s\S]*?^\1\2[^\n]*$/gm, '').replace(/(`+)[\s\S]*?\1/g, '');
}

/** GitHub's anchor for a heading's text. */
export function slug(heading: string): string {
  const text = heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link: its text
    .replace(/<[^>]+>/g, '') // inline HTML
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a Markdown text: its headings' (with GitHub's -1, -2 for repeats) and explicit names/ids. */
export function anchorsOf(md: string): Set<string> {
  const anchors = new Set<string>();
  const count = new Map<string, number>();
  const noFences = md.replace(/^( *)(```|~~~)[\s\S]*?^\1\2[^\n]*$/gm, '');
  for (const [, text] of noFences.matchAll(/^ {0,3}#{1,6} +(.+?)[ #]*$/gm)) {
    const base = slug(text);
    const n = count.get(base) ?? 0;
    count.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  for (const [, name] of md.matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(name);
  return anchors;
}

/** The broken links of Markdown file `file` (its text `md`, its path relative to `root`). */
export function brokenLinks(root: string, file: string, md: string): string[] {
  const prose = withoutCode(md);
  const targets = [...prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g), ...prose.matchAll(/^\s*\[[^\]]+\]:\s+(\S+)/gm)].map((m) => m[1]);
  const broken: string[] = [];
  for (const t of targets) {
    if (/^[a-z][a-z0-9+.-]*:/i.test(t)) continue; // https:, mailto:, ...
    const [rawPath, anchor] = t.split('#', 2) as [string, string | undefined];
    if (rawPath === '') {
      if (anchor !== undefined && !anchorsOf(md).has(decodeURIComponent(anchor))) broken.push(`${t}: no heading or anchor "#${anchor}" in ${file}`);
      continue;
    }
    const target = path.resolve(root, path.dirname(file), decodeURIComponent(rawPath));
    if (!fs.existsSync(target)) {
      broken.push(`${t}: no such file`);
      continue;
    }
    if (anchor === undefined || !target.endsWith('.md') || fs.statSync(target).isDirectory()) continue;
    if (!anchorsOf(fs.readFileSync(target, 'utf8')).has(decodeURIComponent(anchor))) broken.push(`${t}: no heading or anchor "#${anchor}" in ${path.relative(root, target)}`);
  }
  return broken;
}

it('finds the docs (README, docs/ pages, every example README)', () => {
  expect(FILES).toEqual(expect.arrayContaining(['README.md', 'docs/concepts.md', 'docs/cli.md', 'docs/troubleshooting.md', 'examples/ci/README.md', 'examples/yaml/README.md']));
});

it.each(FILES)('%s: every relative link and #anchor resolves', (file) => {
  expect(brokenLinks(ROOT, file, fs.readFileSync(path.join(ROOT, file), 'utf8'))).toEqual([]);
});

it("makes GitHub's anchors (punctuation, code, links, repeats)", () => {
  expect(slug('Forget: stop managing an object, keep it')).toBe('forget-stop-managing-an-object-keep-it');
  expect(slug('Destroy, --target, --replace, --refresh-only')).toBe('destroy---target---replace---refresh-only');
  expect(slug('`api.conflict`')).toBe('apiconflict');
  expect(slug('dqform_yaml [sections](x.md)')).toBe('dqform_yaml-sections');
  expect([...anchorsOf('# A\n## A\n```\n# not a heading\n```\n## A\n<a name="here"></a>')]).toEqual(['a', 'a-1', 'a-2', 'here']);
});

it('fails on a missing file, a missing anchor, and a missing anchor of another page; not on code or URLs', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-links-'));
  try {
    fs.mkdirSync(path.join(tmp, 'docs'));
    fs.writeFileSync(path.join(tmp, 'docs', 'a.md'), '# A page\n\n## Good part\n');
    const md = [
      '# Readme', '## Usage',
      '[ok](docs/a.md#good-part) [ok](#usage) [ok](docs/) [web](https://example.com/x#y)',
      '[gone](docs/b.md) [bad](#nowhere) [bad](docs/a.md#bad-part)',
      '`[code](nothing.md)`', '```md', '[block](nothing.md)', '```',
    ].join('\n');
    expect(brokenLinks(tmp, 'README.md', md)).toEqual([
      'docs/b.md: no such file',
      '#nowhere: no heading or anchor "#nowhere" in README.md',
      'docs/a.md#bad-part: no heading or anchor "#bad-part" in docs/a.md',
    ]);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
});
