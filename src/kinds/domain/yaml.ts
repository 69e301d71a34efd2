/** YAML: `parent: <name>`, parts naming a `dataProduct` or `domain`, `query: "<ResolverQL>"`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import { isObj, partsOf, qlSel, type Json, type Named, type YamlBinding } from '../shared/yaml';
import { domainDescriptor } from './descriptor';

function part(p: unknown, i: number, named: Named): unknown {
  if (!isObj(p)) return p;
  const q = { ...p };
  if (q.dataProduct !== undefined) {
    q.dataproductId = named(dataProductDescriptor.type, q.dataProduct, ['definition', 'parts', i, 'dataProduct'], 'id');
    delete q.dataProduct;
  }
  if (q.domain !== undefined) {
    q.domainId = named(domainDescriptor.type, q.domain, ['definition', 'parts', i, 'domain'], 'id');
    delete q.domain;
  }
  if (q.query !== undefined) q.query = qlSel(q.query);
  return q;
}

export const domainYaml: YamlBinding = (c, named) => {
  if (c.parent !== undefined) {
    c.parentId = named(domainDescriptor.type, c.parent, ['parent'], 'id');
    delete c.parent;
  }
  const parts = partsOf(c);
  if (parts) (c.definition as Json).parts = parts.map((p, i) => part(p, i, named));
  return c;
};
