/**
 * The planner: a pure function of (resolution, live state, previews) to a Plan. No I/O, no
 * clock, no randomness: the same inputs give byte-identical plans.
 */
import * as jsonpatch from 'fast-json-patch';
import type { ResourceType } from '../../schemas/manifest';
import { RESOURCE_TYPES } from '../../schemas/manifest';
import { deletingReference, isFqnKeyed, kindOf, PRUNABLE_TYPES, TAG_PRUNED_TYPES } from '../kinds/descriptors';
import { DEFAULT_REQUEST, PLAN_FORMAT_VERSION, type Change, type Diagnostic, type Effects, type Plan, type PatchOp, type PlanRequest } from '../../schemas/plan';
import type { LiveObject, ResourceHandler } from '../kinds/shared/types';
import { fingerprint } from '../kinds/shared/normalise';
import { planSummary } from './plan-check';
import type { ResolvedResource, Resolution } from './resolve';
import { bareId, carriesTag } from './identity';
import { cascadeEffects, cascadeOf, LiveIndex } from './related';
import { asRefreshOnly, checkRequestedAddresses, destroyDeclared, narrowToTargets, REPLACE_REQUESTED, targetingWarning } from './modes';

export type LiveState = Partial<Record<ResourceType, LiveObject[]>>;
export type HandlerMap = Record<ResourceType, Pick<ResourceHandler, 'fromLive' | 'fromDesired' | 'replaceReasons' | 'prunable' | 'label' | 'sensitive'>>;

const SECRET_KEY = /^(password|token|privateKey|serviceAccountKey|apiKey|secret|clientSecret)$/;

/** Address used for live objects that no declared resource names. */
export function liveAddress(type: ResourceType, key: string): string {
  return `${type}[${JSON.stringify(key)}]`;
}

function getPointer(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part.replace(/~1/g, '/').replace(/~0/g, '~')];
  }
  return cur;
}

/** Applies `ignoreChanges`: for each ignored field, `after` takes `before`'s value. */
function applyIgnore(before: Record<string, unknown>, after: Record<string, unknown>, ignore: string[] | 'all' | undefined): Record<string, unknown> {
  if (!ignore) return after;
  if (ignore === 'all') return before;
  const out = structuredClone(after);
  for (const path of ignore) {
    const parts = path.split('.');
    let src: unknown = before;
    let dst: Record<string, unknown> = out;
    for (let i = 0; i < parts.length - 1; i++) {
      src = src && typeof src === 'object' ? (src as Record<string, unknown>)[parts[i]] : undefined;
      if (!dst[parts[i]] || typeof dst[parts[i]] !== 'object') dst[parts[i]] = {};
      dst = dst[parts[i]] as Record<string, unknown>;
    }
    const last = parts[parts.length - 1];
    const v = src && typeof src === 'object' ? (src as Record<string, unknown>)[last] : undefined;
    if (v === undefined) delete dst[last];
    else dst[last] = structuredClone(v);
  }
  return out;
}

/**
 * JSON pointers of secret-named keys in `v` (depth first, in key order). The keys from the root
 * down are kept in `at` (pushed and popped): a pointer's text is built only for a secret, not for
 * every object walked.
 */
function secretPointers(v: unknown, out: string[] = [], at: (string | number)[] = []): string[] {
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i];
      if (x && typeof x === 'object') {
        at.push(i);
        secretPointers(x, out, at);
        at.pop();
      }
    }
  } else if (v && typeof v === 'object') {
    for (const k of Object.keys(v)) {
      if (SECRET_KEY.test(k)) out.push(pointerOf(at, k));
      else {
        const x = (v as Record<string, unknown>)[k];
        if (x && typeof x === 'object') {
          at.push(k);
          secretPointers(x, out, at);
          at.pop();
        }
      }
    }
  }
  return out;
}

function pointerOf(at: readonly (string | number)[], last: string): string {
  let p = '';
  for (const k of at) p += `/${k}`;
  return `${p}/${last}`;
}

