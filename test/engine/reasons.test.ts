/**
 * Typed action reasons (issue 24): the planner records a code with its data for every reason,
 * the prose is made from the code by one function, and what branches on a reason (refresh-only
 * notes, the drift remedy, which unmanaged objects concern this stack) reads the code, not the
 * prose.
 */
import { build as buildAcme } from '../../examples/acme/main';
import { Plan, type Change, type Drift } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { because } from '../../src/engine/reasons';
import { reasonText } from '../../src/plan/reasons-text';
import { toPlanJson } from '../../src/plan/json';
import { renderText } from '../../src/cli/render';
import { synth } from '../constructs/synth';
import * as fs from 'node:fs';
import * as path from 'node:path';

const GOLDEN = path.join(__dirname, '..', 'golden', 'plan');
const goldenPlan = (name: string) => {
  const dir = path.join(GOLDEN, name);
  const read = (f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));
  const manifest = manifestFromTerraformJson(read('desired.json'), { stack: name });
  return computePlan({ resolution: resolveManifest(manifest, 'demo'), live: read('live.json') as LiveState, handlers: HANDLERS, manifestHash: manifestHash(manifest) });
};

describe('the planner records a code for every reason, and the prose is the code’s', () => {
  const acme = manifestFromTerraformJson(synth(buildAcme, 'acme').json, { stack: 'acme' });
  const plans = [
    ...['actions', 'governance-pruning', 'moved-import-ignore', 'overviews', 'integrations', 'categorisation-rules'].map(goldenPlan),
    computePlan({ resolution: resolveManifest(acme, 'demo'), live: {}, handlers: HANDLERS, manifestHash: 'h' }),
  ];
  const changes: { address: string; reasons: string[]; reasonCodes?: Change['reasonCodes'] }[] = plans.map(toPlanJson).flatMap((p) => [...p.changes, ...p.drift]);

  it.each(['moved', 'imported', 'fixed-field', 'forget', 'declared-removed', 'not-declared', 'managed-by', 'made-in-ui', 'secret', 'not-ours-unmanageable'])('some change has a %s reason', (code) => {
    expect(changes.some((c) => c.reasonCodes?.some((r) => r.code === code))).toBe(true);
  });

  it('every change with a reason has its code, and the public JSON\'s prose is reasonText of the codes', () => {
    const withReasons = changes.filter((c) => c.reasons.length > 0);
    expect(withReasons.length).toBeGreaterThan(10);
    for (const c of withReasons) expect([c.address, c.reasons]).toEqual([c.address, (c.reasonCodes ?? []).map(reasonText)]);
  });
});

describe('renderers branch on codes, not prose', () => {
  const drift = (over: Partial<Drift>): Drift => ({ address: 'dq_owner.a', type: 'dq_owner', difference: 'changed', remedy: 'update', id: 'a', code: { title: 'code' }, live: { title: 'live' }, patch: [{ op: 'replace', path: '/title', value: 'live' }], sensitive: [], ...over });
  const refreshOnly = (d: Drift) =>
    Plan.parse({ formatVersion: 1, workspace: 'w', namespace: 'ns', stack: 'ns', manifestHash: 'h', options: { refreshOnly: true }, changes: [], drift: [d], summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 0 } });

  it('the drift remedy "replace it" comes from the typed remedy, its note from the drift-replaced code', () => {
    const text = renderText(refreshOnly(drift({ remedy: 'replace', ...because({ code: 'drift-replaced' }) })));
    expect(text).toContain('dqform plan and apply would replace it (destroy it, then create it from the code)');
    expect(text).toContain(`  #   (${reasonText({ code: 'drift-replaced' })})`);
    // the same words as a note, with an update remedy: the remedy says update
    expect(renderText(refreshOnly(drift({ reasonCodes: [{ code: 'text', text: reasonText({ code: 'drift-replaced' }) }] })))).toContain("dqform plan and apply would update it in place to the code's values");
    expect(renderText(refreshOnly(drift({ code: { title: 'code' }, live: { title: 'live' } })))).toContain('~ title: code "code", live "live"');
  });

  it('an unmanaged live object concerns this stack (listed, not counted) by its unmanageable code', () => {
    const unmanaged = (over: Partial<Change>): Change => ({ address: 'dq_owner["x"]', type: 'dq_owner', action: 'unmanaged', id: 'x', before: {}, after: null, patch: [], sensitive: [], dependsOn: [], ...over });
    const plan = (c: Change) => Plan.parse({ formatVersion: 1, workspace: 'w', namespace: 'ns', stack: 'ns', manifestHash: 'h', changes: [c], summary: { add: 0, change: 0, replace: 0, destroy: 0, unchanged: 0, unmanaged: 1 } });
    expect(renderText(plan(unmanaged(because({ code: 'unmanageable', fields: ['unknown field zz'] }))))).toContain('  ? dq_owner["x"]: cannot be managed by this version: unknown field zz');
    expect(renderText(plan(unmanaged({ reasonCodes: [{ code: 'text', text: 'cannot be managed by this version: unknown field zz' }] })))).not.toContain('  ? dq_owner["x"]');
  });
});
