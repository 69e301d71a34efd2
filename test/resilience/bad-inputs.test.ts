/**
 * A table of bad inputs through the CLI, in-process: each ends with a clear diagnostic (naming
 * the file or address and what to do), exit 1, and no write request reaching the platform
 * (the emulator's counters show no write under /api).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { cli, emulator, resetCounters, writeRequests, writeStack, type RunningEmulator } from './helpers';

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
  { name: 'count meta-argument', doc: { provider, resource: { dq_sql_test: { t: { ...sqlTest('T'), count: 3 } } } }, expect: [/dq_sql_test\.t/, /"count" is not supported/, /one construct per object/] },
];

describe.each(CASES)('bad input: $name', (c) => {
  it.each([['validate'], ['plan'], ['apply', '--auto-approve']])('%s: a diagnostic, exit 1, no write', async (...args) => {
    writeStack(dir, NS, c.doc);
    const r = await cli(emu.url, dir, args);
    expect(r.code).toBe(1);
    for (const re of c.expect) expect(r.err + r.out).toMatch(re);
    expect(r.err).not.toMatch(/Internal error|    at /);
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
    fs.writeFileSync(file, JSON.stringify(json));
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/dq_sql_test\.t/);
    expect(r.err).toMatch(/re-run plan|plan again/i);
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

  it('a plan made in another workspace: refused naming both workspaces, no write', async () => {
    const { file } = await savedPlan(['other-admin', 'other-secret']);
    const r = await applyFile(file);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/made for workspace "other", but these credentials act in "demo"/);
    expect(r.err).toMatch(/credentials of the plan's workspace/);
    expect(await writeRequests(emu)).toEqual({});
  });
});
