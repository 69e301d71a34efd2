/**
 * Domains v2, data products v2, owners and ownerships v1 (spec 2.6, 4.1; wire-facts sections 7
 * and 7b).
 *
 * Bodies are flat (`body: "*"`): `POST /api/domains/v2 { id, name, ..., etag }`, never
 * `{ domain: {...} }`; a key the operation does not declare is refused (400 naming it). Scopes
 * are wire-facts' any-of sets: writes `SCOPE_<SERVICE>_EDIT` or `SCOPE_MCP_WRITE`, reads
 * `SCOPE_<SERVICE>_READ`, `SCOPE_SRE_AGENT` or `SCOPE_MCP_READ`. Collections: `domains`,
 * `dataproducts`, `owners`, `ownerships`, keyed by the bare UUID (ids are accepted bare or with
 * the `domain-` / `dataproduct-` / `owner-` prefix).
 *
 * Decisions where the spec is silent (also in src/emulator/README.md):
 * - Upsert: an omitted optional field is left unchanged; a present-but-empty definition
 *   replaces. `name` (domains) / `title` (data products, owners) is required on create.
 *   Upserting a soft-deleted id revives it with create semantics.
 * - Definition parts get a server-minted `id` when they have none (`p-` and a hash of the part);
 *   a query part's read form carries `renderedResolverQl` and does not echo `resolverQl`.
 * - A domain's parent and its `domainId` / `dataproductId` members must exist (not deleted):
 *   FAILED_PRECONDITION otherwise. A write that closes a loop in parent or membership references
 *   is FAILED_PRECONDITION with rule id `domain.no_cycle`, the message naming the loop.
 * - Deletes are soft (`deletedAt`) and idempotent (missing or already deleted: 200 `{}`); a
 *   soft-deleted object is answered only with `includeDeleted`. `purge` deletes for good (domains:
 *   refused while live sub-domains exist). An owner's delete also deletes its ownerships.
 * - `source` on domains, products and owners is the platform's 0 = native (default), 1 =
 *   external catalog (`SOURCE_NATIVE` / `SOURCE_EXTERNAL_CATALOG` here); ownerships have none.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { Pagination, type Scope } from '../../../schemas/platform/common';
import type { Query } from '../../../schemas/platform/entities';
import * as W from '../../../schemas/platform/governance';
import { queryToResolverQl } from '../../../schemas/tools/resolverql';
import type { RouteContext, RouteTable, SeedHook } from '../app';
import { failedPrecondition, invalidArgument, notFound, parseBody, withoutPathFields } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';
import { renderResolverQlOrThrow, sortKeys } from './alerts';
import { EmptyResponse } from '../../../schemas/platform/alerts';

/** Stored shapes (the read forms). */
export type DomainRecord = z.output<typeof W.Domain>;
export type DataProductRecord = z.output<typeof W.DataProduct>;
export type OwnerRecord = z.output<typeof W.Owner>;
export type OwnershipRecord = z.output<typeof W.Ownership>;

