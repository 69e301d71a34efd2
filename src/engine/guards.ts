/**
 * Apply's guards against plans that destroy more than a reviewer may have noticed. Pure
 * functions of the plan: the plan summary shows the same counts the guards check.
 *
 * - `--max-deletes N` (default {@link DEFAULT_MAX_DELETES}): objects the plan destroys, a
 *   replace counting as one (it destroys the old object). Objects deleted by cascade (an owner's
 *   ownerships) are not counted here: the platform deletes them, not dqform, and they count
 *   toward the next guard.
 * - `--max-effect-deletes N` (default {@link DEFAULT_MAX_EFFECT_DELETES}): what the platform
 *   deletes as a consequence of the plan: monitors and SQL tests that rule changes delete (a
 *   narrowed or deleted rule, from the platform's previews) and objects deleted with an object
 *   the plan deletes (an owner's ownerships, including ones made in the UI) that the plan does
 *   not delete itself.
 * - unpreviewed changes: a change of a kind the platform previews (both kinds of deployment
 *   rule) whose preview failed or was not made ("effects unknown") cannot be checked against the
 *   second guard, so apply refuses it unless `--allow-unpreviewed`. A change whose effects are
 *   "known after apply" (it depends on an object the same plan creates) is not unpreviewed: apply
 *   previews it once the dependency exists and stops before it when the preview is destructive
 *   ({@link destructiveEffects}).
 */
