/**
 * A table of bad inputs through the CLI, in-process: each ends with a clear diagnostic (naming
 * the file or address and what to do), exit 1, and no write request reaching the platform
 * (the emulator's counters show no write under /api).
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { cli, emulator, fastClient, resetCounters, writeRequests, writeStack, type RunningEmulator } from './helpers';
import { derivedPatch, planSummary } from '../../src/engine/plan-check';
import type { Change } from '../../schemas/model/plan';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await emulator({ seed: 'demo' });
  emu.app.addCredential('other-admin', 'other-secret', ['SCOPE_MCP_WRITE', 'SCOPE_ENTITY_READ', 'SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_ISSUES_READ'], 'other');
});
afterAll(() => emu.close());
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-bad-'));
  await resetCounters(emu);
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const NS = 'res-bad';
const provider = { dq: [{ namespace: NS }] };
const sqlTest = (name: unknown) => ({ name, platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: 'select 1' });
const GOOD = { provider, resource: { dq_sql_test: { t: sqlTest('T') } } };
const alert = (ql: string) => ({ name: 'A', issue_lifecycle: { trigger: { resolver_ql: ql }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2] } } });

interface Case {
  name: string;
  doc: unknown;
  /** What stderr must say (address or file, and the problem). */
  expect: RegExp[];
}

const CASES: Case[] = [
  { name: 'malformed JSON', doc: '{"provider": {"dq": [{"namespace": "res-bad"}]}, "resource": {,}}', expect: [/cdk\.tf\.json is not valid JSON/, /Re-run `dqform synth`/] },
  { name: 'truncated JSON', doc: JSON.stringify(GOOD).slice(0, 60), expect: [/cdk\.tf\.json is not valid JSON/, /Re-run `dqform synth`/] },
  { name: 'not an object', doc: '[1, 2, 3]', expect: [/not a Terraform JSON object/, /synth/] },
  { name: 'no namespace', doc: { resource: GOOD.resource }, expect: [/no namespace/, /namespace/] },
  { name: 'wrong type', doc: { provider, resource: { dq_sql_test: { t: sqlTest(42) } } }, expect: [/dq_sql_test\.t/, /name/] },
  { name: 'unknown resource type', doc: { provider, resource: { dq_widget: { w: { a: 1 } } } }, expect: [/unknown resource type dq_widget/, /dqform manages/] },
  { name: 'oversized string', doc: { provider, resource: { dq_domain: { d: { name: 'x'.repeat(5000) } } } }, expect: [/dq_domain\.d/, /name/] },
  { name: 'bad ResolverQL', doc: { provider, resource: { dq_alert: { a: alert('with_type("table"') } } }, expect: [/dq_alert\.a/, /ResolverQL|resolver_ql|resolverQl/i] },
  { name: 'reference to nothing', doc: { provider, resource: { dq_ownership: { o: { owner_id: '${dq_owner.missing.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } } } }, expect: [/dq_ownership\.o/, /dq_owner\.missing/] },
  {
    name: 'domain cycle',
    doc: { provider, resource: { dq_domain: { a: { name: 'A', parent_id: '${dq_domain.b.id}' }, b: { name: 'B', parent_id: '${dq_domain.a.id}' } } } },
    expect: [/dq_domain\.[ab]/, /cycle|loop/i],
  },
  // issue 12: each caught offline (validate), naming the field, before any write
  {
    name: 'invalid enum value (the allowed ones listed)',
    doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), severity: 'SEVERITY_HUGE' } } } },
    expect: [/dq_sql_test\.t: severity: expected one of SEVERITY_WARNING, SEVERITY_ERROR, SEVERITY_INFO \(or their numbers 1, 2, 3\); got "SEVERITY_HUGE"/],
  },
  { name: 'invalid RRULE', doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), recurrence_rule: 'FREQ=SOMETIMES' } } } }, expect: [/dq_sql_test\.t: recurrenceRule: bad RRULE "FREQ=SOMETIMES": FREQ=SOMETIMES is not one of SECONDLY/, /FREQ=DAILY;BYHOUR=6/] },
  { name: 'RRULE out of range', doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), recurrence_rule: 'FREQ=DAILY;BYHOUR=25' } } } }, expect: [/dq_sql_test\.t: recurrenceRule: bad RRULE .*BYHOUR 25 is outside 0\.\.23/] },
  // grpc-facts `recurrence_rule`: a SQL-test rule's schedule needs an inline DTSTART: (the plain form is refused by the platform)
  {
    name: 'SQL-test rule schedule without an inline DTSTART:',
    doc: { provider, resource: { dq_sql_test_deployment_rule: { r: { title: 'R', static_config: { path: 'wh-prod::mart::fct_orders', recurrence_rule: 'FREQ=DAILY;BYHOUR=7', tests: [{ name: 'ids', not_null: { columns: ['order_id'] } }] } } } } },
    expect: [/dq_sql_test_deployment_rule\.r: staticConfig\.recurrenceRule: RRULE "FREQ=DAILY;BYHOUR=7" has no inline DTSTART/, /write "DTSTART:20260101T000000Z\\nRRULE:FREQ=DAILY;BYHOUR=7"/],
  },
  { name: 'invalid time zone', doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), timezone: 'Mars/Olympus' } } } }, expect: [/dq_sql_test\.t: timezone: bad time zone: "Mars\/Olympus" is not a known IANA time zone/, /Europe\/Berlin/] },
  {
    name: 'ignore_changes naming a field that does not exist',
    doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), lifecycle: { ignore_changes: ['nmae'] } } } } },
    expect: [/dq_sql_test\.t: lifecycle\.ignore_changes\[0\]: "nmae" is not a field of dq_sql_test; did you mean "name"\?/, /recurrence_rule/],
  },
  {
    name: 'ignore_changes naming a nested field that does not exist',
    doc: { provider, resource: { dq_alert: { a: { ...alert('with_type("table")'), lifecycle: { ignore_changes: ['issue_lifecycle.setings'] } } } } },
    expect: [/dq_alert\.a: lifecycle\.ignore_changes\[0\]: "issue_lifecycle\.setings" is not a field of dq_alert \(no "setings" in issue_lifecycle\); did you mean "issue_lifecycle\.settings"\?/],
  },
  { name: 'count meta-argument', doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), count: 3 } } } }, expect: [/dq_sql_test\.t/, /"count" is not supported/, /one construct per object/] },
];

