/**
 * A stack's desired state as the commands use it, through the resolution cache (issue 27).
 * Resolution is a pure function of its inputs, so its result is kept in the user's cache
 * directory (src/engine/resolution-cache.ts) under a key made of everything it reads:
 *
 * - the bytes of the source: for synth output, `manifest.json`, the `stacks/` listing and every
 *   stack's `cdk.tf.json` (the sibling stacks are checked for shared objects); for a YAML
 *   workspace, the file and the name it is shown by (diagnostics name it);
 * - the stack asked for, the directory or file's absolute path;
 * - the environment that chooses which siblings share this stack's platform: `DQ_BASE_URL`,
 *   `DQ_REGION`, `DQ_CLIENT_ID` (the key holds only their hash), and the variables the stacks
 *   name in `credentialsFrom` (their values' sha256 are recorded in the entry and checked);
 * - the workspace (learned from the platform) and whether the run is offline (`validate`);
 * - dqform's code: its version and, in a checkout, the size and mtime of every source file;
 *   Node's major version and its ICU and time-zone data (time zones are checked with `Intl`).
 *
 * Two entries per stack: its head ({@link CachedStackHead}: what is needed before the workspace
 * is known) and its resolution per workspace. A warm run loads no manifest at all. Off with
 * `--no-cache` or `DQFORM_NO_CACHE=1`. The entries hold what the synth output holds (secret
 * references are names of variables and files, never values; schemas/platform/integrations.ts).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { hash } from 'node:crypto';
import type { Manifest, ResourceType } from '../../schemas/model/manifest';
import { CachedStackHead } from '../../schemas/model/resolution-cache';
import type { Resolution, ResolvedResource, SiblingStack } from '../engine/resolve';
import type { DesiredState } from '../engine/reconcile';
import { cacheDirOf, cacheKey, cacheOffByEnv, ResolutionCache } from '../engine/resolution-cache';
import { listedStacks } from '../engine/listed-stacks';
import { lazy } from './lazy';

/** The platform fields of a manifest: what a client is made from (runtime.ts `platformOf`). */
export type StackPlatformFields = Pick<Manifest, 'stack' | 'namespace' | 'region' | 'baseUrl' | 'grpcEndpoint' | 'credentialsFrom'>;

/** One stack, ready to plan or validate: its platform fields, and its resolution on demand (cached). */
export interface PreparedStack extends DesiredState, Omit<StackPlatformFields, 'namespace'> {
  readonly prepared: true;
  readonly namespace: string;
  readonly resourceCount: number;
  /** The namespaces of every other stack of the app, on any platform. */
  readonly appNamespaces: readonly string[];
  /** The resolution in `workspace` (offline: `validate`'s stand-in workspace). */
  resolve(workspace: string, opts?: { offline?: boolean }): Resolution;
  /** The manifest itself (loaded on first use; a warm run never needs it). */
  manifest(): Manifest;
  /** The normalised desired objects of a resolution `resolve` answered, when cached or made with it (reconcile.ts DesiredState). */
  desiredForms(resolution: Resolution): readonly Record<string, unknown>[] | undefined;
  /** Their fingerprints, likewise. */
  desiredFingerprints(resolution: Resolution): readonly string[] | undefined;
}

/** Where a stack's desired state comes from (runtime.ts `Source`). */
export type DesiredSource = ({ kind: 'yaml'; file: string } | { kind: 'synth'; dir: string }) & { cache?: boolean };

/** What a stack is loaded and its siblings found with (runtime.ts), passed in to keep one definition. */
export interface Loaders {
  loadStack: () => Manifest;
  /** The siblings on this stack's platform, and every other stack's namespace. */
  siblingsOf: (m: Manifest) => { siblings: SiblingStack[]; appNamespaces: string[]; all: readonly { manifest: Manifest }[] };
}

const sha256 = (s: string) => hash('sha256', s, 'hex');

