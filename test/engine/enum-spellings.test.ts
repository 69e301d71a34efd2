/**
 * Enum spellings: the platform's own names are what code writes (`SEVERITY_WARN/ERROR/FATAL` for
 * alert and ownership-alert severities); the names dqform used before (`ALERT_SEVERITY_*`) keep
 * working with a deprecation WARNING naming where they are (construct path, YAML location) and
 * the new spelling; an invalid value is an error listing the allowed values, in validate, plan,
 * YAML and constructs. Nothing here needs a server except the plan case.
 *
 * @gateway
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdktf';
import { Alert, DqStack, Owner, Ownership, Target, validateApp } from '../../constructs';
import { main } from '../../src/cli/main';
import { resolveManifest } from '../../src/engine/resolve';
import { manifestFromYaml } from '../../src/engine/yaml';
import { startEmulator } from '../../src/emulator';

const ALLOWED = 'expected one of SEVERITY_WARN, SEVERITY_ERROR, SEVERITY_FATAL (or their numbers 1, 2, 3)';
const yaml = (severities: string, ownership = '') => `namespace: spell
alerts:
  orders:
    name: Orders
    issueLifecycle:
      trigger: 'with_type("table")'
      targets: [{ slack: { channel: '#a' } }]
      settings: { severities: [${severities}] }
${ownership}`;
const ownerAndOwnership = (severities: string) => `owners:
  team: { title: Team }
ownerships:
  team_owns_mart:
    owner: team
    query: 'in_folder("folder-wh-prod::mart")'
    alert: { severities: [${severities}] }
`;

describe('YAML', () => {
  test.each([
    { reason: 'an alert severity', text: yaml('ALERT_SEVERITY_ERROR, SEVERITY_FATAL'), field: 'issueLifecycle.settings.severities[0]', address: 'dq_alert.orders', source: 'w.yaml:3:3' },
    { reason: 'an ownership alert severity', text: yaml('SEVERITY_ERROR', ownerAndOwnership('ALERT_SEVERITY_WARN')), field: 'alert.severities[0]', address: 'dq_ownership.team_owns_mart', source: 'w.yaml:12:3' },
  ])('a deprecated spelling ($reason) is a warning naming the YAML location and the new spelling, and reads as the new name', ({ text, field, address, source }) => {
    const r = resolveManifest(manifestFromYaml(text, { file: 'w.yaml' }), 'demo');
    const warnings = r.diagnostics.filter((d) => d.severity === 'warning' && /deprecated spelling/.test(d.summary));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ address, field, source });
    expect(warnings[0].summary).toMatch(/"ALERT_SEVERITY_(ERROR|WARN)" is a deprecated spelling; write "SEVERITY_(ERROR|WARN)"/);
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(JSON.stringify(r.resources.map((x) => x.desired))).not.toContain('ALERT_SEVERITY_');
  });

  test('an invalid value is an error listing the allowed values, at its line and column', () => {
    let err: unknown;
    try {
      manifestFromYaml(yaml('SEVERITY_LOUD'), { file: 'w.yaml' });
    } catch (e) {
      err = e;
    }
    const ds = (err as { diagnostics: { summary: string; source?: string }[] }).diagnostics;
    expect(ds).toEqual([expect.objectContaining({ summary: `issueLifecycle.settings.severities[0]: ${ALLOWED}; got "SEVERITY_LOUD"`, source: 'w.yaml:8:32' })]);
  });

  test('validate through the CLI: exit 0 with the warning; exit 1 with the allowed values', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-spell-'));
    try {
      const run = async (text: string) => {
        fs.writeFileSync(path.join(dir, 'dqform.yaml'), text);
        const out: string[] = [];
        const err: string[] = [];
        const code = await main(['validate', '--file', 'dqform.yaml'], { out: (s) => out.push(s), err: (s) => err.push(s), env: {}, cwd: dir, isTty: false });
        return { code, text: `${out.join('\n')}\n${err.join('\n')}` };
      };
      const old = await run(yaml('ALERT_SEVERITY_ERROR'));
      expect(old.code).toBe(0);
      expect(old.text).toMatch(/Warning: dq_alert\.orders: issueLifecycle\.settings\.severities\[0\]: "ALERT_SEVERITY_ERROR" is a deprecated spelling; write "SEVERITY_ERROR"\n\s+at dqform\.yaml:3:3/);
      const bad = await run(yaml('7'));
      expect(bad.code).toBe(1);
      expect(bad.text).toContain(`${ALLOWED}; got 7`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('constructs', () => {
  function app(severities: string[]): App {
    const a = new App({ outdir: fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-spell-app-')) });
    const s = new DqStack(a, 'spell', { namespace: 'spell' });
    const o = new Owner(s, 'team', { title: 'Team' });
    const own = new Ownership(s, 'owns', { owner: o, query: 'with_tag("x")', alert: { severities: severities as never } });
    new Alert(s, 'orders', { name: 'Orders', issueLifecycle: { trigger: 'with_type("table")', targets: [Target.slack('#a')], settings: { severities: severities as never }, owner: own } });
    return a;
  }

  test('a deprecated spelling is a warning naming the construct path, the field and the new spelling', () => {
    const ds = validateApp(app(['ALERT_SEVERITY_FATAL']));
    expect(ds.filter((d) => d.severity === 'error')).toEqual([]);
    expect(ds.filter((d) => d.severity === 'warning').map((d) => [d.constructPath, d.field, d.summary])).toEqual([
      ['spell/orders', 'issueLifecycle.settings.severities[0]', '"ALERT_SEVERITY_FATAL" is a deprecated spelling; write "SEVERITY_FATAL"'],
      ['spell/owns', 'alert.severities[0]', '"ALERT_SEVERITY_FATAL" is a deprecated spelling; write "SEVERITY_FATAL"'],
    ]);
  });

  test('an invalid value is an error listing the allowed values, with the closest (issue 26: the name without its prefix)', () => {
    const ds = validateApp(app(['FATAL']));
    expect(ds.filter((d) => d.severity === 'error').map((d) => [d.constructPath, d.summary])).toEqual([
      ['spell/orders', `${ALLOWED}; got "FATAL"; did you mean SEVERITY_FATAL?`],
      ['spell/owns', `${ALLOWED}; got "FATAL"; did you mean SEVERITY_FATAL?`],
    ]);
  });
});

describe('plan', () => {
  test('old and new spellings plan the same (one warning, no diff against live); an invalid value is an error in plan too', async () => {
    const emu = await startEmulator({ port: 0, seed: 'empty' });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-spell-plan-'));
    try {
      const run = async (args: string[], text: string) => {
        fs.writeFileSync(path.join(dir, 'dqform.yaml'), text);
        const out: string[] = [];
        const err: string[] = [];
        const env = { DQ_BASE_URL: emu.url, DQ_CLIENT_ID: 'demo-admin', DQ_CLIENT_SECRET: 'demo-secret' };
        const code = await main([...args, '--file', 'dqform.yaml'], { out: (s) => out.push(s), err: (s) => err.push(s), env, cwd: dir, isTty: false });
        return { code, out: out.join('\n'), err: err.join('\n') };
      };
      expect((await run(['apply', '--auto-approve'], yaml('SEVERITY_ERROR'))).code).toBe(0);
      const old = await run(['plan', '--detailed-exitcode'], yaml('ALERT_SEVERITY_ERROR'));
      expect(old.code).toBe(0);
      expect(`${old.out}\n${old.err}`).toMatch(/"ALERT_SEVERITY_ERROR" is a deprecated spelling; write "SEVERITY_ERROR"/);
      const bad = await run(['plan'], yaml('SEVERITY_LOUD'));
      expect(bad.code).toBe(1);
      expect(bad.err).toContain(`${ALLOWED}; got "SEVERITY_LOUD"`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
      await emu.close();
    }
  });
});