describe.each(CASES)('bad input: $name', (c) => {
  it.each([['validate'], ['plan'], ['apply', '--auto-approve']])('%s: a diagnostic, exit 1, no write', async (...args) => {
    writeStack(dir, NS, c.doc);
    const r = await cli(emu.url, dir, args);
    expect(r.code).toBe(1);
    for (const re of c.expect) expect(r.err + r.out).toMatch(re);
    expect(r.err).not.toMatch(/Internal error| {4}at /);
    expect(await writeRequests(emu)).toEqual({});
  });
});

describe('bad input: unknown field', () => {
  // An unknown attribute in a resource body (a typo such as `timezon` or `colour`) is an error
  // naming the address and the field, exit 1, no write (zod objects would otherwise strip it).
  it.each([['validate'], ['plan'], ['apply', '--auto-approve']])('%s: a diagnostic naming the field, exit 1, no write', async (...args) => {
    writeStack(dir, 'res-bad-unknown', { provider: { dq: [{ namespace: 'res-bad-unknown' }] }, resource: { dq_sql_test: { t: { ...sqlTest('T'), colour: 'red' } } } });
    const r = await cli(emu.url, dir, args);
    expect(await writeRequests(emu)).toEqual({});
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/dq_sql_test\.t/);
    expect(r.err).toMatch(/colour/);
  });
});

