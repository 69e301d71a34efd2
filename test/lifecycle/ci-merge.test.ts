/**
 * The CI example's merge path, run for real: the workflow's plan step (a PR), its PR comment
 * script and its apply job (the reviewed-run search with a fake GitHub, then the apply step's
 * shell script) applied examples/acme to an empty namespace of an emulator process, as
 * bash runs them in GitHub Actions. The credentialed steps run in a directory holding only the
 * synth job's artifact (cdktf.out, no app) with `dqform` on PATH (here: this checkout's dqform,
 * as the install step puts the dqform job's build there). The apply matches the reviewed plan
 * (harness), and the next plan is empty.
 *
 * @gateway
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'yaml';
import { build as buildAcme } from '../../examples/acme/main';
import type { Plan } from '../../schemas/model/plan';
import { baseEnv, LAUNCHER, ROOT } from '../cli/helpers';
import { synth } from '../constructs/synth';
import { compareWithPlan, startEmulatorProcess, Scenario, unexplainedMissing, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

interface Step {
  name?: string;
  id?: string;
  run?: string;
  with?: Record<string, unknown>;
}
const wf = parse(fs.readFileSync(path.join(ROOT, 'examples', 'ci', '.github', 'workflows', 'dqform.yml'), 'utf8')) as { jobs: Record<string, { steps: Step[] }> };
const step = (job: string, pred: (s: Step) => boolean) => wf.jobs[job].steps.find(pred)!;
type ScriptFn = (...args: unknown[]) => Promise<void>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => ScriptFn;

/** Runs a workflow step's `run` script with bash -e (GitHub's default shell), `dqform` on PATH being this checkout's dqform. */
function bash(script: string, cwd: string, env: Record<string, string | undefined>): Promise<{ code: number | null; out: string; err: string }> {
  const bin = path.join(cwd, '.runner-temp', 'dqform-bin');
  fs.mkdirSync(bin, { recursive: true });
  fs.writeFileSync(path.join(bin, 'dqform'), `#!/bin/sh\nexec "${process.execPath}" "${LAUNCHER}" "$@"\n`, { mode: 0o755 });
  const PATH = `${bin}:${path.dirname(process.execPath)}:${baseEnv().PATH}`;
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env: baseEnv({ ...env, PATH }), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (err += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

it('CI merge path: the PR plan of acme from an empty namespace, its comment (no guard refuses it), then the apply job applies the reviewed plan with exit 0 and the next plan is empty', async () => {
  const s = new Scenario(emu);
  try {
    s.stack('acme', synth(buildAcme, 'acme').json as never);
    const summary = s.path('summary.md');
    const env = { ...s.env(), STACK: 'acme', GITHUB_STEP_SUMMARY: summary, DQ_MAX_DELETES: '10', DQ_MAX_EFFECT_DELETES: '100' };

    // the synth job's stack list (cdktf.out/manifest.json, as cdktf writes it), the matrix of the credentialed jobs
    fs.writeFileSync(s.path('cdktf.out', 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: { acme: {} } }));
    const listed = await bash(step('synth', (x) => x.id === 'list').run!, s.dir, { ...env, GITHUB_OUTPUT: s.path('.github-output') });
    expect({ code: listed.code, out: fs.readFileSync(s.path('.github-output'), 'utf8') }).toEqual({ code: 0, out: 'stacks=["acme"]\n' });

    // the PR: the plan job's check of the stack's platform (acme sets none), validate, then its plan step
    const check = await bash(step('plan', (x) => x.name === "check the stack's platform").run!, s.dir, { ...env, ALLOWED: '' });
    expect({ code: check.code, err: check.err }).toEqual({ code: 0, err: '' });
    expect(fs.readdirSync(s.dir).filter((f) => !f.startsWith('.')).sort()).toEqual(['cdktf.out']); // no app, no cdktf.json, no node_modules
    const validated = await bash(step('plan', (x) => /^\s*dqform validate /m.test(x.run ?? '')).run!, s.dir, { STACK: 'acme', NO_COLOR: '1' });
    expect(validated.code).toBe(0);
    const planStep = step('plan', (x) => x.name === 'dqform plan');
    const planned = await bash(planStep.run!, s.dir, env);
    expect({ code: planned.code, err: planned.err.match(/::error::.*/g) }).toEqual({ code: 0, err: null });
    const plan = JSON.parse(fs.readFileSync(s.path('plan-acme.json'), 'utf8')) as Plan;
    expect(fs.readFileSync(s.path('plan-acme.md'), 'utf8')).toContain('Effects known after apply for 1 change(s).');

    // the PR comment: no guard would refuse the merge
    fs.mkdirSync(s.path('plans'));
    for (const f of ['plan-acme.json', 'plan-acme.md', 'plan-acme.exit']) fs.copyFileSync(s.path(f), s.path('plans', f));
    const comment = new AsyncFunction('github', 'context', 'core', 'require', String(step('comment', (x) => !!x.with?.script).with!.script));
    const posted: string[] = [];
    const github = { paginate: async () => [], rest: { pulls: { get: async () => ({ data: { head: { sha: 'abcdef1234567' } } }) }, issues: { listComments: () => undefined, createComment: async (a: { body: string }) => void posted.push(a.body) } } };
    const cwd = process.cwd();
    process.env.STACKS = JSON.stringify(['acme']);
    process.chdir(s.dir);
    try {
      await comment(github, { repo: { owner: 'o', repo: 'r' }, serverUrl: 'https://github.com', runId: 7, runNumber: 7, payload: { pull_request: { number: 3, head: { sha: 'abcdef1234567' } } } }, { info: () => undefined }, require);
    } finally {
      process.chdir(cwd);
      delete process.env.STACKS;
    }
    expect(posted).toHaveLength(1);
    expect(posted[0]).toContain('Merging applies exactly these plans');
    expect(posted[0]).not.toMatch(/refuse/i);

    // the merge: the reviewed-run search (a merged PR without labels), then the apply step
    const reviewed = new AsyncFunction('github', 'context', 'core', 'require', String(step('apply', (x) => x.id === 'reviewed').with!.script));
    const outputs: Record<string, string> = {};
    const failed: string[] = [];
    process.env.GITHUB_WORKFLOW_REF = 'o/r/.github/workflows/dqform.yml@refs/heads/main';
    try {
      await reviewed(
        {
          rest: {
            repos: { listPullRequestsAssociatedWithCommit: async () => ({ data: [{ number: 3, merged_at: '2026-11-27T00:00:00Z', base: { ref: 'main' }, head: { sha: 'abcdef1234567' }, labels: [] }] }) },
            actions: { listWorkflowRunsForRepo: async () => ({ data: { workflow_runs: [{ id: 7, path: '.github/workflows/dqform.yml', conclusion: 'success', run_number: 1, html_url: 'u' }] } }) },
          },
        },
        { eventName: 'push', sha: 'merge000', repo: { owner: 'o', repo: 'r' }, payload: {} },
        { setOutput: (k: string, v: string) => (outputs[k] = v), setFailed: (m: string) => failed.push(m), info: () => undefined },
        require,
      );
    } finally {
      delete process.env.GITHUB_WORKFLOW_REF;
    }
    expect(failed).toEqual([]);
    const applyStep = step('apply', (x) => /^\s*dqform apply /m.test(x.run ?? ''));
    const before = await emu.state();
    const applied = await bash(applyStep.run!, s.dir, { ...env, MAX_DELETES: outputs['max-deletes'], MAX_EFFECT_DELETES: outputs['max-effect-deletes'], ALLOW_UNPREVIEWED: outputs['allow-unpreviewed'] });
    expect({ code: applied.code, err: applied.err.match(/Error:.*|FAILED.*/g) }).toEqual({ code: 0, err: null });
    expect(applied.out).toMatch(/Apply complete: 35 applied, 0 failed, 0 not attempted/);
    const cmp = compareWithPlan(plan, before, await emu.state());
    expect(cmp.unexpected).toEqual([]);
    // see known-after-apply.test.ts: the plan warns of the monitors that rules written together take from each other
    expect(unexplainedMissing(plan, cmp.missing)).toEqual([]);

    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
    // the nightly drift step on the applied namespace: no drift, exit 0
    const drift = await bash(step('drift', (x) => x.name === 'dqform drift').run!, s.dir, env);
    expect({ code: drift.code, out: drift.out.trim().split('\n').pop() }).toEqual({ code: 0, out: expect.stringMatching(/No drift/i) });
  } finally {
    s.remove();
  }
});
