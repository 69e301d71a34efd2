/**
 * Helpers shared by the resource handlers (beside `normalise.ts`, which the lead owns).
 *
 * - {@link qlForm}: a query-model selection that has no ResolverQL text is given its ResolverQL
 *   rendering, on BOTH sides, so a desired `query` and a live `query` + `renderedResolverQl`
 *   compare equal after `normalise` (which keeps ResolverQL and drops the translated query).
 * - {@link dropEmpty}: optional sub-objects that default to `{}` on one side (schema defaults,
 *   protojson zero values) are dropped when empty, on both sides.
 * - {@link ignoreNotFound}: `delete` treats NOT_FOUND as success.
 */
import { NotFoundError } from '../../client/errors';
import { unmodelledOf } from '../../../schemas/platform/wire';
import { queryToResolverQl } from '../../../schemas/tools/resolverql';
import type { Query } from '../../../schemas/platform/entities';
import type { z } from 'zod';
import { Effects, type Change } from '../../../schemas/model/plan';
import { parseFast } from '../../../schemas/tools/lean';
import { bare, fingerprint } from './normalise';
import { tallyRetries } from '../../client/attempts';
import type { ListedObject, LiveObject, ReadQuery } from './types';
import { DqformError, isErrorOf } from '../../../schemas/tools/errors';

/** Page size of the prunable kinds' full-workspace lists (the emulator's maximum; servers that cap lower still page). */
export const LIST_PAGE_SIZE = 1000;

/** A shallow copy of `o` without `keys`. */
export function omit(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(o)) {
    const v = o[k];
    if (v !== undefined && !keys.includes(k)) out[k] = v;
  }
  return out;
}

/** Deep copy of a JSON value. */
export function clone<T>(v: T): T {
  return v === undefined ? v : (JSON.parse(JSON.stringify(v)) as T);
}

/** True for a plain object with no keys whose values are set. */
export function isEmptyObject(v: unknown): boolean {
  return !!v && typeof v === 'object' && !Array.isArray(v) && Object.values(v as object).every((x) => x === undefined);
}

/**
 * Returns `o` with `o[key]` removed when it is an empty object (after the given zero values
 * are removed with `normalise`, so call this on normalised values): a copy when a key goes,
 * `o` itself when none does (a normalised value is the caller's own).
 */
export function dropEmpty(o: Record<string, unknown>, ...keys: string[]): Record<string, unknown> {
  let out: Record<string, unknown> | undefined;
  for (const k of keys) {
    if (!isEmptyObject((out ?? o)[k])) continue;
    out ??= { ...o };
    delete out[k];
  }
  return out ?? o;
}

/**
 * A selection `{ query?, resolverQl?, renderedResolverQl? }` with ResolverQL text: when it
 * carries only a `query`, the query is rendered to ResolverQL (the query is kept as the write
 * form, so a query the renderer cannot express is compared as a query). Returns a copy.
 */
export function qlForm<T>(sel: T): T {
  if (!sel || typeof sel !== 'object') return sel;
  const s = sel as Record<string, unknown>;
  const hasQl = (typeof s.resolverQl === 'string' && s.resolverQl !== '') || (typeof s.renderedResolverQl === 'string' && s.renderedResolverQl !== '');
  if (hasQl || !s.query) return sel;
  try {
    return { ...s, resolverQl: queryToResolverQl(s.query as Query) } as T;
  } catch {
    return sel;
  }
}

/** Applies {@link qlForm} to `o[key]` when present (returns a copy of `o`). */
export function qlFormAt(o: Record<string, unknown>, key: string): Record<string, unknown> {
  return o[key] === undefined ? o : { ...o, [key]: qlForm(o[key]) };
}

/** `bare(id)` lower-cased: the platform stores caller-chosen UUIDs bare and lower-case. */
export function bareId(id: unknown): unknown {
  const b = bare(id);
  return typeof b === 'string' ? b.toLowerCase() : b;
}

