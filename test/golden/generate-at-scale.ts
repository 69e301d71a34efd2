/**
 * Writes the inputs of the golden case `plan/at-scale`: a plan of 200 changes and 50 objects not
 * managed here, the size at which a plan must stay readable (names in every header, the
 * unmanaged list counted, effects and guards up front). Deterministic: run it again and nothing
 * changes. `npx tsx test/golden/generate-at-scale.ts`, then `UPDATE_GOLDEN=1 npx jest
 * test/engine/golden` and review the plan files by eye.
 *
 * The 200 changes: 60 alerts created, 40 updated, 10 replaced (kind change), 20 pruned; 20
 * owners created, 10 updated, 10 pruned; 10 domains created, 5 pruned; 5 monitor rules created
 * and 5 pruned (with previews: monitors to create and to delete); 5 SQL tests created. Also 20
 * unchanged alerts. The 50 not managed here: 30 alerts made in the UI, 15 alerts of namespace
 * "billing", 5 SQL tests made in the UI.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { deriveId } from '../../src/engine/identity';

const DIR = path.join(__dirname, 'plan', 'at-scale');
const WS = 'demo';
const NS = 'shop';
const n3 = (i: number) => String(i).padStart(3, '0');
/** A stable UUIDv4-shaped id from a counter (objects made in the UI or by the platform). */
const uuid = (prefix: string, i: number) => `${prefix}-0000-4000-8000-${String(i).padStart(12, '0')}`;
const stamp = { createdAt: '2025-01-02T03:04:05Z' };

type Json = Record<string, unknown>;
const resources: Record<string, Record<string, Json>> = { dq_alert: {}, dq_owner: {}, dq_domain: {}, dq_monitor_deployment_rule: {}, dq_sql_test: {} };
const live: Record<string, Json[]> = { dq_alert: [], dq_owner: [], dq_domain: [], dq_monitor_deployment_rule: [], dq_sql_test: [] };
const previews: Record<string, Json> = {};

const TEAMS = ['orders', 'payments', 'customers', 'inventory', 'marketing'];

// ---- alerts ----
const desiredAlert = (name: string, channel: string) => ({ name, issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel } }], settings: { severities: ['SEVERITY_ERROR'] } } });
function liveAlert(fqn: string, i: number, o: { name: string; channel: string; configId?: string; schemaChange?: boolean }): Json {
  const id = uuid('a1e70000', i);
  const etag = `W/"${id}-3"`;
  const kind = o.schemaChange
    ? { schemaChange: { trigger: { resolverQl: 'with_type("table")', renderedResolverQl: 'with_type("table")' }, targets: [{ slack: { channel: o.channel } }] } }
    : { issueLifecycle: { trigger: { resolverQl: 'with_type("table")', renderedResolverQl: 'with_type("table")' }, targets: [{ slack: { channel: o.channel } }], settings: { severities: ['SEVERITY_ERROR'], notifyUpstream: false } } };
  const source = o.configId ? 'SOURCE_API' : 'SOURCE_APP';
  return { key: fqn, id, etag, ...(o.configId ? { configId: o.configId } : {}), source, raw: { id, fqn, name: o.name, etag, ...stamp, ...(o.configId ? { configId: o.configId } : {}), source, ...kind, isDisabled: false } };
}
let alertNo = 0;
for (let i = 0; i < 60; i++) resources.dq_alert[`new_${n3(i)}`] = desiredAlert(`New ${TEAMS[i % 5]} alert ${n3(i)}`, `#${TEAMS[i % 5]}`);
for (let i = 0; i < 40; i++) {
  const name = `Changed ${TEAMS[i % 5]} alert ${n3(i)}`;
  resources.dq_alert[`changed_${n3(i)}`] = desiredAlert(`${name} v2`, `#${TEAMS[i % 5]}`);
  live.dq_alert.push(liveAlert(`${NS}.changed_${n3(i)}`, alertNo++, { name, channel: i % 2 ? '#old' : `#${TEAMS[i % 5]}`, configId: NS }));
}
for (let i = 0; i < 10; i++) {
  const name = `Schema alert ${n3(i)}`;
  resources.dq_alert[`kind_${n3(i)}`] = desiredAlert(name, '#schema');
  live.dq_alert.push(liveAlert(`${NS}.kind_${n3(i)}`, alertNo++, { name, channel: '#schema', configId: NS, schemaChange: true }));
}
for (let i = 0; i < 20; i++) live.dq_alert.push(liveAlert(`${NS}.retired_${n3(i)}`, alertNo++, { name: `Retired alert ${n3(i)}`, channel: '#old', configId: NS }));
for (let i = 0; i < 20; i++) {
  const name = `Steady alert ${n3(i)}`;
  resources.dq_alert[`steady_${n3(i)}`] = desiredAlert(name, '#steady');
  live.dq_alert.push(liveAlert(`${NS}.steady_${n3(i)}`, alertNo++, { name, channel: '#steady', configId: NS }));
}
for (let i = 0; i < 30; i++) live.dq_alert.push(liveAlert(`ui.hand_made_${n3(i)}`, alertNo++, { name: `Hand-made alert ${n3(i)}`, channel: '#ui' }));
for (let i = 0; i < 15; i++) live.dq_alert.push(liveAlert(`billing.invoice_${n3(i)}`, alertNo++, { name: `Invoice alert ${n3(i)}`, channel: '#billing', configId: 'billing' }));

