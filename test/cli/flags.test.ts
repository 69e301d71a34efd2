/**
 * Strict flags, spawned as a user would: a misspelled or unknown flag or command is an error
 * (exit 1, a "did you mean", nothing done), never ignored; Terraform's single-dash spellings and
 * both `--flag=value` / `--flag value` are accepted and do what the double-dash flag does.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import { SCOPES } from '../../schemas/platform/common';
import { startEmulator } from '../../src/emulator';
import { terraformSpellings } from '../../src/cli/main';
import { EMULATOR_USAGE } from '../../src/emulator';
import { alert, dqform, STACK_FRAME, Workspace, type Run } from './helpers';

type Emu = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emu;
const SECRET = 'flags-S3cret-41d8c';
const workspaces: Workspace[] = [];

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  emu.app.addCredential('flags-writer', SECRET, SCOPES);
});
afterAll(async () => {
  await emu.close();
  for (const w of workspaces) w.remove();
});

function workspace(ns: string): Workspace {
  const w = new Workspace();
  workspaces.push(w);
  w.stack(ns, { dq_alert: { a: alert('A') } });
  return w;
}

const env = () => ({ DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'flags-writer', DQ_CLIENT_SECRET: SECRET });

/** Requests the emulator has served so far: a refused command line must not send any. */
const requests = (): number => emu.app.requestCounters().total;

function expectUsageError(r: Run, message: RegExp, suggestion?: string): void {
  expect({ code: r.code, err: r.err }).toEqual({ code: 1, err: expect.stringMatching(message) });
  if (suggestion) expect(r.err).toContain(`Did you mean ${suggestion}?`);
  expect(r.err).toMatch(/Run dqform( [a-z]+)? --help/);
  expect(r.err).not.toMatch(STACK_FRAME);
  expect(r.err).not.toMatch(/Internal error/);
  expect(r.out).toBe('');
}

