/**
 * The `dqform.yaml` workspace document: the YAML front end's shape. It describes the same
 * kinds as the constructs, in the manifest's desired shapes (lowerCamelCase, as in
 * `RESOURCE_SCHEMAS`), keyed by name (the name becomes the address `dq_<type>.<name>`), plus a
 * few friendlier forms for references that the loader translates:
 *
 * - anywhere: `${dq_owner.team.id}`, `${dq_owner.team.entity_id}` (as in Terraform JSON);
 * - ownerships: `owner: team` (for `ownerId`), `dataProduct: orders` or `query: "<ResolverQL>"`
 *   (for `selection`);
 * - domains: `parent: commerce` (for `parentId`); definition parts `dataProduct: orders`,
 *   `domain: sub`, `query: "<ResolverQL>"`;
 * - data products: definition parts `query: "<ResolverQL>"`;
 * - alerts: `trigger: "<ResolverQL>"`, targets `- owner: team` (the owner's entity id);
 * - monitor deployment rules: `productConfig.product: orders` (for `productId`).
 *
 * `schemas/dqform.schema.json` is generated from {@link DqformYaml} (`npm run schema`).
 */
import { z } from 'zod';
import { CredentialsFrom, KIND_RECORDS, Manifest, type ResourceType } from './manifest';
import type { SchemaKinds } from './kinds.generated';

// each kind's entry shape (`Yaml<Kind>`) lives in its file under kinds/ with its record

type AnyKind = SchemaKinds[number];

/** A resource name: the `<name>` of `dq_<type>.<name>`. */
export const ResourceName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,127}$/, 'a name starts with a letter or "_" and has letters, digits, "_" and "-" only');

/** Section name -> resource type, in the document's (dependency) order (from the kinds' records). */
export const YAML_SECTIONS = Object.fromEntries(KIND_RECORDS.map((k) => [k.yaml.section, k.type])) as { readonly [K in AnyKind as K['yaml']['section']]: K['type'] };
export type YamlSection = keyof typeof YAML_SECTIONS;
/** Resource type -> section name. */
export const SECTION_OF: Record<ResourceType, YamlSection> = Object.fromEntries(Object.entries(YAML_SECTIONS).map(([s, t]) => [t, s])) as Record<ResourceType, YamlSection>;

const section = <T extends z.ZodType>(entry: T, what: string) =>
  z.record(ResourceName, entry).optional().describe(`${what}, keyed by name (the name makes the address)`);

/** One section per kind, keyed by name, in dependency order. */
const sections = Object.fromEntries(KIND_RECORDS.map((k) => [k.yaml.section, section(k.yaml.entry, `${k.yaml.what} (${k.type})`)])) as {
  readonly [K in AnyKind as K['yaml']['section']]: z.ZodOptional<z.ZodRecord<typeof ResourceName, K['yaml']['entry']>>;
};

