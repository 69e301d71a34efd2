/**
 * The planner's first phase: what every later phase reads. The request's defaults, the
 * resolution the plan works on (none of the declarations in a destroy plan), the live objects
 * indexed by key and by `id:<id>`, the live names, and the normalised desired objects. Pure.
 */
import type { ResourceType } from '../../../schemas/model/manifest';
import { RESOURCE_TYPES } from '../../../schemas/model/manifest';
import { DEFAULT_REQUEST, type Change, type Diagnostic, type Effects, type PlanRequest } from '../../../schemas/model/plan';
import type { LiveObject, ResourceHandler } from '../../kinds/shared/types';
import type { Resolution } from '../resolve';
import { LiveIndex } from '../related';

export type LiveState = Partial<Record<ResourceType, LiveObject[]>>;
export type HandlerMap = Record<ResourceType, Pick<ResourceHandler, 'fromLive' | 'fromDesired' | 'replaceReasons' | 'label' | 'sensitive' | 'preview' | 'notes'>>;

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
  /**
   * The normalised desired object of each of `resolution.resources` (`handlers[type].fromDesired`,
   * by index), when the caller has them already (the resolution cache, src/cli/desired.ts);
   * computed here otherwise. Ignored unless there is one per resource.
   */
  afters?: readonly Record<string, unknown>[];
  /**
   * The fingerprint (`fingerprint`: sha256 of the canonical JSON) of each of `afters`, when the
   * caller has them (the resolution cache): an unchanged object's live form is its desired form
   * but for key order, so its `liveHash` is this one, not hashed again. Read only with `afters`.
   */
  afterFingerprints?: readonly string[];
}

/** What a phase adds to the plan: changes, diagnostics, and preventDestroy guards (kept only for planned addresses). */
export interface PhaseOutput {
  changes: Change[];
  diags: Diagnostic[];
  guards: Diagnostic[];
}

export interface PlanContext {
  input: PlanInput;
  request: PlanRequest;
  /** The resolution planned: the input's, without declarations in a destroy plan. */
  resolution: Resolution;
  namespace: string;
  handlers: HandlerMap;
  live: LiveState;
  forceReplace: ReadonlySet<string>;
  names: LiveIndex;
  /** The normalised desired object of each of `resolution.resources`, by index. */
  afters: Record<string, unknown>[];
  /** The fingerprint of each of `afters`, when the input gave them with `afters`. */
  afterFingerprints?: readonly string[];
  /** The live object of a kind by key or by id. */
  find(type: ResourceType, key: string): LiveObject | undefined;
  /** The keys of the live objects a declaration or removal claims, per kind (filled by the declared and removed phases). */
  claimed: Map<ResourceType, Set<string>>;
}

export function emptyOutput(): PhaseOutput {
  return { changes: [], diags: [], guards: [] };
}

/** The normalised desired object of each resource ({@link PlanContext.afters}). */
export function desiredForms(resources: Resolution['resources'], handlers: HandlerMap): Record<string, unknown>[] {
  return resources.map((r) => handlers[r.type].fromDesired(r.desired));
}

/** Builds the context of a plan. */
export function planContext(input: PlanInput): PlanContext {
  const { live, handlers } = input;
  const request: PlanRequest = input.request ?? DEFAULT_REQUEST;
  // destroy: plan as if the code declared nothing (what the namespace owns is pruned), then name
  // the deletions by their declarations (destroyDeclared)
  const resolution = request.destroy ? { ...input.resolution, resources: [] } : input.resolution;
  const { namespace } = resolution;
  // per kind: the live objects by key and by `id:<id>` (one map per kind: no key string is built per lookup)
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
  const given = input.afters?.length === resolution.resources.length;
  const afters = given ? [...input.afters!] : desiredForms(resolution.resources, handlers);
  const afterFingerprints = given && input.afterFingerprints?.length === afters.length ? input.afterFingerprints : undefined;
  resolution.resources.forEach((r, i) => names.declare(r.type, r.importedId ?? r.id, afters[i]));
  const claimed = new Map<ResourceType, Set<string>>(RESOURCE_TYPES.map((t) => [t, new Set<string>()]));
  return { input, request, resolution, namespace, handlers, live, forceReplace: new Set(request.replace), names, afters, afterFingerprints, find, claimed };
}
