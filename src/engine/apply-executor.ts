/**
 * The applier's step executor (Pulumi's step executor: doing, apart from deciding). Runs the
 * waves of {@link Step}s in order, with bounded concurrency and the plan's etags: kinds without
 * etags are checked again right before their wave and read back after it; changes whose effects
 * were known only after apply are previewed first; a failed change stops its dependents; a
 * conflict, an unreachable platform or a preview needing review halts the writing. Everything it
 * does is an {@link ApplyEvent}; the result is folded from the same events.
 */
import { ApiError, ConflictError, isConnectFailure, PlatformUnreachableError, type PlatformClient } from '../client';
import type { ResourceType } from '../../schemas/model/manifest';
import type { Change } from '../../schemas/model/plan';
import type { HandlerContext, LiveObject, ResourceHandler } from '../kinds/shared/types';
import { WriteConflictError } from '../kinds/shared/support';
import { dependentsIndex, dependentsOf } from './graph';
import { mapLimit } from './concurrency';
import { destructiveEffects } from './guards';
import { isConflict, lookup, notOursWhy, readBackWhy, staleWhy, type ApplyContext } from './apply-checks';
import type { ApplyEvent, ApplyListener, ApplyRecorder, FailPhase, HaltKind } from './apply-events';
import type { Step } from './apply-steps';
import { DqformError } from '../../schemas/tools/errors';

/** What the applier needs of time: a clock and a repeating timer. */
export interface ApplyClock {
  now: () => number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
}

export interface ExecutorEnv {
  client: PlatformClient;
  /** The plan's workspace and namespace, and where secrets are read from (`env`, `cwd`; absent: the process's). */
  ctx: ApplyContext & Pick<HandlerContext, 'env' | 'cwd'>;
  handlers: Record<ResourceType, ResourceHandler>;
  /** All the plan's changes (for the dependents of a failed one). */
  changes: readonly Change[];
  concurrency: number;
  allowUnpreviewed?: boolean;
  clock: ApplyClock;
  /** A write running longer than this reports it again at every interval (0: never). */
  progressIntervalMs: number;
  /** Receives every event after `record`. */
  listener: ApplyListener;
  record: ApplyRecorder;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** What to do about `e`: its hint (a static text, never a value), else its cause's (a replacement's failed create). */
function hintOf(e: unknown): string | undefined {
  if (!(e instanceof DqformError)) return undefined;
  return e.hint ?? (e.cause instanceof DqformError ? e.cause.hint : undefined);
}

/** A change whose effects were known only after apply was not written: its preview now needs a new review (or failed). */
export class UnreviewedEffectsError extends DqformError {
  static override readonly code: string = 'write.unreviewed-effects';
  override readonly name = 'UnreviewedEffectsError';
}

/** A replace destroyed the old object, then creating the new one failed (its `cause`). */
export class ReplacementFailedError extends DqformError {
  static override readonly code: string = 'write.replacement-failed';
  override readonly name = 'ReplacementFailedError';
}

/** Runs the steps of one apply; make one per apply. */
export class StepExecutor {
  private halted?: { kind: HaltKind; reason: string };
  /** Address -> the failed change it depends on. */
  private readonly blocked = new Map<string, string>();
  /** Who depends on whom among the plan's changes, made at the first failure. */
  private dependents: Map<string, string[]> | undefined;

  constructor(private readonly env: ExecutorEnv) {}

  /** Runs `waves` in order, then reads back what was written (`steps`: in the plan's order). */
  async run(steps: readonly Step[], waves: readonly Step[][]): Promise<void> {
    for (const wave of waves) await this.runWave(wave);
    // what this apply wrote must still be there at its end: a write that another writer replaced
    // in the meantime is a conflict, not "done"
    const kept = steps.map((s) => s.change).filter((c) => c.action !== 'delete' && this.env.record.isApplied(c.address));
    if (kept.length && this.halted?.kind !== 'unreachable') await this.verify(kept, 'end');
  }

  private emit(e: ApplyEvent): void {
    this.env.record.on(e);
    this.env.listener(e);
  }