/** The variables a run's sibling filter reads besides those in the key: each stack's client-id variable. */
function envRead(env: NodeJS.ProcessEnv, manifests: readonly Manifest[]): [string, string | null][] {
  const names = [...new Set(manifests.map((m) => m.credentialsFrom?.clientId ?? 'DQ_CLIENT_ID'))].sort();
  return names.map((n) => [n, env[n] === undefined ? null : sha256(env[n])]);
}

/** Prepares the stack `stack` of `src`: from the cache when its inputs are unchanged, else loaded (and cached). */
export function prepareStack(env: NodeJS.ProcessEnv, cwd: string, src: DesiredSource, stack: string | undefined, loaders: Loaders): PreparedStack {
  // the inputs (~4 MB of synth output at 10,000 objects) hashed once: every key is made from their
  // digest; the files' bytes are not held while the stack loads (issue 27: promoted, they would
  // stay until a full GC)
  const cache = stackCacheOf(env, cwd, src, stack);
  // the files read for the key must be the ones loaded: an entry is written only when they did not change meanwhile
  const unchanged = () => !!cache && cache.inputs === cacheKey(inputsOf(env, cwd, src, stack) ?? []);
  if (cache) {
    const head = CachedStackHead.safeParse(cache.store.read(cacheKey([cache.inputs, 'head'])));
    if (head.success && head.data.env.every(([n, h]) => (env[n] === undefined ? null : sha256(env[n])) === h)) {
      return prepared(head.data, () => head.data.manifestHash, cache, loaders, undefined, unchanged);
    }
  }
  const m = loaders.loadStack();
  const found = loaders.siblingsOf(m);
  const head: Omit<CachedStackHead, 'manifestHash'> = {
    stack: m.stack,
    namespace: m.namespace,
    ...(m.region !== undefined ? { region: m.region } : {}),
    ...(m.baseUrl !== undefined ? { baseUrl: m.baseUrl } : {}),
    ...(m.grpcEndpoint !== undefined ? { grpcEndpoint: m.grpcEndpoint } : {}),
    ...(m.credentialsFrom !== undefined ? { credentialsFrom: m.credentialsFrom } : {}),
    resourceCount: m.resources.length,
    siblings: found.siblings.map((s) => ({ stack: s.stack, namespace: s.namespace })),
    appNamespaces: found.appNamespaces,
    env: envRead(env, [m, ...found.all.map((s) => s.manifest)]),
  };
  // hashed when first asked (plan hashes while its first calls are in flight), as without the cache
  let hash: string | undefined;
  return prepared(head, () => (hash ??= lazy.manifest().manifestHash(m)), cache, loaders, { manifest: m, siblings: found.siblings }, unchanged);
}

/** The cache of one stack: the store and the digest of the stack's inputs (their {@link cacheKey}). */
type StackCache = { store: ResolutionCache; inputs: string } | undefined;

/** The cache of `stack`, or undefined when it is off or its inputs cannot be told (see {@link inputsOf}). */
function stackCacheOf(env: NodeJS.ProcessEnv, cwd: string, src: DesiredSource, stack: string | undefined): StackCache {
  const inputs = src.cache === false || cacheOffByEnv(env) ? undefined : inputsOf(env, cwd, src, stack);
  const dir = inputs ? cacheDirOf(env) : undefined;
  return dir && inputs ? { store: new ResolutionCache(dir), inputs: cacheKey(inputs) } : undefined;
}

/**
 * The prepared stack of `head` (read from the cache, or made from the manifest `loaded`: then
 * written to the cache once its hash is known, when the stack is first planned or resolved).
 */
