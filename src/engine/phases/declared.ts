/**
 * The declared phase: one change per declaration (create, update, replace, noop), or an error
 * when the object it names cannot be taken over (made in the UI, another namespace's, not
 * modelled by this version, deployed by a SQL-test rule). Pure.
 */
import * as jsonpatch from 'fast-json-patch';
import { hasConfigId, isFqnKeyed, TAG_PRUNED_TYPES } from '../../kinds/descriptors';
import type { Change, Diagnostic, PatchOp, Reason } from '../../../schemas/model/plan';
import type { LiveObject } from '../../kinds/shared/types';
import { canonicalFingerprint, fingerprint } from '../../kinds/shared/normalise';
import type { ResolvedResource } from '../resolve';
import { carriesTag } from '../identity';
import { addReasons } from '../reasons';
import { reasonText } from '../../plan/reasons-text';
import { emptyOutput, type HandlerMap, type PhaseOutput, type PlanContext } from './context';
import { applyIgnore, pointerUnion, secretPointers } from './values';
import { compareLive } from './declared-compare';

type Handler = HandlerMap[keyof HandlerMap];

/** The fields every change of a declaration starts with. */
function baseOf(r: ResolvedResource, obj: LiveObject | undefined) {
  const base = {
    address: r.address,
    type: r.type,
    id: obj?.key ?? r.id,
    fqn: isFqnKeyed(r.type) ? (obj && r.importedId ? obj.key : r.fqn) : undefined,
    source: r.source,
    dependsOn: r.dependsOn,
    movedFrom: r.movedFrom,
    importedId: r.importedId,
    sensitive: [] as string[],
    reasonCodes: undefined as Reason[] | undefined,
    patch: [] as PatchOp[],
  };
  if (r.movedFrom) addReasons(base, { code: 'moved', from: r.movedFrom });
  return base;
}
type Base = ReturnType<typeof baseOf>;

/** A declaration whose object does not exist: a create (or an error for an import block). */
function absent(ctx: PlanContext, r: ResolvedResource, after: Record<string, unknown>, base: Base, out: PhaseOutput): void {
  const h = ctx.handlers[r.type];
  if (r.importedId) {
    if (ctx.input.liveUnread) return;
    out.diags.push({
      severity: 'error',
      summary: `import block: no ${h.label} ${JSON.stringify(r.importedId)} exists to import`,
      address: r.address,
      source: r.source,
      hint: 'Check the id (or fqn for alerts) in the import block.',
    });
    return;
  }
  if (ctx.forceReplace.has(r.address)) {
    out.diags.push({ severity: 'warning', summary: `--replace ${r.address}: the ${h.label} does not exist yet, so there is nothing to replace: it will be created`, address: r.address, source: r.source });
  }
  out.changes.push({ ...base, action: 'create', before: null, after, sensitive: secretPointers(after) });
}