  private async runWave(wave: readonly Step[]): Promise<void> {
    const runnable = wave.filter((s) => {
      const dependency = this.blocked.get(s.change.address);
      if (dependency) this.emit({ type: 'step.skipped', address: s.change.address, action: s.change.action, reason: 'dependency-failed', dependency });
      else if (this.halted) this.skipHalted(s.change);
      return !dependency && !this.halted;
    });
    if (runnable.length === 0) return;
    // kinds without etags: checked again right before the wave writes them (the race window is
    // this wave, not the whole apply), and read back after
    const rechecked = runnable.filter((s) => s.recheck);
    const ready = new Set(runnable);
    await this.recheck(rechecked, ready);
    await this.previewFirst(runnable.filter((s) => ready.has(s)), ready);
    await this.write(runnable.filter((s) => ready.has(s)));
    const written = rechecked.map((s) => s.change).filter((c) => c.action !== 'delete' && this.env.record.isApplied(c.address));
    if (written.length && this.halted?.kind !== 'unreachable') await this.verify(written, 'wave');
  }

  private skipHalted(c: Change): void {
    this.emit({ type: 'step.skipped', address: c.address, action: c.action, reason: 'halted', halt: this.halted!.kind });
  }

  private halt(kind: HaltKind, reason: string, hint?: string): void {
    this.halted = { kind, reason };
    this.emit({ type: 'halt', kind, reason, ...(hint !== undefined ? { hint } : {}) });
  }

  /** A change failed: its dependents are not attempted; a conflict or the platform gone halts the apply. */
  private fail(c: Change, e: unknown, phase: FailPhase, ms?: number): void {
    // a replacement's failed create is wrapped for its message; what happened is its cause's
    const root = e instanceof ReplacementFailedError ? e.cause : e;
    const mayHaveLanded = root instanceof ApiError && root.mayHaveLanded;
    const hint = hintOf(e);
    this.emit({ type: 'step.failed', address: c.address, action: c.action, phase, error: describe(e), ...(hint !== undefined ? { hint } : {}), ...(ms !== undefined ? { durationMs: ms } : {}), ...(mayHaveLanded ? { mayHaveLanded: true as const } : {}) });
    this.dependents ??= dependentsIndex(this.env.changes);
    for (const d of dependentsOf(c.address, this.env.changes, this.dependents)) if (!this.blocked.has(d)) this.blocked.set(d, c.address);
    if (this.halted) return;
    // a write that failed to connect (after the client's retries, or a create that is never
    // retried): writing on would only fail the same way
    if (root instanceof PlatformUnreachableError || isConnectFailure(root)) this.unreachable(root as ApiError);
    else if (isConflict(e)) this.halt('conflict', `${c.address} met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written`);
  }

  /** The platform is gone: stop writing. */
  private unreachable(e: ApiError): void {
    if (this.halted) return;
    const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = e instanceof PlatformUnreachableError ? e.message : `the platform is not answering: a write could not connect (${String(cause?.code ?? 'no connection')}${typeof cause?.message === 'string' ? `: ${cause.message}` : ''})`;
    this.halt('unreachable', `${why}: nothing more was written`, hintOf(e));
  }

  /** Checks `steps` (kinds without etags) against live state right before their wave; drops from `ready` what may not be written. */
  private async recheck(steps: readonly Step[], ready: Set<Step>): Promise<void> {
    if (steps.length === 0) return;
    const { client, ctx, handlers } = this.env;
    let now: (c: Change) => LiveObject | undefined;
    try {
      now = await lookup(client, ctx, steps.map((s) => s.change), handlers, false);
    } catch (e) {
      // could not check them: not written (the platform gone stops the apply here)
      for (const s of steps) ready.delete(s);
      if (e instanceof PlatformUnreachableError) {
        this.unreachable(e);
        for (const s of steps) this.skipHalted(s.change);
      } else for (const s of steps) this.fail(s.change, e, 'check');
      return;
    }
    for (const s of steps) {
      const c = s.change;
      const obj = now(c);
      const h = handlers[c.type as ResourceType];
      const why = (obj && c.action !== 'create' ? notOursWhy(c, obj, h, ctx.workspace, ctx.namespace) : undefined) ?? staleWhy(c, obj, h);
      if (!why) continue;
      ready.delete(s);
      this.fail(c, new WriteConflictError(c.address, `${why} (checked right before writing it); not written`), 'check');
    }
  }

