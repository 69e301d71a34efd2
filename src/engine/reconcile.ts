/**
 * Plan with I/O: learn the workspace, read live state (list and batch calls per kind), compute a
 * draft plan, fetch the platform's previews for rule changes, compute the final plan. The plan
 * itself stays a pure function of what was read.
 */
import type { PlatformClient } from '../client';
import type { Manifest, ResourceType } from '../../schemas/manifest';
import { RESOURCE_TYPES } from '../../schemas/manifest';
import type { Diagnostic, Effects, Plan } from '../../schemas/plan';
import { allows, HANDLERS, SCOPES } from '../handlers/registry';
import type { LiveObject, ResourceHandler } from '../handlers/types';
import { manifestHash } from './manifest';
import { computePlan, type LiveState } from './planner';
import { resolveManifest, type Resolution } from './resolve';
import { mapLimit } from './concurrency';

export interface PlanOptions {
  /** Progress lines (reading live state, previews). */
  onProgress?: (line: string) => void;
  /** Concurrency of preview calls. */
  previewConcurrency?: number;
  handlers?: Record<ResourceType, ResourceHandler>;
}

/** Reads live state for every kind, concurrently: what the namespace owns plus the keys asked for. */
export async function readLiveState(
  client: PlatformClient,
  resolution: Pick<Resolution, 'workspace' | 'namespace' | 'resources' | 'removed'>,
  handlers: Record<ResourceType, ResourceHandler> = HANDLERS,
  types: readonly ResourceType[] = RESOURCE_TYPES,
): Promise<LiveState> {
  const keys = new Map<ResourceType, Set<string>>();
  for (const r of resolution.resources) {
    if (!keys.has(r.type)) keys.set(r.type, new Set());
    keys.get(r.type)!.add(r.importedId ?? r.id);
  }
  for (const r of resolution.removed) {
    if (!keys.has(r.type)) keys.set(r.type, new Set());
    keys.get(r.type)!.add(r.id);
  }
  const live: LiveState = {};
  await Promise.all(
    types.map(async (type) => {
      const h = handlers[type];
      const want = [...(keys.get(type) ?? [])].sort();
      if (!h.prunable && want.length === 0) {
        live[type] = [];
        return;
      }
      const objs: LiveObject[] = await h.read(client, { workspace: resolution.workspace, namespace: resolution.namespace, keys: want });
      live[type] = [...objs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    }),
  );
  return live;
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
    } else if (handlers[type].prunable) {
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
export async function plan(client: PlatformClient, manifest: Manifest, opts: PlanOptions = {}): Promise<Plan> {
  const handlers = opts.handlers ?? HANDLERS;
  const progress = opts.onProgress ?? (() => undefined);
  const iam = await client.iam.get();
  const workspace = iam.workspace;
  const resolution = resolveManifest(manifest, workspace);
  const hash = manifestHash(manifest);
  const readable = readableKinds(resolution, iam.scopes, handlers);
  resolution.diagnostics.push(...readable.diagnostics);
  if (resolution.diagnostics.some((d) => d.severity === 'error')) {
    return computePlan({ resolution, live: {}, handlers, manifestHash: hash });
  }
  progress(`reading live state of namespace "${manifest.namespace}" in workspace "${workspace}"`);
  const live = await readLiveState(client, resolution, handlers, readable.types);
  const draft = computePlan({ resolution, live, handlers, manifestHash: hash });
  const needPreview = draft.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged' && handlers[c.type as ResourceType].preview);
  if (needPreview.length > 0) {
    progress(`asking the platform what ${needPreview.length} rule change(s) would do`);
    const ctx = { workspace, namespace: manifest.namespace };
    const results = await mapLimit<(typeof needPreview)[number], Effects | undefined>(needPreview, opts.previewConcurrency ?? 8, (c) => handlers[c.type as ResourceType].preview!(client, c, ctx));
    // The final plan is the draft with the effects attached: computePlan is pure and previews
    // only set `effects` (the last key) on the changes they name, so recomputing it (normalising
    // and diffing every object a second time) would give the same plan, byte for byte.
    needPreview.forEach((c, i) => {
      const e = results[i];
      if (e) c.effects = e;
    });
  }
  return draft;
}
