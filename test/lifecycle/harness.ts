/**
 * Lifecycle harness: runs a scenario through the spawned CLI (`dqform` as a child process, as a
 * user runs it) against a real emulator process (`dqform emulator --port 0`), snapshots the
 * emulator's WHOLE state (`GET /__emulator/state`) before and after apply, and compares the
 * difference with what the saved plan's JSON said.
 *
 * The comparison works on "effect lines", one per object the platform holds:
 * - `create|write|delete <type> <id>` for objects of dqform's kinds (`<id>`: the fqn for alerts,
 *   the lower-case id otherwise). `write` is an object present before and after whose version
 *   moved: a plan's `update`, and its `replace` (deleted, then created again at the same id).
 * - `monitor+|monitor~|monitor- <rule id> <asset path>`: automated monitors a deployment rule
 *   places, changes in place or removes (the plan's `monitorsToCreate`, `settingsChanges`,
 *   `monitorsToDelete` of that rule's change).
 * - `test+|test~|test- <rule id> <table path>/<test name>`: SQL tests a SQL-test rule deploys
 *   (`testsToCreate`, `testsToUpdate`, `testsToDelete`).
 * - a rule whose effects are "known after apply" may create monitors and tests (`monitor+ <rule> *`),
 *   nothing else: apply previews it once its dependencies exist and stops before it otherwise.
 * - cascades: `delete <type> <id>` for `deleted` (an owner's ownerships), and an optional `write`
 *   for `loses-parent`, `loses-member`, `loses-selection` (the platform may or may not rewrite
 *   the object that loses its reference).
 * - `other <collection> <id>`: anything else that changed (always unexpected, except the
 *   `alertFqns` index entry that goes with an alert's create or delete).
 *
 * {@link compareWithPlan} returns what the plan said that did not happen (`missing`) and what
 * happened that the plan did not say (`unexpected`); a scenario asserts both are empty.
 * test/lifecycle/README.md lists the scenarios and the command that runs each.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { Plan } from '../../schemas/model/plan';
import { baseEnv, dqform, LAUNCHER, ROOT, type Run } from '../cli/helpers';

export type { Run };

/** The emulator's collection of each dqform kind. */
export const KIND_COLLECTIONS: Record<string, string> = {
  owners: 'dq_owner',
  domains: 'dq_domain',
  dataproducts: 'dq_data_product',
  ownerships: 'dq_ownership',
  alerts: 'dq_alert',
  deploymentRules: 'dq_monitor_deployment_rule',
  sqlTests: 'dq_sql_test',
  sqlTestDeploymentRules: 'dq_sql_test_deployment_rule',
  savedViews: 'dq_saved_view',
  categorisationRules: 'dq_check_categorisation_rule',
};

/** `GET /__emulator/state`: workspace -> collection -> items (id -> [version, object]). */
export interface EmulatorState {
  workspaces: Record<string, Record<string, { items: Record<string, [number, Record<string, unknown>]>; tombstones?: Record<string, number> }>>;
}

/** A `dqform emulator` child process. */
export interface EmulatorProcess {
  url: string;
  grpcEndpoint: string | undefined;
  child: ChildProcess;
  /** The whole state now. */
  state(): Promise<EmulatorState>;
  /** SIGTERM, resolved once it exited. */
  stop(): Promise<void>;
}

/** Starts `dqform emulator --port 0 --seed <seed> ...extra` and resolves once its banner is complete. */
export function startEmulatorProcess(opts: { seed?: 'demo' | 'empty'; extra?: string[] } = {}): Promise<EmulatorProcess> {
  const child = spawn(process.execPath, [LAUNCHER, 'emulator', '--port', '0', '--seed', opts.seed ?? 'demo', ...(opts.extra ?? [])], {
    cwd: ROOT,
    // the gateway-encoding pass (test/config/jest.gateway.config.js) sets these in the test process
    env: baseEnv({ DQ_EMULATOR_MARSHAL: process.env.DQ_EMULATOR_MARSHAL, DQ_EMULATOR_ENUMS: process.env.DQ_EMULATOR_ENUMS }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`emulator did not start:\n${out}\n${err}`));
    }, 40_000);
    child.stderr!.setEncoding('utf8').on('data', (d: string) => (err += d));
    child.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (!out.includes('Press Ctrl-C to stop.')) return;
      clearTimeout(timer);
      const url = /DQ_BASE_URL=(http:\/\/127\.0\.0\.1:\d+)/.exec(out)![1];
      const grpcEndpoint = /DQ_GRPC_ENDPOINT=(127\.0\.0\.1:\d+)/.exec(out)?.[1];
      resolve({
        url,
        grpcEndpoint,
        child,
        state: async () => (await (await fetch(`${url}/__emulator/state`)).json()) as EmulatorState,
        stop: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            child.once('exit', () => done());
            child.kill('SIGTERM');
          }),
      });
    });
    child.on('exit', (code) => reject(new Error(`emulator exited ${code}:\n${out}\n${err}`)));
  });
}