  /**
   * Changes whose effects were known only after apply (they depend on objects this plan
   * creates, which earlier waves wrote): asks the platform for their preview now, and stops the
   * apply before a change whose preview deletes, resets or takes over anything (a create may only
   * create), or whose preview fails (unless --allow-unpreviewed).
   */
  private async previewFirst(steps: readonly Step[], ready: Set<Step>): Promise<void> {
    for (const s of steps) {
      if (this.halted || !s.previewFirst) continue;
      const c = s.change;
      this.emit({ type: 'preview.start', address: c.address, action: c.action });
      const why = await this.previewWhy(c);
      if (why === null) return;
      if (!why) continue;
      ready.delete(s);
      this.fail(c, new UnreviewedEffectsError(`not written: its effects were known only after apply (${c.effects!.afterApply}), and now ${why}`), 'preview');
      this.halt('preview', `apply stopped before ${c.address}, whose effects known only after apply need a new review: nothing more was written`);
    }
  }

  /** Why `c`'s preview stops it (undefined: it may be written; null: the platform is gone). */
  private async previewWhy(c: Change): Promise<string | undefined | null> {
    const { client, ctx, handlers, allowUnpreviewed } = this.env;
    const unpreviewed = (error: string) => (allowUnpreviewed ? undefined : `its preview failed (${error}); re-run with --allow-unpreviewed to write it without knowing its effects`);
    try {
      const e = await handlers[c.type as ResourceType].preview!(client, c, ctx);
      if (!e || e.error !== undefined) return unpreviewed(e?.error ?? 'no preview');
      const bad = destructiveEffects(e);
      if (bad) return `its preview ${bad}`;
      this.emit({ type: 'preview.done', address: c.address, action: c.action, monitors: e.monitorsToCreate.length, tests: e.testsToCreate.length });
      return undefined;
    } catch (e) {
      if (!(e instanceof PlatformUnreachableError)) return unpreviewed(describe(e));
      this.unreachable(e);
      return null;
    }
  }

  /** Writes one wave: batches where the kind has them, the rest one by one (bounded concurrency). */
  private async write(steps: readonly Step[]): Promise<void> {
    const byType = new Map<string, Change[]>();
    for (const s of steps.filter((x) => x.batched)) {
      if (!byType.has(s.change.type)) byType.set(s.change.type, []);
      byType.get(s.change.type)!.push(s.change);
    }
    for (const type of [...byType.keys()].sort()) await this.writeBatch(type as ResourceType, byType.get(type)!);
    await mapLimit(
      steps.filter((s) => !s.batched),
      this.env.concurrency,
      (s) => this.writeOne(s),
    );
  }

  /** Runs one write (or batch) and returns its duration; `tick` reports it while it runs longer than the progress interval. */
  private async timed(tick: (elapsedMs: number) => void, write: () => Promise<void>): Promise<number> {
    const { clock, progressIntervalMs: every } = this.env;
    const started = clock.now();
    const timer = every > 0 ? clock.setInterval(() => tick(clock.now() - started), every) : undefined;
    try {
      await write();
    } finally {
      if (timer !== undefined) clock.clearInterval(timer);
    }
    return clock.now() - started;
  }

  private async writeBatch(type: ResourceType, cs: Change[]): Promise<void> {
    if (this.halted) {
      for (const c of cs) this.skipHalted(c);
      return;
    }
    const { client, ctx, handlers } = this.env;
    const batch = { kind: type, label: handlers[type].label, addresses: cs.map((c) => c.address) };
    this.emit({ type: 'batch.start', ...batch });
    let errs: Map<string, unknown> | undefined;
    let thrown: unknown;
    const ms = await this.timed(
      (elapsedMs) => this.emit({ type: 'batch.running', ...batch, elapsedMs }),
      async () => {
        try {
          errs = await handlers[type].writeMany!(client, cs, ctx);
        } catch (e) {
          thrown = e;
        }
      },
    );
    for (const c of cs) {
      const e = thrown ?? errs?.get(c.address);
      if (e) this.fail(c, e, 'write', ms);
      else this.emit({ type: 'step.done', address: c.address, action: c.action, id: c.id, durationMs: ms });
    }
  }

