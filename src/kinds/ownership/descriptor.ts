import { sameScopes, type KindDescriptor, type TitleOf } from '../shared/descriptor';

type Json = Record<string, unknown>;

/** What an ownership selects: `data product "Orders"` or its ResolverQL. */
export function selectionName(raw: Json, titleOf: TitleOf): string {
  const sel = (raw.selection ?? {}) as Json;
  if (typeof sel.dataproductId === 'string') {
    const title = titleOf('dq_data_product', sel.dataproductId);
    return title !== undefined ? `data product ${JSON.stringify(title)}` : `data product ${sel.dataproductId}`;
  }
  const q = (sel.query ?? {}) as Json;
  const ql = q.renderedResolverQl ?? q.resolverQl;
  return typeof ql === 'string' && ql ? ql : 'a query';
}

/** `ownership of "Data team" over data product "Orders"`. */
function describeOwnership(raw: Json, titleOf: TitleOf): string {
  const owner = titleOf('dq_owner', raw.ownerId);
  return `ownership of ${owner !== undefined ? JSON.stringify(owner) : `owner ${String(raw.ownerId ?? '?')}`} over ${selectionName(raw, titleOf)}`;
}

/** The kind's facts (src/kinds/shared/descriptor.ts). */
export const ownershipDescriptor: KindDescriptor = {
  type: 'dq_ownership',
  label: 'ownership',
  identity: { key: 'id', derivedUuid: true },
  ownership: 'idTag',
  concurrency: 'etag',
  construct: { className: 'Ownership' },
  scopes: sameScopes(['SCOPE_OWNERSHIP_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_OWNERSHIP_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  references: [
    // deleting an owner deletes its ownerships
    { to: 'dq_owner', ids: (raw) => [raw.ownerId], effect: 'deleted', name: (raw, titleOf) => `ownership over ${selectionName(raw, titleOf)}` },
    { to: 'dq_data_product', ids: (raw) => [(raw.selection as Json | undefined)?.dataproductId], effect: 'loses-selection' },
  ],
  describe: describeOwnership,
  namedAfter: (raw, nameOf) => {
    const owner = nameOf('dq_owner', raw.ownerId);
    const dp = nameOf('dq_data_product', ((raw.selection ?? {}) as Json).dataproductId);
    return owner ? `${owner}_owns_${dp ?? 'selection'}` : undefined;
  },
};
