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
 * - monitor deployment rules: `productConfig.product: orders` (for `productId`);
 * - categorisation rules: `matcher: "<ResolverQL>"` (for `matcher: { expression }`).
 *
 * `schemas/dqform.schema.json` is generated from {@link DqformYaml} (`npm run schema`).
 */
import { z } from 'zod';
import { oneof, oneofIssue, withOneof } from './common';
import { AlertTarget, AlertTrigger, IncidentLifecycleAlert, IssueLifecycleAlert, SchemaChangeAlert } from './alerts';
import { ProductConfig } from './deployment-rules';
import { QuerySelection } from './governance';
import { DesiredCategorisationRule, RuleMatcher } from './categorisation-rules';
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
  CredentialsFrom,
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
  lifecycle: Lifecycle.optional().describe('preventDestroy and ignoreChanges, as in Terraform'),
  /** Addresses (`dq_owner.team`) this resource waits for besides its references. */
  dependsOn: z.array(z.string()).optional().describe('addresses (dq_owner.team) written before this one, besides its references'),
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
  owner: z.union([nameRef('an owner'), ownerTarget]).describe('an owner of this file by name, or { ownerPath }'),
});
const yamlTrigger = z.union([ql, AlertTrigger]).describe('which entities the alert watches: ResolverQL text, or { resolverQl } / { query }');
const targets = z.array(YamlAlertTarget).min(1).describe('where notifications go: slack, email, owner (a name in this file), msTeams or webhook');
export const YamlAlert = withOneof(
  { fqn: DesiredAlert.shape.fqn, name: DesiredAlert.shape.name, isDisabled: DesiredAlert.shape.isDisabled, template: DesiredAlert.shape.template, ...meta },
  {
    issueLifecycle: IssueLifecycleAlert.extend({ trigger: yamlTrigger, targets }).describe('alert on data-quality issues of the entities the trigger selects'),
    schemaChange: SchemaChangeAlert.extend({ trigger: yamlTrigger, targets }).describe('alert on schema changes of the entities the trigger selects'),
    incidentLifecycle: IncidentLifecycleAlert.extend({ targets }).describe('alert on incidents opening, closing or being cancelled'),
  },
);

// ---- governance ----
export const YamlOwner = DesiredOwner.extend(meta);

const selection = z.union([ql, QuerySelection]).describe('assets selected by ResolverQL text, or { resolverQl }');
const entityId = z.string().min(1).describe('one catalog entity by its entity id');
export const YamlDomainPart = oneof({
  entityId,
  dataproductId: z.string().min(1).describe('a data product by id'),
  domainId: z.string().min(1).describe('a sub-domain by id'),
  query: selection,
  dataProduct: nameRef('a data product'),
  domain: nameRef('a domain'),
});
export const YamlDomain = DesiredDomain.extend({
  /** The parent domain's name in this file (instead of `parentId`). */
  parent: nameRef('a domain').optional(),
  definition: z
    .object({ parts: z.array(YamlDomainPart).default([]).describe('members: entityId, dataProduct, domain (names in this file), their ids, or query') })
    .optional()
    .describe('what belongs to the domain'),
  ...meta,
}).superRefine((v, ctx) => {
  if (v.parent !== undefined && v.parentId !== undefined) ctx.addIssue({ code: 'custom', message: 'set one of parent and parentId, not both', path: ['parent'] });
});

export const YamlDataProductPart = oneof({ entityId, query: selection });
export const YamlDataProduct = DesiredDataProduct.extend({
  definition: z
    .object({ parts: z.array(YamlDataProductPart).default([]).describe('assets: entityId or query') })
    .optional()
    .describe('the assets that make up the data product'),
  ...meta,
});

export const YamlOwnership = DesiredOwnership.extend({
  ownerId: z.string().min(1).optional().describe('the owner\'s id (or use owner: <name>)'),
  /** The owner's name in this file (instead of `ownerId`). */
  owner: nameRef('an owner').optional(),
  selection: DesiredOwnership.shape.selection.optional().describe('what the owner owns (or use dataProduct: or query:)'),
  /** Owns a data product of this file (instead of `selection`). */
  dataProduct: nameRef('a data product').optional(),
  /** Owns what this ResolverQL selects (instead of `selection`). */
  query: ql.optional().describe('owns what this ResolverQL selects (instead of selection)'),
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
  { id: DesiredMonitorDeploymentRule.shape.id, title: DesiredMonitorDeploymentRule.shape.title, ...meta },
  {
    ...ruleVariants(DesiredMonitorDeploymentRule as unknown as { shape: Shape }, ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig']),
    productConfig: ProductConfig.extend({
      productId: z.string().min(1).optional().describe('the data product\'s id (or use product: <name>)'),
      /** A data product's name in this file (instead of `productId`). */
      product: nameRef('a data product').optional(),
    })
      .superRefine((v, ctx) => {
        const o = oneofIssue(v as Record<string, unknown>, ['product', 'productId']);
        if (o) ctx.addIssue({ code: 'custom', message: o });
      })
      .describe('deploy monitors on a data product\'s assets'),
  },
);
export const YamlSqlTest = DesiredSqlTest.safeExtend(meta);
export const YamlSqlTestDeploymentRule = DesiredSqlTestDeploymentRule.safeExtend(meta);
export const YamlCategorisationRule = DesiredCategorisationRule.extend({
  matcher: z.union([ql.describe('short for { expression: <ResolverQL> }'), RuleMatcher]).describe('what the rule matches: attributes, expression, or a ResolverQL string (the expression)'),
  ...meta,
});

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
  categorisationRules: 'dq_check_categorisation_rule',
} as const satisfies Record<string, ResourceType>;
export type YamlSection = keyof typeof YAML_SECTIONS;
/** Resource type -> section name. */
export const SECTION_OF: Record<ResourceType, YamlSection> = Object.fromEntries(Object.entries(YAML_SECTIONS).map(([s, t]) => [t, s])) as Record<ResourceType, YamlSection>;

const section = <T extends z.ZodType>(entry: T, what: string) =>
  z.record(ResourceName, entry).optional().describe(`${what}, keyed by name (the name makes the address)`);

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
    owners: section(YamlOwner, 'owners (dq_owner)'),
    domains: section(YamlDomain, 'domains (dq_domain)'),
    dataProducts: section(YamlDataProduct, 'data products (dq_data_product)'),
    ownerships: section(YamlOwnership, 'ownerships (dq_ownership)'),
    alerts: section(YamlAlert, 'alerts (dq_alert)'),
    monitorDeploymentRules: section(YamlMonitorDeploymentRule, 'automated-monitor deployment rules (dq_monitor_deployment_rule)'),
    sqlTests: section(YamlSqlTest, 'SQL tests (dq_sql_test)'),
    sqlTestDeploymentRules: section(YamlSqlTestDeploymentRule, 'SQL-test deployment rules (dq_sql_test_deployment_rule)'),
    categorisationRules: section(YamlCategorisationRule, 'check categorisation rules (dq_check_categorisation_rule)'),
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
export const YAML_ENTRY_SCHEMAS: Record<ResourceType, z.ZodType> = {
  dq_owner: YamlOwner,
  dq_domain: YamlDomain,
  dq_data_product: YamlDataProduct,
  dq_ownership: YamlOwnership,
  dq_alert: YamlAlert,
  dq_monitor_deployment_rule: YamlMonitorDeploymentRule,
  dq_sql_test: YamlSqlTest,
  dq_sql_test_deployment_rule: YamlSqlTestDeploymentRule,
  dq_check_categorisation_rule: YamlCategorisationRule,
};

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