/** The whole `dqform.yaml` document. */
export const DqformYaml = z
  .object({
    /** Editor hint (the JSON Schema's location); ignored. */
    $schema: z.string().optional().describe('where editors find this schema; ignored by dqform'),
    /** Document format version. */
    version: z.literal(1).optional().describe('document format version (1)'),
    namespace: Manifest.shape.namespace.describe('the namespace this file manages: objects with it that the file no longer declares are deleted'),
    /** Stack name. @default the namespace */
    stack: z.string().regex(/^[A-Za-z0-9_-]+$/).optional().describe('stack name shown in plans (default: the namespace)'),
    region: z.enum(['eu', 'us', 'au']).optional().describe('platform region of this stack (default: DQ_BASE_URL, else DQ_REGION, else eu)'),
    baseUrl: z.string().optional().describe('platform base URL of this stack; overrides region (default: DQ_BASE_URL, else DQ_REGION)'),
    grpcEndpoint: z.string().optional().describe('gRPC endpoint of this stack\'s rule previews (host:port, https://host:port or http://host:port; default: the baseUrl\'s host on 443, none for a baseUrl on this machine; DQ_GRPC_ENDPOINT for a stack that sets no platform)'),
    credentialsFrom: CredentialsFrom.optional().describe('the NAMES of the environment variables holding this stack\'s credentials (default DQ_CLIENT_ID, DQ_CLIENT_SECRET); never the credentials themselves'),
    ...sections,
    /** Identity follows a renamed resource: `{ from: dq_owner.old, to: dq_owner.new }`. */
    moved: z
      .array(z.object({ from: z.string().describe('the old address, e.g. dq_owner.old'), to: z.string().describe('the new address, e.g. dq_owner.new') }))
      .optional()
      .describe('renamed resources keep their identity; keep these entries'),
    /** Adopt an existing object: `{ to: dq_owner.team, id: <uuid> }` (alerts: `id: <fqn>`). */
    import: z
      .array(z.object({ to: z.string().describe('the address to adopt it into, e.g. dq_owner.team'), id: z.string().min(1).describe('the live object\'s id (alerts: its fqn)') }))
      .optional()
      .describe('adopt existing objects (made in the UI or elsewhere); keep these entries'),
    /** Delete what lived at an address: `dq_domain.old` or `{ from: dq_domain.old, destroy: false }`. */
    removed: z
      .array(
        z.union([
          z.string().describe('an address to delete'),
          z.object({
            from: z.string().describe('the address, e.g. dq_domain.old'),
            destroy: z.boolean().optional().describe('false: stop managing it and leave it in place (default true: delete)'),
            id: z.string().optional().describe('the object\'s id when it was pinned, moved or imported'),
          }),
        ]),
      )
      .optional()
      .describe('objects to delete (or, with destroy: false, to stop managing)'),
  })
  .describe('dqform workspace: the data-quality platform configuration as code');
export type DqformYaml = z.input<typeof DqformYaml>;

/** The entry schema of each resource type. */
export const YAML_ENTRY_SCHEMAS = Object.fromEntries(KIND_RECORDS.map((k) => [k.type, k.yaml.entry])) as Record<ResourceType, z.ZodType>;

/**
 * The JSON Schema of `dqform.yaml` (input side: enums by name or number), in draft-07, the
 * dialect the common YAML editor extension (yaml-language-server) supports. Every object schema
 * outside `allOf` gets `additionalProperties: false`, so editors flag unknown fields as the
 * loader does; every property carries a description (from the zod schemas' `.describe()`), and a
 * property that refers to a shared definition is written `{ description, allOf: [{ $ref }] }`
 * because draft-07 ignores the siblings of `$ref`.
 */
export function dqformJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(DqformYaml, { io: 'input', unrepresentable: 'any', target: 'draft-7' }) as Record<string, unknown>;
  const definitions = (js.definitions ?? {}) as Record<string, { description?: string }>;
  const refDescription = (ref: string) => definitions[ref.replace(/^#\/definitions\//, '')]?.description;
  const visit = (v: unknown, allOfMember: boolean): void => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, allOfMember));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.type === 'object' && o.properties && o.additionalProperties === undefined && !allOfMember) o.additionalProperties = false;
    if (o.properties) {
      const props = o.properties as Record<string, Record<string, unknown>>;
      for (const [k, p] of Object.entries(props)) {
        const only = Array.isArray(p.allOf) && p.allOf.length === 1 ? (p.allOf[0] as Record<string, unknown>) : undefined;
        if (typeof p.$ref === 'string') {
          const { $ref, ...rest } = p;
          props[k] = { ...rest, description: rest.description ?? refDescription($ref as string), allOf: [{ $ref }] };
        } else if (only && typeof only.$ref === 'string' && p.description === undefined) {
          props[k] = { ...p, description: refDescription(only.$ref) };
        }
      }
    }
    for (const [k, x] of Object.entries(o)) {
      if (k === 'properties' || k === 'definitions') for (const y of Object.values(x as object)) visit(y, false);
      else visit(x, k === 'allOf');
    }
  };
  visit(js, false);
  js.title = 'dqform.yaml';
  return js;
}