describe('bad input: a YAML alias bomb (billion laughs)', () => {
  const BOMB = ['namespace: res-bad-yaml', 'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]', ...'bcdefghi'.split('').map((x, i) => `${x}: &${x} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`)].join('\n');
  it.each([['validate'], ['plan'], ['apply', '--auto-approve']])('%s: refused at the first alias, exit 1, no write, in well under the time a 10^9 expansion would take', async (...args) => {
    fs.writeFileSync(path.join(dir, 'dqform.yaml'), BOMB);
    const started = Date.now();
    const r = await cli(emu.url, dir, [...args, '--file', 'dqform.yaml']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/YAML: the aliases \(\*name\) expand to too much data/);
    expect(r.err).toMatch(/at dqform\.yaml:3:8/);
    expect(r.err).not.toMatch(/Internal error/);
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(await writeRequests(emu)).toEqual({});
  });
});

describe('bad input: --out into a directory that does not exist', () => {
  it('plan --out missing/plan.json: exit 1 naming the directory, checked before planning (not one request), nothing written', async () => {
    writeStack(dir, NS, GOOD);
    await fetch(`${emu.url}/__emulator/requests/reset`, { method: 'POST' });
    const r = await cli(emu.url, dir, ['plan', '--out', 'missing/plan.json']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--out missing\/plan\.json: the directory missing does not exist; nothing was planned/);
    expect(r.err).toMatch(/mkdir -p missing/);
    const counted = (await (await fetch(`${emu.url}/__emulator/requests`)).json()) as { total: number };
    expect(counted.total).toBe(0);
    expect(fs.existsSync(path.join(dir, 'missing'))).toBe(false);
  });
  it('plan --out naming a directory: exit 1, before planning', async () => {
    writeStack(dir, NS, GOOD);
    fs.mkdirSync(path.join(dir, 'plans'));
    const r = await cli(emu.url, dir, ['plan', '--out', 'plans']);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/--out plans is a directory/);
  });
});

