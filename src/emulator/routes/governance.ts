/**
 * Domains v2, data products v2, owners and ownerships v1 (spec 2.6, 4.1; upstream facts
 * "Domains v2, data products v2" and "Owners and ownerships v1").
 *
 * Writes need SCOPE_MCP_WRITE, reads SCOPE_ENTITY_READ (README table) or SCOPE_MCP_WRITE (the
 * client's ROUTES.md choice). Collections:
 * `domains`, `dataproducts`, `owners`, `ownerships`, keyed by the bare UUID (ids are accepted
 * bare or with the `domain-` / `dataproduct-` / `owner-` prefix).
 *
 * Decisions where the spec is silent (also in src/emulator/README.md):
 * - Upsert: an omitted optional field is left unchanged; a present-but-empty definition
 *   replaces. `name` (domains) / `title` (data products, owners) is required on create.
 *   Upserting a soft-deleted id revives it with create semantics.
 * - A domain's parent and its `domainId` / `dataproductId` members must exist (not deleted):
 *   FAILED_PRECONDITION otherwise. A write that closes a loop in parent or membership references
 *   is FAILED_PRECONDITION with rule id `domain.no_cycle`, the message naming the loop.
 * - Domain and data product deletes are soft (`deletedAt`), idempotent (missing or already
 *   deleted: 200 `{}`); `purge` deletes for good, refused (FAILED_PRECONDITION) while live
 *   sub-domains exist. Owner and ownership deletes are hard and idempotent; an owner's delete
 *   removes its ownerships.
 * - List paging: GET query parameters `pagination.cursor` and `pagination.pageSize`
 *   (also `cursor` / `pageSize`); answers `{ <items>, pageInfo { count, lastId } }`.
 */
import { z } from 'zod';
import { Source } from '../../../schemas/common';
import {
  BatchGetRequest,
  DataProduct,
  DeleteDataProductRequest,
  DeleteDomainRequest,
  DeleteOwnerRequest,
  DeleteOwnershipRequest,
  Domain,
  Owner,
  Ownership,
  UpsertDataProductRequest,
  UpsertDomainRequest,
  UpsertOwnershipRequest,
  UpsertOwnerRequest,
  type QuerySelection,
} from '../../../schemas/governance';
import type { EmulatorApp, RouteContext } from '../app';
import { failedPrecondition, invalidArgument, notFound, parseBody } from '../errors';
import { checkEtag, type Collection, type Store, type Stored } from '../store';
import { renderResolverQlOrThrow, sortKeys } from './alerts';

/** Stored shapes (the read forms). */
export type DomainRecord = z.output<typeof Domain>;
export type DataProductRecord = z.output<typeof DataProduct>;
export type OwnerRecord = z.output<typeof Owner>;
export type OwnershipRecord = z.output<typeof Ownership>;

const WRITE = 'SCOPE_MCP_WRITE' as const;
/** Reads: SCOPE_ENTITY_READ (README table) or SCOPE_MCP_WRITE (as src/client/services/ROUTES.md). */
const READ = ['SCOPE_ENTITY_READ', 'SCOPE_MCP_WRITE'] as const;

/** Demo seed ids (UI-made objects, SOURCE_APP). */
export const DEMO_DOMAIN_ID = '5eed0000-0000-4000-8000-0000000d0a1a';
export const DEMO_OWNER_ID = '5eed0000-0000-4000-8000-000000000e7a';

/** Strips a `<prefix>-` from an id (`domain-<uuid>` -> `<uuid>`). */
export function bareId(id: string, prefix: 'domain' | 'dataproduct' | 'owner'): string {
  return id.startsWith(`${prefix}-`) ? id.slice(prefix.length + 1) : id;
}

/** Returns `body` with `body[key].id` (and `extra` fields of it) stripped of the prefix, before validation. */
function normalizeBodyId(body: unknown, key: string, prefix: 'domain' | 'dataproduct' | 'owner'): unknown {
  if (!body || typeof body !== 'object') return body;
  const inner = (body as Record<string, unknown>)[key];
  if (!inner || typeof inner !== 'object') return body;
  const o = inner as Record<string, unknown>;
  return { ...body, [key]: { ...o, ...(typeof o.id === 'string' ? { id: bareId(o.id, prefix).toLowerCase() } : {}) } };
}

function renderSelection(q: QuerySelection, field: string, op: string): QuerySelection {
  return { resolverQl: q.resolverQl, renderedResolverQl: renderResolverQlOrThrow(q.resolverQl, `${field}.resolverQl`, `${op}.query.resolver_ql`).rendered };
}

