/**
 * The resolution cache's store (issue 27): entries in the user's cache directory, each a file
 * holding a head line (schemas/model/resolution-cache.ts: the key, the body's sha256 and length) and a
 * JSON body. Never required for correctness: every failure (a missing or read-only directory, a
 * corrupt, truncated or foreign entry) is a miss, silently; an entry that does not check is
 * overwritten by the next write. Written atomically (a temp file renamed over the entry), files
 * 0600 in a 0700 directory; a directory another user could write to is not used (its entries
 * would be desired state anyone could plant). Bounded: past {@link MAX_ENTRIES} files or
 * {@link MAX_BYTES}, the least recently used go.
 */
import { createHash, hash } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CacheEntryHead, RESOLUTION_CACHE_FORMAT } from '../../schemas/model/resolution-cache';

/** At most this many entries are kept (a stack has two: its head and one per workspace). */
export const MAX_ENTRIES = 64;
/** At most this many bytes of entries are kept. */
export const MAX_BYTES = 512 * 2 ** 20;
/** A temp file older than this is a writer's leftover (it died before its rename). */
const STALE_TEMP_MS = 60 * 60 * 1000;

/**
 * The cache directory: `DQFORM_CACHE_DIR`, else `$XDG_CACHE_HOME/dqform`, else
 * `~/.cache/dqform`; undefined when none can be told.
 */
export function cacheDirOf(env: NodeJS.ProcessEnv): string | undefined {
  const own = env.DQFORM_CACHE_DIR?.trim();
  if (own) return path.resolve(own);
  const xdg = env.XDG_CACHE_HOME?.trim();
  // the XDG spec: a relative XDG_CACHE_HOME is invalid and ignored
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'dqform');
  let home = env.HOME?.trim();
  if (!home) {
    try {
      home = os.homedir();
    } catch {
      return undefined;
    }
  }
  return home ? path.join(home, '.cache', 'dqform') : undefined;
}

/** `DQFORM_NO_CACHE` set to anything but "", "0" or "false" turns the cache off (as `--no-cache`). */
export function cacheOffByEnv(env: NodeJS.ProcessEnv): boolean {
  const v = env.DQFORM_NO_CACHE?.trim().toLowerCase();
  return v !== undefined && v !== '' && v !== '0' && v !== 'false';
}

const sha256 = (data: string | Buffer) => hash('sha256', data, 'hex');

/** The key of an entry: sha256 of its parts, each length-prefixed (no two part lists collide). */
export function cacheKey(parts: readonly (string | Buffer)[]): string {
  // fed part by part (no concatenated copy of the stack's files): the sha256 of `<length>:<part>...`
  const h = createHash('sha256');
  for (const p of parts) h.update(`${Buffer.byteLength(p)}:`).update(p);
  return h.digest('hex');
}

/** Writes all of `data` at the file's position: `fs.writeSync` may write less than asked. */
function writeAll(fd: number, data: Buffer): void {
  while (data.length > 0) data = data.subarray(fs.writeSync(fd, data));
}

/** Marks an entry used: the eviction keeps the most recently used (a read-only directory: no matter). */
function touch(file: string): void {
  try {
    const now = new Date();
    fs.utimesSync(file, now, now);
  } catch {
    // read-only: the entry is still good
  }
}

export class ResolutionCache {
  private usable: boolean | undefined;

  constructor(readonly dir: string) {}

  private fileOf(key: string): string {
    return path.join(this.dir, `${key}.entry`);
  }

  /** Makes the directory (0700) if needed; false when it cannot be used (silently). */
  private ready(create: boolean): boolean {
    if (this.usable !== undefined) return this.usable;
    try {
      if (create) fs.mkdirSync(this.dir, { recursive: true, mode: 0o700 });
      const st = fs.lstatSync(this.dir);
      const mine = typeof process.getuid !== 'function' || st.uid === process.getuid();
      if (!st.isDirectory() || !mine) return (this.usable = false);
      if (process.platform !== 'win32' && (st.mode & 0o077) !== 0) fs.chmodSync(this.dir, 0o700);
      this.usable = true;
    } catch {
      // missing (when reading), read-only, not ours: no cache, and no message
      if (create) this.usable = false;
      return false;
    }
    return this.usable;
  }

  /** The body of the entry `key`, or undefined (a miss: absent, unreadable, corrupt, truncated, another format). */
  read(key: string): unknown {
    if (!this.ready(false)) return undefined;
    const file = this.fileOf(key);
    let buf: Buffer;
    try {
      buf = fs.readFileSync(file);
    } catch {
      return undefined;
    }
    try {
      const nl = buf.indexOf(10);
      if (nl < 0) return undefined;
      const head = CacheEntryHead.safeParse(JSON.parse(buf.subarray(0, nl).toString('utf8')));
      if (!head.success || head.data.key !== key) return undefined;
      const body = buf.subarray(nl + 1);
      if (body.length !== head.data.bytes || sha256(body) !== head.data.sha256) return undefined;
      const value = JSON.parse(body.toString('utf8')) as unknown;
      touch(file);
      return value;
    } catch {
      return undefined;
    }
  }

  /**
   * Stores `body` (JSON text, or its pieces in order: their concatenation) as the entry `key`;
   * silently nothing when the directory cannot be written. Then evicts the least recently used
   * entries past the bounds. Pieces are hashed and written one by one: a large body is never
   * joined into one string (a few MB in V8's large-object space, which only a full GC frees).
   */
  write(key: string, body: string | readonly string[]): void {
    if (!this.ready(true)) return;
    const data = (typeof body === 'string' ? [body] : body).map((p) => Buffer.from(p, 'utf8'));
    const h = createHash('sha256');
    let bytes = 0;
    for (const d of data) {
      h.update(d);
      bytes += d.length;
    }
    const head: CacheEntryHead = { dqformCache: RESOLUTION_CACHE_FORMAT, key, sha256: h.digest('hex'), bytes };
    const file = this.fileOf(key);
    const temp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
    try {
      const fd = fs.openSync(temp, 'wx', 0o600);
      try {
        fs.writeSync(fd, `${JSON.stringify(head)}\n`);
        for (const d of data) writeAll(fd, d);
      } finally {
        fs.closeSync(fd);
      }
      fs.renameSync(temp, file);
    } catch {
      try {
        fs.rmSync(temp, { force: true });
      } catch {
        // nothing more to do
      }
      return;
    }
    this.evict();
  }

  /** Removes the least recently used entries past {@link MAX_ENTRIES} or {@link MAX_BYTES}, and stale temp files. */
  private evict(): void {
    try {
      const now = Date.now();
      const entries: { file: string; mtimeMs: number; size: number }[] = [];
      for (const name of fs.readdirSync(this.dir)) {
        const file = path.join(this.dir, name);
        const st = fs.statSync(file, { throwIfNoEntry: false });
        if (!st?.isFile()) continue;
        if (name.endsWith('.tmp')) {
          if (now - st.mtimeMs > STALE_TEMP_MS) fs.rmSync(file, { force: true });
        } else if (name.endsWith('.entry')) entries.push({ file, mtimeMs: st.mtimeMs, size: st.size });
      }
      entries.sort((a, b) => b.mtimeMs - a.mtimeMs || (a.file < b.file ? -1 : 1));
      let bytes = 0;
      entries.forEach((e, i) => {
        bytes += e.size;
        if (i >= MAX_ENTRIES || (i > 0 && bytes > MAX_BYTES)) fs.rmSync(e.file, { force: true });
      });
    } catch {
      // another process evicting at the same time, or a read-only directory: next time
    }
  }
}
