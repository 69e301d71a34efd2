/**
 * What an apply reports while it runs: typed events (Pulumi's engine events, in small). The
 * executor emits them to one listener; {@link ApplyRecorder} folds the same events into the
 * {@link ApplyResult} that `apply` returns, so the stream and the result cannot disagree. A
 * renderer (the CLI's `src/cli/apply-view.ts`, `apply --json`: one event a line, src/cli/json-stream.ts) turns them
 * into output. Every event names the change by its address.
 */
import type { Change } from '../../schemas/model/plan';

export type ApplyAction = Change['action'];

/** Why the apply stopped writing before the end. */
export type HaltKind = 'conflict' | 'unreachable' | 'preview';

/**
 * Where a change failed: `check` (live state moved just before its wave), `preview` (its effects,
 * known only after apply, need a new review), `write` (the platform refused or never answered),
 * `readback` (it was written, but does not read back as written: someone else wrote it too).
 */
export type FailPhase = 'check' | 'preview' | 'write' | 'readback';

export type ApplyEvent =
  /** The guards passed; the objects the plan writes are read again (stale plan, ownership). */
  | { type: 'checks.start'; objects: number }
  /** Nothing was refused: the steps run now, `waves` after one another. */
  | { type: 'apply.start'; workspace: string; namespace: string; steps: number; waves: number }
  /** A change whose effects were known only after apply is previewed before its write. */
  | { type: 'preview.start'; address: string; action: ApplyAction }
  | { type: 'preview.done'; address: string; action: ApplyAction; monitors: number; tests: number }
  /** The changes of one kind written in the kind's batch call. */
  | { type: 'batch.start'; kind: string; label: string; addresses: string[] }
  | { type: 'batch.running'; kind: string; label: string; addresses: string[]; elapsedMs: number }
  /** One change written on its own. */
  | { type: 'step.start'; address: string; action: ApplyAction }
  /** A write still running after each progress interval. */
  | { type: 'step.running'; address: string; action: ApplyAction; elapsedMs: number }
  /** `durationMs`: the write's time (a batch: the whole batch's time); `id`: the object's id (the plan's). */
  | { type: 'step.done'; address: string; action: ApplyAction; id: string; durationMs: number }
  /** `mayHaveLanded`: an earlier attempt of the write may have reached the platform; `hint`: the error's, what to do (docs/errors.md). */
  | { type: 'step.failed'; address: string; action: ApplyAction; phase: FailPhase; error: string; hint?: string; durationMs?: number; mayHaveLanded?: true }
  | { type: 'step.skipped'; address: string; action: ApplyAction; reason: 'dependency-failed'; dependency: string }
  | { type: 'step.skipped'; address: string; action: ApplyAction; reason: 'halted'; halt: HaltKind }
  /** The apply stops writing; every later change is skipped with reason `halted`; `hint`: the halting error's, when it has one. */
  | { type: 'halt'; kind: HaltKind; reason: string; hint?: string }
  /** What was written is read again: after a wave of kinds without etags, and at the end. */
  | { type: 'readback'; when: 'wave' | 'end'; addresses: string[] }
  /** The end; `summary` is what `apply` returns. */
  | { type: 'apply.done'; summary: ApplyResult };

export type ApplyEventType = ApplyEvent['type'];
export type ApplyListener = (event: ApplyEvent) => void;

export interface ApplyResult {
  /** `ms`: how long the write took (a batch: the whole batch's time). */
  applied: { address: string; action: Change['action']; ms?: number }[];
  /** `mayHaveLanded`: the write failed in the end, but an earlier attempt of it may have reached the platform; `hint`: the error's. */
  failed: { address: string; action: Change['action']; error: string; hint?: string; ms?: number; mayHaveLanded?: true }[];
  /** Not attempted because something they depend on failed, or the apply stopped. */
  skipped: { address: string; action: Change['action']; because: string }[];
  /**
   * Why the apply stopped writing before the end: a conflict (another writer is at work) or the
   * platform stopped answering. `skipped` entries with this `because` are the rest of the plan.
   */
  halted?: { kind: HaltKind; reason: string; hint?: string };
}

