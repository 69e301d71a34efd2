import { sameScopes, type KindDescriptor } from '../shared/descriptor';

// scopes: BatchUpsert, BatchDelete (EDIT only) | List
export const sqlTestDescriptor: KindDescriptor = {
  type: 'dq_sql_test',
  label: 'SQL test',
  identity: { key: 'id', derivedUuid: false },
  ownership: 'configId',
  concurrency: 'readback',
  construct: { className: 'SqlTest' },
  scopes: sameScopes(['SCOPE_DATACHECKS_SQLTESTS_EDIT'], ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'], ['SCOPE_DATACHECKS_SQLTESTS_EDIT']),
};
