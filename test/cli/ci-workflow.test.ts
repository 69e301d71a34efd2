/**
 * examples/ci/.github/workflows/dqform.yml: parses as YAML, has the triggers and jobs the README
 * documents, runs on a current Node LTS with checkout and setup-node pinned by SHA, builds dqform
 * in the run (dqform is not published), runs the pull request's code only in a synth job without
 * secrets (the credentialed jobs check out nothing, run no npm and read its cdktf.out artifact),
 * maps the per-stack credential secrets of docs/environments.md, wires DQ_BASE_URL, passes
 * secrets only through step env, applies only a reviewed plan, and offers a path when a merged
 * plan went stale. Its shell steps (stack list, tool install, platform check) run with bash; its
 * two scripts run end to end against a fake GitHub: the PR comment (checked for its content:
 * every stack's plan, failed and missing plans, every guard with its label) and the apply job's
 * search for the reviewed plan run.
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { LAUNCHER, ROOT } from './helpers';

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, unknown>;
}
interface Job {
  if?: string;
  needs?: string | string[];
  environment?: string;
  permissions?: Record<string, string>;
  strategy?: { matrix?: Record<string, unknown>; 'fail-fast'?: boolean };
  'timeout-minutes'?: number;
  steps: Step[];
}
interface Workflow {
  concurrency: { group: string; 'cancel-in-progress': string };
  on: Record<string, unknown> & { workflow_dispatch: { inputs: Record<string, { type: string; options?: string[] }> } };
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILE = path.join(ROOT, 'examples', 'ci', '.github', 'workflows', 'dqform.yml');
const text = fs.readFileSync(FILE, 'utf8');
const wf = parse(text, { prettyErrors: true }) as Workflow;
const steps = Object.entries(wf.jobs).flatMap(([job, j]) => j.steps.map((s) => ({ job, ...s })));
const runs = (job: string) => wf.jobs[job].steps.map((s) => s.run ?? '').join('\n');
/** The jobs that hold secrets (an environment with secrets): they must never run the pull request's code. */
const CREDENTIALED = ['plan', 'apply', 'drift'];
const scriptOf = (job: string, id?: string) => String(wf.jobs[job].steps.find((s) => s.uses?.startsWith('actions/github-script@') && (!id || s.id === id))!.with?.script);

type ScriptFn = (...args: unknown[]) => Promise<void>;
const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => ScriptFn;
/** A github-script step's script as the action runs it: an async function of (github, context, core, require). */
const compile = (script: string) => new AsyncFunction('github', 'context', 'core', 'require', script);