function prepared(
  head: Omit<CachedStackHead, 'manifestHash'>,
  hash: () => string,
  cache: StackCache,
  loaders: Loaders,
  loaded: { manifest: Manifest; siblings: SiblingStack[] } | undefined,
  unchanged: () => boolean,
): PreparedStack {
  let have = loaded;
  /** The desired forms (and their fingerprints) of the resolutions this stack answered (made, or read with them). */
  const forms = new WeakMap<Resolution, Forms>();
  let fromKey: boolean | undefined;
  const sameFiles = () => (fromKey ??= unchanged());
  const load = () => {
    have ??= (() => {
      const manifest = loaders.loadStack();
      return { manifest, siblings: loaders.siblingsOf(manifest).siblings };
    })();
    return have;
  };
  let headWritten = !loaded;
  const writeHead = () => {
    if (headWritten || !cache) return;
    headWritten = true;
    const full: CachedStackHead = { ...head, manifestHash: hash() };
    if (sameFiles()) cache.store.write(cacheKey([cache.inputs, 'head']), JSON.stringify(full));
  };
  return {
    prepared: true,
    stack: head.stack,
    namespace: head.namespace,
    region: head.region,
    baseUrl: head.baseUrl,
    grpcEndpoint: head.grpcEndpoint,
    credentialsFrom: head.credentialsFrom,
    resourceCount: head.resourceCount,
    siblingNamespaces: head.siblings.map((s) => s.namespace),
    appNamespaces: head.appNamespaces,
    manifestHash: () => {
      writeHead();
      return hash();
    },
    manifest: () => load().manifest,
    resolve(workspace, opts = {}) {
      writeHead();
      // the variables the head was made with choose the siblings resolution checks against
      const key = cache && cacheKey([cache.inputs, 'resolution', JSON.stringify(head.env), workspace, opts.offline ? 'offline' : 'online']);
      if (cache && key) {
        const hit = cache.store.read(key);
        if (isCachedResolution(hit, head, workspace)) {
          if (hit.desiredForms) forms.set(hit.resolution, { forms: withDesired(hit.resolution, hit.desiredForms), fingerprints: hit.desiredFingerprints });
          return hit.resolution;
        }
      }
      const { manifest, siblings } = load();
      // a plan's resolution: its normalised desired objects too (made once, here, as each resource
      // is resolved, and given to the planner)
      const collect = cache && key && !opts.offline ? formCollector() : undefined;
      const resolution = lazy.resolve().resolveManifest(manifest, workspace, { siblings, offline: opts.offline, settle: collect?.settle });
      if (cache && key) {
        const made = collect ? formsOf(collect.forms(resolution)) : undefined;
        // the texts are the entry's only: not kept with the forms
        if (made) forms.set(resolution, { forms: made.forms, fingerprints: made.fingerprints });
        if (sameFiles()) {
          const body = made ? withoutDesired(resolution, made.forms, () => entryText(resolution, made)) : jsonSafe(resolution) ? JSON.stringify({ resolution } satisfies CachedResolution) : undefined;
          if (body !== undefined) cache.store.write(key, body);
        }
      }
      return resolution;
    },
    desiredForms: (resolution) => forms.get(resolution)?.forms,
    desiredFingerprints: (resolution) => forms.get(resolution)?.fingerprints,
  };
}

/**
 * The body of a resolution entry: the resolution and, for a plan's (online), the normalised
 * desired object of each of its resources (reconcile.ts `handlerDesiredForms`, by index), which
 * the planner would otherwise make again on every plan. A resource whose desired object is its
 * form but for the order of keys (sameJson: most are) is kept once: `desired: null` in the
 * entry, its form in its place when read (a third less to parse at every warm start). What reads
 * a resolved resource's `desired` reads its fields (live-state's ownerships, renamed.ts, an
 * integration's secrets), never the order of its keys.
 */
interface CachedResolution {
  resolution: Resolution;
  desiredForms?: Record<string, unknown>[];
  /** The fingerprint of each form: an unchanged object's liveHash (reconcile.ts `formFingerprints`). */
  desiredFingerprints?: string[];
}

/** A resolution's desired forms and their fingerprints. */
interface Forms {
  forms: Record<string, unknown>[];
  fingerprints?: string[];
  /** Each form's JSON text, when every form is in canonical form and JSON-safe ({@link canonicalTexts}): the fingerprints' and the entry's. */
  texts?: string[];
}

/** How many forms' texts one piece of an entry joins (a piece stays well below V8's large-object size). */
const FORMS_PER_PIECE = 256;

