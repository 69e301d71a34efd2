/**
 * Identity: ids the engine derives so that re-running after a crash adopts what the first run
 * created instead of duplicating it, and so that every object says which namespace owns it
 * (design.md, "Identity and ownership"): dqform keeps no state file.
 *
 * id  = a UUIDv8 (RFC 9562, "custom"):
 *       - bits 0-47 (the first 12 hex digits): the namespace tag, the first 48 bits of
 *         sha256(JSON ["dqform-namespace-tag", workspace, namespace]);
 *       - the other bits: sha256(JSON ["dqform-id", workspace, namespace, type, name]), where
 *         `<name>` is the resource's name in its address (`dq_owner.<name>`), which cdktf derives
 *         from the construct path (and a YAML file from the key);
 *       - version 8 (bits 48-51) and the RFC variant `10` (bits 64-65) set.
 *       One function for every kind whose id the caller chooses (domains, data products, owners,
 *       ownerships, both kinds of deployment rule, SQL tests). A `moved` block carries the
 *       identity of its `from` address to its `to` address; a pinned `id` opts out (it carries
 *       whatever tag it has, usually none).
 * tag = an object whose id carries the tag of (workspace, namespace) belongs to that namespace:
 *       {@link carriesTag}. This is how domains, data products, owners and ownerships, which have
 *       no `configId` upstream, are pruned and imported by namespace.
 * fqn = `<namespace>.<name>` for alerts, unless pinned.
 *
 * dqform 0.1 derived UUIDv5 ids; it was never published, so nothing migrates them (README,
 * changelog).
 */
import { hash } from 'node:crypto';
import type { ResourceType } from '../../schemas/model/manifest';
import { ENTITY_ID_PREFIX, stripEntityPrefix } from '../kinds/descriptors';

/** sha256 of the JSON of `parts`, as 64 lower-case hex digits (one-shot `crypto.hash`: no Hash object per id). */
const sha256 = (parts: readonly string[]): string => hash('sha256', JSON.stringify(parts), 'hex');

const tagCache = new Map<string, string>();
/** The last pair asked (a plan asks for its own namespace's tag once per object): no key string built. */
let lastTag: { workspace: string; namespace: string; tag: string } | undefined;

/** The namespace tag of (workspace, namespace): 12 lower-case hex digits, the first 48 bits of every id the namespace derives. */
export function namespaceTag(workspace: string, namespace: string): string {
  if (lastTag !== undefined && lastTag.workspace === workspace && lastTag.namespace === namespace) return lastTag.tag;
  const tag = tagOfNamespace(workspace, namespace);
  lastTag = { workspace, namespace, tag };
  return tag;
}

function tagOfNamespace(workspace: string, namespace: string): string {
  const k = `${workspace}\u0000${namespace}`;
  let t = tagCache.get(k);
  if (t === undefined) {
    t = sha256(['dqform-namespace-tag', workspace, namespace]).slice(0, 12);
    if (tagCache.size > 10_000) tagCache.clear();
    tagCache.set(k, t);
  }
  return t;
}

const HEX = '0123456789abcdef';

/**
 * The JSON text of `["dqform-id", workspace, namespace, ` for the last pair asked: a plan derives
 * every id of one namespace, so the per-id input is this prefix and two JSON strings (the same
 * text as `JSON.stringify(["dqform-id", workspace, namespace, type, name])`, issue 27).
 */
let lastIdPrefix: { workspace: string; namespace: string; prefix: string } | undefined;

function idPrefix(workspace: string, namespace: string): string {
  if (lastIdPrefix === undefined || lastIdPrefix.workspace !== workspace || lastIdPrefix.namespace !== namespace) {
    lastIdPrefix = { workspace, namespace, prefix: `["dqform-id",${JSON.stringify(workspace)},${JSON.stringify(namespace)},` };
  }
  return lastIdPrefix.prefix;
}

/** The derived id of the resource at `<type>.<name>` of `namespace` in `workspace` (a UUIDv8 carrying the namespace tag). */
export function deriveId(workspace: string, namespace: string, type: ResourceType, name: string): string {
  // bytes 0-5: the tag; bytes 6-15: the first 10 bytes of the hash (hex digits 0-19), with the
  // version (the high nibble of byte 6) and the variant (the top two bits of byte 8) set
  const t = namespaceTag(workspace, namespace);
  const h = hash('sha256', `${idPrefix(workspace, namespace)}${JSON.stringify(type)},${JSON.stringify(name)}]`, 'hex');
  const variant = HEX[(HEX.indexOf(h[4]) & 0x3) | 0x8];
  return `${t.slice(0, 8)}-${t.slice(8, 12)}-8${h.slice(1, 4)}-${variant}${h.slice(5, 8)}-${h.slice(8, 20)}`;
}

const V8 = /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The bare, lower-case form of an id (`owner-<UUID>` -> `<uuid>`). */
function canonical(id: string): string {
  return bareId(id).toLowerCase();
}

/** True when `id` has the shape of a dqform-derived id (UUIDv8, RFC variant): it carries some namespace's tag. */
export function isDerivedShape(id: string): boolean {
  return V8.test(canonical(id));
}

/** The namespace tag `id` carries (12 hex digits), or undefined when it is not a UUIDv8. */
export function tagOf(id: string): string | undefined {
  const c = canonical(id);
  return V8.test(c) ? c.slice(0, 8) + c.slice(9, 13) : undefined;
}

/** True when `id` carries the tag of (workspace, namespace): the object belongs to that namespace. */
export function carriesTag(id: string, workspace: string, namespace: string): boolean {
  return tagOf(id) === namespaceTag(workspace, namespace);
}

/**
 * Who an id says owns its object, seen from `namespace`: `namespace` (it carries the tag),
 * `other` (a UUIDv8 with another namespace's tag) or `none` (any other id: made in the UI, or
 * pinned).
 */
export function idOwner(id: string, workspace: string, namespace: string): 'namespace' | 'other' | 'none' {
  const t = tagOf(id);
  if (t === undefined) return 'none';
  return t === namespaceTag(workspace, namespace) ? 'namespace' : 'other';
}

/** Of `candidates`, the namespace whose tag `id` carries in `workspace`, if any. */
export function namespaceOfId(id: string, workspace: string, candidates: Iterable<string>): string | undefined {
  const t = tagOf(id);
  if (t === undefined) return undefined;
  for (const ns of candidates) if (namespaceTag(workspace, ns) === t) return ns;
  return undefined;
}

/** The default fqn of an alert. */
export function defaultFqn(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/** Entity-id prefixes of the kinds that have one (`owner-<uuid>`, what alerts' owner targets name). */
export { ENTITY_ID_PREFIX };

/** Strips a `owner-`/`domain-`/`dataproduct-` prefix: the platform accepts both forms. */
export function bareId(id: string): string {
  return stripEntityPrefix(id);
}

/** Splits `dq_alert.name` into its parts; undefined when it is not an address. */
export function parseAddress(address: string): { type: string; name: string } | undefined {
  const m = /^([a-z][a-z0-9_]*)\.([^.\s]+)$/.exec(address);
  return m ? { type: m[1], name: m[2] } : undefined;
}
