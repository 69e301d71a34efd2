/**
 * The apply view renders the applier's events: progress lines on stderr as they come, the report
 * (stdout for what was done and the totals, stderr for what failed) once, at `apply.done`.
 */
import { applyView, exitCode } from '../../src/cli/apply-view';
import type { ApplyEvent, ApplyResult } from '../../src/engine/applier';

function render(events: ApplyEvent[], what: 'Apply' | 'Destroy' = 'Apply', targets?: string[]): string[] {
  const lines: string[] = [];
  const view = applyView({ out: (s) => lines.push(`out: ${s}`), err: (s) => lines.push(`err: ${s}`) }, { what, started: Date.now(), targets });
  for (const e of events) view(e);
  return lines.map((l) => l.replace(/Took \d+\.\ds\./, 'Took Ns.'));
}

const halt = 'dq_owner.b met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written';

it('progress as it comes, then the report at apply.done', () => {
  const summary: ApplyResult = {
    applied: [{ address: 'dq_owner.a', action: 'create', ms: 1200 }],
    failed: [{ address: 'dq_owner.b', action: 'update', error: 'conflict: b', ms: 300 }],
    skipped: [{ address: 'dq_owner.c', action: 'delete', because: halt }],
    halted: { kind: 'conflict', reason: halt },
  };
  expect(
    render([
      { type: 'checks.start', objects: 3 },
      { type: 'apply.start', workspace: 'w', namespace: 'n', steps: 3, waves: 2 },
      { type: 'step.start', address: 'dq_owner.a', action: 'create' },
      { type: 'step.running', address: 'dq_owner.a', action: 'create', elapsedMs: 10_400 },
      { type: 'step.done', address: 'dq_owner.a', action: 'create', id: 'id-a', durationMs: 1200 },
      { type: 'batch.start', kind: 'dq_sql_test', label: 'SQL test', addresses: ['dq_sql_test.x', 'dq_sql_test.y'] },
      { type: 'batch.running', kind: 'dq_sql_test', label: 'SQL test', addresses: ['dq_sql_test.x', 'dq_sql_test.y'], elapsedMs: 20_000 },
      { type: 'preview.start', address: 'dq_monitor_deployment_rule.r', action: 'create' },
      { type: 'preview.done', address: 'dq_monitor_deployment_rule.r', action: 'create', monitors: 2, tests: 0 },
      { type: 'step.failed', address: 'dq_owner.b', action: 'update', phase: 'write', error: 'conflict: b', durationMs: 300 },
      { type: 'halt', kind: 'conflict', reason: halt },
      { type: 'step.skipped', address: 'dq_owner.c', action: 'delete', reason: 'halted', halt: 'conflict' },
      { type: 'readback', when: 'wave', addresses: ['dq_sql_test.x'] },
      { type: 'readback', when: 'end', addresses: ['dq_owner.a'] },
      { type: 'apply.done', summary },
    ]),
  ).toEqual([
    'err: checking that live state has not moved since the plan',
    'err: create dq_owner.a',
    'err: still creating dq_owner.a ... [10s elapsed]',
    'out:   create dq_owner.a: done in 1.2s [id=id-a]',
    'err: writing 2 SQL test(s) in batches',
    'err: still writing 2 SQL test(s) ... [20s elapsed]',
    'err: asking the platform what dq_monitor_deployment_rule.r does, now that what it depends on exists',
    'err: dq_monitor_deployment_rule.r: the platform previews 2 monitor(s) to create',
    'err: reading back the 1 object(s) written',
    'err:   update dq_owner.b: FAILED: conflict: b (after 0.3s)',
    `err:   1 change(s) not attempted (dq_owner.c): ${halt}`,
    'out: Apply stopped: 1 applied, 1 failed, 1 not attempted. Took Ns.',
    'err: Run `dqform plan` to see what remains; re-running plan and apply converges.',
  ]);
  expect(exitCode(summary)).toBe(1);
});

it('a complete destroy: its words, exit code 0', () => {
  const summary: ApplyResult = { applied: [{ address: 'dq_owner.a', action: 'delete', ms: 50 }], failed: [], skipped: [] };
  expect(render([{ type: 'step.done', address: 'dq_owner.a', action: 'delete', id: 'id-a', durationMs: 50 }, { type: 'apply.done', summary }], 'Destroy')).toEqual([
    'out:   delete dq_owner.a: done in 0.1s [id=id-a]',
    'out: Destroy complete: 1 applied, 0 failed, 0 not attempted. Took Ns.',
  ]);
  expect(exitCode(summary)).toBe(0);
});

it('a targeted plan: the warning after the report', () => {
  const summary: ApplyResult = { applied: [], failed: [], skipped: [] };
  expect(render([{ type: 'apply.done', summary }], 'Apply', ['dq_owner.a'])).toEqual([
    'out: Apply complete: 0 applied, 0 failed, 0 not attempted. Took Ns.',
    'err: Warning: applied changes may be incomplete: this plan was targeted (dq_owner.a), so other changes the code asks for may remain.\n  Run dqform plan without --target to see them.',
  ]);
});