/**
 * `JSON.stringify(body)` of the entry `{ resolution, desiredForms, desiredFingerprints }`, in
 * pieces (their concatenation: ResolutionCache.write), or undefined when it is not
 * {@link jsonSafe}. The forms' texts, when made for their fingerprints, are written as they are:
 * each form is serialised and walked once, not again for the entry.
 */
function entryText(resolution: Resolution, made: Forms): string[] | undefined {
  const { texts, fingerprints } = made;
  if (texts === undefined || fingerprints === undefined) {
    const body: CachedResolution = { resolution, desiredForms: made.forms, desiredFingerprints: fingerprints };
    return jsonSafe(body) ? [JSON.stringify(body)] : undefined;
  }
  if (!jsonSafe(resolution)) return undefined;
  // the large pieces are not concatenated with the small ones (that would copy them)
  const parts = ['{"resolution":', ...lazy.keys().jsonPieces(resolution as unknown as Record<string, unknown>, 'resources'), ',"desiredForms":['];
  for (let i = 0; i < texts.length; i += FORMS_PER_PIECE) parts.push(`${i > 0 ? ',' : ''}${texts.slice(i, i + FORMS_PER_PIECE).join(',')}`);
  parts.push('],"desiredFingerprints":[');
  for (let i = 0; i < fingerprints.length; i += 4 * FORMS_PER_PIECE) parts.push(`${i > 0 ? ',' : ''}${JSON.stringify(fingerprints.slice(i, i + 4 * FORMS_PER_PIECE)).slice(1, -1)}`);
  parts.push(']}');
  return parts;
}

/**
 * `f()` run on `resolution` as cached beside `forms`: each resource whose desired object is its
 * form but for key order has `desired: null` while `f` runs, and its desired object back after
 * (in place: no copy of every resource made for the entry's text, issue 27).
 */
function withoutDesired<T>(resolution: Resolution, forms: readonly Record<string, unknown>[], f: () => T): T {
  const { sameJson } = lazy.planner();
  const rs = resolution.resources;
  const kept: (Record<string, unknown> | null)[] = new Array<Record<string, unknown> | null>(rs.length).fill(null);
  try {
    for (let i = 0; i < rs.length; i++) {
      if (!sameJson(rs[i].desired, forms[i])) continue;
      kept[i] = rs[i].desired;
      rs[i].desired = null as unknown as Record<string, unknown>;
    }
    return f();
  } finally {
    for (let i = 0; i < rs.length; i++) if (kept[i] !== null) rs[i].desired = kept[i] as Record<string, unknown>;
  }
}

/** A cached resolution's resources with `desired: null` get their form back as their desired object (in place); answers the forms. */
function withDesired(resolution: Resolution, forms: Record<string, unknown>[]): Record<string, unknown>[] {
  const rs = resolution.resources;
  for (let i = 0; i < rs.length; i++) if (rs[i].desired === null) rs[i].desired = forms[i];
  return forms;
}

/**
 * Makes each resource's normalised desired object (reconcile.ts `handlerDesiredForms`) as
 * resolution settles it (resolve.ts `settle`). A resource whose desired object is its form but
 * for the order of keys (sameJson: most are) gets its form as its desired object, as a warm
 * run's entry gives it ({@link withDesired}): the first copy is let go of at once, before V8
 * promotes it with the resolution. `forms` answers them in the resolution's order, or undefined
 * when a handler refused one (the planner then says why).
 */
function formCollector(): { settle: (type: ResourceType, desired: Record<string, unknown>) => Record<string, unknown>; forms: (r: Resolution) => Record<string, unknown>[] | undefined } {
  const { HANDLERS } = lazy.kinds();
  const { sameJson } = lazy.planner();
  const formOf = new Map<Record<string, unknown>, Record<string, unknown>>();
  let refused = false;
  return {
    settle(type, desired) {
      if (refused) return desired;
      let form: Record<string, unknown>;
      try {
        form = HANDLERS[type].fromDesired(desired);
      } catch {
        refused = true;
        return desired;
      }
      const kept = sameJson(desired, form) ? form : desired;
      formOf.set(kept, form);
      return kept;
    },
    forms(resolution) {
      if (refused) return undefined;
      const forms: Record<string, unknown>[] = [];
      for (const r of resolution.resources) {
        const f = formOf.get(r.desired);
        if (f === undefined) return undefined;
        forms.push(f);
      }
      return forms;
    },
  };
}

