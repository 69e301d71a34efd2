/** The handler of every resource type. */
import type { ResourceType } from '../../schemas/manifest';
import { alertsHandler } from './alert/handler';
import { dataProductsHandler } from './data-product/handler';
import { domainsHandler } from './domain/handler';
import { monitorDeploymentRulesHandler } from './monitor-deployment-rule/handler';
import { ownershipsHandler } from './ownership/handler';
import { ownersHandler } from './owner/handler';
import { sqlTestDeploymentRulesHandler } from './sql-test-deployment-rule/handler';
import { sqlTestsHandler } from './sql-test/handler';
import type { ResourceHandler } from './shared/types';

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
 * The scopes each kind's operations accept, as any-of sets (wire-facts: "an operation accepts
 * any scope listed for it"), for the operations dqform calls. The applier checks `create`,
 * `update` and `delete` against the credential's scopes before its first write, so a credential
 * with per-service scopes applies what they allow and is refused, before any write, for the
 * rest. `batch` is the batch write's set (narrower for rules: BatchDeploy takes only the edit
 * scope): without it, apply writes those changes one by one. `read` is what plan needs to read
 * the kind.
 */
export interface KindScopes {
  read: readonly string[];
  create: readonly string[];
  update: readonly string[];
  delete: readonly string[];
  batch?: readonly string[];
}

const same = (write: readonly string[], read: readonly string[], batch?: readonly string[]): KindScopes => ({ read, create: write, update: write, delete: write, ...(batch ? { batch } : {}) });

/** Per kind: the any-of scope sets of the operations its handler calls (src/client/services/ROUTES.md). */
export const SCOPES: Record<ResourceType, KindScopes> = {
  // UpsertOwner, DeleteOwner | BatchGetOwners, ListOwners
  dq_owner: same(['SCOPE_OWNERS_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_OWNERS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  // domains Upsert, Delete | BatchGet, List
  dq_domain: same(['SCOPE_DOMAIN_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DOMAIN_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  dq_data_product: same(['SCOPE_DATAPRODUCT_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DATAPRODUCT_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  dq_ownership: same(['SCOPE_OWNERSHIP_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_OWNERSHIP_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ']),
  // create: Create (wire-facts 3 ALERTS_EDIT; spec 4.1 MCP_WRITE), then ToggleEnabled (the same set);
  // update: Upsert (spec 4.1: SCOPE_MCP_WRITE only) then ToggleEnabled; delete: Delete (ALERTS_EDIT or MCP_WRITE)
  dq_alert: { read: ['SCOPE_ALERTS_READ'], create: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'], update: ['SCOPE_MCP_WRITE'], delete: ['SCOPE_ALERTS_EDIT', 'SCOPE_MCP_WRITE'] },
  // Deploy, Delete (EDIT or MCP_WRITE); BatchDeploy (EDIT only) | List (EDIT or MCP_READ)
  dq_monitor_deployment_rule: same(['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_MONITORS_AUTOMATIC_EDIT', 'SCOPE_MCP_READ'], ['SCOPE_MONITORS_AUTOMATIC_EDIT']),
  // BatchUpsert, BatchDelete (EDIT only) | List
  dq_sql_test: same(['SCOPE_DATACHECKS_SQLTESTS_EDIT'], ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'], ['SCOPE_DATACHECKS_SQLTESTS_EDIT']),
  // Deploy, Delete (EDIT or MCP_WRITE); BatchDeploy (EDIT only) | List
  dq_sql_test_deployment_rule: same(['SCOPE_DATACHECKS_SQLTESTS_EDIT', 'SCOPE_MCP_WRITE'], ['SCOPE_DATACHECKS_SQLTESTS_READ', 'SCOPE_SRE_AGENT', 'SCOPE_MCP_READ'], ['SCOPE_DATACHECKS_SQLTESTS_EDIT']),
};

/** Whether `granted` holds any scope of `need` (an empty set needs nothing). */
export function allows(granted: ReadonlySet<string> | readonly string[], need: readonly string[]): boolean {
  const set = granted instanceof Set ? granted : new Set(granted as readonly string[]);
  return need.length === 0 || need.some((s) => set.has(s));
}

/**
 * @deprecated the union of each kind's create/update/delete sets; use {@link SCOPES}, which is
 * per operation.
 */
export const WRITE_SCOPES: Record<ResourceType, readonly string[]> = Object.fromEntries(
  Object.entries(SCOPES).map(([k, v]) => [k, [...new Set([...v.create, ...v.update, ...v.delete])]]),
) as unknown as Record<ResourceType, readonly string[]>;
