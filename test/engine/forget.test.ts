/**
 * `removed { from, destroy = false }` (constructs `removed()`, YAML `removed:`) is a `forget`
 * (issue 24, Terraform's forget action): typed in the model, not an `unmanaged` entry; shown as
 * no longer managed with the object staying, in text, markdown and JSON; counted with the
 * objects not managed here; never a write (apply writes nothing for it, nor previews it).
 */
import type { LiveObject } from '../../src/kinds/shared/types';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan, hasChanges, isWrite, previewRequests } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { deriveId } from '../../src/engine/identity';
import { selfDisagreements } from '../../src/engine/plan-check';
import { renderMarkdown, renderText } from '../../src/cli/render';
import { renderPlanJson } from '../../src/plan/json';

const WS = 'demo';
const NS = 'shop';
const id = deriveId(WS, NS, 'dq_owner', 'team');
const live: LiveObject[] = [{ key: id, id, etag: 'W/"1"', raw: { id, etag: 'W/"1"', title: 'Data team', contacts: [], entityId: `owner-${id}` } }];
const doc = { provider: { dq: [{ namespace: NS }] }, resource: {}, removed: [{ from: 'dq_owner.team', lifecycle: { destroy: false } }] };
const plan = computePlan({ resolution: resolveManifest(manifestFromTerraformJson(doc, { stack: NS }), WS), live: { dq_owner: live }, handlers: HANDLERS, manifestHash: 'h' });
const forget = plan.changes.find((c) => c.address === 'dq_owner.team')!;

it('the planner records a forget, with the object as it is live and nothing after', () => {
  expect(forget.action).toBe('forget');
  expect(forget.before).toMatchObject({ title: 'Data team' });
  expect(forget.after).toBeNull();
  expect(plan.changes.filter((c) => c.action === 'unmanaged' || c.action === 'delete')).toEqual([]);
});

it('is no write: the plan has no changes, no preview is asked, and the summary counts it with the objects not managed here', () => {
  expect(isWrite(forget)).toBe(false);
  expect(hasChanges(plan)).toBe(false);
  expect(previewRequests(plan.changes, HANDLERS).fetch).toEqual([]);
  expect(plan.summary).toMatchObject({ add: 0, change: 0, destroy: 0, unmanaged: 1 });
  expect(selfDisagreements(plan)).toEqual([]);
});

it('text, markdown and JSON say it is no longer managed and stays', () => {
  expect(renderText(plan)).toContain('  ? dq_owner.team (owner "Data team"): removed with destroy = false: owner "Data team" stays in place, no longer managed; keep the removed block');
  expect(renderMarkdown(plan)).toContain('- `dq_owner.team` (owner "Data team"): removed with destroy = false: owner "Data team" stays in place, no longer managed');
  const json = JSON.parse(renderPlanJson(plan)) as { changes: { address: string; action: string }[] };
  expect(json.changes.find((c) => c.address === 'dq_owner.team')?.action).toBe('forget');
});
