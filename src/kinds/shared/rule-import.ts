/** Import rendering shared by the rule family (monitor and SQL-test deployment rules): queries and the product. */
import { dataProductDescriptor } from '../data-product/descriptor';
import type { TsRenderHelpers } from './import';
import { isObj, type Json } from './yaml';

/** The construct props of a deployment rule's config (a copy, changed in place). */
export function ruleTs(c: Json, h: TsRenderHelpers): Json {
  for (const k of ['queryConfig', 'exclusiveQueryConfig']) {
    const qc = c[k];
    if (!isObj(qc)) continue;
    const q = h.queryInput(qc);
    delete qc.resolverQl;
    delete qc.query;
    c[k] = { query: q, ...qc };
  }
  const pc = c.productConfig;
  if (isObj(pc)) {
    const product = h.asVar(pc.productId, dataProductDescriptor.type) ?? h.idOf(pc.productId);
    delete pc.productId;
    const self = pc.self as Json | undefined;
    if (self && isObj(self.selection) && isObj(self.selection.query)) {
      h.use('Query');
      pc.self = { ...self, selection: h.code(`Query.model(${h.literal(self.selection.query, 6)})`) };
    }
    c.productConfig = { product, ...pc };
  }
  return h.ordered(c);
}