import type { ResourceType } from '../../schemas/model/manifest';
import type { Change, Effects, Plan } from '../../schemas/model/plan';
import { HANDLERS } from '../kinds/index';
import type { ResourceHandler } from '../kinds/shared/types';
import { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from './limits';

export { DEFAULT_MAX_DELETES, DEFAULT_MAX_EFFECT_DELETES } from './limits';

/** Changes that destroy an object: deletes and replaces. */
export function destroyingChanges(plan: Pick<Plan, 'changes'>): Change[] {
  return plan.changes.filter((c) => c.action === 'delete' || c.action === 'replace');
}

/** What the platform deletes along with a plan ({@link effectDeleteCounts}). */
export interface EffectDeletes {
  /** Monitors deleted by rule changes (previews). */
  monitors: number;
  /** SQL tests deleted by SQL-test rule changes (previews). */
  tests: number;
  /** Objects deleted with an object the plan deletes, not deleted by the plan itself, by type. */
  cascaded: Partial<Record<ResourceType, number>>;
  /** The sum of the above: what `--max-effect-deletes` counts. */
  total: number;
  /** The changes that cause them, with their share (for the refusal message). */
  by: { address: string; count: number }[];
}

/** Counts what the platform deletes along with the plan's writes (see the module comment). */
export function effectDeleteCounts(plan: Pick<Plan, 'changes'>): EffectDeletes {
  const out: EffectDeletes = { monitors: 0, tests: 0, cascaded: {}, total: 0, by: [] };
  for (const c of plan.changes) {
    if (c.action === 'noop' || c.action === 'unmanaged' || c.action === 'forget' || !c.effects) continue;
    const e = c.effects;
    const cascaded = e.cascade.filter((x) => x.effect === 'deleted' && !x.alsoDeleted);
    for (const x of cascaded) out.cascaded[x.type as ResourceType] = (out.cascaded[x.type as ResourceType] ?? 0) + 1;
    const count = e.monitorsToDelete.length + e.testsToDelete.length + cascaded.length;
    out.monitors += e.monitorsToDelete.length;
    out.tests += e.testsToDelete.length;
    out.total += count;
    if (count > 0) out.by.push({ address: c.address, count });
  }
  return out;
}

/** The kinds whose changes the platform previews (handlers with `preview`). */
export function previewedKinds(handlers: Record<ResourceType, Pick<ResourceHandler, 'preview'>> = HANDLERS): Set<string> {
  return new Set(Object.entries(handlers).filter(([, h]) => typeof h.preview === 'function').map(([t]) => t));
}

/** Writes of a previewed kind whose effects are unknown: the preview failed, or the plan carries none. */
export function unpreviewedChanges(plan: Pick<Plan, 'changes'>, kinds: ReadonlySet<string> = previewedKinds()): { address: string; why: string }[] {
  const out: { address: string; why: string }[] = [];
  for (const c of plan.changes) {
    if (!kinds.has(c.type) || !(c.action === 'create' || c.action === 'update' || c.action === 'replace' || c.action === 'delete')) continue;
    if (!c.effects) out.push({ address: c.address, why: 'the plan carries no preview of it' });
    else if (c.effects.afterApply !== undefined) continue;
    else if (c.effects.error !== undefined) out.push({ address: c.address, why: c.effects.error });
  }
  return out;
}

/**
 * What a preview shows beyond creating (a create of a rule may only create): monitors or SQL
 * tests it deletes, baselines it resets, monitors whose settings it takes over, existing tests it
 * updates. Undefined when it only creates. Used by apply for changes whose effects were known
 * only after apply.
 */
export function destructiveEffects(e: Effects): string | undefined {
  const list = (xs: readonly string[]) => `${xs.slice(0, 5).join(', ')}${xs.length > 5 ? `, and ${xs.length - 5} more` : ''}`;
  const parts: string[] = [];
  if (e.monitorsToDelete.length) parts.push(`deletes ${e.monitorsToDelete.length} monitor(s) (${list(e.monitorsToDelete)})`);
  if (e.testsToDelete.length) parts.push(`deletes ${e.testsToDelete.length} SQL test(s) (${list(e.testsToDelete)})`);
  if (e.baselineResets.length) parts.push(`resets the baseline of ${e.baselineResets.length} monitor(s) (${list(e.baselineResets.map((b) => b.assetPath))})`);
  if (e.settingsChanges.length) parts.push(`takes over the settings of ${e.settingsChanges.length} existing monitor(s) (${list(e.settingsChanges.map((c) => c.assetPath))})`);
  if (e.testsToUpdate.length) parts.push(`takes over ${e.testsToUpdate.length} existing SQL test(s) (${list(e.testsToUpdate)})`);
  if (e.losesHistory) parts.push('deletes the history of the tests it deployed');
  return parts.length ? parts.join('; ') : undefined;
}

export interface GuardOptions {
  /** Refuse plans destroying more than this many objects (deletes + replaces). Default 10. */
  maxDeletes?: number;
  /** Refuse plans whose changes make the platform delete more than this many monitors, tests and cascaded objects. Default 100. */
  maxEffectDeletes?: number;
  /** Apply changes whose effects are unknown (preview failed or missing). Default false. */
  allowUnpreviewed?: boolean;
}

/** Why the guards refuse the plan (each with the addresses involved and what to do), or [] when they pass. */
export function guardRefusals(plan: Pick<Plan, 'changes'>, opts: GuardOptions = {}, kinds: ReadonlySet<string> = previewedKinds()): { message: string; hint: string; addresses: string[] }[] {
  const out: { message: string; hint: string; addresses: string[] }[] = [];
  const destroys = destroyingChanges(plan);
  const maxDeletes = opts.maxDeletes ?? DEFAULT_MAX_DELETES;
  if (destroys.length > maxDeletes) {
    const replaces = destroys.filter((c) => c.action === 'replace').length;
    out.push({
      message: `the plan destroys ${destroys.length} object(s)${replaces ? ` (${replaces} of them replaced: destroyed, then created anew)` : ''}, more than --max-deletes ${maxDeletes}`,
      hint: `Review the deletions, then re-run with --max-deletes ${destroys.length} if they are intended.`,
      addresses: destroys.map((c) => c.address),
    });
  }
  const effects = effectDeleteCounts(plan);
  const maxEffects = opts.maxEffectDeletes ?? DEFAULT_MAX_EFFECT_DELETES;
  if (effects.total > maxEffects) {
    out.push({
      message: `the plan makes the platform delete ${effectDeletesText(effects)}, more than --max-effect-deletes ${maxEffects}: ${effects.by
        .slice(0, 5)
        .map((b) => `${b.address} (${b.count})`)
        .join(', ')}${effects.by.length > 5 ? `, and ${effects.by.length - 5} more` : ''}`,
      hint: `Review the plan's effects, then re-run with --max-effect-deletes ${effects.total} if they are intended.`,
      addresses: effects.by.map((b) => b.address),
    });
  }
  const unknown = unpreviewedChanges(plan, kinds);
  if (unknown.length && !opts.allowUnpreviewed) {
    out.push({
      message: `the platform's preview of ${unknown.length} change(s) failed or is missing, so what they delete downstream is unknown: ${unknown
        .slice(0, 5)
        .map((u) => `${u.address} (${u.why})`)
        .join('; ')}${unknown.length > 5 ? `; and ${unknown.length - 5} more` : ''}`,
      hint: 'Plan again when the platform can preview them, or re-run with --allow-unpreviewed to apply without knowing their effects.',
      addresses: unknown.map((u) => u.address),
    });
  }
  return out;
}

/** `21 monitor(s), 3 SQL test(s) and 2 ownership(s) by cascade` (only the non-zero parts; `nothing` when all are zero). */
export function effectDeletesText(e: EffectDeletes): string {
  const parts: string[] = [];
  if (e.monitors) parts.push(`${e.monitors} monitor(s)`);
  if (e.tests) parts.push(`${e.tests} SQL test(s)`);
  for (const [type, n] of Object.entries(e.cascaded).sort(([a], [b]) => (a < b ? -1 : 1))) parts.push(`${n} ${type.replace(/^dq_/, '').replace(/_/g, ' ')}(s) by cascade`);
  if (parts.length === 0) return 'nothing';
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}