// ---- owners ----
function liveOwner(id: string, title: string, email: string): Json {
  const etag = `W/"${id}-2"`;
  return { key: id, id, etag, source: 'SOURCE_API', raw: { id, etag, source: 'SOURCE_API', ...stamp, updatedAt: '2025-01-03T03:04:05Z', title, contacts: [{ email: { recipientEmails: [email] } }], entityId: `owner-${id}` } };
}
const desiredOwner = (title: string, email: string) => ({ title, contacts: [{ email: { recipient_emails: [email] } }] });
for (let i = 0; i < 20; i++) resources.dq_owner[`team_${n3(i)}`] = desiredOwner(`Team ${n3(i)}`, `team${i}@example.com`);
for (let i = 0; i < 10; i++) {
  resources.dq_owner[`squad_${n3(i)}`] = desiredOwner(`Squad ${n3(i)}`, `squad${i}@example.com`);
  live.dq_owner.push(liveOwner(deriveId(WS, NS, 'dq_owner', `squad_${n3(i)}`), `Squad ${n3(i)} (old name)`, `squad${i}@example.com`));
}
for (let i = 0; i < 10; i++) live.dq_owner.push(liveOwner(deriveId(WS, NS, 'dq_owner', `former_${n3(i)}`), `Former team ${n3(i)}`, `former${i}@example.com`));

// ---- domains ----
function liveDomain(id: string, name: string): Json {
  const etag = `W/"${id}-2"`;
  return { key: id, id, etag, source: 'SOURCE_API', raw: { id, etag, source: 'SOURCE_API', ...stamp, name, entityId: `domain-${id}` } };
}
for (let i = 0; i < 10; i++) resources.dq_domain[`area_${n3(i)}`] = { name: `Area ${n3(i)}` };
for (let i = 0; i < 5; i++) live.dq_domain.push(liveDomain(deriveId(WS, NS, 'dq_domain', `old_area_${n3(i)}`), `Old area ${n3(i)}`));

// ---- monitor deployment rules (with previews) ----
const query = (folder: string) => ({ resolver_ql: `in_folder("folder-wh-prod::${folder}")`, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] });
for (let i = 0; i < 5; i++) {
  resources.dq_monitor_deployment_rule[`folder_${n3(i)}`] = { title: `Folder ${n3(i)}`, query_config: query(`area_${i}`) };
  previews[`dq_monitor_deployment_rule.folder_${n3(i)}`] = { source: 'deploy-overview', monitorsToCreate: [0, 1, 2].map((t) => `wh-prod::area_${i}::table_${t}`) };
}
for (let i = 0; i < 5; i++) {
  const id = deriveId(WS, NS, 'dq_monitor_deployment_rule', `old_folder_${n3(i)}`);
  const folder = `old_area_${i}`;
  live.dq_monitor_deployment_rule.push({
    key: id,
    id,
    configId: NS,
    source: 'SOURCE_API',
    raw: { id, title: `Old folder ${n3(i)}`, configId: NS, source: 'SOURCE_API', monitorCount: 4, queryConfig: { resolverQl: `in_folder("folder-wh-prod::${folder}")`, renderedResolverQl: `in_folder("folder-wh-prod::${folder}")`, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } },
  });
  previews[`dq_monitor_deployment_rule[${JSON.stringify(id)}]`] = { source: 'delete-overview', monitorsToDelete: [0, 1, 2, 3].map((t) => `wh-prod::${folder}::table_${t}`) };
}

// ---- SQL tests ----
const desiredTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } }, recurrence_rule: 'FREQ=DAILY', sql_expression: `select * from mart.${name} where id is null` });
for (let i = 0; i < 5; i++) resources.dq_sql_test[`check_${n3(i)}`] = desiredTest(`check_${n3(i)}`);
for (let i = 0; i < 5; i++) {
  const id = uuid('c0ffee00', i);
  live.dq_sql_test.push({
    key: id,
    id,
    source: 'SOURCE_APP',
    raw: { id, name: `UI test ${n3(i)}`, source: 'SOURCE_APP', platform: { warehouseAccount: { account: 'acme-retail', database: 'wh-prod' } }, recurrenceRule: 'FREQ=DAILY', sqlExpression: 'select 1 where false', timezone: 'UTC' },
  });
}

const write = (f: string, v: unknown) => fs.writeFileSync(path.join(DIR, f), `${JSON.stringify(v, null, 2)}\n`);
fs.mkdirSync(DIR, { recursive: true });
write('desired.json', { provider: { dq: [{ namespace: NS }] }, resource: resources });
write('live.json', live);
write('previews.json', previews);
console.log(`wrote ${path.relative(process.cwd(), DIR)}: ${Object.values(resources).reduce((n, r) => n + Object.keys(r).length, 0)} declared, ${Object.values(live).reduce((n, l) => n + l.length, 0)} live`);
