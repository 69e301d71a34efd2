import { domainKindRecord } from '../../../schemas/model/kinds/governance';
import { sameScopes, type KindDescriptor } from '../shared/descriptor';

type Json = Record<string, unknown>;
const parts = (raw: Json) => ((raw.definition as Json | undefined)?.parts ?? []) as Json[];

// scopes: domains Upsert, Delete | BatchGet, List
export const domainDescriptor: KindDescriptor = {
  type: 'dq_domain',
  label: 'domain',
  identity: { key: 'id', entityIdPrefix: domainKindRecord.entityIdPrefix, derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  construct: { className: 'Domain', varSuffix: 'Domain' },
  scopes: sameScopes(['SCOPE_DOMAIN_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DOMAIN_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  references: [
    { to: 'dq_domain', ids: (raw) => [raw.parentId], effect: 'loses-parent' },
    { to: 'dq_domain', ids: (raw) => parts(raw).map((p) => p.domainId), effect: 'loses-member' },
    { to: 'dq_data_product', ids: (raw) => parts(raw).map((p) => p.dataproductId), effect: 'loses-member' },
  ],
  parentField: 'parentId',
};
