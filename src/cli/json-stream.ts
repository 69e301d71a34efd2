/**
 * The `--json` stream of validate, plan and apply (issue 26): one JSON object a line on stdout,
 * as Terraform's `-json` (shapes: schemas/model/json-stream.ts; docs/json-stream.md). apply's lines
 * come from the applier's typed events (src/engine/apply-events.ts), one line per event.
 */
import { reasonsText } from '../plan/reasons-text';
import { JSON_STREAM_VERSION, type StreamLine } from '../../schemas/model/json-stream';
import type { Change, Diagnostic, Drift, Plan } from '../../schemas/model/plan';
import type { ApplyEvent } from '../engine/apply-events';
import { summaryLine } from './render';

type Level = StreamLine['@level'];
type Body = Record<string, unknown> & { type: StreamLine['type'] };

const LEVEL: Record<Diagnostic['severity'], Level> = { error: 'error', warning: 'warn', info: 'info' };
const secs = (ms: number) => Math.round(ms) / 1000;
const PAST: Record<string, string> = { create: 'Creation', update: 'Modifications', replace: 'Replacement', delete: 'Destruction', forget: 'Forgetting' };
const DOING: Record<string, string> = { create: 'Creating', update: 'Modifying', replace: 'Replacing', delete: 'Destroying', forget: 'Forgetting' };

/** Writes stream lines to `out`; `stack` (once known) goes on every line after `version`. */
export class JsonStream {
  private stack: string | undefined;
  /** Platform ids by address (from the plan being applied), for the apply lines' `resource.id`. */
  private ids = new Map<string, { id: string; type: string }>();

  constructor(private readonly out: (line: string) => void) {}

  private line(level: Level, message: string, body: Body): void {
    const head = { '@level': level, '@message': message, '@module': 'dqform', ...(this.stack !== undefined && body.type !== 'version' ? { stack: this.stack } : {}) };
    this.out(JSON.stringify({ ...head, ...body }));
  }