/** One object a collection held: its version and content (undefined: absent or soft-deleted). */
function liveItems(state: EmulatorState, workspace: string, collection: string): Map<string, { version: number; obj: Record<string, unknown> }> {
  const out = new Map<string, { version: number; obj: Record<string, unknown> }>();
  const items = state.workspaces[workspace]?.[collection]?.items ?? {};
  for (const [id, [version, obj]] of Object.entries(items)) if (!obj.deletedAt) out.set(id, { version, obj });
  return out;
}

const lower = (s: unknown) => String(s).toLowerCase();

/** The key of an object of a dqform kind in effect lines: the fqn of an alert, else the lower-case id. */
function keyOf(collection: string, id: string, obj: Record<string, unknown>): string {
  return collection === 'alerts' ? String(obj.fqn) : lower(id);
}

/** `tablePath/testName` of a deployed test (id `<ruleId>:<tablePath>:<testName>`). */
function testRef(id: string, obj: Record<string, unknown>): string {
  const rule = String(obj.deploymentRuleId);
  const name = String(obj.name);
  const rest = id.slice(rule.length + 1);
  return `${rest.endsWith(`:${name}`) ? rest.slice(0, -name.length - 1) : rest}/${name}`;
}

/** What changed between two states of `workspace`, as sorted effect lines (see the module comment). */
export function stateDiff(before: EmulatorState, after: EmulatorState, workspace = 'demo'): string[] {
  const lines: string[] = [];
  const names = new Set([...Object.keys(before.workspaces[workspace] ?? {}), ...Object.keys(after.workspaces[workspace] ?? {})]);
  for (const collection of [...names].sort()) {
    const a = liveItems(before, workspace, collection);
    const b = liveItems(after, workspace, collection);
    const line = (op: '+' | '~' | '-', id: string, obj: Record<string, unknown>): string => {
      if (collection === 'monitors') return `monitor${op} ${lower(obj.ruleId)} ${String(obj.assetPath)}`;
      if (collection === 'sqlTests' && obj.deploymentRuleId) return `test${op} ${lower(obj.deploymentRuleId)} ${testRef(id, obj)}`;
      const type = KIND_COLLECTIONS[collection];
      if (!type) return `other ${collection} ${id}`;
      return `${op === '+' ? 'create' : op === '~' ? 'write' : 'delete'} ${type} ${keyOf(collection, id, obj)}`;
    };
    for (const [id, x] of b) {
      const was = a.get(id);
      if (!was) lines.push(line('+', id, x.obj));
      else if (was.version !== x.version) lines.push(line('~', id, x.obj));
    }
    for (const [id, x] of a) if (!b.has(id)) lines.push(line('-', id, x.obj));
  }
  return [...new Set(lines)].sort();
}

/** What a plan says will happen: lines that must happen, and lines that may (cascades that leave a reference dangling). */
export function expectedFromPlan(plan: Plan): { must: string[]; may: string[] } {
  const must = new Set<string>();
  const may = new Set<string>();
  for (const c of plan.changes) {
    const key = c.type === 'dq_alert' ? String(c.fqn ?? c.id) : lower(c.id);
    if (c.action === 'create') must.add(`create ${c.type} ${key}`);
    else if (c.action === 'update' || c.action === 'replace') must.add(`write ${c.type} ${key}`);
    else if (c.action === 'delete') must.add(`delete ${c.type} ${key}`);
    else continue;
    if (c.type === 'dq_alert' && (c.action === 'create' || c.action === 'delete')) may.add(`other alertFqns ${key}`);
    const e = c.effects;
    if (!e) continue;
    const rule = lower(c.id);
    // effects known after apply: the rule may only create (apply stops before it otherwise)
    if (e.afterApply !== undefined) may.add(`monitor+ ${rule} *`).add(`test+ ${rule} *`);
    for (const p of e.monitorsToCreate) must.add(`monitor+ ${rule} ${p}`);
    for (const p of e.monitorsToDelete) must.add(`monitor- ${rule} ${p}`);
    for (const s of e.settingsChanges) must.add(`monitor~ ${rule} ${s.assetPath}`);
    for (const t of e.testsToCreate) must.add(`test+ ${rule} ${t}`);
    for (const t of e.testsToUpdate) must.add(`test~ ${rule} ${t}`);
    for (const t of e.testsToDelete) must.add(`test- ${rule} ${t}`);
    for (const x of e.cascade) {
      // an object the plan also deletes or replaces: its own change says what happens to it
      if (x.alsoDeleted) continue;
      if (x.effect === 'deleted') must.add(`delete ${x.type} ${lower(x.id)}`);
      else may.add(`write ${x.type} ${lower(x.id)}`);
    }
  }
  return { must: [...must].sort(), may: [...may].sort() };
}

