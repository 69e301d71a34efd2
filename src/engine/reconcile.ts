/**
 * Plan with I/O: learn the workspace, read live state (list and batch calls per kind), compute a
 * draft plan, fetch the platform's previews for rule changes, compute the final plan. The plan
 * itself stays a pure function of what was read.
 */
import type { PlatformClient } from '../client';
import type { Manifest, ResourceType } from '../../schemas/model/manifest';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Change, Diagnostic, Effects, Plan, PlanRequest } from '../../schemas/model/plan';
import { allows, HANDLERS, SCOPES } from '../kinds/index';
import type { ResourceHandler } from '../kinds/shared/types';
import { manifestHash } from './manifest';
import { fingerprint } from '../kinds/shared/normalise';
import { computePlan, desiredForms, draftPlan, finishPlan, previewed, previewRequests, type LiveState } from './planner';
export { knownAfterApply } from './phases/effects';
import { resolveManifest, type Resolution, type SiblingStack } from './resolve';
import { readLiveState } from './live-state';
export { readLiveState } from './live-state';
import { mapLimit } from './concurrency';
import { candidateNamespaces, keysUnder, LOOKED_UP, ownsNothing, renameWarning } from './renamed';

/**
 * The desired state as plan reads it when the caller resolves it (src/cli/desired.ts, the
 * resolution cache): the namespace, the manifest's hash, the sibling stacks' namespaces and the
 * resolution in a workspace. A manifest given to {@link plan} is read as one of these.
 */
export interface DesiredState {
  readonly namespace: string;
  /** The namespaces of the other stacks on this platform (PlanOptions.siblings for a manifest). */
  readonly siblingNamespaces: readonly string[];
  manifestHash(): string;
  resolve(workspace: string): Resolution;
  /**
   * The normalised desired objects of a resolution `resolve` answered ({@link handlerDesiredForms}),
   * when the caller keeps them (the resolution cache): a plan with dqform's own handlers then
   * does not compute them again. Undefined: the planner computes them.
   */
  desiredForms?(resolution: Resolution): readonly Record<string, unknown>[] | undefined;
  /** The fingerprint of each of those forms ({@link formFingerprints}), when kept with them. */
  desiredFingerprints?(resolution: Resolution): readonly string[] | undefined;
}

/** The normalised desired object of each of the resolution's resources with dqform's handlers (PlanInput.afters). */
export function handlerDesiredForms(resolution: Resolution): Record<string, unknown>[] {
  return desiredForms(resolution.resources, HANDLERS);
}

/** The fingerprint of each desired form (PlanInput.afterFingerprints: the liveHash of an object that matches it). */
export function formFingerprints(forms: readonly Record<string, unknown>[]): string[] {
  return forms.map((f) => fingerprint(f));
}

/** A manifest as the desired state of a plan: resolved with the siblings the options give. */
export function desiredOf(manifest: Manifest, siblings: readonly SiblingStack[] = []): DesiredState {
  return {
    namespace: manifest.namespace,
    siblingNamespaces: siblings.map((s) => s.namespace),
    manifestHash: () => manifestHash(manifest),
    resolve: (workspace) => resolveManifest(manifest, workspace, { siblings }),
  };
}

export interface PlanOptions {
  /** Progress lines (reading live state, previews). */
  onProgress?: (line: string) => void;
  /**
   * Preview calls in flight (default 16: one call per rule change, the API has no batch preview;
   * the client's pool and limiter bound the sockets and requests across everything).
   */
  previewConcurrency?: number;
  handlers?: Record<ResourceType, ResourceHandler>;
  /**
   * The other stacks of the app: two stacks must not declare one object or share a namespace.
   * Read only when a manifest is planned (a {@link DesiredState} resolves with its own).
   */
  siblings?: readonly SiblingStack[];
  /**
   * The namespaces of every other stack of the app, on any platform: never named as the old name
   * of a renamed namespace (the siblings' namespaces are not either).
   */
  appNamespaces?: readonly string[];
  /**
   * Terraform's mode flags (destroy, refresh-only, targets, forced replacements); recorded in the
   * plan's `options`. Planning again for a saved plan (apply's check) must pass the saved plan's
   * `options` here, or the two plans differ by construction.
   */
  request?: PlanRequest;
}

