/**
 * Every command line the docs show is one the CLI takes (issue 26): each `dqform ...` or
 * `npx dqform ...` command in a ```sh (or bash, shell, console) block of README.md, docs/**\/*.md
 * and examples/**\/README.md is parsed by the real commander definitions of the command modules
 * (tools/docs.ts definedProgram: the same `define` src/cli/main.ts calls, actions replaced by no-ops,
 * Terraform's single-dash spellings rewritten as main does): the verb exists, every flag exists
 * for it and has its value, no argument is left over. Nothing runs. The tutorial's commands also
 * run for real (tutorial-e2e.test.ts); docs/cli.md is generated from the same definitions.
 *
 * @gateway-exempt starts no emulator: it only names the `emulator` command (the gateway-pass heuristic matches the word)
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommanderError } from 'commander';
import { definedProgram } from '../../tools/docs';
import { terraformSpellings } from '../../src/cli/main';
import { withoutComment } from './doc-blocks';

export { withoutComment };

const ROOT = path.resolve(__dirname, '..', '..');

const FILES = [
  'README.md',
  ...(fs.readdirSync(path.join(ROOT, 'docs'), { recursive: true }) as string[]).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...(fs.readdirSync(path.join(ROOT, 'examples'), { recursive: true }) as string[]).filter((f) => path.basename(f) === 'README.md').map((f) => `examples/${f}`),
].map((f) => f.split(path.sep).join('/')).sort();

/** Shell words of one command (quotes removed; `$VAR` kept as written). */
export function words(line: string): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g)) out.push(m[1] ?? m[2] ?? m[3]);
  return out;
}

/** The dqform command lines of a Markdown text: [line number, the arguments after `dqform`]. */
export function dqformCommands(md: string): Array<{ line: number; text: string; args: string[] }> {
  const found: Array<{ line: number; text: string; args: string[] }> = [];
  const lines = md.split('\n');
  let fence: string | undefined;
  let shell = false;
  lines.forEach((raw, i) => {
    const open = /^(\s*)(```+|~~~+)\s*([\w-]*)/.exec(raw);
    if (open && fence === undefined) {
      fence = open[2];
      shell = ['sh', 'bash', 'shell', 'console', 'zsh'].includes(open[3]);
      return;
    }
    if (open && fence !== undefined && raw.trim().startsWith(fence)) {
      fence = undefined;
      return;
    }
    if (fence === undefined || !shell) return;
    // the command without its comment (a # after a space, outside quotes), split at && || ; |
    const code = withoutComment(raw.replace(/^\s*\$ /, ''));
    for (const part of code.split(/&&|\|\||;|\||&(?!\d)/)) {
      const w = words(part.replace(/\s\d?>>?\s*\S+|\s\d?>&\d/g, ''));
      const at = w[0] === 'npx' && w[1] === 'dqform' ? 2 : w[0] === 'dqform' ? 1 : -1;
      if (at > 0) found.push({ line: i + 1, text: part.trim(), args: w.slice(at) });
    }
  });
  return found;
}

/** Why the real CLI definitions refuse `args`, or undefined when they parse it. */
export function refusal(args: string[]): string | undefined {
  const program = definedProgram();
  try {
    program.parse(terraformSpellings(args), { from: 'user' });
    return args.length === 0 ? 'no command' : undefined;
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' || e.code === 'commander.version' ? undefined : e.message;
    throw e;
  }
}

const ALL = FILES.flatMap((file) => dqformCommands(fs.readFileSync(path.join(ROOT, file), 'utf8')).map((c) => ({ ...c, file })));

it('finds the command lines of the README tutorial, the CI guide and migrating', () => {
  expect(ALL.length).toBeGreaterThan(20);
  const shown = (file: string) => ALL.filter((c) => c.file === file).map((c) => c.args[0]);
  expect(shown('README.md')).toEqual(expect.arrayContaining(['emulator', 'synth', 'validate', 'plan', 'apply']));
  expect(shown('docs/ci.md')).toEqual(expect.arrayContaining(['synth', 'validate', 'plan', 'apply', 'drift']));
  expect(shown('docs/migrating.md')).toContain('import');
});

it('every dqform command line in a shell block of the docs parses with the CLI\'s own definitions', () => {
  const refused = ALL.map((c) => ({ where: `${c.file}:${c.line}: ${c.text}`, why: refusal(c.args) })).filter((r) => r.why !== undefined);
  expect(refused).toEqual([]);
});

it('the check refuses an unknown verb, an unknown or misspelled flag, a flag of another command and a missing value', () => {
  const md = [
    '```sh',
    'npx dqform plna                      # unknown verb',
    'npx dqform plan --detailed-exit-code # misspelled',
    'dqform synth --out cdktf.out && dqform validate --max-deletes 3',
    'npx dqform plan --out',
    'npx dqform plan -detailed-exitcode -out=plan.json > plan.txt   # fine: Terraform spellings, the user\'s "#" here',
    "npx dqform emulator --port 0 & dqform plan --target 'dq_owner[\"a # b\"]' # background, a # in quotes",
    '```',
    '```text',
    'dqform nonsense  # not a shell block',
    '```',
  ].join('\n');
  const cmds = dqformCommands(md);
  expect(cmds.map((c) => c.args)).toEqual([['plna'], ['plan', '--detailed-exit-code'], ['synth', '--out', 'cdktf.out'], ['validate', '--max-deletes', '3'], ['plan', '--out'], ['plan', '-detailed-exitcode', '-out=plan.json'], ['emulator', '--port', '0'], ['plan', '--target', 'dq_owner["a # b"]']]);
  expect(cmds.map((c) => refusal(c.args))).toEqual([
    expect.stringMatching(/unknown command 'plna'/),
    expect.stringMatching(/unknown option '--detailed-exit-code'/),
    undefined,
    expect.stringMatching(/unknown option '--max-deletes'/),
    expect.stringMatching(/argument missing/),
    undefined,
    undefined,
    undefined,
  ]);
});
