/**
 * The integrations kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/integrations.ts.
 */
import { z } from 'zod';
import { withOneof } from '../../platform/common';
import { CONFIG_VARIANTS, SECRET_FIELDS } from '../../platform/integrations';
import { defineKind, yamlMeta } from '../kind';

// ---- dqform's desired form (code): secrets as references, never values ----

const SECRET_NAMES: ReadonlySet<string> = new Set(SECRET_FIELDS);

/**
 * A write-only value as code gives it: the NAME of an environment variable or the path of a
 * file, read at apply time only. The value itself is never in code, `cdktf.out` or a plan.
 */
export const SecretRef = z
  .object(
    {
      fromEnv: z
        .string()
        .regex(/^[A-Z_][A-Z0-9_]{0,127}$/, 'must be the NAME of an environment variable (upper-case letters, digits and "_"), never the secret itself')
        .optional()
        .describe('the environment variable holding the secret, read at apply time'),
      fromFile: z.string().min(1).optional().describe('a file holding the secret (one trailing newline is dropped), read at apply time; relative to the current directory'),
    },
    { error: (iss) => (iss.code === 'invalid_type' ? 'a secret is never written in code: give { fromEnv: NAME } or { fromFile: PATH } (read at apply time only)' : undefined) },
  )
  .superRefine((v, ctx) => {
    const set = [v.fromEnv, v.fromFile].filter((x) => x !== undefined).length;
    if (set !== 1) ctx.addIssue({ code: 'custom', message: `exactly one of fromEnv, fromFile must be set; ${set === 0 ? 'none is' : 'got both'}` });
  });
export type SecretRef = z.infer<typeof SecretRef>;

/** The name of the rotation counter of secret field `field` (`password` -> `passwordVersion`). */
export const versionField = (field: string): string => `${field}Version`;

/** A config variant's desired form: every secret field a {@link SecretRef} with its `<field>Version` counter beside it, at any depth. */
function desiredVariant(o: z.ZodObject): z.ZodObject {
  const out: Record<string, z.ZodType> = {};
  for (const [k, f] of Object.entries(o.shape as Record<string, z.ZodType>)) {
    if (SECRET_NAMES.has(k)) {
      out[k] = SecretRef.optional().describe(`write-only ${k}: { fromEnv: NAME } or { fromFile: PATH }; sent on create, when ${versionField(k)} changes, or on --replace`);
      out[versionField(k)] = z.number().int().min(1).optional().describe(`rotation counter of ${k} (default 1): raise it to send the secret again`);
      continue;
    }
    out[k] = described(f, k);
  }
  return z.object(out);
}

/** `fetchQueryLogs` -> `fetch query logs`. */
const words = (k: string): string => k.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();

/** `f` with a description on it and on every field below it (the platform's setting named `key`), secrets made references. */
function described(f: z.ZodType, key: string): z.ZodType {
  const optional = f instanceof z.ZodOptional;
  const inner = optional ? (f as z.ZodOptional<z.ZodType>).unwrap() : f;
  let d: z.ZodType = inner;
  if (inner instanceof z.ZodObject) d = desiredVariant(inner);
  else if (inner instanceof z.ZodArray) d = z.array(described((inner as z.ZodArray<z.ZodType>).element, key));
  d = d.describe(`the ${words(key)} setting of the connection`);
  return optional ? d.optional() : d;
}

/** The config variants as code declares them (secrets as references). */
export const DESIRED_CONFIG_VARIANTS: Record<keyof typeof CONFIG_VARIANTS, z.ZodObject> = Object.fromEntries(
  Object.entries(CONFIG_VARIANTS).map(([k, v]) => [k, desiredVariant(v as unknown as z.ZodObject).describe(`the ${k} config variant (wire-facts 8.1)`)]),
) as Record<keyof typeof CONFIG_VARIANTS, z.ZodObject>;

// ---- the kind's record: desired (manifest) shape, dqform.yaml entry ----

export const DesiredIntegration = z.object({
  id: z.string().min(1).optional().describe('pinned id: the platform\'s id of an integration adopted with import, or the id dqform gave one it created; default: derived from workspace, namespace and name and carried in the title\'s [dqform:...] marker'),
  title: z.string().min(1).max(255).describe('the integration\'s title (dqform appends its identity marker [dqform:<id>] on the platform)'),
  enabled: z.boolean().optional().describe('false: keep the integration disabled (default true)'),
  config: withOneof({}, DESIRED_CONFIG_VARIANTS).describe('the connection: exactly one config variant; a change of variant is a replace'),
});
export type DesiredIntegration = z.infer<typeof DesiredIntegration>;

/** Integrations: secrets as `password: { fromEnv: NAME }` or `{ fromFile: PATH }`, never values. */
export const YamlIntegration = DesiredIntegration.safeExtend(yamlMeta);

export const integrationKindRecord = defineKind({
  type: 'dq_integration',
  order: 90,
  desired: DesiredIntegration,
  yaml: { section: 'integrations', entry: YamlIntegration, what: 'integrations' },
});