/**
 * The "was the namespace renamed?" warning (renamed.ts): only when the namespace owns nothing
 * live and the code declares something, so a plan of an established stack costs nothing more.
 * Kinds without configId are looked up by the keys they would have under each candidate
 * namespace (batch reads); the others are all in live state already.
 */
async function renamedNamespaceWarning(
  client: PlatformClient,
  resolution: Resolution,
  live: LiveState,
  handlers: Record<ResourceType, ResourceHandler>,
  siblings: readonly string[],
): Promise<Diagnostic | undefined> {
  const { workspace, namespace } = resolution;
  if (resolution.resources.length === 0 || !ownsNothing(live, workspace, namespace)) return undefined;
  const candidates = candidateNamespaces(live, namespace, siblings);
  if (candidates.length === 0) return undefined;
  const expected = candidates.map((c) => ({ candidate: c, keys: keysUnder(resolution, c) }));
  const present = new Set<string>();
  for (const type of RESOURCE_TYPES) {
    if (LOOKED_UP.includes(type)) {
      const keys = [...new Set(expected.flatMap((e) => e.keys.filter((k) => k.type === type).map((k) => k.key)))].sort();
      if (keys.length === 0) continue;
      for (const o of await handlers[type].read(client, { workspace, namespace, keys, keysOnly: true })) present.add(`${type}\u0000${o.key}`);
    } else for (const o of live[type] ?? []) present.add(`${type}\u0000${o.key}`);
  }
  const found = new Map(expected.map((e) => [e.candidate, e.keys.filter((k) => present.has(`${k.type}\u0000${k.key}`)).map((k) => k.address)]));
  return renameWarning(namespace, found, expected[0].keys.length);
}

/** Learns the workspace from `GET /api/iam/v1`. */
export async function workspaceOf(client: PlatformClient): Promise<string> {
  const iam = await client.iam.get();
  return iam.workspace;
}

/**
 * The kinds these credentials cannot read (none of the kind's read scopes, {@link SCOPES}), as
 * diagnostics, and the kinds to read. A kind the stack declares (or removes) is an error; a kind
 * it does not is skipped with a warning: what the namespace may own of it is not listed nor
 * pruned. Scope names dqform does not know are ignored.
 */
export function readableKinds(resolution: Pick<Resolution, 'namespace' | 'resources' | 'removed'>, granted: readonly string[], handlers: Record<ResourceType, ResourceHandler>): { types: ResourceType[]; diagnostics: Diagnostic[] } {
  const used = new Set<ResourceType>([...resolution.resources.map((r) => r.type), ...resolution.removed.map((r) => r.type)]);
  const types: ResourceType[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const type of RESOURCE_TYPES) {
    const need = SCOPES[type]?.read ?? [];
    if (allows(granted, need)) {
      types.push(type);
      continue;
    }
    const label = handlers[type].label;
    if (used.has(type)) {
      diagnostics.push({
        severity: 'error',
        summary: `these credentials cannot read ${label}s (they need one of ${need.join(', ')}), and this stack declares some`,
        hint: `Plan with a credential that has one of ${need.join(', ')}.`,
      });
    } else {
      diagnostics.push({
        severity: 'warning',
        summary: `these credentials cannot read ${label}s (they need one of ${need.join(', ')}): ${label}s of namespace "${resolution.namespace}" that the code no longer declares are not listed, nor deleted`,
        hint: `Plan with a credential that has one of ${need.join(', ')} to see them.`,
      });
    }
  }
  return { types, diagnostics };
}

