/**
 * The applier executes exactly a saved plan.
 *
 * 1. The plan is checked: its format, workspace and namespace, no error diagnostics,
 *    `--max-deletes`.
 * 2. Live state is read again (the same list/batch reads as plan). If any object the plan
 *    writes moved since the plan (etag or content fingerprint differs, or an object to create
 *    now exists), apply refuses before its first write with a {@link StalePlanError} naming them.
 * 3. Writes run in waves (parents first, deletes last in reverse), with bounded concurrency and
 *    the plan's etags. A failed change stops its dependents; everything else finishes. The
 *    result says exactly what was applied, what failed and what was not attempted.
 */
import { ApiError, ConflictError, isConnectFailure, PlatformUnreachableError, type PlatformClient } from '../client';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/manifest';
import { Plan, PLAN_FORMAT_VERSION, type Change } from '../../schemas/plan';
import { allows, HANDLERS, SCOPES } from '../kinds/index';
import type { LiveObject, ResourceHandler } from '../kinds/shared/types';
import { isNotFound, WriteConflictError } from '../kinds/shared/support';
import { idOwner } from './identity';
import { fingerprint } from '../kinds/shared/normalise';
import { dependentsOf, executionWaves } from './graph';
import { isWrite, repointedAway } from './planner';
import { selfDisagreements } from './plan-check';
import { readLiveState } from './reconcile';
import { mapLimit } from './concurrency';
import { destructiveEffects, guardRefusals, previewedKinds, type GuardOptions } from './guards';
import { DELETES_DEPENDENTS, ETAGLESS } from '../kinds/descriptors';
import { DqformError, isErrorOf } from '../../schemas/errors';

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
  onProgress?: (line: string) => void;
  handlers?: Record<ResourceType, ResourceHandler>;
  /**
   * A write still running after this long reports `still creating <address> ... [10s elapsed]`
   * through `onProgress`, and again at every further interval. Default 10 s; 0 turns it off.
   */
  progressIntervalMs?: number;
  /** Clock and timers (tests drive them by hand). */
  clock?: ApplyClock;
}

