/**
 * Bench child: applies the saved plan argv[2] (`batched`: the applier, BatchUpsert/BatchDeploy
 * in chunks of 200; `per-object`: each create through its handler alone, one call per object,
 * concurrency 10). Prints `{ mode, inProcessMs, maxRssMb, applied, failed }`.
 */
const t0 = process.hrtime.bigint();
import * as fs from 'node:fs';
import { PlatformClient } from '../../src/client';
import { apply } from '../../src/engine/applier';
import { loadPlan } from '../../src/plan/file';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceType } from '../../schemas/model/manifest';

async function run(): Promise<void> {
  const plan = loadPlan(JSON.parse(fs.readFileSync(process.argv[2], 'utf8')));
  const mode = process.argv[3] === 'per-object' ? 'per-object' : 'batched';
  const c = PlatformClient.fromEnv(process.env);
  let applied = 0;
  let failed = 0;
  if (mode === 'batched') {
    const r = await apply(c, plan, { maxDeletes: 0 });
    applied = r.applied.length;
    failed = r.failed.length + r.skipped.length;
  } else {
    const ctx = { workspace: plan.workspace, namespace: plan.namespace };
    const creates = plan.changes.filter((ch) => ch.action === 'create');
    let next = 0;
    await Promise.all(
      Array.from({ length: 10 }, async () => {
        while (next < creates.length) {
          const ch = creates[next++];
          try {
            await HANDLERS[ch.type as ResourceType].create(c, ch, ctx);
            applied++;
          } catch {
            failed++;
          }
        }
      }),
    );
  }
  await c.close();
  const inProcessMs = Number(process.hrtime.bigint() - t0) / 1e6;
  process.stdout.write(`${JSON.stringify({ mode, inProcessMs, maxRssMb: process.resourceUsage().maxRSS / 1024, applied, failed })}\n`);
}
void run();
