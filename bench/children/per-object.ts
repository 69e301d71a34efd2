/**
 * Bench child: the per-object way (a Terraform provider's refresh): one read per object
 * (a batch-get of one: the API has no single GET for these kinds), concurrency 10. Reads
 * `[{ type, id }]` from the JSON file argv[2]. Prints `{ inProcessMs, maxRssMb, objects, found }`.
 */
const t0 = process.hrtime.bigint();
import * as fs from 'node:fs';
import { PlatformClient } from '../../src/client';

type Ref = { type: string; id: string };

async function readOne(c: PlatformClient, r: Ref): Promise<number> {
  switch (r.type) {
    case 'dq_owner':
      return Object.keys(await c.owners.batchGetOwners([r.id])).length;
    case 'dq_domain':
      return Object.keys(await c.domains.batchGet([r.id])).length;
    case 'dq_data_product':
      return Object.keys(await c.dataProducts.batchGet([r.id])).length;
    case 'dq_ownership':
      return Object.keys(await c.owners.batchGetOwnerships([r.id])).length;
    case 'dq_alert':
      return Object.keys(await c.alerts.batchGet([{ fqn: r.id }])).length;
    case 'dq_monitor_deployment_rule':
      return Object.keys(await c.deploymentRules.batchGet([r.id])).length;
    case 'dq_sql_test':
      return Object.keys(await c.sqlTests.batchGet([r.id])).length;
    case 'dq_sql_test_deployment_rule':
      return Object.keys(await c.sqlTestRules.batchGet([r.id])).length;
    case 'dq_saved_view':
      return Object.keys(await c.savedViews.batchGet([r.id])).length;
    default:
      throw new Error(`unknown type ${r.type}`);
  }
}

async function run(): Promise<void> {
  const refs = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Ref[];
  // 10 requests in flight on 10 sockets (the client's default pool has 8 sockets)
  const c = PlatformClient.fromEnv(process.env, { maxConcurrency: 10, connections: 10 });
  await c.iam.get();
  let next = 0;
  let found = 0;
  await Promise.all(
    Array.from({ length: 10 }, async () => {
      while (next < refs.length) {
        // not `found += await ...`: that reads `found` before the await and loses the other workers' counts
        const k = await readOne(c, refs[next++]);
        found += k;
      }
    }),
  );
  await c.close();
  const inProcessMs = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ inProcessMs, maxRssMb: process.resourceUsage().maxRSS / 1024, objects: refs.length, found })}\n`);
}
void run();
