/**
 * Builds the Terraform provider schema (the `terraform providers schema -json` format) of the
 * `dq` provider from the zod desired schemas in `schemas/model/manifest.ts`. Pure: no I/O.
 *
 * Mapping (documented choices):
 * - attribute names are the zod keys in snake_case;
 * - string, enum (protobuf enums, written as their names) and literal -> `string`; number -> `number`;
 *   boolean -> `bool`; an array of scalars -> `["list", <scalar>]`;
 * - an object -> a nested block (`nesting_mode: "single"`), an array of objects -> a `list` block
 *   (`min_items: 1` when the zod array requires it); oneofs are blocks whose keys are all optional;
 * - recursive shapes (`z.lazy`: queries, entity identifiers) and unions -> `dynamic`: the
 *   constructs write those values already in snake_case;
 * - every resource gets a computed `id` (optional where the desired shape lets the user pin it);
 *   owners, domains and data products get a computed `entity_id`;
 * - an alert's `fqn` is left out: it would collide with cdktf's `TerraformElement.fqn`; the
 *   `Alert` construct writes a pinned fqn with `addOverride('fqn', ...)`.
 */
import type { z } from 'zod';
import { KIND_RECORDS, RESOURCE_SCHEMAS, type ResourceType } from '../../schemas/model/manifest';
import { arrayElementOf, arrayMinLength, innerOf, kindOf, objectShape, unwrapOnce } from '../../schemas/tools/zod-walk';

/** The registry address of the provider (what `required_providers.dq.source` says). */
export const PROVIDER_SOURCE = 'dqform/dq';
/** The provider version written into `required_providers.dq.version`. */
export const PROVIDER_VERSION = '0.1.0';
/** The fully qualified provider name used as the key in the schema JSON. */
export const PROVIDER_FQPN = `registry.terraform.io/${PROVIDER_SOURCE}`;

type TfType = string | [string, TfType];
export interface TfAttribute {
  type: TfType;
  description?: string;
  required?: boolean;
  optional?: boolean;
  computed?: boolean;
}
export interface TfBlock {
  attributes?: Record<string, TfAttribute>;
  block_types?: Record<string, TfBlockType>;
  description?: string;
}
export interface TfBlockType {
  nesting_mode: 'single' | 'list';
  block: TfBlock;
  min_items?: number;
  max_items?: number;
}
export interface ProviderSchemaJson {
  format_version: string;
  provider_schemas: Record<string, { provider: { version: number; block: TfBlock }; resource_schemas: Record<string, { version: number; block: TfBlock }>; data_source_schemas: Record<string, unknown> }>;
  provider_versions: Record<string, string>;
}

/** lowerCamelCase -> snake_case (`resolverQl` -> `resolver_ql`, `msTeams` -> `ms_teams`). */
export function toSnake(s: string): string {
  return s.replace(/([a-z0-9])([A-Z])/g, '$1_$2').replace(/([A-Z])([A-Z][a-z])/g, '$1_$2').toLowerCase();
}

/** Strips optional/default/nullable/readonly wrappers; reports whether the value may be absent. */
function unwrap(s: z.ZodType): { inner: z.ZodType; optional: boolean } {
  let optional = false;
  let cur = s;
  for (;;) {
    const kind = kindOf(cur);
    if (kind === 'optional' || kind === 'default' || kind === 'prefault' || kind === 'nullable') {
      optional = true;
      cur = innerOf(cur) as z.ZodType;
    } else if (kind === 'readonly' || kind === 'catch') {
      cur = innerOf(cur) as z.ZodType;
    } else if (kind === 'pipe') {
      // protoEnum codecs: the output side is the name enum.
      cur = unwrapOnce(cur, { pipe: 'out' }) as z.ZodType;
    } else return { inner: cur, optional };
  }
}

type Kind = { kind: 'scalar'; tf: string } | { kind: 'dynamic' } | { kind: 'object'; shape: Record<string, z.ZodType> } | { kind: 'array'; element: z.ZodType; min: number };

