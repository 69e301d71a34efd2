import { startEmulatorProcess, Scenario } from './harness';
import { alert } from '../cli/helpers';
jest.setTimeout(180000);
const OWNER = { title: 'Team', contacts: [{ email: { recipient_emails: ['t@example.com'] } }] };
const gov = { clientId: 'demo-governance', clientSecret: 'demo-secret' };
const reader = { clientId: 'demo-reader', clientSecret: 'demo-secret' };
it('try', async () => {
  const emu = await startEmulatorProcess({ seed: 'demo' });
  const s = new Scenario(emu);
  try {
    s.stack('sc', { dq_owner: { team: OWNER }, dq_domain: { d: { name: 'D' } }, dq_ownership: { o: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } } });
    let p = await s.plan();
    let r = await s.applyChecked(p.plan!, ['apply', p.file]);
    console.log(r.run.code);
    s.stack('sc', { dq_owner: { team: { ...OWNER, title: 'Team 2' } }, dq_domain: { d: { name: 'D2' } }, dq_ownership: { o: { owner_id: '${dq_owner.team.id}', selection: { query: { resolver_ql: 'with_tag("pii")' } } } } });
    p = await s.plan();
    for (const c of [gov, reader]) {
      const pr = await s.run(['plan'], { creds: c });
      console.log(c.clientId, 'PLAN', pr.code, pr.out.slice(0, 1500), pr.err);
      const ar = await s.run(['apply', p.file], { creds: c });
      console.log(c.clientId, 'APPLY', ar.code, ar.out, ar.err);
      const aa = await s.run(['apply', '--auto-approve'], { creds: c });
      console.log(c.clientId, 'APPLY-AUTO', aa.code, aa.out.slice(0, 600), aa.err);
    }
  } finally { s.remove(); await emu.stop(); }
});