const byAddress = (a: { address: string }, b: { address: string }) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);

/** Folds the events of one apply into its {@link ApplyResult}. */
export class ApplyRecorder {
  private readonly result: ApplyResult = { applied: [], failed: [], skipped: [] };
  private readonly applied = new Set<string>();

  on(e: ApplyEvent): void {
    const r = this.result;
    if (e.type === 'step.done') {
      r.applied.push({ address: e.address, action: e.action, ms: e.durationMs });
      this.applied.add(e.address);
    } else if (e.type === 'step.failed') {
      // a change that fails its read-back was applied first: it moves to failed, with the write's time
      const i = this.applied.delete(e.address) ? r.applied.findIndex((x) => x.address === e.address) : -1;
      const ms = e.durationMs ?? (i >= 0 ? r.applied[i].ms : undefined);
      if (i >= 0) r.applied.splice(i, 1);
      r.failed.push({ address: e.address, action: e.action, error: e.error, ...(e.hint !== undefined ? { hint: e.hint } : {}), ...(ms !== undefined ? { ms } : {}), ...(e.mayHaveLanded ? { mayHaveLanded: true as const } : {}) });
    } else if (e.type === 'step.skipped') {
      const because = e.reason === 'dependency-failed' ? `${e.dependency} failed` : this.result.halted!.reason;
      r.skipped.push({ address: e.address, action: e.action, because });
    } else if (e.type === 'halt') r.halted = { kind: e.kind, reason: e.reason, ...(e.hint !== undefined ? { hint: e.hint } : {}) };
  }

  /** Whether `address` is applied (and not failed since, at its read-back). */
  isApplied(address: string): boolean {
    return this.applied.has(address);
  }

  /** The result so far, each list sorted by address. */
  summary(): ApplyResult {
    const r = this.result;
    return { applied: [...r.applied].sort(byAddress), failed: [...r.failed].sort(byAddress), skipped: [...r.skipped].sort(byAddress), ...(r.halted ? { halted: { ...r.halted } } : {}) };
  }
}

/** The present participle of an action, for progress lines (Terraform's wording). */
const DOING: Record<ApplyAction, string> = { create: 'creating', update: 'updating', replace: 'replacing', delete: 'destroying', noop: 'reading', unmanaged: 'reading', forget: 'reading' };

const elapsed = (ms: number) => `[${Math.round(ms / 1000)}s elapsed]`;

/** What was previewed, in words. */
function previewed(monitors: number, tests: number): string {
  if (monitors + tests === 0) return 'nothing created, changed or deleted';
  return `${[monitors ? `${monitors} monitor(s)` : '', tests ? `${tests} SQL test(s)` : ''].filter(Boolean).join(' and ')} to create`;
}

/**
 * The progress line of an event (undefined: the event has none; its outcome is in the final
 * report). The CLI prints these as they come; `ApplyOptions.onProgress` receives them.
 */
export function progressLine(e: ApplyEvent): string | undefined {
  switch (e.type) {
    case 'checks.start':
      return 'checking that live state has not moved since the plan';
    case 'preview.start':
      return `asking the platform what ${e.address} does, now that what it depends on exists`;
    case 'preview.done':
      return `${e.address}: the platform previews ${previewed(e.monitors, e.tests)}`;
    case 'batch.start':
      return `writing ${e.addresses.length} ${e.label}(s) in batches`;
    case 'batch.running':
      return `still writing ${e.addresses.length} ${e.label}(s) ... ${elapsed(e.elapsedMs)}`;
    case 'step.start':
      return `${e.action} ${e.address}`;
    case 'step.running':
      return `still ${DOING[e.action]} ${e.address} ... ${elapsed(e.elapsedMs)}`;
    case 'readback':
      return e.when === 'end' ? `reading back the ${e.addresses.length} object(s) written` : undefined;
    default:
      return undefined;
  }
}