describe('structure', () => {
  it('triggers: pull requests and pushes to main, a nightly schedule, and manual drift / plan / apply runs', () => {
    // a paths filter: a change to the docs alone plans nothing (issue 26)
    const paths = ['**', '!**.md', '!docs/**'];
    expect(wf.on.pull_request).toEqual({ branches: ['main'], paths });
    expect(wf.on.push).toEqual({ branches: ['main'], paths });
    expect(wf.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }]);
    const inputs = wf.on.workflow_dispatch.inputs;
    expect(inputs.action.options).toEqual(['drift', 'plan', 'apply']);
    expect(inputs['plan-run-id'].type).toBe('string');
    expect(inputs['allow-deletes'].type).toBe('boolean');
    // one input per guard of apply that a reviewer may lift
    expect(inputs['allow-effect-deletes'].type).toBe('boolean');
    expect(inputs['allow-unpreviewed'].type).toBe('boolean');
    expect(wf.permissions).toEqual({ contents: 'read' });
  });

  it('env: DQ_REGION, DQ_BASE_URL and DQ_MAX_DELETES come from repository variables', () => {
    expect(wf.env.DQ_REGION).toBe("${{ vars.DQ_REGION || 'eu' }}");
    expect(wf.env.DQ_BASE_URL).toBe('${{ vars.DQ_BASE_URL }}');
    expect(wf.env.DQ_MAX_DELETES).toBe("${{ vars.DQ_MAX_DELETES || '10' }}");
  });

  it('jobs: dqform is fetched once, synth (the only job running the code) lists the stacks, then plan/apply/drift as a matrix and one comment job', () => {
    expect(Object.keys(wf.jobs).sort()).toEqual(['apply', 'comment', 'dqform', 'drift', 'plan', 'synth']);
    expect(wf.jobs.synth.needs).toBe('dqform');
    for (const job of ['plan', 'apply', 'drift']) {
      const j = wf.jobs[job];
      // apply also waits for this run's plan: a direct push to main applies it
      expect(j.needs).toEqual(job === 'apply' ? ['dqform', 'synth', 'plan'] : ['dqform', 'synth']);
      expect(j.strategy?.matrix?.stack).toBe('${{ fromJSON(needs.synth.outputs.stacks) }}');
      expect(j.strategy?.['fail-fast']).toBe(false);
    }
    expect(wf.jobs.plan.if).toBe("github.event_name == 'pull_request' || github.event_name == 'push' || (github.event_name == 'workflow_dispatch' && inputs.action == 'plan')");
    // a merge applies the reviewed run's plans even if this run's own plan job failed
    expect(wf.jobs.apply.if).toBe("${{ !cancelled() && needs.dqform.result == 'success' && needs.synth.result == 'success' && (github.event_name == 'push' || (github.event_name == 'workflow_dispatch' && inputs.action == 'apply')) }}");
    expect(wf.jobs.drift.if).toBe("github.event_name == 'schedule' || (github.event_name == 'workflow_dispatch' && inputs.action == 'drift')");
    expect(wf.jobs.comment.needs).toEqual(['synth', 'plan']);
    // a run cancelled by a newer push does not comment (always() would)
    expect(wf.jobs.comment.if).toBe("${{ !cancelled() && github.event_name == 'pull_request' && needs.synth.result == 'success' }}");
  });

  it('the active Node LTS (26 since 2026-10-28; 24 is in maintenance, 20 end of life since 2026-04-30) and current action majors, nothing else', () => {
    const setups = steps.filter((s) => s.uses?.startsWith('actions/setup-node@'));
    expect(setups.length).toBe(5); // dqform, synth, plan, apply, drift
    for (const s of setups) expect(s.with?.['node-version']).toBe(26);
    // every action pinned by commit, the tag each SHA was read from in the comment (issue 26);
    // checkout and setup-node as in .github/workflows/ci.yml, the others read from the actions'
    // repositories (github-script: v8.0.0 is the newest release whose commit could be verified)
    const PINNED: Record<string, string> = {
      'actions/checkout': '3d3c42e5aac5ba805825da76410c181273ba90b1 # v7.0.1',
      'actions/setup-node': '820762786026740c76f36085b0efc47a31fe5020 # v7.0.0',
      'actions/upload-artifact': 'bbbca2ddaa5d8feaa63e36b76fdaad77386f024f # v7.0.0',
      'actions/download-artifact': '3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c # v8.0.1',
      'actions/github-script': 'ed597411d8f924073f98dfc5c65a23a2325f34cd # v8.0.0',
    };
    const usesLines = text.split('\n').filter((l) => /^\s*(- )?uses: /.test(l));
    expect(usesLines.length).toBe(steps.filter((x) => x.uses).length);
    for (const l of usesLines) {
      const [name, rest] = l.replace(/^\s*(- )?uses: /, '').split('@');
      expect({ name, rest }).toEqual({ name, rest: PINNED[name] });
    }
    const ci = fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8');
    for (const name of ['actions/checkout', 'actions/setup-node']) expect(ci).toContain(`uses: ${name}@${PINNED[name]}`);
  });

  it('dqform comes from a pinned package (through the npm cache, no dev dependencies, no build): the workspace installs the same package, the other jobs unpack the tool checked against its digest (no npm)', () => {
    const build = wf.jobs.dqform.steps;
    expect(build.some((x) => x.uses?.startsWith('actions/checkout@'))).toBe(false);
    expect(runs('dqform')).not.toMatch(/npm (ci|run|pack --pack-destination)|npm run build|tsc/);
    expect(build[0].env).toEqual({ PACKAGE: '${{ vars.DQFORM_PACKAGE }}', PACKAGE_SHA256: '${{ vars.DQFORM_PACKAGE_SHA256 }}' });
    expect(build.find((x) => x.uses?.startsWith('actions/setup-node@'))!.with).toEqual({ 'node-version': 26, cache: 'npm', 'cache-dependency-path': 'dqform-pin.txt' });
    expect(runs('dqform')).toMatch(/npm install --omit=dev --ignore-scripts/);
    expect((wf.jobs.dqform as Job & { outputs?: Record<string, string> }).outputs).toEqual({ 'tool-sha256': '${{ steps.tool.outputs.tool-sha256 }}', version: '${{ steps.tool.outputs.version }}' });
    expect(build.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.with).toMatchObject({ name: 'dqform-package', 'if-no-files-found': 'error' });
    const js = wf.jobs.synth.steps;
    // the workspace's lockfile pins dqform (a normal install that stays, no --no-save); it must be the tool's version
    const install = js.find((s) => /npm ci/.test(s.run ?? ''))!;
    expect(install.if).toBe("steps.kind.outputs.kind == 'cdktf'");
    expect(install.env).toEqual({ DQFORM_VERSION: '${{ needs.dqform.outputs.version }}' });
    expect(text).not.toMatch(/--no-save/);
    expect(js.findIndex((s) => /^npx dqform synth$/.test((s.run ?? '').trim()))).toBe(js.indexOf(install) + 1);
    expect(js.find((s) => s.uses?.startsWith('actions/setup-node@'))!.with?.cache).toBe("${{ steps.kind.outputs.kind == 'cdktf' && 'npm' || '' }}");
    for (const job of ['synth', ...CREDENTIALED]) {
      const cs = wf.jobs[job].steps;
      const tool = cs.findIndex((s) => s.uses?.startsWith('actions/download-artifact@') && s.with?.name === 'dqform-package');
      const installAt = cs.findIndex((s) => /sha256sum --check --strict/.test(s.run ?? ''));
      const firstUse = cs.findIndex((s) => /^\s*dqform (plan|apply|drift|validate)|dqform-tool\/node_modules|npm ci/m.test(s.run ?? ''));
      expect({ job, ok: tool >= 0 && installAt > tool && firstUse > installAt, digest: cs[installAt]?.env?.TOOL_SHA256 }).toEqual({ job, ok: true, digest: '${{ needs.dqform.outputs.tool-sha256 }}' });
    }
  });

  it('a concurrency group per pull request cancels its older run; pushes to main and other runs are never cancelled or replaced', () => {
    expect(wf.concurrency).toEqual({
      group: "dqform-${{ github.event_name == 'pull_request' && format('pr-{0}', github.event.pull_request.number) || format('run-{0}', github.run_id) }}",
      'cancel-in-progress': "${{ github.event_name == 'pull_request' }}",
    });
    // applies of one stack still queue, never cancelled
    expect((wf.jobs.apply as Job & { concurrency?: unknown }).concurrency).toEqual({ group: 'dqform-apply-${{ matrix.stack }}', 'cancel-in-progress': false });
  });

  it('every job has a timeout (a hung apply does not hold its slot for 6 hours)', () => {
    const timeouts = Object.fromEntries(Object.entries(wf.jobs).map(([n, j]) => [n, j['timeout-minutes']]));
    expect(timeouts).toEqual({ dqform: 10, synth: 15, plan: 20, comment: 5, apply: 30, drift: 20 });
  });

  it('plan writes plan-<stack>.json and its markdown (also to the run summary) and uploads them as plan-<stack>', () => {
    expect(runs('plan')).toMatch(/\bdqform plan "\$\{src\[@\]\}" --stack "\$STACK" --out "plan-\$STACK\.json" --format markdown > "plan-\$STACK\.md"/);
    expect(runs('plan')).toMatch(/cat "plan-\$STACK\.md" >> "\$GITHUB_STEP_SUMMARY"/);
    const upload = wf.jobs.plan.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if).toBe('always()');
    expect(upload.with?.name).toBe('plan-${{ matrix.stack }}');
    expect(String(upload.with?.path)).toContain('plan-${{ matrix.stack }}.json');
  });

  it('apply applies exactly the reviewed plan with the limit the reviewed step decided, never --auto-approve', () => {
    const apply = wf.jobs.apply;
    const download = apply.steps.find((s) => s.uses?.startsWith('actions/download-artifact@') && String(s.with?.name).startsWith('plan-'))!;
    expect(download.with).toMatchObject({ name: 'plan-${{ matrix.stack }}', 'run-id': '${{ steps.reviewed.outputs.run-id }}' });
    expect(runs('apply')).toMatch(/\bdqform apply "plan-\$STACK\.json" "\$\{src\[@\]\}" --stack "\$STACK" --max-deletes "\$MAX_DELETES" --max-effect-deletes "\$MAX_EFFECT_DELETES" "\$\{extra\[@\]\}"/);
    expect(runs('apply')).toMatch(/if \[ "\$ALLOW_UNPREVIEWED" = "true" \]; then extra\+=\(--allow-unpreviewed\); fi/);
    const env = apply.steps.find((s) => /\bdqform apply/.test(s.run ?? ''))!.env!;
    expect(env.MAX_EFFECT_DELETES).toBe('${{ steps.reviewed.outputs.max-effect-deletes }}');
    expect(env.ALLOW_UNPREVIEWED).toBe('${{ steps.reviewed.outputs.allow-unpreviewed }}');
    // apply checks the plan against the desired state it was made from: this commit's synth (this
    // run's synth job, artifact cdktf-out, not the reviewed run's), downloaded before apply
    const cdktfOut = apply.steps.findIndex((s) => s.uses?.startsWith('actions/download-artifact@') && s.with?.name === 'desired-state');
    expect(apply.steps[cdktfOut]?.with).toEqual({ name: 'desired-state' });
    expect(cdktfOut).toBeLessThan(apply.steps.findIndex((s) => /\bdqform apply/.test(s.run ?? '')));
    expect(apply.steps.find((s) => /\bdqform apply/.test(s.run ?? ''))!.env?.MAX_DELETES).toBe('${{ steps.reviewed.outputs.max-deletes }}');
    expect(text).not.toMatch(/--auto-approve/);
    expect(apply.permissions).toMatchObject({ actions: 'read' });
  });

  it('a refused apply says what to do after the merge: plan on main, review, apply that run (never "merge again")', () => {
    const explain = wf.jobs.apply.steps.find((s) => s.if === 'failure()')!;
    expect(explain.run).toMatch(/stale plan/);
    expect(explain.run).toMatch(/action=plan/);
    expect(explain.run).toMatch(/action=apply and plan-run-id/);
    expect(explain.run).toMatch(/No new pull request is needed/);
    expect(text).not.toMatch(/merge again/i);
  });

  it('drift fails the job on exit 2', () => {
    expect(runs('drift')).toMatch(/\bdqform drift "\$\{src\[@\]\}" --stack "\$STACK"/);
    expect(runs('drift')).toMatch(/exit "\$code"/);
  });

  it('read scopes for plan and drift, write scopes only for apply (separate environments)', () => {
    expect(wf.jobs.plan.environment).toBe('dqform-read');
    expect(wf.jobs.drift.environment).toBe('dqform-read');
    expect(wf.jobs.apply.environment).toBe('dqform-apply');
    for (const job of ['dqform', 'synth', 'comment']) expect(JSON.stringify(wf.jobs[job])).not.toMatch(/secrets\./);
  });

  it('secrets reach dqform only through step env: never in a run line, never echoed, no shell tracing', () => {
    const secretEnvSteps = steps.filter((s) => Object.values(s.env ?? {}).some((v) => /secrets\./.test(v)));
    expect(secretEnvSteps.map((s) => s.job).sort()).toEqual(['apply', 'drift', 'plan']);
    for (const s of secretEnvSteps) {
      expect(s.env).toEqual(expect.objectContaining({ DQ_CLIENT_ID: '${{ secrets.DQ_CLIENT_ID }}', DQ_CLIENT_SECRET: '${{ secrets.DQ_CLIENT_SECRET }}' }));
      expect(s.run).toMatch(/^\s*if \[ -d cdktf\.out \]; then src=\(--dir cdktf\.out\); else src=\(--file dqform\.yaml\); fi\n\s*dqform (plan|apply|drift) [^\n]*"\$\{src\[@\]\}" /m);
    }
    for (const s of steps) {
      const run = s.run ?? '';
      expect(run).not.toMatch(/secrets\./);
      expect(run).not.toMatch(/DQ_CLIENT_SECRET/);
      expect(run).not.toMatch(/set -[a-z]*x|set -o xtrace|\benv\b\s*$|printenv/m);
      expect(JSON.stringify(s.with ?? {})).not.toMatch(/secrets\./);
    }
    // each secret mapped to the variable of the same name (a stack's credentialsFrom names it)
    for (const s of secretEnvSteps) for (const [k, v] of Object.entries(s.env!)) if (/secrets\./.test(v)) expect(v).toBe(`\${{ secrets.${k} }}`);
    expect([...new Set(text.match(/secrets\.\w+/g))].every((n) => /^secrets\.DQ_(\w+_)?CLIENT_(ID|SECRET)$/.test(n))).toBe(true);
  });

  it("the pull request's code runs only in the synth job (no secrets, no environment); no job that holds a secret checks it out, installs it or synthesises it (issue 23)", () => {
    // pull_request only: never pull_request_target or workflow_run, which hand secrets to a run a fork starts
    expect(Object.keys(wf.on).sort()).toEqual(['pull_request', 'push', 'schedule', 'workflow_dispatch']);
    const holdsSecrets = (j: Job) => j.environment !== undefined || /secrets\./.test(JSON.stringify(j));
    expect(Object.entries(wf.jobs).filter(([, j]) => holdsSecrets(j)).map(([n]) => n).sort()).toEqual([...CREDENTIALED].sort());
    for (const job of CREDENTIALED) {
      const j = wf.jobs[job];
      for (const s of j.steps) {
        // nothing of the pull request on disk to run: no checkout at all (dqform is the dqform job's build)
        expect({ job, uses: s.uses?.split('@')[0] }).not.toEqual({ job, uses: 'actions/checkout' });
        // no package manager (install scripts), no synth, no app runner, no restored cache (a cache the synth job saved could plant files)
        const run = s.run ?? '';
        expect({ job, step: s.name ?? run.slice(0, 40), runsCode: /\bnpm (ci|install|i|run|exec|rebuild)\b(?![^\n]*--ignore-scripts)|\bnpx\b|\byarn\b|\bpnpm\b|dqform synth|\btsx\b|ts-node|\bcdktf (synth|get|deploy)\b/.test(run) }).toEqual({ job, step: s.name ?? run.slice(0, 40), runsCode: false });
        expect({ job, cache: s.with?.cache }).toEqual({ job, cache: undefined });
      }
      // the desired state is the synth job's output, downloaded as data, and every dqform command reads it
      expect(j.steps.find((s) => s.with?.name === 'desired-state')?.with).toEqual({ name: 'desired-state' });
      const commands = runs(job).split('\n').filter((l) => /^\s*dqform /.test(l));
      expect(commands.length).toBeGreaterThan(0);
      // --dir cdktf.out (parsed as JSON) or --file dqform.yaml (parsed as YAML): data, never code
      for (const l of commands) expect(l).toMatch(/^\s*dqform (plan|apply|drift|validate) [^\n]*"\$\{src\[@\]\}"/);
      for (const st of j.steps.filter((x) => /^\s*dqform /m.test(x.run ?? ''))) expect(st.run).toMatch(/^\s*if \[ -d cdktf\.out \]; then src=\(--dir cdktf\.out\); else src=\(--file dqform\.yaml\); fi$/m);
    }
    const synth = wf.jobs.synth;
    expect(synth.environment).toBeUndefined();
    expect(JSON.stringify(synth)).not.toMatch(/secrets\.|_CLIENT_SECRET|_CLIENT_ID/);
    expect(synth.permissions).toEqual({ contents: 'read' });
    // the token is not left in .git/config for the app to read
    expect(synth.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!.with).toEqual({ 'persist-credentials': false });
    expect(synth.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!.with).toMatchObject({ name: 'desired-state', path: '${{ runner.temp }}/desired-state', 'if-no-files-found': 'error' });
    expect(text).not.toMatch(/--allow-secret-env/);
    expect(text).not.toMatch(/--no-synth/);
  });

  it('every credentialsFrom variable docs/environments.md uses is mapped from the secret of that name in each credentialed step (GitHub passes only mapped secrets)', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'environments.md'), 'utf8');
    const named = [...doc.matchAll(/credentialsFrom:[^\n]*/g)].flatMap((m) => m[0].match(/\b[A-Z][A-Z0-9_]*\b/g) ?? []);
    const names = [...new Set(named)].sort();
    expect(names).toEqual(expect.arrayContaining(['DQ_PROD_CLIENT_ID', 'DQ_PROD_CLIENT_SECRET', 'DQ_STAGING_CLIENT_ID', 'DQ_STAGING_CLIENT_SECRET']));
    for (const job of CREDENTIALED) {
      const s = wf.jobs[job].steps.find((x) => /^\s*dqform (plan|apply|drift) /m.test(x.run ?? ''))!;
      for (const n of ['DQ_CLIENT_ID', 'DQ_CLIENT_SECRET', ...names]) expect({ job, n, v: s.env?.[n] }).toEqual({ job, n, v: `\${{ secrets.${n} }}` });
    }
  });

  it("the project's own .github/workflows/ci.yml: npm ci && npm test on Node 20, 22, 24 and 26 with the npm cache (issue 26)", () => {
    const ci = parse(fs.readFileSync(path.join(ROOT, '.github', 'workflows', 'ci.yml'), 'utf8')) as { jobs: Record<string, Job & { strategy: { matrix: { node: number[] } } }> };
    const test = ci.jobs.test;
    expect(test.strategy.matrix.node).toEqual([20, 22, 24, 26]);
    expect(test['timeout-minutes']).toBeGreaterThan(0);
    expect(test.steps.find((x) => x.uses?.startsWith('actions/setup-node@'))!.with).toEqual({ 'node-version': '${{ matrix.node }}', cache: 'npm' });
    expect(test.steps.map((x) => x.run).filter(Boolean)).toEqual(['npm ci && npm test']);
  });

  it('both scripts are valid JavaScript for github-script', () => {
    expect(() => compile(scriptOf('comment'))).not.toThrow();
    expect(() => compile(scriptOf('apply', 'reviewed'))).not.toThrow();
  });
});

