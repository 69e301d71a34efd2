/** Import rendering of an ownership: owner and data product as references; friendly `owner`, `dataProduct`, `query`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import { ownerDescriptor } from '../owner/descriptor';
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

export const ownershipImport: ImportRendering = {
  ts(c, h) {
    const sel = (c.selection ?? {}) as Json;
    const out: Json = { id: c.id, owner: h.asVar(c.ownerId, ownerDescriptor.type) ?? h.idOf(c.ownerId) };
    if (sel.dataproductId !== undefined) out.dataProduct = h.asVar(sel.dataproductId, dataProductDescriptor.type) ?? h.idOf(sel.dataproductId);
    if (isObj(sel.query)) out.query = h.queryInput(sel.query);
    if (c.alert !== undefined) out.alert = c.alert;
    return out;
  },
  refs(x, sub) {
    sub(x, 'ownerId', ownerDescriptor.type);
    if (isObj(x.selection)) sub(x.selection, 'dataproductId', dataProductDescriptor.type);
  },
  yaml(x, { refName, qlOnly }) {
    const o = refName(x.ownerId, ownerDescriptor.type, 'id');
    if (o) {
      delete x.ownerId;
      x.owner = o;
    }
    const sel = x.selection as Json | undefined;
    const dp = sel && Object.keys(sel).length === 1 ? refName(sel.dataproductId, dataProductDescriptor.type, 'id') : undefined;
    const q = sel && Object.keys(sel).length === 1 ? qlOnly(sel.query) : undefined;
    if (dp) {
      delete x.selection;
      x.dataProduct = dp;
    } else if (q !== undefined) {
      delete x.selection;
      x.query = q;
    }
  },
};
