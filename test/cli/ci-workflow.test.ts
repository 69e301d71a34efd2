/**
 * examples/ci/.github/workflows/dqform.yml: parses as YAML, has the triggers and jobs the
 * README documents, uses only the allowed actions, passes secrets only through step env, never
 * echoes one, and applies only a saved plan.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parse } from 'yaml';
import { ROOT } from './helpers';

interface Step {
  name?: string;
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
  steps: Step[];
}
interface Workflow {
  on: Record<string, unknown>;
  permissions: Record<string, string>;
  env: Record<string, string>;
  jobs: Record<string, Job>;
}

const FILE = path.join(ROOT, 'examples', 'ci', '.github', 'workflows', 'dqform.yml');
const text = fs.readFileSync(FILE, 'utf8');
const wf = parse(text, { prettyErrors: true }) as Workflow;
const steps = Object.entries(wf.jobs).flatMap(([job, j]) => j.steps.map((s) => ({ job, ...s })));
const runs = (job: string) => wf.jobs[job].steps.map((s) => s.run ?? '').join('\n');

it('triggers: pull requests and pushes to main, a nightly schedule, manual runs', () => {
  expect(wf.on.pull_request).toEqual({ branches: ['main'] });
  expect(wf.on.push).toEqual({ branches: ['main'] });
  expect(wf.on.schedule).toEqual([{ cron: expect.stringMatching(/^\d+ \d+ \* \* \*$/) }]);
  expect(wf.on).toHaveProperty('workflow_dispatch');
  expect(wf.permissions).toEqual({ contents: 'read' });
  expect(wf.env.DQ_REGION).toMatch(/vars\.DQ_REGION/);
});

it('jobs: stacks, then plan/apply/drift as a matrix over the stacks, and one comment job after plan', () => {
  expect(Object.keys(wf.jobs).sort()).toEqual(['apply', 'comment', 'drift', 'plan', 'stacks']);
  for (const job of ['plan', 'apply', 'drift']) {
    const j = wf.jobs[job];
    expect(j.needs).toBe('stacks');
    expect(j.strategy?.matrix?.stack).toBe('${{ fromJSON(needs.stacks.outputs.stacks) }}');
    expect(j.strategy?.['fail-fast']).toBe(false);
  }
  expect(wf.jobs.plan.if).toMatch(/github\.event_name == 'pull_request'/);
  expect(wf.jobs.apply.if).toMatch(/github\.event_name == 'push'/);
  expect(wf.jobs.drift.if).toMatch(/github\.event_name == 'schedule'/);
  expect(wf.jobs.comment.needs).toEqual(['stacks', 'plan']);
  expect(wf.jobs.comment.if).toMatch(/always\(\)/);
  expect(wf.jobs.comment.strategy).toBeUndefined();
});

it('plan writes plan-<stack>.json and its markdown, and uploads them as the plan-<stack> artifact', () => {
  expect(runs('plan')).toMatch(/npx dqform plan --stack "\$STACK" --out "plan-\$STACK\.json" --format markdown > "plan-\$STACK\.md"/);
  const upload = wf.jobs.plan.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
  expect(upload.if).toBe('always()');
  expect(upload.with?.name).toBe('plan-${{ matrix.stack }}');
  expect(String(upload.with?.path)).toContain('plan-${{ matrix.stack }}.json');
});

it('the comment job updates one comment found by a hidden marker', () => {
  const script = String(wf.jobs.comment.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!.with?.script);
  expect(script).toContain("'<!-- dqform-plan -->'");
  expect(script).toMatch(/updateComment/);
  expect(script).toMatch(/createComment/);
  expect(wf.jobs.comment.permissions).toMatchObject({ 'pull-requests': 'write' });
  // The script is valid JavaScript (github-script wraps it in an async function).
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => unknown;
  expect(() => new AsyncFunction('github', 'context', 'core', 'require', script)).not.toThrow();
});

it('apply downloads the reviewed plan of the pull request run and applies exactly it, never --auto-approve', () => {
  const apply = wf.jobs.apply;
  const download = apply.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
  expect(download.with).toMatchObject({ name: 'plan-${{ matrix.stack }}', 'run-id': '${{ steps.reviewed.outputs.run-id }}' });
  expect(runs('apply')).toMatch(/npx dqform apply "plan-\$STACK\.json"/);
  expect(text).not.toMatch(/--auto-approve/);
  expect(apply.steps.some((s) => s.if === 'failure()' && /re-plan/.test(s.run ?? ''))).toBe(true);
  expect(apply.permissions).toMatchObject({ actions: 'read' });
  for (const s of wf.jobs.apply.steps.filter((x) => x.uses?.startsWith('actions/github-script@'))) {
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => unknown;
    expect(() => new AsyncFunction('github', 'context', 'core', 'require', String(s.with?.script))).not.toThrow();
  }
});

it('drift fails the job on exit 2', () => {
  expect(runs('drift')).toMatch(/npx dqform drift --stack "\$STACK"/);
  expect(runs('drift')).toMatch(/exit "\$code"/);
});

it('read scopes for plan and drift, write scopes only for apply (separate environments)', () => {
  expect(wf.jobs.plan.environment).toBe('dqform-read');
  expect(wf.jobs.drift.environment).toBe('dqform-read');
  expect(wf.jobs.apply.environment).toBe('dqform-apply');
  // Jobs without an environment get no dqform credential at all.
  for (const job of ['stacks', 'comment']) expect(JSON.stringify(wf.jobs[job])).not.toMatch(/secrets\./);
});

it('uses only the allowed actions, pinned to a major version', () => {
  const allowed = ['actions/checkout', 'actions/setup-node', 'actions/upload-artifact', 'actions/download-artifact', 'actions/github-script'];
  const used = steps.filter((s) => s.uses).map((s) => s.uses!);
  expect(used.length).toBeGreaterThan(0);
  for (const u of used) {
    const [name, version] = u.split('@');
    expect(allowed).toContain(name);
    expect(version).toMatch(/^v\d+$/);
  }
});

it('secrets reach dqform only through step env: never in a run line, never echoed, no shell tracing', () => {
  const secretEnvSteps = steps.filter((s) => Object.values(s.env ?? {}).some((v) => /secrets\./.test(v)));
  expect(secretEnvSteps.map((s) => s.job).sort()).toEqual(['apply', 'drift', 'plan']);
  for (const s of secretEnvSteps) {
    expect(s.env).toEqual(expect.objectContaining({ DQ_CLIENT_ID: '${{ secrets.DQ_CLIENT_ID }}', DQ_CLIENT_SECRET: '${{ secrets.DQ_CLIENT_SECRET }}' }));
    expect(s.run).toMatch(/npx dqform (plan|apply|drift)/);
  }
  for (const s of steps) {
    const run = s.run ?? '';
    expect(run).not.toMatch(/secrets\./);
    expect(run).not.toMatch(/DQ_CLIENT_SECRET/);
    expect(run).not.toMatch(/set -[a-z]*x|set -o xtrace|\benv\b\s*$|printenv/m);
    expect(JSON.stringify(s.with ?? {})).not.toMatch(/secrets\./);
  }
  // The only secrets referenced are the two documented ones.
  expect([...new Set(text.match(/secrets\.\w+/g))].sort()).toEqual(['secrets.DQ_CLIENT_ID', 'secrets.DQ_CLIENT_SECRET']);
});

describe('the comment script, run with a fake GitHub', () => {
  const script = String(wf.jobs.comment.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!.with?.script);
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (...a: string[]) => (...args: unknown[]) => Promise<void>;
  const fn = new AsyncFunction('github', 'context', 'core', 'require', script);
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
  });

  function fakeGithub(existing: { id: number; body: string; user: { type: string } }[]) {
    const calls: { op: string; body: string; comment_id?: number }[] = [];
    const github = {
      paginate: async () => existing,
      rest: {
        issues: {
          listComments: () => undefined,
          updateComment: async (a: { comment_id: number; body: string }) => void calls.push({ op: 'update', ...a }),
          createComment: async (a: { body: string }) => void calls.push({ op: 'create', ...a }),
        },
      },
    };
    const context = { repo: { owner: 'o', repo: 'r' }, serverUrl: 'https://github.com', runId: 7, payload: { pull_request: { number: 3, head: { sha: 'abcdef1234567' } } } };
    return { github, context, calls };
  }

  it('gathers every stack into one comment, flags a failed or missing plan, and updates the marked comment', async () => {
    process.env.STACKS = JSON.stringify(['sales', 'finance', 'ops']);
    fs.writeFileSync('plans/plan-sales.md', '### dqform plan: `sales` in `demo`\n\n| add |\n|---:|\n| 1 |\n');
    fs.writeFileSync('plans/plan-sales.exit', '0\n');
    fs.writeFileSync('plans/plan-finance.md', '### dqform plan: `finance` in `demo`\n');
    fs.writeFileSync('plans/plan-finance.exit', '1\n');
    const { github, context, calls } = fakeGithub([
      { id: 1, body: 'an unrelated comment', user: { type: 'User' } },
      { id: 2, body: '<!-- dqform-plan -->\nold', user: { type: 'Bot' } },
    ]);
    await fn(github, context, {}, require);
    expect(calls).toHaveLength(1);
    expect(calls[0]).toMatchObject({ op: 'update', comment_id: 2 });
    const body = calls[0].body;
    expect(body.startsWith('<!-- dqform-plan -->\n## dqform plan for abcdef1')).toBe(true);
    expect(body).toContain('### dqform plan: `sales` in `demo`');
    expect(body).toMatch(/dqform plan failed for stack `finance` \(exit 1\)/);
    expect(body).toMatch(/### `ops`\n\n> \[!CAUTION\]\n> No plan/);
  });

  it('creates the comment when none is marked, and summarises stacks to stay under the comment limit', async () => {
    process.env.STACKS = JSON.stringify(['a', 'b']);
    for (const s of ['a', 'b']) {
      fs.writeFileSync(`plans/plan-${s}.md`, `### dqform plan: \`${s}\` in \`demo\`\n\n| add |\n|---:|\n| 9999 |\n\n${'x'.repeat(50_000)}\n`);
      fs.writeFileSync(`plans/plan-${s}.exit`, '0');
    }
    const { github, context, calls } = fakeGithub([]);
    await fn(github, context, {}, require);
    expect(calls).toHaveLength(1);
    expect(calls[0].op).toBe('create');
    expect(calls[0].body.length).toBeLessThan(65_536);
    expect(calls[0].body).toContain('| 9999 |');
    expect(calls[0].body).toContain('download the artifact `plan-b`');
  });
});
