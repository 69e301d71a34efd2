/**
 * Terraform's habits (issue 26): a Terraform command dqform does not have answers with what to
 * use instead (exit 2), `-input=false` is accepted by every command. In-process through `main`
 * (no emulator: none of these reads live state), one spawned run for the exit status.
 *
 * @gateway-exempt starts no emulator: nothing here reads live state (the heuristic matches the word)
 */
import * as os from 'node:os';
import { main } from '../../src/cli/main';
import { alert, dqform, STACK_FRAME, Workspace } from './helpers';

/** Runs `dqform ...argv` in-process; what it printed and its exit code. */
async function run(argv: string[], extra: { isTty?: boolean; confirm?: (q: string) => Promise<boolean>; cwd?: string } = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(argv, { out: (s) => out.push(s), err: (s) => err.push(s), env: {}, cwd: extra.cwd ?? os.tmpdir(), isTty: extra.isTty ?? false, confirm: extra.confirm });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

describe('Terraform commands dqform does not have answer with what to use instead, exit 2', () => {
  // [argv, what the answer must name]
  const CASES: [string[], RegExp][] = [
    [['refresh'], /dqform plan --refresh-only \(or dqform drift/],
    [['taint', 'dq_alert.a'], /--replace ADDRESS/],
    [['untaint', 'dq_alert.a'], /nothing to do/],
    [['state', 'list'], /dqform list/],
    [['state', 'show', 'dq_alert.a'], /dqform list/],
    [['state', 'rm', 'dq_alert.a'], /removed block with destroy: false/],
    [['state'], /dqform keeps no state.*dqform list/],
    [['init'], /nothing to do: dqform keeps no state.*run dqform synth/],
    [['init', '-input=false'], /nothing to do: dqform keeps no state/],
    [['fmt'], /prettier.*YAML workspaces need nothing/],
    [['workspace', 'select', 'prod'], /namespace.*docs\/environments\.md/],
    [['console'], /dqform has no console/],
    [['providers'], /dqform has no providers/],
    [['graph'], /dqform has no graph/],
    [['login'], /credentials come from the environment/],
    [['help', 'refresh'], /dqform plan --refresh-only/],
  ];
  it.each(CASES)('dqform %j', async (argv, answer) => {
    const r = await run(argv);
    expect(r).toEqual({ code: 2, out: '', err: expect.stringMatching(answer) });
    expect(r.err).not.toMatch(/unknown command/);
  });

  it('any other unknown command keeps the error with its did-you-mean (exit 1)', async () => {
    const r = await run(['refesh']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/unknown command "refesh"/);
    const typo = await run(['plna']);
    expect(typo.err).toMatch(/Did you mean plan\?/);
  });

  it('spawned: exit status 2, the answer on stderr, no stack trace', async () => {
    const r = await dqform(['refresh', '-input=false']);
    expect({ code: r.code, out: r.out }).toEqual({ code: 2, out: '' });
    expect(r.err).toMatch(/^dqform has no "refresh": .*dqform plan --refresh-only/);
    expect(r.err).not.toMatch(STACK_FRAME);
  });
});

describe('-input=false is accepted by every command', () => {
  const ws = new Workspace();
  ws.stack('tf-input', { dq_alert: { a: alert('A') } });
  afterAll(() => ws.remove());

  it.each([['-input=false'], ['--input=false'], ['-input=true']])('validate %s validates; version %s prints the version', async (flag) => {
    const v = await run(['validate', flag], { cwd: ws.dir });
    expect(v).toEqual({ code: 0, out: expect.stringMatching(/Stack tf-input .*valid\./), err: '' });
    const ver = await run(['version', flag]);
    expect(ver.code).toBe(0);
    expect(ver.out).toMatch(/\d+\.\d+\.\d+/);
  });

  it.each([['apply'], ['destroy']])('%s -input=false on a terminal asks nothing: it fails before reading anything, naming --auto-approve', async (verb) => {
    const confirm = jest.fn(async () => true);
    const r = await run([verb, '-input=false'], { cwd: ws.dir, isTty: true, confirm });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/needs confirmation, and -input=false forbids asking\.\n {2}.*or pass --auto-approve\./);
    expect(confirm).not.toHaveBeenCalled();
  });

  it('--input with another value is a usage error; after -- it is left to the command', async () => {
    const r = await run(['validate', '--input=no'], { cwd: ws.dir });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--input takes true or false/);
    const { inputFlag } = await import('../../src/cli/main');
    expect(inputFlag(['emulator', '--', '--input=false'])).toEqual({ argv: ['emulator', '--', '--input=false'], noInput: false });
  });
});