describe('the shell steps of synth and of the credentialed jobs, run with bash', () => {
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-ci-steps-'));
  });
  afterEach(() => fs.rmSync(tmp, { recursive: true, force: true }));
  /** Runs a step's script as GitHub does (bash -e) in `tmp`, with node on PATH. */
  const bash = (script: string, env: Record<string, string> = {}) =>
    spawnSync('bash', ['-e', '-c', script], { cwd: tmp, encoding: 'utf8', env: { PATH: `${path.dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`, HOME: tmp, ...env } });
  const stackFile = (stack: string, dq: Record<string, unknown>) => {
    fs.mkdirSync(path.join(tmp, 'cdktf.out', 'stacks', stack), { recursive: true });
    fs.writeFileSync(path.join(tmp, 'cdktf.out', 'stacks', stack, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: stack, ...dq }] }, resource: {} }));
  };

  it('the stack list is what cdktf.out/manifest.json lists: a leftover stacks/<name> directory is not planned', () => {
    for (const st of ['prod', 'staging', 'retired']) stackFile(st, {});
    fs.writeFileSync(path.join(tmp, 'cdktf.out', 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: { staging: {}, prod: {} } }));
    const out = path.join(tmp, 'github-output');
    const r = bash(wf.jobs.synth.steps.find((x) => x.id === 'list')!.run!, { GITHUB_OUTPUT: out });
    expect({ code: r.status, err: r.stderr }).toEqual({ code: 0, err: '' });
    expect(fs.readFileSync(out, 'utf8')).toBe('stacks=["prod","staging"]\n');
  });

  it('the stack list refuses a missing manifest.json and a stack name that is not letters, digits, _ and -', () => {
    stackFile('prod', {});
    const list = wf.jobs.synth.steps.find((x) => x.id === 'list')!.run!;
    const out = path.join(tmp, 'github-output');
    const missing = bash(list, { GITHUB_OUTPUT: out });
    expect(missing.status).toBe(1);
    expect(missing.stderr).toMatch(/::error::cdktf\.out\/manifest\.json is not cdktf's list of stacks .*run dqform synth/);
    stackFile('a$(id)', {});
    fs.writeFileSync(path.join(tmp, 'cdktf.out', 'manifest.json'), JSON.stringify({ stacks: { prod: {}, 'a$(id)': {} } }));
    const bad = bash(list, { GITHUB_OUTPUT: out });
    expect(bad.status).toBe(1);
    expect(bad.stderr).toContain('::error::stack names must be letters, digits, _ and -: ["a$(id)"]');
    expect(fs.existsSync(out)).toBe(false);
  });

  it("the tool install unpacks the dqform job's build only when its digest matches, and puts dqform on PATH", () => {
    const build = path.join(tmp, 'build');
    fs.mkdirSync(path.join(build, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(build, 'bin', 'dqform.js'), "console.log('the built dqform: ' + process.argv.slice(2).join(' '));\n");
    const runnerTemp = path.join(tmp, 'runner-temp');
    fs.mkdirSync(path.join(runnerTemp, 'dqform-package'), { recursive: true });
    const tarball = path.join(runnerTemp, 'dqform-package', 'dqform-tool.tar.gz');
    expect(spawnSync('tar', ['-czf', tarball, '-C', build, '.']).status).toBe(0);
    const digest = createHash('sha256').update(fs.readFileSync(tarball)).digest('hex');
    const install = wf.jobs.plan.steps.find((x) => /sha256sum --check/.test(x.run ?? ''))!.run!;
    for (const job of CREDENTIALED) expect(wf.jobs[job].steps.find((x) => /sha256sum --check/.test(x.run ?? ''))!.run).toBe(install);
    const ghPath = path.join(tmp, 'github-path');

    const wrong = bash(install, { RUNNER_TEMP: runnerTemp, GITHUB_PATH: ghPath, TOOL_SHA256: digest.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
    expect(wrong.status).not.toBe(0);
    expect(fs.existsSync(ghPath)).toBe(false);
    expect(fs.existsSync(path.join(runnerTemp, 'dqform-tool'))).toBe(false);
    const none = bash(install, { RUNNER_TEMP: runnerTemp, GITHUB_PATH: ghPath, TOOL_SHA256: '' });
    expect(none.status).not.toBe(0);

    const ok = bash(install, { RUNNER_TEMP: runnerTemp, GITHUB_PATH: ghPath, TOOL_SHA256: digest });
    expect({ code: ok.status, err: ok.stderr }).toEqual({ code: 0, err: '' });
    const bin = fs.readFileSync(ghPath, 'utf8').trim();
    expect(bin).toBe(path.join(runnerTemp, 'dqform-bin'));
    const used = bash('dqform plan --dir cdktf.out --stack "prod"', { PATH: `${bin}:${path.dirname(process.execPath)}:/usr/bin:/bin` });
    expect(used.stdout).toBe('the built dqform: plan --dir cdktf.out --stack prod\n');
  });

  it('the dqform job fetches the pinned package, refuses one whose SHA-256 is not the pin, and hands on the tool with its digest and version', () => {
    // a package as npm pack makes it (package/ inside), without dependencies: no registry needed
    const pkg = path.join(tmp, 'src', 'package');
    fs.mkdirSync(path.join(pkg, 'bin'), { recursive: true });
    fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'dqform', version: '9.8.7', bin: { dqform: 'bin/dqform.js' } }));
    fs.writeFileSync(path.join(pkg, 'bin', 'dqform.js'), "console.log('pinned dqform');\n");
    const tgz = path.join(tmp, 'dqform-9.8.7.tgz');
    expect(spawnSync('tar', ['-czf', tgz, '-C', path.join(tmp, 'src'), 'package']).status).toBe(0);
    const pin = createHash('sha256').update(fs.readFileSync(tgz)).digest('hex');
    const [check, , fetch] = wf.jobs.dqform.steps;
    const runnerTemp = path.join(tmp, 'runner-temp');
    const out = path.join(tmp, 'github-output');
    const env = { RUNNER_TEMP: runnerTemp, GITHUB_OUTPUT: out, npm_config_cache: path.join(tmp, 'npm-cache'), npm_config_offline: 'true', npm_config_update_notifier: 'false' };

    expect(bash(check.run!, { PACKAGE: '', PACKAGE_SHA256: pin }).stdout).toContain('::error::set the repository variables DQFORM_PACKAGE');
    expect(bash(check.run!, { PACKAGE: tgz, PACKAGE_SHA256: pin }).status).toBe(0);
    expect(fs.readFileSync(path.join(tmp, 'dqform-pin.txt'), 'utf8')).toBe(`${pin} ${tgz}\n`);

    fs.mkdirSync(runnerTemp);
    const wrong = bash(fetch.run!, { ...env, PACKAGE: tgz, PACKAGE_SHA256: pin.replace(/^./, (c) => (c === '0' ? '1' : '0')) });
    expect(wrong.status).not.toBe(0);
    expect(fs.existsSync(out)).toBe(false);
    const ok = bash(fetch.run!, { ...env, PACKAGE: tgz, PACKAGE_SHA256: pin });
    expect({ code: ok.status, err: ok.stderr }).toEqual({ code: 0, err: expect.any(String) });
    const tool = path.join(runnerTemp, 'dqform-package', 'dqform-tool.tar.gz');
    const digest = createHash('sha256').update(fs.readFileSync(tool)).digest('hex');
    expect(fs.readFileSync(out, 'utf8')).toBe(`tool-sha256=${digest}\nversion=9.8.7\n`);
    const listed = spawnSync('tar', ['-tzf', tool], { encoding: 'utf8' }).stdout.split('\n');
    expect(listed).toEqual(expect.arrayContaining(['./package.json', './bin/dqform.js']));
  });

  it('a YAML workspace: no npm, its one stack listed from dqform.yaml, planned from the file with the platform check (issue 26)', () => {
    const steps = wf.jobs.synth.steps;
    const kind = steps.find((x) => x.id === 'kind')!.run!;
    const out = path.join(tmp, 'github-output');
    expect(bash(kind, { GITHUB_OUTPUT: out }).stdout).toContain('::error::no cdktf.json (a CDKTF app) and no dqform.yaml (a YAML workspace)');
    fs.copyFileSync(path.join(ROOT, 'examples', 'yaml', 'dqform.yaml'), path.join(tmp, 'dqform.yaml'));
    expect(bash(kind, { GITHUB_OUTPUT: out }).status).toBe(0);
    expect(fs.readFileSync(out, 'utf8')).toBe('kind=yaml\n');
    // npm, the synth and the npm cache only for a CDKTF app
    expect(steps.filter((y) => /^\s*(npm ci|npx dqform synth)/m.test(y.run ?? '')).length).toBe(2);
    for (const x of steps.filter((y) => /^\s*(npm ci|npx dqform synth)/m.test(y.run ?? ''))) expect(x.if).toBe("steps.kind.outputs.kind == 'cdktf'");
    // the stack list reads the YAML with the tool's parser (here: this checkout's)
    const runnerTemp = path.join(tmp, 'runner-temp');
    fs.mkdirSync(path.join(runnerTemp, 'dqform-tool', 'node_modules'), { recursive: true });
    fs.symlinkSync(path.join(ROOT, 'node_modules', 'yaml'), path.join(runnerTemp, 'dqform-tool', 'node_modules', 'yaml'), 'dir');
    fs.rmSync(out);
    const list = bash(steps.find((x) => x.id === 'list')!.run!, { GITHUB_OUTPUT: out, KIND: 'yaml', RUNNER_TEMP: runnerTemp });
    expect({ code: list.status, err: list.stderr }).toEqual({ code: 0, err: '' });
    expect(fs.readFileSync(out, 'utf8')).toBe('stacks=["quickstart"]\n'); // its namespace: it names no stack
    // the desired state handed on is the YAML file alone
    const desired = bash(steps.find((x) => /desired-state/.test(x.run ?? ''))!.run!, { KIND: 'yaml', RUNNER_TEMP: runnerTemp });
    expect(desired.status).toBe(0);
    expect(fs.readdirSync(path.join(runnerTemp, 'desired-state'))).toEqual(['dqform.yaml']);

    // a credentialed job's directory: the artifact (dqform.yaml), dqform on PATH
    const job = path.join(tmp, 'job');
    fs.mkdirSync(job);
    fs.copyFileSync(path.join(tmp, 'dqform.yaml'), path.join(job, 'dqform.yaml'));
    const check = wf.jobs.plan.steps.find((x) => x.name === "check the stack's platform")!.run!;
    const inJob = (script: string, env: Record<string, string>) => spawnSync('bash', ['-e', '-c', script], { cwd: job, encoding: 'utf8', env: { PATH: `${path.join(tmp, 'bin')}:${path.dirname(process.execPath)}:/usr/bin:/bin`, HOME: tmp, RUNNER_TEMP: runnerTemp, ...env } });
    expect(inJob(check, { STACK: 'quickstart', ALLOWED: '' }).status).toBe(0);
    fs.appendFileSync(path.join(job, 'dqform.yaml'), 'baseUrl: https://collector.example\n');
    const refused = inJob(check, { STACK: 'quickstart', ALLOWED: '' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('::error::stack quickstart sends its credentials to "https://collector.example"');
    fs.copyFileSync(path.join(tmp, 'dqform.yaml'), path.join(job, 'dqform.yaml'));
    // validate runs the real dqform on the file, with the stack the list named
    fs.mkdirSync(path.join(tmp, 'bin'));
    fs.writeFileSync(path.join(tmp, 'bin', 'dqform'), `#!/bin/sh\nexec "${process.execPath}" "${LAUNCHER}" "$@"\n`, { mode: 0o755 });
    const validate = wf.jobs.plan.steps.find((x) => /^\s*dqform validate /m.test(x.run ?? ''))!;
    const v = inJob(validate.run!, { STACK: 'quickstart', NO_COLOR: '1' });
    expect({ code: v.status, err: v.stderr }).toEqual({ code: 0, err: '' });
    // plan, apply and drift take the same source
    for (const [j, cmd] of [['plan', 'plan'], ['apply', 'apply'], ['drift', 'drift']]) {
      fs.writeFileSync(path.join(tmp, 'bin', 'dqform'), '#!/bin/sh\necho "dqform $*"\n', { mode: 0o755 });
      const st = wf.jobs[j].steps.find((x) => new RegExp(`^\\s*dqform ${cmd} `, 'm').test(x.run ?? ''))!;
      const r = inJob(st.run!, { STACK: 'quickstart', GITHUB_STEP_SUMMARY: path.join(tmp, 'summary'), MAX_DELETES: '10', MAX_EFFECT_DELETES: '100', ALLOW_UNPREVIEWED: 'false' });
      const said = `${r.stdout}${fs.existsSync(path.join(job, 'plan-quickstart.md')) ? fs.readFileSync(path.join(job, 'plan-quickstart.md'), 'utf8') : ''}`;
      expect({ j, said }).toEqual({ j, said: expect.stringContaining(`dqform ${cmd} ${cmd === 'apply' ? 'plan-quickstart.json ' : ''}--file dqform.yaml --stack quickstart`) });
    }
  });

  it("a direct push's apply stops when this run's plan of the stack failed", () => {
    fs.mkdirSync(path.join(tmp, 'bin'));
    fs.writeFileSync(path.join(tmp, 'bin', 'dqform'), '#!/bin/sh\necho "dqform $*"\n', { mode: 0o755 });
    fs.writeFileSync(path.join(tmp, 'plan-prod.exit'), '1\n');
    const st = wf.jobs.apply.steps.find((x) => /^\s*dqform apply /m.test(x.run ?? ''))!;
    const r = bash(st.run!, { STACK: 'prod', MAX_DELETES: '10', MAX_EFFECT_DELETES: '100', PATH: `${path.join(tmp, 'bin')}:/usr/bin:/bin` });
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('::error::the plan of stack prod failed: nothing to apply\n');
  });

  it("a stack's own baseUrl gets the credentials only when the repository variable DQ_ALLOWED_BASE_URLS lists it", () => {
    const check = wf.jobs.plan.steps.find((x) => x.name === "check the stack's platform")!;
    expect(check.env).toEqual({ STACK: '${{ matrix.stack }}', ALLOWED: '${{ vars.DQ_ALLOWED_BASE_URLS }}' });
    for (const job of CREDENTIALED) {
      const st = wf.jobs[job].steps;
      const at = st.findIndex((x) => x.name === "check the stack's platform");
      expect({ job, same: st[at]?.run === check.run, before: at < st.findIndex((x) => Object.values(x.env ?? {}).some((v) => /secrets\./.test(v))) }).toEqual({ job, same: true, before: true });
    }
    stackFile('prod', { region: 'eu' });
    stackFile('staging', { base_url: 'https://staging.platform.example/' });
    stackFile('evil', { base_url: 'https://collector.example' });
    const run = (stack: string, allowed = '') => bash(check.run!, { STACK: stack, ALLOWED: allowed });
    expect(run('prod').status).toBe(0);
    const refused = run('staging');
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain('::error::stack staging sends its credentials to "https://staging.platform.example/", which the repository variable DQ_ALLOWED_BASE_URLS does not list');
    expect(run('staging', 'https://other.example https://staging.platform.example').status).toBe(0);
    expect(run('evil', 'https://staging.platform.example').status).toBe(1);
  });
});

describe('the PR comment script, run with a fake GitHub', () => {
  const fn = compile(scriptOf('comment'));
  const GOLDEN = path.join(ROOT, 'test', 'golden', 'plan');
  const cwd = process.cwd();
  let tmp: string;
  beforeEach(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-ci-'));
    fs.mkdirSync(path.join(tmp, 'plans'));
    process.chdir(tmp);
  });
  afterEach(() => {
    process.chdir(cwd);
    fs.rmSync(tmp, { recursive: true, force: true });
    delete process.env.STACKS;
    delete process.env.DQ_MAX_DELETES;
    delete process.env.DQ_MAX_EFFECT_DELETES;
  });

  /** Writes what a plan job uploads for `stack`: the golden plan's JSON and markdown, and the exit code. */
  const core = { info: () => undefined };
  function planned(stack: string, golden: string, exit = '0'): string {
    fs.copyFileSync(path.join(GOLDEN, golden, 'plan.json'), `plans/plan-${stack}.json`);
    const md = fs.readFileSync(path.join(GOLDEN, golden, 'plan.md'), 'utf8');
    fs.writeFileSync(`plans/plan-${stack}.md`, md);
    fs.writeFileSync(`plans/plan-${stack}.exit`, `${exit}\n`);
    return md;
  }

  /** A fake GitHub for run `runNumber` of the PR's commit `sha`; the PR's head is `head` (a newer push moves it). */
  function fakeGithub(existing: { id: number; body: string; user: { type: string } }[], o: { runNumber?: number; sha?: string; head?: string } = {}) {
    const calls: { op: string; body: string; comment_id?: number; issue_number?: number }[] = [];
    const sha = o.sha ?? 'abcdef1234567';
    const github = {
      paginate: async (_fn: unknown, args: { issue_number: number }) => (args.issue_number === 3 ? existing : []),
      rest: {
        pulls: { get: async (a: { pull_number: number }) => ({ data: { number: a.pull_number, head: { sha: o.head ?? sha } } }) },
        issues: {
          listComments: () => undefined,
          updateComment: async (a: { comment_id: number; body: string }) => void calls.push({ op: 'update', ...a }),
          createComment: async (a: { body: string; issue_number: number }) => void calls.push({ op: 'create', ...a }),
        },
      },
    };
    const context = { repo: { owner: 'o', repo: 'r' }, serverUrl: 'https://github.com', runId: 7, runNumber: o.runNumber ?? 7, payload: { pull_request: { number: 3, head: { sha } } } };
    return { github, context, calls };
  }

  it('gathers every stack, flags failed and missing plans and a plan over --max-deletes, and updates the marked comment', async () => {
    process.env.STACKS = JSON.stringify(['sales', 'finance', 'ops', 'hr']);
    process.env.DQ_MAX_DELETES = '3';
    const salesMd = planned('sales', 'actions'); // 3 destroys (a replace and 2 deletes): at the limit
    planned('finance', 'references', '1');
    const hrMd = planned('hr', 'governance-pruning'); // 4 deletes: over the limit
    const { github, context, calls } = fakeGithub([
      { id: 1, body: 'an unrelated comment', user: { type: 'User' } },
      { id: 5, body: '<!-- dqform-plan -->\nfrom a human', user: { type: 'User' } },
      { id: 2, body: '<!-- dqform-plan -->\nold', user: { type: 'Bot' } },
    ]);
    await fn(github, context, core, require);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ op: 'update', comment_id: 2 });
    const body = calls[0].body;
    expect(body.startsWith('<!-- dqform-plan -->\n## dqform plan for abcdef1\n\n4 stack(s). Merging applies exactly these plans ([run](https://github.com/o/r/actions/runs/7)).')).toBe(true);
    // The guard up front: which stack apply will refuse, and what to do.
    expect(body).toContain('> **Apply on merge will refuse** `hr` (4 > 3): more deletions than --max-deletes. Label the pull request `dqform-allow-deletes` if they are intended.');
    expect(body).toContain('> Stack `hr`: this plan destroys 4 object(s), more than --max-deletes 3: **apply on merge will refuse it** and change nothing.');
    expect(body).not.toMatch(/Stack `sales`: this plan destroys/);
    // Every stack's own plan, in order.
    expect(body).toContain(salesMd);
    expect(body).toContain(hrMd);
    expect(body).toMatch(/> dqform plan failed for stack `finance` \(exit 1\): this plan cannot be applied\./);
    expect(body).toMatch(/### `ops`\n\n> \[!CAUTION\]\n> No plan: the plan job for this stack did not finish/);
    // In the stacks' order.
    const order = [salesMd, 'failed for stack `finance`', '### `ops`', 'Stack `hr`'].map((s) => body.indexOf(s));
    expect(order.every((x) => x > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);
  });

  it('names every guard that would refuse the merge, each with its label: --max-deletes, --max-effect-deletes, unpreviewed rule changes; known after apply is no guard', async () => {
    process.env.STACKS = JSON.stringify(['hr', 'rules']);
    process.env.DQ_MAX_DELETES = '3';
    planned('hr', 'governance-pruning'); // 4 deletes and 1 ownership by cascade
    process.env.DQ_MAX_EFFECT_DELETES = '0';
    planned('rules', 'overviews');
    const rules = JSON.parse(fs.readFileSync('plans/plan-rules.json', 'utf8')) as { changes: { type: string; action: string; effects?: Record<string, unknown> }[] };
    const ruleChanges = rules.changes.filter((c) => c.type === 'dq_monitor_deployment_rule' && c.action !== 'noop' && c.action !== 'unmanaged');
    expect(ruleChanges.length).toBeGreaterThanOrEqual(2);
    ruleChanges[0].effects = { source: 'deploy-overview', error: 'effects unknown: UNAVAILABLE' };
    ruleChanges[1].effects = { source: 'deploy-overview', afterApply: 'it depends on dq_data_product.x, which this plan creates' };
    fs.writeFileSync('plans/plan-rules.json', JSON.stringify(rules));
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, core, require);
    const body = calls[0].body;
    expect(body).toContain('> **Apply on merge will refuse** `hr` (4 > 3): more deletions than --max-deletes. Label the pull request `dqform-allow-deletes` if they are intended.');
    expect(body).toContain('> **Apply on merge will refuse** `hr` (1 > 0), `rules` (3 > 0): more monitors, SQL tests and cascaded objects deleted by the platform than --max-effect-deletes. Label the pull request `dqform-allow-effect-deletes` if they are intended.');
    expect(body).toContain("> **Apply on merge will refuse** `rules` (1 rule change(s)): effects unknown, the platform's preview failed. Label the pull request `dqform-allow-unpreviewed` if they are intended.");
    expect(body).toContain('> Stack `hr`: this plan makes the platform delete 1 monitor(s), SQL test(s) and cascaded object(s), more than --max-effect-deletes 0: **apply on merge will refuse it** and change nothing. If these deletions are intended, add the label `dqform-allow-effect-deletes` to this pull request before merging.');
    // the rule known after apply is not counted as unpreviewed (1, not 2)
    expect(body).not.toMatch(/\(2 rule change\(s\)\)/);
  });

  it('no guard when every plan is within the limit (default 10); creates the comment when none is marked', async () => {
    process.env.STACKS = JSON.stringify(['hr']);
    planned('hr', 'governance-pruning');
    const { github, context, calls } = fakeGithub([{ id: 9, body: '<!-- dqform-plan -->\nwritten by a person', user: { type: 'User' } }]);
    await fn(github, context, core, require);
    expect(calls).toEqual([{ op: 'create', owner: 'o', repo: 'r', issue_number: 3, body: expect.any(String) }]);
    expect(calls[0].body).not.toMatch(/refuse/);
  });

  it('the plan at scale (200 changes, 50 not managed here) goes into the comment whole, under the guard that apply on merge will refuse it', async () => {
    process.env.STACKS = JSON.stringify(['shop']);
    const md = planned('shop', 'at-scale'); // 50 destroys (10 of them replaces) over the default limit of 10
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, core, require);
    expect(calls).toHaveLength(1);
    const body = calls[0].body;
    expect(body.length).toBeLessThan(65_536);
    expect(body).toContain(md);
    expect(body).toContain('> **Apply on merge will refuse** `shop` (50 > 10): more deletions than --max-deletes. Label the pull request `dqform-allow-deletes` if they are intended.');
    expect(body.indexOf('Apply on merge will refuse')).toBeLessThan(body.indexOf('**Plan: 110 to add, 50 to change, 50 to destroy.**'));
    expect(body).not.toContain('download the artifact');
  });

  it('twelve small stacks that fit together are all in the comment whole: the size is shared by need, not equally (issue 26)', async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => `s${String(i).padStart(2, '0')}`);
    process.env.STACKS = JSON.stringify(twelve);
    const mds = twelve.map((st) => planned(st, 'destroy')); // ~4.9 KB each: more than an equal 12th of the limit
    expect(mds[0].length).toBeGreaterThan(60_000 / 12 - 200); // the old equal share
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, core, require);
    const body = calls[0].body;
    expect(body.length).toBeLessThan(65_536);
    for (const md of mds) expect(body).toContain(md);
    expect(body).not.toContain('download the artifact');
  });

  it('only the large stacks are cut: the small ones beside them stay whole', async () => {
    process.env.STACKS = JSON.stringify(['big', 'small1', 'small2']);
    const small = ['small1', 'small2'].map((st) => planned(st, 'destroy-prevented'));
    planned('big', 'governance-pruning');
    fs.appendFileSync('plans/plan-big.md', `\n${'x'.repeat(70_000)}\n`);
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, core, require);
    const body = calls[0].body;
    expect(body.length).toBeLessThan(65_536);
    for (const md of small) expect(body).toContain(md);
    expect(body).toContain('download the artifact `plan-big`');
    expect(body).not.toContain('download the artifact `plan-small');
    // the big one keeps its summary line and most of the room
    expect(body).toContain('**Plan: 0 to add, 0 to change, 4 to destroy.**');
  });

  it('two quick pushes: the newer run comments, and the older run, finishing later, does not overwrite it (issue 26)', async () => {
    process.env.STACKS = JSON.stringify(['hr']);
    planned('hr', 'governance-pruning');
    // one comment thread shared by both runs, as GitHub keeps it
    const thread: { id: number; body: string; user: { type: string } }[] = [];
    const runOf = (runNumber: number, sha: string, head: string) => {
      const f = fakeGithub(thread, { runNumber, sha, head });
      f.github.rest.issues.createComment = async (a: { body: string; issue_number: number }) => void thread.push({ id: 40 + thread.length, body: a.body, user: { type: 'Bot' } });
      f.github.rest.issues.updateComment = async (a: { comment_id: number; body: string }) => void (thread.find((c) => c.id === a.comment_id)!.body = a.body);
      return f;
    };
    // push 1 (aaaaaaa, run 7), then push 2 (bbbbbbb, run 8) before run 7 comments: the head is now bbbbbbb
    const newer = runOf(8, 'bbbbbbb000000', 'bbbbbbb000000');
    await fn(newer.github, newer.context, core, require);
    expect(thread.map((c) => c.body.split('\n')[1])).toEqual(['## dqform plan for bbbbbbb']);
    const older = runOf(7, 'aaaaaaa000000', 'bbbbbbb000000');
    await fn(older.github, older.context, core, require);
    expect(thread.map((c) => c.body.split('\n')[1])).toEqual(['## dqform plan for bbbbbbb']);
    expect(thread[0].body).toMatch(/<!-- dqform-run: 8 -->$/);
    // a re-run of the older run on a head that looks current (force-pushed back) still does not overwrite a newer run's comment
    const rerun = runOf(7, 'bbbbbbb000000', 'bbbbbbb000000');
    await fn(rerun.github, rerun.context, core, require);
    expect(thread[0].body).toMatch(/<!-- dqform-run: 8 -->$/);
    // a third push updates the one comment in place
    const third = runOf(9, 'ccccccc000000', 'ccccccc000000');
    await fn(third.github, third.context, core, require);
    expect(thread.map((c) => c.body.split('\n')[1])).toEqual(['## dqform plan for ccccccc']);
  });

  it('summarises stacks to stay under the comment limit, keeping each stack\'s guard, summary line and effects', async () => {
    process.env.STACKS = JSON.stringify(['a', 'b']);
    process.env.DQ_MAX_DELETES = '0';
    for (const s of ['a', 'b']) {
      planned(s, 'governance-pruning');
      fs.appendFileSync(`plans/plan-${s}.md`, `\n${'x'.repeat(50_000)}\n`);
    }
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, core, require);
    const body = calls[0].body;
    expect(body.length).toBeLessThan(65_536);
    expect(body).toContain('**Plan: 0 to add, 0 to change, 4 to destroy.** 4 unchanged, 1 not managed here.\nThe platform also deletes 1 ownership(s) by cascade.');
    expect(body).toContain('download the artifact `plan-b`');
    expect(body).toContain('Stack `b`: this plan destroys 4 object(s), more than --max-deletes 0');
  });
});