/** The forms' fingerprints (and, when canonical and JSON-safe, their texts: {@link canonicalTexts}), or undefined without forms. */
function formsOf(forms: Record<string, unknown>[] | undefined): Forms | undefined {
  if (forms === undefined) return undefined;
  try {
    // normalised forms are canonical: each one's JSON made once, for its fingerprint and the entry
    const texts = canonicalTexts(forms);
    if (texts === undefined) return { forms, fingerprints: lazy.reconcile().formFingerprints(forms) };
    const { textFingerprint } = lazy.normalise();
    return { forms, fingerprints: texts.map(textFingerprint), texts };
  } catch {
    return undefined;
  }
}

/** A cached body that holds this stack's resolution in `workspace` (its head's fields agree), and one desired form per resource if any. */
function isCachedResolution(v: unknown, head: Pick<CachedStackHead, 'namespace' | 'stack'>, workspace: string): v is CachedResolution {
  if (!v || typeof v !== 'object') return false;
  const { resolution: r, desiredForms: f, desiredFingerprints: h } = v as Partial<{ resolution: Partial<Resolution>; desiredForms: unknown; desiredFingerprints: unknown }>;
  if (!r || typeof r !== 'object') return false;
  if (!(r.workspace === workspace && r.namespace === head.namespace && r.stack === head.stack && Array.isArray(r.resources) && Array.isArray(r.removed) && Array.isArray(r.diagnostics))) return false;
  const isObject = (x: unknown) => !!x && typeof x === 'object' && !Array.isArray(x);
  // a resource's desired object, or null when the form stands for it
  if (f === undefined) return r.resources.every((x) => isObject((x as Partial<ResolvedResource> | null)?.desired));
  if (h !== undefined && !(Array.isArray(h) && h.length === r.resources.length && h.every((x) => typeof x === 'string'))) return false;
  return Array.isArray(f) && f.length === r.resources.length && f.every(isObject) && r.resources.every((x) => isObject(x) && (x.desired === null || isObject(x.desired)));
}

/**
 * True when JSON.parse(JSON.stringify(v)) gives `v` back as dqform reads it: plain objects and
 * arrays, finite numbers other than -0, no `undefined` in an array, no `toJSON` and no
 * `__proto__` key (an object's `undefined` fields are dropped, which reads the same). A value
 * that is not is simply not cached.
 */
