/**
 * What the README says about `lifecycle.preventDestroy` (issue 12 asked for the text), checked
 * through the CLI: removing the declaration removes the protection too, as in Terraform (the
 * next plan deletes the object; dqform keeps no state to remember it); `removed { destroy =
 * false }` retires it without deleting it. (While declared, a replace it forbids is an error
 * that is never saved nor applied: test/resilience/bad-inputs.test.ts.)
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { main } from '../../src/cli/main';
import { startEmulator, type RunningEmulator } from '../../src/emulator';

let emu: RunningEmulator;
let dir: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
});
afterAll(() => emu.close());
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-protect-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function stack(ns: string, resource: Record<string, unknown>, extra: Record<string, unknown> = {}): void {
  const d = path.join(dir, 'cdktf.out', 'stacks', ns);
  fs.mkdirSync(d, { recursive: true });
  fs.writeFileSync(path.join(d, 'cdk.tf.json'), JSON.stringify({ provider: { dq: [{ namespace: ns }] }, resource, ...extra }));
}
async function cli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
  const code = await main(args, { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
  return { code, out: out.join('\n'), err: err.join('\n') };
}
const owners = () => emu.app.store.workspace('demo').collection<Record<string, unknown>>('owners').filter((o) => !o.deletedAt && o.title === 'Protected');
const protectedOwner = { title: 'Protected', lifecycle: { prevent_destroy: true } };

it('removing the declaration removes the protection too (README): the next plan deletes it, apply deletes it', async () => {
  stack('protect-b', { dq_owner: { team: protectedOwner } });
  expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
  expect(owners()).toHaveLength(1);
  stack('protect-b', {});
  const p = await cli(['plan']);
  expect(p.code).toBe(0);
  expect(p.out).toMatch(/1 to destroy/);
  expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
  expect(owners()).toHaveLength(0);
}, 60_000);

it('removed { destroy = false } retires it without deleting it (README): no change, the object stays', async () => {
  stack('protect-c', { dq_owner: { team: protectedOwner } });
  expect((await cli(['apply', '--auto-approve'])).code).toBe(0);
  stack('protect-c', {}, { removed: [{ from: 'dq_owner.team', lifecycle: { destroy: false } }] });
  const p = await cli(['apply', '--auto-approve']);
  expect(p.code).toBe(0);
  expect(p.out).toMatch(/0 to destroy|No changes/);
  expect(owners()).toHaveLength(1);
}, 60_000);

describe('lifecycle in a YAML workspace, through plan/apply --file (mutation testing found both ignored unnoticed)', () => {
  const alertYaml = (ns: string, kind: 'issueLifecycle' | 'schemaChange', lifecycle: string, name = 'A') =>
    [
      `namespace: ${ns}`,
      'alerts:',
      '  a:',
      `    name: ${name}`,
      `    ${kind}:`,
      `      trigger: 'with_type("table")'`,
      '      targets: [{ slack: { channel: "#a" } }]',
      ...(kind === 'issueLifecycle' ? ['      settings: { severities: [SEVERITY_ERROR] }'] : []),
      `    lifecycle: ${lifecycle}`,
      '',
    ].join('\n');
  const write = (text: string) => fs.writeFileSync(path.join(dir, 'dqform.yaml'), text);
  const live = (ns: string) => emu.app.store.workspace('demo').collection<Record<string, unknown>>('alerts').filter((a) => a.configId === ns);

  it('preventDestroy: true: a replace is an error, not saved, not applied; the alert stays', async () => {
    write(alertYaml('yaml-protect', 'issueLifecycle', '{ preventDestroy: true }'));
    expect((await cli(['apply', '--auto-approve', '--file', 'dqform.yaml'])).code).toBe(0);
    write(alertYaml('yaml-protect', 'schemaChange', '{ preventDestroy: true }'));
    const planned = await cli(['plan', '--file', 'dqform.yaml', '--out', 'plan.json']);
    expect(planned.code).toBe(1);
    expect(planned.err).toMatch(/dq_alert\.a: this change replaces the alert .*lifecycle\.preventDestroy forbids destroying it/);
    expect(fs.existsSync(path.join(dir, 'plan.json'))).toBe(false);
    expect((await cli(['apply', '--auto-approve', '--file', 'dqform.yaml', '--max-deletes', '5'])).code).toBe(1);
    expect(live('yaml-protect').map((a) => Object.keys(a).includes('issueLifecycle'))).toEqual([true]);
  }, 60_000);

  it('ignoreChanges: all: a changed name is not written', async () => {
    write(alertYaml('yaml-ignore', 'issueLifecycle', '{ ignoreChanges: all }', 'First'));
    expect((await cli(['apply', '--auto-approve', '--file', 'dqform.yaml'])).code).toBe(0);
    write(alertYaml('yaml-ignore', 'issueLifecycle', '{ ignoreChanges: all }', 'Second'));
    const p = await cli(['plan', '--file', 'dqform.yaml', '--detailed-exitcode']);
    expect(p.code).toBe(0);
    expect((await cli(['apply', '--auto-approve', '--file', 'dqform.yaml'])).code).toBe(0);
    expect(live('yaml-ignore').map((a) => a.name)).toEqual(['First']);
  }, 60_000);
});
