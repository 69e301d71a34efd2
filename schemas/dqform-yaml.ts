/**
 * The `dqform.yaml` workspace document: the YAML front end's shape. It describes the same eight
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
import { oneof, oneofIssue, withOneof } from './common';
import { AlertTarget, AlertTrigger, IncidentLifecycleAlert, IssueLifecycleAlert, SchemaChangeAlert } from './alerts';
import { ProductConfig } from './deployment-rules';
import { QuerySelection } from './governance';
import {
  DesiredAlert,
  DesiredDataProduct,
  DesiredDomain,
  DesiredMonitorDeploymentRule,
  DesiredOwner,
  DesiredOwnership,
  DesiredSqlTest,
  DesiredSqlTestDeploymentRule,
  Lifecycle,
  Manifest,
  type ResourceType,
} from './manifest';

/** A resource name: the `<name>` of `dq_<type>.<name>`. */
export const ResourceName = z
  .string()
  .regex(/^[A-Za-z_][A-Za-z0-9_-]{0,127}$/, 'a name starts with a letter or "_" and has letters, digits, "_" and "-" only');

/** The name of another resource declared in this file. */
const nameRef = (kind: string) => z.string().min(1).describe(`the name of ${kind} declared in this file`);
const ql = z.string().min(1).describe('ResolverQL text');

/** Meta-arguments every resource takes. */
const meta = {
  lifecycle: Lifecycle.optional(),
  /** Addresses (`dq_owner.team`) this resource waits for besides its references. */
  dependsOn: z.array(z.string()).optional(),
};

type Shape = Record<string, z.ZodType>;
/** The fields of a oneof/withOneof object with their `.optional()` wrappers removed. */
function unwrapped(o: { shape: Shape }, keys: readonly string[]): Shape {
  const out: Shape = {};
  for (const k of keys) {
    const s = o.shape[k] as z.ZodType & { unwrap?: () => z.ZodType };
    out[k] = s.unwrap ? s.unwrap() : s;
  }
  return out;
}

// ---- alerts ----
const ownerTarget = unwrapped(AlertTarget as unknown as { shape: Shape }, ['owner']).owner;
/** An alert target; `owner` also takes an owner's name in this file. */
export const YamlAlertTarget = oneof({
  ...unwrapped(AlertTarget as unknown as { shape: Shape }, ['slack', 'email', 'msTeams', 'webhook']),
  owner: z.union([nameRef('an owner'), ownerTarget]),
});
const yamlTrigger = z.union([ql, AlertTrigger]);
const targets = z.array(YamlAlertTarget).min(1);
export const YamlAlert = withOneof(
  { fqn: DesiredAlert.shape.fqn, name: DesiredAlert.shape.name, isDisabled: DesiredAlert.shape.isDisabled, template: DesiredAlert.shape.template, ...meta },
  {
    issueLifecycle: IssueLifecycleAlert.extend({ trigger: yamlTrigger, targets }),
    schemaChange: SchemaChangeAlert.extend({ trigger: yamlTrigger, targets }),
    incidentLifecycle: IncidentLifecycleAlert.extend({ targets }),
  },
);

// ---- governance ----
export const YamlOwner = DesiredOwner.extend(meta);

const selection = z.union([ql, QuerySelection]);
export const YamlDomainPart = oneof({
  entityId: z.string().min(1),
  dataproductId: z.string().min(1),
  domainId: z.string().min(1),
  query: selection,
  dataProduct: nameRef('a data product'),
  domain: nameRef('a domain'),
});
export const YamlDomain = DesiredDomain.extend({
  /** The parent domain's name in this file (instead of `parentId`). */
  parent: nameRef('a domain').optional(),
  definition: z.object({ parts: z.array(YamlDomainPart).default([]) }).optional(),
  ...meta,
}).superRefine((v, ctx) => {
  if (v.parent !== undefined && v.parentId !== undefined) ctx.addIssue({ code: 'custom', message: 'set one of parent and parentId, not both', path: ['parent'] });
});

export const YamlDataProductPart = oneof({ entityId: z.string().min(1), query: selection });
export const YamlDataProduct = DesiredDataProduct.extend({
  definition: z.object({ parts: z.array(YamlDataProductPart).default([]) }).optional(),
  ...meta,
});

export const YamlOwnership = DesiredOwnership.extend({
  ownerId: z.string().min(1).optional(),
  /** The owner's name in this file (instead of `ownerId`). */
  owner: nameRef('an owner').optional(),
  selection: DesiredOwnership.shape.selection.optional(),
  /** Owns a data product of this file (instead of `selection`). */
  dataProduct: nameRef('a data product').optional(),
  /** Owns what this ResolverQL selects (instead of `selection`). */
  query: ql.optional(),
  ...meta,
}).superRefine((v, ctx) => {
  const o = oneofIssue(v as Record<string, unknown>, ['owner', 'ownerId']);
  if (o) ctx.addIssue({ code: 'custom', message: o });
  const s = oneofIssue(v as Record<string, unknown>, ['selection', 'dataProduct', 'query']);
  if (s) ctx.addIssue({ code: 'custom', message: s });
});