function deletedIdsOmitted<T extends { deletedAt?: string }>(c: Collection<T>, ids: string[], prefix: 'domain' | 'dataproduct' | 'owner', includeDeleted: boolean): Record<string, Stored<T>> {
  const out: Record<string, Stored<T>> = {};
  for (const id of [...new Set(ids.map((i) => bareId(i, prefix).toLowerCase()))].sort()) {
    const v = c.get(id);
    if (v && (includeDeleted || !v.deletedAt)) out[id] = v;
  }
  return out;
}

/** Reads `pagination.cursor` / `pagination.pageSize` (or `cursor` / `pageSize`) from the query. */
export function pagingOf(ctx: RouteContext): { cursor: string | undefined; pageSize: number | undefined } {
  const cursor = ctx.query.get('pagination.cursor') ?? ctx.query.get('cursor') ?? undefined;
  const raw = ctx.query.get('pagination.pageSize') ?? ctx.query.get('pageSize') ?? undefined;
  if (raw !== undefined && raw !== '' && !/^\d+$/.test(raw)) {
    throw invalidArgument('invalid list request', [{ field: 'pagination.pageSize', ruleId: 'list.pagination.page_size', message: `must be a non-negative integer; got "${raw}"` }]);
  }
  return { cursor: cursor || undefined, pageSize: raw ? Number(raw) : undefined };
}

// ------------------------------------------------------------------------------------------
// Domains

function domains(store: Store): Collection<DomainRecord> {
  return store.collection<DomainRecord>('domains');
}
function dataproducts(store: Store): Collection<DataProductRecord> {
  return store.collection<DataProductRecord>('dataproducts');
}

