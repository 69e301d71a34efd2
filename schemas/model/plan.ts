/**
 * The plan: a plain, versioned, deterministic JSON value computed by a pure function of
 * (manifest, live state, server previews). `dqform plan --out` writes it; `dqform apply PLANFILE`
 * reads it back and executes exactly it.
 */
import { z } from 'zod';

export const PLAN_FORMAT_VERSION = 1;

/** A message for a user: what, where, what to do. */
export const Diagnostic = z.object({
  /** `error`: the plan cannot be applied; `warning`: look at this; `info`: for the record (one line). */
  severity: z.enum(['error', 'warning', 'info']),
  summary: z.string(),
  detail: z.string().optional(),
  /** Resource address (`dq_alert.orders`) the diagnostic is about. */
  address: z.string().optional(),
  /** Construct path or `file:line:column` where it was declared. */
  source: z.string().optional(),
  /** Field path inside the resource (`issueLifecycle.targets[0]`). */
  field: z.string().optional(),
  /** What to do next. */
  hint: z.string().optional(),
});
export type Diagnostic = z.infer<typeof Diagnostic>;

/**
 * What a change does. `unmanaged`: a live object this stack does not manage (listed, never
 * written). `forget`: a `removed` declaration with destroy = false: the object is no longer
 * managed and stays in place (Terraform's `forget`); apply writes nothing for it.
 */
export const ACTIONS = ['create', 'update', 'replace', 'delete', 'noop', 'unmanaged', 'forget'] as const;
export const Action = z.enum(ACTIONS);
export type Action = z.infer<typeof Action>;

/** RFC 6902 operation (fast-json-patch). */
export const PatchOp = z.object({
  op: z.enum(['add', 'remove', 'replace', 'move', 'copy', 'test']),
  path: z.string(),
  value: z.unknown().optional(),
  from: z.string().optional(),
});
export type PatchOp = z.infer<typeof PatchOp>;

/** What a related object undergoes when another one is deleted ({@link Cascade}). */
export const CASCADE_EFFECTS = ['deleted', 'loses-parent', 'loses-member', 'loses-selection'] as const;

/**
 * An object the platform changes along with a delete, computed from live state (not from an
 * overview): `deleted` (an owner's ownerships go with it), `loses-parent` (a sub-domain whose
 * parent is deleted), `loses-member` (a domain listing the deleted domain or data product as a
 * member), `loses-selection` (an ownership or product rule selecting the deleted data product).
 */
export const Cascade = z.object({
  effect: z.enum(CASCADE_EFFECTS),
  type: z.string(),
  id: z.string(),
  /** Its name or title (an ownership: what it selects). */
  name: z.string(),
  /** Who manages it: `this namespace`, `namespace "x"`, `another namespace`, `made in the UI`. */
  managedBy: z.string(),
  /** This plan also deletes it. */
  alsoDeleted: z.boolean().default(false),
});
export type Cascade = z.infer<typeof Cascade>;

/** Second-order effects of a change: the platform's deploy and delete overviews, or the cascade of a delete. */
export const Effects = z.object({
  source: z.enum(['deploy-overview', 'delete-overview', 'sql-test-overview', 'sql-test-delete-overview', 'cascade', 'categorisation-preview']),
  monitorsToCreate: z.array(z.string()).default([]),
  monitorsToDelete: z.array(z.string()).default([]),
  activeMonitors: z.number().int().default(0),
  /** Monitor settings changes; `custom` marks a custom monitor's (with the `freshnessField` it resolved, when the platform says). */
  settingsChanges: z
    .array(z.object({ assetPath: z.string(), from: z.string(), to: z.string(), custom: z.literal(true).optional(), freshnessField: z.string().optional() }))
    .default([]),
  /** Monitors whose learned baseline this change wipes. */
  baselineResets: z.array(z.object({ assetPath: z.string(), reason: z.string() })).default([]),
  skipped: z.array(z.object({ assetPath: z.string(), reason: z.string() })).default([]),
  testsToCreate: z.array(z.string()).default([]),
  testsToUpdate: z.array(z.string()).default([]),
  testsToDelete: z.array(z.string()).default([]),
  testsToKeep: z.array(z.string()).default([]),
  /** Deleting a SQL-test rule deletes the history of every test it deployed. */
  losesHistory: z.boolean().default(false),
  /** Categorisation rules (source `categorisation-preview`): checks the rule's matcher selects (creates and updates). */
  checksMatched: z.number().int().optional(),
  /** Checks whose category on the rule's dimension would come from the rule (0 for a delete). */
  checksCategorised: z.number().int().optional(),
  /** Checks whose category changes (a delete: checks that lose the rule's category). */
  categoryChangeCount: z.number().int().optional(),
  /** A few of those, as the platform names them: check, category now ("" none), category after ("" none, or a delete's fallback). */
  categoryChanges: z.array(z.object({ check: z.string(), from: z.string(), to: z.string() })).optional(),
  /** Set when the overview could not be fetched; the plan says so instead of guessing. */
  error: z.string().optional(),
  /**
   * Effects known after apply: the change depends on an object this same plan creates, so the
   * platform cannot preview it yet (why, naming the dependencies). Apply asks for the preview
   * once they exist and writes the change only if it deletes, resets or takes over nothing.
   */
  afterApply: z.string().optional(),
  /** Objects the platform deletes or leaves dangling along with this delete (source `cascade`), sorted by effect, type, name, id. */
  cascade: z.array(Cascade).default([]),
});
export type Effects = z.infer<typeof Effects>;