describe('misspelled and unknown flags and commands exit 1 with a suggestion, and do nothing', () => {
  // [argv, message, suggestion, why]
  const CASES: [string[], RegExp, string | undefined, string][] = [
    [['plan', '--detailed-exit-code'], /unknown option "--detailed-exit-code" for dqform plan/, '--detailed-exitcode', 'the issue: exited 0 with changes pending, a CI gate that never closes'],
    [['plan', '-detailed-exit-code'], /unknown option "--detailed-exit-code"/, '--detailed-exitcode', 'a misspelled single-dash flag is not accepted just because single dashes are'],
    [['apply', '--max-delete=0', '--auto-approve'], /unknown option "--max-delete" for dqform apply/, '--max-deletes', 'the issue: ran a delete with the guard misspelled'],
    [['apply', '--max-delete', '0', '--auto-approve'], /unknown option "--max-delete"/, '--max-deletes', 'the same typo with a separate value'],
    [['apply', '--auto-aprove'], /unknown option "--auto-aprove"/, '--auto-approve', 'a typo of the approval flag'],
    [['apply', '-auto-aprove'], /unknown option "--auto-aprove"/, '--auto-approve', 'the Terraform spelling with a typo'],
    [['plan', '--stak', 'x'], /unknown option "--stak"/, '--stack', 'a typo of a value flag'],
    [['plan', '--no-colour'], /unknown option "--no-colour"/, '--no-color', 'British spelling'],
    [['plan', '--targte', 'dq_alert.a'], /unknown option "--targte"/, '--target', 'a typo of --target: refused, never ignored (the whole plan would run)'],
    [['plan', '-refresh-onl'], /unknown option "--refresh-onl"/, '--refresh-only', 'a typo of a mode flag in the Terraform spelling'],
    [['plan', '--replac', 'dq_alert.a'], /unknown option "--replac"/, '--replace', 'a typo of --replace: an ordinary plan would run instead of the requested replacement'],
    [['apply', '-replase=dq_alert.a', '-auto-approve'], /unknown option "--replase"/, '--replace', 'the Terraform spelling of a typo, with -auto-approve: nothing applied'],
    [['plan', '--stak=analytics-production'], /unknown option "--stak"/, '--stack', 'commander compares --flag=value whole: a long value hid the suggestion'],
    [['apply', '--refresh-onyl', '--auto-approve'], /unknown option "--refresh-onyl"/, '--refresh-only', 'a typo of --refresh-only on apply would have applied the whole plan'],
    [['plan', '--detroy'], /unknown option "--detroy"/, '--destroy', 'a typo of --destroy'],
    [['destroy', '--targte', 'dq_alert.a', '--auto-approve'], /unknown option "--targte" for dqform destroy/, '--target', 'a typo of --target on destroy would destroy the whole namespace'],
    [['apply', '--max-effect-delete', '0', '--auto-approve'], /unknown option "--max-effect-delete"/, '--max-effect-deletes', 'the effect guard misspelled: never silently at its default'],
    [['apply', '--allow-unpreviwed', '--auto-approve'], /unknown option "--allow-unpreviwed"/, '--allow-unpreviewed', 'a typo of the preview waiver'],
    [['plan', '--all-stack'], /unknown option "--all-stack"/, '--all-stacks', 'a typo of --all-stacks'],
    [['drift', '-all-stack'], /unknown option "--all-stack" for dqform drift/, '--all-stacks', 'the same in the Terraform spelling, on drift'],
    [['validate', '--no-synt'], /unknown option "--no-synt" for dqform validate/, '--no-synth', 'a typo of --no-synth'],
    [['plan', '--show-unmanged'], /unknown option "--show-unmanged"/, '--show-unmanaged', 'a typo of --show-unmanaged'],
    [['drift', '--detailed-exit-code'], /unknown option "--detailed-exit-code" for dqform drift/, '--detailed-exitcode', 'drift in a CI gate: the same typo as plan'],
    [['show', 'plan.json', '--fromat', 'json'], /unknown option "--fromat" for dqform show/, '--format', 'show is strict too'],
    [['show', 'plan.json', '--format', 'html'], /--format must be text, markdown or json; got "html"/, undefined, 'show checks --format values'],
    [['apply', '--auto-approve', '--stack'], /--stack needs a value/, undefined, 'a value flag at the end of apply'],
    [['help', 'destory'], /unknown command "destory"/, 'destroy', 'help for a misspelled new verb'],
    [['destory', '--auto-approve'], /unknown command "destory"/, 'destroy', 'a misspelled destroy'],
    [['destroy', '--auto-aprove'], /unknown option "--auto-aprove" for dqform destroy/, '--auto-approve', 'destroy is strict too'],
    [['destroy', '--max-deletes', 'all'], /--max-deletes takes a whole number, got "all"/, undefined, 'destroy keeps apply\'s guard values'],
    [['plan', '--target', 'aws_instance.web'], /--target "aws_instance\.web": aws_instance is not a dqform resource type/, undefined, 'an address of another provider'],
    [['plan', '--destroy', '--replace', 'dq_alert.a'], /--destroy cannot be used with --replace|--replace cannot be used with --destroy/, undefined, 'contradicting modes'],
    [['validate', '--auto-approve'], /unknown option "--auto-approve" for dqform validate/, undefined, 'a flag of another command'],
    [['apply', '--max-deletes', 'many'], /--max-deletes takes a whole number, got "many"/, undefined, 'numeric flags refuse words'],
    [['apply', '--max-deletes=-1'], /--max-deletes takes a whole number, got "-1"/, undefined, 'and negative numbers'],
    [['apply', '--max-deletes', '1.5'], /--max-deletes takes a whole number, got "1.5"/, undefined, 'and fractions'],
    [['apply', '--max-deletes='], /--max-deletes takes a whole number, got ""/, undefined, 'and nothing'],
    [['plan', '--format=htm'], /--format must be text, markdown or json; got "htm"/, undefined, 'a value outside the choices'],
    [['plan', '--json', '--format', 'markdown'], /--json cannot be used with --format/, undefined, 'contradicting output flags'],
    [['plan', '--out'], /--out needs a value/, undefined, 'a value flag at the end'],
    [['plan', 'extra'], /too many arguments for dqform plan: expected at most 0, got 1/, undefined, 'a stray positional (e.g. a plan file given to plan)'],
    [['apply', 'a.json', 'b.json'], /too many arguments for dqform apply: expected at most 1, got 2/, undefined, 'two plan files'],
    [['plna'], /unknown command "plna"/, 'plan', 'a misspelled command'],
    [['help', 'aply'], /unknown command "aply"/, 'apply', 'help for a misspelled command'],
    [['emulator', '--prot', '0'], /unknown option "--prot" for dqform emulator/, '--port', 'the emulator is strict too'],
    [['import', '--namespce', 'x', '--out', 'x.ts'], /unknown option "--namespce"/, '--namespace', 'import'],
  ];

  it.each(CASES)('dqform %j', async (argv, message, suggestion) => {
    const ws = workspace('flags-typo');
    const before = requests();
    const r = await dqform(argv, { cwd: ws.dir, env: env() });
    expectUsageError(r, message, suggestion);
    expect(requests()).toBe(before);
  });
});