it('the report is in the order the changes finished, not by address, each done line as it finishes with its id and time', () => {
  const lines: string[] = [];
  const view = applyView({ out: (s) => lines.push(`out: ${s}`), err: (s) => lines.push(`err: ${s}`) }, { what: 'Apply', started: Date.now() });
  view({ type: 'step.done', address: 'dq_owner.z', action: 'create', id: 'id-z', durationMs: 2000 });
  // printed as soon as it finishes, before the end
  expect(lines).toEqual(['out:   create dq_owner.z: done in 2.0s [id=id-z]']);
  view({ type: 'step.done', address: 'dq_alert.m', action: 'update', id: 'shop.m', durationMs: 100 });
  view({ type: 'step.failed', address: 'dq_owner.y', action: 'update', phase: 'write', error: 'refused', durationMs: 10 });
  view({ type: 'step.failed', address: 'dq_owner.b', action: 'update', phase: 'write', error: 'refused', durationMs: 10 });
  view({ type: 'step.skipped', address: 'dq_owner.x', action: 'create', reason: 'dependency-failed', dependency: 'dq_owner.y' });
  view({ type: 'step.skipped', address: 'dq_owner.c', action: 'create', reason: 'dependency-failed', dependency: 'dq_owner.b' });
  // the engine's summary lists each by address
  const summary: ApplyResult = {
    applied: [
      { address: 'dq_alert.m', action: 'update', ms: 100 },
      { address: 'dq_owner.z', action: 'create', ms: 2000 },
    ],
    failed: [
      { address: 'dq_owner.b', action: 'update', error: 'refused', ms: 10 },
      { address: 'dq_owner.y', action: 'update', error: 'refused', ms: 10 },
    ],
    skipped: [
      { address: 'dq_owner.c', action: 'create', because: 'dq_owner.b failed' },
      { address: 'dq_owner.x', action: 'create', because: 'dq_owner.y failed' },
    ],
  };
  view({ type: 'apply.done', summary });
  expect(lines.map((l) => l.replace(/Took \d+\.\ds\./, 'Took Ns.'))).toEqual([
    'out:   create dq_owner.z: done in 2.0s [id=id-z]',
    'out:   update dq_alert.m: done in 0.1s [id=shop.m]',
    'err:   update dq_owner.y: FAILED: refused (after 0.0s)',
    'err:   update dq_owner.b: FAILED: refused (after 0.0s)',
    'err:   create dq_owner.x: not attempted (dq_owner.y failed)',
    'err:   create dq_owner.c: not attempted (dq_owner.b failed)',
    'out: Apply stopped: 2 applied, 2 failed, 2 not attempted. Took Ns.',
    'err: Run `dqform plan` to see what remains; re-running plan and apply converges.',
  ]);
});

it("an error's hint follows its message: a failed change's under its FAILED line, a halt's after its reason", () => {
  const conflict = 'dq_owner.b met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written';
  const summary: ApplyResult = {
    applied: [],
    failed: [
      { address: 'dq_owner.a', action: 'update', error: 'refused', hint: 'Run dqform plan again: it shows what is there now.', ms: 10 },
      { address: 'dq_owner.b', action: 'update', error: 'conflict: b', ms: 300 },
    ],
    skipped: [{ address: 'dq_owner.c', action: 'delete', because: conflict }],
    halted: { kind: 'conflict', reason: conflict, hint: 'Plan again.' },
  };
  expect(render([{ type: 'apply.done', summary }])).toEqual([
    'err:   update dq_owner.a: FAILED: refused (after 0.0s)\n    Run dqform plan again: it shows what is there now.',
    'err:   update dq_owner.b: FAILED: conflict: b (after 0.3s)',
    `err:   1 change(s) not attempted (dq_owner.c): ${conflict}\n    Plan again.`,
    'out: Apply stopped: 0 applied, 2 failed, 1 not attempted. Took Ns.',
    'err: Run `dqform plan` to see what remains; re-running plan and apply converges.',
  ]);
});

it('the platform gone: the "may or may not have landed" report stays, the hints after it, once each', () => {
  const gone = 'the platform is not answering: a write could not connect (ECONNREFUSED): nothing more was written';
  const summary: ApplyResult = {
    applied: [{ address: 'dq_owner.a', action: 'create', ms: 5 }],
    failed: [
      { address: 'dq_owner.b', action: 'create', error: 'connection failed', hint: 'Check the network.', mayHaveLanded: true },
      { address: 'dq_owner.c', action: 'create', error: 'connection failed', hint: 'Check the network.', mayHaveLanded: true },
    ],
    skipped: [{ address: 'dq_owner.d', action: 'create', because: gone }],
    halted: { kind: 'unreachable', reason: gone, hint: 'Wait for the platform.' },
  };
  expect(render([{ type: 'apply.done', summary }])).toEqual([
    'err: Error: the platform is not answering: a write could not connect (ECONNREFUSED). Apply stopped: 1 applied; 2 in flight when it went away may or may not have landed (dq_owner.b, dq_owner.c); 1 not attempted. Run dqform plan when it answers again: plan and apply converge.\n  Wait for the platform.\n  Check the network.',
    'out: Apply stopped: 1 applied, 2 failed, 1 not attempted. Took Ns.',
  ]);
});