// ---- rules and tests ----
const ruleVariants = (o: { shape: Shape }, keys: readonly string[]) => unwrapped(o, keys);
export const YamlMonitorDeploymentRule = withOneof(
  { id: z.string().min(1).optional(), title: z.string().min(1).max(100), ...meta },
  {
    ...ruleVariants(DesiredMonitorDeploymentRule as unknown as { shape: Shape }, ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig']),
    productConfig: ProductConfig.extend({
      productId: z.string().min(1).optional(),
      /** A data product's name in this file (instead of `productId`). */
      product: nameRef('a data product').optional(),
    }).superRefine((v, ctx) => {
      const o = oneofIssue(v as Record<string, unknown>, ['product', 'productId']);
      if (o) ctx.addIssue({ code: 'custom', message: o });
    }),
  },
);
export const YamlSqlTest = DesiredSqlTest.safeExtend(meta);
export const YamlSqlTestDeploymentRule = DesiredSqlTestDeploymentRule.safeExtend(meta);

/** Section name -> resource type, in the document's (dependency) order. */
export const YAML_SECTIONS = {
  owners: 'dq_owner',
  domains: 'dq_domain',
  dataProducts: 'dq_data_product',
  ownerships: 'dq_ownership',
  alerts: 'dq_alert',
  monitorDeploymentRules: 'dq_monitor_deployment_rule',
  sqlTests: 'dq_sql_test',
  sqlTestDeploymentRules: 'dq_sql_test_deployment_rule',
} as const satisfies Record<string, ResourceType>;
export type YamlSection = keyof typeof YAML_SECTIONS;
/** Resource type -> section name. */
export const SECTION_OF: Record<ResourceType, YamlSection> = Object.fromEntries(Object.entries(YAML_SECTIONS).map(([s, t]) => [t, s])) as Record<ResourceType, YamlSection>;

const section = <T extends z.ZodType>(entry: T) => z.record(ResourceName, entry).optional();

/** The whole `dqform.yaml` document. */
export const DqformYaml = z
  .object({
    /** Editor hint (the JSON Schema's location); ignored. */
    $schema: z.string().optional(),
    /** Document format version. */
    version: z.literal(1).optional(),
    namespace: Manifest.shape.namespace,
    /** Stack name. @default the namespace */
    stack: z.string().regex(/^[A-Za-z0-9_-]+$/).optional(),
    region: z.enum(['eu', 'us', 'au']).optional(),
    baseUrl: z.string().optional(),
    owners: section(YamlOwner),
    domains: section(YamlDomain),
    dataProducts: section(YamlDataProduct),
    ownerships: section(YamlOwnership),
    alerts: section(YamlAlert),
    monitorDeploymentRules: section(YamlMonitorDeploymentRule),
    sqlTests: section(YamlSqlTest),
    sqlTestDeploymentRules: section(YamlSqlTestDeploymentRule),
    /** Identity follows a renamed resource: `{ from: dq_owner.old, to: dq_owner.new }`. */
    moved: z.array(z.object({ from: z.string(), to: z.string() })).optional(),
    /** Adopt an existing object: `{ to: dq_owner.team, id: <uuid> }` (alerts: `id: <fqn>`). */
    import: z.array(z.object({ to: z.string(), id: z.string().min(1) })).optional(),
    /** Delete what lived at an address: `dq_domain.old` or `{ from: dq_domain.old, destroy: false }`. */
    removed: z.array(z.union([z.string(), z.object({ from: z.string(), destroy: z.boolean().optional(), id: z.string().optional() })])).optional(),
  })
  .describe('dqform workspace: the data-quality platform configuration as code');
export type DqformYaml = z.input<typeof DqformYaml>;

/** The entry schema of each resource type. */
export const YAML_ENTRY_SCHEMAS: Record<ResourceType, z.ZodType> = {
  dq_owner: YamlOwner,
  dq_domain: YamlDomain,
  dq_data_product: YamlDataProduct,
  dq_ownership: YamlOwnership,
  dq_alert: YamlAlert,
  dq_monitor_deployment_rule: YamlMonitorDeploymentRule,
  dq_sql_test: YamlSqlTest,
  dq_sql_test_deployment_rule: YamlSqlTestDeploymentRule,
};

/**
 * The JSON Schema of `dqform.yaml` (input side: enums by name or number). Every object schema
 * outside `allOf` gets `additionalProperties: false`, so editors flag unknown fields as the
 * loader does.
 */
export function dqformJsonSchema(): Record<string, unknown> {
  const js = z.toJSONSchema(DqformYaml, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  const visit = (v: unknown, allOfMember: boolean): void => {
    if (Array.isArray(v)) return v.forEach((x) => visit(x, allOfMember));
    if (!v || typeof v !== 'object') return;
    const o = v as Record<string, unknown>;
    if (o.type === 'object' && o.properties && o.additionalProperties === undefined && !allOfMember) o.additionalProperties = false;
    for (const [k, x] of Object.entries(o)) {
      if (k === 'properties' || k === '$defs') for (const y of Object.values(x as object)) visit(y, false);
      else visit(x, k === 'allOf');
    }
  };
  visit(js, false);
  js.title = 'dqform.yaml';
  return js;
}
