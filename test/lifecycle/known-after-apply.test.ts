/**
 * Issue 21, "known after apply, not unknown": a rule whose effects cannot be previewed only
 * because the same plan creates what it depends on (a product rule and its new data product)
 * is planned as "effects known after apply", with the reason; apply writes the dependency,
 * previews the rule then, and writes it only if the preview creates and nothing else.
 * Each apply is checked with the harness: the emulator's whole state before and after against
 * the saved plan.
 *
 * @gateway
 */
import { build as buildAcme } from '../../examples/acme/main';
import type { Plan } from '../../schemas/model/plan';
import { synth } from '../constructs/synth';
import { startEmulatorProcess, stateDiff, Scenario, unexplainedMissing, type EmulatorProcess } from './harness';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

const change = (p: Plan, address: string) => p.changes.find((c) => c.address === address)!;

it('acme from an empty namespace: apply --auto-approve with no other flag, the product rule previewed after its data product exists, then an empty plan', async () => {
  const s = new Scenario(emu);
  try {
    s.stack('acme', synth(buildAcme, 'acme').json as never);
    const { run, plan } = await s.plan();
    expect(run.code).toBe(0);
    const rule = change(plan!, 'dq_monitor_deployment_rule.inventory_product');
    expect(rule.effects).toMatchObject({ afterApply: 'it depends on dq_data_product.inventory, which this plan creates; the platform can preview it only once that exists' });
    expect(rule.effects!.error).toBeUndefined();
    expect(run.out).toContain('effects known after apply: it depends on dq_data_product.inventory, which this plan creates');
    expect(run.out).toContain('Effects known after apply for 1 change(s).');
    expect(run.out).not.toMatch(/Effects unknown|apply refuses this plan/);

    const r = await s.applyChecked(plan!, ['apply', '--auto-approve']);
    expect(r.run.code).toBe(0);
    expect(r.run.err).toContain('dq_monitor_deployment_rule.inventory_product: the platform previews');
    expect(r.run.out).toMatch(/Apply complete: 35 applied, 0 failed/);
    // nothing happened that the plan did not say
    expect(r.unexpected).toEqual([]);
    // the product rule's monitors (known after apply) were created
    expect(r.happened.filter((l) => l.startsWith(`monitor+ ${rule.id.toLowerCase()} `)).length).toBeGreaterThan(0);
    // each rule is previewed alone: where rules this plan creates divide assets among themselves
    // (an exclusive rule, an asset two rules select) a preview lists more monitors than the
    // platform creates. The plan warns of exactly those, by asset; nothing else is missing.
    expect(r.missing.length).toBeGreaterThan(0);
    expect(unexplainedMissing(plan!, r.missing)).toEqual([]);
    expect(run.out).toMatch(/rules written together divide assets among themselves/);

    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
    expect(next.run.out).toMatch(/No changes/);
    expect(stateDiff(r.after, await emu.state())).toEqual([]);
  } finally {
    s.remove();
  }
});

const DP = (resolverQl: string) => ({ title: `Product ${resolverQl.length}`, priority: 'PRIORITY_P2', definition: { parts: [{ query: { resolver_ql: resolverQl } }] } });
const productRule = (product: string) => ({ title: 'Product rule', product_config: { product_id: `\${dq_data_product.${product}.id}`, severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } });

it('a rule re-pointed at a data product the same plan creates: apply writes the product, previews the rule, and stops before it because the preview deletes monitors (exit 1, rule not written)', async () => {
  const s = new Scenario(emu);
  try {
    s.stack('kaa-stop', { dq_data_product: { a: DP('in_folder("folder-wh-prod::mart")') }, dq_monitor_deployment_rule: { r: productRule('a') } });
    const first = await s.plan();
    expect(first.run.code).toBe(0);
    // the first plan creates both: the rule is known after apply, and only creates
    expect(change(first.plan!, 'dq_monitor_deployment_rule.r').effects?.afterApply).toContain('dq_data_product.a');
    const r1 = await s.applyChecked(first.plan!, ['apply', first.file]);
    expect(r1.run.code).toBe(0);
    expect(r1.unexpected).toEqual([]);
    expect(r1.happened.filter((l) => l.startsWith('monitor+ ')).length).toBeGreaterThan(0);

    s.stack('kaa-stop', { dq_data_product: { a: DP('in_folder("folder-wh-prod::mart")'), b: DP('in_folder("folder-wh-prod::raw")') }, dq_monitor_deployment_rule: { r: productRule('b') } });
    const second = await s.plan();
    expect(second.run.code).toBe(0);
    const rule = change(second.plan!, 'dq_monitor_deployment_rule.r');
    expect(rule.action).toBe('update');
    expect(rule.effects?.afterApply).toContain('dq_data_product.b');
    const r2 = await s.applyChecked(second.plan!, ['apply', second.file]);
    expect(r2.run.code).toBe(1);
    expect(r2.run.err).toMatch(/update dq_monitor_deployment_rule\.r: FAILED: not written: its effects were known only after apply \(it depends on dq_data_product\.b, which this plan creates;.*\), and now its preview deletes \d+ monitor\(s\) \(wh-prod::mart::/);
    // the data product was written, the rule was not, and no monitor moved
    expect(r2.happened).toEqual([`create dq_data_product ${change(second.plan!, 'dq_data_product.b').id.toLowerCase()}`]);
  } finally {
    s.remove();
  }
});

it('a rule known after apply whose preview then fails (no gRPC for its strategy markers): apply stops before it unless --allow-unpreviewed, which writes it', async () => {
  const rest = await startEmulatorProcess({ seed: 'demo', extra: ['--no-grpc'] });
  const s = new Scenario(rest);
  try {
    const rule = { title: 'Product rule', product_config: { product_id: '${dq_data_product.p.id}', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'], self: { all: {} } } };
    s.stack('kaa-nogrpc', { dq_data_product: { p: DP('in_folder("folder-wh-prod::mart")') }, dq_monitor_deployment_rule: { r: rule } });
    const { run, plan, file } = await s.plan();
    expect(run.code).toBe(0);
    expect(change(plan!, 'dq_monitor_deployment_rule.r').effects?.afterApply).toContain('dq_data_product.p');
    const refused = await s.applyChecked(plan!, ['apply', file]);
    expect(refused.run.code).toBe(1);
    expect(refused.run.err).toMatch(/create dq_monitor_deployment_rule\.r: FAILED: not written: its effects were known only after apply .*, and now its preview failed \(effects unknown: .*\); re-run with --allow-unpreviewed/);
    expect(refused.happened).toEqual([`create dq_data_product ${change(plan!, 'dq_data_product.p').id.toLowerCase()}`]);

    const again = await s.plan();
    const allowed = await s.applyChecked(again.plan!, ['apply', '--allow-unpreviewed', again.file]);
    expect(allowed.run.code).toBe(0);
    expect(allowed.happened.filter((l) => l.startsWith('create '))).toEqual([`create dq_monitor_deployment_rule ${change(plan!, 'dq_monitor_deployment_rule.r').id.toLowerCase()}`]);
  } finally {
    s.remove();
    await rest.stop();
  }
});
