/**
 * Issue 21, one platform per stack, through the spawned CLI against two emulators: a staging and
 * a prod stack with their own baseUrl and credentials from their own variables (DQ_BASE_URL and
 * DQ_CLIENT_ID point elsewhere and must not be used), plans naming the platform they read, a
 * saved plan refused on another platform with nothing written (the emulator's whole state
 * compared), apply/destroy --all-stacks, stacks that come and go, destroy --namespace, the
 * renamed-namespace warning beside a sibling stack, and dqform.yaml beside cdktf.out.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { SCOPES } from '../../schemas/platform/common';
import type { Plan } from '../../schemas/model/plan';
import { main } from '../../src/cli/main';
import { deriveId } from '../../src/engine/identity';
import { alert } from '../cli/helpers';
import { compareWithPlan, stateDiff } from './harness';
import { App, stackDoc, startPlatform, type Platform } from './platforms-helpers';

jest.setTimeout(240_000);

const STG = { id: 'stg-client', secret: 'stg-secret-0a1b2c3d' };
const PRD = { id: 'prod-client', secret: 'prod-secret-9z8y7x6w' };

let staging: Platform;
let prod: Platform;

beforeAll(async () => {
  staging = await startPlatform(STG.id, STG.secret);
  prod = await startPlatform(PRD.id, PRD.secret);
});
afterAll(async () => {
  await staging.emu.close();
  await prod.emu.close();
});

/**
 * The job's environment: each stack's credential under its own variables; DQ_BASE_URL points at
 * nothing that answers and DQ_CLIENT_ID/SECRET are wrong, so a stack that used them would fail.
 */
const ENV = {
  DQ_STAGING_CLIENT_ID: STG.id,
  DQ_STAGING_CLIENT_SECRET: STG.secret,
  DQ_PROD_CLIENT_ID: PRD.id,
  DQ_PROD_CLIENT_SECRET: PRD.secret,
  DQ_BASE_URL: 'http://127.0.0.1:9',
  DQ_CLIENT_ID: 'nobody',
  DQ_CLIENT_SECRET: 'wrong-secret-value',
};

const RESOURCES = { dq_owner: { team: { title: 'Shop team' } }, dq_alert: { orders: alert('Orders') } };