/** Why the existing object of a declaration cannot be planned (an error), or undefined when it can. */
function refusal(ctx: PlanContext, r: ResolvedResource, obj: LiveObject, h: Handler, foreign: boolean): Diagnostic | undefined {
  const { namespace } = ctx;
  const at = { address: r.address, source: r.source };
  if (obj.unmanageable?.length) {
    return {
      severity: 'error',
      summary: `the ${h.label} ${JSON.stringify(obj.key)} ${unmanageableText(obj)}`,
      ...at,
      detail: 'Writing it would drop what the platform holds and this version does not model.',
      hint: 'Upgrade dqform, or stop declaring this object (pin another id/fqn) and leave it to the platform.',
    };
  }
  if (foreign && r.importedId && obj.configId) {
    // an import block adopts what the UI made, never another namespace's object (tagged kinds:
    // resolve refuses their ids; alerts and untagged ids are told by their configId)
    return {
      severity: 'error',
      summary: `import block: the ${h.label} ${JSON.stringify(obj.key)} is managed by namespace "${obj.configId}", not by namespace "${namespace}" (this stack): two stacks would manage one object, and dqform never writes another namespace's objects`,
      ...at,
      hint: `Manage it in the stack of namespace "${obj.configId}", or drop the import block so that this stack creates its own object.`,
    };
  }
  if (foreign && !r.importedId) {
    const owner = obj.configId ? `namespace "${obj.configId}"` : (obj.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? 'the UI' : 'no namespace';
    return { severity: 'error', summary: `a ${h.label} ${JSON.stringify(obj.key)} already exists and is managed by ${owner}`, ...at, hint: 'Adopt it with an import block (cdktf importFrom), or pin a different id/fqn.' };
  }
  if (!r.importedId && (TAG_PRUNED_TYPES as readonly string[]).includes(r.type) && !carriesTag(obj.id, ctx.resolution.workspace, namespace)) {
    // kinds without configId: an existing object whose id carries no tag of this namespace (a
    // pinned id) counts as made in the UI; adopting it is explicit, as for a pinned fqn of a UI
    // alert (issue 23: a pinned owner id planned a plain update that dropped its contacts)
    return {
      severity: 'error',
      summary: `a ${h.label} ${JSON.stringify(obj.key)} already exists, and its id carries no tag of namespace "${namespace}" (made in the UI, or pinned by hand): dqform adopts it only through an import block`,
      ...at,
      hint: 'Adopt it with an import block (cdktf importFrom, or dqform import --namespace NS --adopt), or pin a different id.',
    };
  }
  if (obj.deploymentRuleId) {
    return { severity: 'error', summary: `SQL test ${JSON.stringify(obj.key)} is deployed by SQL-test rule ${obj.deploymentRuleId} and cannot be managed directly`, ...at, hint: 'Pin another id, or manage the test through its rule.' };
  }
  return undefined;
}

/** A declaration whose object exists and may be planned: noop, update or replace. */
function existing(ctx: PlanContext, r: ResolvedResource, obj: LiveObject, after: Record<string, unknown>, afterFingerprint: string | undefined, base: Base, foreign: boolean, out: PhaseOutput): void {
  const h = ctx.handlers[r.type];
  const before = h.fromLive(obj.raw);
  const effective = applyIgnore(before, after, r.lifecycle.ignoreChanges);
  // sameJson, isCanonicalJson and secretPointers of `before` in one walk
  const { same, canonical, secrets } = compareLive(before, effective);
  const patch = same ? [] : (jsonpatch.compare(before, effective) as PatchOp[]);
  // the same as the desired form (no ignored field): the same canonical JSON, so its fingerprint
  const liveHash = same && effective === after && afterFingerprint !== undefined ? afterFingerprint : canonical ? canonicalFingerprint(before) : fingerprint(before);
  // the same keys at every depth: the same pointers
  const sensitive = pointerUnion(secrets, same ? [] : secretPointers(effective));
  if (r.importedId) addReasons(base, { code: 'imported', label: h.label, id: r.importedId, ...(foreign ? { was: obj.configId ? `namespace "${obj.configId}"` : 'made in the UI' } : {}) });
  const forced = ctx.forceReplace.has(r.address);
  if (patch.length === 0 && !(foreign && r.importedId) && !forced) {
    out.changes.push(unchanged(base, before, effective, obj, liveHash, sensitive));
    return;
  }
  const common = { ...base, before, after: effective, etag: obj.etag, liveHash, sensitive };
  const replace: Reason[] = h.replaceReasons(before, effective).map((text) => ({ code: 'fixed-field', text }));
  if (forced) replace.push({ code: 'replace-requested' });
  if (replace.length > 0) {
    if (r.lifecycle.preventDestroy && !ctx.request.refreshOnly) {
      out.guards.push({
        severity: 'error',
        summary: `this change replaces the ${h.label} (${replace.map(reasonText).join('; ')}), and lifecycle.preventDestroy forbids destroying it`,
        address: r.address,
        source: r.source,
        hint: 'Revert the change, or drop preventDestroy deliberately.',
      });
    }
    const change: Change = { ...common, action: 'replace', patch };
    addReasons(change, ...replace);
    out.changes.push(change);
    return;
  }
  const change: Change = { ...common, action: 'update', patch };
  if (patch.length === 0) addReasons(change, { code: 'claims', namespace: ctx.namespace });
  out.changes.push(change);
}

/**
 * The most common change: built as one literal from `base` (same keys in the same order as
 * `{ ...base, before, after, etag, liveHash, sensitive, action }`): a spread copy grown by six
 * keys cost more than the rest of the phase for a plan of 10,000 unchanged objects.
 */
function unchanged(base: Base, before: Record<string, unknown>, after: Record<string, unknown>, obj: LiveObject, liveHash: string, sensitive: string[]): Change {
  return {
    address: base.address,
    type: base.type,
    id: base.id,
    fqn: base.fqn,
    source: base.source,
    dependsOn: base.dependsOn,
    movedFrom: base.movedFrom,
    importedId: base.importedId,
    sensitive,
    reasonCodes: base.reasonCodes,
    patch: base.patch,
    before,
    after,
    etag: obj.etag,
    liveHash,
    action: 'noop',
  };
}

/** The declared phase: the changes of the declarations, and what refuses them. Claims the live objects it plans. */
export function declaredPhase(ctx: PlanContext): PhaseOutput {
  const out = emptyOutput();
  ctx.resolution.resources.forEach((r, i) => {
    const h = ctx.handlers[r.type];
    const obj = ctx.find(r.type, r.importedId ?? r.id);
    const base = baseOf(r, obj);
    if (!obj) return absent(ctx, r, ctx.afters[i], base, out);
    ctx.claimed.get(r.type)!.add(obj.key);
    const foreign = hasConfigId(r.type) && obj.configId !== ctx.namespace;
    const refused = refusal(ctx, r, obj, h, foreign);
    if (refused) out.diags.push(refused);
    else existing(ctx, r, obj, ctx.afters[i], ctx.afterFingerprints?.[i], base, foreign, out);
  });
  // the kinds' own notes (an integration's secrets: sent or kept), after the planner's reasons
  for (const c of out.changes) addReasons(c, ...(ctx.handlers[c.type as keyof HandlerMap].notes?.(c) ?? []));
  return out;
}

/** Why a live object cannot be managed: `cannot be managed by this version: unknown field X; ...`. */
export function unmanageableText(obj: Pick<LiveObject, 'unmanageable'>): string {
  return reasonText({ code: 'unmanageable', fields: [...(obj.unmanageable ?? [])] });
}
