/**
 * Identity: ids the engine derives so that re-running after a crash adopts what the first run
 * created instead of duplicating it.
 *
 * id  = UUIDv5(DQFORM_NAMESPACE_UUID, `<workspace>/<namespace>/<type>/<name>`), where `<name>` is
 *       the resource's name in its address (`dq_alert.<name>`), which cdktf derives from the
 *       construct path (and a YAML file from the key). A `moved` block carries the identity of
 *       its `from` address to its `to` address.
 * fqn = `<namespace>.<name>` for alerts, unless pinned.
 */
import { createHash } from 'node:crypto';
import type { ResourceType } from '../../schemas/manifest';

/** The fixed UUID namespace of dqform's v5 ids. Changing it would orphan every object. */
export const DQFORM_NAMESPACE_UUID = '2f1b8e4e-6a0d-5c57-9b8e-3d4c1a7f9e21';

function uuidBytes(uuid: string): Buffer {
  return Buffer.from(uuid.replace(/-/g, ''), 'hex');
}

/** RFC 4122 version-5 (SHA-1) UUID of `name` in `namespace`. */
export function uuidv5(name: string, namespace: string = DQFORM_NAMESPACE_UUID): string {
  const hash = createHash('sha1').update(uuidBytes(namespace)).update(name, 'utf8').digest();
  const b = Buffer.from(hash.subarray(0, 16));
  b[6] = (b[6] & 0x0f) | 0x50;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/** The derived id of the resource at `<type>.<name>`. */
export function deriveId(workspace: string, namespace: string, type: ResourceType, name: string): string {
  return uuidv5(`${workspace}/${namespace}/${type}/${name}`);
}

/** The default fqn of an alert. */
export function defaultFqn(namespace: string, name: string): string {
  return `${namespace}.${name}`;
}

/** Entity-id prefixes of the kinds that have one (`owner-<uuid>`, what alerts' owner targets name). */
export const ENTITY_ID_PREFIX: Partial<Record<ResourceType, string>> = {
  dq_owner: 'owner-',
  dq_data_product: 'dataproduct-',
  dq_domain: 'domain-',
};

/** Strips a `owner-`/`domain-`/`dataproduct-` prefix: the platform accepts both forms. */
export function bareId(id: string): string {
  return id.replace(/^(owner|domain|dataproduct)-(?=[0-9a-f]{8}-)/i, '');
}

/** Splits `dq_alert.name` into its parts; undefined when it is not an address. */
export function parseAddress(address: string): { type: string; name: string } | undefined {
  const m = /^([a-z][a-z0-9_]*)\.([^.\s]+)$/.exec(address);
  return m ? { type: m[1], name: m[2] } : undefined;
}