/** The domains `d` contains directly: its sub-domains (by parentId) and its domainId members. */
function containedBy(store: Store, overrides: Map<string, DomainRecord>): (id: string) => string[] {
  const children = new Map<string, string[]>();
  const live = new Map<string, DomainRecord>();
  for (const d of domains(store).values()) if (!d.deletedAt) live.set(d.id, d);
  for (const [id, d] of overrides) live.set(id, d);
  for (const d of live.values()) {
    if (d.parentId) children.set(d.parentId, [...(children.get(d.parentId) ?? []), d.id]);
  }
  return (id) => {
    const d = live.get(id);
    const members = (d?.definition?.parts ?? []).flatMap((p) => (p.domainId ? [p.domainId] : []));
    return [...(children.get(id) ?? []), ...members].sort();
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
  const raw = normalizeBodyId(ctx.body, 'domain', 'domain');
  const req = parseBody(UpsertDomainRequest, raw, 'upsert');
  const w = req.domain;
  const all = domains(ctx.store);
  const stored = all.get(w.id);
  checkEtag(stored, req.etag, `domain ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  if (!current && w.name === undefined) {
    throw invalidArgument('invalid upsert request', [{ field: 'domain.name', ruleId: 'upsert.domain.name.required', message: 'name is required when creating a domain' }]);
  }
  const now = ctx.now().toISOString();
  const parentId = w.parentId === undefined ? current?.parentId : w.parentId === '' ? undefined : bareId(w.parentId, 'domain').toLowerCase();
  let definition = current?.definition;
  if (w.definition !== undefined) {
    definition = {
      parts: w.definition.parts.map((p, i) => {
        if (p.domainId !== undefined) return { domainId: bareId(p.domainId, 'domain').toLowerCase() };
        if (p.dataproductId !== undefined) return { dataproductId: bareId(p.dataproductId, 'dataproduct').toLowerCase() };
        if (p.query !== undefined) return { query: renderSelection(p.query, `domain.definition.parts[${i}].query`, 'upsert') };
        return { entityId: p.entityId! };
      }),
    };
  }
  // References must exist.
  if (parentId !== undefined) {
    const parent = all.get(parentId);
    if (!parent || parent.deletedAt) throw failedPrecondition(`domain ${w.id}: parent domain ${parentId} does not exist`, [{ field: 'domain.parentId', ruleId: 'domain.parent_exists', message: `domain ${parentId} does not exist` }]);
  }
  (definition?.parts ?? []).forEach((p, i) => {
    if (p.domainId !== undefined && (p.domainId === w.id ? false : !all.get(p.domainId) || all.get(p.domainId)!.deletedAt)) {
      throw failedPrecondition(`domain ${w.id}: member domain ${p.domainId} does not exist`, [{ field: `domain.definition.parts[${i}].domainId`, ruleId: 'domain.member_exists', message: `domain ${p.domainId} does not exist` }]);
    }
    if (p.dataproductId !== undefined) {
      const dp = dataproducts(ctx.store).get(p.dataproductId);
      if (!dp || dp.deletedAt) throw failedPrecondition(`domain ${w.id}: member data product ${p.dataproductId} does not exist`, [{ field: `domain.definition.parts[${i}].dataproductId`, ruleId: 'domain.member_exists', message: `data product ${p.dataproductId} does not exist` }]);
    }
  });
  const next: DomainRecord = {
    id: w.id,
    name: w.name ?? current!.name,
    ...((w.description ?? current?.description) !== undefined ? { description: w.description ?? current?.description } : {}),
    ...(parentId !== undefined ? { parentId } : {}),
    ...(definition !== undefined ? { definition } : {}),
    source: current?.source ?? 'SOURCE_API',
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
  };
  const loop = findLoop(w.id, containedBy(ctx.store, new Map([[w.id, next]])));
  if (loop) {
    throw failedPrecondition(`domain ${w.id}: this write would close a loop in parent or membership references: ${loop.join(' -> ')}`, [
      { field: 'domain', ruleId: 'domain.no_cycle', message: `a domain cannot contain itself: ${loop.join(' -> ')}` },
    ]);
  }
  return { domain: all.put(w.id, sortKeys(next)) };
}

function deleteSoft<T extends { deletedAt?: string; updatedAt?: string }>(
  ctx: RouteContext,
  c: Collection<T>,
  req: { id: string; purge?: boolean; etag?: string },
  what: string,
  beforePurge?: (id: string) => void,
): Record<string, never> {
  const current = c.get(req.id);
  if (!current) return {};
  if (current.deletedAt && !req.purge) return {};
  checkEtag(current, req.etag, `${what} ${req.id}`);
  if (req.purge) {
    beforePurge?.(req.id);
    c.delete(req.id);
    return {};
  }
  const now = ctx.now().toISOString();
  const { etag: _e, ...rest } = current as Stored<T>;
  c.put(req.id, sortKeys({ ...rest, deletedAt: now, updatedAt: now } as unknown as T));
  return {};
}

// ------------------------------------------------------------------------------------------
// Data products

function upsertDataProduct(ctx: RouteContext): { dataproduct: DataProductRecord } {
  const raw = normalizeBodyId(ctx.body, 'dataproduct', 'dataproduct');
  const req = parseBody(UpsertDataProductRequest, raw, 'upsert');
  const w = req.dataproduct;
  const all = dataproducts(ctx.store);
  const stored = all.get(w.id);
  checkEtag(stored, req.etag, `data product ${w.id}`);
  const current = stored && !stored.deletedAt ? stored : undefined;
  if (!current && w.title === undefined) {
    throw invalidArgument('invalid upsert request', [{ field: 'dataproduct.title', ruleId: 'upsert.dataproduct.title.required', message: 'title is required when creating a data product' }]);
  }
  const now = ctx.now().toISOString();
  const pick = <K extends 'description' | 'priority'>(k: K) => (w[k] !== undefined ? w[k] : current?.[k]);
  const folder = w.folder === undefined ? current?.folder : w.folder === '' ? undefined : w.folder;
  let definition = current?.definition;
  if (w.definition !== undefined) {
    definition = {
      parts: w.definition.parts.map((p, i) => (p.query !== undefined ? { query: renderSelection(p.query, `dataproduct.definition.parts[${i}].query`, 'upsert') } : { entityId: p.entityId! })),
    };
  }
  const next: DataProductRecord = {
    id: w.id,
    entityId: `dataproduct-${w.id}`,
    title: w.title ?? current!.title,
    ...(pick('description') !== undefined ? { description: pick('description') } : {}),
    ...(folder !== undefined ? { folder } : {}),
    ...(pick('priority') !== undefined ? { priority: pick('priority') } : {}),
    ...(definition !== undefined ? { definition } : {}),
    source: current?.source ?? 'SOURCE_API',
    createdAt: current?.createdAt ?? now,
    updatedAt: now,
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

/** Creates or updates an owner in a store (UpsertOwner and the demo seed). */
export function upsertOwnerIn(
  store: Store,
  w: z.output<typeof UpsertOwnerRequest>['owner'],
  etag: string | undefined,
  now: Date,
  source: z.output<typeof Source> = 'SOURCE_API',
): Stored<OwnerRecord> {
  const all = owners(store);
  const current = all.get(w.id);
  checkEtag(current, etag, `owner ${w.id}`);
  if (!current && w.title === undefined) {
    throw invalidArgument('invalid upsert_owner request', [{ field: 'owner.title', ruleId: 'upsert_owner.owner.title.required', message: 'title is required when creating an owner' }]);
  }
  const at = now.toISOString();
  const next: OwnerRecord = {
    id: w.id,
    entityId: `owner-${w.id}`,
    title: w.title ?? current!.title,
    contacts: w.contacts !== undefined ? w.contacts.contacts : (current?.contacts ?? []),
    source: current?.source ?? source,
    createdAt: current?.createdAt ?? at,
    updatedAt: at,
  };
  return all.put(w.id, sortKeys(next));
}

function upsertOwnership(ctx: RouteContext): { ownership: OwnershipRecord } {
  const ownerId = bareId(ctx.params.owner_id, 'owner').toLowerCase();
  const body = (ctx.body ?? {}) as Record<string, unknown>;
  const inner = (body.ownership ?? {}) as Record<string, unknown>;
  if (typeof inner.ownerId === 'string' && bareId(inner.ownerId, 'owner').toLowerCase() !== ownerId) {
    throw invalidArgument('invalid upsert_ownership request', [
      { field: 'ownership.ownerId', ruleId: 'upsert_ownership.ownership.owner_id', message: `ownership.ownerId ${inner.ownerId} differs from the path's owner ${ownerId}` },
    ]);
  }
  const req = parseBody(UpsertOwnershipRequest, { ...body, ownership: { ...inner, ownerId } }, 'upsert_ownership');
  if (!owners(ctx.store).get(ownerId)) throw notFound(`owner ${ownerId} not found`);
  const w = req.ownership;
  const all = ownerships(ctx.store);
  const current = all.get(w.id);
  checkEtag(current, req.etag, `ownership ${w.id}`);
  const selection = w.selection.query
    ? { query: renderSelection(w.selection.query, 'ownership.selection.query', 'upsert_ownership') }
    : { dataproductId: bareId(w.selection.dataproductId!, 'dataproduct').toLowerCase() };
  const at = ctx.now().toISOString();
  const next: OwnershipRecord = {
    id: w.id,
    ownerId,
    selection,
    ...(w.alert !== undefined ? { alert: w.alert } : current?.alert !== undefined ? { alert: current.alert } : {}),
    source: current?.source ?? 'SOURCE_API',
    createdAt: current?.createdAt ?? at,
    updatedAt: at,
  };
  // Owning a data product already owned elsewhere moves it.
  if (selection.dataproductId !== undefined) {
    for (const o of all.filter((x) => x.id !== w.id && x.selection.dataproductId === selection.dataproductId)) all.delete(o.id);
  }
  return { ownership: all.put(w.id, sortKeys(next)) };
}

