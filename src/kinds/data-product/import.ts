/** Import rendering of a data product: friendly `query` parts. */
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

export const dataProductImport: ImportRendering = {
  yaml(x, { qlOnly }) {
    if (isObj(x.definition) && Array.isArray(x.definition.parts)) {
      x.definition.parts = (x.definition.parts as Json[]).map((part) => (qlOnly(part.query) !== undefined ? { query: qlOnly(part.query) } : part));
    }
  },
};
