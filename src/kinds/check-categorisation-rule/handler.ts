/**
 * `dq_check_categorisation_rule`: check categorisation rules v2 (caller-chosen UUIDs, etags).
 *
 * - read: List (every page), keeping the rules whose id carries the namespace tag and the keys
 *   asked for, plus every platform-provided rule (scope GLOBAL), marked unmanageable: the plan
 *   lists them as not managed and never writes or deletes them. `keysOnly`: BatchGet.
 * - create and update: Upsert with every field written (an omitted field is left unchanged by
 *   the API; priority defaults to 0), with the plan's etag; never `scope` (WORKSPACE by default).
 * - delete: Delete with the plan's etag; NOT_FOUND is success.
 * - preview: a create or update asks PreviewRule (the rule as code declares it, with its id, so
 *   that it replaces the stored one) for how many checks it would categorise and which change
 *   category; a delete lists the rule's matches (ListRuleMatches): the checks whose category
 *   comes from it lose it. A failure is "effects unknown".
 * - normalisation: `priority` 0 compares as absent, `checkTypes` sorted, the expression in
 *   canonical ResolverQL; `scope` and bookkeeping dropped.
 * - import (`listAll`): every rule of the workspace but the platform-provided ones.
 */
import type { PlatformClient } from '../../client';
import type { CategorisationRule, CategorisationRuleWrite } from '../../../schemas/platform/categorisation-rules';
import { Effects, type Change } from '../../../schemas/model/plan';
import { canonicalOrSelf, normalise } from '../shared/normalise';
import { effectsUnknown, GOVERNANCE_DROP, keepForNamespace, listed, LIST_PAGE_SIZE, liveObject, omit } from '../shared/support';
import { governanceHandler, v2Service, writeOf } from '../shared/governance';
import type { LiveObject, ResourceHandler } from '../shared/types';
import { checkCategorisationRuleDescriptor } from './descriptor';

type Json = Record<string, unknown>;

/** Examples of category changes a plan shows per rule. */
export const PREVIEW_EXAMPLES = 5;

/** Why a platform-provided rule is never managed. */
export const GLOBAL_RULE_REASON = 'it is platform-provided (scope GLOBAL): a workspace cannot edit or delete it';

const isGlobal = (r: { scope?: unknown }): boolean => r.scope === 'GLOBAL';

/** The comparable form of a rule (live or desired). */
export function canonicalCategorisationRule(r: Json): Json {
  const o = omit(r, [...GOVERNANCE_DROP, 'scope']);
  if (o.priority === 0) delete o.priority; // the default: written explicitly, read back as 0 or absent
  const m = o.matcher as Json | undefined;
  if (m && typeof m === 'object') {
    const c: Json = { ...m };
    if (typeof c.expression === 'string') c.expression = canonicalOrSelf(c.expression);
    if (c.attributes && typeof c.attributes === 'object') {
      const a = { ...(c.attributes as Json) };
      if (Array.isArray(a.checkTypes)) a.checkTypes = [...(a.checkTypes as string[])].sort();
      c.attributes = a;
    }
    o.matcher = c;
  }
  return normalise(o);
}

const ruleWrite = (change: Change): CategorisationRuleWrite => writeOf<CategorisationRuleWrite>(change, { dimension: undefined, title: undefined, category: undefined, matcher: undefined, priority: 0 });

const change = (check: string, from: string, to: string) => ({ check, from, to });

/** The preview of a rule change: PreviewRule for a create or update, ListRuleMatches for a delete. */
export async function categorisationPreview(client: PlatformClient, c: Change): Promise<Effects> {
  const source = 'categorisation-preview';
  try {
    if (c.action === 'delete') {
      const lost = (await client.categorisationRules.listMatches(c.id)).filter((m) => m.applied);
      return Effects.parse({
        source,
        checksCategorised: 0,
        categoryChangeCount: lost.length,
        categoryChanges: lost.slice(0, PREVIEW_EXAMPLES).map((m) => change(m.checkName || m.checkId, m.category, '')),
      });
    }
    const p = await client.categorisationRules.preview(ruleWrite(c), PREVIEW_EXAMPLES);
    return Effects.parse({
      source,
      checksMatched: p.matchedCount,
      checksCategorised: p.categorisedCount,
      categoryChangeCount: p.changedCount,
      categoryChanges: p.changes.map((x) => change(x.checkName || x.checkId, x.from, x.to)),
    });
  } catch (e) {
    return Effects.parse({ source, error: effectsUnknown(e) });
  }
}

const base = governanceHandler<CategorisationRuleWrite, CategorisationRule & { id: string }>({
  descriptor: checkCategorisationRuleDescriptor,
  canonical: canonicalCategorisationRule,
  write: ruleWrite,
  service: v2Service((client) => client.categorisationRules),
  listAll: async (client) => listed((await client.categorisationRules.list(LIST_PAGE_SIZE)).filter((r) => !isGlobal(r))),
});

/** The `dq_check_categorisation_rule` handler (the governance family's, plus the global rules and the preview). */
export const checkCategorisationRulesHandler: ResourceHandler = {
  ...base,
  async read(client, q): Promise<LiveObject[]> {
    if (q.keysOnly) return base.read(client, q);
    const all = await client.categorisationRules.list(LIST_PAGE_SIZE);
    const ours = keepForNamespace(
      all.filter((r) => !isGlobal(r)),
      q,
    );
    const globals = all
      .filter(isGlobal)
      .filter((r) => !ours.some((o) => o.id === r.id))
      .map((r) => {
        const o = liveObject(r.id, r);
        o.unmanageable = [...(o.unmanageable ?? []), GLOBAL_RULE_REASON];
        return o;
      });
    return [...ours, ...globals].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  },
  preview: (client, c) => categorisationPreview(client, c),
};
