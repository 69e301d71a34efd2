/**
 * Reading live state (the planner's input, the applier's re-reads): its own module so that the
 * applier loads it without the planner's phases, resolution and manifest loading (reconcile.ts
 * re-exports it).
 */
import type { PlatformClient } from '../client';
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { HANDLERS } from '../kinds/index';
import type { LiveObject, ResourceHandler } from '../kinds/shared/types';
import type { LiveState } from './phases/context';
import type { Resolution } from './resolve';
import { bareId, carriesTag } from './identity';

/**
 * Reads live state for every kind, concurrently (a kind waits for the kinds in its handler's
 * `readAfter`): what the namespace owns plus the keys asked for. `keysOnly` reads just the keys
 * (the applier's re-reads).
 */
export async function readLiveState(
  client: PlatformClient,
  resolution: Pick<Resolution, 'workspace' | 'namespace' | 'resources' | 'removed'>,
  handlers: Record<ResourceType, ResourceHandler> = HANDLERS,
  types: readonly ResourceType[] = RESOURCE_TYPES,
  opts: { keysOnly?: boolean; includeDeleted?: boolean } = {},
): Promise<LiveState> {
  const keys = new Map<ResourceType, Set<string>>();
  const desired = new Map<ResourceType, Record<string, unknown>[]>();
  const declaredIds = new Set<string>();
  const want = (type: ResourceType, key: string) => {
    if (!keys.has(type)) keys.set(type, new Set());
    keys.get(type)!.add(key);
    declaredIds.add(bareId(key).toLowerCase());
  };
  for (const r of resolution.resources) {
    want(r.type, r.importedId ?? r.id);
    if (r.desired) {
      if (!desired.has(r.type)) desired.set(r.type, []);
      desired.get(r.type)!.push(r.desired);
    }
  }
  for (const r of resolution.removed) want(r.type, r.id);
  const { workspace, namespace } = resolution;
  const owns = (id: string) => carriesTag(id, workspace, namespace);
  const live: LiveState = {};
  const reads = new Map<ResourceType, Promise<void>>();
  for (const type of RESOURCE_TYPES) {
    if (!types.includes(type)) continue;
    const h = handlers[type];
    const after = (h.readAfter ?? []).map((t) => reads.get(t)).filter((p): p is Promise<void> => p !== undefined);
    reads.set(
      type,
      Promise.all(after).then(async () => {
        const objs: LiveObject[] = await h.read(client, {
          workspace,
          namespace,
          keys: [...(keys.get(type) ?? [])].sort(),
          keysOnly: opts.keysOnly,
          includeDeleted: opts.includeDeleted,
          desired: desired.get(type) ?? [],
          declaredIds,
          owns,
          before: live,
          readOf: async (t) => {
            await reads.get(t);
            return live[t];
          },
        });
        live[type] = [...objs].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
      }),
    );
  }
  await Promise.all(reads.values());
  return live;
}
