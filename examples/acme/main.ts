/**
 * Acme retail: a realistic workspace over the emulator's `demo` catalog. Domains with
 * sub-domains, data products, owners with e-mail and Slack contacts, ownerships, issue,
 * schema-change and incident alerts, query / static / exclusive / product deployment rules,
 * SQL tests in expression and template form and a SQL-test deployment rule.
 */
import { App } from 'cdktf';
import {
  Alert,
  CheckCategorisationRule,
  Contact,
  DataProduct,
  Domain,
  DqStack,
  Entity,
  MonitorDeploymentRule,
  Owner,
  Ownership,
  Query,
  SavedView,
  SqlTest,
  SqlTestDeploymentRule,
  Target,
} from '../../constructs';

const ACCOUNT = 'acme-retail';
const DB = 'wh-prod';
const table = (schema: string, name: string) => Entity.warehouseAccountTable({ account: ACCOUNT, database: DB, schema, table: name });
const platform = { warehouseAccount: { account: ACCOUNT, database: DB } };

/** Declares the acme stack in `app`. */
export function build(app: App): DqStack {
  // No baseUrl/region here: DQ_BASE_URL / DQ_REGION say where it is planned (the emulator, or
  // eu, the default). A stack that sets its own platform ignores them (docs/environments.md).
  const stack = new DqStack(app, 'acme', { namespace: 'acme-prod' });

  // ---- owners -------------------------------------------------------------------------------
  const commerce = new Owner(stack, 'team_commerce', {
    title: 'Commerce analytics',
    contacts: [Contact.email(['commerce-data@acme.example']), Contact.slack('#commerce-data')],
  });
  const finance = new Owner(stack, 'team_finance', {
    title: 'Finance data',
    contacts: [Contact.email(['finance-data@acme.example', 'controller@acme.example']), Contact.slack('#finance-data')],
  });
  const crm = new Owner(stack, 'team_crm', {
    title: 'CRM and loyalty',
    contacts: [Contact.slack('#crm-data'), Contact.users(['ana@acme.example', 'li@acme.example'])],
  });
  const supply = new Owner(stack, 'team_supply_chain', {
    title: 'Supply chain',
    contacts: [Contact.email(['supply-data@acme.example'])],
    // Contacts are edited in the UI by the team; plan ignores them.
    lifecycle: { ignoreChanges: ['contacts'] },
  });

  // ---- domains and data products ------------------------------------------------------------
  const retail = new Domain(stack, 'retail', { name: 'Retail', description: 'Everything we sell and ship', lifecycle: { preventDestroy: true } });
  const sales = new Domain(stack, 'sales', { name: 'Sales', parent: retail });
  const checkout = new Domain(stack, 'checkout', { name: 'Checkout', parent: sales, parts: [{ query: Query.or(Query.withName('cart'), Query.withName('payment')) }] });
  const finDomain = new Domain(stack, 'finance', { name: 'Finance', parent: retail });
  const customers = new Domain(stack, 'customers', { name: 'Customers', description: 'Customer data (PII)', parent: retail });
  const operations = new Domain(stack, 'operations', { name: 'Operations', parent: retail, parts: [{ domain: checkout }] });

  const ordersDp = new DataProduct(stack, 'orders', {
    title: 'Orders',
    description: 'Orders, items and their marts',
    priority: 'PRIORITY_P1',
    folder: 'commerce',
    domain: sales,
    parts: [{ query: Query.and(Query.inFolder('folder-wh-prod::mart'), Query.withName('order')) }, { query: Query.inFolder('folder-wh-prod::raw') }],
  });
  const revenueDp = new DataProduct(stack, 'revenue', {
    title: 'Revenue reporting',
    priority: 'PRIORITY_P1',
    domain: finDomain,
    parts: [{ query: Query.withAnnotation('owner', 'team-finance') }],
  });
  const customer360 = new DataProduct(stack, 'customer_360', {
    title: 'Customer 360',
    priority: 'PRIORITY_P2',
    domain: customers,
    parts: [{ query: Query.and(Query.withAnnotation('pii', 'true'), Query.withAnnotation('owner', 'team-crm')) }],
  });
  const inventoryDp = new DataProduct(stack, 'inventory', {
    title: 'Inventory',
    priority: 'PRIORITY_P2',
    domain: operations,
    parts: [{ query: Query.withAnnotation('owner', 'team-supply-chain') }],
  });

  // ---- ownerships ---------------------------------------------------------------------------
  new Ownership(stack, 'commerce_owns_orders', {
    owner: commerce,
    dataProduct: ordersDp,
    alert: { severities: ['SEVERITY_ERROR', 'SEVERITY_FATAL'], notifyUpstream: true },
  });
  new Ownership(stack, 'finance_owns_revenue', { owner: finance, dataProduct: revenueDp });
  new Ownership(stack, 'crm_owns_customer_360', { owner: crm, dataProduct: customer360 });
  new Ownership(stack, 'supply_owns_inventory', { owner: supply, dataProduct: inventoryDp });
  new Ownership(stack, 'finance_owns_annotated', { owner: finance, query: Query.withAnnotation('owner', 'team-finance') });

  // ---- alerts -------------------------------------------------------------------------------
  new Alert(stack, 'tier1_issues', {
    name: 'Tier 1 tables: errors',
    issueLifecycle: {
      trigger: Query.and(Query.withType('table'), Query.withAnnotation('tier', '1')),
      targets: [Target.slack('#data-incidents'), Target.owner(commerce)],
      settings: {
        severities: ['SEVERITY_ERROR', 'SEVERITY_FATAL'],
        notifyUpstream: true,
        ongoing: { schedule: { cron: '0 9 * * 1-5' } },
        grouping: { systemDetected: {} },
      },
    },
  });
  new Alert(stack, 'finance_issues', {
    name: 'Finance tables: all issues',
    fqn: 'acme-prod.finance.issues',
    issueLifecycle: {
      trigger: Query.withAnnotation('owner', 'team-finance'),
      targets: [Target.email(['finance-data@acme.example']), Target.owner(finance)],
      settings: { severities: ['SEVERITY_WARN', 'SEVERITY_ERROR', 'SEVERITY_FATAL'], ongoing: { stream: {} } },
    },
    template: { title: 'Finance data issue', plain: 'Check the finance runbook before escalating.' },
  });
  new Alert(stack, 'raw_schema_changes', {
    name: 'Schema changes in raw',
    schemaChange: {
      trigger: Query.inFolder('folder-wh-prod::raw'),
      targets: [Target.slack('#data-platform'), Target.email(['platform@acme.example'])],
      settings: { notifyUpstream: false, ongoing: { stream: {} } },
    },
  });
  new Alert(stack, 'incidents_to_on_call', {
    name: 'Incidents to on-call',
    incidentLifecycle: {
      targets: [Target.slack('#on-call'), Target.webhook('pagerduty-data'), Target.owner(commerce)],
      settings: { states: ['STATE_OPEN', 'STATE_CLOSED'] },
    },
  });

  // ---- automated-monitor deployment rules ---------------------------------------------------
  new MonitorDeploymentRule(stack, 'mart_tables', {
    title: 'Mart tables: volume and delay',
    queryConfig: {
      query: Query.withType('table', Query.inFolder('folder-wh-prod::mart')),
      severity: 'SEVERITY_ERROR',
      sensitivity: 'SENSITIVITY_BALANCED',
      metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'],
      metricOptions: [{ metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_RELAXED' }],
      delayModel: 'DELAY_MODEL_WEEKLY_PATTERN',
    },
  });
  new MonitorDeploymentRule(stack, 'orders_static', {
    title: 'Orders fact table',
    staticConfig: { path: 'wh-prod::mart::fct_orders', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_PRECISE', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_VOLUME_CHANGE_DELAY'] },
  });
  new MonitorDeploymentRule(stack, 'exclude_scratch', {
    title: 'Never monitor scratch tables',
    exclusiveQueryConfig: { query: Query.withName('scratch') },
  });
  new MonitorDeploymentRule(stack, 'exclude_dates', {
    title: 'Never monitor the date dimension',
    exclusiveStaticConfig: { path: 'wh-prod::mart::dim_dates' },
  });
  new MonitorDeploymentRule(stack, 'inventory_product', {
    title: 'Inventory product and its sources',
    productConfig: { product: inventoryDp, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], upstream: { sources: {} }, self: { all: {} } },
  });

  // ---- SQL tests ----------------------------------------------------------------------------
  new SqlTest(stack, 'orders_positive_totals', {
    name: 'fct_orders: totals are positive',
    description: 'No order may have a negative total',
    severity: 'SEVERITY_ERROR',
    platform,
    recurrenceRule: 'FREQ=HOURLY;INTERVAL=6',
    timezone: 'Europe/Berlin',
    sqlExpression: 'SELECT * FROM "wh-prod".mart.fct_orders WHERE order_total < 0',
    annotations: [{ name: 'owner', values: ['team-commerce'] }],
    saveFailures: true,
  });
  new SqlTest(stack, 'payments_status_values', {
    name: 'fct_payments: known statuses',
    platform,
    recurrenceRule: 'FREQ=DAILY;BYHOUR=5',
    template: { identifier: table('mart', 'fct_payments'), acceptedValues: { column: 'status', values: ['authorized', 'captured', 'refunded', 'failed'] } },
  });
  new SqlTest(stack, 'orders_fresh', {
    name: 'raw.orders: loaded within 2 hours',
    severity: 'SEVERITY_WARNING',
    platform,
    recurrenceRule: 'FREQ=HOURLY',
    template: { identifier: table('raw', 'orders'), freshness: { column: 'loaded_at', maxDelaySeconds: 7200 } },
  });
  new SqlTest(stack, 'order_items_fk', {
    name: 'fct_order_items.product_id exists in dim_products',
    platform,
    recurrenceRule: 'FREQ=DAILY;BYHOUR=6',
    template: { identifier: table('mart', 'fct_order_items'), relationships: { column: 'product_id', targetTable: 'wh-prod::mart::dim_products', targetColumn: 'product_id' } },
  });

  new SqlTestDeploymentRule(stack, 'dim_keys_unique', {
    title: 'Dimension keys are unique and not null',
    queryConfig: {
      query: Query.and(Query.inFolder('folder-wh-prod::mart'), Query.withName('dim_')),
      tests: [
        { name: 'id not null', notNull: { columns: ['id'] } },
        { name: 'id unique', severity: 'SEVERITY_ERROR', unique: { columns: ['id'] } },
      ],
      // a rule's schedule carries an inline start (the platform refuses a plain RRULE for rules)
      recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7',
      timezone: 'UTC',
      severity: 'SEVERITY_WARNING',
    },
  });

  // ---- saved views (per-user pins are each user's own: not managed) --------------------------
  new SavedView(stack, 'pii_issues', {
    title: 'Open issues on PII tables',
    description: 'The privacy team triages these every morning',
    context: 'issues',
    selection: Query.withTag('pii'),
    config: { columns: ['title', 'severity', 'asset'], sortBy: 'severity', sortDescending: true },
    visibility: 'VISIBILITY_WORKSPACE',
    grants: [{ groupId: 'privacy-team', permission: 'PERMISSION_EDIT' }],
  });

  // Policy: every check on a PII asset counts as a privacy check (the plan previews how many)
  new CheckCategorisationRule(stack, 'pii_checks', {
    dimension: 'GOVERNANCE',
    title: 'Checks on PII assets',
    category: 'Privacy',
    matcher: { expression: Query.withAnnotation('pii') },
  });

  // The old "marketing" domain was retired: delete it on the next apply.
  stack.removed('dq_domain.marketing');
  return stack;
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