/** The whole plan: resolve, read, draft, preview, final. */
export async function plan(client: PlatformClient, manifest: Manifest | DesiredState, opts: PlanOptions = {}): Promise<Plan> {
  const desired = 'resources' in manifest ? desiredOf(manifest, opts.siblings) : manifest;
  const handlers = opts.handlers ?? HANDLERS;
  const progress = opts.onProgress ?? (() => undefined);
  // the manifest's hash needs no workspace: computed while the token and IAM calls are in flight
  const iamCall = client.iam.get();
  let hash: string;
  try {
    hash = desired.manifestHash();
  } catch (e) {
    iamCall.catch(() => undefined);
    throw e;
  }
  const iam = await iamCall;
  const workspace = iam.workspace;
  const resolution = desired.resolve(workspace);
  // the cached normalised desired objects hold for dqform's handlers only
  const afters = opts.handlers ? undefined : desired.desiredForms?.(resolution);
  const afterFingerprints = afters && desired.desiredFingerprints?.(resolution);
  // write-only references stay out of the plan: the handlers that need them at apply keep them
  for (const t of new Set(resolution.resources.map((r) => r.type))) handlers[t].bindDesired?.(resolution.resources.filter((r) => r.type === t), { workspace, namespace: desired.namespace });
  const readable = readableKinds(resolution, iam.scopes, handlers);
  resolution.diagnostics.push(...readable.diagnostics);
  if (resolution.diagnostics.some((d) => d.severity === 'error')) {
    return computePlan({ resolution, live: {}, liveUnread: true, handlers, manifestHash: hash, request: opts.request, afters, afterFingerprints });
  }
  progress(`reading live state of namespace "${desired.namespace}" in workspace "${workspace}"`);
  const live = await readLiveState(client, resolution, handlers, readable.types);
  const draft = draftPlan({ resolution, live, handlers, manifestHash: hash, knownNamespaces: [...desired.siblingNamespaces], request: opts.request, afters, afterFingerprints });
  const renamed = await renamedNamespaceWarning(client, resolution, live, handlers, [...desired.siblingNamespaces, ...(opts.appNamespaces ?? [])]);
  const previews = previewed(draft.ctx) ? await fetchPreviews(client, draft.changes, handlers, { workspace, namespace: desired.namespace }, opts) : undefined;
  // the same effects and assemble phases as computePlan's, with what was gathered
  return finishPlan(draft, { previews, diagnostics: renamed ? [renamed] : [] });
}

/**
 * The platform's previews of the draft's rule changes that can be previewed now (one call per
 * change, the API has no batch preview), by address. A change that depends on an object this
 * plan creates is not asked for: the effects phase says its effects are known after apply.
 * Each kind's first change is asked first ({@link headsFirst}): kinds are previewed by different
 * services, often over different transports (monitor rules over REST, SQL-test rules over gRPC),
 * and the first call of a transport sets it up (the gRPC stack loads in turns, while the REST
 * previews in flight are answered); the rest keep their order, one transport after the other.
 */
async function fetchPreviews(
  client: PlatformClient,
  changes: readonly Change[],
  handlers: Record<ResourceType, ResourceHandler>,
  ctx: { workspace: string; namespace: string },
  opts: PlanOptions,
): Promise<Map<string, Effects>> {
  const { fetch } = previewRequests(changes, handlers);
  const previews = new Map<string, Effects>();
  if (fetch.length === 0) return previews;
  (opts.onProgress ?? (() => undefined))(`asking the platform what ${fetch.length} rule change(s) would do`);
  const order = headsFirst(fetch);
  const results = await mapLimit<Change, Effects | undefined>(order, opts.previewConcurrency ?? 16, (c) => handlers[c.type as ResourceType].preview!(client, c, ctx));
  order.forEach((c, i) => {
    const e = results[i];
    if (e) previews.set(c.address, e);
  });
  return previews;
}

/** `changes` with the first change of each kind first (in their order), then the others in theirs. */
export function headsFirst(changes: readonly Change[]): Change[] {
  const seen = new Set<string>();
  const heads: Change[] = [];
  const rest: Change[] = [];
  for (const c of changes) {
    if (seen.has(c.type)) rest.push(c);
    else {
      seen.add(c.type);
      heads.push(c);
    }
  }
  return [...heads, ...rest];
}