/**
 * True when `jsonpatch.compare(a, b)` is empty, decided without building a patch, a key list or
 * a path per object: plain objects and arrays (nothing with a `toJSON` or another prototype,
 * which answer false so that compare decides) with the same own keys and equal members, and
 * primitives that are `===`. The common case of a plan (nothing changed) needs no more.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  let n = 0;
  for (const k in x) {
    if (k === 'toJSON' || !Object.prototype.hasOwnProperty.call(y, k) || !sameJson(x[k], y[k])) return false;
    n++;
  }
  for (const k in y) if (--n < 0 || k === 'toJSON') return false;
  return n === 0;
}

function isPlain(o: object): boolean {
  const p = Object.getPrototypeOf(o) as unknown;
  return p === Object.prototype || p === null;
}

/** The sorted union of the secret pointers of `before` and `after`. */
function secretPointersOf(before: unknown, after: unknown): string[] {
  const a = secretPointers(before);
  const b = secretPointers(after);
  if (a.length === 0 && b.length === 0) return [];
  return [...new Set([...a, ...b])].sort();
}

export interface PlanInput {
  resolution: Resolution;
  live: LiveState;
  handlers: HandlerMap;
  /** Effects per address (deploy/delete overviews), fetched by the caller for the draft plan's rule changes. */
  previews?: ReadonlyMap<string, Effects>;
  manifestHash: string;
  /** Namespaces known by name besides those seen live (other stacks of the app): to name the tag an id carries. */
  knownNamespaces?: readonly string[];
  /** Terraform's mode flags: destroy, refresh-only, targets, forced replacements (default: none). */
  request?: PlanRequest;
  /**
   * Live state was not read (the code has errors): `live` is empty, so addresses of live objects
   * cannot be checked, and whether an imported or removed object exists is unknown (saying that
   * it does not would be false).
   */
  liveUnread?: boolean;
}

/**
 * A replace deletes the old object first, and the platform deletes what goes with it (an owner's
 * ownerships): the replace shows that cascade. Objects in it that this plan keeps (unchanged or
 * updated) are re-created after the new object (`replace`, waiting for it); the others are gone
 * for good and count as effect deletes. Only `deleted` effects: a reference that dangles while
 * an object is deleted and created again at the same id is whole again after the replace.
 */
function replacedCascades(changes: Change[], names: LiveIndex, deleted: ReadonlySet<string>): void {
  const key = (type: string, id: string) => `${type}\u0000${bareId(id).toLowerCase()}`;
  const kept = new Map(changes.filter((k) => k.action === 'noop' || k.action === 'update').map((k) => [key(k.type, k.id), k]));
  for (const c of changes) {
    if (c.action !== 'replace' || !TAG_PRUNED_TYPES.includes(c.type as ResourceType)) continue;
    const cascade = cascadeOf(c.type as ResourceType, c.id, names, deleted).filter((x) => x.effect === 'deleted');
    for (const x of cascade) {
      const k = kept.get(key(x.type, x.id));
      if (!k || k.action === 'replace') continue;
      k.action = 'replace';
      k.reasons = [...k.reasons, `the platform deletes it with ${c.address}, which this plan replaces: created again after it`];
      if (!k.dependsOn.includes(c.address)) k.dependsOn = [...k.dependsOn, c.address].sort();
      x.alsoDeleted = true;
    }
    const e = cascadeEffects(cascade);
    if (e) c.effects = e;
  }
}

/**
 * Whether `x`, in the cascade of deleting `owner`, is an ownership this plan re-points to another
 * owner first (an owner renamed without a moved block: the new owner is created, the ownership
 * updated, and only then the old owner deleted): the platform does not delete it.
 */
