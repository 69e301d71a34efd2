/**
 * The governance kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/governance.ts.
 */
import { z } from 'zod';
import { oneof, oneofIssue } from '../../platform/common';
import { OwnerContact, OwnershipAlert, Priority, QuerySelection } from '../../platform/governance';
import { defineKind, nameRef, pinnedId, ql, yamlMeta } from '../kind';

// ---- what code declares (the manifest): the write shapes without server-minted or read-only parts ----

/** A selection as code writes it: ResolverQL text. */
export const DesiredQuerySelection = z.object({ resolverQl: z.string().min(1).max(20000).describe('the selection as ResolverQL, e.g. in_folder("folder-wh-prod::mart")') });
const entityId = z.string().min(1).max(1024).describe('one catalog entity by its entity id');
const querySelection = DesiredQuerySelection.describe('the assets a ResolverQL query selects');
export const DesiredDomainDefinition = z.object({
  parts: z
    .array(
      oneof({
        entityId,
        dataproductId: z.string().min(1).describe('a data product by id or ${dq_data_product.<name>.id}'),
        domainId: z.string().min(1).describe('a sub-domain by id or ${dq_domain.<name>.id}'),
        query: querySelection,
      }),
    )
    .max(500)
    .default([])
    .describe('members of the domain: entities, data products, sub-domains or queries'),
});
export const DesiredDataProductDefinition = z.object({
  parts: z.array(oneof({ entityId, query: querySelection })).max(500).default([]).describe('assets of the data product: entities or queries'),
});
export const DesiredOwnershipSelection = oneof({ query: querySelection, dataproductId: z.string().min(1).describe('a data product by id or ${dq_data_product.<name>.id}') });

// ---- the kinds (schemas/model/kind.ts) ----
export const DesiredDomain = z.object({
  id: pinnedId,
  name: z.string().min(1).max(100).describe('the domain\'s name'),
  description: z.string().optional().describe('what the domain covers'),
  /** A parent domain's id (or a reference to it); absent = top level. */
  parentId: z.string().optional().describe('the parent domain\'s id or ${dq_domain.<name>.id}; absent: top level'),
  definition: DesiredDomainDefinition.optional().describe('what belongs to the domain'),
});
export type DesiredDomain = z.infer<typeof DesiredDomain>;

export const DesiredDataProduct = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500).describe('the data product\'s title'),
  description: z.string().optional().describe('what the data product is'),
  folder: z.string().optional().describe('folder the data product is shown in'),
  priority: Priority.optional().describe('business priority: PRIORITY_P1 (highest), PRIORITY_P2 or PRIORITY_P3'),
  definition: DesiredDataProductDefinition.optional().describe('the assets that make up the data product'),
});
export type DesiredDataProduct = z.infer<typeof DesiredDataProduct>;

export const DesiredOwner = z.object({
  id: pinnedId,
  title: z.string().min(1).max(500).describe('the owner\'s name, e.g. a team'),
  contacts: z.array(OwnerContact).optional().describe('how to reach the owner (e-mail, Slack, Teams, users)'),
});
export type DesiredOwner = z.infer<typeof DesiredOwner>;

export const DesiredOwnership = z.object({
  id: pinnedId,
  ownerId: z.string().min(1).describe('the owner\'s id or ${dq_owner.<name>.id}'),
  selection: DesiredOwnershipSelection.describe('what the owner owns: a query or a data product'),
  alert: OwnershipAlert.optional().describe('alert the owner about issues on what they own'),
});
export type DesiredOwnership = z.infer<typeof DesiredOwnership>;

// ---- dqform.yaml ----
export const YamlOwner = DesiredOwner.extend(yamlMeta);

const yamlSelection = z.union([ql, QuerySelection]).describe('assets selected by ResolverQL text, or { resolverQl }');
const yamlEntityId = z.string().min(1).describe('one catalog entity by its entity id');
export const YamlDomainPart = oneof({
  entityId: yamlEntityId,
  dataproductId: z.string().min(1).describe('a data product by id'),
  domainId: z.string().min(1).describe('a sub-domain by id'),
  query: yamlSelection,
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
  ...yamlMeta,
}).superRefine((v, ctx) => {
  if (v.parent !== undefined && v.parentId !== undefined) ctx.addIssue({ code: 'custom', message: 'set one of parent and parentId, not both', path: ['parent'] });
});

export const YamlDataProductPart = oneof({ entityId: yamlEntityId, query: yamlSelection });
export const YamlDataProduct = DesiredDataProduct.extend({
  definition: z
    .object({ parts: z.array(YamlDataProductPart).default([]).describe('assets: entityId or query') })
    .optional()
    .describe('the assets that make up the data product'),
  ...yamlMeta,
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
  ...yamlMeta,
}).superRefine((v, ctx) => {
  const o = oneofIssue(v as Record<string, unknown>, ['owner', 'ownerId']);
  if (o) ctx.addIssue({ code: 'custom', message: o });
  const s = oneofIssue(v as Record<string, unknown>, ['selection', 'dataProduct', 'query']);
  if (s) ctx.addIssue({ code: 'custom', message: s });
});

export const ownerKindRecord = defineKind({
  type: 'dq_owner',
  order: 10,
  desired: DesiredOwner,
  yaml: { section: 'owners', entry: YamlOwner, what: 'owners' },
  entityIdPrefix: 'owner-',
});

export const domainKindRecord = defineKind({
  type: 'dq_domain',
  order: 20,
  desired: DesiredDomain,
  yaml: { section: 'domains', entry: YamlDomain, what: 'domains' },
  entityIdPrefix: 'domain-',
});

export const dataProductKindRecord = defineKind({
  type: 'dq_data_product',
  order: 30,
  desired: DesiredDataProduct,
  yaml: { section: 'dataProducts', entry: YamlDataProduct, what: 'data products' },
  entityIdPrefix: 'dataproduct-',
});

export const ownershipKindRecord = defineKind({
  type: 'dq_ownership',
  order: 40,
  desired: DesiredOwnership,
  yaml: { section: 'ownerships', entry: YamlOwnership, what: 'ownerships' },
});
