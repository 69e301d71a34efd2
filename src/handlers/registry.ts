/** The handler of every resource type. */
import type { ResourceType } from '../../schemas/manifest';
import { alertsHandler } from './alerts';
import { dataProductsHandler } from './data-products';
import { domainsHandler } from './domains';
import { monitorDeploymentRulesHandler } from './monitor-deployment-rules';
import { ownershipsHandler } from './ownerships';
import { ownersHandler } from './owners';
import { sqlTestDeploymentRulesHandler } from './sql-test-deployment-rules';
import { sqlTestsHandler } from './sql-tests';
import type { ResourceHandler } from './types';

/** One handler per resource type (keys in the manifest's dependency order). */
export const HANDLERS: Record<ResourceType, ResourceHandler> = {
  dq_owner: ownersHandler,
  dq_domain: domainsHandler,
  dq_data_product: dataProductsHandler,
  dq_ownership: ownershipsHandler,
  dq_alert: alertsHandler,
  dq_monitor_deployment_rule: monitorDeploymentRulesHandler,
  dq_sql_test: sqlTestsHandler,
  dq_sql_test_deployment_rule: sqlTestDeploymentRulesHandler,
};

/** The handler of `type`; throws for an unknown type (a bug: the manifest schema checks types). */
export function handlerFor(type: ResourceType | string): ResourceHandler {
  const h = (HANDLERS as Record<string, ResourceHandler | undefined>)[type];
  if (!h) throw new Error(`no handler for resource type ${type}`);
  return h;
}
