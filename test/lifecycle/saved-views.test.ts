/**
 * Issue 25, "what the plan says is what happens", for saved views (hard delete, etags, ids that
 * carry the namespace tag): create, an in-place update, `plan --replace` (deleted for good, then
 * created again at the same id, whose version counter continues: no false conflict), and prune.
 * Every apply is checked with the harness: the emulator's whole state before and after, against
 * the saved plan; each ends with an empty plan.
 *
 * @gateway
 */
import { startEmulatorProcess, Scenario, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

const VIEW = { title: 'Open PII issues', context: 'issues', selection: { resolver_ql: 'with_tag("pii")' }, visibility: 'VISIBILITY_WORKSPACE', grants: [{ group_id: 'privacy-team', permission: 'PERMISSION_EDIT' }] };

it('saved views: create, update, --replace and prune each do exactly what the plan said; the next plan is empty', async () => {
  const s = new Scenario(emu);
  try {
    const step = async (resources: Record<string, unknown>, args: string[] = []) => {
      s.stack('views-life', resources);
      const p = await s.plan(args);
      expect(p.run.code).toBe(0);
      const r = await s.applyChecked(p.plan!, ['apply', ...args, p.file]);
      expect({ code: r.run.code, err: r.run.code ? r.run.err : '', missing: r.missing, unexpected: r.unexpected }).toEqual({ code: 0, err: '', missing: [], unexpected: [] });
      expect((await s.run(['plan', '--detailed-exitcode'])).code).toBe(0);
      return p.plan!;
    };
    const created = await step({ dq_saved_view: { pii: VIEW, scratch: { title: 'Scratch' } } });
    expect(created.changes.filter((c) => c.type === 'dq_saved_view').map((c) => [c.address, c.action])).toEqual([['dq_saved_view.pii', 'create'], ['dq_saved_view.scratch', 'create']]);
    const updated = await step({ dq_saved_view: { pii: { ...VIEW, title: 'Open PII issues (all)' }, scratch: { title: 'Scratch' } } });
    expect(updated.changes.filter((c) => c.type === 'dq_saved_view' && c.action !== 'noop').map((c) => [c.address, c.action])).toEqual([['dq_saved_view.pii', 'update']]);
    const replaced = await step({ dq_saved_view: { pii: { ...VIEW, title: 'Open PII issues (all)' }, scratch: { title: 'Scratch' } } }, ['--replace', 'dq_saved_view.pii']);
    expect(replaced.changes.filter((c) => c.type === 'dq_saved_view' && c.action !== 'noop').map((c) => [c.address, c.action])).toEqual([['dq_saved_view.pii', 'replace']]);
    const pruned = await step({ dq_saved_view: { pii: { ...VIEW, title: 'Open PII issues (all)' } } });
    expect(pruned.changes.filter((c) => c.type === 'dq_saved_view' && c.action !== 'noop').map((c) => [c.address.replace(/\[.*\]/, '[id]'), c.action])).toEqual([['dq_saved_view[id]', 'delete']]);
  } finally {
    s.remove();
  }
});
