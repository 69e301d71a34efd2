/**
 * Quickstart: a handful of objects against the emulator's demo catalog (`npm run demo`).
 * Run `npx tsx main.ts` (or `dqform synth`) to write cdktf.out/stacks/quickstart/cdk.tf.json.
 */
import { App } from 'cdktf';
import { Alert, Contact, DataProduct, Domain, DqStack, Entity, MonitorDeploymentRule, Owner, Ownership, Query, SqlTest, SqlTestDeploymentRule, Target } from '../../constructs';

/** Declares the quickstart stack in `app`. */
export function build(app: App): DqStack {
  const stack = new DqStack(app, 'quickstart', { namespace: 'quickstart' });

  const commerce = new Domain(stack, 'commerce', { name: 'Commerce', description: 'Orders, carts and returns' });
  const orders = new DataProduct(stack, 'orders', {
    title: 'Orders',
    description: 'The orders mart and its sources',
    priority: 'PRIORITY_P1',
    domain: commerce,
    parts: [{ query: Query.or(Query.withName('orders'), Query.withAnnotation('owner', 'team-commerce')) }],
  });
  const team = new Owner(stack, 'commerce_team', {
    title: 'Commerce data team',
    contacts: [Contact.email(['commerce-data@example.com']), Contact.slack('#commerce-data')],
  });
  new Ownership(stack, 'commerce_owns_orders', { owner: team, dataProduct: orders });

  new Alert(stack, 'orders_issues', {
    name: 'Issues on order tables',
    issueLifecycle: {
      trigger: Query.and(Query.withType('table'), Query.withName('orders')),
      targets: [Target.owner(team), Target.email(['commerce-data@example.com'])],
      settings: { severities: ['SEVERITY_ERROR', 'SEVERITY_FATAL'] },
    },
  });

  new MonitorDeploymentRule(stack, 'mart_tables', {
    title: 'Row count and freshness on mart tables',
    queryConfig: {
      query: Query.inFolder('folder-wh-prod::mart'),
      severity: 'SEVERITY_WARNING',
      sensitivity: 'SENSITIVITY_BALANCED',
      metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'],
      // Per-metric sensitivity: a late load is normal on weekends, so delay alerts are relaxed.
      metricOptions: [{ metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_RELAXED' }],
    },
  });

  new SqlTestDeploymentRule(stack, 'dimension_keys', {
    title: 'Dimension keys are unique',
    queryConfig: {
      query: Query.and(Query.inFolder('folder-wh-prod::mart'), Query.withName('dim_')),
      tests: [{ name: 'id unique', unique: { columns: ['id'] } }],
      // a rule's schedule carries an inline start (the platform refuses a plain RRULE for rules)
      recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY;BYHOUR=7',
      severity: 'SEVERITY_WARNING',
    },
  });

  new SqlTest(stack, 'orders_id_not_null', {
    name: 'fct_orders.order_id is never null',
    severity: 'SEVERITY_ERROR',
    platform: { warehouseAccount: { account: 'acme-retail', database: 'wh-prod' } },
    recurrenceRule: 'FREQ=DAILY;BYHOUR=6',
    template: {
      identifier: Entity.warehouseAccountTable({ account: 'acme-retail', database: 'wh-prod', schema: 'mart', table: 'fct_orders' }),
      notNull: { columns: ['order_id'] },
    },
  });
  return stack;
}

if (require.main === module) {
  const app = new App();
  build(app);
  app.synth();
}