/** Listed governance objects as `dqform import` reads them. */
export function listed(objects: readonly { id: string; source?: unknown }[]): ListedObject[] {
  return objects.map((o) => ({ key: o.id, source: o.source as string | undefined, raw: o as unknown as Record<string, unknown> }));
}

/** True when the error is the client's NOT_FOUND. */
export function isNotFound(e: unknown): boolean {
  return isErrorOf(e, NotFoundError);
}

/** Awaits `p`, treating NOT_FOUND as success. */
export async function ignoreNotFound(p: Promise<unknown>): Promise<void> {
  try {
    await p;
  } catch (e) {
    if (!isNotFound(e)) throw e;
  }
}

/** A batch per-item error reason that means "no such object" (delete of a missing one). */
export function isNotFoundReason(reason: string): boolean {
  return /not[ _-]?found|does not exist|no such/i.test(reason);
}

/**
 * `Effects.parse(input)`, lean first (schemas/tools/lean.ts `parseFast`, the same output; zod's
 * error when it refuses): a plan maps one preview per rule change to its effects (issue 27).
 */
export function effectsOf(input: z.input<typeof Effects>): Effects {
  const r = parseFast(Effects, input);
  if (!r.success) throw r.error;
  return r.data;
}

/**
 * The `effects.error` of a preview that failed: `effects unknown: <why>` (the plan prints it as
 * is). Any failure qualifies: a rule no transport can carry, an unreachable gRPC endpoint, a
 * refusal; the message is the client's (redacted) error message without request ids and query
 * strings.
 */
export function effectsUnknown(e: unknown): string {
  const why = (e instanceof Error ? e.message : String(e))
    // a plan is deterministic: request ids (a new one per call) stay in the logs, not in the plan
    .replace(/ \(request id [^)]*\)/g, '')
    // the rule is in the plan already; its query-string form is noise here
    .replace(/(\/[^\s?]*)\?\S+/g, '$1')
    .trim();
  return `effects unknown: ${why}`;
}

/**
 * A create or update without a desired value (`after`): only a plan edited by hand and given to
 * the library's `apply` carries one (apply binds a saved plan to a fresh one first).
 */
export class MissingAfterError extends DqformError {
  static override readonly code: string = 'write.missing-after';
  override readonly name = 'MissingAfterError';
}

/** `change.after` as an object (create and update always carry one). */
export function afterOf(change: Change): Record<string, unknown> {
  if (!change.after || typeof change.after !== 'object') throw new MissingAfterError(`${change.address}: ${change.action} without a desired value (after)`, { hint: 'Make the plan again with dqform plan; do not edit a plan by hand.' });
  return clone(change.after as Record<string, unknown>);
}

/** An error for one item of a batch write, naming the address. */
export class ItemWriteError extends DqformError {
  static override readonly code: string = 'write.item';
  override readonly name = 'ItemWriteError';
  constructor(
    readonly address: string,
    readonly id: string,
    readonly reason: string,
  ) {
    super(`${address} (${id}): ${reason}`);
  }
}

/** Maps a batch result's per-item `errors[]` (keyed by id) to the addresses of `changes`. */
export function errorsByAddress(changes: readonly Change[], errors: readonly { id: string; reason: string }[]): Map<string, Error> {
  const byId = new Map(changes.map((c) => [c.id, c.address]));
  const out = new Map<string, Error>();
  for (const e of errors) {
    const address = byId.get(e.id) ?? byId.get(String(bareId(e.id)));
    if (address !== undefined && !out.has(address)) out.set(address, new ItemWriteError(address, e.id, e.reason));
  }
  return out;
}

/** Timestamps and bookkeeping the governance kinds' reads add. */
export const GOVERNANCE_DROP = ['id', 'etag', 'createdAt', 'updatedAt', 'deletedAt', 'createdBy', 'updatedBy', 'source', 'entityId'] as const;

/**
 * The {@link LiveObject} of a read object keyed by `key`: id, etag, configId, source,
 * deploymentRuleId lifted out, and what this version cannot model (`unmanageable`; also a
 * governance object from an external catalog, read-only in the platform).
 */
