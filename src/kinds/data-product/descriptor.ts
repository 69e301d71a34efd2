import { dataProductKindRecord } from '../../../schemas/model/kinds/governance';
import { sameScopes, type KindDescriptor } from '../shared/descriptor';

/** The kind's facts (src/kinds/shared/descriptor.ts). */
export const dataProductDescriptor: KindDescriptor = {
  type: 'dq_data_product',
  label: 'data product',
  identity: { key: 'id', entityIdPrefix: dataProductKindRecord.entityIdPrefix, derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  construct: { className: 'DataProduct', varSuffix: 'Product' },
  scopes: sameScopes(['SCOPE_DATAPRODUCT_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DATAPRODUCT_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
};