/** What the applier needs of time: a clock and a repeating timer. */
export interface ApplyClock {
  now: () => number;
  setInterval: (fn: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
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

/** The present participle of an action, for progress lines (Terraform's wording). */
const DOING: Record<Change['action'], string> = { create: 'creating', update: 'updating', replace: 'replacing', delete: 'destroying', noop: 'reading', unmanaged: 'reading' };

export interface ApplyResult {
  /** `ms`: how long the write took (a batch: the whole batch's time). */
  applied: { address: string; action: Change['action']; ms?: number }[];
  /** `mayHaveLanded`: the write failed in the end, but an earlier attempt of it may have reached the platform. */
  failed: { address: string; action: Change['action']; error: string; ms?: number; mayHaveLanded?: true }[];
  /** Not attempted because something they depend on failed, or the apply stopped. */
  skipped: { address: string; action: Change['action']; because: string }[];
  /**
   * Why the apply stopped writing before the end: a conflict (another writer is at work) or the
   * platform stopped answering. `skipped` entries with this `because` are the rest of the plan.
   */
  halted?: { kind: 'conflict' | 'unreachable' | 'preview'; reason: string };
}

export { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from './guards';

/**
 * Parses and checks a plan file's contents: its format version, the plan schema, and resource
 * types dqform knows. A plan of another format version is refused by its version first (a newer
 * dqform wrote it, or an older one whose plans this version no longer reads), so the message
 * says what to do instead of listing schema differences.
 */
export function loadPlan(json: unknown): Plan {
  const version = json && typeof json === 'object' && !Array.isArray(json) ? (json as { formatVersion?: unknown }).formatVersion : undefined;
  if (typeof version === 'number' && version !== PLAN_FORMAT_VERSION) {
    throw new PlanRefusedError(
      version > PLAN_FORMAT_VERSION
        ? `this plan was written by a newer dqform (plan format ${version}); this dqform reads format ${PLAN_FORMAT_VERSION}`
        : `this plan was written by an older dqform (plan format ${version}); this dqform reads format ${PLAN_FORMAT_VERSION}`,
      version > PLAN_FORMAT_VERSION ? 'Use the dqform version that made the plan (or a newer one), or plan again with this one.' : 'Plan again with this dqform version and apply that plan.',
    );
  }
  const r = Plan.safeParse(json);
  if (!r.success) {
    throw new PlanRefusedError(
      `not a dqform plan (format ${PLAN_FORMAT_VERSION}): ${r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
    );
  }
  const unknown = r.data.changes.map((c, i) => ({ c, i })).filter(({ c }) => !(RESOURCE_TYPES as readonly string[]).includes(c.type));
  if (unknown.length) {
    throw new PlanRefusedError(
      `not a dqform plan: ${unknown
        .slice(0, 3)
        .map(({ c, i }) => `changes.${i} (${c.address}): unknown resource type ${JSON.stringify(c.type)}`)
        .join('; ')}${unknown.length > 3 ? `; and ${unknown.length - 3} more` : ''} (dqform manages ${RESOURCE_TYPES.join(', ')})`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
      unknown.map(({ c }) => c.address),
    );
  }
  // one change per address: a second copy would be rendered for review but hidden from the
  // comparison with a fresh plan (which keys changes by address)
  const seen = new Map<string, number>();
  const dups: string[] = [];
  r.data.changes.forEach((c, i) => {
    const first = seen.get(c.address);
    if (first === undefined) seen.set(c.address, i);
    else dups.push(`changes.${i} (${c.address}) repeats changes.${first}`);
  });
  if (dups.length) {
    throw new PlanRefusedError(
      `not a dqform plan: ${dups.slice(0, 3).join('; ')}${dups.length > 3 ? `; and ${dups.length - 3} more` : ''} (a plan has one change per address)`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
      [...new Set(r.data.changes.filter((c, i) => seen.get(c.address) !== i).map((c) => c.address))],
    );
  }
  // what show prints (patch, summary) must be what the checked fields say: see plan-check.ts
  const disagree = selfDisagreements(r.data);
  if (disagree.length) {
    throw new PlanRefusedError(
      `not a plan dqform wrote: ${disagree.slice(0, 3).join('; ')}${disagree.length > 3 ? `; and ${disagree.length - 3} more` : ''} (what show prints would not be what apply does)`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
    );
  }
  return r.data;
}

function describe(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

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
 * Deleting an owner deletes its ownerships, including ones the plan does not manage: the plan
 * lists them (its cascade). An ownership added to such an owner after the plan would go
 * unseen, so each owner the plan deletes is listed again (one request per owner) and any
 * ownership the plan did not show makes the plan stale.
 */
async function ownershipsAddedSince(client: PlatformClient, writes: readonly Change[]): Promise<{ address: string; why: string }[]> {
  const owners = writes.filter((c) => DELETES_DEPENDENTS.has(c.type) && (c.action === 'delete' || c.action === 'replace'));
  if (owners.length === 0) return [];
  const out: { address: string; why: string }[] = [];
  await mapLimit(owners, 8, async (c) => {
    const shown = new Set((c.effects?.cascade ?? []).filter((x) => x.effect === 'deleted').map((x) => x.id.toLowerCase()));
    // ownerships the plan re-points to another owner before this delete are not deleted with it
    for (const k of writes) if (repointedAway(k, c, writes)) shown.add(k.id.toLowerCase());
    let now: { id: string }[];
    try {
      now = await client.owners.listOwnerships(c.id);
    } catch (e) {
      if (isNotFound(e)) return;
      throw e;
    }
    const added = now.map((o) => o.id).filter((id) => !shown.has(id.toLowerCase())).sort();
    if (added.length) out.push({ address: c.address, why: `ownership(s) ${added.join(', ')} were added to the owner since the plan; deleting the owner would delete them too` });
  });
  return out.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
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
    const held = plan.changes.filter((c) => c.type === type && c.action !== 'unmanaged').map((c) => c.address);
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

/** Kinds whose objects carry no etag (wire-facts: SQL tests and both kinds of rule): checked per wave and read back. */

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

/** Whether an error is a lost race: an etag refused (ABORTED, ALREADY_EXISTS) or a write that met someone else's. */
export function isConflict(e: unknown): boolean {
  return e instanceof ConflictError || isErrorOf(e, WriteConflictError);
}

/**
 * Reads the objects `changes` act on (batch reads of their ids; soft-deleted ones too when
 * `includeDeleted`) and answers a lookup by change.
 */
async function lookup(
  client: PlatformClient,
  ctx: { workspace: string; namespace: string },
  changes: readonly Change[],
  handlers: Record<ResourceType, ResourceHandler>,
  includeDeleted: boolean,
): Promise<(c: Change) => LiveObject | undefined> {
  const types = [...new Set(changes.map((c) => c.type as ResourceType))].sort();
  const resources = changes.filter((c) => c.action !== 'delete').map((c) => ({ type: c.type as ResourceType, id: c.id, importedId: undefined as string | undefined }));
  const removed = changes.filter((c) => c.action === 'delete').map((c) => ({ type: c.type as ResourceType, id: c.id }));
  const live = await readLiveState(client, { ...ctx, resources: resources as never, removed: removed as never }, handlers, types, { keysOnly: true, includeDeleted });
  return (c) => (live[c.type as ResourceType] ?? []).find((o) => o.key === c.id || o.id === c.id);
}

/**
 * Why the plan must not write or delete `obj`, which it does not own (checked at apply time too,
 * not only by the planner: a plan file can say anything): an object this version cannot model,
 * a test a SQL-test rule made, another namespace's or a UI-made one. An update of a UI-made
 * object of a kind with configId is allowed when the code adopts it with an import block
 * (`importedId`), never of another namespace's;
 * a governance object whose id carries no namespace tag may be updated only when the code adopts
 * it with an import block (issue 23), and is never deleted.
 */
export function notOursWhy(c: Change, obj: LiveObject, h: Pick<ResourceHandler, 'prunable' | 'label'>, workspace: string, namespace: string): string | undefined {
  if (obj.unmanageable?.length) return `this version of dqform cannot model it (${obj.unmanageable.join('; ')})`;
  if (obj.deploymentRuleId) return `SQL-test rule ${obj.deploymentRuleId} made it; only the rule manages it`;
  if (h.prunable) {
    if (obj.configId === namespace || (c.action === 'update' && c.importedId && !obj.configId)) return undefined;
    if (obj.configId) return `it is managed by namespace "${obj.configId}"`;
    return obj.source === 'SOURCE_API' ? 'it was made by another API client (source SOURCE_API, no configId)' : 'it was made in the UI';
  }
  const owner = idOwner(obj.id, workspace, namespace);
  if (owner === 'namespace') return undefined;
  if (owner === 'other') return "its id carries another namespace's tag";
  if (c.action === 'delete' || c.action === 'replace') return 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform never deletes such an object';
  // adopting is explicit (issue 23): the planner asks for an import block, and so does apply
  if (!c.importedId) return 'its id carries no namespace tag (made in the UI, or pinned by hand): dqform writes such an object only through an import block';
  return undefined;
}

/** Why live state (`obj`: undefined when absent) is not what the plan read. */
function staleWhy(c: Change, obj: LiveObject | undefined, h: Pick<ResourceHandler, 'label' | 'fromLive'>): string | undefined {
  if (c.action === 'create') return obj ? `a ${h.label} ${JSON.stringify(c.id)} was created since the plan` : undefined;
  if (!obj) return c.action === 'delete' ? undefined : `the ${h.label} was deleted since the plan`;
  if (c.etag && obj.etag && c.etag !== obj.etag) return `etag ${obj.etag} differs from ${c.etag} read at plan time`;
  if (c.liveHash && fingerprint(h.fromLive(obj.raw)) !== c.liveHash) return 'its live content changed since the plan';
  return undefined;
}

/** Why an object does not read back as what the change wrote (undefined: it does). */
function readBackWhy(c: Change, obj: LiveObject | undefined, h: Pick<ResourceHandler, 'label' | 'fromLive' | 'prunable'>, namespace: string): string | undefined {
  if (!obj || obj.deleted) return `the ${h.label} is gone (deleted by someone else)`;
  if (h.prunable && obj.configId !== namespace) return `the ${h.label} is now managed by ${obj.configId ? `namespace "${obj.configId}"` : 'the UI'}`;
  if (fingerprint(h.fromLive(obj.raw)) !== fingerprint(c.after)) return `the ${h.label} holds something other than what this apply wrote (someone else wrote it at the same time)`;
  return undefined;
}

/** Applies `plan`. Throws {@link PlanRefusedError} (nothing written) or returns what happened. */
export async function apply(client: PlatformClient, plan: Plan, opts: ApplyOptions = {}): Promise<ApplyResult> {
  const handlers = opts.handlers ?? HANDLERS;
  const progress = opts.onProgress ?? (() => undefined);
  const clock = opts.clock ?? SYSTEM_CLOCK;
  const every = opts.progressIntervalMs ?? 10_000;
  /** Runs one write (or batch) and returns its duration; reports it while it runs longer than `every`. */
  const timed = async (what: string, write: () => Promise<void>): Promise<number> => {
    const started = clock.now();
    const timer = every > 0 ? clock.setInterval(() => progress(`still ${what} ... [${Math.round((clock.now() - started) / 1000)}s elapsed]`), every) : undefined;
    try {
      await write();
    } finally {
      if (timer !== undefined) clock.clearInterval(timer);
    }
    return clock.now() - started;
  };
  preflight(plan, opts, handlers);
  const iam = await client.iam.get();
  const workspace = iam.workspace;
  if (workspace !== plan.workspace) {
    throw new PlanRefusedError(`the plan was made for workspace "${plan.workspace}", but these credentials act in "${workspace}"`, 'Use the credentials of the plan\'s workspace, or plan again.');
  }
  const writes = plan.changes.filter(isWrite);
  const result: ApplyResult = { applied: [], failed: [], skipped: [] };
  if (writes.length === 0) return result;

  // 1b. scopes: refuse before any write when the credential cannot make them all (any-of sets
  // per operation; scope names dqform does not know are ignored)
  const granted = new Set(iam.scopes);
  const missing = missingScopes(writes, granted);
  if (missing.size) {
    const lines = [...missing.entries()].map(([sc, addrs]) => `  one of ${sc}: needed by ${addrs.slice(0, 5).join(', ')}${addrs.length > 5 ? `, and ${addrs.length - 5} more` : ''}`);
    throw new PlanRefusedError(
      `these credentials lack the scope(s) the plan's writes need; nothing was written:\n${lines.join('\n')}`,
      'Apply with a credential that has one scope of each set above (plan and drift need read scopes only), or apply the other changes from a plan without these objects.',
      [...missing.values()].flat(),
    );
  }
  checkReadScopes({ changes: writes }, iam.scopes, handlers);

  // 2. stale check and ownership: re-read what the plan writes (soft-deleted objects too)
  progress('checking that live state has not moved since the plan');
  const ctx = { workspace, namespace: plan.namespace };
  const found = await lookup(client, ctx, writes, handlers, true);
  const stale: { address: string; why: string }[] = [];
  const notOurs: { address: string; why: string }[] = [];
  /** Etags of soft-deleted objects at ids the plan creates: the create's compare-and-swap guard. */
  const tombstones = new Map<string, string>();
  for (const c of writes) {
    const h = handlers[c.type as ResourceType];
    const f = found(c);
    const obj = f && !f.deleted ? f : undefined;
    if (c.action === 'create' && f?.deleted && f.etag) tombstones.set(c.address, f.etag);
    const theirs = obj && c.action !== 'create' ? notOursWhy(c, obj, h, workspace, plan.namespace) : undefined;
    if (theirs) notOurs.push({ address: c.address, why: theirs });
    else {
      const why = staleWhy(c, obj, h);
      if (why) stale.push({ address: c.address, why });
    }
  }
  if (notOurs.length) throw new NotOursError(plan.namespace, notOurs);
  stale.push(...(await ownershipsAddedSince(client, writes)));
  if (stale.length) throw new StalePlanError(stale);

  // 3. execute, wave by wave; the first conflict stops the writing
  const blocked = new Map<string, string>();
  const concurrency = opts.concurrency ?? 8;
  let halt: string | undefined;
  const fail = (c: Change, e: unknown, ms?: number) => {
    result.failed.push({ address: c.address, action: c.action, error: describe(e), ...(ms !== undefined ? { ms } : {}), ...(e instanceof ApiError && e.mayHaveLanded ? { mayHaveLanded: true as const } : {}) });
    for (const d of dependentsOf(c.address, plan.changes)) if (!blocked.has(d)) blocked.set(d, `${c.address} failed`);
    if (halt) return;
    // a write that failed to connect (after the client's retries, or a create that is never
    // retried): writing on would only fail the same way
    if (e instanceof PlatformUnreachableError || isConnectFailure(e)) unreachable(e as ApiError);
    else if (isConflict(e)) {
      halt = `${c.address} met a conflicting write (another apply, or someone in the UI, is changing these objects): nothing more was written`;
      result.halted = { kind: 'conflict', reason: halt };
    }
  };
  /** The platform is gone: stop writing. */
  function unreachable(e: ApiError): void {
    if (halt) return;
    const cause = (e as { cause?: { code?: unknown; message?: unknown } }).cause;
    const why = e instanceof PlatformUnreachableError ? e.message : `the platform is not answering: a write could not connect (${String(cause?.code ?? 'no connection')}${typeof cause?.message === 'string' ? `: ${cause.message}` : ''})`;
    halt = `${why}: nothing more was written`;
    result.halted = { kind: 'unreachable', reason: halt };
  }
  /** Moves an applied change to failed: what it wrote does not read back. */
  const unapply = (c: Change, why: string) => {
    const i = result.applied.findIndex((x) => x.address === c.address);
    const ms = i >= 0 ? result.applied[i].ms : undefined;
    if (i >= 0) result.applied.splice(i, 1);
    fail(c, new WriteConflictError(c.address, why), ms);
  };
  for (const wave of executionWaves(plan.changes)) {
    const runnable = wave.filter((c) => {
      const because = blocked.get(c.address) ?? halt;
      if (because) result.skipped.push({ address: c.address, action: c.action, because });
      return !because;
    });
    // kinds without etags: checked again right before the wave writes them (the race window is
    // this wave, not the whole apply), and read back after
    if (runnable.length === 0) continue;
    const unguarded = runnable.filter((c) => ETAGLESS.has(c.type));
    const ready = new Set(runnable.map((c) => c.address));
    if (unguarded.length) {
      let now: (c: Change) => LiveObject | undefined;
      try {
        now = await lookup(client, ctx, unguarded, handlers, false);
      } catch (e) {
        // could not check them: not written (the platform gone stops the apply here)
        for (const c of unguarded) ready.delete(c.address);
        if (e instanceof PlatformUnreachableError) {
          unreachable(e);
          for (const c of unguarded) result.skipped.push({ address: c.address, action: c.action, because: halt! });
        } else for (const c of unguarded) fail(c, e);
        now = () => undefined;
      }
      for (const c of unguarded.filter((x) => ready.has(x.address))) {
        const obj = now(c);
        const h = handlers[c.type as ResourceType];
        const why = (obj && c.action !== 'create' ? notOursWhy(c, obj, h, workspace, plan.namespace) : undefined) ?? staleWhy(c, obj, h);
        if (why) {
          ready.delete(c.address);
          fail(c, new WriteConflictError(c.address, `${why} (checked right before writing it); not written`));
        }
      }
    }
    await previewKnownAfterApply(runnable.filter((c) => ready.has(c.address)), ready);
    const todo = runnable.filter((c) => ready.has(c.address));
    await writeWave(todo);
    const appliedNow = new Set(result.applied.map((x) => x.address));
    const written = unguarded.filter((c) => c.action !== 'delete' && appliedNow.has(c.address));
    if (written.length && result.halted?.kind !== 'unreachable') await verify(written, '');
  }

  // 4. what this apply wrote must still be there at its end: a write that another writer replaced
  // in the meantime is a conflict, not "done"
  const appliedAll = new Set(result.applied.map((x) => x.address));
  const kept = writes.filter((c) => c.action !== 'delete' && appliedAll.has(c.address));
  if (kept.length && result.halted?.kind !== 'unreachable') {
    progress(`reading back the ${kept.length} object(s) written`);
    await verify(kept, ' after this apply wrote it');
  }

  /**
   * Reads `changes` back and moves those that do not hold what was written to failed. When the
   * read itself fails, they stay applied (the platform acknowledged them); a platform that is
   * gone stops the apply.
   */
  async function verify(changes: Change[], when: string): Promise<void> {
    let back: (c: Change) => LiveObject | undefined;
    try {
      back = await lookup(client, ctx, changes, handlers, false);
    } catch (e) {
      if (e instanceof PlatformUnreachableError) unreachable(e);
      return;
    }
    for (const c of changes) {
      const why = readBackWhy(c, back(c), handlers[c.type as ResourceType], plan.namespace);
      if (why) unapply(c, `${why}${when}`);
    }
  }

  /**
   * Changes whose effects were known only after apply (they depend on objects this plan
   * creates, which earlier waves wrote): asks the platform for their preview now, and stops the
   * apply before a change whose preview deletes, resets or takes over anything (a create may only
   * create), or whose preview fails (unless --allow-unpreviewed).
   */
  async function previewKnownAfterApply(candidates: Change[], ready: Set<string>): Promise<void> {
    for (const c of candidates) {
      const h = handlers[c.type as ResourceType];
      if (halt || c.effects?.afterApply === undefined || !h.preview) continue;
      progress(`asking the platform what ${c.address} does, now that what it depends on exists`);
      let why: string | undefined;
      try {
        const e = await h.preview(client, c, ctx);
        if (!e || e.error !== undefined) {
          if (!opts.allowUnpreviewed) why = `its preview failed (${e?.error ?? 'no preview'}); re-run with --allow-unpreviewed to write it without knowing its effects`;
        } else {
          const bad = destructiveEffects(e);
          if (bad) why = `its preview ${bad}`;
          else progress(`${c.address}: the platform previews ${e.monitorsToCreate.length + e.testsToCreate.length ? `${[e.monitorsToCreate.length ? `${e.monitorsToCreate.length} monitor(s)` : '', e.testsToCreate.length ? `${e.testsToCreate.length} SQL test(s)` : ''].filter(Boolean).join(' and ')} to create` : 'nothing created, changed or deleted'}`);
        }
      } catch (e) {
        if (e instanceof PlatformUnreachableError) {
          unreachable(e);
          return;
        }
        if (!opts.allowUnpreviewed) why = `its preview failed (${describe(e)}); re-run with --allow-unpreviewed to write it without knowing its effects`;
      }
      if (!why) continue;
      ready.delete(c.address);
      fail(c, new Error(`not written: its effects were known only after apply (${c.effects.afterApply}), and now ${why}`));
      halt = `apply stopped before ${c.address}, whose effects known only after apply need a new review: nothing more was written`;
      result.halted = { kind: 'preview', reason: halt };
    }
  }

  /** Writes one wave: batches where the kind has them, the rest one by one (bounded concurrency). */
  async function writeWave(runnable: Change[]): Promise<void> {
    const byType = new Map<string, Change[]>();
    for (const c of runnable) {
      const h = handlers[c.type as ResourceType];
      const batchScopes = SCOPES[c.type as ResourceType]?.batch;
      if (h.writeMany && (c.action === 'create' || c.action === 'update') && (!batchScopes || allows(granted, batchScopes))) {
        if (!byType.has(c.type)) byType.set(c.type, []);
        byType.get(c.type)!.push(c);
      }
    }
    const batched = new Set([...byType.values()].flat().map((c) => c.address));
    for (const [type, cs] of [...byType.entries()].sort()) {
      if (halt) {
        for (const c of cs) result.skipped.push({ address: c.address, action: c.action, because: halt });
        continue;
      }
      const label = `${cs.length} ${handlers[type as ResourceType].label}(s)`;
      progress(`writing ${label} in batches`);
      let errs: Map<string, unknown> | undefined;
      let thrown: unknown;
      const ms = await timed(`writing ${label}`, async () => {
        try {
          errs = await handlers[type as ResourceType].writeMany!(client, cs, ctx);
        } catch (e) {
          thrown = e;
        }
      });
      for (const c of cs) {
        const e = thrown ?? errs?.get(c.address);
        if (e) fail(c, e, ms);
        else result.applied.push({ address: c.address, action: c.action, ms });
      }
    }
    await mapLimit(
      runnable.filter((c) => !batched.has(c.address)),
      concurrency,
      async (c) => {
        if (halt) {
          result.skipped.push({ address: c.address, action: c.action, because: halt });
          return;
        }
        const h = handlers[c.type as ResourceType];
        progress(`${c.action} ${c.address}`);
        const started = clock.now();
        try {
          const ms = await timed(`${DOING[c.action]} ${c.address}`, async () => {
            if (c.action === 'create') await confirmed(h, c, ctx, () => h.create(client, { ...c, etag: tombstones.get(c.address) }, ctx));
            else if (c.action === 'update') await confirmed(h, c, ctx, () => h.update(client, c, ctx));
            else if (c.action === 'delete') await confirmed(h, c, ctx, () => h.delete(client, c, ctx));
            else if (c.action === 'replace') {
              await confirmed(h, { ...c, action: 'delete' }, ctx, () => h.delete(client, c, ctx));
              try {
                // kinds whose deletes are soft keep the id's version: the create continues from
                // the deleted object's etag (as a create at a deleted id does), not from none
                await h.create(client, { ...c, etag: await tombstoneEtag(c) }, ctx);
              } catch (e) {
                if (isConflict(e)) throw e;
                throw new Error(`the old ${h.label} was destroyed, but creating its replacement failed (${describe(e)}); run plan and apply again to create it`);
              }
            }
          });
          result.applied.push({ address: c.address, action: c.action, ms });
        } catch (e) {
          fail(c, e, clock.now() - started);
        }
      },
    );
  }

  /** The etag of the soft-deleted object at `c`'s id (undefined when there is none: a hard delete). */
  async function tombstoneEtag(c: Change): Promise<string | undefined> {
    const f = (await lookup(client, ctx, [{ ...c, action: 'create' }], handlers, true))(c);
    return f?.deleted ? f.etag : undefined;
  }

  /**
   * A retried etag-guarded write whose first attempt succeeded comes back ABORTED (upstream
   * facts): on a conflict, read the object again and count the write as done when live already
   * holds what the plan wanted.
   */
  async function confirmed(h: ResourceHandler, c: Change, ctx: { workspace: string; namespace: string }, write: () => Promise<void>): Promise<void> {
    try {
      await write();
    } catch (e) {
      if (!(e instanceof ConflictError)) throw e;
      const objs = await h.read(client, { ...ctx, keys: [c.id], keysOnly: true });
      const obj = objs.find((o) => o.key === c.id || o.id === c.id);
      if (c.action === 'delete' && !obj) return;
      if ((c.action === 'update' || c.action === 'create') && obj && !readBackWhy(c, obj, h, ctx.namespace)) return;
      throw e;
    }
  }

  const order = (a: { address: string }, b: { address: string }) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0);
  result.applied.sort(order);
  result.failed.sort(order);
  result.skipped.sort(order);
  return result;
}