// ------------------------------------------------------------------------------------------

/** Registers the domains, data products, owners and ownerships routes and the demo seed. */
export function register(app: EmulatorApp): void {
  // Domains v2
  app.route('POST', '/api/domains/v2', { scope: WRITE }, (ctx) => upsertDomain(ctx));
  app.route('POST', '/api/domains/v2/delete', { scope: WRITE }, (ctx) => {
    const req = parseBody(DeleteDomainRequest, ctx.body, 'delete');
    const id = bareId(req.id, 'domain').toLowerCase();
    return deleteSoft(ctx, domains(ctx.store), { ...req, id }, 'domain', (victim) => {
      const subs = domains(ctx.store).filter((d) => d.parentId === victim && !d.deletedAt).map((d) => d.id);
      if (subs.length) throw failedPrecondition(`domain ${victim} cannot be purged while it has sub-domains: ${subs.join(', ')}`);
    });
  });
  app.route('POST', '/api/domains/v2/batch-get', { scope: READ }, (ctx) => {
    const req = parseBody(BatchGetRequest, ctx.body, 'batch_get');
    return { domains: deletedIdsOmitted(domains(ctx.store), req.ids, 'domain', req.includeDeleted ?? false) };
  });
  app.route('GET', '/api/domains/v2', { scope: READ }, (ctx) => {
    const p = pagingOf(ctx);
    const page = domains(ctx.store).page(p.cursor, p.pageSize, (d) => !d.deletedAt);
    return { domains: page.items, pageInfo: page.pageInfo };
  });

  // Data products v2
  app.route('POST', '/api/dataproducts/v2', { scope: WRITE }, (ctx) => upsertDataProduct(ctx));
  app.route('POST', '/api/dataproducts/v2/delete', { scope: WRITE }, (ctx) => {
    const req = parseBody(DeleteDataProductRequest, ctx.body, 'delete');
    return deleteSoft(ctx, dataproducts(ctx.store), { ...req, id: bareId(req.id, 'dataproduct').toLowerCase() }, 'data product');
  });
  app.route('POST', '/api/dataproducts/v2/batch-get', { scope: READ }, (ctx) => {
    const req = parseBody(BatchGetRequest, ctx.body, 'batch_get');
    return { dataproducts: deletedIdsOmitted(dataproducts(ctx.store), req.ids, 'dataproduct', req.includeDeleted ?? false) };
  });
  app.route('GET', '/api/dataproducts/v2', { scope: READ }, (ctx) => {
    const p = pagingOf(ctx);
    const page = dataproducts(ctx.store).page(p.cursor, p.pageSize, (d) => !d.deletedAt);
    return { dataproducts: page.items, pageInfo: page.pageInfo };
  });

  // Owners v1
  app.route('POST', '/api/owners/v1', { scope: WRITE }, (ctx) => {
    const req = parseBody(UpsertOwnerRequest, normalizeBodyId(ctx.body, 'owner', 'owner'), 'upsert_owner');
    return { owner: upsertOwnerIn(ctx.store, req.owner, req.etag, ctx.now()) };
  });
  app.route('POST', '/api/owners/v1/delete', { scope: WRITE }, (ctx) => {
    const req = parseBody(DeleteOwnerRequest, ctx.body, 'delete_owner');
    const id = bareId(req.id, 'owner').toLowerCase();
    const current = owners(ctx.store).get(id);
    if (!current) return {};
    checkEtag(current, req.etag, `owner ${id}`);
    const os = ownerships(ctx.store);
    for (const o of os.filter((x) => x.ownerId === id)) os.delete(o.id);
    owners(ctx.store).delete(id);
    return {};
  });
  app.route('POST', '/api/owners/v1/batch-get', { scope: READ }, (ctx) => {
    const req = parseBody(BatchGetRequest, ctx.body, 'batch_get_owners');
    return { owners: deletedIdsOmitted(owners(ctx.store), req.ids, 'owner', false) };
  });
  app.route('GET', '/api/owners/v1', { scope: READ }, (ctx) => {
    const p = pagingOf(ctx);
    const page = owners(ctx.store).page(p.cursor, p.pageSize);
    return { owners: page.items, pageInfo: page.pageInfo };
  });

  // Ownerships v1
  app.route('POST', '/api/owners/v1/:owner_id/ownerships', { scope: WRITE }, (ctx) => upsertOwnership(ctx));
  app.route('POST', '/api/owners/v1/ownerships/delete', { scope: WRITE }, (ctx) => {
    const req = parseBody(DeleteOwnershipRequest, ctx.body, 'delete_ownership');
    const current = ownerships(ctx.store).get(req.id);
    if (!current) return {};
    checkEtag(current, req.etag, `ownership ${req.id}`);
    ownerships(ctx.store).delete(req.id);
    return {};
  });
  app.route('POST', '/api/owners/v1/ownerships/batch-get', { scope: READ }, (ctx) => {
    const req = parseBody(BatchGetRequest, ctx.body, 'batch_get_ownerships');
    const out: Record<string, OwnershipRecord> = {};
    for (const id of [...new Set(req.ids)].sort()) {
      const o = ownerships(ctx.store).get(id);
      if (o) out[id] = o;
    }
    return { ownerships: out };
  });
  app.route('GET', '/api/owners/v1/:owner_id/ownerships', { scope: READ }, (ctx) => {
    const ownerId = bareId(ctx.params.owner_id, 'owner').toLowerCase();
    if (!owners(ctx.store).get(ownerId)) throw notFound(`owner ${ownerId} not found`);
    const p = pagingOf(ctx);
    const page = ownerships(ctx.store).page(p.cursor, p.pageSize, (o) => o.ownerId === ownerId);
    return { ownerships: page.items, pageInfo: page.pageInfo };
  });

  app.onSeed((store, { seed, now }) => {
    if (seed !== 'demo') return;
    const at = now().toISOString();
    // Made in the UI (SOURCE_APP): shown as "not managed here" in plans.
    domains(store).put(
      DEMO_DOMAIN_ID,
      sortKeys<DomainRecord>({
        id: DEMO_DOMAIN_ID,
        name: 'Retail (made in the UI)',
        description: 'Everything about the retail business',
        definition: { parts: [{ query: { resolverQl: 'in_folder("folder-wh-prod::mart")', renderedResolverQl: renderResolverQlOrThrow('in_folder("folder-wh-prod::mart")', 'seed', 'seed').rendered } }] },
        source: 'SOURCE_APP',
        createdAt: at,
        updatedAt: at,
      }),
    );
    upsertOwnerIn(store, { id: DEMO_OWNER_ID, title: 'Data platform team (made in the UI)', contacts: { contacts: [{ email: { recipientEmails: ['platform@example.com'] } }] } }, undefined, now(), 'SOURCE_APP');
  });
}
