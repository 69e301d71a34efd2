/**
 * Plan with I/O: learn the workspace, read live state (list and batch calls per kind), compute a
 * draft plan, fetch the platform's previews for rule changes, compute the final plan. The plan
 * itself stays a pure function of what was read.
 */
import type { PlatformClient } from '../client';
import type { Manifest, ResourceType } from '../../schemas/manifest';
import { RESOURCE_TYPES } from '../../schemas/manifest';
import type { Effects, Plan } from '../../schemas/plan';
import { HANDLERS } from '../handlers/registry';
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

/** The whole plan: resolve, read, draft, preview, final. */
export async function plan(client: PlatformClient, manifest: Manifest, opts: PlanOptions = {}): Promise<Plan> {
  const handlers = opts.handlers ?? HANDLERS;
  const progress = opts.onProgress ?? (() => undefined);
  const workspace = await workspaceOf(client);
  const resolution = resolveManifest(manifest, workspace);
  const hash = manifestHash(manifest);
  if (resolution.diagnostics.some((d) => d.severity === 'error')) {
    return computePlan({ resolution, live: {}, handlers, manifestHash: hash });
  }
  progress(`reading live state of namespace "${manifest.namespace}" in workspace "${workspace}"`);
  const live = await readLiveState(client, resolution, handlers);
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
