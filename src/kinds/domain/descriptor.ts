import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: domains Upsert, Delete | BatchGet, List
export const domainDescriptor: KindDescriptor = {
  type: 'dq_domain',
  label: 'domain',
  identity: { key: 'id', entityIdPrefix: 'domain-', derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  scopes: sameScopes(['SCOPE_DOMAIN_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DOMAIN_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
};