  private async writeOne(s: Step): Promise<void> {
    const c = s.change;
    if (this.halted) return this.skipHalted(c);
    this.emit({ type: 'step.start', address: c.address, action: c.action });
    const started = this.env.clock.now();
    try {
      const ms = await this.timed((elapsedMs) => this.emit({ type: 'step.running', address: c.address, action: c.action, elapsedMs }), () => this.send(s));
      this.emit({ type: 'step.done', address: c.address, action: c.action, id: c.id, durationMs: ms });
    } catch (e) {
      this.fail(c, e, 'write', this.env.clock.now() - started);
    }
  }

  /** The calls of one change (a replace deletes, then creates). */
  private async send({ change: c, tombstone }: Step): Promise<void> {
    const { client, ctx, handlers } = this.env;
    const h = handlers[c.type as ResourceType];
    if (c.action === 'create') await this.confirmed(h, c, () => h.create(client, { ...c, etag: tombstone }, ctx));
    else if (c.action === 'update') await this.confirmed(h, c, () => h.update(client, c, ctx));
    else if (c.action === 'delete') await this.confirmed(h, c, () => h.delete(client, c, ctx));
    else if (c.action === 'replace') {
      await this.confirmed(h, { ...c, action: 'delete' }, () => h.delete(client, c, ctx));
      try {
        // kinds whose deletes are soft keep the id's version: the create continues from
        // the deleted object's etag (as a create at a deleted id does), not from none
        await h.create(client, { ...c, etag: await this.tombstoneEtag(c) }, ctx);
      } catch (e) {
        if (isConflict(e)) throw e;
        throw new ReplacementFailedError(`the old ${h.label} was destroyed, but creating its replacement failed (${describe(e)}); run plan and apply again to create it`, { cause: e });
      }
    }
  }

  /** The etag of the soft-deleted object at `c`'s id (undefined when there is none: a hard delete). */
  private async tombstoneEtag(c: Change): Promise<string | undefined> {
    const f = (await lookup(this.env.client, this.env.ctx, [{ ...c, action: 'create' }], this.env.handlers, true))(c);
    return f?.deleted ? f.etag : undefined;
  }

  /**
   * A retried etag-guarded write whose first attempt succeeded comes back ABORTED (upstream
   * facts): on a conflict, read the object again and count the write as done when live already
   * holds what the plan wanted.
   */
  private async confirmed(h: ResourceHandler, c: Change, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      const { client, ctx } = this.env;
      const objs = await h.read(client, { ...ctx, keys: [c.id], keysOnly: true });
      const obj = objs.find((o) => o.key === c.id || o.id === c.id);
      if (c.action === 'delete' && !obj) return;
      if ((c.action === 'update' || c.action === 'create') && obj && !readBackWhy(c, obj, h, ctx.namespace)) return;
      throw e;
    }
  }

  /**
   * Reads `changes` back and fails those that do not hold what was written. When the read itself
   * fails, they stay applied (the platform acknowledged them); a platform that is gone halts.
   */
  private async verify(changes: Change[], when: 'wave' | 'end'): Promise<void> {
    const { client, ctx, handlers } = this.env;
    this.emit({ type: 'readback', when, addresses: changes.map((c) => c.address) });
    let back: (c: Change) => LiveObject | undefined;
    try {
      back = await lookup(client, ctx, changes, handlers, false);
    } catch (e) {
      if (e instanceof PlatformUnreachableError) this.unreachable(e);
      return;
    }
    for (const c of changes) {
      const why = readBackWhy(c, back(c), handlers[c.type as ResourceType], ctx.namespace);
      if (why) this.fail(c, new WriteConflictError(c.address, `${why}${when === 'end' ? ' after this apply wrote it' : ''}`), 'readback');
    }
  }
}
