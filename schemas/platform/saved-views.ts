/**
 * Saved views v1 (`savedviews.v1.SavedViewsService`; spec 4.x "saved views", SCOPE_SAVED_VIEW_*;
 * wire-facts 10). Ids are UUIDs chosen by the caller. Every operation is POST with `body: "*"`.
 *
 * The facts name the fields (`title` 1-200, `description`, `context`, `selection`, `config`,
 * `visibility`, `grants: { grants[] <= 200 }`, `etag`) and not their inner shapes; the shapes below
 * are dqform's choice, kept small and read tolerantly (an unknown field, variant or enum value
 * marks the view as not manageable instead of failing the read):
 * - `context`: the screen the view belongs to (free text, e.g. `issues`); also List's filter.
 * - `selection`: what the view shows, as ResolverQL (`{ resolverQl }`).
 * - `config`: how it shows it (`columns`, `sortBy`, `sortDescending`, `groupBy`).
 * - `visibility`: `VISIBILITY_PRIVATE` (its owner and its grantees), `VISIBILITY_WORKSPACE`
 *   (everyone in the workspace).
 * - `grants`: a user (`userEmail`) or a group (`groupId`) and a `permission` (`PERMISSION_VIEW`,
 *   `PERMISSION_EDIT`). The presence wrapper `{ grants: [...] }`: absent keeps, present replaces.
 * Per-user pins (`pinned`, SetPin) are the reader's own state: read, never managed.
 */
import { z } from 'zod';
import { Empty, Etag, PageInfo, Pagination, protoEnum, required, Timestamp, Uuid, withOneof } from './common';
import { defineOperations } from './operation';
import { tolerant } from './wire';

export const VisibilityEnum = protoEnum({ VISIBILITY_UNSPECIFIED: 0, VISIBILITY_PRIVATE: 1, VISIBILITY_WORKSPACE: 2 });
export const Visibility = VisibilityEnum.schema;
export type Visibility = z.infer<typeof Visibility>;

export const GrantPermissionEnum = protoEnum({ PERMISSION_UNSPECIFIED: 0, PERMISSION_VIEW: 1, PERMISSION_EDIT: 2 });

/** List's `scopes[]`: how the caller relates to a view (none given: every view the caller may see). */
export const RelationshipEnum = protoEnum({ RELATIONSHIP_UNSPECIFIED: 0, RELATIONSHIP_OWNED: 1, RELATIONSHIP_SHARED: 2, RELATIONSHIP_WORKSPACE: 3 });

/** Who a view is shared with, and what they may do with it. */
export const SavedViewGrant = withOneof(
  { permission: required(GrantPermissionEnum).describe('PERMISSION_VIEW or PERMISSION_EDIT') },
  {
    userEmail: z.string().min(3).max(320).describe('a user by e-mail'),
    groupId: z.string().min(1).max(200).describe('a group by id'),
  },
);
export type SavedViewGrant = z.infer<typeof SavedViewGrant>;

/** What a view shows; on the wire an empty `selection: {}` clears it (an omitted one is left unchanged). */
export const SavedViewSelection = z.object({
  resolverQl: z.string().min(1).max(20000).optional().describe('what the view shows, as ResolverQL, e.g. with_tag("pii")'),
});
export const SavedViewConfig = z.object({
  columns: z.array(z.string().min(1).max(200)).max(100).optional().describe('the columns shown, in order'),
  sortBy: z.string().min(1).max(200).optional().describe('the column sorted by'),
  sortDescending: z.boolean().optional().describe('sort descending'),
  groupBy: z.string().min(1).max(200).optional().describe('the column grouped by'),
});

/** Upsert fields (flat body): an omitted optional field is left unchanged, an empty one (`""`, `{}`) clears it; `grants` present replaces the grants. */
export const SavedViewWrite = z.object({
  id: Uuid,
  title: z.string().min(1).max(200).optional(),
  description: z.string().max(2000).optional(),
  context: z.string().max(200).optional(),
  selection: SavedViewSelection.optional(),
  config: SavedViewConfig.optional(),
  visibility: Visibility.optional(),
  grants: z.object({ grants: z.array(SavedViewGrant).max(200) }).optional(),
});
export type SavedViewWrite = z.infer<typeof SavedViewWrite>;

