/**
 * Saved views v1 (spec part 4 "saved views", SCOPE_SAVED_VIEW_READ / EDIT / ADMIN and note 8;
 * wire-facts 10). Every operation is POST with a flat body; the collection `savedViews` is keyed by
 * the bare, lower-case UUID.
 *
 * - Upsert: an omitted optional field is left unchanged, an empty one (`""`, `{}`) clears it;
 *   `grants: { grants }` present replaces the grants. `title` is required on create. A create
 *   makes the caller the view's owner (`ownerId`, its subject); `visibility` defaults to
 *   `VISIBILITY_PRIVATE`. The etag, when given, must match (ABORTED).
 * - Who may write (note 8): SCOPE_SAVED_VIEW_ADMIN any view of the workspace; SCOPE_SAVED_VIEW_EDIT
 *   and SCOPE_MCP_WRITE the caller's own views and those granted to it with `PERMISSION_EDIT`;
 *   another's view is PERMISSION_DENIED.
 * - Who may read: the owner, the grantees (a grant's `userEmail` naming the caller's client id),
 *   everyone for `VISIBILITY_WORKSPACE`, and SCOPE_SAVED_VIEW_ADMIN every view. BatchGet omits the
 *   ids the caller cannot see or that do not exist (spec 7); List answers what it can see, filtered
 *   by `scopes[]` (owned, shared with it, workspace-wide), `context` and `onlyPinned`.
 * - Delete: hard; a missing (or invisible) id is NOT_FOUND; the etag, when given, must match.
 * - SetPin: the caller's own pin (read scope), answered as `pinned` on the caller's reads only.
 */
import type { z } from 'zod';
import * as W from '../../../schemas/platform/saved-views';
import { EmptyResponse } from '../../../schemas/platform/alerts';
import type { Principal } from '../auth';
import type { RouteContext, RouteTable } from '../app';
import { routeOf } from '../operations';
import { invalidArgument, notFound, parseBody, permissionDenied } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';
import { sortKeys } from './alerts';

/** A stored view: the read form without the caller's `pinned`. */
export type SavedViewRecord = Omit<z.output<typeof W.SavedViewResponse>['view'], 'pinned'>;

const ADMIN = 'SCOPE_SAVED_VIEW_ADMIN';

function views(store: Store): Collection<SavedViewRecord> {
  return store.collection<SavedViewRecord>('savedViews');
}
/** Pins: `<subject> <view id>` -> marker. */
function pins(store: Store): Collection<{ id: string }> {
  return store.collection<{ id: string }>('savedViewPins');
}
const pinKey = (p: Principal, id: string) => `${p.subject} ${id}`;

const isAdmin = (p: Principal) => p.scopes.includes(ADMIN);
const granted = (v: SavedViewRecord, p: Principal) => (v.grants ?? []).filter((g) => g.userEmail === p.clientId);

/** The caller may see the view. */
export function canSee(v: SavedViewRecord, p: Principal): boolean {
  return isAdmin(p) || v.ownerId === p.subject || v.visibility === 'VISIBILITY_WORKSPACE' || granted(v, p).length > 0;
}

/** The caller may change or delete the view (note 8: edit covers its own views, admin all). */
function mayWrite(v: SavedViewRecord, p: Principal): boolean {
  return isAdmin(p) || v.ownerId === p.subject || granted(v, p).some((g) => g.permission === 'PERMISSION_EDIT');
}

function refuseWrite(v: SavedViewRecord, p: Principal, op: string): void {
  if (!mayWrite(v, p)) throw permissionDenied(`saved view ${v.id} belongs to ${v.ownerId ?? 'another user'}: ${op} it needs ${ADMIN} (SCOPE_SAVED_VIEW_EDIT covers the caller's own views)`, ADMIN);
}

/** The read form for the caller: its own pin added. */
function asRead(store: Store, v: Stored<SavedViewRecord>, p: Principal): W.SavedView {
  return pins(store).has(pinKey(p, v.id)) ? { ...v, pinned: true } : v;
}

