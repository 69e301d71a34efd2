/**
 * Issue 13's end to end: `dqform emulator` as a child process (as a user runs it), a plan of
 * examples/acme against it through the CLI.
 * - With gRPC (the default): every rule change has effects; none is "effects unknown".
 * - With `--no-grpc`: the rules REST cannot carry (per-metric sensitivities, a product rule's
 *   strategy markers, a SQL-test rule's tests) say "effects unknown" plainly, in the plan JSON and the text; every other rule has
 *   exactly the effects of the gRPC run.
 *
 * Each emulator first gets acme without its rules (owners, domains, data products, ...) applied:
 * the product rule's preview needs its data product to exist, which on a first plan it does not
 * (the platform cannot preview a rule over a product it has never seen: the first plan says
 * "effects known after apply", test/lifecycle/known-after-apply.test.ts). Then the plan of the
 * whole of acme is six rule creations, each previewed.
 *
 * @gateway
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { build as buildAcme } from '../../examples/acme/main';
import type { Change, Plan } from '../../schemas/model/plan';
import { main } from '../../src/cli/main';
import { baseEnv, LAUNCHER, ROOT } from '../cli/helpers';
import { synth } from '../constructs/synth';

const RULE_TYPES = ['dq_monitor_deployment_rule', 'dq_sql_test_deployment_rule'];
/**
 * The acme rules whose preview a GET query string cannot carry: per-metric sensitivities, the
 * product rule's empty strategy markers (`upstream: { sources: {} }`, `self: { all: {} }`), a
 * SQL-test rule's tests.
 */
const REST_CANNOT_CARRY = ['dq_monitor_deployment_rule.inventory_product', 'dq_monitor_deployment_rule.mart_tables', 'dq_sql_test_deployment_rule.dim_keys_unique'];

interface Emulator {
  child: ChildProcess;
  url: string;
  grpcEndpoint: string | undefined;
  out: string;
}