/**
 * Why a change is what it is, as a code with its data (Terraform's typed action reasons). The
 * planner records these and the model carries only them; the prose is made from them by one
 * function in the views (`reasonText`, src/plan/reasons-text.ts), and the plan file and the
 * public JSON hold it in `reasons` beside the codes for their readers.
 * - `moved`: a moved block (`from`); `imported`: an import block (the kind's `label`, the `id`,
 *   and who had it, `was`, when another namespace or the UI did); `claims`: an unchanged object
 *   that this namespace takes over (`namespace`).
 * - `fixed-field`: a replace because a field fixed at create changes (the kind's `text`);
 *   `replace-requested`: `--replace`; `replaced-with`: the platform deletes it with `address`,
 *   which the plan replaces.
 * - `forget`: removed with destroy = false (`name`; `ours`: this namespace owns it, `tagged`: by
 *   its id's tag); `declared-removed`: removed with destroy = true (`name`); `not-declared`: the
 *   namespace's object the code no longer declares (`name`, `namespace`); `destroy`: a destroy
 *   plan (`namespace`).
 * - `managed-by` (another `namespace`), `made-in-ui`, `not-dqform`, `unmanageable` (the `fields`
 *   this version does not model): why a live object is not managed here. `not-ours-unmanageable`:
 *   an object without the namespace's tag that its kind reads anyway because it can never be
 *   managed (`why`, the kind's words: a platform-provided categorisation rule).
 * - Drift: `drift-absent` (declared, absent live), `drift-replaced` (a normal apply replaces it).
 * - `secret`: what apply does with a write-only value the code gives by reference (`field`, its
 *   path in the desired form): `set` on create, `replaced` (sent to the new object), `rotated`
 *   (its version counter changed: sent again) or `unchanged` (not sent, not readable).
 * - `text`: prose without a code, read from a hand-written plan file whose `reasons` have no
 *   `reasonCodes` (dqform itself never records it).
 */
export const Reason = z.discriminatedUnion('code', [
  z.object({ code: z.literal('moved'), from: z.string() }),
  z.object({ code: z.literal('imported'), label: z.string(), id: z.string(), was: z.string().optional() }),
  z.object({ code: z.literal('claims'), namespace: z.string() }),
  z.object({ code: z.literal('fixed-field'), text: z.string() }),
  z.object({ code: z.literal('replace-requested') }),
  z.object({ code: z.literal('replaced-with'), address: z.string() }),
  z.object({ code: z.literal('forget'), name: z.string(), ours: z.boolean(), tagged: z.boolean() }),
  z.object({ code: z.literal('declared-removed'), name: z.string() }),
  z.object({ code: z.literal('not-declared'), name: z.string(), namespace: z.string() }),
  z.object({ code: z.literal('destroy'), namespace: z.string() }),
  z.object({ code: z.literal('managed-by'), namespace: z.string() }),
  z.object({ code: z.literal('made-in-ui') }),
  z.object({ code: z.literal('not-dqform') }),
  z.object({ code: z.literal('unmanageable'), fields: z.array(z.string()) }),
  z.object({ code: z.literal('not-ours-unmanageable'), why: z.array(z.string()) }),
  z.object({ code: z.literal('drift-absent') }),
  z.object({ code: z.literal('drift-replaced') }),
  z.object({ code: z.literal('secret'), field: z.string(), state: z.enum(['set', 'replaced', 'rotated', 'unchanged']) }),
  z.object({ code: z.literal('text'), text: z.string() }),
]);
export type Reason = z.infer<typeof Reason>;
export type ReasonCode = Reason['code'];

export const Change = z.object({
  address: z.string(),
  type: z.string(),
  /**
   * The object as a person knows it: its kind and name or title (`alert "Orders"`, `owner "Data
   * team"`), an ownership by its owner and what it selects. Absent for unchanged objects and for
   * objects without a name. For display only; `address` and `id` identify the object.
   */
  name: z.string().optional(),
  action: Action,
  /** The platform id (or fqn for alerts) the change acts on. */
  id: z.string(),
  /** Alerts: the fqn. */
  fqn: z.string().optional(),
  /** Normalised live object (null when it does not exist). */
  before: z.unknown().nullable(),
  /** Normalised desired object (null on delete). */
  after: z.unknown().nullable(),
  /** RFC 6902 patch from before to after (updates and replaces). */
  patch: z.array(PatchOp).default([]),
  /** The etag read at plan time; apply refuses when live moved since. */
  etag: z.string().optional(),
  /** A fingerprint of the normalised live object at plan time (for kinds without etags). */
  liveHash: z.string().optional(),
  /** Why, typed (the views make the prose). Absent when there is no reason. */
  reasonCodes: z.array(Reason).optional(),
  effects: Effects.optional(),
  /** Where the object came from when it is adopted or moved. */
  movedFrom: z.string().optional(),
  importedId: z.string().optional(),
  /** JSON pointers (into before/after) whose values are secrets: rendered `(sensitive)`. */
  sensitive: z.array(z.string()).default([]),
  /** Addresses this change must wait for (creates and updates) or that must go first (deletes). */
  dependsOn: z.array(z.string()).default([]),
  /** Where it was declared (construct path or file:line:column). */
  source: z.string().optional(),
});
export type Change = z.infer<typeof Change>;