/** What the plan said that did not happen (`missing`), and what happened that it did not say (`unexpected`). */
export function compareWithPlan(plan: Plan, before: EmulatorState, after: EmulatorState): { missing: string[]; unexpected: string[]; happened: string[] } {
  const happened = stateDiff(before, after, plan.workspace);
  const { must, may } = expectedFromPlan(plan);
  const seen = new Set(happened);
  const allowed = new Set([...must, ...may]);
  const wildcard = may.filter((l) => l.endsWith(' *')).map((l) => l.slice(0, -1));
  const ok = (l: string) => allowed.has(l) || wildcard.some((w) => l.startsWith(w));
  return { missing: must.filter((l) => !seen.has(l)), unexpected: happened.filter((l) => !ok(l)), happened };
}

/**
 * The `missing` lines the plan itself warned about: monitor creations that a rule's preview (made
 * alone) listed but that another rule written by the same plan takes (an asset in several
 * previews) or removes (an exclusive rule's path), both named by the plan's warning that "rules
 * written together divide assets among themselves" (planner sharedPreviewsWarning). Returns the
 * missing lines that warning does NOT explain.
 */
export function unexplainedMissing(plan: Plan, missing: readonly string[]): string[] {
  const warning = plan.diagnostics.find((d) => d.severity === 'warning' && /rules written together divide assets/.test(d.summary));
  const detail = warning?.detail ?? '';
  return missing.filter((l) => {
    const m = /^monitor\+ \S+ (.+)$/.exec(l);
    return !(m && detail.includes(`${m[1]} (`));
  });
}

/** A temp workspace: stack files under `<dir>/cdktf.out`, the CLI spawned against one emulator. */
export class Scenario {
  readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-lifecycle-'));

  constructor(
    readonly emu: EmulatorProcess,
    readonly creds: { clientId: string; clientSecret: string } = { clientId: 'demo-admin', clientSecret: 'demo-secret' },
  ) {}

  /** Writes `cdktf.out/stacks/<stack>/cdk.tf.json` (a Terraform JSON document, or the stack's resources with namespace = stack). */
  stack(stack: string, doc: Record<string, unknown>): void {
    const stackDir = path.join(this.dir, 'cdktf.out', 'stacks', stack);
    fs.mkdirSync(stackDir, { recursive: true });
    const full = 'resource' in doc || 'provider' in doc ? doc : { provider: { dq: [{ namespace: stack }] }, resource: doc };
    fs.writeFileSync(path.join(stackDir, 'cdk.tf.json'), JSON.stringify(full, null, 2));
  }

  /** The environment a CI job would give dqform for this emulator. */
  env(creds = this.creds): Record<string, string | undefined> {
    return { DQ_BASE_URL: this.emu.url, DQ_GRPC_ENDPOINT: this.emu.grpcEndpoint, DQ_CLIENT_ID: creds.clientId, DQ_CLIENT_SECRET: creds.clientSecret, NO_COLOR: '1' };
  }

  /** Spawns `dqform ...args` in the workspace. */
  run(args: string[], opts: { creds?: { clientId: string; clientSecret: string }; env?: Record<string, string | undefined> } = {}): Promise<Run> {
    return dqform(args, { cwd: this.dir, env: { ...this.env(opts.creds), ...opts.env }, timeoutMs: 90_000 });
  }

  path(...p: string[]): string {
    return path.join(this.dir, ...p);
  }

  /** `dqform plan --out <file> ...args`; the plan JSON it saved (undefined when it wrote none). */
  async plan(args: string[] = [], file = 'plan.json'): Promise<{ run: Run; plan: Plan | undefined; file: string }> {
    const out = this.path(file);
    fs.rmSync(out, { force: true });
    const run = await this.run(['plan', '--out', out, ...args]);
    return { run, plan: fs.existsSync(out) ? (JSON.parse(fs.readFileSync(out, 'utf8')) as Plan) : undefined, file: out };
  }

  /**
   * Snapshots the emulator's state, runs `dqform ...applyArgs` (an apply of `plan`), snapshots
   * again and compares the difference with `plan`.
   */
  async applyChecked(plan: Plan, applyArgs: string[], opts: { creds?: { clientId: string; clientSecret: string } } = {}) {
    const before = await this.emu.state();
    const run = await this.run(applyArgs, opts);
    const after = await this.emu.state();
    return { run, before, after, ...compareWithPlan(plan, before, after) };
  }

  remove(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}
