import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: rules Upsert, Delete (POLICIES_EDIT or MCP_WRITE) | BatchGet, List, PreviewRule, ListRuleMatches (the read set)
export const checkCategorisationRuleDescriptor: KindDescriptor = {
  type: 'dq_check_categorisation_rule',
  label: 'check categorisation rule',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  construct: { className: 'CheckCategorisationRule' },
  scopes: sameScopes(['SCOPE_POLICIES_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_POLICIES_READ', 'SCOPE_POLICIES_EDIT', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  preview: { source: 'categorisation-preview', overlapping: false },
};