/** The two-stack app: staging and prod, each on its own platform, credentials from its own variables. */
function twoStackApp(ns: string, resources: Record<string, unknown> = RESOURCES): App {
  const app = new App();
  app.synth({
    staging: stackDoc({ namespace: `${ns}-staging`, base_url: staging.emu.url, credentials_from: { client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' } }, resources),
    prod: stackDoc({ namespace: `${ns}-prod`, base_url: prod.emu.url, credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } }, resources),
  });
  return app;
}

const readPlan = (app: App, file: string) => JSON.parse(app.read(file)) as Plan;
const noSecrets = (...texts: string[]) => {
  for (const t of texts) for (const s of [STG.secret, PRD.secret, ENV.DQ_CLIENT_SECRET]) expect(t).not.toContain(s);
};

describe('two stacks, two platforms', () => {
  it('plan --all-stacks plans each stack against its own platform with its own credentials, and every header names it', async () => {
    const app = twoStackApp('hdr');
    try {
      const r = await app.run(['plan', '--all-stacks', '--out', 'plan-{stack}.json'], ENV);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`dqform plan for namespace "hdr-staging" in workspace "demo" on ${staging.host} (stack staging)`);
      expect(r.out).toContain(`dqform plan for namespace "hdr-prod" in workspace "demo" on ${prod.host} (stack prod)`);
      expect(readPlan(app, 'plan-staging.json').platform).toBe(staging.host);
      expect(readPlan(app, 'plan-prod.json').platform).toBe(prod.host);
      const md = await app.run(['plan', '--stack', 'prod', '--format', 'markdown'], ENV);
      expect(md.code).toBe(0);
      expect(md.out).toContain(`### dqform plan: \`hdr-prod\` in \`demo\` on \`${prod.host}\``);
      const json = await app.run(['plan', '--stack', 'staging', '--format', 'json'], ENV);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.out)).toMatchObject({ platform: staging.host, workspace: 'demo', namespace: 'hdr-staging' });
      noSecrets(r.out, r.err, md.out, md.err, json.out, app.read('plan-staging.json'), app.read('plan-prod.json'));
    } finally {
      app.remove();
    }
  });

  it('apply --all-stacks applies each stack on its own platform, exactly as its plan said; the next plan is empty', async () => {
    const app = twoStackApp('app');
    try {
      expect((await app.run(['plan', '--all-stacks', '--out', 'plan-{stack}.json'], ENV)).code).toBe(0);
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const r = await app.run(['apply', '--all-stacks', '--auto-approve'], ENV);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/All stacks \(2\): none failed\.\n\s+prod\s+2 applied, 0 failed, 0 not attempted\n\s+staging\s+2 applied, 0 failed, 0 not attempted/);
      const s = compareWithPlan(readPlan(app, 'plan-staging.json'), sBefore, staging.state());
      const p = compareWithPlan(readPlan(app, 'plan-prod.json'), pBefore, prod.state());
      expect({ missing: s.missing, unexpected: s.unexpected }).toEqual({ missing: [], unexpected: [] });
      expect({ missing: p.missing, unexpected: p.unexpected }).toEqual({ missing: [], unexpected: [] });
      // each platform got its own stack's objects, and only those
      expect(s.happened).toContain(`create dq_owner ${deriveId('demo', 'app-staging', 'dq_owner', 'team')}`);
      expect(s.happened.join('\n')).not.toContain('app-prod');
      expect(p.happened).toContain(`create dq_owner ${deriveId('demo', 'app-prod', 'dq_owner', 'team')}`);
      expect(p.happened.join('\n')).not.toContain('app-staging');
      const again = await app.run(['plan', '--all-stacks', '--detailed-exitcode'], ENV);
      expect(again.code).toBe(0);
      expect(again.out).toMatch(/All stacks \(2\): none failed\.\n\s+prod\s+No changes\.\n\s+staging\s+No changes\./);
      noSecrets(r.out, r.err, again.out, again.err);
    } finally {
      app.remove();
    }
  });

  it("a monitor rule on each stack: its effects are known on both platforms (gRPC previews at each stack's grpcEndpoint), and apply does what the plans said", async () => {
    // metricOptions cannot travel in a REST preview's query string: only gRPC can preview this rule
    const query_config = { resolver_ql: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'], metric_options: [{ metric_id: 'METRIC_ID_ROW_COUNT', sensitivity: 'SENSITIVITY_RELAXED' }] };
    const RULE = { dq_monitor_deployment_rule: { mart: { title: 'Mart', query_config } } };
    const stg = { base_url: staging.emu.url, credentials_from: { client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' } };
    const prd = { base_url: prod.emu.url, credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } };
    // DQ_GRPC_ENDPOINT belongs to DQ_BASE_URL (nothing answers there): a stack on its own platform must not use it
    const env = { ...ENV, DQ_GRPC_ENDPOINT: '127.0.0.1:9' };
    const app = new App();
    try {
      app.synth({
        staging: stackDoc({ namespace: 'rule-staging', ...stg, grpc_endpoint: staging.emu.grpcEndpoint }, RULE),
        prod: stackDoc({ namespace: 'rule-prod', ...prd, grpc_endpoint: prod.emu.grpcEndpoint }, RULE),
      });
      const r = await app.run(['plan', '--all-stacks', '--out', 'plan-{stack}.json'], env);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).not.toMatch(/effects unknown/);
      for (const stack of ['staging', 'prod']) {
        const rule = readPlan(app, `plan-${stack}.json`).changes.find((c) => c.address === 'dq_monitor_deployment_rule.mart')!;
        expect(rule.action).toBe('create');
        expect(rule.effects).toMatchObject({ source: 'deploy-overview' });
        expect(rule.effects!.error).toBeUndefined();
        expect(rule.effects!.afterApply).toBeUndefined();
        expect(rule.effects!.monitorsToCreate.length).toBeGreaterThan(0);
      }
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const applied = await app.run(['apply', '--all-stacks', '--auto-approve'], env);
      expect(applied.err).not.toMatch(/Error/);
      expect(applied.code).toBe(0);
      const s = compareWithPlan(readPlan(app, 'plan-staging.json'), sBefore, staging.state());
      const p = compareWithPlan(readPlan(app, 'plan-prod.json'), pBefore, prod.state());
      expect({ missing: s.missing, unexpected: s.unexpected }).toEqual({ missing: [], unexpected: [] });
      expect({ missing: p.missing, unexpected: p.unexpected }).toEqual({ missing: [], unexpected: [] });

      // a stack on this machine that names no grpcEndpoint: not tried on :443, and the plan says why
      app.synth({ staging: stackDoc({ namespace: 'rule-staging-2', ...stg }, RULE) });
      const bare = await app.run(['plan', '--out', 'plan-bare.json'], env);
      expect(bare.code).toBe(0);
      const rule = readPlan(app, 'plan-bare.json').changes.find((c) => c.address === 'dq_monitor_deployment_rule.mart')!;
      expect(rule.effects?.error).toContain(`the stack's baseUrl is on this machine (${staging.host}) and the stack sets no grpcEndpoint, so gRPC previews are not tried`);
      expect(bare.out).toContain("set the stack's grpcEndpoint");
      noSecrets(r.out, r.err, applied.out, applied.err, bare.out, bare.err);
    } finally {
      app.remove();
    }
  });

  it('a saved plan applied against another platform is refused, nothing written (DQ_BASE_URL moved, or the stack re-pointed)', async () => {
    // a stack that sets no platform: DQ_BASE_URL decides
    const app = new App();
    const env = (p: Platform) => ({ DQ_BASE_URL: p.emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' });
    try {
      app.synth({ shared: stackDoc({ namespace: 'moved-shared' }, RESOURCES) });
      const planned = await app.run(['plan', '--out', 'plan.json'], env(staging));
      expect(planned.code).toBe(0);
      expect(readPlan(app, 'plan.json').platform).toBe(staging.host);
      // the other platform's state has its workspace already (a plan made there), so "before" is complete
      expect((await app.run(['plan'], env(prod))).code).toBe(0);
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const r = await app.run(['apply', 'plan.json'], env(prod));
      expect(r.code).toBe(1);
      expect(r.err).toContain(`Error: plan.json was planned against the platform ${staging.host} (workspace "demo"), and stack shared now points at ${prod.host}: nothing was written`);
      expect(prod.state()).toEqual(pBefore);
      expect(staging.state()).toEqual(sBefore);
      // where it was planned, it applies
      expect((await app.run(['apply', 'plan.json'], env(staging))).code).toBe(0);
    } finally {
      app.remove();
    }

    // the staging stack re-pointed at prod's platform after its plan was saved
    const two = twoStackApp('repoint');
    try {
      expect((await two.run(['plan', '--stack', 'staging', '--out', 'plan-staging.json'], ENV)).code).toBe(0);
      const file = two.path('cdktf.out', 'stacks', 'staging', 'cdk.tf.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { provider: { dq: { base_url: string }[] } };
      doc.provider.dq[0].base_url = prod.emu.url;
      fs.writeFileSync(file, JSON.stringify(doc));
      const pBefore = prod.state();
      const r = await two.run(['apply', 'plan-staging.json'], { ...ENV, DQ_STAGING_CLIENT_ID: PRD.id, DQ_STAGING_CLIENT_SECRET: PRD.secret });
      expect(r.code).toBe(1);
      expect(r.err).toContain(`was planned against the platform ${staging.host} (workspace "demo"), and stack staging now points at ${prod.host}: nothing was written`);
      expect(prod.state()).toEqual(pBefore);
    } finally {
      two.remove();
    }
  });

  it('staging and prod may use the same namespace on their two platforms (they share no object); on one platform they may not', async () => {
    const app = new App();
    const stg = { base_url: staging.emu.url, credentials_from: { client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' } };
    const prd = { base_url: prod.emu.url, credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } };
    try {
      app.synth({ staging: stackDoc({ namespace: 'same-ns', ...stg }, RESOURCES), prod: stackDoc({ namespace: 'same-ns', ...prd }, RESOURCES) });
      const r = await app.run(['plan', '--all-stacks'], ENV);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/All stacks \(2\): none failed\.\n\s+prod\s+Plan: 2 to add, 0 to change, 0 to destroy\.\n\s+staging\s+Plan: 2 to add/);
      // both on staging's platform with one credential: one workspace, so one namespace would be fought over
      app.synth({ staging: stackDoc({ namespace: 'same-ns', ...stg }, RESOURCES), prod: stackDoc({ namespace: 'same-ns', ...stg }, RESOURCES) });
      const clash = await app.run(['plan', '--all-stacks'], ENV);
      expect(clash.code).toBe(1);
      expect(clash.err).toContain('stacks "prod" and "staging" both use namespace "same-ns"');
    } finally {
      app.remove();
    }
  });

  it("a stack's credentials come from the variables it names: a missing one is named (never a value), and only that stack fails", async () => {
    const app = twoStackApp('creds');
    try {
      const r = await app.run(['plan', '--all-stacks'], { ...ENV, DQ_PROD_CLIENT_SECRET: undefined });
      expect(r.code).toBe(1);
      expect(r.err).toContain('Error: missing platform credentials: set DQ_PROD_CLIENT_SECRET in the environment');
      expect(r.out).toContain(`dqform plan for namespace "creds-staging" in workspace "demo" on ${staging.host} (stack staging)`);
      expect(r.out).toMatch(/All stacks \(2\): 1 failed\.\n\s+prod\s+failed \(see the errors above\)\n\s+staging\s+Plan: 2 to add/);
      noSecrets(r.out, r.err);

      // a credential written where its variable's NAME belongs: refused, and never echoed
      const file = app.path('cdktf.out', 'stacks', 'prod', 'cdk.tf.json');
      const doc = JSON.parse(fs.readFileSync(file, 'utf8')) as { provider: { dq: { credentials_from: Record<string, string> }[] } };
      doc.provider.dq[0].credentials_from.client_secret = PRD.secret;
      fs.writeFileSync(file, JSON.stringify(doc));
      const v = await app.run(['validate', '--stack', 'prod'], ENV);
      expect(v.code).toBe(1);
      expect(v.err).toMatch(/credentialsFrom\.clientSecret: must be the NAME of an environment variable/);
      noSecrets(v.out, v.err);
    } finally {
      app.remove();
    }
  });

  it('apply --all-stacks asks once, listing every stack and its platform; no answer writes nothing; without a terminal it needs --auto-approve', async () => {
    const app = twoStackApp('ask');
    try {
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const questions: string[] = [];
      const out: string[] = [];
      const err: string[] = [];
      const io = {
        out: (s: string) => out.push(s),
        err: (s: string) => err.push(s),
        env: { ...ENV, NO_COLOR: '1' },
        cwd: app.dir,
        isTty: true,
        confirm: async (q: string) => (questions.push(q), false),
      };
      const code = await main(['apply', '--all-stacks'], io);
      expect(code).toBe(1);
      expect(questions).toEqual(['Apply the changes of every stack above? Only "yes" is accepted: ']);
      const e = err.join('\n');
      expect(e).toContain('Apply 2 stack(s):');
      expect(e).toContain(`  prod (namespace "ask-prod" on ${prod.host}, workspace "demo"): Plan: 2 to add, 0 to change, 0 to destroy.`);
      expect(e).toContain(`  staging (namespace "ask-staging" on ${staging.host}, workspace "demo"): Plan: 2 to add, 0 to change, 0 to destroy.`);
      expect(e).toContain('Apply cancelled: nothing was written.');
      expect(stateDiff(sBefore, staging.state())).toEqual([]);
      expect(stateDiff(pBefore, prod.state())).toEqual([]);

      const r = await app.run(['apply', '--all-stacks'], ENV);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/apply needs confirmation, and there is no terminal to ask on/);
    } finally {
      app.remove();
    }
  });

  it('apply --all-stacks writes nothing to any stack when the plan of one trips a guard', async () => {
    const app = twoStackApp('guard');
    try {
      expect((await app.run(['apply', '--all-stacks', '--auto-approve'], ENV)).code).toBe(0);
      // staging gains an owner; prod loses both its objects (2 deletes)
      app.synth({
        staging: stackDoc(
          { namespace: 'guard-staging', base_url: staging.emu.url, credentials_from: { client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' } },
          { ...RESOURCES, dq_owner: { team: { title: 'Shop team' }, ops: { title: 'Ops' } } },
        ),
        prod: stackDoc({ namespace: 'guard-prod', base_url: prod.emu.url, credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } }, {}),
      });
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const r = await app.run(['apply', '--all-stacks', '--auto-approve', '--max-deletes', '1'], ENV);
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/--max-deletes/);
      expect(r.err).toContain('Error: 1 of 2 stack(s) cannot be applied: nothing was written to any stack.');
      expect(stateDiff(sBefore, staging.state())).toEqual([]);
      expect(stateDiff(pBefore, prod.state())).toEqual([]);
    } finally {
      app.remove();
    }
  });

  it('destroy --all-stacks deletes each stack on its own platform, exactly as its destroy plan said', async () => {
    const app = twoStackApp('gone');
    try {
      expect((await app.run(['apply', '--all-stacks', '--auto-approve'], ENV)).code).toBe(0);
      expect((await app.run(['plan', '--destroy', '--all-stacks', '--out', 'destroy-{stack}.json'], ENV)).code).toBe(0);
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const r = await app.run(['destroy', '--all-stacks', '--auto-approve'], ENV);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/All stacks \(2\): none failed\./);
      const s = compareWithPlan(readPlan(app, 'destroy-staging.json'), sBefore, staging.state());
      const p = compareWithPlan(readPlan(app, 'destroy-prod.json'), pBefore, prod.state());
      expect({ missing: s.missing, unexpected: s.unexpected }).toEqual({ missing: [], unexpected: [] });
      expect({ missing: p.missing, unexpected: p.unexpected }).toEqual({ missing: [], unexpected: [] });
      expect(s.happened).toContain(`delete dq_owner ${deriveId('demo', 'gone-staging', 'dq_owner', 'team')}`);
      expect(p.happened).toContain(`delete dq_owner ${deriveId('demo', 'gone-prod', 'dq_owner', 'team')}`);
    } finally {
      app.remove();
    }
  });
});

