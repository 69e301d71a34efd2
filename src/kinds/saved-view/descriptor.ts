import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: Upsert, Delete (SAVED_VIEW_EDIT covers the caller's own views, SAVED_VIEW_ADMIN all) | BatchGet, List
export const savedViewDescriptor: KindDescriptor = {
  type: 'dq_saved_view',
  label: 'saved view',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  // no varSuffix: nothing references a saved view, so imported code never names one in a variable
  construct: { className: 'SavedView' },
  scopes: sameScopes(['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE'], ['SCOPE_SAVED_VIEW_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
};