describe('saved plan files', () => {
  async function savedPlan(creds?: [string, string]) {
    writeStack(dir, 'res-plan-file', { provider: { dq: [{ namespace: 'res-plan-file' }] }, resource: { dq_sql_test: { t: sqlTest('T'), u: sqlTest('U') } } });
    const file = path.join(dir, 'plan.json');
    const r = await cli(emu.url, dir, ['plan', '--out', file], creds);
    expect(r.code).toBe(0);
    await resetCounters(emu);
    return { file, json: JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown> & { changes: Record<string, unknown>[] } };
  }
  const applyFile = async (file: string) => cli(emu.url, dir, ['apply', file]);

  it('a plan file cut short: exit 1 naming the file, no write', async () => {
    const { file } = await savedPlan();
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 100));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/cannot read plan file .*plan\.json/);
    expect(r.err).toMatch(/dqform plan --out/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('a field removed by hand: exit 1 naming the field, no write', async () => {
    const { file, json } = await savedPlan();
    delete json.workspace;
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not a dqform plan.*workspace/);
    expect(r.err).toMatch(/do not edit it by hand/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('an action changed by hand (create -> update of an object that does not exist): refused, naming the address, no write', async () => {
    const { file, json } = await savedPlan();
    const ch = json.changes.find((x) => x.address === 'dq_sql_test.t')!;
    ch.action = 'update';
    // made consistent as a careful editor would (patch and summary follow the change), so that
    // the comparison with a fresh plan is what refuses it, not the file's own checks
    ch.patch = derivedPatch(ch as unknown as Change);
    json.summary = planSummary(json.changes as unknown as Change[]);
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/dq_sql_test\.t/);
    expect(r.err).toMatch(/re-run plan|plan again/i);
    expect(await writeRequests(emu)).toEqual({});
  });

  // issue 12: apply plans again from the same desired state and live state before its first
  // write, and refuses unless the fresh plan does what the saved one says
  it('a value edited by hand in after: refused naming the address and the field, no write', async () => {
    const { file, json } = await savedPlan();
    const ch = json.changes.find((x) => x.address === 'dq_sql_test.t')!;
    (ch.after as Record<string, unknown>).sqlExpression = 'delete from mart.orders';
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the saved plan is not what dqform would do now \(the plan file was edited, or live state changed since it was made\); apply refuses it and wrote nothing:\n {2}dq_sql_test\.t: the saved plan would write something other than what the code says \(sqlExpression\)/);
    expect(r.err).toMatch(/never edit a plan file by hand/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('a delete of a UI-made owner added by hand: refused, no write, the owner is still there', async () => {
    const { file, json } = await savedPlan();
    const uiOwner = '0b0b0b0b-0000-4000-8000-0000000000ff';
    const raw = fastClient(emu.url);
    await raw.owners.upsertOwner({ id: uiOwner, title: 'Made in the UI' });
    await resetCounters(emu);
    json.changes.push({ address: `dq_owner["${uiOwner}"]`, type: 'dq_owner', action: 'delete', id: uiOwner, before: { title: 'Made in the UI' }, after: null, reasons: ['no longer declared'] });
    json.summary = planSummary(json.changes as unknown as Change[]); // consistent, as a careful editor would make it
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(new RegExp(`dq_owner\\["${uiOwner}"\\]: the saved plan would delete it, a plan made now does not have it`));
    expect(await writeRequests(emu)).toEqual({});
    expect(Object.keys(await raw.owners.batchGetOwners([uiOwner]))).toEqual([uiOwner]);
    await raw.close();
  });

  it('the code changed after the plan: refused as "the code changed since the plan", no write', async () => {
    const { file } = await savedPlan();
    writeStack(dir, 'res-plan-file', { provider: { dq: [{ namespace: 'res-plan-file' }] }, resource: { dq_sql_test: { t: sqlTest('T (changed)'), u: sqlTest('U') } } });
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/Error: the code changed since the plan; apply refuses it and wrote nothing:/);
    expect(r.err).toMatch(/dq_sql_test\.t: the saved plan would write something other than what the code says \(name\)/);
    expect(r.err).toMatch(/Plan again from the current code/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('apply PLANFILE without the desired state it was made from: exit 1 saying where it looked and what to do', async () => {
    const { file } = await savedPlan();
    fs.rmSync(path.join(dir, 'out'), { recursive: true, force: true });
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/apply .*plan\.json checks the saved plan against the desired state it was made from, and cannot read it from out \(stack res-plan-file\)/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('a replace that preventDestroy forbids: plan --out saves nothing; with the error cut from a plan by hand, apply still refuses', async () => {
    const ns = 'res-plan-protected';
    const a = (kind: 'issue_lifecycle' | 'schema_change') => ({
      name: 'A',
      [kind]: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: kind === 'issue_lifecycle' ? { severities: [2] } : {} },
      lifecycle: { prevent_destroy: true },
    });
    writeStack(dir, ns, { provider: { dq: [{ namespace: ns }] }, resource: { dq_alert: { a: a('issue_lifecycle') } } });
    expect((await cli(emu.url, dir, ['apply', '--auto-approve'])).code).toBe(0);
    writeStack(dir, ns, { provider: { dq: [{ namespace: ns }] }, resource: { dq_alert: { a: a('schema_change') } } });
    const file = path.join(dir, 'plan.json');
    await resetCounters(emu);
    const planned = await cli(emu.url, dir, ['plan', '--out', file]);
    expect(planned.code).toBe(1);
    expect(planned.err).toMatch(/dq_alert\.a: this change replaces the alert .*lifecycle\.preventDestroy forbids destroying it/);
    expect(fs.existsSync(file)).toBe(false);
    // the same plan, made through the API and saved with its error cut out by hand
    const { plan: makePlan } = await import('../../src/engine/reconcile');
    const { manifestFromTerraformJson } = await import('../../src/engine/manifest');
    const raw = fastClient(emu.url);
    const doc = JSON.parse(fs.readFileSync(path.join(dir, 'out', 'stacks', ns, 'cdk.tf.json'), 'utf8'));
    const p = await makePlan(raw, manifestFromTerraformJson(doc, { stack: ns }));
    await raw.close();
    expect(p.changes.find((c) => c.address === 'dq_alert.a')?.action).toBe('replace');
    // (as `plan --out` saves it: with the platform it read)
    const { writePlan } = await import('../../src/plan/file');
    fs.writeFileSync(file, writePlan({ ...p, platform: new URL(emu.url).host, diagnostics: [] }));
    await resetCounters(emu);
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the plan has 1 error\(s\) and cannot be applied: dq_alert\.a: this change replaces the alert/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('an unknown action written by hand: refused, no write', async () => {
    const { file, json } = await savedPlan();
    json.changes[0].action = 'obliterate';
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/not a dqform plan.*changes\.0\.action/);
    expect(await writeRequests(emu)).toEqual({});
  });

  it('an unknown resource type written by hand: apply and show refuse naming the change, no write', async () => {
    const { file, json } = await savedPlan();
    json.changes[0].type = 'dq_widget';
    json.changes[0].address = 'dq_widget.w';
    fs.writeFileSync(file, JSON.stringify(json));
    const show = async () => {
      const err: string[] = [];
      const code = await main(['show', file], { out: () => undefined, err: (x) => err.push(x), env: {}, cwd: dir, isTty: false });
      return { code, err: err.join('\n') };
    };
    for (const r of [await cli(emu.url, dir, ['apply', file]), await show()]) {
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/not a dqform plan: changes\.0 \(dq_widget\.w\): unknown resource type "dq_widget" \(dqform manages dq_owner, /);
      expect(r.err).not.toMatch(/Internal error/);
    }
    expect(await writeRequests(emu)).toEqual({});
  });

  it('a change repeated by hand (an edited copy after the reviewed one): apply and show refuse naming both, no write', async () => {
    // show would render both copies for review, while a comparison keyed by address sees one
    const { file, json } = await savedPlan();
    const copy = JSON.parse(JSON.stringify(json.changes.find((x) => x.address === 'dq_sql_test.t')));
    copy.after.sqlExpression = 'delete from mart.orders';
    json.changes.push(copy);
    fs.writeFileSync(file, JSON.stringify(json));
    const show = async () => {
      const err: string[] = [];
      const code = await main(['show', file], { out: () => undefined, err: (x) => err.push(x), env: {}, cwd: dir, isTty: false });
      return { code, err: err.join('\n') };
    };
    for (const r of [await cli(emu.url, dir, ['apply', file]), await show()]) {
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/not a dqform plan: changes\.\d+ \(dq_sql_test\.t\) repeats changes\.\d+ \(a plan has one change per address\)/);
      expect(r.err).toMatch(/do not edit it by hand/);
    }
    expect(await writeRequests(emu)).toEqual({});
  });

  it('a plan with errors is never saved: plan --out refuses, writes nothing, exit 1', async () => {
    writeStack(dir, 'res-plan-errors', { provider: { dq: [{ namespace: 'res-plan-errors' }] }, resource: { dq_sql_test: { t: { ...sqlTest('T'), timezone: 'Mars/Olympus' } } } });
    const file = path.join(dir, 'plan.json');
    const r = await cli(emu.url, dir, ['plan', '--out', file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/the plan has errors: not saved to .*plan\.json \(nothing was written\)/);
    expect(fs.existsSync(file)).toBe(false);
  });

  it('a plan made in another workspace: refused naming both workspaces, no write', async () => {
    const { file } = await savedPlan(['other-admin', 'other-secret']);
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/made for workspace "other", but these credentials act in "demo"/);
    expect(r.err).toMatch(/credentials of the plan's workspace/);
    expect(await writeRequests(emu)).toEqual({});
  });
});