type GovernanceSource = z.output<typeof W.GovernanceSourceEnum.schema>;
/** wire-facts 7/7b: writes any of the service's EDIT scope or SCOPE_MCP_WRITE; reads any of its READ scope, SCOPE_SRE_AGENT, SCOPE_MCP_READ. */
const SCOPES = {
  domain: { write: ['SCOPE_DOMAIN_EDIT', 'SCOPE_MCP_WRITE'], read: ['SCOPE_DOMAIN_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] },
  dataproduct: { write: ['SCOPE_DATAPRODUCT_EDIT', 'SCOPE_MCP_WRITE'], read: ['SCOPE_DATAPRODUCT_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] },
  owner: { write: ['SCOPE_OWNERS_EDIT', 'SCOPE_MCP_WRITE'], read: ['SCOPE_OWNERS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] },
  ownership: { write: ['SCOPE_OWNERSHIP_EDIT', 'SCOPE_MCP_WRITE'], read: ['SCOPE_OWNERSHIP_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'] },
} as const;

/** Demo seed ids (UI-made objects, SOURCE_APP). */
export const DEMO_DOMAIN_ID = '5eed0000-0000-4000-8000-0000000d0a1a';
export const DEMO_OWNER_ID = '5eed0000-0000-4000-8000-000000000e7a';

/** Strips a `<prefix>-` from an id (`domain-<uuid>` -> `<uuid>`). */
export function bareId(id: string, prefix: 'domain' | 'dataproduct' | 'owner'): string {
  return id.startsWith(`${prefix}-`) ? id.slice(prefix.length + 1) : id;
}

/** Returns the flat `body` with its `id` stripped of the prefix and lower-cased, before validation. */
function normalizeBodyId(body: unknown, prefix: 'domain' | 'dataproduct' | 'owner'): unknown {
  if (!body || typeof body !== 'object') return body;
  const o = body as Record<string, unknown>;
  return typeof o.id === 'string' ? { ...o, id: bareId(o.id, prefix).toLowerCase() } : body;
}

/**
 * The stored (read) form of a query selection: `resolverQl` wins, then `publicQuery`; the read
 * form carries the canonical `renderedResolverQl` (and the `publicQuery` when that was written).
 * `echo` keeps the written `resolverQl` (ownership selections); definition parts do not echo it.
 */
function renderSelection(q: W.QuerySelection & { name?: string }, field: string, op: string, echo: boolean): W.QuerySelection & { name?: string } {
  const named = q.name !== undefined && q.name !== '' ? { name: q.name } : {};
  if (q.resolverQl) {
    const rendered = renderResolverQlOrThrow(q.resolverQl, `${field}.resolverQl`, `${op}.query.resolver_ql`).rendered;
    return { ...named, ...(echo ? { resolverQl: q.resolverQl } : {}), renderedResolverQl: rendered };
  }
  if (q.publicQuery) {
    let rendered: string | undefined;
    try {
      rendered = queryToResolverQl(q.publicQuery as Query);
    } catch {
      rendered = undefined;
    }
    return { ...named, publicQuery: q.publicQuery, ...(rendered !== undefined ? { renderedResolverQl: rendered } : {}) };
  }
  throw invalidArgument(`invalid ${op} request`, [{ field, ruleId: `${op}.query.selection_required`, message: 'a query selection needs resolverQl or publicQuery' }]);
}

/** A part's id: the one written, or one minted from its content (`p-` and 12 hex digits). */
function partId(p: Record<string, unknown>, index: number): string {
  if (typeof p.id === 'string' && p.id !== '') return p.id;
  const { id: _i, ...rest } = p;
  return `p-${createHash('sha256').update(`${index}:${JSON.stringify(rest)}`).digest('hex').slice(0, 12)}`;
}

function deletedIdsOmitted<T extends { deletedAt?: string }>(c: Collection<T>, ids: string[], prefix: 'domain' | 'dataproduct' | 'owner', includeDeleted: boolean): Record<string, Stored<T>> {
  const out: Record<string, Stored<T>> = {};
  for (const id of [...new Set(ids.map((i) => bareId(i, prefix).toLowerCase()))].sort()) {
    const v = c.get(id);
    if (v && (includeDeleted || !v.deletedAt)) out[id] = v;
  }
  return out;
}

/** The `pagination` of a list request's parsed query (`ctx.q`). */
export function pagingOf(ctx: RouteContext): { cursor: string | undefined; pageSize: number | undefined } {
  const p = (ctx.q.pagination ?? {}) as z.output<typeof Pagination>;
  return { cursor: p.cursor || undefined, pageSize: p.pageSize || undefined };
}

// ------------------------------------------------------------------------------------------
// Domains

function domains(store: Store): Collection<DomainRecord> {
  return store.collection<DomainRecord>('domains');
}
function dataproducts(store: Store): Collection<DataProductRecord> {
  return store.collection<DataProductRecord>('dataproducts');
}

/** The ids of the domains (deleted ones included) whose `parentId` is `parent`, in id order: an index kept by the collection. Live: do not hold across a write. */
function domainsUnder(store: Store, parent: string): readonly string[] {
  return domains(store).groupBy('parentId', (d) => d.parentId ?? '').get(parent) ?? [];
}

/**
 * The domains `d` contains directly: its sub-domains (by parentId) and its domainId members,
 * among the live domains with `overrides` applied (a write being checked). Looks up only what
 * the walk visits (an index of domains by parent), not every domain per write.
 */
function containedBy(store: Store, overrides: Map<string, DomainRecord>): (id: string) => string[] {
  const all = domains(store);
  const live = (id: string): DomainRecord | undefined => {
    const o = overrides.get(id);
    if (o) return o;
    const d = all.get(id);
    return d && !d.deletedAt ? d : undefined;
  };
  return (id) => {
    const children: string[] = [];
    if (id !== '') {
      for (const c of domainsUnder(store, id)) if (!overrides.has(c) && live(c)) children.push(c);
      for (const [oid, o] of overrides) if (o.parentId === id) children.push(oid);
    }
    const members = (live(id)?.definition?.parts ?? []).flatMap((p) => (p.domainId ? [p.domainId] : []));
    return [...children, ...members].sort();
  };
}

/** A containment path from `id` back to itself, or undefined. */
function findLoop(start: string, next: (id: string) => string[]): string[] | undefined {
  const seen = new Set<string>();
  const walk = (id: string, path: string[]): string[] | undefined => {
    for (const n of next(id)) {
      if (n === start) return [...path, n];
      if (seen.has(n)) continue;
      seen.add(n);
      const r = walk(n, [...path, n]);
      if (r) return r;
    }
    return undefined;
  };
  return walk(start, [start]);
}

function upsertDomain(ctx: RouteContext): { domain: DomainRecord } {
  const req = parseBody(W.UpsertDomainRequest, normalizeBodyId(ctx.body, 'domain'), 'upsert');
  const w = req;
  const all = domains(ctx.store);
  const stored = all.get(w.id);
  checkEtag(stored, req.etag, `domain ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  if (!current && w.name === undefined) {
    throw invalidArgument('invalid upsert request', [{ field: 'name', ruleId: 'upsert.name.required', message: 'name is required when creating a domain' }]);
  }
  const now = ctx.now().toISOString();
  const parentId = w.parentId === undefined ? current?.parentId : w.parentId === '' ? undefined : bareId(w.parentId, 'domain').toLowerCase();
  let definition = current?.definition;
  if (w.definition !== undefined) {
    definition = {
      parts: w.definition.parts.map((p, i) => {
        const id = partId(p as Record<string, unknown>, i);
        if (p.domainId !== undefined) return { id, domainId: bareId(p.domainId, 'domain').toLowerCase() };
        if (p.dataproductId !== undefined) return { id, dataproductId: bareId(p.dataproductId, 'dataproduct').toLowerCase() };
        if (p.query !== undefined) return { id, query: renderSelection(p.query, `definition.parts[${i}].query`, 'upsert', false) };
        return { id, entityId: p.entityId! };
      }),
    };
  }
  // References must exist.
  if (parentId !== undefined) {
    const parent = all.get(parentId);
    if (!parent || parent.deletedAt) throw failedPrecondition(`domain ${w.id}: parent domain ${parentId} does not exist`, [{ field: 'parentId', ruleId: 'domain.parent_exists', message: `domain ${parentId} does not exist` }]);
  }
  (definition?.parts ?? []).forEach((p, i) => {
    if (p.domainId !== undefined && (p.domainId === w.id ? false : !all.get(p.domainId) || all.get(p.domainId)!.deletedAt)) {
      throw failedPrecondition(`domain ${w.id}: member domain ${p.domainId} does not exist`, [{ field: `definition.parts[${i}].domainId`, ruleId: 'domain.member_exists', message: `domain ${p.domainId} does not exist` }]);
    }
    if (p.dataproductId !== undefined) {
      const dp = dataproducts(ctx.store).get(p.dataproductId);
      if (!dp || dp.deletedAt) throw failedPrecondition(`domain ${w.id}: member data product ${p.dataproductId} does not exist`, [{ field: `definition.parts[${i}].dataproductId`, ruleId: 'domain.member_exists', message: `data product ${p.dataproductId} does not exist` }]);
    }
  });
  const next: DomainRecord = {
    id: w.id,
    name: w.name ?? current!.name,
    ...((w.description ?? current?.description) !== undefined ? { description: w.description ?? current?.description } : {}),
    ...(parentId !== undefined ? { parentId } : {}),
    ...(definition !== undefined ? { definition } : {}),
    source: sourceOf(w.source, current?.source),
    ...authored(current, ctx.principal.subject, now),
  };
  const loop = findLoop(w.id, containedBy(ctx.store, new Map([[w.id, next]])));
  if (loop) {
    throw failedPrecondition(`domain ${w.id}: this write would close a loop in parent or membership references: ${loop.join(' -> ')}`, [
      { field: 'domain', ruleId: 'domain.no_cycle', message: `a domain cannot contain itself: ${loop.join(' -> ')}` },
    ]);
  }
  return { domain: all.put(w.id, sortKeys(next)) };
}

/** Marks `current` deleted (a new version: its etag moves). */
function softDelete<T extends { deletedAt?: string; updatedAt?: string }>(ctx: RouteContext, c: Collection<T>, current: Stored<T>): void {
  const now = ctx.now().toISOString();
  const { etag: _e, ...rest } = current as Stored<T> & { id: string };
  c.put((current as unknown as { id: string }).id, sortKeys({ ...rest, deletedAt: now, updatedAt: now } as unknown as T));
}

/**
 * A soft delete (`purge`: for good), idempotent: missing or already deleted is 200 `{}`. The etag,
 * when given, must match. `beforePurge` may refuse a purge; `onDelete` runs for a delete that
 * happens (cascades).
 */
function deleteSoft<T extends { deletedAt?: string; updatedAt?: string }>(
  ctx: RouteContext,
  c: Collection<T>,
  req: { id: string; purge?: boolean; etag?: string },
  what: string,
  beforePurge?: (id: string) => void,
  onDelete?: (id: string) => void,
): Record<string, never> {
  const current = c.get(req.id);
  if (!current) return {};
  if (current.deletedAt && !req.purge) return {};
  checkEtag(current, req.etag, `${what} ${req.id}`);
  if (req.purge) {
    beforePurge?.(req.id);
    onDelete?.(req.id);
    c.delete(req.id);
    return {};
  }
  onDelete?.(req.id);
  softDelete(ctx, c, current);
  return {};
}

// ------------------------------------------------------------------------------------------
// Data products

function upsertDataProduct(ctx: RouteContext): { dataproduct: DataProductRecord } {
  const req = parseBody(W.UpsertDataProductRequest, normalizeBodyId(ctx.body, 'dataproduct'), 'upsert');
  const w = req;
  const all = dataproducts(ctx.store);
  const stored = all.get(w.id);
  checkEtag(stored, req.etag, `data product ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  if (!current && w.title === undefined) {
    throw invalidArgument('invalid upsert request', [{ field: 'title', ruleId: 'upsert.title.required', message: 'title is required when creating a data product' }]);
  }
  const now = ctx.now().toISOString();
  const pick = <K extends 'description' | 'priority'>(k: K) => (w[k] !== undefined ? w[k] : current?.[k]);
  const folder = w.folder === undefined ? current?.folder : w.folder === '' ? undefined : w.folder;
  let definition = current?.definition;
  if (w.definition !== undefined) {
    definition = {
      parts: w.definition.parts.map((p, i) => {
        const id = partId(p as Record<string, unknown>, i);
        return p.query !== undefined ? { id, query: renderSelection(p.query, `definition.parts[${i}].query`, 'upsert', false) } : { id, entityId: p.entityId! };
      }),
    };
  }
  const next: DataProductRecord = {
    id: w.id,
    entityId: `dataproduct-${w.id}`,
    title: w.title ?? current!.title,
    ...(pick('description') !== undefined ? { description: pick('description') } : {}),
    ...(folder !== undefined ? { folder } : {}),
    ...(pick('priority') !== undefined && pick('priority') !== 'PRIORITY_UNSPECIFIED' ? { priority: pick('priority') } : {}),
    ...(definition !== undefined ? { definition } : {}),
    source: sourceOf(w.source, current?.source),
    ...authored(current, ctx.principal.subject, now),
  };
  return { dataproduct: all.put(w.id, sortKeys(next)) };
}

// ------------------------------------------------------------------------------------------
// Owners and ownerships

function owners(store: Store): Collection<OwnerRecord> {
  return store.collection<OwnerRecord>('owners');
}
function ownerships(store: Store): Collection<OwnershipRecord> {
  return store.collection<OwnershipRecord>('ownerships');
}

/** The stored `source`: the one written, else the stored one, else native (0). */
/** Who wrote a governance object and when: the creator and creation time kept from `current`. */
function authored<C>(current: { createdBy?: C; createdAt?: string } | undefined, subject: C, at: string): { createdBy: C; updatedBy: C; createdAt: string; updatedAt: string } {
  return { createdBy: current?.createdBy ?? subject, updatedBy: subject, createdAt: current?.createdAt ?? at, updatedAt: at };
}

function sourceOf(written: GovernanceSource | undefined, stored: GovernanceSource | undefined): GovernanceSource {
  return written ?? stored ?? 'SOURCE_NATIVE';
}

/** Creates or updates an owner in a store (UpsertOwner and the demo seed). */
export function upsertOwnerIn(store: Store, w: z.output<typeof W.UpsertOwnerRequest>, now: Date, subject: string): Stored<OwnerRecord> {
  const all = owners(store);
  const stored = all.get(w.id);
  checkEtag(stored, w.etag, `owner ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  if (!current && w.title === undefined) {
    throw invalidArgument('invalid upsert_owner request', [{ field: 'title', ruleId: 'upsert_owner.title.required', message: 'title is required when creating an owner' }]);
  }
  const at = now.toISOString();
  const next: OwnerRecord = {
    id: w.id,
    entityId: `owner-${w.id}`,
    title: w.title ?? current!.title,
    contacts: w.contacts !== undefined ? w.contacts.contacts : (current?.contacts ?? []),
    source: sourceOf(w.source, current?.source),
    ...authored(current, subject, at),
  };
  return all.put(w.id, sortKeys(next));
}

/**
 * UpsertOwnership: the owner is the path (`owner_id`); the body is `{ id, selection, alert?,
 * etag?, actor? }`. The request declares `ownerId` (bound to the path): one in the body is
 * accepted and ignored, the path wins even when they differ (wire-facts 1 "path variables").
 */
function upsertOwnership(ctx: RouteContext): { ownership: OwnershipRecord } {
  const ownerId = bareId(ctx.params.owner_id, 'owner').toLowerCase();
  const w = parseBody(W.UpsertOwnershipRequest, withoutPathFields(ctx.body, ['ownerId']), 'upsert_ownership');
  const owner = owners(ctx.store).get(ownerId);
  if (!owner || owner.deletedAt) throw notFound(`owner ${ownerId} not found`);
  const all = ownerships(ctx.store);
  const stored = all.get(w.id);
  checkEtag(stored, w.etag, `ownership ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  const selection = w.selection.query
    ? { query: renderSelection(w.selection.query, 'selection.query', 'upsert_ownership', true) }
    : { dataproductId: bareId(w.selection.dataproductId!, 'dataproduct').toLowerCase() };
  const at = ctx.now().toISOString();
  const next: OwnershipRecord = {
    id: w.id,
    ownerId,
    selection,
    ...(w.alert !== undefined ? { alert: w.alert } : current?.alert !== undefined ? { alert: current.alert } : {}),
    ...authored(current, ctx.principal.subject, at),
  };
  // Owning a data product already owned elsewhere moves it.
  if (selection.dataproductId !== undefined) {
    for (const o of all.filter((x) => x.id !== w.id && !x.deletedAt && x.selection.dataproductId === selection.dataproductId)) all.delete(o.id);
  }
  return { ownership: all.put(w.id, sortKeys(next)) };
}

// ------------------------------------------------------------------------------------------

/** What tells the v2 governance services (domains, data products) apart. */
interface SoftDeletable<T extends { id: string; deletedAt?: string; definition?: unknown }, Q> {
  readonly base: string;
  readonly scopes: { readonly read: readonly Scope[]; readonly write: readonly Scope[] };
  readonly prefix: 'domain' | 'dataproduct';
  readonly label: string;
  /** The key of the objects in batch-get and list responses. */
  readonly many: string;
  collection(store: Store): Collection<T>;
  upsert(ctx: RouteContext): unknown;
  readonly schemas: { readonly upsert: z.ZodType; readonly delete: z.ZodType<{ id: string; purge?: boolean; etag?: string }>; readonly batchGet: z.ZodType; readonly list: z.ZodType; readonly listed: z.ZodType };
  /** Refuses a purge (domains: while sub-domains exist). */
  beforePurge?(ctx: RouteContext, victim: string): void;
  /** The list's filters, besides `includeDeleted`. */
  listed(q: Q): (o: T) => boolean;
}

/** Upsert, soft delete, batch get and list of a v2 governance service (wire-facts: domains, data products). */
function softDeletableRoutes<T extends { id: string; deletedAt?: string; updatedAt?: string; definition?: unknown }, Q extends { includeDeleted?: boolean; excludeDefinition?: boolean }>(k: SoftDeletable<T, Q>): RouteTable {
  function remove(ctx: RouteContext) {
    const req = parseBody(k.schemas.delete, ctx.body, 'delete');
    const id = bareId(req.id, k.prefix).toLowerCase();
    return deleteSoft(ctx, k.collection(ctx.store), { ...req, id }, k.label, k.beforePurge && ((victim) => k.beforePurge!(ctx, victim)));
  }
  function batchGet(ctx: RouteContext) {
    const req = parseBody(W.BatchGetRequest, ctx.body, 'batch_get');
    return { [k.many]: withoutDefinition(deletedIdsOmitted(k.collection(ctx.store), req.ids, k.prefix, req.includeDeleted ?? false), req.excludeDefinition) };
  }
  function list(ctx: RouteContext) {
    const q = ctx.q as Q;
    const p = pagingOf(ctx);
    const keep = k.listed(q);
    const page = k.collection(ctx.store).page(p.cursor, p.pageSize, (o) => (q.includeDeleted || !o.deletedAt) && keep(o));
    return { [k.many]: Object.values(withoutDefinition(Object.fromEntries(page.items.map((o) => [o.id, o])), q.excludeDefinition)), pageInfo: page.pageInfo };
  }
  return [
    { method: 'POST', path: k.base, scope: k.scopes.write, response: k.schemas.upsert, handle: k.upsert },
    { method: 'POST', path: `${k.base}/delete`, scope: k.scopes.write, response: EmptyResponse, handle: remove },
    { method: 'POST', path: `${k.base}/batch-get`, scope: k.scopes.read, response: k.schemas.batchGet, handle: batchGet },
    { method: 'GET', path: k.base, scope: k.scopes.read, operation: 'list', query: k.schemas.list, response: k.schemas.listed, handle: list },
  ];
}

/** Domains v2. */
const DOMAINS: SoftDeletable<DomainRecord, z.output<typeof W.ListDomainsRequest>> = {
  base: '/api/domains/v2',
  scopes: SCOPES.domain,
  prefix: 'domain',
  label: 'domain',
  many: 'domains',
  collection: domains,
  upsert: upsertDomain,
  schemas: { upsert: W.DomainResponse, delete: W.DeleteDomainRequest, batchGet: W.BatchGetDomainsResponse, list: W.ListDomainsRequest, listed: W.ListDomainsResponse },
  beforePurge: (ctx, victim) => {
    const all = domains(ctx.store);
    const subs = domainsUnder(ctx.store, victim).filter((id) => !all.get(id)!.deletedAt);
    if (subs.length) throw failedPrecondition(`domain ${victim} cannot be purged while it has sub-domains: ${subs.join(', ')}`);
  },
  listed: (q: z.output<typeof W.ListDomainsRequest>) => {
    const parent = q.parentId === undefined ? undefined : q.parentId === '' ? '' : bareId(q.parentId, 'domain').toLowerCase();
    return (d) => parent === undefined || (d.parentId ?? '') === parent;
  },
};

/** Data products v2. */
const DATA_PRODUCTS: SoftDeletable<DataProductRecord, z.output<typeof W.ListDataProductsRequest>> = {
  base: '/api/dataproducts/v2',
  scopes: SCOPES.dataproduct,
  prefix: 'dataproduct',
  label: 'data product',
  many: 'dataproducts',
  collection: dataproducts,
  upsert: upsertDataProduct,
  schemas: { upsert: W.DataProductResponse, delete: W.DeleteDataProductRequest, batchGet: W.BatchGetDataProductsResponse, list: W.ListDataProductsRequest, listed: W.ListDataProductsResponse },
  listed: (q: z.output<typeof W.ListDataProductsRequest>) => {
    const priorities = q.priorities && q.priorities.length ? new Set(q.priorities) : undefined;
    return (d) => (q.folder === undefined || (d.folder ?? '') === q.folder) && (!priorities || priorities.has(d.priority ?? 'PRIORITY_UNSPECIFIED'));
  },
};

// Owners v1
function upsertOwner(ctx: RouteContext) {
  const req = parseBody(W.UpsertOwnerRequest, normalizeBodyId(ctx.body, 'owner'), 'upsert_owner');
  return { owner: upsertOwnerIn(ctx.store, req, ctx.now(), ctx.principal.subject) };
}

function deleteOwner(ctx: RouteContext) {
  const req = parseBody(W.DeleteOwnerRequest, ctx.body, 'delete_owner');
  const id = bareId(req.id, 'owner').toLowerCase();
  const os = ownerships(ctx.store);
  return deleteSoft(ctx, owners(ctx.store), { ...req, id }, 'owner', undefined, (victim) => {
    // deleting an owner deletes its ownerships
    for (const o of (os.groupBy('ownerId', (x) => x.ownerId).get(victim) ?? []).map((id) => os.get(id)!).filter((x) => !x.deletedAt)) {
      if (req.purge) os.delete(o.id);
      else softDelete(ctx, os, o);
    }
  });
}

function batchGetOwners(ctx: RouteContext) {
  const req = parseBody(W.BatchGetOwnersRequest, ctx.body, 'batch_get_owners');
  return { owners: deletedIdsOmitted(owners(ctx.store), req.ids, 'owner', req.includeDeleted ?? false) };
}

function listOwners(ctx: RouteContext) {
  const q = ctx.q as z.output<typeof W.ListOwnersRequest>;
  const p = pagingOf(ctx);
  const page = owners(ctx.store).page(p.cursor, p.pageSize, (o) => q.includeDeleted || !o.deletedAt);
  return { owners: page.items, pageInfo: page.pageInfo };
}

// Ownerships v1
function deleteOwnership(ctx: RouteContext) {
  const req = parseBody(W.DeleteOwnershipRequest, ctx.body, 'delete_ownership');
  return deleteSoft(ctx, ownerships(ctx.store), { ...req, purge: false }, 'ownership');
}

function batchGetOwnerships(ctx: RouteContext) {
  const req = parseBody(W.BatchGetOwnershipsRequest, ctx.body, 'batch_get_ownerships');
  const out: Record<string, OwnershipRecord> = {};
  for (const id of [...new Set(req.ids.map((i) => i.toLowerCase()))].sort()) {
    const o = ownerships(ctx.store).get(id);
    if (o && (req.includeDeleted || !o.deletedAt)) out[id] = o;
  }
  return { ownerships: out };
}

function listOwnerships(ctx: RouteContext) {
  const q = ctx.q as z.output<typeof W.ListOwnershipsRequest>;
  const ownerId = bareId(ctx.params.owner_id, 'owner').toLowerCase();
  const owner = owners(ctx.store).get(ownerId);
  if (!owner || (owner.deletedAt && !q.includeDeleted)) throw notFound(`owner ${ownerId} not found`);
  const p = pagingOf(ctx);
  const all = ownerships(ctx.store);
  const ids = all.groupBy('ownerId', (o) => o.ownerId).get(ownerId) ?? [];
  const page = all.pageOf(ids, p.cursor, p.pageSize, (o) => q.includeDeleted === true || !o.deletedAt);
  return { ownerships: page.items, pageInfo: page.pageInfo };
}

/** The domains, data products, owners and ownerships routes. */
export const routes: RouteTable = [
  ...softDeletableRoutes(DOMAINS),
  ...softDeletableRoutes(DATA_PRODUCTS),
  { method: 'POST', path: '/api/owners/v1', scope: SCOPES.owner.write, response: W.OwnerResponse, handle: upsertOwner },
  { method: 'POST', path: '/api/owners/v1/delete', scope: SCOPES.owner.write, response: EmptyResponse, handle: deleteOwner },
  { method: 'POST', path: '/api/owners/v1/batch-get', scope: SCOPES.owner.read, response: W.BatchGetOwnersResponse, handle: batchGetOwners },
  { method: 'GET', path: '/api/owners/v1', scope: SCOPES.owner.read, operation: 'list_owners', query: W.ListOwnersRequest, response: W.ListOwnersResponse, handle: listOwners },
  { method: 'POST', path: '/api/owners/v1/:owner_id/ownerships', scope: SCOPES.ownership.write, response: W.OwnershipResponse, handle: upsertOwnership },
  { method: 'POST', path: '/api/owners/v1/ownerships/delete', scope: SCOPES.ownership.write, response: EmptyResponse, handle: deleteOwnership },
  { method: 'POST', path: '/api/owners/v1/ownerships/batch-get', scope: SCOPES.ownership.read, response: W.BatchGetOwnershipsResponse, handle: batchGetOwnerships },
  { method: 'GET', path: '/api/owners/v1/:owner_id/ownerships', scope: SCOPES.ownership.read, operation: 'list_ownerships', query: W.ListOwnershipsRequest, response: W.ListOwnershipsResponse, handle: listOwnerships },
];

/** The demo seed's objects. */
export const demoSeed: SeedHook = (store, { now }) => {
  const at = now().toISOString();
  // Made in the UI: shown as "not managed here" in plans.
  domains(store).put(
    DEMO_DOMAIN_ID,
    sortKeys<DomainRecord>({
      id: DEMO_DOMAIN_ID,
      name: 'Retail (made in the UI)',
      description: 'Everything about the retail business',
      definition: { parts: [{ id: 'p-seed0001', query: { renderedResolverQl: renderResolverQlOrThrow('in_folder("folder-wh-prod::mart")', 'seed', 'seed').rendered } }] },
      source: 'SOURCE_NATIVE',
      createdBy: 'user:ada@example.com',
      updatedBy: 'user:ada@example.com',
      createdAt: at,
      updatedAt: at,
    }),
  );
  upsertOwnerIn(store, { id: DEMO_OWNER_ID, title: 'Data platform team (made in the UI)', contacts: { contacts: [{ email: { recipientEmails: ['platform@example.com'] } }] } }, now(), 'user:ada@example.com');
};

/** The map with each object's `definition` dropped when `exclude` (`excludeDefinition`). */
function withoutDefinition<T extends { definition?: unknown }>(m: Record<string, T>, exclude: boolean | undefined): Record<string, T> {
  if (!exclude) return m;
  const out: Record<string, T> = {};
  for (const [k, v] of Object.entries(m)) {
    const { definition: _d, ...rest } = v;
    out[k] = rest as T;
  }
  return out;
}
