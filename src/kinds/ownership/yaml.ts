/** YAML: `owner: <name>`, `dataProduct: <name>` or `query: "<ResolverQL>"`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import { ownerDescriptor } from '../owner/descriptor';
import { qlSel, type YamlBinding } from '../shared/yaml';

export const ownershipYaml: YamlBinding = (c, named) => {
  if (c.owner !== undefined) {
    c.ownerId = named(ownerDescriptor.type, c.owner, ['owner'], 'id');
    delete c.owner;
  }
  if (c.dataProduct !== undefined) {
    c.selection = { dataproductId: named(dataProductDescriptor.type, c.dataProduct, ['dataProduct'], 'id') };
    delete c.dataProduct;
  } else if (c.query !== undefined) {
    c.selection = { query: qlSel(c.query) };
    delete c.query;
  }
  return c;
};
