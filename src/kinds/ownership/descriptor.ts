import { sameScopes, type KindDescriptor } from '../shared/descriptor';

/** The kind's facts (src/kinds/shared/descriptor.ts). */
export const ownershipDescriptor: KindDescriptor = {
  type: 'dq_ownership',
  label: 'ownership',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  scopes: sameScopes(['SCOPE_OWNERSHIP_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_OWNERSHIP_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
};
