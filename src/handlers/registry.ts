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

/**
 * The scopes a credential needs to write each kind (any one of a list suffices), as the
 * operations dqform calls require them (spec part 4; ROUTES.md). The applier checks them before
 * its first write, so a read-only credential is refused without a half-applied change.
 */
export const WRITE_SCOPES: Record<ResourceType, readonly string[]> = {
  dq_owner: ['SCOPE_MCP_WRITE'],
  dq_domain: ['SCOPE_MCP_WRITE'],
  dq_data_product: ['SCOPE_MCP_WRITE'],
  dq_ownership: ['SCOPE_MCP_WRITE'],
  dq_alert: ['SCOPE_MCP_WRITE'],
  dq_monitor_deployment_rule: ['SCOPE_MCP_WRITE'],
  dq_sql_test: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
  dq_sql_test_deployment_rule: ['SCOPE_DATACHECKS_SQLTESTS_EDIT'],
};
