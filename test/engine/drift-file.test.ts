/**
 * Drift has its own type (issue 24). A plan file written before, whose drift entries are changes
 * read backwards (`action`, `before`, `after`), is refused with "plan again", naming the entry.
 */
import { loadPlan, toPlanFile } from '../../src/plan/file';

const plan = (drift: unknown[]) => ({
  formatVersion: 1,
  workspace: 'w',
  namespace: 'ns',
  stack: 'ns',
  manifestHash: 'h',
  options: { destroy: false, refreshOnly: true, targets: [], replace: [] },
  changes: [],
  drift,
  summary: { import: 0, add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 },
  diagnostics: [],
});

it('an old drift entry (a change read backwards) is refused with plan again', () => {
  const old = { address: 'dq_alert.a', type: 'dq_alert', action: 'update', id: 'ns.a', before: { name: 'A' }, after: { name: 'B' }, patch: [{ op: 'replace', path: '/name', value: 'B' }], reasons: [], sensitive: [], dependsOn: [] };
  expect(() => loadPlan(plan([old]))).toThrow(/^not a dqform plan \(format 1\): drift\.0\.action: this drift entry was written by an older dqform \(a change read backwards, before drift had its own type\); plan again with this dqform version/);
});

it('a drift entry of its own type loads', () => {
  const d = { address: 'dq_alert.a', type: 'dq_alert', difference: 'changed', remedy: 'update', id: 'ns.a', code: { name: 'A' }, live: { name: 'B' }, patch: [{ op: 'replace', path: '/name', value: 'B' }], reasons: [], sensitive: [] };
  expect(toPlanFile(loadPlan(plan([d]))).drift).toEqual([d]);
});