export const SavedView = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string().optional(),
  context: z.string().optional(),
  selection: SavedViewSelection.optional(),
  config: SavedViewConfig.optional(),
  visibility: Visibility.optional(),
  grants: z.array(SavedViewGrant).default([]),
  /** Output: the view's owner (its creator), e.g. `user:ada@example.com`. */
  ownerId: z.string().optional(),
  /** Output: pinned to the caller's main screen (the caller's own state; never managed). */
  pinned: z.boolean().optional(),
  etag: Etag.optional(),
  createdAt: Timestamp.optional(),
  updatedAt: Timestamp.optional(),
});
export type SavedView = z.infer<typeof SavedView>;

// ---- requests and responses ----

/** Upsert POST `/api/saved-views/v1`: `{ id, title?, description?, context?, selection?, config?, visibility?, grants?, etag? }`. */
export const UpsertSavedViewRequest = SavedViewWrite.extend({ etag: Etag.optional() });
export const SavedViewResponse = z.object({ view: SavedView });
/** Delete POST `/api/saved-views/v1/delete`: `{ id, etag? }`. */
export const DeleteSavedViewRequest = z.object({ id: z.string().min(1), etag: Etag.optional() });
/** BatchGet POST `/api/saved-views/v1/batch-get`: `{ ids }` (1-200 UUIDs, unique). */
export const BatchGetSavedViewsRequest = z.object({ ids: z.array(Uuid).min(1).max(200).refine((a) => new Set(a).size === a.length, 'ids must be unique') });
export const BatchGetSavedViewsResponse = z.object({ views: z.record(z.string(), tolerant(SavedView)).default({}) });
/** List POST `/api/saved-views/v1/list`: `{ scopes[]?, context?, onlyPinned?, pagination? }`. */
export const ListSavedViewsRequest = z.object({
  scopes: z.array(RelationshipEnum.schema).optional(),
  context: z.string().optional(),
  onlyPinned: z.boolean().optional(),
  pagination: Pagination.optional(),
});
export const ListSavedViewsResponse = z.object({ views: z.array(tolerant(SavedView)).default([]), pageInfo: PageInfo.optional() });
/** SetPin POST `/api/saved-views/v1/set-pin`: `{ id, pinned }` (the caller's own pin; read scope). */
export const SetPinRequest = z.object({ id: Uuid, pinned: z.boolean().optional() });

const VIEWS = '/api/saved-views/v1';
const WRITE = ['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE'] as const;
const READ = ['SCOPE_SAVED_VIEW_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] as const;

/**
 * Saved views v1 (`client.savedViews`): caller-chosen UUIDs; upsert leaves omitted optional
 * fields unchanged; delete is hard. Every call is POST with a flat body. Routes: ROUTES.md.
 */
export const savedViewsOperations = defineOperations({
  /** Upsert `{ id, ...fields, grants?: { grants }, etag? }` -> the view. */
  upsert: { method: 'POST', path: VIEWS, request: UpsertSavedViewRequest, response: SavedViewResponse, scopes: WRITE, idempotent: true, args: ['...', 'etag?'], read: { field: 'view' } },
  /** Delete `{ id, etag? }`. */
  delete: { method: 'POST', path: `${VIEWS}/delete`, request: DeleteSavedViewRequest, response: Empty, scopes: WRITE, idempotent: true, args: ['id', 'etag?'], read: 'none' },
  /** BatchGet `{ ids }` in chunks of 200 -> map keyed by id (unknown and invisible ids absent). */
  batchGet: { method: 'POST', path: `${VIEWS}/batch-get`, request: BatchGetSavedViewsRequest, response: BatchGetSavedViewsResponse, scopes: READ, idempotent: true, args: ['ids'], read: { batchGet: 'views' } },
  /** List `{ scopes?, context?, onlyPinned?, pagination }`: every page of the views the caller may see. */
  list: { method: 'POST', path: `${VIEWS}/list`, request: ListSavedViewsRequest, response: ListSavedViewsResponse, scopes: READ, idempotent: true, args: ['pageSize?', '...?'], read: { paged: 'views' } },
});
