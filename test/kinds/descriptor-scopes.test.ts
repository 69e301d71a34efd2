/**
 * Each kind's scope sets (what `plan` and `apply` check a credential against before any write)
 * are those of the operations its handler calls, as src/client/services/ROUTES.md lists them.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ResourceType } from '../../schemas/model/manifest';
import { KINDS, SCOPES } from '../../src/kinds/descriptors';

/** `service.operation` -> its any-of scope set, from the route table. */
function routeScopes(): Map<string, string[]> {
  const text = readFileSync(join(__dirname, '../../src/client/services/ROUTES.md'), 'utf8');
  const out = new Map<string, string[]>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 9 || !/^[a-zA-Z]+$/.test(cells[1]) || !/^[a-zA-Z]+$/.test(cells[2])) continue;
    const scopes = cells[7].split(',').map((s) => s.trim());
    if (scopes.every((s) => /^SCOPE_[A-Z_]+$/.test(s))) out.set(`${cells[1]}.${cells[2]}`, scopes);
  }
  return out;
}

/** The operations each handler calls for a read (the list; its batch get takes the same scopes), a create, an update, a delete and a batch write. */
const CALLS: Record<ResourceType, { read: string; create: string; update: string; delete: string; batch?: string; alsoRead?: string }> = {
  dq_owner: { read: 'owners.listOwners', alsoRead: 'owners.batchGetOwners', create: 'owners.upsertOwner', update: 'owners.upsertOwner', delete: 'owners.deleteOwner' },
  dq_domain: { read: 'domains.list', alsoRead: 'domains.batchGet', create: 'domains.upsert', update: 'domains.upsert', delete: 'domains.delete' },
  dq_data_product: { read: 'dataProducts.list', alsoRead: 'dataProducts.batchGet', create: 'dataProducts.upsert', update: 'dataProducts.upsert', delete: 'dataProducts.delete' },
  dq_ownership: { read: 'owners.listOwnerships', alsoRead: 'owners.batchGetOwnerships', create: 'owners.upsertOwnership', update: 'owners.upsertOwnership', delete: 'owners.deleteOwnership' },
  dq_alert: { read: 'alerts.list', alsoRead: 'alerts.batchGet', create: 'alerts.create', update: 'alerts.upsert', delete: 'alerts.delete' },
  dq_monitor_deployment_rule: { read: 'deploymentRules.list', create: 'deploymentRules.deploy', update: 'deploymentRules.deploy', delete: 'deploymentRules.delete', batch: 'deploymentRules.batchDeploy' },
  dq_sql_test: { read: 'sqlTests.list', alsoRead: 'sqlTests.batchGet', create: 'sqlTests.batchUpsert', update: 'sqlTests.batchUpsert', delete: 'sqlTests.batchDelete', batch: 'sqlTests.batchUpsert' },
  dq_sql_test_deployment_rule: { read: 'sqlTestRules.list', alsoRead: 'sqlTestRules.batchGet', create: 'sqlTestRules.deploy', update: 'sqlTestRules.deploy', delete: 'sqlTestRules.delete', batch: 'sqlTestRules.batchDeploy' },
  dq_integration: { read: 'integrations.list', alsoRead: 'integrations.batchGet', create: 'integrations.create', update: 'integrations.update', delete: 'integrations.delete' },
  dq_saved_view: { read: 'savedViews.list', alsoRead: 'savedViews.batchGet', create: 'savedViews.upsert', update: 'savedViews.upsert', delete: 'savedViews.delete' },
  dq_check_categorisation_rule: { read: 'categorisationRules.list', alsoRead: 'categorisationRules.batchGet', create: 'categorisationRules.upsert', update: 'categorisationRules.upsert', delete: 'categorisationRules.delete' },
};

describe('kind scopes', () => {
  const routes = routeScopes();

  it.each(KINDS.map((k) => [k.type] as const))('%s: the scope sets of the operations its handler calls', (type) => {
    const c = CALLS[type];
    const of = (op: string) => {
      const s = routes.get(op);
      if (!s) throw new Error(`ROUTES.md has no row for ${op}`);
      return s;
    };
    const want: Record<string, string[]> = { read: of(c.read), create: of(c.create), update: of(c.update), delete: of(c.delete) };
    if (c.batch) want.batch = of(c.batch);
    expect(SCOPES[type]).toStrictEqual(want);
    if (c.alsoRead) expect(of(c.alsoRead)).toEqual(SCOPES[type].read);
    // enable and disable (integrations) take the kind's update scopes
    if (type === 'dq_integration') for (const op of ['integrations.enable', 'integrations.disable']) expect(of(op)).toEqual(SCOPES[type].update);
  });

  it('the route table parses: every kind\'s rows are found', () => {
    expect(routes.get('savedViews.upsert')).toEqual(['SCOPE_SAVED_VIEW_EDIT', 'SCOPE_SAVED_VIEW_ADMIN', 'SCOPE_MCP_WRITE']);
    expect(Object.keys(CALLS).sort()).toEqual(KINDS.map((k) => k.type).sort());
  });
});
