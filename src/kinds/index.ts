/** The handler of every resource type. */
import type { ResourceType } from '../../schemas/model/manifest';
import { HANDLER_LIST } from './handlers.generated';
import type { ResourceHandler } from './shared/types';
import { KINDS, SCOPES } from './descriptors';

export { KINDS, SCOPES };
export type { KindScopes } from './descriptors';

/** One handler per resource type (src/kinds/<kind>/handler.ts; keys in the manifest's dependency order: {@link KINDS}). */
export const HANDLERS: Record<ResourceType, ResourceHandler> = Object.fromEntries(KINDS.map((k) => [k.type, HANDLER_LIST.find((h) => h.type === k.type)])) as Record<ResourceType, ResourceHandler>;

/** The handler of `type`; throws for an unknown type (a bug: the manifest schema checks types). */
export function handlerFor(type: ResourceType | string): ResourceHandler {
  const h = (HANDLERS as Record<string, ResourceHandler | undefined>)[type];
  if (!h) throw new Error(`no handler for resource type ${type}`);
  return h;
}

/** Whether `granted` holds any scope of `need` (an empty set needs nothing). */
export function allows(granted: ReadonlySet<string> | readonly string[], need: readonly string[]): boolean {
  const set = granted instanceof Set ? granted : new Set(granted as readonly string[]);
  return need.length === 0 || need.some((s) => set.has(s));
}

/**
 * @deprecated the union of each kind's create/update/delete sets; use {@link SCOPES}, which is
 * per operation.
 */
export const WRITE_SCOPES: Record<ResourceType, readonly string[]> = Object.fromEntries(
  Object.entries(SCOPES).map(([k, v]) => [k, [...new Set([...v.create, ...v.update, ...v.delete])]]),
) as unknown as Record<ResourceType, readonly string[]>;
