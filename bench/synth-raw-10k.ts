/**
 * The reference for `synth-10k.ts`: the same 10,000 resources (same types, attributes and
 * references) declared as plain cdktf `TerraformResource` subclasses with no validation, no
 * typed props and no dqform helpers. Prints the same JSON line as `synth-10k.ts`.
 * Run: `npx tsx bench/synth-raw-10k.ts [count]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App, TerraformProvider, TerraformResource, TerraformStack } from 'cdktf';
import type { Construct } from 'constructs';

process.env.CHECKPOINT_DISABLE = '1';

type Attrs = Record<string, unknown>;

class RawProvider extends TerraformProvider {
  constructor(
    scope: Construct,
    private readonly namespace: string,
  ) {
    super(scope, 'dq', { terraformResourceType: 'dq', terraformGeneratorMetadata: { providerName: 'dq', providerVersion: '0.1.0' }, terraformProviderSource: 'dqform/dq' });
  }
  protected override synthesizeAttributes(): Attrs {
    return { namespace: this.namespace };
  }
}

/** A resource of `type` whose attributes are exactly `attrs` (snake_case, tokens resolved at synth). */
abstract class RawResource extends TerraformResource {
  constructor(
    scope: Construct,
    id: string,
    type: string,
    private readonly attrs: Attrs,
  ) {
    super(scope, id, { terraformResourceType: type });
  }
  protected override synthesizeAttributes(): Attrs {
    return this.attrs;
  }
}
class RawOwner extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_owner', a);
  }
}
class RawDomain extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_domain', a);
  }
}
class RawDataProduct extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_data_product', a);
  }
}
class RawOwnership extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_ownership', a);
  }
}
class RawAlert extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_alert', a);
  }
}
class RawRule extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_monitor_deployment_rule', a);
  }
}
class RawSqlTest extends RawResource {
  constructor(s: Construct, id: string, a: Attrs) {
    super(s, id, 'dq_sql_test', a);
  }
}

const total = Number(process.argv[2] ?? 10_000);
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-bench-raw-'));
const t0 = process.hrtime.bigint();
const app = new App({ outdir });
const stack = new TerraformStack(app, 'bench');
new RawProvider(stack, 'bench');
const perGroup = 7;
for (let i = 0; i * perGroup < total; i++) {
  const o = new RawOwner(stack, `owner_${i}`, { title: `Owner ${i}` });
  const dp = new RawDataProduct(stack, `dp_${i}`, { title: `DP ${i}`, definition: { parts: [{ query: { resolver_ql: `with_name("t${i}")` } }] } });
  new RawDomain(stack, `domain_${i}`, { name: `Domain ${i}`, definition: { parts: [{ dataproduct_id: dp.getStringAttribute('id') }] } });
  new RawOwnership(stack, `ownership_${i}`, { owner_id: o.getStringAttribute('id'), selection: { dataproduct_id: dp.getStringAttribute('id') } });
  new RawAlert(stack, `alert_${i}`, {
    name: `Alert ${i}`,
    issue_lifecycle: { settings: { severities: ['SEVERITY_ERROR'] }, targets: [{ owner: { owner_path: o.getStringAttribute('entity_id') } }], trigger: { resolver_ql: `with_name("t${i}")` } },
  });
  new RawRule(stack, `rule_${i}`, { title: `Rule ${i}`, static_config: { metric_ids: ['METRIC_ID_ROW_COUNT'], path: `wh::s::t${i}`, sensitivity: 'SENSITIVITY_BALANCED', severity: 'SEVERITY_WARNING' } });
  new RawSqlTest(stack, `test_${i}`, { name: `Test ${i}`, platform: { integration_id: 'wh' }, recurrence_rule: 'FREQ=DAILY', sql_expression: `select * from t${i} where x < 0` });
}
const t1 = process.hrtime.bigint();
app.synth();
const t2 = process.hrtime.bigint();
const size = fs.statSync(path.join(outdir, 'stacks', 'bench', 'cdk.tf.json')).size;
fs.rmSync(outdir, { recursive: true, force: true });
console.log(JSON.stringify({ constructs: Math.ceil(total / perGroup) * perGroup, buildMs: Number(t1 - t0) / 1e6, synthMs: Number(t2 - t1) / 1e6, jsonBytes: size, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) }));
