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

// each kind's desired shape (`Desired<Kind>`) lives in its file under kinds/ with its record
export { Lifecycle };

type AnyKind = SchemaKinds[number];
/** The kinds in dependency order (`order`), each record (its zod schemas) loaded when first asked for. */
const LOADERS = [...SCHEMA_KIND_LOADERS].sort((a, b) => a.order - b.order);
type Loader = (typeof LOADERS)[number];

function recordOf(l: Loader): SchemaKind {
  const r = l.load();
  if (r.type !== l.type || r.order !== l.order) throw new Error(`schemas/model/kinds.generated.ts is stale for ${l.type}: run \`npm run registries\``);
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

export const ManifestResource = z.object({
  /** `<type>.<name>`, e.g. `dq_alert.orders_issues`. */
  address: z.string(),
  type: z.enum(RESOURCE_TYPES as [ResourceType, ...ResourceType[]]),
  name: z.string(),
  /** The desired shape for `type` (validated with RESOURCE_SCHEMAS[type] after reference resolution). */
  config: z.record(z.string(), z.unknown()),
  /** Where it was declared: construct path, or `file:line:column` for YAML. */
  source: z.string().optional(),
  lifecycle: Lifecycle.default({}),
  dependsOn: z.array(z.string()).default([]),
});
export type ManifestResource = z.infer<typeof ManifestResource>;

/** An environment variable's name: upper-case letters, digits and "_", not starting with a digit. */
export const ENV_VAR_NAME = /^[A-Z_][A-Z0-9_]{0,127}$/;
const envVarName = z.string().regex(ENV_VAR_NAME, 'must be the NAME of an environment variable (upper-case letters, digits and "_", e.g. DQ_PROD_CLIENT_ID), never a credential itself');

/**
 * The suffix every client-secret variable's name ends with. dqform knows a secret by its name
 * alone before it reads any input (src/cli/credential-variables.ts): it withholds such variables
 * from the app on a fresh checkout, refuses them in a CI synth and masks their values, so a stack
 * may take its client secret only from a variable named this way.
 */
export const CLIENT_SECRET_SUFFIX = '_CLIENT_SECRET';
/** Why a `credentialsFrom.clientSecret` name that does not end in {@link CLIENT_SECRET_SUFFIX} is refused (the name is not echoed: it may be the secret). */
export const CLIENT_SECRET_NAME_MESSAGE = `must name a variable ending in ${CLIENT_SECRET_SUFFIX}, e.g. DQ_PROD_CLIENT_SECRET: dqform withholds only such variables from the app, refuses them in a CI synth and masks them in output`;

/** Where a stack's credentials come from: environment variable names. */
export const CredentialsFrom = z.strictObject({
  clientId: envVarName.optional().describe('the environment variable holding the client id (default DQ_CLIENT_ID)'),
  clientSecret: envVarName
    .refine((v) => !ENV_VAR_NAME.test(v) || v.endsWith(CLIENT_SECRET_SUFFIX), CLIENT_SECRET_NAME_MESSAGE)
    .optional()
    .describe(`the environment variable holding the client secret, a name ending in ${CLIENT_SECRET_SUFFIX} (default DQ_CLIENT_SECRET)`),
});
export type CredentialsFrom = z.infer<typeof CredentialsFrom>;

export const Manifest = z.object({
  formatVersion: z.literal(1),
  stack: z.string(),
  namespace: z.string().regex(/^[a-z0-9][a-z0-9_.-]{0,62}$/, 'namespace: lower-case letters, digits, "_", "-" and "."; at most 63 characters'),
  region: z.enum(['eu', 'us', 'au']).optional(),
  baseUrl: z.string().optional(),
  /** The gRPC endpoint of this stack's rule previews (`host:port`, `https://host:port`, `http://host:port`); see docs/environments.md. */
  grpcEndpoint: z.string().optional(),
  /**
   * The NAMES of the environment variables this stack's credentials come from (never their
   * values); absent: DQ_CLIENT_ID and DQ_CLIENT_SECRET.
   */
  credentialsFrom: CredentialsFrom.optional(),
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
