/** The kinds' import renderings (src/kinds/shared/import.ts), by type. */
import { alertDescriptor } from './alert/descriptor';
import { alertImport } from './alert/import';
import { checkCategorisationRuleDescriptor } from './check-categorisation-rule/descriptor';
import { checkCategorisationRuleImport } from './check-categorisation-rule/import';
import { dataProductDescriptor } from './data-product/descriptor';
import { dataProductImport } from './data-product/import';
import { domainDescriptor } from './domain/descriptor';
import { domainImport } from './domain/import';
import { monitorDeploymentRuleDescriptor } from './monitor-deployment-rule/descriptor';
import { monitorDeploymentRuleImport } from './monitor-deployment-rule/import';
import { ownershipDescriptor } from './ownership/descriptor';
import { ownershipImport } from './ownership/import';
import { ownerDescriptor } from './owner/descriptor';
import { ownerImport } from './owner/import';
import type { ImportRendering } from './shared/import';
import { sqlTestDeploymentRuleDescriptor } from './sql-test-deployment-rule/descriptor';
import { sqlTestDeploymentRuleImport } from './sql-test-deployment-rule/import';
import { sqlTestDescriptor } from './sql-test/descriptor';
import { sqlTestImport } from './sql-test/import';

export type { ImportRendering, Sub, TsRenderHelpers, YamlRenderHelpers } from './shared/import';

const RENDERINGS: ReadonlyMap<string, ImportRendering> = new Map([
  [ownerDescriptor.type, ownerImport],
  [ownershipDescriptor.type, ownershipImport],
  [domainDescriptor.type, domainImport],
  [dataProductDescriptor.type, dataProductImport],
  [alertDescriptor.type, alertImport],
  [monitorDeploymentRuleDescriptor.type, monitorDeploymentRuleImport],
  [sqlTestDescriptor.type, sqlTestImport],
  [sqlTestDeploymentRuleDescriptor.type, sqlTestDeploymentRuleImport],
  [checkCategorisationRuleDescriptor.type, checkCategorisationRuleImport],
]);

/** The import rendering of `type` (empty for kinds with nothing to render specially). */
export function importRenderingOf(type: string): ImportRendering {
  return RENDERINGS.get(type) ?? {};
}
