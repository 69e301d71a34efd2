/** Import rendering of a monitor deployment rule: the product as a reference; friendly `productConfig.product`. */
import { dataProductDescriptor } from '../data-product/descriptor';
import type { ImportRendering } from '../shared/import';
import { ruleTs } from '../shared/rule-import';
import { isObj } from '../shared/yaml';

const PRODUCT = dataProductDescriptor.type;

export const monitorDeploymentRuleImport: ImportRendering = {
  ts: ruleTs,
  refs(x, sub) {
    if (isObj(x.productConfig)) sub(x.productConfig, 'productId', PRODUCT);
  },
  yaml(x, { refName }) {
    if (isObj(x.productConfig)) {
      const n = refName(x.productConfig.productId, PRODUCT, 'id');
      if (n) {
        delete x.productConfig.productId;
        x.productConfig = { product: n, ...x.productConfig };
      }
    }
  },
};
