/**
 * Every kind's descriptor, in the manifest's dependency order, and the per-kind tables derived
 * from them. Loads no handler (and so no client): the engine's pure modules read kind facts here.
 */
import { RESOURCE_TYPES, type ResourceType } from '../../schemas/model/manifest';
import { DESCRIPTORS } from './descriptors.generated';
import type { KindDescriptor, KindReference, KindScopes } from './shared/descriptor';

export type { ConcurrencyPolicy, KindDescriptor, KindIdentity, KindReference, KindScopes, OwnershipPolicy, TitleOf } from './shared/descriptor';

/**
 * The descriptors (src/kinds/<kind>/descriptor.ts, listed by `npm run registries`), in the
 * manifest's dependency order (`RESOURCE_TYPES`: what a kind references comes before it).
 */
export const KINDS: readonly KindDescriptor[] = RESOURCE_TYPES.map((type) => {
  const k = DESCRIPTORS.find((d) => d.type === type);
  if (!k) throw new Error(`resource type ${type} has no src/kinds/<kind>/descriptor.ts (run \`npm run registries\`)`);
  return k;
});

const byType = new Map<string, KindDescriptor>(KINDS.map((k) => [k.type, k]));
const typesWhere = (p: (k: KindDescriptor) => boolean): readonly ResourceType[] => KINDS.filter(p).map((k) => k.type);
const tableOf = <T>(f: (k: KindDescriptor) => T): Record<ResourceType, T> => Object.fromEntries(KINDS.map((k) => [k.type, f(k)])) as Record<ResourceType, T>;

/** The descriptor of `type`; undefined for a type dqform does not manage. */
export function kindOf(type: string): KindDescriptor | undefined {
  return byType.get(type);
}

/** Kinds owned through `configId` upstream: pruned by namespace through their configId. */
export const PRUNABLE_TYPES: readonly ResourceType[] = typesWhere((k) => k.ownership === 'configId');
/**
 * Kinds without `configId` upstream: pruned by the namespace tag their id carries (design.md,
 * "Identity and ownership"; `src/engine/identity.ts`).
 */
export const TAG_PRUNED_TYPES: readonly ResourceType[] = typesWhere((k) => k.ownership === 'idTag');
/** Whether objects of `type` carry their namespace in `configId` (else in their id's tag). */
export const hasConfigId = (type: string): boolean => kindOf(type)?.ownership === 'configId';
/** Kinds whose writes take no etag: the applier guards them by re-reading. */
export const ETAGLESS: ReadonlySet<string> = new Set(typesWhere((k) => k.concurrency === 'readback'));
/** Kinds whose ids are UUIDs chosen by the caller (SQL test ids are free-form keys, alerts are keyed by fqn). */
export const UUID_KINDS: readonly ResourceType[] = typesWhere((k) => k.identity.derivedUuid);
/** Kinds keyed by fqn rather than id. */
export const FQN_KEYED: ReadonlySet<string> = new Set(typesWhere((k) => k.identity.key === 'fqn'));
/** Human label per kind. */
export const LABEL: Record<ResourceType, string> = tableOf((k) => k.label);
/** Entity-id prefixes of the kinds that have one (`owner-<uuid>`, what alerts' owner targets name). */
export const ENTITY_ID_PREFIX: Partial<Record<ResourceType, string>> = Object.fromEntries(KINDS.filter((k) => k.identity.entityIdPrefix).map((k) => [k.type, k.identity.entityIdPrefix]));
/** Kinds with an entity id. */
export const TYPES_WITH_ENTITY_ID: readonly ResourceType[] = typesWhere((k) => k.identity.entityIdPrefix !== undefined);
/** Per kind: the any-of scope sets of the operations its handler calls (src/client/services/ROUTES.md). */
export const SCOPES: Record<ResourceType, KindScopes> = tableOf((k) => k.scopes);

const prefixAlternatives = KINDS.flatMap((k) => (k.identity.entityIdPrefix ? [k.identity.entityIdPrefix.replace(/-$/, '')] : [])).join('|');
const ENTITY_PREFIX_RE = new RegExp(`^(${prefixAlternatives})-(?=[0-9a-f]{8}-)`, 'i');

/** Strips an entity-id prefix (`owner-`, `domain-`, `dataproduct-`): the platform accepts both forms. */
export function stripEntityPrefix(id: string): string {
  return id.replace(ENTITY_PREFIX_RE, '');
}

/** Whether objects of `type` are keyed by fqn (alerts) rather than by id. */
export const isFqnKeyed = (type: string): boolean => FQN_KEYED.has(type);

/** The prefix of every resource type dqform manages (`dq_alert`, ...): other prefixes belong to other providers. */
export const TYPE_PREFIX = 'dq_';

/** The references (cascade capability) of every kind, with the kind that holds them, in dependency order. */
export const REFERENCES: readonly { from: ResourceType; ref: KindReference }[] = KINDS.flatMap((k) => (k.references ?? []).map((ref) => ({ from: k.type, ref })));

/** The reference through which deleting an object of `to` deletes objects of `from` (an owner's ownerships). */
export function deletingReference(from: string, to: string): KindReference | undefined {
  return REFERENCES.find((r) => r.from === from && r.ref.to === to && r.ref.effect === 'deleted')?.ref;
}

/** Kinds whose delete deletes objects of another kind with it (owners: their ownerships). */
export const DELETES_DEPENDENTS: ReadonlySet<string> = new Set(REFERENCES.filter((r) => r.ref.effect === 'deleted').map((r) => r.ref.to));
