/**
 * Synthetic Terraform JSON (`cdk.tf.json`) for the benchmarks and the resilience tests: `n`
 * objects of the kinds in equal shares, deterministic, with a fraction `changed` of them
 * edited (one field each) so a plan against the unedited state shows exactly that many updates.
 */

/** The kinds, in the order objects are dealt out. */
export const BENCH_KINDS = [
  'dq_owner',
  'dq_domain',
  'dq_data_product',
  'dq_ownership',
  'dq_alert',
  'dq_monitor_deployment_rule',
  'dq_sql_test',
  'dq_sql_test_deployment_rule',
  'dq_saved_view',
] as const;
export type BenchKind = (typeof BENCH_KINDS)[number];

type Json = Record<string, unknown>;

/** One resource body of `kind` number `i` (`v` = its version: 0 original, 1 edited). */
export function resourceBody(kind: BenchKind, i: number, v: 0 | 1): Json {
  const tag = v ? ' v2' : '';
  switch (kind) {
    case 'dq_owner':
      return { title: `Owner ${i}${tag}`, contacts: [{ email: { recipient_emails: [`team${i}@example.com`] } }] };
    case 'dq_domain':
      return { name: `Domain ${i}${tag}` };
    case 'dq_data_product':
      return { title: `Product ${i}${tag}`, priority: 'PRIORITY_P2' };
    case 'dq_ownership':
      return { owner_id: `\${dq_owner.o${i}.id}`, selection: { query: { resolver_ql: v ? 'with_tag("finance")' : 'with_tag("pii")' } } };
    case 'dq_alert':
      return {
        name: `Alert ${i}${tag}`,
        issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ slack: { channel: `#a${i}` } }], settings: { severities: [2] } },
      };
    case 'dq_monitor_deployment_rule':
      return {
        title: `Rule ${i}${tag}`,
        static_config: { path: `bench-wh::none::t${i}`, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] },
      };
    case 'dq_sql_test':
      return {
        name: `Test ${i}${tag}`,
        platform: { warehouse_account: { account: 'acme-retail', database: 'wh-prod' } },
        recurrence_rule: 'FREQ=DAILY',
        sql_expression: `select * from mart.t${i} where id is null`,
      };
    case 'dq_sql_test_deployment_rule':
      return {
        title: `SQL rule ${i}${tag}`,
        static_config: { path: `bench-wh::none::t${i}`, recurrence_rule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'ids', not_null: { columns: ['id'] } }] },
      };
    case 'dq_saved_view':
      return { title: `View ${i}${tag}`, context: 'issues', selection: { resolver_ql: `with_name("t${i}")` } };
  }
}

/** Terraform name of object `i` of `kind` (ownership `i` references owner `i`). */
export function resourceName(kind: BenchKind, i: number): string {
  return `${kind === 'dq_owner' ? 'o' : kind.replace(/^dq_/, '').replace(/_/g, '')}${i}`;
}

/** Per-kind counts for `n` objects dealt out round-robin. */
export function kindCounts(n: number, kinds: readonly BenchKind[] = BENCH_KINDS): Record<BenchKind, number> {
  const out = Object.fromEntries(BENCH_KINDS.map((k) => [k, 0])) as Record<BenchKind, number>;
  for (let j = 0; j < n; j++) out[kinds[j % kinds.length]]++;
  return out;
}

/**
 * A `cdk.tf.json` document with `n` objects (round-robin over `kinds`); every `1/changedEvery`-th
 * object of each kind (index % changedEvery === changedEvery - 1) gets its edited version.
 */
export function terraformJson(namespace: string, n: number, opts: { changedEvery?: number; kinds?: readonly BenchKind[] } = {}): Json {
  const counts = kindCounts(n, opts.kinds ?? BENCH_KINDS);
  const resource: Record<string, Json> = {};
  for (const kind of BENCH_KINDS) {
    if (!counts[kind]) continue;
    const block: Json = {};
    for (let i = 0; i < counts[kind]; i++) {
      const v = opts.changedEvery && i % opts.changedEvery === opts.changedEvery - 1 ? 1 : 0;
      block[resourceName(kind, i)] = resourceBody(kind, i, v);
    }
    resource[kind] = block;
  }
  // an ownership needs its owner: ensure owners cover every ownership
  if ((counts.dq_ownership ?? 0) > (counts.dq_owner ?? 0)) {
    const owners = (resource.dq_owner ?? {}) as Json;
    for (let i = counts.dq_owner; i < counts.dq_ownership; i++) owners[resourceName('dq_owner', i)] = resourceBody('dq_owner', i, 0);
    resource.dq_owner = owners;
  }
  return { provider: { dq: [{ namespace }] }, resource };
}
