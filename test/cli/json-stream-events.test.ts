/**
 * `apply --json` (issue 26): every event the applier emits (src/engine/apply-events.ts) becomes
 * one stream line of the shape schemas/model/json-stream.ts gives, at the right level, with the
 * plan's ids. Pure: the writer fed each event type by hand.
 */
import { StreamLine } from '../../schemas/model/json-stream';
import type { Plan } from '../../schemas/model/plan';
import type { ApplyEvent, ApplyEventType } from '../../src/engine/apply-events';
import { JsonStream } from '../../src/cli/json-stream';

const change = (address: string, action: 'create' | 'update' | 'delete', id: string) => ({ address, type: address.split('.')[0], action, id, before: null, after: {}, patch: [], sensitive: [], dependsOn: [] });
const PLAN: Plan = {
  workspace: 'demo',
  namespace: 'ns',
  stack: 'ns',
  manifestHash: 'h',
  options: { destroy: false, refreshOnly: false, targets: [], replace: [] },
  changes: [change('dq_alert.a', 'create', 'ns.a'), change('dq_owner.o', 'update', 'owner-1'), change('dq_sql_test.t', 'delete', 'test-1')],
  drift: [],
  summary: { import: 0, add: 1, change: 1, replace: 0, destroy: 1, unchanged: 0, unmanaged: 0 },
  diagnostics: [{ severity: 'warning', summary: 'look at this', address: 'dq_owner.o' }],
};

/** One event of every type (and both skip reasons). */
const EVENTS: ApplyEvent[] = [
  { type: 'checks.start', objects: 3 },
  { type: 'apply.start', workspace: 'demo', namespace: 'ns', steps: 3, waves: 2 },
  { type: 'preview.start', address: 'dq_owner.o', action: 'update' },
  { type: 'preview.done', address: 'dq_owner.o', action: 'update', monitors: 2, tests: 0 },
  { type: 'batch.start', kind: 'dq_alert', label: 'alert', addresses: ['dq_alert.a'] },
  { type: 'batch.running', kind: 'dq_alert', label: 'alert', addresses: ['dq_alert.a'], elapsedMs: 10_000 },
  { type: 'step.start', address: 'dq_alert.a', action: 'create' },
  { type: 'step.running', address: 'dq_alert.a', action: 'create', elapsedMs: 10_500 },
  { type: 'step.done', address: 'dq_alert.a', action: 'create', id: 'shop.a', durationMs: 1234 },
  { type: 'step.failed', address: 'dq_owner.o', action: 'update', phase: 'write', error: 'HTTP 409', durationMs: 50, mayHaveLanded: true },
  { type: 'halt', kind: 'conflict', reason: 'another writer is at work' },
  { type: 'step.skipped', address: 'dq_sql_test.t', action: 'delete', reason: 'halted', halt: 'conflict' },
  { type: 'step.skipped', address: 'dq_sql_test.t', action: 'delete', reason: 'dependency-failed', dependency: 'dq_owner.o' },
  { type: 'readback', when: 'end', addresses: ['dq_alert.a'] },
  {
    type: 'apply.done',
    summary: { applied: [{ address: 'dq_alert.a', action: 'create', ms: 1234 }], failed: [{ address: 'dq_owner.o', action: 'update', error: 'HTTP 409' }], skipped: [{ address: 'dq_sql_test.t', action: 'delete', because: 'x' }] },
  },
];

it('every applier event type is one line of the stream schema; ids from the plan; errors at level error', () => {
  const out: string[] = [];
  const s = new JsonStream((l) => out.push(l));
  s.version('9.9.9');
  s.plan(PLAN);
  const listen = s.applyListener();
  for (const e of EVENTS) listen(e);
  const lines = out.map((l) => StreamLine.parse(JSON.parse(l)));
  // the version, the warning, the three changes, the plan's summary, then one line per event
  expect(lines.map((l) => l.type)).toEqual([
    'version', 'diagnostic', 'planned_change', 'planned_change', 'planned_change', 'change_summary',
    'checks_start', 'apply_begin', 'preview_start', 'preview_complete', 'batch_start', 'batch_progress', 'apply_start', 'apply_progress',
    'apply_complete', 'apply_errored', 'apply_halted', 'apply_skipped', 'apply_skipped', 'readback', 'change_summary',
  ]);
  // every event type of the applier is fed (the record fails to compile when a type is added)
  const ALL: Record<ApplyEventType, true> = {
    'checks.start': true, 'apply.start': true, 'preview.start': true, 'preview.done': true, 'batch.start': true, 'batch.running': true, 'step.start': true,
    'step.running': true, 'step.done': true, 'step.failed': true, 'step.skipped': true, halt: true, readback: true, 'apply.done': true,
  };
  expect([...new Set(EVENTS.map((e) => e.type))].sort()).toEqual(Object.keys(ALL).sort());
  expect(lines[1]).toMatchObject({ '@level': 'warn', '@message': 'Warning: dq_owner.o: look at this' });
  expect(lines[14]).toMatchObject({ '@message': 'dq_alert.a: Creation complete after 1.234s', stack: 'ns', hook: { resource: { addr: 'dq_alert.a', resource_type: 'dq_alert', id: 'ns.a' }, elapsed_seconds: 1.234 } });
  expect(lines[15]).toMatchObject({ '@level': 'error', hook: { resource: { id: 'owner-1' }, phase: 'write', error: 'HTTP 409', may_have_landed: true } });
  expect(lines[18]).toMatchObject({ '@level': 'warn', hook: { reason: 'dependency-failed', because: 'dq_owner.o failed' } });
  expect(lines[20]).toMatchObject({ '@level': 'error', changes: { operation: 'apply', add: 1, change: 0, remove: 0, failed: 1, skipped: 1 } });
  expect(lines[0]).not.toHaveProperty('stack');
});