export function liveObject(key: string, v: { id?: unknown; etag?: unknown; configId?: unknown; source?: unknown; deploymentRuleId?: unknown }): LiveObject {
  const str = (x: unknown) => (typeof x === 'string' && x !== '' ? x : undefined);
  const unknown = unmodelledOf(v);
  const o: LiveObject = { key, id: str(v.id) ?? key, raw: v as unknown as Record<string, unknown> };
  if (str(v.etag)) o.etag = str(v.etag);
  if (str(v.configId)) o.configId = str(v.configId);
  if (str(v.source)) o.source = str(v.source);
  if (str(v.deploymentRuleId)) o.deploymentRuleId = str(v.deploymentRuleId);
  if (str((v as { deletedAt?: unknown }).deletedAt)) o.deleted = true;
  if (unknown?.length) o.unmanageable = unknown;
  // governance objects read through GovernanceSourceRead: only the external catalog's are read-only
  if (v.source === 'SOURCE_EXTERNAL_CATALOG') o.unmanageable = [...(o.unmanageable ?? []), 'it comes from an external catalog (source SOURCE_EXTERNAL_CATALOG), read-only in the platform'];
  return o;
}

/**
 * Batch-gets `keys` (chunks of 200 inside `fetch`; no request for none) and answers one
 * {@link LiveObject} per key found, keyed by the key as asked (the server answers bare,
 * lower-case ids; a pinned `domain-<uuid>` key is matched to its bare form). Soft-deleted
 * objects are not returned by the server and so are absent.
 */
export async function readByKeys<T extends { id: string; etag?: string; source?: unknown }>(keys: readonly string[], fetch: (ids: string[]) => Promise<Record<string, T>>): Promise<LiveObject[]> {
  const unique = [...new Set(keys)].sort();
  if (unique.length === 0) return [];
  const found = await fetch(unique);
  const out: LiveObject[] = [];
  for (const key of unique) {
    const v = entryFor(found, key);
    if (v) out.push(liveObject(key, v));
  }
  return out;
}

/** The same id, compared as the platform does: without a `domain-`/`dataproduct-`/`owner-` prefix, case-insensitively. */
function sameId(a: unknown, b: string): boolean {
  return typeof a === 'string' && String(bareId(a)).toLowerCase() === String(bareId(b)).toLowerCase();
}

/**
 * The entry for `id` in a batch read's map, whichever form of the id the platform keys it by
 * (as asked, bare, prefixed, other case) or names in the object's own `id` (issue 22: the
 * platform accepts both forms and may answer either).
 */
export function entryFor<T>(found: Record<string, T>, id: string): T | undefined {
  const direct = found[id] ?? found[String(bareId(id))];
  if (direct !== undefined) return direct;
  for (const [k, v] of Object.entries(found)) if (sameId(k, id) || sameId((v as { id?: unknown } | undefined)?.id, id)) return v;
  return undefined;
}

/**
 * The objects of a tag-pruned kind (domains, data products, owners, ownerships) that a plan of
 * the namespace needs, from a full list of the kind: those whose id carries the namespace tag
 * (`q.owns`), those asked for by key (keyed as asked, like {@link readByKeys}), and, marked
 * {@link LiveObject.context}, those `related` says a delete of the former would touch. The
 * rest of the workspace (objects of other namespaces, made in the UI) is dropped: it is never
 * written, and listing it in every plan would bury the changes.
 */
