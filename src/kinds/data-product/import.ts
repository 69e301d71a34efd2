/** Import rendering of a data product: friendly `query` parts. */
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

export const dataProductImport: ImportRendering = {
  ts(c, h) {
    const def = c.definition as Json | undefined;
    delete c.definition;
    if (def) c.parts = ((def.parts as Json[] | undefined) ?? []).map((p) => (isObj(p.query) ? { query: h.queryInput(p.query) } : p));
    return h.ordered(c);
  },
  yaml(x, { qlOnly }) {
    if (isObj(x.definition) && Array.isArray(x.definition.parts)) {
      x.definition.parts = (x.definition.parts as Json[]).map((part) => (qlOnly(part.query) !== undefined ? { query: qlOnly(part.query) } : part));
    }
  },
};
