/** Import rendering of a domain: parent and parts as references; friendly `parent`, `dataProduct`, `domain`, `query`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';
import { domainDescriptor } from './descriptor';

const DOMAIN = domainDescriptor.type;
const PRODUCT = dataProductDescriptor.type;

export const domainImport: ImportRendering = {
  ts(c, h) {
    if (c.parentId !== undefined) {
      c.parent = h.asVar(c.parentId, DOMAIN) ?? h.idOf(c.parentId);
      delete c.parentId;
    }
    const def = c.definition as Json | undefined;
    delete c.definition;
    if (def) {
      c.parts = ((def.parts as Json[] | undefined) ?? []).map((p) => {
        if (p.dataproductId !== undefined) return { dataProduct: h.asVar(p.dataproductId, PRODUCT) ?? h.idOf(p.dataproductId) };
        if (p.domainId !== undefined) return { domain: h.asVar(p.domainId, DOMAIN) ?? h.idOf(p.domainId) };
        if (isObj(p.query)) return { query: h.queryInput(p.query) };
        return p;
      });
    }
    return h.ordered(c);
  },
  refs(x, sub) {
    sub(x, 'parentId', DOMAIN);
    if (isObj(x.definition) && Array.isArray(x.definition.parts))
      for (const p of x.definition.parts as Json[]) {
        sub(p, 'dataproductId', PRODUCT);
        sub(p, 'domainId', DOMAIN);
      }
  },
  yaml(x, { refName, qlOnly }) {
    const p = refName(x.parentId, DOMAIN, 'id');
    if (p) {
      delete x.parentId;
      x.parent = p;
    }
    if (isObj(x.definition) && Array.isArray(x.definition.parts)) {
      x.definition.parts = (x.definition.parts as Json[]).map((part) => {
        const dp = refName(part.dataproductId, PRODUCT, 'id');
        const d = refName(part.domainId, DOMAIN, 'id');
        const q = qlOnly(part.query);
        return dp ? { dataProduct: dp } : d ? { domain: d } : q !== undefined ? { query: q } : part;
      });
    }
  },
};
