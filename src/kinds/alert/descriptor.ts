import type { KindDescriptor } from '../shared/descriptor';

// scopes: create: Create (wire-facts 3 ALERTS_EDIT; spec 4.1 MCP_WRITE), then ToggleEnabled (the same set);
// update: Upsert (spec 4.1: SCOPE_MCP_WRITE only) then ToggleEnabled; delete: Delete (ALERTS_EDIT or MCP_WRITE)
export const alertDescriptor: KindDescriptor = {
  type: 'dq_alert',
  label: 'alert',
  identity: { key: 'fqn', derivedUuid: false },
  ownership: 'configId',
  concurrency: 'etag',
  construct: { className: 'Alert' },
  scopes: { read: ['SCOPE_ALERTS_READ'], create: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'], update: ['SCOPE_MCP_WRITE'], delete: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'] },
};
