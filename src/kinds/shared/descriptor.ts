/**
 * What the engine knows of a kind without loading its handler: one descriptor per kind
 * (`src/kinds/<kind>/descriptor.ts`), from which every per-kind table is derived
 * (`src/kinds/descriptors.ts`). Ownership and concurrency are policies the generic engine owns
 * (crossplane-runtime's management policies); the kind only names which one applies.
 */
import type { ResourceType } from '../../../schemas/model/manifest';

/**
 * How the engine tells "this object is ours", and so what a namespace prunes:
 * - `configId`: the platform stores the owning namespace in the object's `configId`; objects of
 *   the namespace that code no longer declares are deleted.
 * - `idTag`: the kind has no `configId` upstream; the namespace's tag is carried in the object's
 *   id (design.md, "Identity and ownership"), and objects whose id carries it are pruned.
 */
export type OwnershipPolicy = 'configId' | 'idTag';

/**
 * How a write is guarded against a concurrent one:
 * - `etag`: the API takes the read etag (compare-and-swap).
 * - `readback`: the API takes none; the applier re-reads before and after the write.
 */
export type ConcurrencyPolicy = 'etag' | 'readback';

export interface KindIdentity {
  /** What the engine matches on: the platform id, or the fqn (alerts). */
  readonly key: 'id' | 'fqn';
  /** Prefix of the kind's entity id (`owner-<uuid>`, what alerts' owner targets name); none: no entity id. */
  readonly entityIdPrefix?: string;
  /** Ids are caller-chosen UUIDs (dqform derives them from the namespace tag and the name, or the code pins one). */
  readonly derivedUuid: boolean;
}

/**
 * The scopes each kind's operations accept, as any-of sets (wire-facts: "an operation accepts
 * any scope listed for it"), for the operations dqform calls. The applier checks `create`,
 * `update` and `delete` against the credential's scopes before its first write, so a credential
 * with per-service scopes applies what they allow and is refused, before any write, for the
 * rest. `batch` is the batch write's set (narrower for rules: BatchDeploy takes only the edit
 * scope): without it, apply writes those changes one by one. `read` is what plan needs to read
 * the kind.
 */
export interface KindScopes {
  read: readonly string[];
  create: readonly string[];
  update: readonly string[];
  delete: readonly string[];
  batch?: readonly string[];
}

/** The same set for create, update and delete. */
export const sameScopes = (write: readonly string[], read: readonly string[], batch?: readonly string[]): KindScopes => ({ read, create: write, update: write, delete: write, ...(batch ? { batch } : {}) });

type Json = Record<string, unknown>;

/** What an object undergoes when an object it references is deleted (schemas/model/plan.ts CASCADE_EFFECTS). */
export type CascadeEffect = 'deleted' | 'loses-parent' | 'loses-member' | 'loses-selection';

/** The title of an object by type and id (the code's, else live's), as the plan's index knows it. */
export type TitleOf = (type: ResourceType, id: unknown) => string | undefined;

/**
 * A reference this kind's objects hold to another kind's (the cascade capability): deleting the
 * referenced object does `effect` to the referencing one, and the plan lists it.
 */
export interface KindReference {
  readonly to: ResourceType;
  /** The ids referenced, in the live (read) form. */
  readonly ids: (raw: Json) => readonly unknown[];
  readonly effect: CascadeEffect;
  /** How the cascade names the referencing object (default: its display name). */
  readonly name?: (raw: Json, titleOf: TitleOf) => string;
}

/** The preview capability: the platform's overview of a write, as the plan's effects. */
export interface KindPreview {
  readonly source: 'deploy-overview' | 'sql-test-overview' | 'categorisation-preview';
  /** Previews of several objects the same plan writes can overlap (each is made against what exists). */
  readonly overlapping: boolean;
}

export interface KindDescriptor {
  readonly type: ResourceType;
  /** Human label: `alert`, `monitor deployment rule`, ... */
  readonly label: string;
  readonly identity: KindIdentity;
  readonly ownership: OwnershipPolicy;
  readonly concurrency: ConcurrencyPolicy;
  /** The any-of scope sets of the operations its handler calls (src/client/services/ROUTES.md). */
  readonly scopes: KindScopes;
  /** The L2 construct (constructs/) and the suffix of a variable holding one in imported code. */
  readonly construct: { readonly className: string; readonly varSuffix?: string };
  /** Cascade: the references whose target's delete changes this kind's objects. */
  readonly references?: readonly KindReference[];
  /** How a person knows an object of the kind, when not `<label> "<title or name>"`. */
  readonly describe?: (raw: Json, titleOf: TitleOf) => string;
  readonly preview?: KindPreview;
  /**
   * Imported code names objects of this kind after the objects they reference (undefined: after
   * nothing known), not after their own title: `nameOf` answers the name given to an imported object.
   */
  readonly namedAfter?: (raw: Json, nameOf: TitleOf) => string | undefined;
  /** Config validation: its schedule fields are checked as a rule's (RRULE with an inline DTSTART). */
  readonly ruleSchedule?: boolean;
  /** Config validation: the field naming a parent of the same kind (a cycle is an error). */
  readonly parentField?: string;
}
