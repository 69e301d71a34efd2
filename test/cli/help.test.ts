/**
 * `dqform` without any server: --version, --help, each command's --help, usage mistakes. Every
 * run is a real child process; a user mistake gives a diagnostic and exit 1, never a stack trace.
 *
 * @gateway-exempt reads `dqform help` output only: the emulator it starts answers nothing the test reads
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { dqform, ROOT, STACK_FRAME } from './helpers';

const VERSION = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;

it('--version prints the package version and exits 0', async () => {
  const r = await dqform(['--version']);
  expect(r.code).toBe(0);
  expect(r.out.trim()).toBe(VERSION);
  expect(r.err).toBe('');
});

it('--help lists the commands and exits 0; each listed command has its own --help with usage, exit 0', async () => {
  const r = await dqform(['--help']);
  expect(r.code).toBe(0);
  expect(r.out).toMatch(/Usage: dqform <command>/);
  const section = r.out.split(/^Commands:$/m)[1] ?? '';
  const commands = [...section.matchAll(/^ {2}([a-z]+) {2,}/gm)].map((m) => m[1]);
  // The contract of design.md: these are always listed (import too, once it is built).
  expect(commands).toEqual(expect.arrayContaining(['synth', 'validate', 'plan', 'apply', 'drift', 'emulator']));
  const runs = await Promise.all(commands.map((c) => dqform([c, '--help']).then((x) => ({ c, ...x }))));
  for (const x of runs) {
    expect({ c: x.c, code: x.code }).toEqual({ c: x.c, code: 0 });
    expect(x.out).toContain(`Usage: dqform ${x.c}`);
    expect(x.err).not.toMatch(STACK_FRAME);
  }
  // The flags design.md promises appear in the help of their command.
  const help = Object.fromEntries(runs.map((x) => [x.c, x.out]));
  expect(help.plan).toMatch(/--detailed-exitcode/);
  expect(help.plan).toMatch(/--format text\|markdown\|json/);
  expect(help.plan).toMatch(/--out FILE/);
  expect(help.apply).toMatch(/--auto-approve/);
  expect(help.apply).toMatch(/--max-deletes N/);
  expect(help.emulator).toMatch(/--port N/);
});

it('an unknown command and a flag without its value exit 1 with a diagnostic and no stack trace', async () => {
  const [unknown, noValue] = await Promise.all([dqform(['frobnicate']), dqform(['plan', '--stack'])]);
  expect(unknown.code).toBe(1);
  expect(unknown.err).toMatch(/unknown command "frobnicate"/);
  expect(unknown.err).toMatch(/dqform --help/);
  expect(noValue.code).toBe(1);
  expect(noValue.err).toMatch(/--stack needs a value/);
  for (const r of [unknown, noValue]) {
    expect(r.err).not.toMatch(STACK_FRAME);
    expect(r.err).not.toMatch(/Internal error/);
  }
});

it('no command at all prints the help and exits 1 (a usage mistake)', async () => {
  const r = await dqform([]);
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/Usage: dqform <command>/);
});

it('apply --help says what apply does: with PLANFILE the mode flags the plan was made with must be stated again (as apply demands), without it plan and ask', async () => {
  const [help, unstated] = await Promise.all([dqform(['apply', '--help']), dqform(['apply', '--replace', 'dq_owner.x', 'missing-plan.json'])]);
  expect(help.code).toBe(0);
  const text = help.out.replace(/\s+/g, ' ');
  expect(text).not.toMatch(/cannot be given with PLANFILE/);
  expect(text).toContain('A saved plan records its mode, and apply of that file must state the same mode flags it was made with (none for a normal plan)');
  expect(text).toContain('dqform plan --replace dq_owner.x --out p.json then dqform apply --replace dq_owner.x p.json');
  expect(text).toContain('Without PLANFILE: plans (--destroy, --target and --replace as in dqform plan)');
  expect(text).toContain('previewed once that object exists');
  // the mode flags are accepted with a PLANFILE (here the file is missing: that is the error)
  expect(unstated.code).toBe(1);
  expect(unstated.err).toMatch(/cannot read plan file missing-plan\.json/);
  expect(unstated.err).not.toMatch(/cannot be given/);
});