describe('stacks come and go', () => {
  const env = () => ({ DQ_BASE_URL: staging.emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' });

  it('a stack the app no longer has (left in cdktf.out, not in manifest.json) is never planned; dqform synth removes it', async () => {
    const app = new App();
    try {
      app.synth({ keep: stackDoc({ namespace: 'come-keep' }, RESOURCES), old: stackDoc({ namespace: 'come-old' }, RESOURCES) });
      expect((await app.run(['apply', '--all-stacks', '--auto-approve'], env())).code).toBe(0);
      // the app drops the stack "old": cdktf rewrites manifest.json and leaves stacks/old behind
      app.synth({ keep: stackDoc({ namespace: 'come-keep' }, RESOURCES) });
      expect(fs.existsSync(app.path('cdktf.out', 'stacks', 'old', 'cdk.tf.json'))).toBe(true);
      const r = await app.run(['plan', '--all-stacks'], env());
      expect(r.code).toBe(0);
      expect(r.out).toContain('(stack keep)');
      expect(r.out).not.toContain('(stack old)');
      expect(r.err).toContain(`Note: ${path.join('cdktf.out', 'stacks', 'old')}: not in ${path.join('cdktf.out', 'manifest.json')}, so not a stack of the app any more: not used.`);
      const one = await app.run(['plan', '--stack', 'old'], env());
      expect(one.code).toBe(1);
      expect(one.err).toContain('stack old is not a stack of the app any more');

      // dqform synth (an app that writes what cdktf writes) removes the leftover
      fs.writeFileSync(
        app.path('app.js'),
        `const fs = require('fs'); const p = require('path'); const out = process.env.CDKTF_OUTDIR;
fs.mkdirSync(p.join(out, 'stacks', 'keep'), { recursive: true });
fs.writeFileSync(p.join(out, 'stacks', 'keep', 'cdk.tf.json'), ${JSON.stringify(JSON.stringify(stackDoc({ namespace: 'come-keep' }, RESOURCES)))});
fs.writeFileSync(p.join(out, 'manifest.json'), JSON.stringify({ version: '0.21.0', stacks: { keep: { name: 'keep', synthesizedStackPath: 'stacks/keep/cdk.tf.json' } } }));`,
      );
      const s = await app.run(['synth', '--app', `"${process.execPath}" app.js`], {});
      expect(s.code).toBe(0);
      expect(s.err).toContain('the stack(s) the app no longer has: old');
      expect(fs.existsSync(app.path('cdktf.out', 'stacks', 'old'))).toBe(false);
      expect(fs.existsSync(app.path('cdktf.out', 'stacks', 'keep', 'cdk.tf.json'))).toBe(true);
    } finally {
      app.remove();
    }
  });

  it('destroy --namespace retires a namespace no code declares (confirm, guards), and refuses one a stack declares', async () => {
    const app = new App();
    try {
      app.synth({ keep: stackDoc({ namespace: 'ret-keep' }, RESOURCES), old: stackDoc({ namespace: 'ret-old' }, RESOURCES) });
      expect((await app.run(['apply', '--all-stacks', '--auto-approve'], env())).code).toBe(0);
      app.synth({ keep: stackDoc({ namespace: 'ret-keep' }, RESOURCES) });

      const declared = await app.run(['destroy', '--namespace', 'ret-keep', '--auto-approve'], env());
      expect(declared.code).toBe(1);
      expect(declared.err).toContain('--namespace ret-keep is declared by stack keep');

      const before = staging.state();
      const unconfirmed = await app.run(['destroy', '--namespace', 'ret-old'], env());
      expect(unconfirmed.code).toBe(1);
      expect(unconfirmed.err).toContain('Error: destroy needs confirmation, and there is no terminal to ask on.\n  Run it on a terminal to see the plan and confirm, or pass --auto-approve.');
      const guarded = await app.run(['destroy', '--namespace', 'ret-old', '--auto-approve', '--max-deletes', '1'], env());
      expect(guarded.code).toBe(1);
      expect(stateDiff(before, staging.state())).toEqual([]);

      const r = await app.run(['destroy', '--namespace', 'ret-old', '--auto-approve'], env());
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`dqform destroy plan for namespace "ret-old" in workspace "demo" on ${staging.host}`);
      const owner = deriveId('demo', 'ret-old', 'dq_owner', 'team');
      expect(stateDiff(before, staging.state())).toEqual([`delete dq_alert ret-old.orders`, `delete dq_owner ${owner}`, 'other alertFqns ret-old.orders'].sort());
      // what stays declared is untouched, and the retired namespace owns nothing
      expect((await app.run(['plan', '--stack', 'keep', '--detailed-exitcode'], env())).code).toBe(0);
    } finally {
      app.remove();
    }
  });

  it('destroy --namespace ignores a stack that declares the namespace on another platform (the same namespace on two platforms is allowed)', async () => {
    const stg = { base_url: staging.emu.url, credentials_from: { client_id: 'DQ_STAGING_CLIENT_ID', client_secret: 'DQ_STAGING_CLIENT_SECRET' } };
    const prd = { base_url: prod.emu.url, credentials_from: { client_id: 'DQ_PROD_CLIENT_ID', client_secret: 'DQ_PROD_CLIENT_SECRET' } };
    const app = new App();
    try {
      app.synth({ staging: stackDoc({ namespace: 'ret-two', ...stg }, RESOURCES), prod: stackDoc({ namespace: 'ret-two', ...prd }, RESOURCES) });
      expect((await app.run(['apply', '--all-stacks', '--auto-approve'], ENV)).code).toBe(0);
      // the staging environment is retired: its stack leaves the app, prod keeps the namespace on its own platform
      app.synth({ prod: stackDoc({ namespace: 'ret-two', ...prd }, RESOURCES) });
      const onStaging = { ...ENV, DQ_BASE_URL: staging.emu.url, DQ_CLIENT_ID: STG.id, DQ_CLIENT_SECRET: STG.secret };
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const r = await app.run(['destroy', '--namespace', 'ret-two', '--auto-approve'], onStaging);
      expect(r.err).not.toMatch(/Error/);
      expect(r.code).toBe(0);
      expect(r.out).toContain(`dqform destroy plan for namespace "ret-two" in workspace "demo" on ${staging.host}`);
      const owner = deriveId('demo', 'ret-two', 'dq_owner', 'team');
      expect(stateDiff(sBefore, staging.state())).toEqual(['delete dq_alert ret-two.orders', `delete dq_owner ${owner}`, 'other alertFqns ret-two.orders'].sort());
      expect(stateDiff(pBefore, prod.state())).toEqual([]);
      // on prod's platform the prod stack declares it: refused
      const onProd = { ...ENV, DQ_BASE_URL: prod.emu.url, DQ_CLIENT_ID: PRD.id, DQ_CLIENT_SECRET: PRD.secret };
      const refused = await app.run(['destroy', '--namespace', 'ret-two', '--auto-approve'], onProd);
      expect(refused.code).toBe(1);
      expect(refused.err).toContain('--namespace ret-two is declared by stack prod');
      expect(stateDiff(pBefore, prod.state())).toEqual([]);
      noSecrets(r.out, r.err, refused.out, refused.err);
    } finally {
      app.remove();
    }
  });

  it('adding a staging stack beside prod does not warn that the namespace was renamed, in text or markdown', async () => {
    const app = new App();
    // addresses no other test's namespace uses on this platform
    const RESOURCES = { dq_owner: { sib_team: { title: 'Shop team' } }, dq_alert: { sib_orders: alert('Orders') } };
    try {
      app.synth({ prod: stackDoc({ namespace: 'sib-prod' }, RESOURCES) });
      expect((await app.run(['apply', '--auto-approve'], env())).code).toBe(0);
      app.synth({ prod: stackDoc({ namespace: 'sib-prod' }, RESOURCES), staging: stackDoc({ namespace: 'sib-staging' }, RESOURCES) });
      const text = await app.run(['plan', '--stack', 'staging'], env());
      expect(text.code).toBe(0);
      expect(text.out).toMatch(/Plan: 2 to add/);
      expect(`${text.out}\n${text.err}`).not.toMatch(/renamed\?|dqform destroy/);
      const md = await app.run(['plan', '--stack', 'staging', '--format', 'markdown'], env());
      expect(md.code).toBe(0);
      expect(`${md.out}\n${md.err}`).not.toMatch(/renamed\?|dqform destroy/);
      // a real rename (the old stack gone from the app) still warns
      app.synth({ staging: stackDoc({ namespace: 'sib-staging' }, RESOURCES) });
      fs.rmSync(app.path('cdktf.out', 'stacks', 'prod'), { recursive: true });
      const renamed = await app.run(['plan', '--stack', 'staging'], env());
      expect(renamed.out).toMatch(/namespace "sib-staging" owns nothing here, but namespace "sib-prod" owns 2 object\(s\) at the same addresses .*: was the namespace renamed\?/);
    } finally {
      app.remove();
    }
  });
});

describe('one source of desired state', () => {
  it('./dqform.yaml beside cdktf.out is an error naming both, unless --file or --dir says which', async () => {
    const app = new App();
    const env = { DQ_BASE_URL: staging.emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
    try {
      app.synth({ code: stackDoc({ namespace: 'src-code' }, { dq_owner: { team: { title: 'From code' } } }) });
      fs.writeFileSync(app.path('dqform.yaml'), 'namespace: src-yaml\nowners:\n  team:\n    title: From YAML\n');
      const r = await app.run(['plan'], env);
      expect(r.code).toBe(1);
      expect(r.err).toContain('Error: two sources of desired state here: dqform.yaml and cdktf.out. Say which with --file dqform.yaml or --dir cdktf.out');
      expect(r.out).toBe('');
      const yaml = await app.run(['plan', '--file', 'dqform.yaml'], env);
      expect(yaml.code).toBe(0);
      expect(yaml.out).toContain('namespace "src-yaml"');
      const code = await app.run(['plan', '--dir', 'cdktf.out'], env);
      expect(code.code).toBe(0);
      expect(code.out).toContain('namespace "src-code"');
    } finally {
      app.remove();
    }
  });
});

describe('a YAML stack on its own platform', () => {
  it('dqform.yaml with baseUrl and credentialsFrom plans and applies against its own emulator (not DQ_BASE_URL, not DQ_CLIENT_ID), exactly as planned', async () => {
    const app = new App();
    try {
      fs.writeFileSync(
        app.path('dqform.yaml'),
        [
          'namespace: yaml-staging',
          `baseUrl: ${staging.emu.url}`,
          'credentialsFrom:',
          '  clientId: DQ_STAGING_CLIENT_ID',
          '  clientSecret: DQ_STAGING_CLIENT_SECRET',
          'owners:',
          '  team:',
          '    title: YAML team',
          'domains:',
          '  sales:',
          '    name: YAML sales',
          '',
        ].join('\n'),
      );
      // ENV's DQ_BASE_URL answers nothing and its DQ_CLIENT_ID/SECRET are wrong: only the file's platform and variables work
      const planned = await app.run(['plan', '--out', 'plan.json'], ENV);
      expect(planned.err).not.toMatch(/Error/);
      expect(planned.code).toBe(0);
      expect(planned.out).toContain(`dqform plan for namespace "yaml-staging" in workspace "demo" on ${staging.host}`);
      expect(planned.out).toMatch(/Plan: 2 to add, 0 to change, 0 to destroy\./);
      expect(readPlan(app, 'plan.json').platform).toBe(staging.host);
      const [sBefore, pBefore] = [staging.state(), prod.state()];
      const applied = await app.run(['apply', 'plan.json'], ENV);
      expect(applied.err).not.toMatch(/Error/);
      expect(applied.code).toBe(0);
      const s = compareWithPlan(readPlan(app, 'plan.json'), sBefore, staging.state());
      expect({ missing: s.missing, unexpected: s.unexpected }).toEqual({ missing: [], unexpected: [] });
      expect(s.happened).toContain(`create dq_owner ${deriveId('demo', 'yaml-staging', 'dq_owner', 'team')}`);
      expect(stateDiff(pBefore, prod.state())).toEqual([]);
      const again = await app.run(['plan', '--detailed-exitcode'], ENV);
      expect(again.code).toBe(0);
      expect(again.out).toContain('No changes.');
      // the same file with prod's credentials under the staging names: refused by staging's platform, nothing written
      const wrong = await app.run(['plan'], { ...ENV, DQ_STAGING_CLIENT_ID: PRD.id, DQ_STAGING_CLIENT_SECRET: PRD.secret });
      expect(wrong.code).toBe(1);
      noSecrets(planned.out, planned.err, applied.out, applied.err, again.out, wrong.out, wrong.err);
    } finally {
      app.remove();
    }
  });
});

describe('a saved plan applied in another workspace of the same platform', () => {
  it('is refused, nothing written', async () => {
    staging.emu.app.addCredential('other-ws-client', 'other-ws-secret', SCOPES, 'other-workspace');
    const app = new App();
    const env = (id: string, secret: string) => ({ DQ_BASE_URL: staging.emu.url, DQ_CLIENT_ID: id, DQ_CLIENT_SECRET: secret });
    try {
      app.synth({ ws: stackDoc({ namespace: 'ws-check' }, RESOURCES) });
      expect((await app.run(['plan', '--out', 'plan.json'], env('demo-admin', 'demo-secret'))).code).toBe(0);
      expect((await app.run(['plan'], env('other-ws-client', 'other-ws-secret'))).code).toBe(0);
      const before = staging.state();
      const r = await app.run(['apply', 'plan.json'], env('other-ws-client', 'other-ws-secret'));
      expect(r.code).toBe(1);
      expect(r.err).toContain('the plan was made for workspace "demo", but these credentials act in "other-workspace"');
      expect(staging.state()).toEqual(before);
    } finally {
      app.remove();
    }
  });
});

describe('a saved plan that does not say its platform', () => {
  it('is refused, nothing written (made by an older dqform, or the field cut by hand)', async () => {
    const app = new App();
    const env = { DQ_BASE_URL: staging.emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
    try {
      app.synth({ old: stackDoc({ namespace: 'noplat-old' }, RESOURCES) });
      expect((await app.run(['plan', '--out', 'plan.json'], env)).code).toBe(0);
      const { platform, ...rest } = readPlan(app, 'plan.json');
      expect(platform).toBe(staging.host);
      fs.writeFileSync(app.path('plan.json'), JSON.stringify(rest));
      const before = staging.state();
      const r = await app.run(['apply', 'plan.json'], env);
      expect(r.code).toBe(1);
      expect(r.err).toContain('plan.json does not say which platform it was planned against (made by an older dqform, or edited): nothing was written');
      expect(staging.state()).toEqual(before);
    } finally {
      app.remove();
    }
  });
});
