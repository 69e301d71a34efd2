/**
 * The generated reference pages (`npm run docs`, tools/docs.ts) are what the generator writes
 * now: docs/cli.md from the commands' own commander definitions, docs/yaml.md from
 * schemas/dqform.schema.json. Stale pages fail here; the generator itself is checked against the
 * CLI's real help (every command and flag that `dqform <command> --help` lists is on the page).
 * docs/troubleshooting.md has a section for every error code of docs/errors.md.
 *
 * @gateway-exempt starts no emulator: it only names the `emulator` command (the gateway-pass heuristic matches the word)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CLI_DOC, YAML_DOC, cliReference, yamlReference } from '../../tools/docs';
import { main } from '../../src/cli/main';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (f: string) => fs.readFileSync(f, 'utf8');

it('docs/cli.md is what `npm run docs` writes from the command modules (run it after changing a command)', () => {
  expect(read(CLI_DOC)).toBe(cliReference());
});

it('docs/yaml.md is what `npm run docs` writes from schemas/dqform.schema.json (run it after `npm run schema`)', () => {
  expect(read(YAML_DOC)).toBe(yamlReference());
});

it('the YAML reference follows the schema: a new field (nested in a section) changes the page', () => {
  const schema = JSON.parse(read(path.join(ROOT, 'schemas', 'dqform.schema.json'))) as { properties: Record<string, { additionalProperties: { properties: Record<string, unknown> } }> };
  schema.properties.owners.additionalProperties.properties.pagerDuty = { type: 'string', description: 'a PagerDuty service key' };
  const page = yamlReference(schema as never);
  expect(page).not.toBe(read(YAML_DOC));
  expect(page).toContain('| `pagerDuty` | string |  | a PagerDuty service key |');
});

it('docs/cli.md has every command the CLI lists, each with every flag its --help lists', async () => {
  const page = read(CLI_DOC);
  const out: string[] = [];
  const io = { out: (s: string) => out.push(s), err: () => undefined, env: {}, cwd: ROOT, isTty: false };
  expect(await main(['--help'], io)).toBe(0);
  const commands = [...out.join('\n').split(/^Commands:$/m)[1].matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
  expect(commands).toEqual(expect.arrayContaining(['synth', 'validate', 'plan', 'show', 'apply', 'drift', 'import', 'emulator']));
  const missing: string[] = [];
  for (const c of commands) {
    const section = page.split(/^## /m).find((s) => s.startsWith(`dqform ${c}\n`));
    if (!section) {
      missing.push(c);
      continue;
    }
    out.length = 0;
    expect(await main([c, '--help'], io)).toBe(0);
    const options = out.join('\n').split(/^Options:$/m)[1] ?? '';
    for (const [, flag] of options.matchAll(/^ {2}(?:-\w, )?(--[a-z][a-z-]*)/gm)) {
      if (!new RegExp(`^ {2}(?:-\\w, )?${flag}(?![a-z-])`, 'm').test(section)) missing.push(`${c} ${flag}`);
    }
  }
  expect(missing).toEqual([]);
});

it('docs/troubleshooting.md has a section, with what to do, for every error code of docs/errors.md', () => {
  const codes = [...read(path.join(ROOT, 'docs', 'errors.md')).matchAll(/^\| `([a-z.-]+)` \| `\w+` \|/gm)].map((m) => m[1]);
  expect(codes.length).toBeGreaterThan(30);
  const sections = new Map(read(path.join(ROOT, 'docs', 'troubleshooting.md')).split(/^## /m).slice(1).map((s) => [/^`([a-z.-]+)`\n/.exec(s)?.[1] ?? s.split('\n')[0], s]));
  const missing = codes.filter((c) => !sections.has(c));
  const empty = codes.filter((c) => sections.has(c) && sections.get(c)!.trim().split('\n').filter((l) => l.trim()).length < 3);
  expect({ missing, empty }).toEqual({ missing: [], empty: [] });
  expect([...sections.keys()].filter((k) => !codes.includes(k))).toEqual([]);
});
