/**
 * The effects phase: the platform's previews of the plan's rule changes (deploy, delete and
 * SQL-test overviews) become the changes' effects. Fetching them is I/O, done by the caller
 * (engine/reconcile) between the draft and this phase, over the changes {@link previewRequests}
 * names; the golden tests pass fixtures. A change that depends on an object this plan creates
 * cannot be previewed yet: its effects are known after apply. Pure.
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import { Effects, type Change, type Diagnostic } from '../../../schemas/model/plan';
import { kindOf } from '../../kinds/descriptors';
import type { HandlerMap, PlanContext } from './context';

/** What the caller gathered for the effects phase. */
export interface EffectsInput {
  /** Effects per address: the platform's previews of the changes {@link previewRequests} asked for. */
  previews?: ReadonlyMap<string, Effects>;
  /** Diagnostics found while gathering (the renamed-namespace warning). */
  diagnostics?: readonly Diagnostic[];
}

/** The effects of a rule change that depends on `deps`, which the same plan creates: known after apply. */
export function knownAfterApply(type: string, deps: readonly string[]): Effects {
  const one = deps.length === 1;
  return Effects.parse({
    source: kindOf(type)?.preview?.source ?? 'deploy-overview',
    afterApply: `it depends on ${deps.join(', ')}, which this plan creates; the platform can preview it only once ${one ? 'that exists' : 'they exist'}`,
  });
}

/**
 * The changes whose kind has a preview: `fetch`, those the platform can preview now; `afterApply`,
 * the effects of those that depend on an object this plan creates (apply previews them once it exists).
 */
export function previewRequests(changes: readonly Change[], handlers: HandlerMap): { fetch: Change[]; afterApply: Map<string, Effects> } {
  const want = changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged' && c.action !== 'forget' && handlers[c.type as ResourceType].preview);
  const created = new Set(changes.filter((c) => c.action === 'create' || c.action === 'replace').map((c) => c.address));
  const fetch: Change[] = [];
  const afterApply = new Map<string, Effects>();
  for (const c of want) {
    const deps = c.action === 'delete' ? [] : c.dependsOn.filter((d) => created.has(d)).sort();
    if (deps.length === 0) fetch.push(c);
    else afterApply.set(c.address, knownAfterApply(c.type, deps));
  }
  return { fetch, afterApply };
}

/**
 * The deploy overview previews one rule against the rules that exist. Rules written by the same
 * plan divide assets among themselves (an exclusive rule removes its assets from every other
 * rule; an asset two rules select is monitored once, by the earlier-deployed rule), which no
 * single preview shows: the previews then list more monitors to create than the platform will.
 * A warning naming the assets several previews list and the exclusive rules the plan writes, or
 * undefined when the plan's rule previews cannot overlap.
 */
export function sharedPreviewsWarning(changes: readonly Change[]): Diagnostic | undefined {
  const rules = changes.filter((c) => kindOf(c.type)?.preview?.overlapping === true && (c.action === 'create' || c.action === 'update' || c.action === 'replace'));
  if (rules.length < 2) return undefined;
  const byAsset = new Map<string, string[]>();
  for (const c of rules) for (const a of c.effects?.monitorsToCreate ?? []) byAsset.set(a, [...(byAsset.get(a) ?? []), c.address]);
  const shared = [...byAsset.entries()].filter(([, rs]) => rs.length > 1).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const creating = rules.some((c) => (c.effects?.monitorsToCreate.length ?? 0) > 0 || c.effects?.afterApply !== undefined);
  const exclusive = rules
    .filter((c) => {
      const a = (c.after ?? {}) as Record<string, unknown>;
      return a.exclusiveQueryConfig !== undefined || a.exclusiveStaticConfig !== undefined;
    })
    .map((c) => {
      const path = ((c.after as Record<string, { path?: string } | undefined>).exclusiveStaticConfig ?? {}).path;
      return path ? `${path} (${c.address})` : `${c.address} (by its query)`;
    });
  if (shared.length === 0 && !(exclusive.length && creating)) return undefined;
  const parts: string[] = [];
  if (shared.length) parts.push(`assets in the previews of several of them: ${shared.slice(0, 10).map(([a, rs]) => `${a} (${rs.join(', ')})`).join('; ')}${shared.length > 10 ? `; and ${shared.length - 10} more` : ''}`);
  if (exclusive.length && creating) parts.push(`exclusive rules, which the other rules' previews do not account for: ${exclusive.join(', ')}`);
  return {
    severity: 'warning',
    summary: `the platform previews each of the ${rules.length} monitor rule changes alone, and rules written together divide assets among themselves: fewer monitors may be created than the previews list`,
    detail: parts.join('. '),
    hint: 'Nothing is deleted that the plan does not show. To see exact previews, apply the exclusive rules (or the rules that claim shared assets) first, then plan the others.',
  };
}

/**
 * Whether the draft's changes are previewed at all: not in a refresh-only plan (nothing is
 * proposed) nor when live state was not read (the code has errors: nothing can be applied).
 */
export function previewed(ctx: Pick<PlanContext, 'request' | 'input'>): boolean {
  return !ctx.request.refreshOnly && !ctx.input.liveUnread;
}

/** The effects phase: attaches the previews (and the known-after-apply effects) and warns when rule previews overlap. */
export function effectsPhase(ctx: PlanContext, changes: readonly Change[], diags: Diagnostic[], input: EffectsInput): void {
  const afterApply = previewed(ctx) ? previewRequests(changes, ctx.handlers).afterApply : new Map<string, Effects>();
  for (const c of changes) {
    const e = input.previews?.get(c.address) ?? afterApply.get(c.address);
    if (e) c.effects = e;
  }
  diags.push(...(input.diagnostics ?? []));
  const shared = previewed(ctx) ? sharedPreviewsWarning(changes) : undefined;
  if (shared) diags.push(shared);
}
