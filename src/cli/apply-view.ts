/**
 * The view of `apply` and `destroy`: renders the applier's events ({@link ApplyEvent}). Progress
 * goes to stderr as it happens (`progressLine`); each write done is one line on stdout as it
 * finishes, in the order applied, with its id and time (`  create dq_owner.a: done in 1.2s
 * [id=...]`); at `apply.done`, what failed and what was not attempted (in the order it happened),
 * then the totals, and after a targeted plan, the warning that other changes may remain.
 */
import { progressLine, type ApplyEvent, type ApplyResult } from '../engine/apply-events';

/** Where the view prints (the command's Io). */
export interface ApplyViewIo {
  out: (s: string) => void;
  err: (s: string) => void;
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)}s`;

export interface ApplyViewOptions {
  /** The report's words. */
  what: 'Apply' | 'Destroy';
  /** When the command started the apply: the report's "Took" counts from it (a saved plan's re-plan included). */
  started: number;
  /** The plan's `--target`s: after the report, Terraform's warning that other changes may remain. */
  targets?: readonly string[];
}

/** A listener that renders one apply's events. */
export function applyView(io: ApplyViewIo, { what, started, targets = [] }: ApplyViewOptions): (e: ApplyEvent) => void {
  // the order the changes finished in (done, failed, skipped): the report's order
  const order = new Map<string, number>();
  return (e) => {
    const line = progressLine(e);
    if (line !== undefined) io.err(line);
    if (e.type === 'step.done' || e.type === 'step.failed' || e.type === 'step.skipped') order.set(e.address, order.size);
    if (e.type === 'step.done') io.out(`  ${e.action} ${e.address}: done in ${seconds(e.durationMs)} [id=${e.id}]`);
    if (e.type !== 'apply.done') return;
    const rank = (x: { address: string }) => order.get(x.address) ?? order.size;
    const inOrder = <T extends { address: string }>(xs: T[]) => [...xs].sort((a, b) => rank(a) - rank(b));
    report(io, { ...e.summary, failed: inOrder(e.summary.failed), skipped: inOrder(e.summary.skipped) }, Date.now() - started, what);
    if (targets.length) {
      io.err(`Warning: applied changes may be incomplete: this plan was targeted (${targets.join(', ')}), so other changes the code asks for may remain.\n  Run dqform plan without --target to see them.`);
    }
  };
}

/** The exit code of an apply: 1 when anything failed or was not attempted. */
export function exitCode(r: ApplyResult): number {
  return r.failed.length || r.skipped.length ? 1 : 0;
}

/** An error's hint (docs/errors.md: static text, never a value) on the line after its message, indented by `indent`; empty without one. */
function hintLine(hint: string | undefined, indent: number): string {
  return hint === undefined ? '' : `\n${' '.repeat(indent)}${hint}`;
}

/**
 * The apply report. When the apply stopped early (a conflict, or the platform gone), what was
 * not attempted is one line, not one per change; when the platform is gone, the writes that
 * failed for it are in that line too (they were in flight: they may or may not have landed).
 */
function report(io: ApplyViewIo, r: ApplyResult, elapsedMs: number, what: 'Apply' | 'Destroy'): void {
  const list = (xs: { address: string }[]) => `${xs.slice(0, 5).map((x) => x.address).join(', ')}${xs.length > 5 ? `, and ${xs.length - 5} more` : ''}`;
  const halt = r.halted;
  const gone = halt?.kind === 'unreachable';
  // failed for the outage: not sent at all (could not connect, on every attempt), or sent and cut
  // off (may have landed: also a write retried after a lost response that then could not connect)
  const notSent = gone ? r.failed.filter((f) => !f.mayHaveLanded && /is not answering|\((ECONNREFUSED|ENOTFOUND|EHOSTUNREACH|ENETUNREACH|EAI_AGAIN|UND_ERR_CONNECT_TIMEOUT)\)/.test(f.error)) : [];
  const inFlight = gone ? r.failed.filter((f) => !notSent.includes(f) && (f.mayHaveLanded || /connection failed/.test(f.error))) : [];
  const rest = halt ? r.skipped.filter((x) => x.because === halt.reason) : [];
  for (const f of r.failed) if (!inFlight.includes(f) && !notSent.includes(f)) io.err(`  ${f.action} ${f.address}: FAILED: ${f.error}${f.ms === undefined ? '' : ` (after ${seconds(f.ms)})`}${hintLine(f.hint, 4)}`);
  for (const x of r.skipped) if (!rest.includes(x)) io.err(`  ${x.action} ${x.address}: not attempted (${x.because})`);
  if (gone) {
    // the outage's hints, once each: the halting error's, then those of the writes it cut off
    const goneHints = [...new Set([halt.hint, ...[...notSent, ...inFlight].map((f) => f.hint)].filter((h): h is string => h !== undefined))];
    io.err(
      `Error: ${halt.reason.replace(/: nothing more was written$/, '')}. ${what} stopped: ${r.applied.length} applied${notSent.length ? `; ${notSent.length} could not connect (not written)` : ''}${inFlight.length ? `; ${inFlight.length} in flight when it went away may or may not have landed (${list(inFlight)})` : ''}; ${rest.length} not attempted. Run dqform plan when it answers again: plan and apply converge.${goneHints.map((h) => hintLine(h, 2)).join('')}`,
    );
  } else if (rest.length) io.err(`  ${rest.length} change(s) not attempted (${list(rest)}): ${halt!.reason}${hintLine(halt!.hint, 4)}`);
  io.out(`${what} ${r.failed.length || r.skipped.length ? 'stopped' : 'complete'}: ${r.applied.length} applied, ${r.failed.length} failed, ${r.skipped.length} not attempted. Took ${seconds(elapsedMs)}.`);
  if (exitCode(r) && !gone) io.err('Run `dqform plan` to see what remains; re-running plan and apply converges.');
}
