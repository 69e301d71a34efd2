import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: Deploy, Delete (EDIT or MCP_WRITE); BatchDeploy (EDIT only) | List
export const sqlTestDeploymentRuleDescriptor: KindDescriptor = {
  type: 'dq_sql_test_deployment_rule',
  label: 'SQL-test deployment rule',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'configId',
  concurrency: 'readback',
  construct: { className: 'SqlTestDeploymentRule' },
  scopes: sameScopes(['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'], ['SCOPE_DATACHECKS_SQLTESTS_EDIT']),
  preview: { source: 'sql-test-overview', overlapping: false },
  ruleSchedule: true,
};
