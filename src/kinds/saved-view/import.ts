/**
 * Import rendering of a saved view: without its owner and the reader's pin (the platform's and
 * each user's own, never declared) and the default visibility, the selection as ResolverQL text
 * (TypeScript and YAML).
 */
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

export const savedViewImport: ImportRendering = {
  fromLive(raw: Json): Json {
    const { ownerId: _owner, pinned: _pinned, ...rest } = raw;
    // the default, as code leaves it out
    if (rest.visibility === 'VISIBILITY_PRIVATE') delete rest.visibility;
    return rest;
  },
  ts(c, h) {
    if (isObj(c.selection) && typeof c.selection.resolverQl === 'string') c.selection = c.selection.resolverQl;
    return h.ordered(c);
  },
  yaml(x, { qlOnly }) {
    const q = qlOnly(x.selection);
    if (q !== undefined) x.selection = q;
  },
};
