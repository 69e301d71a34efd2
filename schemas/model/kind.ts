/**
 * A kind's record in dqform's model: what the manifest, the YAML document and the constructs need
 * to know of a resource type, exported by the kind's model file (`export const domainKindRecord =
 * defineKind({ ... })` in `schemas/model/kinds/governance.ts`, beside the kind's desired and YAML
 * shapes; its wire shapes are in `schemas/platform/governance.ts`) and listed by
 * `npm run registries` in `schemas/model/kinds.generated.ts`. `RESOURCE_SCHEMAS` (manifest.ts),
 * the YAML sections (dqform-yaml.ts) and the provider schema (constructs/codegen) are derived
 * from the records.
 *
 * Also the building blocks the records' desired and YAML shapes share (pinned ids, the
 * meta-arguments, references by name), which live here so that the kinds' files need not import
 * `manifest.ts` or `dqform-yaml.ts` (those import the records).
 */
import { z } from 'zod';

/** A caller-pinned id; absent: dqform derives one. */
export const pinnedId = z.string().min(1).optional().describe('pinned id (a UUID); default: derived from workspace, namespace and name, so re-runs adopt what they created');

export const Lifecycle = z.object({
  preventDestroy: z.boolean().optional().describe('any plan that would delete or replace the object is an error'),
  /** Field paths (lowerCamelCase, dot-separated) that plan ignores, or `all`. */
  ignoreChanges: z.union([z.array(z.string()), z.literal('all')]).optional().describe('field paths (e.g. issueLifecycle.targets) that plan ignores, or all'),
});
export type Lifecycle = z.infer<typeof Lifecycle>;

/** Meta-arguments every resource of `dqform.yaml` takes. */
export const yamlMeta = {
  lifecycle: Lifecycle.optional().describe('preventDestroy and ignoreChanges, as in Terraform'),
  /** Addresses (`dq_owner.team`) this resource waits for besides its references. */
  dependsOn: z.array(z.string()).optional().describe('addresses (dq_owner.team) written before this one, besides its references'),
};

/** The name of another resource declared in the same `dqform.yaml`. */
export const nameRef = (kind: string) => z.string().min(1).describe(`the name of ${kind} declared in this file`);
/** ResolverQL text. */
export const ql = z.string().min(1).describe('ResolverQL text');

export type Shape = Record<string, z.ZodType>;
/** The fields of a oneof/withOneof object with their `.optional()` wrappers removed. */
export function unwrapped(o: { shape: Shape }, keys: readonly string[]): Shape {
  const out: Shape = {};
  for (const k of keys) {
    const s = o.shape[k] as z.ZodType & { unwrap?: () => z.ZodType };
    out[k] = s.unwrap ? s.unwrap() : s;
  }
  return out;
}

/** A resource type's record. */
export interface SchemaKind {
  /** The resource type, `dq_<kind>`. */
  readonly type: `dq_${string}`;
  /**
   * Its place in the manifest's dependency order (what a kind references has a lower number):
   * `RESOURCE_TYPES`, the YAML sections and the kinds' registry follow it.
   */
  readonly order: number;
  /** The desired (manifest) shape: the API's write shape in lowerCamelCase (manifest.ts). */
  readonly desired: z.ZodType;
  /** The `dqform.yaml` section: its key, the entry shape, and what the section holds (its description). */
  readonly yaml: { readonly section: string; readonly entry: z.ZodType; readonly what: string };
  /** Prefix of the objects' entity id (`owner-<uuid>`); none: the kind has no entity id. */
  readonly entityIdPrefix?: string;
}

/** A kind's record, with its literal types kept (the resource type union is made from them). */
export function defineKind<const K extends SchemaKind>(k: K): K {
  return k;
}
