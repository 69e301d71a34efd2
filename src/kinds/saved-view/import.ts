/** Import rendering of a saved view: the selection as ResolverQL text (TypeScript and YAML). */
import type { ImportRendering } from '../shared/import';
import { isObj } from '../shared/yaml';

export const savedViewImport: ImportRendering = {
  ts(c, h) {
    if (isObj(c.selection) && typeof c.selection.resolverQl === 'string') c.selection = c.selection.resolverQl;
    return h.ordered(c);
  },
  yaml(x, { qlOnly }) {
    const q = qlOnly(x.selection);
    if (q !== undefined) x.selection = q;
  },
};
