/**
 * The emulator's state: per workspace, named collections of JSON objects keyed by id, each
 * with a version counter that yields the etag `W/"<id>-<version>"`.
 *
 * - Reads are O(log n) (`get` is O(1)); a page is a binary search into a sorted id index plus
 *   `pageSize` lookups, so 50,000 objects page in well under a millisecond.
 * - Writes keep the index sorted (binary search + splice) and bump the version, which survives
 *   a delete so a re-created object never gets an etag it had before.
 * - Stored objects are plain JSON values: `put` stores a structured clone and `get`/`values`
 *   return the stored object itself. Treat them as read-only; `put` a new object to change one.
 * - With a data file ({@link Persistence}), the whole state is written atomically (temp file,
 *   fsync, rename) after mutating requests, coalesced; each object's JSON is cached so a write
 *   re-serialises only what changed.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { promises as fsp } from 'node:fs';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PageInfo } from '../../schemas/platform/common';
import { aborted } from './errors';

/** A stored object: the value as put, plus the etag the store assigned. */
export type Stored<T> = T & { etag: string };

/** One page of a collection. `pageInfo.lastId` is empty on the last page. */
export interface Page<T> {
  items: Stored<T>[];
  pageInfo: Required<Pick<PageInfo, 'count' | 'lastId'>>;
}

/** Default and maximum page sizes of {@link Collection.page}. */
export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

/** The per-request record of whether the request wrote anything (see {@link mutationTracker}). */
export interface MutationRecord {
  mutated: boolean;
}

/**
 * Tracks, per request, whether the handler mutated the store (through AsyncLocalStorage, so
 * handlers need do nothing): the server awaits a durable write before answering such requests.
 */
export const mutationTracker = new AsyncLocalStorage<MutationRecord>();

/** The etag of version `version` of object `id`. */
export function etagOf(id: string, version: number): string {
  return `W/"${id}-${version}"`;
}

/** Whether a caller's etag matches an object's current one. An absent/empty etag matches anything. */
export function etagMatches(current: { etag?: string } | undefined, etag: string | undefined | null): boolean {
  if (etag === undefined || etag === null || etag === '') return true;
  return current?.etag === etag;
}

/**
 * Throws ABORTED when `etag` is given and does not match `obj`'s current etag (including when
 * the object does not exist any more). No etag: last writer wins.
 */
export function checkEtag(obj: { etag?: string } | undefined, etag: string | undefined | null, what = 'object'): void {
  if (etagMatches(obj, etag)) return;
  throw aborted(
    obj
      ? `${what} was modified since it was read (etag ${etag} is stale, current is ${obj.etag})`
      : `${what} no longer exists (etag ${etag} is stale)`,
  );
}