/** How live state differs from the code ({@link Drift}). */
export const DIFFERENCES = ['changed', 'absent', 'undeclared'] as const;

/**
 * One way live state differs from the code (refresh-only plans, `dqform drift`): what the code
 * says beside what live has, and what a normal plan and apply would do about it. Nothing here is
 * written. `difference`: `changed` (changed outside dqform), `absent` (declared, absent live:
 * deleted outside dqform, or never created), `undeclared` (live, this namespace's, not declared).
 */
export const Drift = z.object({
  /** Never set: a drift entry written before Drift had its own type held a change's `action` (issue 24). */
  action: z.undefined({ error: 'this drift entry was written by an older dqform (a change read backwards, before drift had its own type); plan again with this dqform version' }).optional(),
  address: z.string(),
  type: z.string(),
  name: z.string().optional(),
  difference: z.enum(DIFFERENCES),
  /** What a normal plan and apply would do: update or replace (changed), create (absent), delete (undeclared). */
  remedy: z.enum(['update', 'replace', 'create', 'delete']),
  id: z.string(),
  fqn: z.string().optional(),
  /** What the code declares, normalised (null when it declares nothing). */
  code: z.unknown().nullable(),
  /** What is live, normalised (null when absent). */
  live: z.unknown().nullable(),
  /** RFC 6902 patch from the code's object to live's (`changed` only). */
  patch: z.array(PatchOp).default([]),
  etag: z.string().optional(),
  liveHash: z.string().optional(),
  reasonCodes: z.array(Reason).optional(),
  movedFrom: z.string().optional(),
  importedId: z.string().optional(),
  sensitive: z.array(z.string()).default([]),
  source: z.string().optional(),
});
export type Drift = z.infer<typeof Drift>;

/**
 * How the plan was asked for (Terraform's flags): recorded so that a saved plan says what it
 * is, and so that apply plans again with the same options before its first write.
 * - `destroy`: delete everything the namespace owns (`dqform destroy`, `plan --destroy`).
 * - `refreshOnly`: propose nothing; `drift` lists how live state differs from the code.
 * - `targets`: only these addresses' changes and the changes of what they depend on (partial).
 * - `replace`: addresses forced to be replaced (destroyed, then created anew).
 */
export const PlanRequest = z.object({
  destroy: z.boolean().default(false),
  refreshOnly: z.boolean().default(false),
  targets: z.array(z.string()).default([]),
  replace: z.array(z.string()).default([]),
});
export type PlanRequest = z.infer<typeof PlanRequest>;

/** The request of a plan made without any of Terraform's mode flags. */
export const DEFAULT_REQUEST: PlanRequest = { destroy: false, refreshOnly: false, targets: [], replace: [] };

export const Plan = z.object({
  workspace: z.string(),
  /**
   * The platform the plan read: the host (and port) of its base URL, e.g.
   * `developer.eu.platform.example`. Apply refuses a plan of another platform. Absent in plans
   * computed without a command (the engine's own tests).
   */
  platform: z.string().optional(),
  namespace: z.string(),
  stack: z.string(),
  /** sha256 of the manifest the plan was computed from. */
  manifestHash: z.string(),
  /** The options the plan was made with (absent in plans made before they existed: the defaults). */
  options: PlanRequest.default(DEFAULT_REQUEST),
  changes: z.array(Change),
  /** Refresh-only plans: how live state differs from the code, per object ({@link Drift}); nothing here is written. */
  drift: z.array(Drift).default([]),
  /**
   * Counts by action: `replace` is counted here on its own, and Terraform's summary line
   * (`Plan: 1 to import, 2 to add, 0 to change, 1 to destroy.`) counts it in add and destroy.
   */
  summary: z.object({
    /** Imports that write (an import block whose object is updated or replaced). */
    import: z.number().int().default(0),
    add: z.number().int(),
    change: z.number().int(),
    replace: z.number().int(),
    destroy: z.number().int(),
    unchanged: z.number().int(),
    /** Objects not managed here: `unmanaged` and `forget` changes. */
    unmanaged: z.number().int(),
  }),
  diagnostics: z.array(Diagnostic).default([]),
});
export type Plan = z.infer<typeof Plan>;