describe('the apply job\'s search for the reviewed plan run, with a fake GitHub', () => {
  const fn = compile(scriptOf('apply', 'reviewed'));
  const WORKFLOW = '.github/workflows/dqform.yml';
  beforeEach(() => {
    process.env.GITHUB_WORKFLOW_REF = `o/r/${WORKFLOW}@refs/heads/main`;
    process.env.DQ_MAX_DELETES = '10';
  });
  afterEach(() => {
    delete process.env.GITHUB_WORKFLOW_REF;
    delete process.env.DQ_MAX_DELETES;
  });

  interface Run {
    id: number;
    path: string;
    event?: string;
    conclusion: string;
    run_number?: number;
    head_sha?: string;
    html_url?: string;
  }
  function fake(o: { prs?: unknown[]; runs?: Run[]; run?: Run }) {
    const out: Record<string, string> = {};
    const failed: string[] = [];
    const core = { setOutput: (k: string, v: string) => (out[k] = v), setFailed: (m: string) => failed.push(m), info: () => undefined };
    const github = {
      rest: {
        repos: { listPullRequestsAssociatedWithCommit: async () => ({ data: o.prs ?? [] }) },
        actions: {
          listWorkflowRunsForRepo: async (a: { head_sha: string; event: string }) => ({ data: { workflow_runs: (o.runs ?? []).filter((r) => a.event === 'pull_request' && r.head_sha === a.head_sha) } }),
          getWorkflowRun: async (a: { run_id: number }) => ({ data: o.run && o.run.id === a.run_id ? o.run : { id: a.run_id, path: 'other.yml', conclusion: 'failure' } }),
        },
      },
    };
    return { core, github, out, failed };
  }
  const push = { eventName: 'push', sha: 'merge0000000', repo: { owner: 'o', repo: 'r' }, payload: {} };
  const pr = (labels: string[] = []) => ({ number: 4, merged_at: '2026-11-20T10:00:00Z', base: { ref: 'main' }, head: { sha: 'head1111111' }, labels: labels.map((name) => ({ name })) });
  const prRuns: Run[] = [
    { id: 100, path: WORKFLOW, conclusion: 'success', run_number: 1, head_sha: 'head1111111' },
    { id: 101, path: WORKFLOW, conclusion: 'success', run_number: 2, head_sha: 'head1111111' },
    { id: 102, path: WORKFLOW, conclusion: 'failure', run_number: 3, head_sha: 'head1111111' },
    { id: 103, path: '.github/workflows/other.yml', conclusion: 'success', run_number: 9, head_sha: 'head1111111' },
  ];

  it.each([
    // a direct push to main (no pull request): the plans of this very run, every guard on (issue 26)
    ['a direct push to main: the plans this run made of the commit, with every guard on', { ...push, runId: 4242 }, { prs: [], runs: prRuns }, { 'run-id': '4242', 'max-deletes': '10', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' }],
    [
      'a direct push whose commit is also on an open (unmerged) pull request: still this run',
      { ...push, runId: 4243 },
      { prs: [{ ...pr(['dqform-allow-deletes']), merged_at: null }], runs: prRuns },
      { 'run-id': '4243', 'max-deletes': '10', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' },
    ],
    ['a merge: the latest successful plan run of the PR head, with the default limit', push, { prs: [pr()], runs: prRuns }, { 'run-id': '101', 'max-deletes': '10', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' }],
    ['a merge of a PR labelled dqform-allow-deletes: no deletion limit', push, { prs: [pr(['dqform-allow-deletes'])], runs: prRuns }, { 'run-id': '101', 'max-deletes': '1000000', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' }],
    [
      'a merge of a PR labelled dqform-allow-effect-deletes and dqform-allow-unpreviewed: those two guards lifted, not the deletion limit',
      push,
      { prs: [pr(['dqform-allow-effect-deletes', 'dqform-allow-unpreviewed'])], runs: prRuns },
      { 'run-id': '101', 'max-deletes': '10', 'max-effect-deletes': '1000000', 'allow-unpreviewed': 'true' },
    ],
    [
      'a manual apply of a manual plan run on the same commit',
      { eventName: 'workflow_dispatch', sha: 'main2222222', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { action: 'apply', 'plan-run-id': '555', 'allow-deletes': false } } },
      { run: { id: 555, path: WORKFLOW, event: 'workflow_dispatch', conclusion: 'success', head_sha: 'main2222222', html_url: 'u' } },
      { 'run-id': '555', 'max-deletes': '10', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' },
    ],
    [
      'a manual apply with allow-deletes',
      { eventName: 'workflow_dispatch', sha: 'main2222222', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { action: 'apply', 'plan-run-id': '555', 'allow-deletes': true } } },
      { run: { id: 555, path: WORKFLOW, event: 'workflow_dispatch', conclusion: 'success', head_sha: 'main2222222', html_url: 'u' } },
      { 'run-id': '555', 'max-deletes': '1000000', 'max-effect-deletes': '100', 'allow-unpreviewed': 'false' },
    ],
    [
      'a manual apply with allow-effect-deletes and allow-unpreviewed',
      { eventName: 'workflow_dispatch', sha: 'main2222222', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { action: 'apply', 'plan-run-id': '555', 'allow-effect-deletes': true, 'allow-unpreviewed': 'true' } } },
      { run: { id: 555, path: WORKFLOW, event: 'workflow_dispatch', conclusion: 'success', head_sha: 'main2222222', html_url: 'u' } },
      { 'run-id': '555', 'max-deletes': '10', 'max-effect-deletes': '1000000', 'allow-unpreviewed': 'true' },
    ],
  ])('%s', async (_why, context, world, expected) => {
    const { core, github, out, failed } = fake(world);
    await fn(github, context, core, require);
    expect(failed).toEqual([]);
    expect(out).toEqual(expected);
  });

  it.each([
    ['a PR without a successful plan run', push, { prs: [pr()], runs: prRuns.filter((r) => r.conclusion !== 'success') }, /no successful dqform plan run for #4 at head111.*action=plan, review the plan in its summary, then run it with action=apply/],
    ['a manual apply without a run id', { eventName: 'workflow_dispatch', sha: 'm', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { action: 'apply' } } }, {}, /needs plan-run-id/],
    [
      'a manual apply of a plan of another commit (main moved since the review)',
      { eventName: 'workflow_dispatch', sha: 'main3333333', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { 'plan-run-id': '555' } } },
      { run: { id: 555, path: WORKFLOW, event: 'workflow_dispatch', conclusion: 'success', head_sha: 'main2222222' } },
      /run 555 planned commit main222, but this run is on main333/,
    ],
    [
      'a manual apply of a PR run or a failed run',
      { eventName: 'workflow_dispatch', sha: 'main2222222', repo: { owner: 'o', repo: 'r' }, payload: { inputs: { 'plan-run-id': '556' } } },
      { run: { id: 556, path: WORKFLOW, event: 'pull_request', conclusion: 'success', head_sha: 'main2222222' } },
      /not a successful manual plan run/,
    ],
  ])('refuses %s, saying what to do', async (_why, context, world, message) => {
    const { core, github, out, failed } = fake(world);
    await fn(github, context, core, require);
    expect(out['run-id']).toBeUndefined();
    expect(failed).toEqual([expect.stringMatching(message)]);
  });
});