function lowerBound(a: readonly string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function upperBound(a: readonly string[], key: string): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (a[mid] <= key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Adds `id` to group `key` of a {@link Collection.groupBy} index, in id order. */
function groupAdd(byKey: Map<string, string[]>, key: string, id: string): void {
  const list = byKey.get(key);
  if (!list) byKey.set(key, [id]);
  else if (list.length === 0 || list[list.length - 1] < id) list.push(id);
  else list.splice(lowerBound(list, id), 0, id);
}

/** Removes `id` from group `key` (a group left empty is dropped, as a rebuild would). */
function groupRemove(byKey: Map<string, string[]>, key: string, id: string): void {
  const list = byKey.get(key);
  if (!list) return;
  const i = lowerBound(list, id);
  if (list[i] !== id) return;
  if (list.length === 1) byKey.delete(key);
  else list.splice(i, 1);
}

/** Serialised form of one collection in the data file. */
interface CollectionFile {
  /** id -> [version, object] */
  items: Record<string, [number, unknown]>;
  /** Versions of deleted ids (so their etags are never reused). */
  tombstones: Record<string, number>;
}

/** A named collection of objects of type `T`, keyed by id. */
export class Collection<T extends object> {
  private readonly items = new Map<string, Stored<T>>();
  private readonly versions = new Map<string, number>();
  private readonly json = new Map<string, string>();
  private index: string[] = [];
  /** Bumped by every write: memos ({@link memo}) are recomputed when it moved. */
  private revision = 0;
  /** Secondary indexes ({@link groupBy}), kept in step by every put and delete. */
  private readonly groups = new Map<string, { keyOf: (v: Stored<T>) => string; byKey: Map<string, string[]> }>();
  private readonly memos = new Map<string, { revision: number; value: unknown }>();

  /** @internal use {@link Store.collection}. */
  constructor(
    /** The collection's name. */
    readonly name: string,
    private readonly onMutate: () => void,
  ) {}

  /** The object with this id, or undefined. */
  get(id: string): Stored<T> | undefined {
    return this.items.get(id);
  }

  /** Whether an object with this id exists. */
  has(id: string): boolean {
    return this.items.has(id);
  }

  /** The current version of `id` (0 if it never existed; deleted ids keep their last version). */
  version(id: string): number {
    return this.versions.get(id) ?? 0;
  }

  /**
   * Creates or replaces the object `id`, assigning a new etag `W/"<id>-<version>"` (written into
   * the stored object's `etag` field). Returns the stored object.
   */
  put(id: string, value: T): Stored<T> {
    const version = (this.versions.get(id) ?? 0) + 1;
    const stored = { ...structuredClone(value), etag: etagOf(id, version) } as Stored<T>;
    const old = this.items.get(id);
    if (!old) this.index.splice(lowerBound(this.index, id), 0, id);
    for (const g of this.groups.values()) {
      const key = g.keyOf(stored);
      if (!old) groupAdd(g.byKey, key, id);
      else {
        const was = g.keyOf(old);
        if (was !== key) {
          groupRemove(g.byKey, was, id);
          groupAdd(g.byKey, key, id);
        }
      }
    }
    this.items.set(id, stored);
    this.versions.set(id, version);
    this.json.delete(id);
    this.revision++;
    this.onMutate();
    return stored;
  }

  /**
   * Deletes `id`; returns whether it existed. `forgetVersion`: a hard delete after which the id
   * starts a new life (a create answers version 1), for services whose objects leave no tombstone.
   */
  delete(id: string, opts: { forgetVersion?: boolean } = {}): boolean {
    const old = this.items.get(id);
    if (!old) return false;
    for (const g of this.groups.values()) groupRemove(g.byKey, g.keyOf(old), id);
    this.items.delete(id);
    if (opts.forgetVersion) this.versions.delete(id);
    this.json.delete(id);
    const i = lowerBound(this.index, id);
    if (this.index[i] === id) this.index.splice(i, 1);
    this.revision++;
    this.onMutate();
    return true;
  }

  /** Deletes every object (versions are kept). */
  clear(): void {
    if (this.items.size === 0) return;
    this.items.clear();
    this.json.clear();
    this.index = [];
    this.groups.clear();
    this.revision++;
    this.onMutate();
  }

  /** The number of objects. */
  get count(): number {
    return this.items.size;
  }

  /** The ids, sorted (code-unit order). Do not mutate the array. */
  ids(): readonly string[] {
    return this.index;
  }

  /** Every object, sorted by id. O(n): prefer {@link page} for lists. */
  values(): Stored<T>[] {
    return this.index.map((id) => this.items.get(id)!);
  }

  /** The objects matching `pred`, sorted by id. O(n). */
  filter(pred: (v: Stored<T>) => boolean): Stored<T>[] {
    const out: Stored<T>[] = [];
    for (const id of this.index) {
      const v = this.items.get(id)!;
      if (pred(v)) out.push(v);
    }
    return out;
  }

  /**
   * One page in id order, starting after `cursor` (the previous page's `lastId`; empty or
   * undefined = from the start). `pageSize` 0/undefined means {@link DEFAULT_PAGE_SIZE}, `'all'` every item (a list that never pages); it is
   * capped at {@link MAX_PAGE_SIZE}. `pageInfo.count` is the number of items on this page;
   * `pageInfo.lastId` is the last item's id when more items follow, and `''` on the last page.
   * With `filter`, only matching objects are returned (a scan, stopping after the page).
   */
  page(cursor: string | undefined, pageSize: number | 'all' | undefined, filter?: (v: Stored<T>) => boolean): Page<T> {
    const size = pageSize === 'all' ? Infinity : Math.min(MAX_PAGE_SIZE, pageSize && pageSize > 0 ? Math.floor(pageSize) : DEFAULT_PAGE_SIZE);
    let i = cursor ? upperBound(this.index, cursor) : 0;
    const items: Stored<T>[] = [];
    let lastTaken = '';
    let more = false;
    for (; i < this.index.length; i++) {
      const id = this.index[i];
      const v = this.items.get(id)!;
      if (filter && !filter(v)) continue;
      if (items.length === size) {
        more = true;
        break;
      }
      items.push(v);
      lastTaken = id;
    }
    const lastId = more ? lastTaken : '';
    return { items, pageInfo: { count: items.length, lastId } };
  }

  /** @internal serialised form (cached per object). */
  toFileJson(): string {
    let out = '{"items":{';
    let first = true;
    for (const id of this.index) {
      let j = this.json.get(id);
      if (j === undefined) {
        j = JSON.stringify(this.items.get(id));
        this.json.set(id, j);
      }
      out += `${first ? '' : ','}${JSON.stringify(id)}:[${this.versions.get(id)},${j}]`;
      first = false;
    }
    out += '},"tombstones":{';
    first = true;
    for (const [id, v] of this.versions) {
      if (this.items.has(id)) continue;
      out += `${first ? '' : ','}${JSON.stringify(id)}:${v}`;
      first = false;
    }
    return `${out}}}`;
  }

  /** @internal restores from the serialised form. */
  load(file: CollectionFile): void {
    this.items.clear();
    this.versions.clear();
    this.json.clear();
    for (const [id, [version, obj]] of Object.entries(file.items)) {
      this.items.set(id, obj as Stored<T>);
      this.versions.set(id, version);
    }
    for (const [id, version] of Object.entries(file.tombstones ?? {})) this.versions.set(id, version);
    this.index = [...this.items.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    this.groups.clear();
    this.revision++;
  }

  /**
   * The ids grouped by `keyOf` (each group in id order): a secondary index, named `name`, built
   * on first use and then kept in step by every put and delete (e.g. ownerships by owner, so
   * that listing one owner's ownerships does not scan them all; a write costs a binary search
   * in the groups it leaves and joins, not a rebuild). `keyOf` must depend on nothing but the
   * object, and one name must always be used with one `keyOf`. The map and its arrays are live:
   * read them, do not mutate them or hold them across a write (copy what you need first).
   */
  groupBy(name: string, keyOf: (v: Stored<T>) => string): ReadonlyMap<string, readonly string[]> {
    let g = this.groups.get(name);
    if (!g) {
      const byKey = new Map<string, string[]>();
      for (const id of this.index) {
        const k = keyOf(this.items.get(id)!);
        const list = byKey.get(k);
        if (list) list.push(id);
        else byKey.set(k, [id]);
      }
      g = { keyOf, byKey };
      this.groups.set(name, g);
    }
    return g.byKey;
  }

  /**
   * A value derived from the whole collection (e.g. the rules in precedence order), named
   * `name`, computed on first use and recomputed after any write, like {@link groupBy}: callers
   * that read it many times between writes (the deploy overviews) pay for it once. `compute`
   * must depend on nothing but the collection's objects (key anything else, e.g. the catalog,
   * inside the value); the value must not be mutated. A `compute` that throws caches nothing.
   */
  memo<V>(name: string, compute: () => V): V {
    const m = this.memos.get(name);
    if (m && m.revision === this.revision) return m.value as V;
    const value = compute();
    this.memos.set(name, { revision: this.revision, value });
    return value;
  }

  /** {@link page} over a subset of ids (in id order, e.g. a {@link groupBy} group). */
  pageOf(ids: readonly string[], cursor: string | undefined, pageSize: number | undefined, filter?: (v: Stored<T>) => boolean): Page<T> {
    const size = Math.min(MAX_PAGE_SIZE, pageSize && pageSize > 0 ? Math.floor(pageSize) : DEFAULT_PAGE_SIZE);
    let i = cursor ? upperBound(ids, cursor) : 0;
    const items: Stored<T>[] = [];
    let lastTaken = '';
    let more = false;
    for (; i < ids.length; i++) {
      const v = this.items.get(ids[i]);
      if (!v || (filter && !filter(v))) continue;
      if (items.length === size) {
        more = true;
        break;
      }
      items.push(v);
      lastTaken = ids[i];
    }
    return { items, pageInfo: { count: items.length, lastId: more ? lastTaken : '' } };
  }
}

/** One workspace's collections. This is `ctx.store` in a route handler. */
export class Store {
  private readonly collections = new Map<string, Collection<object>>();

  /** @internal use {@link EmulatorStore.workspace}. */
  constructor(
    /** The workspace name. */
    readonly workspace: string,
    private readonly onMutate: () => void,
  ) {}

  /**
   * The collection `name`, created empty on first use. Name collections after the resource
   * (`alerts`, `domains`, `deploymentRules`); one name must always be used with one `T`.
   */
  collection<T extends object>(name: string): Collection<T> {
    let c = this.collections.get(name);
    if (!c) {
      c = new Collection<object>(name, this.onMutate);
      this.collections.set(name, c);
    }
    return c as unknown as Collection<T>;
  }

  /** Names of the collections that exist, sorted. */
  collectionNames(): string[] {
    return [...this.collections.keys()].sort();
  }

  /** @internal */
  toFileJson(): string {
    const names = this.collectionNames();
    return `{${names.map((n) => `${JSON.stringify(n)}:${this.collections.get(n)!.toFileJson()}`).join(',')}}`;
  }

  /** @internal */
  load(file: Record<string, CollectionFile>): void {
    this.collections.clear();
    for (const name of Object.keys(file).sort()) this.collection(name).load(file[name]);
  }
}

/** The serialised state file. */
interface StateFile {
  format: typeof STATE_FORMAT;
  seed: string;
  seedSize: number | null;
  workspaces: Record<string, Record<string, CollectionFile>>;
}

/** Format marker of the data file. */
export const STATE_FORMAT = 'dqform-emulator-state/1';

/** Every workspace's store: the emulator's whole state. */
export class EmulatorStore {
  private readonly workspaces = new Map<string, Store>();
  /** Incremented by every mutation. */
  generation = 0;

  /** @param onNewWorkspace called when a workspace store is created empty (not loaded), e.g. to seed it. */
  constructor(private readonly onNewWorkspace?: (store: Store) => void) {}

  private readonly mutate = (): void => {
    this.generation++;
    const rec = mutationTracker.getStore();
    if (rec) rec.mutated = true;
  };

  /** The store of workspace `name` (created, and seeded, on first use). */
  workspace(name: string): Store {
    let s = this.workspaces.get(name);
    if (!s) {
      s = new Store(name, this.mutate);
      this.workspaces.set(name, s);
      this.onNewWorkspace?.(s);
    }
    return s;
  }

  /** Names of the workspaces that exist, sorted. */
  workspaceNames(): string[] {
    return [...this.workspaces.keys()].sort();
  }

  /** Drops every workspace (they are re-created, and re-seeded, on next use). */
  clear(): void {
    this.workspaces.clear();
    this.mutate();
  }

  /** @internal the state file's text. */
  serialize(meta: { seed: string; seedSize: number | undefined }): string {
    const ws = this.workspaceNames()
      .map((n) => `${JSON.stringify(n)}:${this.workspaces.get(n)!.toFileJson()}`)
      .join(',');
    return `{"format":${JSON.stringify(STATE_FORMAT)},"seed":${JSON.stringify(meta.seed)},"seedSize":${meta.seedSize ?? null},"workspaces":{${ws}}}\n`;
  }

  /** @internal restores from a state file's text; returns its seed metadata. */
  deserialize(text: string): { seed: string; seedSize: number | undefined } {
    const file = JSON.parse(text) as StateFile;
    if (file.format !== STATE_FORMAT) throw new Error(`unknown emulator state format ${String(file.format)}`);
    this.workspaces.clear();
    for (const name of Object.keys(file.workspaces).sort()) {
      const s = new Store(name, this.mutate);
      s.load(file.workspaces[name]);
      this.workspaces.set(name, s);
    }
    return { seed: file.seed, seedSize: file.seedSize ?? undefined };
  }
}

/**
 * Durable, atomic, coalesced writes of an {@link EmulatorStore} to one file.
 *
 * `flush()` resolves once a snapshot taken after the call is on disk (temp file, fsync,
 * rename, directory fsync). Calls that arrive while a write is in progress share the next
 * write, so under load there is at most one write in flight and one queued.
 */
export class Persistence {
  private writing: Promise<void> = Promise.resolve();
  private queued: Promise<void> | undefined;
  private writtenGeneration = -1;
  /** Statistics: number of writes and total milliseconds spent writing. */
  readonly stats = { writes: 0, totalMs: 0, lastMs: 0, lastBytes: 0 };

  constructor(
    readonly file: string,
    private readonly store: EmulatorStore,
    private readonly meta: () => { seed: string; seedSize: number | undefined },
    private readonly coalesceMs = 2,
  ) {}

  /** Loads the file if it exists; returns its seed metadata, or undefined when there is no file. */
  load(): { seed: string; seedSize: number | undefined } | undefined {
    let text: string;
    try {
      text = fs.readFileSync(this.file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
    const meta = this.store.deserialize(text);
    this.writtenGeneration = this.store.generation;
    return meta;
  }

  /** Resolves when every mutation made before the call is durable. */
  flush(): Promise<void> {
    if (this.queued) return this.queued;
    const q = this.writing
      .catch(() => undefined)
      .then(() => (this.coalesceMs > 0 ? new Promise<void>((r) => setTimeout(r, this.coalesceMs)) : undefined))
      .then(() => {
        this.queued = undefined;
        const w = this.writeNow();
        this.writing = w;
        return w;
      });
    this.queued = q;
    return q;
  }

  private async writeNow(): Promise<void> {
    const generation = this.store.generation;
    if (generation === this.writtenGeneration) return;
    const t0 = performance.now();
    const text = this.store.serialize(this.meta());
    const dir = path.dirname(this.file);
    await fsp.mkdir(dir, { recursive: true });
    const tmp = `${this.file}.tmp-${process.pid}`;
    const fh = await fsp.open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(text, 'utf8');
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fsp.rename(tmp, this.file);
    try {
      const d = await fsp.open(dir, 'r');
      try {
        await d.sync();
      } finally {
        await d.close();
      }
    } catch {
      // Directory fsync is not supported everywhere; the rename itself is atomic.
    }
    this.writtenGeneration = generation;
    const ms = performance.now() - t0;
    this.stats.writes++;
    this.stats.totalMs += ms;
    this.stats.lastMs = ms;
    this.stats.lastBytes = Buffer.byteLength(text);
  }
}