export function keepForNamespace<T extends { id: string; etag?: string; source?: unknown }>(
  all: readonly T[],
  q: Pick<ReadQuery, 'keys' | 'owns'>,
  related: (o: T) => boolean = () => false,
): LiveObject[] {
  const asked = new Map<string, string>();
  for (const k of q.keys) asked.set(String(bareId(k)), k);
  const out: LiveObject[] = [];
  const seen = new Set<string>();
  for (const o of all) {
    const id = String(bareId(o.id));
    if (seen.has(id)) continue; // a page boundary moved under a concurrent write: keep one
    seen.add(id);
    const key = asked.get(id);
    const mine = q.owns?.(o.id) ?? false;
    if (key === undefined && !mine && !related(o)) continue;
    // keyed as asked, else by the bare id: a prefixed answer (`owner-<uuid>`) names the same object
    const lo: LiveObject = liveObject(key ?? id, o);
    if (key === undefined && !mine) lo.context = true;
    out.push(lo);
  }
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** True when `id` (any form) is one the namespace owns or the code names: what a `related` test looks for. */
export function isOurs(q: Pick<ReadQuery, 'owns' | 'declaredIds'>, id: unknown): boolean {
  if (typeof id !== 'string' || id === '') return false;
  return (q.owns?.(id) ?? false) || (q.declaredIds?.has(String(bareId(id))) ?? false);
}

/**
 * A write that met someone else's object or lost a race: a create of an id (or fqn) someone
 * made meanwhile, a write whose answer shows another write in between. Reported as a conflict
 * (the applier stops writing), never as done.
 */
export class WriteConflictError extends DqformError {
  static override readonly code: string = 'write.conflict';
  override readonly name = 'WriteConflictError';
  constructor(
    readonly address: string,
    readonly why: string,
  ) {
    super(`conflict: ${why}`);
  }
}

/** The version in an etag `W/"<id>-<version>"` (upstream facts), or undefined for another form. */
export function etagVersion(etag: string | undefined): number | undefined {
  const m = /^W\/"(.+)-(\d+)"$/.exec(etag ?? '');
  return m ? Number(m[2]) : undefined;
}

/**
 * Checks the etag a governance upsert answered (these kinds have no create-only call): the write
 * must be the only one since the version it was based on, the etag it sent (`sent`: the plan's
 * etag on an update, a soft-deleted object's etag on a create, none on a first create: version
 * 0). A higher version means someone else wrote the object in between, and this write replaced
 * theirs: a conflict. When the client retried the write (`retries`), its own first attempt may
 * have landed too: then the object is read back (`readBack`) and counts as written when it holds
 * what was written. Etags of another form cannot be checked and pass.
 */
export async function checkWriteVersion(change: Change, label: string, sent: string | undefined, answered: string | undefined, retries: number, readBack: () => Promise<boolean>): Promise<void> {
  const base = sent === undefined ? 0 : etagVersion(sent);
  const got = etagVersion(answered);
  if (base === undefined || got === undefined || got === base + 1) return;
  if (retries > 0 && (await readBack())) return;
  const was = change.action === 'create' ? 'a new object' : `version ${base}`;
  throw new WriteConflictError(
    change.address,
    `the ${label} ${JSON.stringify(change.id)} was written by someone else while dqform wrote it (the platform answered version ${got}, expected ${base + 1} after ${was}): this write replaced theirs. Plan again and review what live state holds now`,
  );
}

/**
 * Runs a governance upsert (`write(etag)`, answering the stored object) and checks the version it
 * answers ({@link checkWriteVersion}); `get` reads the object back for the retried case and
 * `canonical` is the handler's comparable form. On a create, `change.etag` is the etag of a
 * soft-deleted object at the same id, when the applier found one: sending it makes the create a
 * compare-and-swap.
 */
export async function guardedUpsert<T extends { etag?: string }>(
  change: Change,
  label: string,
  write: (etag: string | undefined) => Promise<T>,
  get: (id: string) => Promise<Record<string, Record<string, unknown>>>,
  canonical: (o: Record<string, unknown>) => Record<string, unknown>,
): Promise<T> {
  const { value, retries } = await tallyRetries(() => write(change.etag));
  await checkWriteVersion(change, label, change.etag, value.etag, retries, async () => {
    const found = await get(change.id);
    const o = entryFor(found, change.id);
    return !!o && fingerprint(canonical(o)) === fingerprint(change.after);
  });
  return value;
}
