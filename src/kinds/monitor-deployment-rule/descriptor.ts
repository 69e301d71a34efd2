import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: Deploy, Delete (EDIT or MCP_WRITE); BatchDeploy (EDIT only) | List (EDIT or MCP_READ)
export const monitorDeploymentRuleDescriptor: KindDescriptor = {
  type: 'dq_monitor_deployment_rule',
  label: 'monitor deployment rule',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'configId',
  concurrency: 'readback',
  construct: { className: 'MonitorDeploymentRule' },
  scopes: sameScopes(['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_READ'], ['SCOPE_MONITORS_AUTOMATIC_EDIT']),
  references: [{ to: 'dq_data_product', ids: (raw) => [(raw.productConfig as Record<string, unknown> | undefined)?.productId], effect: 'loses-selection' }],
  preview: { source: 'deploy-overview', overlapping: true },
};
