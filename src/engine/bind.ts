/**
 * Apply binds to the reviewed plan: before the first write, apply plans again from the same
 * desired state and the live state and refuses, naming what differs, unless the fresh plan
 * does what the saved one says. This covers a stale plan (live state moved), a plan file edited
 * by hand (a value in `after`, an action, a delete added) and changed code (the manifest the
 * plan was made from is not the one on disk).
 *
 * What must be equal, per change that writes (create, update, replace, delete) in either plan:
 * the action, type, id (fqn, imported id, moved-from), the live object read (`before`, etag,
 * content hash), the desired object (`after`), the dependencies, and what the change deletes
 * downstream (monitors, SQL tests, their history, baseline resets, cascaded objects). What a
 * change creates downstream (monitors to create, active monitors, settings changes, skipped
 * assets, tests to create or keep) may differ: the catalog moves on its own between review and
 * merge, and more monitors is not a deletion; such differences are reported as notes.
 */
import * as jsonpatch from 'fast-json-patch';
import type { PlatformClient } from '../client';
import type { Manifest } from '../../schemas/model/manifest';
import type { Change, Effects, Plan } from '../../schemas/model/plan';
import { apply, checkReadScopes, PlanRefusedError, preflight, type ApplyOptions, type ApplyResult } from './applier';
import { stableStringify } from './keys';
import { isWrite } from './planner';
import { plan, type DesiredState } from './reconcile';
import type { SiblingStack } from './resolve';
import { previewedKinds } from './guards';

const PREVIEWED = previewedKinds();

/** One way the saved plan and a plan made now differ. */
export interface PlanDifference {
  /** The change's address, or `(plan)` for the plan as a whole. */
  address: string;
  /** What differs, for a user. */
  why: string;
  /** The kind of difference: the code, live state, or the plan file itself. */
  cause: 'code' | 'live' | 'plan';
}

/** The result of {@link comparePlans}. */
export interface PlanComparison {
  /** Differences that make apply refuse. */
  differences: PlanDifference[];
  /** Differences in what changes create downstream (allowed; shown as notes). */
  notes: PlanDifference[];
}

const same = (a: unknown, b: unknown) => stableStringify(a ?? null) === stableStringify(b ?? null);