export function repointedAway(x: { type: string; id: string }, owner: Pick<Change, 'type' | 'id'>, changes: readonly Change[]): boolean {
  const ref = deletingReference(x.type, owner.type);
  if (!ref) return false;
  const id = bareId(x.id).toLowerCase();
  const k = changes.find((c) => c.type === x.type && (c.action === 'update' || c.action === 'noop') && bareId(c.id).toLowerCase() === id);
  const to = k?.after ? ref.ids(k.after as Record<string, unknown>)[0] : undefined;
  return typeof to === 'string' && bareId(to).toLowerCase() !== bareId(owner.id).toLowerCase();
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

/** Computes the plan. Errors go to `plan.diagnostics` (severity error): such a plan cannot be applied. */
export function computePlan(input: PlanInput): Plan {
  const { live, handlers, previews } = input;
  const request: PlanRequest = input.request ?? DEFAULT_REQUEST;
  // destroy: plan as if the code declared nothing (what the namespace owns is pruned), then name
  // the deletions by their declarations (destroyDeclared)
  const resolution = request.destroy ? { ...input.resolution, resources: [] } : input.resolution;
  const { namespace } = resolution;
  const forceReplace = new Set(request.replace);
  const diags: Diagnostic[] = [...resolution.diagnostics];
  /** preventDestroy errors, by address: they hold only if the change is in the (targeted) plan. */
  const destroyGuards: Diagnostic[] = [];
  const changes: Change[] = [];
  // per kind: the keys of the live objects a declaration or removal claims, and the live
  // objects by key and by `id:<id>` (one map per kind: no key string is built per lookup)
  const claimed = new Map<ResourceType, Set<string>>(RESOURCE_TYPES.map((t) => [t, new Set<string>()]));
  const claim = (type: ResourceType, key: string) => claimed.get(type)!.add(key);
  const isClaimed = (type: ResourceType, key: string) => claimed.get(type)!.has(key);
  const index = new Map<ResourceType, Map<string, LiveObject>>();
  for (const type of RESOURCE_TYPES) {
    const byKey = new Map<string, LiveObject>();
    index.set(type, byKey);
    for (const o of live[type] ?? []) {
      byKey.set(o.key, o);
      if (o.id !== o.key) byKey.set(`id:${o.id}`, o);
    }
  }
  const find = (type: ResourceType, key: string) => {
    const byKey = index.get(type)!;
    return byKey.get(key) ?? byKey.get(`id:${key}`);
  };
  const names = new LiveIndex(live, resolution.workspace, namespace, input.knownNamespaces);
  const afters = resolution.resources.map((r) => handlers[r.type].fromDesired(r.desired));
  resolution.resources.forEach((r, i) => names.declare(r.type, r.importedId ?? r.id, afters[i]));

  const declared = (r: ResolvedResource, i: number) => {
    const h = handlers[r.type];
    const after = afters[i];
    const lookup = r.importedId ?? r.id;
    const obj = find(r.type, lookup);
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
      reasons: [] as string[],
      patch: [] as PatchOp[],
    };
    if (r.movedFrom) base.reasons.push(`moved from ${r.movedFrom}: keeps its identity`);
    if (!obj) {
      if (r.importedId) {
        if (input.liveUnread) return;
        diags.push({
          severity: 'error',
          summary: `import block: no ${h.label} ${JSON.stringify(r.importedId)} exists to import`,
          address: r.address,
          source: r.source,
          hint: 'Check the id (or fqn for alerts) in the import block.',
        });
        return;
      }
      if (forceReplace.has(r.address)) {
        diags.push({ severity: 'warning', summary: `--replace ${r.address}: the ${h.label} does not exist yet, so there is nothing to replace: it will be created`, address: r.address, source: r.source });
      }
      changes.push({ ...base, action: 'create', before: null, after, sensitive: secretPointers(after) });
      return;
    }
    claim(r.type, obj.key);
    if (obj.unmanageable?.length) {
      diags.push({
        severity: 'error',
        summary: `the ${h.label} ${JSON.stringify(obj.key)} ${unmanageableText(obj)}`,
        address: r.address,
        source: r.source,
        detail: 'Writing it would drop what the platform holds and this version does not model.',
        hint: 'Upgrade dqform, or stop declaring this object (pin another id/fqn) and leave it to the platform.',
      });
      return;
    }
    const foreign = h.prunable && obj.configId !== namespace;
    if (foreign && r.importedId && obj.configId) {
      // an import block adopts what the UI made, never another namespace's object (tagged kinds:
      // resolve refuses their ids; alerts and untagged ids are told by their configId)
      diags.push({
        severity: 'error',
        summary: `import block: the ${h.label} ${JSON.stringify(obj.key)} is managed by namespace "${obj.configId}", not by namespace "${namespace}" (this stack): two stacks would manage one object, and dqform never writes another namespace's objects`,
        address: r.address,
        source: r.source,
        hint: `Manage it in the stack of namespace "${obj.configId}", or drop the import block so that this stack creates its own object.`,
      });
      return;
    }
    if (foreign && !r.importedId) {
      const owner = obj.configId ? `namespace "${obj.configId}"` : (obj.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? 'the UI' : 'no namespace';
      diags.push({
        severity: 'error',
        summary: `a ${h.label} ${JSON.stringify(obj.key)} already exists and is managed by ${owner}`,
        address: r.address,
        source: r.source,
        hint: 'Adopt it with an import block (cdktf importFrom), or pin a different id/fqn.',
      });
      return;
    }
    if (!r.importedId && (TAG_PRUNED_TYPES as readonly string[]).includes(r.type) && !carriesTag(obj.id, resolution.workspace, namespace)) {
      // kinds without configId: an existing object whose id carries no tag of this namespace (a
      // pinned id) counts as made in the UI; adopting it is explicit, as for a pinned fqn of a UI
      // alert (issue 23: a pinned owner id planned a plain update that dropped its contacts)
      diags.push({
        severity: 'error',
        summary: `a ${h.label} ${JSON.stringify(obj.key)} already exists, and its id carries no tag of namespace "${namespace}" (made in the UI, or pinned by hand): dqform adopts it only through an import block`,
        address: r.address,
        source: r.source,
        hint: 'Adopt it with an import block (cdktf importFrom, or dqform import --namespace NS --adopt), or pin a different id.',
      });
      return;
    }
    if (obj.deploymentRuleId) {
      diags.push({
        severity: 'error',
        summary: `SQL test ${JSON.stringify(obj.key)} is deployed by SQL-test rule ${obj.deploymentRuleId} and cannot be managed directly`,
        address: r.address,
        source: r.source,
        hint: 'Pin another id, or manage the test through its rule.',
      });
      return;
    }
    const before = h.fromLive(obj.raw);
    const effective = applyIgnore(before, after, r.lifecycle.ignoreChanges);
    const patch = sameJson(before, effective) ? [] : (jsonpatch.compare(before, effective) as PatchOp[]);
    const liveHash = fingerprint(before);
    const sensitive = secretPointersOf(before, effective);
    if (r.importedId) base.reasons.push(`imported from existing ${h.label} ${JSON.stringify(r.importedId)}${foreign ? ` (was ${obj.configId ? `namespace "${obj.configId}"` : 'made in the UI'})` : ''}`);
    const forced = forceReplace.has(r.address);
    if (patch.length === 0 && !(foreign && r.importedId) && !forced) {
      // the most common change: built as one literal from `base` (same keys in the same order as
      // `{ ...base, before, after, etag, liveHash, sensitive, action }`): a spread copy grown by
      // six keys cost more than the rest of this function for a plan of 10,000 unchanged objects
      changes.push({
        address: base.address,
        type: base.type,
        id: base.id,
        fqn: base.fqn,
        source: base.source,
        dependsOn: base.dependsOn,
        movedFrom: base.movedFrom,
        importedId: base.importedId,
        sensitive,
        reasons: base.reasons,
        patch: base.patch,
        before,
        after: effective,
        etag: obj.etag,
        liveHash,
        action: 'noop',
      });
      return;
    }
    const common = { ...base, before, after: effective, etag: obj.etag, liveHash, sensitive };
    const replace = h.replaceReasons(before, effective);
    if (forced) replace.push(REPLACE_REQUESTED);
    if (replace.length > 0) {
      if (r.lifecycle.preventDestroy && !request.refreshOnly) {
        destroyGuards.push({
          severity: 'error',
          summary: `this change replaces the ${h.label} (${replace.join('; ')}), and lifecycle.preventDestroy forbids destroying it`,
          address: r.address,
          source: r.source,
          hint: 'Revert the change, or drop preventDestroy deliberately.',
        });
      }
      changes.push({ ...common, action: 'replace', patch, reasons: [...common.reasons, ...replace] });
      return;
    }
    if (patch.length === 0) common.reasons.push(`claims it for namespace "${namespace}"`);
    changes.push({ ...common, action: 'update', patch });
  };
  resolution.resources.forEach(declared);

  // removed declarations: delete (destroy = true) or leave in place unmanaged (destroy = false)
  for (const rm of resolution.removed) {
    const h = handlers[rm.type];
    const obj = find(rm.type, rm.id);
    if (!obj) {
      if (input.liveUnread) continue;
      diags.push({
        severity: 'warning',
        summary: rm.destroy
          ? `declared removed, but no ${h.label} ${JSON.stringify(rm.id)} exists: nothing to delete`
          : `declared removed (destroy = false), but no ${h.label} ${JSON.stringify(rm.id)} exists: nothing to leave in place`,
        address: rm.address,
        hint: rm.explicitId
          ? 'It may be gone already; drop the removed declaration.'
          : 'If its id was pinned, moved or imported, give that id in the removed declaration (removed { from, id }); otherwise drop the declaration.',
      });
      continue;
    }
    claim(rm.type, obj.key);
    const ours = TAG_PRUNED_TYPES.includes(rm.type) ? carriesTag(obj.id, resolution.workspace, namespace) : obj.configId === namespace;
    const name = names.displayName(rm.type, obj.raw);
    const before = h.fromLive(obj.raw);
    if (!rm.destroy) {
      changes.push({
        address: rm.address,
        type: rm.type,
        action: 'unmanaged',
        id: obj.key,
        fqn: rm.fqn,
        before,
        after: null,
        patch: [],
        reasons: [
          `removed with destroy = false: ${name} stays in place, no longer managed${
            ours ? `; keep the removed block while it exists (it ${TAG_PRUNED_TYPES.includes(rm.type) ? "carries this namespace's tag" : 'has this namespace as configId'}, so without the block the next plan deletes it)` : ''
          }`,
        ],
        sensitive: [],
        dependsOn: [],
      });
      continue;
    }
    if (obj.unmanageable?.length) {
      diags.push({
        severity: 'error',
        summary: `declared removed, but ${name} (${JSON.stringify(obj.key)}) ${unmanageableText(obj)}`,
        address: rm.address,
        hint: 'dqform never deletes an object it cannot model; upgrade dqform, or make it removed with destroy = false.',
      });
      continue;
    }
    if (!ours) {
      const by = names.managedBy(rm.type, obj);
      diags.push({
        severity: 'error',
        summary: `declared removed, but ${name} (${JSON.stringify(obj.key)}) ${by === 'made in the UI' ? 'was made in the UI, not by' : `is managed by ${by}, not`} namespace "${namespace}": dqform never deletes it`,
        address: rm.address,
        detail:
          TAG_PRUNED_TYPES.includes(rm.type) && by === 'made in the UI'
            ? `Its id carries no namespace tag, so dqform cannot tell it from an object made in the UI (a pinned or adopted id looks the same), and never deletes those.`
            : undefined,
        hint: 'Drop the removed declaration, or make it removed { from, id, lifecycle { destroy = false } } (cdktf: stack.removed(address, { id, destroy: false })) to stop managing it; delete it in the platform itself if it must go.',
      });
      continue;
    }
    changes.push({
      address: rm.address,
      type: rm.type,
      action: 'delete',
      id: obj.key,
      fqn: rm.fqn,
      before,
      after: null,
      patch: [],
      etag: obj.etag,
      liveHash: fingerprint(before),
      reasons: [`declared removed: ${name}`],
      sensitive: secretPointers(before),
      dependsOn: [],
    });
  }

  // pruning and not-managed-here
  for (const type of PRUNABLE_TYPES) {
    const h = handlers[type];
    for (const obj of live[type] ?? []) {
      if (isClaimed(type, obj.key)) continue;
      if (obj.deploymentRuleId) continue; // made by a SQL-test rule: the rule manages it
      const before = h.fromLive(obj.raw);
      const address = liveAddress(type, obj.key);
      if (obj.unmanageable?.length) {
        changes.push(unmanagedChange(type, obj, before, unmanageableText(obj)));
        continue;
      }
      if (obj.configId === namespace) {
        changes.push({
          address,
          type,
          action: 'delete',
          id: obj.key,
          fqn: isFqnKeyed(type) ? obj.key : undefined,
          before,
          after: null,
          patch: [],
          etag: obj.etag,
          liveHash: fingerprint(before),
          reasons: [`${names.displayName(type, obj.raw)} is no longer declared in namespace "${namespace}"`],
          sensitive: secretPointers(before),
          dependsOn: [],
        });
      } else {
        changes.push({
          address,
          type,
          action: 'unmanaged',
          id: obj.key,
          fqn: isFqnKeyed(type) ? obj.key : undefined,
          before,
          after: null,
          patch: [],
          reasons: [obj.configId ? `managed by namespace "${obj.configId}"` : (obj.source ?? 'SOURCE_APP') === 'SOURCE_APP' ? 'made in the UI' : 'not managed by dqform'],
          sensitive: [],
          dependsOn: [],
        });
      }
    }
  }

  // pruning by the namespace tag (kinds without configId): objects whose id carries the tag
  // that no declaration claims; other namespaces' and UI-made ones are not even read
  for (const type of TAG_PRUNED_TYPES) {
    const h = handlers[type];
    for (const obj of live[type] ?? []) {
      if (obj.context || isClaimed(type, obj.key)) continue;
      // an untagged object a handler reads anyway is one it cannot manage (a platform-provided rule): listed
      if (!carriesTag(obj.id, resolution.workspace, namespace)) {
        if (obj.unmanageable?.length) changes.push(unmanagedChange(type, obj, h.fromLive(obj.raw), `not managed by dqform: ${obj.unmanageable.join('; ')}`));
        continue;
      }
      const before = h.fromLive(obj.raw);
      if (obj.unmanageable?.length) {
        changes.push(unmanagedChange(type, obj, before, unmanageableText(obj)));
        continue;
      }
      changes.push({
        address: liveAddress(type, obj.key),
        type,
        action: 'delete',
        id: obj.key,
        before,
        after: null,
        patch: [],
        etag: obj.etag,
        liveHash: fingerprint(before),
        reasons: [`${names.displayName(type, obj.raw)} is no longer declared in namespace "${namespace}"`],
        sensitive: secretPointers(before),
        dependsOn: [],
      });
    }
  }

  // destroy: deletions named by their declarations, preventDestroy; --target: only the targeted
  // changes and what they depend on (before the cascade, which marks what this plan also deletes)
  for (const c of changes) {
    if (c.action !== 'noop' && c.name === undefined) {
      const name = names.nameOf(c.type as ResourceType, (c.after ?? c.before) as Record<string, unknown> | null);
      if (name !== undefined) c.name = name;
    }
  }
  if (request.destroy) destroyDeclared(changes, input.resolution, live, diags, destroyGuards);
  checkRequestedAddresses(request, input.resolution, changes, diags, !input.liveUnread);
  if (request.targets.length) {
    const kept = narrowToTargets(changes, request, input.resolution);
    changes.length = 0;
    changes.push(...kept);
    diags.push(targetingWarning(request));
  }
  const planned = new Set(changes.map((c) => c.address));
  diags.push(...destroyGuards.filter((d) => planned.has(d.address!)));

  // what goes with a delete (an owner's ownerships, sub-domains, ...), from live state
  const deleted = new Set(changes.filter((c) => c.action === 'delete' || c.action === 'replace').map((c) => `${c.type}\u0000${bareId(c.id).toLowerCase()}`));
  for (const c of changes) {
    if (c.action !== 'delete' || !TAG_PRUNED_TYPES.includes(c.type as ResourceType)) continue;
    const e = cascadeEffects(cascadeOf(c.type as ResourceType, c.id, names, deleted).filter((x) => !repointedAway(x, c, changes)));
    if (e) c.effects = e;
  }
  replacedCascades(changes, names, deleted);

  for (const c of changes) {
    const e = previews?.get(c.address);
    if (e) c.effects = e;
  }
  changes.sort((a, b) => (a.address < b.address ? -1 : a.address > b.address ? 1 : 0));
  // refresh-only: nothing proposed; how live differs from the code goes to `drift`
  const drift = request.refreshOnly ? asRefreshOnly(changes) : [];
  diags.sort((a, b) => `${a.address ?? ''}${a.summary}`.localeCompare(`${b.address ?? ''}${b.summary}`));
  return {
    formatVersion: PLAN_FORMAT_VERSION,
    workspace: resolution.workspace,
    namespace,
    stack: resolution.stack,
    manifestHash: input.manifestHash,
    options: { destroy: request.destroy, refreshOnly: request.refreshOnly, targets: [...new Set(request.targets)].sort(), replace: [...new Set(request.replace)].sort() },
    changes,
    drift,
    summary: planSummary(changes),
    diagnostics: diags,
  };
}

/** Why a live object cannot be managed: `cannot be managed by this version: unknown field X; ...`. */
export function unmanageableText(obj: Pick<LiveObject, 'unmanageable'>): string {
  return `cannot be managed by this version: ${(obj.unmanageable ?? []).join('; ')}`;
}

/** The `unmanaged` entry of a live object nobody declares (listed, never written). */
function unmanagedChange(type: ResourceType, obj: LiveObject, before: Record<string, unknown>, reason: string): Change {
  return {
    address: liveAddress(type, obj.key),
    type,
    action: 'unmanaged',
    id: obj.key,
    fqn: isFqnKeyed(type) ? obj.key : undefined,
    before,
    after: null,
    patch: [],
    reasons: [reason],
    sensitive: [],
    dependsOn: [],
  };
}

/** Changes that write something. */
export function isWrite(c: Change): boolean {
  return c.action === 'create' || c.action === 'update' || c.action === 'replace' || c.action === 'delete';
}

/** Does the plan change anything? */
export function hasChanges(plan: Plan): boolean {
  return plan.changes.some(isWrite);
}

export { getPointer };
