/**
 * Synthesises one stack of 10,000 constructs (owners, domains, data products, ownerships,
 * alerts, rules, SQL tests in equal shares) with validation on. Not a test; run with
 * `/usr/bin/time -v npx tsx bench/synth-10k.ts [count]`.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { App } from 'cdktf';
import { Alert, DataProduct, Domain, DqStack, MonitorDeploymentRule, Owner, Ownership, Query, SqlTest, Target } from '../constructs';

process.env.CHECKPOINT_DISABLE = '1';
const total = Number(process.argv[2] ?? 10_000);
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'dq-bench-'));
const t0 = process.hrtime.bigint();
const app = new App({ outdir });
const stack = new DqStack(app, 'bench', { namespace: 'bench' });
const perGroup = 7;
for (let i = 0; i * perGroup < total; i++) {
  const o = new Owner(stack, `owner_${i}`, { title: `Owner ${i}` });
  const d = new Domain(stack, `domain_${i}`, { name: `Domain ${i}` });
  const dp = new DataProduct(stack, `dp_${i}`, { title: `DP ${i}`, domain: d, parts: [{ query: Query.withName(`t${i}`) }] });
  new Ownership(stack, `ownership_${i}`, { owner: o, dataProduct: dp });
  new Alert(stack, `alert_${i}`, { name: `Alert ${i}`, issueLifecycle: { trigger: Query.withName(`t${i}`), targets: [Target.owner(o)], settings: { severities: ['SEVERITY_ERROR'] } } });
  new MonitorDeploymentRule(stack, `rule_${i}`, { title: `Rule ${i}`, staticConfig: { path: `wh::s::t${i}`, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] } });
  new SqlTest(stack, `test_${i}`, { name: `Test ${i}`, platform: { integrationId: 'wh' }, recurrenceRule: 'FREQ=DAILY', sqlExpression: `select * from t${i} where x < 0` });
}
const t1 = process.hrtime.bigint();
app.synth();
const t2 = process.hrtime.bigint();
const size = fs.statSync(path.join(outdir, 'stacks', 'bench', 'cdk.tf.json')).size;
fs.rmSync(outdir, { recursive: true, force: true });
console.log(JSON.stringify({ constructs: Math.ceil(total / perGroup) * perGroup, buildMs: Number(t1 - t0) / 1e6, synthMs: Number(t2 - t1) / 1e6, jsonBytes: size, rssMb: Math.round(process.memoryUsage().rss / 2 ** 20) }));