export function jsonSafe(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || !jsonSafe(v[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  for (const k in v) {
    if (k === '__proto__' || k === 'toJSON') return false;
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined && !jsonSafe(x)) return false;
  }
  return true;
}

/**
 * `JSON.stringify` of each value, when every one is both in canonical form (what a fingerprint
 * hashes: schemas/tools/canonical-json.ts `isCanonicalJson`) and {@link jsonSafe}; else undefined.
 */
export function canonicalTexts(values: readonly unknown[]): string[] | undefined {
  const texts: string[] = [];
  for (let i = 0; i < values.length; i++) {
    if (!canonicalSafe(values[i])) return undefined;
    texts.push(JSON.stringify(values[i]));
  }
  return texts;
}

/** `isCanonicalJson(v) && jsonSafe(v)` in one walk. */
function canonicalSafe(v: unknown): boolean {
  if (v === null || typeof v === 'string' || typeof v === 'boolean') return true;
  if (typeof v === 'number') return Number.isFinite(v) && !Object.is(v, -0);
  if (typeof v !== 'object') return false;
  if (Array.isArray(v)) {
    for (let i = 0; i < v.length; i++) if (v[i] === undefined || !canonicalSafe(v[i])) return false;
    return true;
  }
  const proto = Object.getPrototypeOf(v) as unknown;
  if (proto !== Object.prototype && proto !== null) return false;
  let prev: string | undefined;
  for (const k in v) {
    if ((prev !== undefined && prev > k) || k === '__proto__' || k === 'toJSON') return false;
    prev = k;
    const x = (v as Record<string, unknown>)[k];
    if (x !== undefined && !canonicalSafe(x)) return false;
  }
  return true;
}

/** A YAML file larger than the loader reads (src/engine/yaml.ts MAX_YAML_BYTES) is not cached: the loader refuses it. */
const MAX_YAML_BYTES = 5 * 1024 * 1024;

/**
 * The key parts of the stack's inputs (see the module's comment), or undefined when the stack
 * cannot be told without loading it (several stacks and none chosen, a name not listed, an
 * unreadable file): then it is loaded uncached, and the loader says what is wrong.
 */
function inputsOf(env: NodeJS.ProcessEnv, cwd: string, src: DesiredSource, stack: string | undefined): (string | Buffer)[] | undefined {
  const parts: (string | Buffer)[] = [...codeIdentity(), env.DQ_BASE_URL ?? '\u0000', env.DQ_REGION ?? '\u0000', env.DQ_CLIENT_ID ?? '\u0000', src.kind];
  try {
    if (src.kind === 'yaml') {
      if (fs.statSync(src.file).size > MAX_YAML_BYTES) return undefined;
      parts.push(path.resolve(src.file), path.relative(cwd, src.file) || src.file, stack ?? '\u0000', fs.readFileSync(src.file));
      return parts;
    }
    const dir = path.resolve(src.dir);
    const listed = listedStacks(dir);
    const name = stack ?? (listed.stacks.length === 1 ? listed.stacks[0] : undefined);
    if (name === undefined || !listed.stacks.includes(name)) return undefined;
    parts.push(dir, name, JSON.stringify(listed));
    for (const s of listed.stacks) {
      let bytes: Buffer | string;
      try {
        bytes = fs.readFileSync(path.join(dir, 'stacks', s, 'cdk.tf.json'));
      } catch {
        if (s === name) return undefined;
        bytes = '\u0000unreadable';
      }
      parts.push(s, bytes);
    }
    return parts;
  } catch {
    return undefined;
  }
}

let identity: string[] | undefined;

/**
 * What identifies the code that resolves: dqform's version, Node's major version and its ICU,
 * Unicode and time-zone data; in a checkout (the sources beside it, which change without a new
 * version), the path, size and mtime of every source file.
 */
export function codeIdentity(): string[] {
  if (identity) return identity;
  let root: string | undefined;
  let version = '0.0.0';
  for (let d = __dirname; d !== path.dirname(d); d = path.dirname(d)) {
    const f = path.join(d, 'package.json');
    if (fs.existsSync(f)) {
      root = d;
      try {
        version = String((JSON.parse(fs.readFileSync(f, 'utf8')) as { version?: string }).version ?? '0.0.0');
      } catch {
        // the version stays unknown
      }
      break;
    }
  }
  const v = process.versions;
  const out = ['dqform-resolution-cache', version, process.versions.node.split('.')[0], v.icu ?? '', v.unicode ?? '', v.tz ?? ''];
  // the running module itself (a bundle is one file), then a checkout's sources
  const self = fs.statSync(__filename, { throwIfNoEntry: false });
  out.push(`${__filename}:${self?.size}:${self?.mtimeMs}`);
  if (root && fs.existsSync(path.join(root, 'src', 'cli', 'main.ts'))) {
    const files: string[] = [];
    for (const top of ['src', 'schemas', 'dist']) {
      const base = path.join(root, top);
      if (!fs.existsSync(base)) continue;
      for (const rel of (fs.readdirSync(base, { recursive: true }) as string[]).sort()) {
        const st = fs.statSync(path.join(base, rel), { throwIfNoEntry: false });
        if (st?.isFile()) files.push(`${top}/${rel}:${st.size}:${st.mtimeMs}`);
      }
    }
    out.push(sha256(files.join('\n')));
  }
  identity = out;
  return out;
}