describe('accepted spellings do what the documented flag does', () => {
  it('Terraform single-dash flags: plan -detailed-exitcode exits 2 on changes, -out=FILE saves the plan, -no-color, -json', async () => {
    const ws = workspace('flags-tf');
    const [detailed, out, json, drift] = await Promise.all([
      dqform(['plan', '-detailed-exitcode'], { cwd: ws.dir, env: env() }),
      dqform(['plan', '-out=plan.json', '-no-color'], { cwd: ws.dir, env: env() }),
      dqform(['plan', '-json'], { cwd: ws.dir, env: env() }),
      dqform(['drift', '-detailed-exitcode'], { cwd: ws.dir, env: env() }),
    ]);
    expect(detailed.out).toMatch(/Plan: 1 to add/);
    expect(detailed.code).toBe(2);
    expect(out.code).toBe(0);
    expect(out.err).toMatch(/Saved the plan to plan\.json/);
    expect(JSON.parse(fs.readFileSync(ws.path('plan.json'), 'utf8'))).toMatchObject({ namespace: 'flags-tf' });
    // -json is Terraform's stream: one JSON object a line, the version first, the summary last
    const lines = json.out.trim().split('\n').map((l) => JSON.parse(l) as { type: string; stack?: string });
    expect(lines.map((l) => l.type)).toEqual(['version', 'planned_change', 'change_summary']);
    expect(lines[1].stack).toBe('flags-tf');
    expect(drift.code).toBe(2);
  });

  it('--flag=value and --flag value are the same; apply -auto-approve -max-deletes=0 applies a plan without deletions', async () => {
    const ws = workspace('flags-eq');
    const [eq, space] = await Promise.all([
      dqform(['plan', '--format=markdown', '--stack=flags-eq'], { cwd: ws.dir, env: env() }),
      dqform(['plan', '--format', 'markdown', '--stack', 'flags-eq'], { cwd: ws.dir, env: env() }),
    ]);
    expect(eq.code).toBe(0);
    expect(eq.out).toMatch(/^### dqform plan: `flags-eq`/);
    expect(eq.out).toBe(space.out);
    const applied = await dqform(['apply', '-auto-approve', '-max-deletes=0'], { cwd: ws.dir, env: env() });
    expect(applied.out).toMatch(/Apply complete: 1 applied/);
    expect(applied.code).toBe(0);
  });

  it('help: dqform help plan, dqform plan --help, dqform plan -help and -h print the same, exit 0', async () => {
    const runs = await Promise.all([['help', 'plan'], ['plan', '--help'], ['plan', '-help'], ['plan', '-h']].map((a) => dqform(a)));
    for (const r of runs) {
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^Usage: dqform plan \[options\]/);
      expect(r.out).toMatch(/--detailed-exitcode/);
      expect(r.out).toBe(runs[0].out);
    }
  });

  it.each([
    ['destroy', /^Usage: dqform destroy \[options\]/, ['--target', '--auto-approve', '--max-deletes', '--max-effect-deletes', '--allow-unpreviewed', '--show-unmanaged', '--no-synth']],
    ['show', /^Usage: dqform show \[options\] <?PLANFILE>?/i, ['--format', '--json', '--show-unmanaged']],
    ['apply', /^Usage: dqform apply \[options\]/, ['--target', '--replace', '--refresh-only', '--destroy', '--max-effect-deletes', '--allow-unpreviewed']],
  ])('dqform help %s lists its flags (the same as %s --help)', async (verb, usage, flags) => {
    const [help, dashed] = await Promise.all([dqform(['help', verb]), dqform([verb, '--help'])]);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(usage);
    for (const f of flags) expect(help.out).toMatch(new RegExp(`^ +(-\\w, )?${f}\\b`, 'm'));
    expect(help.out).toBe(dashed.out);
  });

  it('-version and version print the version', async () => {
    const [a, b] = await Promise.all([dqform(['-version']), dqform(['version'])]);
    expect(a.code).toBe(0);
    expect(a.out.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(b.out).toBe(a.out);
  });
});

it('dqform emulator accepts every flag the emulator parses (EMULATOR_USAGE): the two lists cannot drift apart', async () => {
  const flags = [...EMULATOR_USAGE.matchAll(/\[(--[a-z-]+)/g)].map((m) => m[1]);
  expect(flags).toEqual(expect.arrayContaining(['--port', '--data', '--seed', '--marshal', '--enums']));
  const help = await dqform(['emulator', '--help']);
  expect(help.code).toBe(0);
  for (const f of flags) expect(help.out).toContain(`${f} `);
  // And the strict parser lets each through to the emulator's own check (a bad value, not an unknown flag).
  const r = await dqform(['emulator', '--marshal', 'sometimes']);
  expect(r.code).toBe(1);
  expect(r.err).toMatch(/--marshal takes omit or emit-unpopulated, got "sometimes"/);
});

describe('terraformSpellings', () => {
  it.each([
    [['plan', '-detailed-exitcode'], ['plan', '--detailed-exitcode'], 'a Terraform flag'],
    [['plan', '-out=p.json'], ['plan', '--out=p.json'], 'with a value'],
    [['plan', '-h'], ['plan', '-h'], 'a single letter stays a short flag'],
    [['apply', '--max-deletes', '-1'], ['apply', '--max-deletes', '-1'], 'a negative number is a value, not a flag'],
    [['plan', '--detailed-exitcode'], ['plan', '--detailed-exitcode'], 'double dashes are untouched'],
    [['emulator', '--', '-json'], ['emulator', '--', '-json'], 'nothing after --'],
  ])('%j -> %j (%s)', (argv, expected) => {
    expect(terraformSpellings(argv)).toEqual(expected);
  });
});