function classify(s: z.ZodType): Kind {
  switch (kindOf(s)) {
    case 'string':
    case 'enum':
    case 'literal':
      return { kind: 'scalar', tf: 'string' };
    case 'number':
    case 'int':
      return { kind: 'scalar', tf: 'number' };
    case 'boolean':
      return { kind: 'scalar', tf: 'bool' };
    case 'object':
      return { kind: 'object', shape: objectShape(s) as Record<string, z.ZodType> };
    case 'array':
      return { kind: 'array', element: arrayElementOf(s) as z.ZodType, min: arrayMinLength(s) };
    default:
      // lazy (recursive queries and identifiers), unions, records: free-form JSON.
      return { kind: 'dynamic' };
  }
}

/** Output-only fields of the write shapes: never written by the constructs. */
const OUTPUT_ONLY = ['renderedResolverQl'];

function blockOf(shape: Record<string, z.ZodType>, skip: readonly string[] = []): TfBlock {
  const attributes: Record<string, TfAttribute> = {};
  const blockTypes: Record<string, TfBlockType> = {};
  for (const key of Object.keys(shape).sort()) {
    if (skip.includes(key) || OUTPUT_ONLY.includes(key)) continue;
    const name = toSnake(key);
    const { inner, optional } = unwrap(shape[key]);
    const k = classify(inner);
    const req = optional ? { optional: true } : { required: true };
    if (k.kind === 'scalar') attributes[name] = { type: k.tf, ...req };
    else if (k.kind === 'dynamic') attributes[name] = { type: 'dynamic', ...req };
    else if (k.kind === 'object') blockTypes[name] = { nesting_mode: 'single', block: blockOf(k.shape) };
    else {
      const el = classify(unwrap(k.element).inner);
      if (el.kind === 'scalar') attributes[name] = { type: ['list', el.tf], ...req };
      else if (el.kind === 'object') blockTypes[name] = { nesting_mode: 'list', block: blockOf(el.shape), ...(k.min > 0 && !optional ? { min_items: k.min } : {}) };
      else attributes[name] = { type: ['list', 'dynamic'], ...req };
    }
  }
  const out: TfBlock = {};
  if (Object.keys(attributes).length) out.attributes = attributes;
  if (Object.keys(blockTypes).length) out.block_types = blockTypes;
  return out;
}

/** Types whose objects have an `entity_id` (`owner-<uuid>`, `domain-<uuid>`, `dataproduct-<uuid>`). */
export const TYPES_WITH_ENTITY_ID: readonly ResourceType[] = KIND_RECORDS.filter((k) => k.entityIdPrefix !== undefined).map((k) => k.type as ResourceType);

/** The resource block of one desired schema. */
export function resourceBlock(type: ResourceType): TfBlock {
  const schema = RESOURCE_SCHEMAS[type] as unknown as z.ZodType;
  const shape = objectShape(schema) as Record<string, z.ZodType>;
  const block = blockOf(shape, type === 'dq_alert' ? ['fqn'] : []);
  const attributes = { ...(block.attributes ?? {}) };
  attributes.id = 'id' in shape ? { type: 'string', optional: true, computed: true } : { type: 'string', computed: true };
  if (TYPES_WITH_ENTITY_ID.includes(type)) attributes.entity_id = { type: 'string', computed: true };
  block.attributes = Object.fromEntries(Object.keys(attributes).sort().map((k) => [k, attributes[k]]));
  return block;
}

/** The whole provider schema document, keys in a stable order. */
export function buildProviderSchema(): ProviderSchemaJson {
  const resources: Record<string, { version: number; block: TfBlock }> = {};
  for (const type of Object.keys(RESOURCE_SCHEMAS).sort() as ResourceType[]) resources[type] = { version: 0, block: resourceBlock(type) };
  return {
    format_version: '1.0',
    provider_schemas: {
      [PROVIDER_FQPN]: {
        provider: {
          version: 0,
          block: {
            attributes: {
              base_url: { type: 'string', optional: true, description: 'Platform base URL; overrides region.' },
              namespace: { type: 'string', required: true, description: 'The namespace (configId) of the objects this stack manages.' },
              region: { type: 'string', optional: true, description: 'eu (default), us or au.' },
            },
          },
        },
        resource_schemas: resources,
        data_source_schemas: {},
      },
    },
    provider_versions: { [PROVIDER_FQPN]: PROVIDER_VERSION },
  };
}