/** The JSON pointers at which two values differ (at most `max`, then `...`). */
function differingFields(a: unknown, b: unknown, max = 5): string {
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return '';
  const ops = jsonpatch.compare(a as object, b as object);
  const paths = [...new Set(ops.map((o) => o.path.replace(/^\//, '').replace(/\//g, '.')))];
  if (paths.length === 0) return '';
  return `${paths.slice(0, max).join(', ')}${paths.length > max ? `, and ${paths.length - max} more` : ''}`;
}

/** What a change's effects delete downstream, comparable. */
function destructive(e: Effects | undefined): Record<string, unknown> | undefined {
  if (!e || e.error !== undefined) return undefined;
  return {
    monitorsToDelete: [...e.monitorsToDelete].sort(),
    testsToDelete: [...e.testsToDelete].sort(),
    losesHistory: e.losesHistory,
    baselineResets: e.baselineResets.map((b) => b.assetPath).sort(),
    cascade: e.cascade.filter((c) => c.effect === 'deleted').map((c) => `${c.type}:${c.id}`).sort(),
  };
}

/** What a change's effects create or keep downstream, comparable. */
function constructive(e: Effects | undefined): Record<string, unknown> | undefined {
  if (!e || e.error !== undefined) return undefined;
  return { monitorsToCreate: e.monitorsToCreate, activeMonitors: e.activeMonitors, settingsChanges: e.settingsChanges, skipped: e.skipped, testsToCreate: e.testsToCreate, testsToUpdate: e.testsToUpdate, testsToKeep: e.testsToKeep };
}

const VERB: Record<Change['action'], string> = { create: 'create it', update: 'update it', replace: 'replace it', delete: 'delete it', noop: 'leave it unchanged', unmanaged: 'leave it alone (not managed here)', forget: 'stop managing it (the object stays)' };

/** Whether the live object read differs between the two plans (etag, or content). */
function liveMoved(s: Change, f: Change): boolean {
  return (s.etag ?? null) !== (f.etag ?? null) || !same(s.before, f.before);
}

function actionWhy(s: Change, f: Change): string {
  const moved = liveMoved(s, f) ? (s.before == null ? ' (it was created since the plan)' : f.before == null ? ' (it was deleted since the plan)' : ' (it changed since the plan)') : '';
  return `the saved plan would ${VERB[s.action]}, a plan made now would ${VERB[f.action]}${moved}`;
}

/** The differences of one address present in both plans, both writing. */
function changeDifferences(s: Change, f: Change, out: PlanComparison, allowUnpreviewed: boolean): void {
  const d = (why: string, cause: PlanDifference['cause']): void => void out.differences.push({ address: s.address, why, cause });
  if (s.action !== f.action) return d(actionWhy(s, f), liveMoved(s, f) ? 'live' : 'plan');
  if (s.type !== f.type || s.id !== f.id || (s.fqn ?? null) !== (f.fqn ?? null)) return d(`the saved plan acts on ${s.type} ${JSON.stringify(s.fqn ?? s.id)}, a plan made now on ${f.type} ${JSON.stringify(f.fqn ?? f.id)}`, 'plan');
  if ((s.importedId ?? null) !== (f.importedId ?? null) || (s.movedFrom ?? null) !== (f.movedFrom ?? null)) d('its import or move differs from what the code says', 'plan');
  if ((s.etag ?? null) !== (f.etag ?? null)) d(`it changed since the plan (etag ${s.etag ?? 'none'} then, ${f.etag ?? 'none'} now)`, 'live');
  else if (!same(s.before, f.before) || (s.liveHash ?? null) !== (f.liveHash ?? null)) {
    const fields = differingFields(s.before, f.before);
    d(`it changed since the plan${fields ? ` (${fields})` : ''}`, 'live');
  }
  if (!same(s.after, f.after)) {
    const fields = differingFields(s.after, f.after);
    d(`the saved plan would write something other than what the code says${fields ? ` (${fields})` : ''}`, 'plan');
  }
  if (!same([...s.dependsOn].sort(), [...f.dependsOn].sort())) d('its dependencies differ from what the code says', 'plan');
  effectDifferences(s, f, out, allowUnpreviewed);
}

/** Deletions downstream must be what was reviewed; creations may have moved on. */
function effectDifferences(s: Change, f: Change, out: PlanComparison, allowUnpreviewed: boolean): void {
  // previewed kinds (rules): no effects means "not previewed"; other kinds: no effects means none
  const previewed = PREVIEWED.has(s.type);
  const unknownNow = f.effects ? f.effects.error !== undefined : previewed;
  const unknownThen = s.effects ? s.effects.error !== undefined : previewed;
  if (unknownNow || unknownThen) {
    // nothing to compare: the guard on unpreviewed changes (or --allow-unpreviewed) decides
    if (unknownNow && !unknownThen && !allowUnpreviewed) out.differences.push({ address: s.address, why: `its effects were previewed for the review but cannot be previewed now (${f.effects?.error ?? 'no preview'})`, cause: 'live' });
    return;
  }
  const empty = { source: 'cascade', monitorsToCreate: [], monitorsToDelete: [], activeMonitors: 0, settingsChanges: [], baselineResets: [], skipped: [], testsToCreate: [], testsToUpdate: [], testsToDelete: [], testsToKeep: [], losesHistory: false, cascade: [] } as Effects;
  if (!same(destructive(s.effects ?? empty), destructive(f.effects ?? empty))) {
    const a = destructive(s.effects ?? empty)!;
    const b = destructive(f.effects ?? empty)!;
    const parts = Object.keys(a)
      .filter((k) => !same(a[k], b[k]))
      .map((k) => {
        if (!Array.isArray(a[k])) return `${k}: ${String(a[k])} -> ${String(b[k])}`;
        const then = new Set(a[k] as string[]);
        const now = new Set(b[k] as string[]);
        const added = [...now].filter((x) => !then.has(x));
        const gone = [...then].filter((x) => !now.has(x));
        const list = (xs: string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? `, and ${xs.length - 5} more` : ''}`;
        return `${k}:${added.length ? ` now also ${list(added)}` : ''}${gone.length ? `${added.length ? ';' : ''} no longer ${list(gone)}` : ''}`;
      });
    out.differences.push({ address: s.address, why: `what it deletes downstream changed since the plan (${parts.join('; ')})`, cause: 'live' });
  } else if (!same(constructive(s.effects ?? empty), constructive(f.effects ?? empty))) {
    out.notes.push({ address: s.address, why: `what it creates downstream changed since the plan (${s.effects?.monitorsToCreate.length ?? 0} -> ${f.effects?.monitorsToCreate.length ?? 0} monitor(s) to create, ${s.effects?.testsToCreate.length ?? 0} -> ${f.effects?.testsToCreate.length ?? 0} test(s) to create)`, cause: 'live' });
  }
}

/**
 * Compares a saved plan with a plan made now from the same desired state (see the module
 * comment). Pure. `allowUnpreviewed`: a change whose effects cannot be previewed now is not a
 * difference (the unpreviewed guard has been waived).
 */
export function comparePlans(saved: Plan, fresh: Plan, opts: { allowUnpreviewed?: boolean } = {}): PlanComparison {
  const out: PlanComparison = { differences: [], notes: [] };
  const whole = (why: string, cause: PlanDifference['cause']) => out.differences.push({ address: '(plan)', why, cause });
  if (saved.workspace !== fresh.workspace) whole(`it was made for workspace "${saved.workspace}", these credentials act in "${fresh.workspace}"`, 'plan');
  if (saved.namespace !== fresh.namespace) whole(`it was made for namespace "${saved.namespace}", the code now declares "${fresh.namespace}"`, 'code');
  if (saved.stack !== fresh.stack) whole(`it was made for stack "${saved.stack}", not "${fresh.stack}"`, 'code');
  if (saved.manifestHash !== fresh.manifestHash) whole('the code changed since the plan: the desired state is not the one the plan was made from', 'code');
  const savedBy = new Map(saved.changes.map((c) => [c.address, c]));
  const freshBy = new Map(fresh.changes.map((c) => [c.address, c]));
  const addresses = [...new Set([...savedBy.keys(), ...freshBy.keys()])].sort();
  for (const a of addresses) {
    const s = savedBy.get(a);
    const f = freshBy.get(a);
    const sw = !!s && isWrite(s);
    const fw = !!f && isWrite(f);
    if (!sw && !fw) continue;
    if (!s || !f) {
      const d = { address: a, why: s ? `the saved plan would ${VERB[s.action]}, a plan made now does not have it` : `a plan made now would ${VERB[f!.action]}, the saved plan does not have it`, cause: 'plan' as const };
      out.differences.push(d);
      continue;
    }
    if (!sw || !fw) {
      out.differences.push({ address: a, why: actionWhy(s, f), cause: liveMoved(s, f) ? 'live' : 'plan' });
      continue;
    }
    changeDifferences(s, f, out, !!opts.allowUnpreviewed);
  }
  return out;
}

/** The saved plan does not match a plan made now: nothing was written. */
export class PlanMismatchError extends PlanRefusedError {
  static override readonly code: string = 'plan-refused.mismatch';
  constructor(readonly differences: PlanDifference[]) {
    const causes = new Set(differences.map((d) => d.cause));
    const headline = causes.has('code')
      ? 'the code changed since the plan'
      : !causes.has('plan')
        ? 'stale plan: live state changed since the plan was made'
        : 'the saved plan is not what dqform would do now (the plan file was edited, or live state changed since it was made)';
    const shown = differences.slice(0, 20).map((d) => `  ${d.address}: ${d.why}`);
    if (differences.length > 20) shown.push(`  ... and ${differences.length - 20} more`);
    super(
      `${headline}; apply refuses it and wrote nothing:\n${shown.join('\n')}`,
      causes.has('code')
        ? 'Plan again from the current code, review it, and apply that plan (in CI: re-run the plan for this commit).'
        : 'Plan again (dqform plan --out FILE), review it, and apply the new plan; never edit a plan file by hand.',
      [...new Set(differences.map((d) => d.address).filter((a) => a !== '(plan)'))],
    );
    this.name = 'PlanMismatchError';
  }
}

/** Options of {@link applyReviewed}: apply's, plus what planning needs. */
export interface ApplyReviewedOptions extends ApplyOptions {
  /** The other stacks of the app (as plan had them; a {@link DesiredState} has its own). */
  siblings?: readonly SiblingStack[];
  /** Differences that do not refuse (what changes create downstream moved on), one line each. */
  onNote?: (line: string) => void;
}

/**
 * Applies a saved plan only if it is what a plan made now from `manifest` (the desired state
 * the plan was made from, read from the same place) and live state would do; otherwise throws
 * {@link PlanMismatchError} naming the differences, before any write. The plan executed is the
 * fresh one (equal to the saved one in everything apply writes).
 */
export async function applyReviewed(client: PlatformClient, saved: Plan, manifest: Manifest | DesiredState, opts: ApplyReviewedOptions = {}): Promise<ApplyResult> {
  const progress = opts.onProgress ?? (() => undefined);
  // what needs no network first: a plan with errors, or one the guards refuse, is refused as it is
  preflight(saved, opts);
  const iam = await client.iam.get();
  if (iam.workspace !== saved.workspace) {
    throw new PlanRefusedError(`the plan was made for workspace "${saved.workspace}", but these credentials act in "${iam.workspace}"`, "Use the credentials of the plan's workspace, or plan again.");
  }
  // a kind these credentials cannot read would look deleted to the plan made now: name the scope
  checkReadScopes(saved, iam.scopes, opts.handlers);
  progress('planning again from the same desired state and live state, to check that the saved plan is still what would be done');
  // with the saved plan's own options: a targeted, destroy or replace plan is compared with a
  // plan made the same way, not with the whole plan
  const fresh = await plan(client, manifest, { onProgress: progress, siblings: opts.siblings, handlers: opts.handlers, request: saved.options });
  const cmp = comparePlans(saved, fresh, { allowUnpreviewed: opts.allowUnpreviewed });
  if (cmp.differences.length) throw new PlanMismatchError(cmp.differences);
  for (const n of cmp.notes) opts.onNote?.(`${n.address}: ${n.why}`);
  return apply(client, fresh, opts);
}
