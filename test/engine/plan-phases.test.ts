/**
 * The planner's phases (issue 24): production (engine/reconcile `plan`) and the golden tests run
 * the same pipeline, draft (context, declared, removed, prune, modes, cascades), then effects
 * and assemble. What production used to add after the fact, by mutating computePlan's result
 * (effects known after apply, the shared-previews warning), is the effects phase's: computePlan
 * gives it too.
 */
import { build as buildAcme } from '../../examples/acme/main';
import { DEFAULT_REQUEST, Effects } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { computePlan, draftPlan, finishPlan, previewRequests } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { synth } from '../constructs/synth';

const manifest = manifestFromTerraformJson(synth(buildAcme, 'acme').json, { stack: 'acme' });
const input = (request = DEFAULT_REQUEST) => ({ resolution: resolveManifest(manifest, 'demo'), live: {}, handlers: HANDLERS, manifestHash: manifestHash(manifest), request });

describe('the effects phase in computePlan (no previews given)', () => {
  const plan = computePlan(input());
  const rule = plan.changes.find((c) => c.address === 'dq_monitor_deployment_rule.inventory_product')!;

  it('a rule that depends on an object the plan creates has its effects known after apply', () => {
    expect(rule.action).toBe('create');
    expect(rule.effects?.afterApply).toBe('it depends on dq_data_product.inventory, which this plan creates; the platform can preview it only once that exists');
  });

  it('rules written together are warned of (shared previews)', () => {
    expect(plan.diagnostics.filter((d) => /rules written together divide assets among themselves/.test(d.summary))).toHaveLength(1);
  });

  it('refresh-only plans are not previewed: no effects known after apply, no shared-previews warning', () => {
    const p = computePlan(input({ ...DEFAULT_REQUEST, refreshOnly: true }));
    expect(p.drift.some((d) => d.address === 'dq_monitor_deployment_rule.inventory_product')).toBe(true);
    expect(p.changes.filter((c) => c.effects?.afterApply)).toEqual([]);
    expect(p.drift.filter((d) => 'effects' in d)).toEqual([]);
    expect(p.diagnostics.filter((d) => /divide assets/.test(d.summary))).toEqual([]);
  });
});

describe('previewRequests and finishPlan: what production fetches and how it is attached', () => {
  it('asks for the rules that can be previewed now, never for one that waits for a created object', () => {
    const draft = draftPlan(input());
    const { fetch, afterApply } = previewRequests(draft.changes, HANDLERS);
    expect(fetch.map((c) => c.address)).not.toContain('dq_monitor_deployment_rule.inventory_product');
    expect([...afterApply.keys()]).toContain('dq_monitor_deployment_rule.inventory_product');
    expect(fetch.length).toBeGreaterThan(0);
    for (const c of fetch) expect(HANDLERS[c.type as keyof typeof HANDLERS].preview).toBeDefined();
  });

  it('attaches a fetched preview and the gathered diagnostics; equals computePlan given the same previews', () => {
    const draft = draftPlan(input());
    const first = previewRequests(draft.changes, HANDLERS).fetch[0];
    const previews = new Map([[first.address, Effects.parse({ source: 'deploy-overview', monitorsToCreate: ['wh::a'] })]]);
    const renamed = { severity: 'warning' as const, summary: 'renamed?' };
    const p = finishPlan(draft, { previews, diagnostics: [renamed] });
    expect(p.changes.find((c) => c.address === first.address)?.effects?.monitorsToCreate).toEqual(['wh::a']);
    expect(p.diagnostics).toContainEqual(renamed);
    const q = computePlan({ ...input(), previews });
    expect({ ...p, diagnostics: p.diagnostics.filter((d) => d !== renamed) }).toEqual(q);
  });
});
