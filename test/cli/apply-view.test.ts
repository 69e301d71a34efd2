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
      { type: 'step.done', address: 'dq_owner.a', action: 'create', durationMs: 1200 },
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
    'err: writing 2 SQL test(s) in batches',
    'err: still writing 2 SQL test(s) ... [20s elapsed]',
    'err: asking the platform what dq_monitor_deployment_rule.r does, now that what it depends on exists',
    'err: dq_monitor_deployment_rule.r: the platform previews 2 monitor(s) to create',
    'err: reading back the 1 object(s) written',
    'out:   create dq_owner.a: done in 1.2s',
    'err:   update dq_owner.b: FAILED: conflict: b (after 0.3s)',
    `err:   1 change(s) not attempted (dq_owner.c): ${halt}`,
    'out: Apply stopped: 1 applied, 1 failed, 1 not attempted. Took Ns.',
    'err: Run `dqform plan` to see what remains; re-running plan and apply converges.',
  ]);
  expect(exitCode(summary)).toBe(1);
});

it('a complete destroy: its words, exit code 0', () => {
  const summary: ApplyResult = { applied: [{ address: 'dq_owner.a', action: 'delete', ms: 50 }], failed: [], skipped: [] };
  expect(render([{ type: 'apply.done', summary }], 'Destroy')).toEqual(['out:   delete dq_owner.a: done in 0.1s', 'out: Destroy complete: 1 applied, 0 failed, 0 not attempted. Took Ns.']);
  expect(exitCode(summary)).toBe(0);
});

it('a targeted plan: the warning after the report', () => {
  const summary: ApplyResult = { applied: [], failed: [], skipped: [] };
  expect(render([{ type: 'apply.done', summary }], 'Apply', ['dq_owner.a'])).toEqual([
    'out: Apply complete: 0 applied, 0 failed, 0 not attempted. Took Ns.',
    'err: Warning: applied changes may be incomplete: this plan was targeted (dq_owner.a), so other changes the code asks for may remain.\n  Run dqform plan without --target to see them.',
  ]);
});
