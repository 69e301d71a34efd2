/**
 * Issue 21, "honest diagnoses": apply with a credential that cannot read a kind the plan holds
 * names the missing read scope (as plan does) and writes nothing; "stale plan" is said only of
 * objects that really moved since the plan. The emulator's whole state is compared before and
 * after each apply (harness).
 *
 * @gateway
 */
import type { Plan } from '../../schemas/model/plan';
import { PlatformClient } from '../../src/client';
import { alert } from '../cli/helpers';
import { startEmulatorProcess, stateDiff, Scenario, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

const OWNER = (title: string) => ({ title, contacts: [{ email: { recipient_emails: ['t@example.com'] } }] });
const GOVERNANCE = { clientId: 'demo-governance', clientSecret: 'demo-secret' };

async function appliedThenChanged(ns: string): Promise<{ s: Scenario; file: string; plan: Plan }> {
  const s = new Scenario(emu);
  s.stack(ns, { dq_owner: { team: OWNER('Team') }, dq_domain: { d: { name: 'D' } }, dq_alert: { a: alert('A') } });
  const first = await s.plan();
  const r = await s.applyChecked(first.plan!, ['apply', first.file]);
  expect({ code: r.run.code, missing: r.missing, unexpected: r.unexpected }).toEqual({ code: 0, missing: [], unexpected: [] });
  s.stack(ns, { dq_owner: { team: OWNER('Team 2') }, dq_domain: { d: { name: 'D' } }, dq_alert: { a: alert('A') } });
  const { run, file, plan } = await s.plan();
  expect(run.code).toBe(0);
  return { s, file, plan: plan! };
}

it('apply PLANFILE with a credential that cannot read a kind the plan holds names the missing read scope, never "stale", and writes nothing', async () => {
  const { s, file } = await appliedThenChanged('diag-scope');
  try {
    // plan with the same credential names the scope
    const planned = await s.run(['plan'], { creds: GOVERNANCE });
    expect(planned.out + planned.err).toMatch(/cannot read alerts \(they need one of SCOPE_ALERTS_READ\)/);
    const before = await emu.state();
    const r = await s.run(['apply', file], { creds: GOVERNANCE });
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/these credentials cannot read alerts \(they need one of SCOPE_ALERTS_READ\), and the plan holds 1 of them \(dq_alert\.a\)/);
    expect(r.err).not.toMatch(/stale|since the plan/);
    expect(stateDiff(before, await emu.state())).toEqual([]);
  } finally {
    s.remove();
  }
});

it('"stale plan: deleted since the plan" is said of the object that really moved, and of nothing else', async () => {
  const { s, file, plan } = await appliedThenChanged('diag-stale');
  const client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  try {
    await client.domains.delete(plan.changes.find((c) => c.address === 'dq_domain.d')!.id);
    const before = await emu.state();
    const r = await s.run(['apply', file]);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(/stale plan/);
    expect(r.err).toMatch(/dq_domain\.d: .*deleted since the plan/);
    expect(r.err.match(/^ {2}dq_\w+\.\w+:/gm)).toEqual(['  dq_domain.d:']);
    expect(stateDiff(before, await emu.state())).toEqual([]);
  } finally {
    await client.close();
    s.remove();
  }
});
