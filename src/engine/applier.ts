/**
 * The applier executes exactly a saved plan, in three parts:
 *
 * 1. Guards, offline then against the credential: the plan's format, no error diagnostics,
 *    `--max-deletes` and the other guards ({@link preflight}), the workspace, the write and read
 *    scopes.
 * 2. Live checks ({@link liveCheck}, `apply-checks.ts`): every object the plan writes is read
 *    again. If one moved since the plan (etag or content fingerprint differs, or an object to
 *    create now exists), apply refuses before its first write with a {@link StalePlanError}
 *    naming them; an object not ours, with a {@link NotOursError}.
 * 3. Steps (`apply-steps.ts`, one per change, in waves: parents first, deletes last in reverse)
 *    run by the executor (`apply-executor.ts`) with bounded concurrency and the plan's etags. A
 *    failed change stops its dependents; everything else finishes. The executor emits typed
 *    events (`apply-events.ts`); the result, folded from them, says exactly what was applied, what
 *    failed and what was not attempted.
 */
import type { PlatformClient } from '../client';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import type { Change, Plan } from '../../schemas/model/plan';
import { allows, HANDLERS, SCOPES } from '../kinds/index';
import type { ResourceHandler } from '../kinds/shared/types';
import { isWrite } from './writes';
import { guardRefusals, previewedKinds, type GuardOptions } from './guards';
import { liveCheck, type ApplyContext } from './apply-checks';
import { planSteps } from './apply-steps';
import { StepExecutor, type ApplyClock } from './apply-executor';
import { ApplyRecorder, progressLine, type ApplyEvent, type ApplyListener, type ApplyResult } from './apply-events';
import { DqformError } from '../../schemas/tools/errors';

export type { ApplyClock } from './apply-executor';
export type { ApplyEvent, ApplyEventType, ApplyListener, ApplyResult, FailPhase, HaltKind } from './apply-events';
export { ApplyRecorder, progressLine } from './apply-events';
export { isConflict, notOursWhy } from './apply-checks';

export class PlanRefusedError extends DqformError {
  static override readonly code: string = 'plan-refused';
  constructor(
    message: string,
    override readonly hint: string,
    readonly addresses: string[] = [],
  ) {
    super(message);
    this.name = 'PlanRefusedError';
  }
}

/** Live state moved since the plan: nothing was written. */
export class StalePlanError extends PlanRefusedError {
  static override readonly code: string = 'plan-refused.stale';
  constructor(readonly stale: { address: string; why: string }[]) {
    super(
      `stale plan: ${stale.length} object(s) changed since the plan was made, re-run plan:\n${stale.map((s) => `  ${s.address}: ${s.why}`).join('\n')}`,
      'Run `dqform plan` again, review it, and apply the new plan.',
      stale.map((s) => s.address),
    );
    this.name = 'StalePlanError';
  }
}

export interface ApplyOptions extends GuardOptions {
  concurrency?: number;
  /** Every event of the apply, as it happens ({@link ApplyEvent}); the CLI renders them. */
  onEvent?: ApplyListener;
  /**
   * The events' progress lines ({@link progressLine}), when no `onEvent` is given (a caller that
   * wants lines only; `applyReviewed` also sends its plan's progress here).
   */
  onProgress?: (line: string) => void;
  handlers?: Record<ResourceType, ResourceHandler>;
  /**
   * A write still running after this long reports `still creating <address> ... [10s elapsed]`
   * (a `step.running` event), and again at every further interval. Default 10 s; 0 turns it off.
   */
  progressIntervalMs?: number;
  /** Clock and timers (tests drive them by hand). */
  clock?: ApplyClock;
  /**
   * The environment a secret's `fromEnv` variable is read from when it is sent (the CLI gives
   * the environment it was given). Default `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** The directory a secret's relative `fromFile` path is relative to (the CLI gives its own). Default `process.cwd()`. */
  cwd?: string;
}

const SYSTEM_CLOCK: ApplyClock = {
  now: () => Date.now(),
  setInterval: (fn, ms) => {
    const t = setInterval(fn, ms);
    t.unref();
    return t;
  },
  clearInterval: (h) => clearInterval(h as NodeJS.Timeout),
};

export { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from './guards';

/** The operations a change makes (a replace deletes then creates). */
function operationsOf(c: Change): ('create' | 'update' | 'delete')[] {
  return c.action === 'replace' ? ['delete', 'create'] : c.action === 'create' || c.action === 'update' || c.action === 'delete' ? [c.action] : [];
}

/**
 * The scope sets the credential lacks, each with the addresses that need it. A set is the
 * any-of list of one operation ({@link SCOPES}); batch writes the credential cannot make are
 * not required: the applier then writes one by one.
 */
export function missingScopes(writes: readonly Change[], granted: ReadonlySet<string>): Map<string, string[]> {
  const missing = new Map<string, string[]>();
  for (const c of writes) {
    const kind = SCOPES[c.type as ResourceType];
    if (!kind) continue;
    for (const op of operationsOf(c)) {
      if (allows(granted, kind[op])) continue;
      const key = kind[op].join(', ');
      const list = missing.get(key) ?? [];
      if (!list.includes(c.address)) list.push(c.address);
      missing.set(key, list);
    }
  }
  return missing;
}

/**
 * Refuses a plan holding objects of a kind these credentials cannot read (none of the kind's
 * read scopes, {@link SCOPES}): apply reads every object again before writing (its etag, that it
 * did not move), and a plan made now could not see them, so without this check they would look
 * "deleted since the plan". Names the missing scope, as plan does. Throws {@link PlanRefusedError}.
 */
export function checkReadScopes(plan: Pick<Plan, 'changes'>, scopes: readonly string[], handlers: Record<ResourceType, Pick<ResourceHandler, 'label'>> = HANDLERS): void {
  const granted = new Set(scopes);
  const lines: string[] = [];
  const addresses: string[] = [];
  for (const type of RESOURCE_TYPES) {
    const need = SCOPES[type]?.read ?? [];
    if (allows(granted, need)) continue;
    const held = plan.changes.filter((c) => c.type === type && c.action !== 'unmanaged' && c.action !== 'forget').map((c) => c.address);
    if (held.length === 0) continue;
    lines.push(
      `these credentials cannot read ${handlers[type].label}s (they need one of ${need.join(', ')}), and the plan holds ${held.length} of them (${held.slice(0, 5).join(', ')}${held.length > 5 ? `, and ${held.length - 5} more` : ''})`,
    );
    addresses.push(...held);
  }
  if (lines.length === 0) return;
  throw new PlanRefusedError(
    `${lines.join(';\n  ')}: apply reads each object again before writing, so nothing was written`,
    'Apply with a credential that has the read scopes above as well as the write scopes (plan with the same credential names the same scopes).',
    addresses,
  );
}

/**
 * The checks that need no network, in order: error diagnostics (such a plan is never applied),
 * then the guards ({@link guardRefusals}). Throws {@link PlanRefusedError}.
 */
export function preflight(plan: Plan, opts: GuardOptions = {}, handlers: Record<ResourceType, Pick<ResourceHandler, 'preview'>> = HANDLERS): void {
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    throw new PlanRefusedError(
      `the plan has ${errors.length} error(s) and cannot be applied: ${errors
        .slice(0, 3)
        .map((d) => `${d.address ? `${d.address}: ` : ''}${d.summary}`)
        .join('; ')}${errors.length > 3 ? `; and ${errors.length - 3} more` : ''}`,
      'Fix the errors `dqform plan` reports, then plan again.',
      errors.map((d) => d.address).filter((a): a is string => !!a),
    );
  }
  const refusals = guardRefusals(plan, opts, previewedKinds(handlers));
  if (refusals.length) {
    throw new PlanRefusedError(
      `nothing was applied: ${refusals.map((r) => r.message).join(';\n  and ')}`,
      refusals.map((r) => r.hint).join('\n  '),
      [...new Set(refusals.flatMap((r) => r.addresses))],
    );
  }
}

/** Objects of another namespace or made in the UI in a plan's writes: refused before any write, whatever the plan says. */
export class NotOursError extends PlanRefusedError {
  static override readonly code: string = 'plan-refused.not-ours';
  constructor(
    namespace: string,
    readonly objects: { address: string; why: string }[],
  ) {
    super(
      `the plan writes or deletes ${objects.length} object(s) that namespace "${namespace}" does not own; dqform never touches those, whatever a plan file or a removed block says, and wrote nothing:\n${objects.map((o) => `  ${o.address}: ${o.why}`).join('\n')}`,
      'Plan again from the code. To manage such an object, adopt it with an import block; to stop managing one, use removed { destroy = false }.',
      objects.map((o) => o.address),
    );
    this.name = 'NotOursError';
  }
}

/**
 * Refuses before any write when the credential cannot make every write (any-of sets per
 * operation; scope names dqform does not know are ignored) or read every object written.
 */
