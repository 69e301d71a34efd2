import { ownerKindRecord } from '../../../schemas/model/kinds/governance';
import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: UpsertOwner, DeleteOwner | BatchGetOwners, ListOwners
export const ownerDescriptor: KindDescriptor = {
  type: 'dq_owner',
  label: 'owner',
  identity: { key: 'id', entityIdPrefix: ownerKindRecord.entityIdPrefix, derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  construct: { className: 'Owner', varSuffix: 'Owner' },
  scopes: sameScopes(['SCOPE_OWNERS_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_OWNERS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
};
