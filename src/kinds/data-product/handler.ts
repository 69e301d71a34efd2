/**
 * `dq_data_product`: data products v2 (same operations as domains).
 *
 * - read: List, every page of {@link LIST_PAGE_SIZE}, keeping the products whose id carries the
 *   namespace tag and the keys asked for ({@link keepForNamespace}); `keysOnly`: BatchGet of the
 *   keys, chunks of 200. Soft-deleted ones are absent.
 * - create and update: Upsert with every field explicit (the API keeps omitted fields):
 *   description `""`, folder `""` (clears), priority `PRIORITY_UNSPECIFIED`, empty definition.
 *   Updates carry the plan's etag.
 * - delete: soft delete with the plan's etag; NOT_FOUND is success.
 * - normalisation: `entityId` (`dataproduct-<uuid>`) is server-computed; an empty definition
 *   compares as absent.
 */

import type { DataProductWrite } from '../../../schemas/platform/governance';
import type { Change } from '../../../schemas/model/plan';
import { canonicalParts } from '../domain/handler';
import { normalise } from '../shared/normalise';
import { dropEmpty, GOVERNANCE_DROP, omit } from '../shared/support';
import { governanceHandler, v2Service, writeOf } from '../shared/governance';
import type { ResourceHandler } from '../shared/types';
import { dataProductDescriptor } from './descriptor';

/** The comparable form of a data product (live or desired). */
export function canonicalDataProduct(d: Record<string, unknown>): Record<string, unknown> {
  const o = omit(d, GOVERNANCE_DROP);
  if (o.definition !== undefined) o.definition = canonicalParts(o.definition);
  return dropEmpty(normalise(o), 'definition');
}

const dataProductWrite = (change: Change): DataProductWrite => writeOf<DataProductWrite>(change, { title: undefined, description: '', folder: '', priority: 'PRIORITY_UNSPECIFIED', definition: { parts: [] } });

/** The data product handler (the governance family's). */
export const dataProductsHandler: ResourceHandler = governanceHandler({
  descriptor: dataProductDescriptor,
  canonical: canonicalDataProduct,
  write: dataProductWrite,
  service: v2Service((client) => client.dataProducts),
});