/** `dqform emulator --port 0 ...extra`, resolved once its banner is complete. */
function startEmulatorChild(extra: string[]): Promise<Emulator> {
  const child = spawn(process.execPath, [LAUNCHER, 'emulator', '--port', '0', '--seed', 'demo', ...extra], { cwd: ROOT, env: baseEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`emulator did not start:\n${out}\n${err}`)), 30_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!out.includes('Press Ctrl-C to stop.')) return;
      clearTimeout(timer);
      const url = /DQ_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
      const grpcEndpoint = /DQ_GRPC_ENDPOINT=(127\.0\.0\.1:\d+)/.exec(out)?.[1];
      resolve({ child, url, grpcEndpoint, out });
    });
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}:\n${out}\n${err}`)));
  });
}

function stop(e: Emulator): Promise<void> {
  return new Promise((resolve) => {
    if (e.child.exitCode !== null) return resolve();
    e.child.once('exit', () => resolve());
    e.child.kill('SIGTERM');
  });
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-acme-previews-'));
  const acme = synth(buildAcme, 'acme').json;
  const write = (name: string, doc: unknown) => {
    const stackDir = path.join(dir, name, 'stacks', 'acme');
    fs.mkdirSync(stackDir, { recursive: true });
    fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify(doc));
  };
  write('out', acme);
  const resource = Object.fromEntries(Object.entries(acme.resource).filter(([t]) => !RULE_TYPES.includes(t)));
  write('base', { ...acme, resource });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Runs the CLI in-process against `e` on the synth output `out` of `dir`; expects exit 0. */
async function cli(e: Emulator, out: string, args: string[]): Promise<string> {
  const env = { DQ_BASE_URL: e.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret', NO_COLOR: '1', ...(e.grpcEndpoint ? { DQ_GRPC_ENDPOINT: e.grpcEndpoint } : {}) };
  const lines: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--dir', path.join(dir, out)], { out: (s) => lines.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  expect({ code, err: err.filter((l) => /error/i.test(l)) }).toEqual({ code: 0, err: [] });
  return lines.join('\n');
}

/** Applies acme without its rules, then plans all of acme: `--json` and text. */
async function planAcme(e: Emulator): Promise<{ plan: Plan; text: string }> {
  await cli(e, 'base', ['apply', '--auto-approve']);
  return { plan: JSON.parse(await cli(e, 'out', ['plan', '--format', 'json'])) as Plan, text: await cli(e, 'out', ['plan']) };
}

const ruleChanges = (p: Plan): Change[] => p.changes.filter((c) => RULE_TYPES.includes(c.type) && c.action !== 'noop' && c.action !== 'unmanaged');

let withGrpc: { plan: Plan; text: string };

it('with gRPC: every rule change of acme shows its effects, none is unknown', async () => {
  const e = await startEmulatorChild([]);
  try {
    expect(e.grpcEndpoint).toBeDefined();
    withGrpc = await planAcme(e);
  } finally {
    await stop(e);
  }
  const rules = ruleChanges(withGrpc.plan);
  expect(rules.map((c) => c.address).sort()).toEqual([
    'dq_monitor_deployment_rule.exclude_dates',
    'dq_monitor_deployment_rule.exclude_scratch',
    'dq_monitor_deployment_rule.inventory_product',
    'dq_monitor_deployment_rule.mart_tables',
    'dq_monitor_deployment_rule.orders_static',
    'dq_sql_test_deployment_rule.dim_keys_unique',
  ]);
  for (const c of rules) {
    expect({ address: c.address, error: c.effects?.error }).toEqual({ address: c.address, error: undefined });
    expect(c.effects).toBeDefined();
  }
  const by = (a: string) => rules.find((c) => c.address === a)!.effects!;
  expect(by('dq_monitor_deployment_rule.mart_tables').monitorsToCreate.length).toBeGreaterThan(5);
  expect(by('dq_monitor_deployment_rule.orders_static').monitorsToCreate).toEqual(['wh-prod::mart::fct_orders']);
  expect(by('dq_sql_test_deployment_rule.dim_keys_unique').testsToCreate.length).toBeGreaterThan(3);
  expect(withGrpc.text).not.toMatch(/effects unknown/);
  // an exclusive rule on a workspace without monitors: previewed, and the plan says nothing happens
  expect(withGrpc.text).toMatch(/exclude_dates \([^)]*\) will be created[^#]*no downstream effects/);
  expect(withGrpc.text).toMatch(/SQL tests to create: \d+/);
}, 120_000);

it('with --no-grpc: "effects unknown" for the rules REST cannot carry, the same effects as with gRPC for the others', async () => {
  const e = await startEmulatorChild(['--no-grpc']);
  let without: { plan: Plan; text: string };
  try {
    expect(e.grpcEndpoint).toBeUndefined();
    expect(e.out).toMatch(/gRPC: +off \(--no-grpc\)/);
    without = await planAcme(e);
  } finally {
    await stop(e);
  }
  const rules = ruleChanges(without.plan);
  expect(rules.length).toBe(ruleChanges(withGrpc.plan).length);
  for (const c of rules) {
    if (REST_CANNOT_CARRY.includes(c.address)) {
      expect(c.effects?.error).toMatch(/^effects unknown: cannot be previewed over REST: .*(metricOptions|tests|productConfig\.(self|upstream)).*the gRPC preview failed: .*UNAVAILABLE/);
      expect(c.effects?.monitorsToCreate).toEqual([]);
      expect(c.effects?.testsToCreate).toEqual([]);
    } else {
      const same = ruleChanges(withGrpc.plan).find((x) => x.address === c.address)!;
      expect({ address: c.address, effects: c.effects }).toEqual({ address: c.address, effects: same.effects });
    }
  }
  // plainly, in the text a reviewer reads, under each of those rules
  for (const a of REST_CANNOT_CARRY) expect(without.text).toMatch(new RegExp(`# ${a.replace('.', '\\.')} \\([^)]*\\) will be created[^#]*! effects unknown: cannot be previewed over REST`));
  expect(without.text.match(/! effects unknown/g)).toHaveLength(REST_CANNOT_CARRY.length);
}, 120_000);
