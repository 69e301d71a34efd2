/**
 * The manifest: desired state, independent of the front end that produced it (CDKTF synth
 * output or a YAML file). The engine reads only this.
 *
 * Desired shapes are the API's write shapes in lowerCamelCase, minus what the engine fills in:
 * - `id` is optional: when absent the engine derives it (a UUIDv8 carrying the namespace tag:
 *   `src/engine/identity.ts`); alerts are addressed by `fqn`, default `<namespace>.<name>`.
 * - `configId` and `source` are set by the engine (`configId = namespace`, `SOURCE_API`).
 * - Values may hold Terraform references (`${dq_owner.team.id}`, `${dq_owner.team.entity_id}`),
 *   which the engine resolves to the referenced object's id or entity id before diffing.
 * In Terraform JSON the attribute names are snake_case; the engine converts keys to
 * lowerCamelCase before validating against these schemas.
 */
import { z } from 'zod';
import { SCHEMA_KIND_LOADERS, type SchemaKinds } from './kinds.generated';
import { Lifecycle, type SchemaKind } from './kind';
import { ManifestPlatform } from './manifest-platform';

// each kind's desired shape (`Desired<Kind>`) lives in its file under kinds/ with its record
export { Lifecycle };
export { CLIENT_SECRET_NAME_MESSAGE, CLIENT_SECRET_SUFFIX, CredentialsFrom, ENV_VAR_NAME, ManifestPlatform } from './manifest-platform';

type AnyKind = SchemaKinds[number];
/** The kinds in dependency order (`order`), each record (its zod schemas) loaded when first asked for. */
const LOADERS = [...SCHEMA_KIND_LOADERS].sort((a, b) => a.order - b.order);
type Loader = (typeof LOADERS)[number];

/** The records loaded so far, by loader. */
const RECORDS = new Map<Loader, SchemaKind>();

/**
 * The record of `l`, loaded once: every later read is a map lookup. (In the bundle, esbuild's
 * `require()` of a module it wraps copies the module's exports into a new object on every call:
 * resolution reads `RESOURCE_SCHEMAS[type]` once per resource, issue 27.)
 */
function recordOf(l: Loader): SchemaKind {
  const known = RECORDS.get(l);
  if (known) return known;
  const r = l.load();
  if (r.type !== l.type || r.order !== l.order) throw new Error(`schemas/model/kinds.generated.ts is stale for ${l.type}: run \`npm run registries\``);
  RECORDS.set(l, r);
  return r;
}

/** A read-only array made on first use (every property read goes to it). */
function lazyList<T>(make: () => readonly T[]): readonly T[] {
  let list: readonly T[] | undefined;
  const real = (): readonly T[] => (list ??= make());
  return new Proxy([] as T[], {
    get: (_t, k) => Reflect.get(real(), k),
    has: (_t, k) => Reflect.has(real(), k),
    ownKeys: () => Reflect.ownKeys(real()),
    getOwnPropertyDescriptor: (_t, k) => Reflect.getOwnPropertyDescriptor(real(), k),
  });
}

/** Every kind's record (schemas/model/kind.ts), in dependency order (`order`); loads every kind's schemas when first read. */
export const KIND_RECORDS: readonly SchemaKind[] = lazyList(() => LOADERS.map(recordOf));

/**
 * The resource types, their desired schemas, in dependency order (from the kinds' records); a
 * kind's schemas are loaded when its entry is first read (synth of an app that declares no
 * integration never builds the integrations' schemas).
 */
export const RESOURCE_SCHEMAS = Object.defineProperties(
  {},
  Object.fromEntries(LOADERS.map((l) => [l.type, { enumerable: true, get: () => recordOf(l).desired }])),
) as { readonly [K in AnyKind as K['type']]: K['desired'] };
export type ResourceType = keyof typeof RESOURCE_SCHEMAS;
export const RESOURCE_TYPES = LOADERS.map((l) => l.type) as ResourceType[];

// fields in sorted order (zod's output order): a resource the loader builds in the manifest's
// canonical order (src/engine/manifest.ts) is its own parse output, not copied (issue 27)
export const ManifestResource = z.object({
  /** `<type>.<name>`, e.g. `dq_alert.orders_issues`. */
  address: z.string(),
  /** The desired shape for `type` (validated with RESOURCE_SCHEMAS[type] after reference resolution). */
  config: z.record(z.string(), z.unknown()),
  dependsOn: z.array(z.string()).default([]),
  lifecycle: Lifecycle.default({}),
  name: z.string(),
  /** Where it was declared: construct path, or `file:line:column` for YAML. */
  source: z.string().optional(),
  type: z.enum(RESOURCE_TYPES as [ResourceType, ...ResourceType[]]),
});
export type ManifestResource = z.infer<typeof ManifestResource>;

export const Manifest = z.object({
  formatVersion: z.literal(1),
  // stack, namespace, region, baseUrl, grpcEndpoint, credentialsFrom (./manifest-platform.ts)
  ...ManifestPlatform.shape,
  resources: z.array(ManifestResource),
  /** Terraform `moved` blocks: identity follows the object to its new address. */
  moved: z.array(z.object({ from: z.string(), to: z.string() })).default([]),
  /** Terraform `import` blocks: adopt the live object `id` (an id, or an fqn for alerts) at address `to`. */
  imports: z.array(z.object({ to: z.string(), id: z.string() })).default([]),
  /**
   * Terraform `removed` blocks: `destroy: true` deletes the object that lived at `from`;
   * `destroy: false` stops managing it and leaves it in place (the block then keeps it from
   * being pruned). `id` (a dqform extension) names the object when its identity was pinned,
   * moved or imported, so that it is not derived from `from`.
   */
  removed: z.array(z.object({ from: z.string(), destroy: z.boolean().default(true), id: z.string().min(1).optional() })).default([]),
});
export type Manifest = z.infer<typeof Manifest>;
