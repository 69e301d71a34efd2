/**
 * One small interface per resource kind. The planner uses only the pure members
 * (`fromLive`, `fromDesired`, `replaceReasons`, `sensitive`); plan and apply use the I/O members.
 *
 * Contract (terraform-plugin-framework's Resource, crossplane's ExternalClient):
 * - `read` never writes; objects that do not exist are simply absent from its result.
 * - `create` leaves nothing behind when it fails (or the same call can be repeated: ids are
 *   deterministic, so a re-run adopts what a crashed run created).
 * - `delete` treats 404 as success.
 * - the pure members are deterministic functions of their arguments.
 */
import type { PlatformClient } from '../../client';
import type { ResourceType } from '../../../schemas/model/manifest';
import type { Change, Effects, Reason } from '../../../schemas/model/plan';

/** A live object as read, with the fields the engine reasons about lifted out. */
export interface LiveObject {
  /** The identity key the engine matches on: the id, or the fqn for alerts. */
  key: string;
  /** The platform id. */
  id: string;
  etag?: string;
  /** Namespace of the as-code tool that owns it (kinds with configId only). */
  configId?: string;
  /** `SOURCE_APP` (UI) or `SOURCE_API`; absent is the proto3 default, `SOURCE_APP`. */
  source?: string;
  /** Set on SQL tests deployed by a SQL-test rule: never managed directly. */
  deploymentRuleId?: string;
  /** The parsed read form. */
  raw: Record<string, unknown>;
  /**
   * What this object carries that this version of dqform does not model (an unknown field,
   * variant or enum value; schemas/platform/wire.ts `unmodelledOf`). Such an object is listed in the plan
   * ("cannot be managed by this version: ...") and never written or deleted.
   */
  unmanageable?: readonly string[];
  /**
   * Soft-deleted (governance kinds keep a deleted object, with its etag, until purged): only in
   * `keysOnly` reads with {@link ReadQuery.includeDeleted}. Such an object does not exist for
   * the plan; its etag guards a create of the same id (the applier's compare-and-swap).
   */
  deleted?: boolean;
  /**
   * Read only to show what a delete takes with it (an owner's ownerships made in the UI, a
   * sub-domain of a domain the namespace owns): neither the namespace's nor asked for, so the
   * planner never manages, deletes or lists it.
   */
  context?: boolean;
}

/** Live objects per kind, as {@link ResourceHandler.read} answers them. */
export type LiveObjects = Partial<Record<ResourceType, LiveObject[]>>;

export interface HandlerContext {
  workspace: string;
  namespace: string;
  /**
   * The environment the command was given (the CLI's `io.env`): where a write reads a secret's
   * `fromEnv` variable. Absent: `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /** The directory the command was given (the CLI's `io.cwd`): what a secret's relative `fromFile` path is relative to. Absent: `process.cwd()`. */
  cwd?: string;
}

export interface ReadQuery extends HandlerContext {
  /** Keys (ids, or fqns for alerts) to read besides what the namespace owns. */
  keys: string[];
  /**
   * Read only `keys` (batch calls), not what the namespace owns: the applier's re-reads of the
   * objects a plan writes. Kinds that list anyway may ignore it.
   */
  keysOnly?: boolean;
  /** With `keysOnly`: also answer soft-deleted objects, marked {@link LiveObject.deleted} (kinds with soft delete). */
  includeDeleted?: boolean;
  /** The desired configs (references resolved) of the resources of this kind the code declares. */
  desired?: readonly Record<string, unknown>[];
  /** Bare, lower-case ids of every object the code declares, imports or removes (all kinds). */
  declaredIds?: ReadonlySet<string>;
  /**
   * True when an id carries the namespace's tag, i.e. the object belongs to the namespace (the
   * engine's identity rule, handed down so handlers need not know it). Absent: none does.
   */
  owns?: (id: string) => boolean;
  /** What the kinds in {@link ResourceHandler.readAfter} read (when they were read in the same pass). */
  before?: LiveObjects;
  /**
   * What another kind reads in the same pass, once it has read it (undefined when that kind is
   * not read): a handler can start what it need not wait for, and wait for the rest.
   */
  readOf?: (type: ResourceType) => Promise<readonly LiveObject[] | undefined>;
}

/** An object as `dqform import` lists it ({@link ResourceHandler.listAll}). */
export interface ListedObject {
  key: string;
  source?: string;
  raw: Record<string, unknown>;
}

export interface ResourceHandler {
  readonly type: ResourceType;
  /** Human label: `alert`, `monitor deployment rule`, ... */
  readonly label: string;
  /** JSON pointers (in normalised form) of write-only values rendered `(sensitive)`. */
  readonly sensitive?: readonly string[];

  /** Kinds whose read must finish before this one's (it finds its objects through theirs). */
  readonly readAfter?: readonly ResourceType[];

  /**
   * Reads live objects with list and batch calls (chunks of 200), never one GET per object:
   * for kinds with configId every object of the workspace (so other namespaces and UI-made
   * ones can be reported as not managed here); for the others, the objects whose id carries the
   * namespace tag plus the given keys, and {@link LiveObject.context} objects a delete of those
   * would take along.
   */
  read(client: PlatformClient, q: ReadQuery): Promise<LiveObject[]>;

  /** The comparable form of a live object (server-computed fields dropped, canonicalised). */
  fromLive(raw: Record<string, unknown>): Record<string, unknown>;
  /** The comparable form of a desired config (same normalisation as `fromLive`). */
  fromDesired(desired: Record<string, unknown>): Record<string, unknown>;
  /** Why going from `before` to `after` cannot be done in place (empty = it can). */
  replaceReasons(before: Record<string, unknown>, after: Record<string, unknown>): string[];

  /** Second-order effects of a change (deploy and delete overviews), if the kind has any. */
  preview?(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<Effects | undefined>;

  /** Creates the object of `change.after` with id/fqn `change.id`; returns the new etag if known. */
  create(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<void>;
  /** Updates in place with the plan's etag where the API takes one. */
  update(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<void>;
  /** Deletes with the plan's etag where the API takes one; 404 is success. */
  delete(client: PlatformClient, change: Change, ctx: HandlerContext): Promise<void>;
  /**
   * Optional batch write for creates and updates (SQL tests, rule deploys). Returns per-address
   * errors; addresses not in the result succeeded.
   */
  writeMany?(client: PlatformClient, changes: Change[], ctx: HandlerContext): Promise<Map<string, Error>>;
  /**
   * Reasons the plan adds to a declared change (write-only values: whether apply sends them,
   * code `secret`: `(secret: rotated)`, `(secret: unchanged, not readable)`).
   */
  notes?(c: Pick<Change, 'action' | 'before' | 'after'>): Reason[];
  /**
   * Remembers what apply needs of the declared resources and the plan does not hold (references
   * of write-only values, read at apply time only); plan calls it with the resolved resources.
   */
  bindDesired?(resources: readonly { address: string; desired: Record<string, unknown> }[], ctx: HandlerContext): void;
  /**
   * Import: every object of the workspace, for kinds whose `read` answers only the namespace's
   * (the `idTag` kinds). `listOf` answers another kind's list (an owner's ownerships).
   */
  listAll?(client: PlatformClient, listOf: (type: ResourceType) => Promise<readonly ListedObject[]>): Promise<ListedObject[]>;
}