  private resource(address: string, type?: string): { addr: string; resource_type: string; id?: string } {
    const known = this.ids.get(address);
    return { addr: address, resource_type: type ?? known?.type ?? address.replace(/[.[].*$/s, ''), ...(known ? { id: known.id } : {}) };
  }

  /** The first line of every stream. */
  version(version: string): void {
    this.line('info', `dqform ${version}`, { type: 'version', dqform: version, ui: JSON_STREAM_VERSION });
  }

  /** The stack the next lines are about. */
  forStack(stack: string): void {
    this.stack = stack;
  }

  diagnostics(diags: readonly Diagnostic[]): void {
    for (const d of diags) this.line(LEVEL[d.severity], `${d.severity === 'error' ? 'Error' : d.severity === 'warning' ? 'Warning' : 'Info'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`, { type: 'diagnostic', diagnostic: d });
  }

  validated(errors: number, warnings: number, resources: number): void {
    this.line(errors ? 'error' : 'info', errors ? `${errors} error(s) in stack ${this.stack ?? ''}` : `Stack ${this.stack ?? ''}: ${resources} resource(s), valid`, { type: 'validate_result', valid: errors === 0, error_count: errors, warning_count: warnings, resources });
  }

  /** A plan: its diagnostics, each change it writes (or, refresh-only, each drift), its summary. */
  plan(p: Plan): void {
    this.forStack(p.stack);
    for (const c of p.changes) this.ids.set(c.address, { id: c.id, type: c.type });
    this.diagnostics(p.diagnostics);
    for (const c of p.changes) if (c.action !== 'noop' && c.action !== 'unmanaged') this.change(c);
    for (const d of p.drift) this.drift(d);
    const s = p.summary;
    this.line('info', summaryLine(p), { type: 'change_summary', changes: { operation: 'plan', add: s.add + s.replace, change: s.change, remove: s.destroy + s.replace, import: s.import } });
  }

  private change(c: Change): void {
    this.line('info', `${c.address}: Plan to ${c.action}`, { type: 'planned_change', change: { resource: this.resource(c.address, c.type), action: c.action, ...(c.name !== undefined ? { name: c.name } : {}), reasons: reasonsText(c) } });
  }

  private drift(d: Drift): void {
    const what = d.difference === 'changed' ? 'changed outside dqform' : d.difference === 'absent' ? 'declared, absent live' : 'live, not declared';
    this.line('info', `${d.address}: ${what}`, { type: 'resource_drift', change: { resource: this.resource(d.address, d.type), difference: d.difference, remedy: d.remedy } });
  }

  /** A listener for the applier's events (ApplyOptions.onEvent): one line per event. */
  applyListener(): (e: ApplyEvent) => void {
    return (e) => this.event(e);
  }

  private event(e: ApplyEvent): void {
    switch (e.type) {
      case 'checks.start':
        return this.line('info', `checking that live state has not moved since the plan (${e.objects} object(s))`, { type: 'checks_start', objects: e.objects });
      case 'apply.start':
        return this.line('info', `applying ${e.steps} change(s) to namespace "${e.namespace}" in workspace "${e.workspace}"`, { type: 'apply_begin', workspace: e.workspace, namespace: e.namespace, steps: e.steps, waves: e.waves });
      case 'preview.start':
        return this.line('info', `${e.address}: previewing its effects`, { type: 'preview_start', hook: { resource: this.resource(e.address), action: e.action } });
      case 'preview.done':
        return this.line('info', `${e.address}: the platform previews ${e.monitors} monitor(s) and ${e.tests} SQL test(s)`, { type: 'preview_complete', hook: { resource: this.resource(e.address), action: e.action, monitors: e.monitors, tests: e.tests } });
      case 'batch.start':
        return this.line('info', `writing ${e.addresses.length} ${e.label}(s) in batches`, { type: 'batch_start', hook: { kind: e.kind, addrs: e.addresses } });
      case 'batch.running':
        return this.line('info', `still writing ${e.addresses.length} ${e.label}(s) [${Math.round(e.elapsedMs / 1000)}s elapsed]`, { type: 'batch_progress', hook: { kind: e.kind, addrs: e.addresses, elapsed_seconds: secs(e.elapsedMs) } });
      case 'step.start':
        return this.line('info', `${e.address}: ${DOING[e.action] ?? e.action}...`, { type: 'apply_start', hook: { resource: this.resource(e.address), action: e.action } });
      case 'step.running':
        return this.line('info', `${e.address}: Still ${(DOING[e.action] ?? e.action).toLowerCase()}... [${Math.round(e.elapsedMs / 1000)}s elapsed]`, { type: 'apply_progress', hook: { resource: this.resource(e.address), action: e.action, elapsed_seconds: secs(e.elapsedMs) } });
      case 'step.done':
        return this.line('info', `${e.address}: ${PAST[e.action] ?? e.action} complete after ${secs(e.durationMs)}s`, { type: 'apply_complete', hook: { resource: this.resource(e.address), action: e.action, id_key: 'id', id_value: e.id, elapsed_seconds: secs(e.durationMs) } });
      case 'step.failed':
        return this.line('error', `${e.address}: ${e.action} failed: ${e.error}`, {
          type: 'apply_errored',
          hook: { resource: this.resource(e.address), action: e.action, phase: e.phase, error: e.error, ...(e.hint !== undefined ? { hint: e.hint } : {}), ...(e.durationMs !== undefined ? { elapsed_seconds: secs(e.durationMs) } : {}), ...(e.mayHaveLanded ? { may_have_landed: true } : {}) },
        });
      case 'step.skipped': {
        const because = e.reason === 'dependency-failed' ? `${e.dependency} failed` : `the apply halted (${e.halt})`;
        return this.line('warn', `${e.address}: not attempted: ${because}`, { type: 'apply_skipped', hook: { resource: this.resource(e.address), action: e.action, reason: e.reason, because } });
      }
      case 'halt':
        return this.line('error', `the apply stopped writing: ${e.reason}`, { type: 'apply_halted', kind: e.kind, reason: e.reason, ...(e.hint !== undefined ? { hint: e.hint } : {}) });
      case 'readback':
        return this.line('info', `reading back ${e.addresses.length} object(s) written`, { type: 'readback', when: e.when, addrs: e.addresses });
      case 'apply.done': {
        const r = e.summary;
        const count = (a: string[]) => r.applied.filter((x) => a.includes(x.action)).length;
        const ok = r.failed.length === 0 && r.skipped.length === 0;
        const [add, change, remove] = [count(['create', 'replace']), count(['update']), count(['delete', 'replace'])];
        return this.line(ok ? 'info' : 'error', `Apply ${ok ? 'complete' : 'stopped'}! Resources: ${add} added, ${change} changed, ${remove} destroyed, ${r.failed.length} failed, ${r.skipped.length} not attempted.`, {
          type: 'change_summary',
          changes: { operation: 'apply', add, change, remove, failed: r.failed.length, skipped: r.skipped.length },
        });
      }
      default:
        return undefined;
    }
  }
}