function checkScopes(writes: Change[], scopes: readonly string[], handlers: Record<ResourceType, ResourceHandler>): void {
  const missing = missingScopes(writes, new Set(scopes));
  if (missing.size) {
    const lines = [...missing.entries()].map(([sc, addrs]) => `  one of ${sc}: needed by ${addrs.slice(0, 5).join(', ')}${addrs.length > 5 ? `, and ${addrs.length - 5} more` : ''}`);
    throw new PlanRefusedError(
      `these credentials lack the scope(s) the plan's writes need; nothing was written:\n${lines.join('\n')}`,
      'Apply with a credential that has one scope of each set above (plan and drift need read scopes only), or apply the other changes from a plan without these objects.',
      [...missing.values()].flat(),
    );
  }
  checkReadScopes({ changes: writes }, scopes, handlers);
}

/** The listener of `opts`: `onEvent`, else the progress lines to `onProgress`. */
function listenerOf(opts: ApplyOptions): ApplyListener {
  if (opts.onEvent) return opts.onEvent;
  const lines = opts.onProgress;
  if (!lines) return () => undefined;
  return (e: ApplyEvent) => {
    const line = progressLine(e);
    if (line !== undefined) lines(line);
  };
}

/**
 * The guards: the offline checks ({@link preflight}), the credential's workspace, then (when the
 * plan writes anything) the write and read scopes. Throws {@link PlanRefusedError}.
 */
async function guard(client: PlatformClient, plan: Plan, opts: ApplyOptions, handlers: Record<ResourceType, ResourceHandler>) {
  preflight(plan, opts, handlers);
  const iam = await client.iam.get();
  if (iam.workspace !== plan.workspace) {
    throw new PlanRefusedError(`the plan was made for workspace "${plan.workspace}", but these credentials act in "${iam.workspace}"`, 'Use the credentials of the plan\'s workspace, or plan again.');
  }
  const writes = plan.changes.filter(isWrite);
  if (writes.length) checkScopes(writes, iam.scopes, handlers);
  return { ctx: { workspace: iam.workspace, namespace: plan.namespace }, scopes: iam.scopes, writes };
}

/** The live checks ({@link liveCheck}): the tombstones creates continue from, or throws {@link NotOursError} / {@link StalePlanError}. */
async function checkLive(client: PlatformClient, ctx: ApplyContext, writes: Change[], handlers: Record<ResourceType, ResourceHandler>): Promise<Map<string, string>> {
  const live = await liveCheck(client, ctx, writes, handlers);
  if (live.notOurs.length) throw new NotOursError(ctx.namespace, live.notOurs);
  if (live.stale.length) throw new StalePlanError(live.stale);
  return live.tombstones;
}

/** Applies `plan`: guards, live checks, then its steps. Throws {@link PlanRefusedError} (nothing written) or returns what happened. */
export async function apply(client: PlatformClient, plan: Plan, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const handlers = opts.handlers ?? HANDLERS;
  const listener = listenerOf(opts);
  const record = new ApplyRecorder();
  const emit = (e: ApplyEvent) => {
    record.on(e);
    listener(e);
  };
  const { ctx, scopes, writes } = await guard(client, plan, opts, handlers);
  let tombstones = new Map<string, string>();
  if (writes.length) {
    // re-read what the plan writes (soft-deleted objects too) before the first write
    emit({ type: 'checks.start', objects: writes.length });
    tombstones = await checkLive(client, ctx, writes, handlers);
  }
  // steps, run wave by wave by the executor; the first conflict stops the writing
  const { steps, waves } = planSteps(plan, { handlers, granted: new Set(scopes), tombstones });
  emit({ type: 'apply.start', ...ctx, steps: steps.length, waves: waves.length });
  const executor = new StepExecutor({
    client,
    // the environment and directory only here, where the writes read secrets: not in ctx, which the events carry
    ctx: { ...ctx, ...(opts.env ? { env: opts.env } : {}), ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}) },
    handlers,
    changes: plan.changes,
    concurrency: opts.concurrency ?? 8,
    allowUnpreviewed: opts.allowUnpreviewed,
    clock: opts.clock ?? SYSTEM_CLOCK,
    progressIntervalMs: opts.progressIntervalMs ?? 10_000,
    listener,
    record,
  });
  await executor.run(steps, waves);
  const summary = record.summary();
  emit({ type: 'apply.done', summary });
  return summary;
}
