/** YAML: `productConfig.product: <name>`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import { isObj, type YamlBinding } from '../shared/yaml';

export const monitorDeploymentRuleYaml: YamlBinding = (c, named) => {
  const pc = c.productConfig;
  if (isObj(pc) && pc.product !== undefined) {
    pc.productId = named(dataProductDescriptor.type, pc.product, ['productConfig', 'product'], 'id');
    delete pc.product;
  }
  return c;
};
