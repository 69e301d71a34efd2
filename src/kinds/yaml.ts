/** The kinds' YAML bindings (src/kinds/shared/yaml.ts): `dqform.yaml`'s friendly forms per kind. */
import { alertDescriptor } from './alert/descriptor';
import { alertYaml } from './alert/yaml';
import { checkCategorisationRuleDescriptor } from './check-categorisation-rule/descriptor';
import { checkCategorisationRuleYaml } from './check-categorisation-rule/yaml';
import { dataProductDescriptor } from './data-product/descriptor';
import { dataProductYaml } from './data-product/yaml';
import { domainDescriptor } from './domain/descriptor';
import { domainYaml } from './domain/yaml';
import { monitorDeploymentRuleDescriptor } from './monitor-deployment-rule/descriptor';
import { monitorDeploymentRuleYaml } from './monitor-deployment-rule/yaml';
import { ownershipDescriptor } from './ownership/descriptor';
import { ownershipYaml } from './ownership/yaml';
import type { Json, Named, YamlBinding } from './shared/yaml';

export type { Named, PathSeg } from './shared/yaml';

const BINDINGS: ReadonlyMap<string, YamlBinding> = new Map([
  [ownershipDescriptor.type, ownershipYaml],
  [domainDescriptor.type, domainYaml],
  [dataProductDescriptor.type, dataProductYaml],
  [alertDescriptor.type, alertYaml],
  [monitorDeploymentRuleDescriptor.type, monitorDeploymentRuleYaml],
  [checkCategorisationRuleDescriptor.type, checkCategorisationRuleYaml],
]);

/** Friendly forms -> the desired shape (references as `${type.name.attr}`). Leaves other values as they are. */
export function translateYaml(type: string, entry: Json, named: Named): Json {
  const c: Json = structuredClone(entry);
  return BINDINGS.get(type)?.(c, named) ?? c;
}