function upsert(ctx: RouteContext): { view: W.SavedView } {
  const w = parseBody(W.UpsertSavedViewRequest, ctx.body, 'upsert');
  const id = w.id.toLowerCase();
  const all = views(ctx.store);
  const current = all.get(id);
  if (current) refuseWrite(current, ctx.principal, 'writing');
  checkEtag(current, w.etag, `saved view ${id}`);
  if (!current && w.title === undefined) {
    throw invalidArgument('invalid upsert request', [{ field: 'title', ruleId: 'upsert.title.required', message: 'title is required when creating a saved view' }]);
  }
  const at = ctx.now().toISOString();
  const pick = <K extends 'description' | 'context'>(k: K) => {
    const v = w[k] !== undefined ? w[k] : current?.[k];
    return v === undefined || v === '' ? {} : { [k]: v };
  };
  const selection = w.selection !== undefined ? w.selection : current?.selection;
  const config = w.config !== undefined ? w.config : current?.config;
  const next: SavedViewRecord = {
    id,
    title: w.title ?? current!.title,
    ...pick('description'),
    ...pick('context'),
    ...(selection && selection.resolverQl ? { selection } : {}),
    ...(config && Object.values(config).some((x) => x !== undefined) ? { config } : {}),
    visibility: w.visibility !== undefined && w.visibility !== 'VISIBILITY_UNSPECIFIED' ? w.visibility : (current?.visibility ?? 'VISIBILITY_PRIVATE'),
    grants: w.grants !== undefined ? w.grants.grants : (current?.grants ?? []),
    ownerId: current?.ownerId ?? ctx.principal.subject,
    createdAt: current?.createdAt ?? at,
    updatedAt: at,
  };
  const stored = all.put(id, sortKeys(next));
  return { view: asRead(ctx.store, stored, ctx.principal) };
}

function deleteView(ctx: RouteContext) {
  const req = parseBody(W.DeleteSavedViewRequest, ctx.body, 'delete');
  const id = req.id.toLowerCase();
  const all = views(ctx.store);
  const current = all.get(id);
  if (!current || !canSee(current, ctx.principal)) throw notFound(`saved view ${id} not found`);
  refuseWrite(current, ctx.principal, 'deleting');
  checkEtag(current, req.etag, `saved view ${id}`);
  all.delete(id);
  for (const k of pins(ctx.store).ids().filter((k) => k.endsWith(` ${id}`))) pins(ctx.store).delete(k);
  return {};
}

function batchGet(ctx: RouteContext) {
  const req = parseBody(W.BatchGetSavedViewsRequest, ctx.body, 'batch_get');
  const out: Record<string, W.SavedView> = {};
  for (const id of [...new Set(req.ids.map((i) => i.toLowerCase()))].sort()) {
    const v = views(ctx.store).get(id);
    if (v && canSee(v, ctx.principal)) out[id] = asRead(ctx.store, v, ctx.principal);
  }
  return { views: out };
}

function list(ctx: RouteContext) {
  const req = parseBody(W.ListSavedViewsRequest, ctx.body, 'list');
  const p = ctx.principal;
  const rel = new Set((req.scopes ?? []).filter((s) => s !== 'RELATIONSHIP_UNSPECIFIED'));
  const related = (v: SavedViewRecord) =>
    rel.size === 0 ||
    (rel.has('RELATIONSHIP_OWNED') && v.ownerId === p.subject) ||
    (rel.has('RELATIONSHIP_SHARED') && granted(v, p).length > 0) ||
    (rel.has('RELATIONSHIP_WORKSPACE') && v.visibility === 'VISIBILITY_WORKSPACE');
  const page = views(ctx.store).page(req.pagination?.cursor || undefined, req.pagination?.pageSize || undefined, (v) =>
    canSee(v, p) && related(v) && (req.context === undefined || req.context === '' || v.context === req.context) && (!req.onlyPinned || pins(ctx.store).has(pinKey(p, v.id))),
  );
  return { views: page.items.map((v) => asRead(ctx.store, v, p)), pageInfo: page.pageInfo };
}

function setPin(ctx: RouteContext) {
  const req = parseBody(W.SetPinRequest, ctx.body, 'set_pin');
  const id = req.id.toLowerCase();
  const v = views(ctx.store).get(id);
  if (!v || !canSee(v, ctx.principal)) throw notFound(`saved view ${id} not found`);
  const key = pinKey(ctx.principal, id);
  if (req.pinned) pins(ctx.store).put(key, { id: key });
  else pins(ctx.store).delete(key);
  return {};
}

/** The saved views v1 routes. */
export const routes: RouteTable = [
  routeOf(W.savedViewsOperations.upsert, upsert),
  routeOf(W.savedViewsOperations.delete, deleteView),
  routeOf(W.savedViewsOperations.batchGet, batchGet),
  routeOf(W.savedViewsOperations.list, list),
  // not called by dqform (pins are the reader's own state), so not a row of the client's table
  { method: 'POST', path: '/api/saved-views/v1/set-pin', scope: W.savedViewsOperations.list.scopes, response: EmptyResponse, handle: setPin },
];
