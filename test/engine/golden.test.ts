/**
 * Golden plans: for each `test/golden/plan/<case>/` the manifest (`desired.json`, Terraform JSON),
 * the live state (`live.json`, what `readLiveState` returns) and the platform's previews
 * (`previews.json`, address -> Effects) go through the REAL handlers and the pure planner; the
 * JSON, text and markdown renderings must equal `plan.json`, `plan.txt`, `plan.md` byte for byte.
 * A case with `input-plan.json` instead renders that hand-built plan (e.g. sensitive values,
 * which none of the eight kinds has). A case with `case.json` (`{ "inputs": "<case>", "request":
 * {...} }`) plans another case's inputs with Terraform's mode flags (destroy, refresh-only,
 * targets, replace). `plan/at-scale` is written by `test/golden/generate-at-scale.ts`. `UPDATE_GOLDEN=1 npx jest test/engine/golden` rewrites the
 * expected files: review the diff by eye, they are the product's face.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Effects, Plan, PlanRequest } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson, manifestHash } from '../../src/engine/manifest';
import { computePlan, type LiveState } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { renderMarkdown, renderText } from '../../src/cli/render';
import { renderPlanJson } from '../../src/plan/json';
import { fromPlanFile } from '../../src/plan/file';
import { PlanFile } from '../../schemas/model/plan-file';
import { expectGolden } from '../golden/expect-golden';
import { reasonsText } from '../../src/plan/reasons-text';

const ROOT = path.join(__dirname, '..', 'golden', 'plan');
const CASES = fs.readdirSync(ROOT).filter((d) => fs.statSync(path.join(ROOT, d)).isDirectory()).sort();

const readJson = (dir: string, f: string): unknown => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'));

function planOf(name: string): Plan {
  let dir = path.join(ROOT, name);
  if (fs.existsSync(path.join(dir, 'input-plan.json'))) return fromPlanFile(PlanFile.parse(readJson(dir, 'input-plan.json')));
  let request: PlanRequest | undefined;
  if (fs.existsSync(path.join(dir, 'case.json'))) {
    const c = readJson(dir, 'case.json') as { inputs: string; request: unknown };
    request = PlanRequest.parse(c.request);
    dir = path.join(ROOT, c.inputs);
  }
  const manifest = manifestFromTerraformJson(readJson(dir, 'desired.json'), { stack: name, file: `${path.basename(dir)}/desired.json` });
  const live = readJson(dir, 'live.json') as LiveState;
  const previews = new Map<string, Effects>();
  if (fs.existsSync(path.join(dir, 'previews.json'))) {
    for (const [address, e] of Object.entries(readJson(dir, 'previews.json') as Record<string, unknown>)) previews.set(address, Effects.parse(e));
  }
  return computePlan({ resolution: resolveManifest(manifest, 'demo'), live, handlers: HANDLERS, previews, manifestHash: manifestHash(manifest), request });
}

describe.each(CASES)('golden plan %s', (name) => {
  const dir = path.join(ROOT, name);
  const plan = planOf(name);
  const outputs: [string, string][] = [
    ['plan.json', renderPlanJson(plan)],
    ['plan.txt', renderText(plan)],
    ['plan.md', renderMarkdown(plan)],
  ];
  it.each(outputs)('%s', (file, actual) => {
    expectGolden(path.join(dir, file), actual);
  });
  it('the JSON plan is a valid plan and renders the same after a round trip', () => {
    const back = fromPlanFile(PlanFile.parse(JSON.parse(renderPlanJson(plan))));
    expect(renderText(back)).toBe(renderText(plan));
  });
});

describe('golden coverage', () => {
  const all = CASES.map((c) => planOf(c));
  const changes = all.flatMap((p) => p.changes);
  it('covers every action, moved, import, removed, previews and errors', () => {
    for (const a of ['create', 'update', 'replace', 'delete', 'noop', 'unmanaged'] as const) expect([a, changes.some((c) => c.action === a)]).toEqual([a, true]);
    expect(changes.some((c) => c.movedFrom)).toBe(true);
    expect(changes.some((c) => c.importedId)).toBe(true);
    expect(changes.some((c) => c.action === 'delete' && reasonsText(c).some((r) => r.startsWith('declared removed')))).toBe(true);
    expect(changes.some((c) => c.action === 'delete' && reasonsText(c).some((r) => r.includes('is no longer declared')))).toBe(true);
    for (const t of ['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership']) expect([t, changes.some((c) => c.type === t && c.action === 'delete' && c.address.includes('['))]).toEqual([t, true]);
    for (const e of ['deleted', 'loses-parent', 'loses-member', 'loses-selection']) expect([e, changes.some((c) => c.effects?.cascade.some((x) => x.effect === e))]).toEqual([e, true]);
    // removed { destroy = false } is a forget (issue 24), no longer an `unmanaged` entry
    expect(changes.some((c) => c.action === 'forget' && reasonsText(c).some((r) => r.includes('destroy = false')))).toBe(true);
    expect(changes.some((c) => c.action === 'unmanaged' && reasonsText(c).some((r) => r.includes('destroy = false')))).toBe(false);
    expect(all.some((p) => p.diagnostics.some((d) => d.severity === 'info'))).toBe(true);
    expect(changes.some((c) => c.effects?.baselineResets.length)).toBe(true);
    expect(changes.some((c) => c.effects?.losesHistory)).toBe(true);
    expect(all.some((p) => p.diagnostics.some((d) => /preventDestroy/.test(d.summary)))).toBe(true);
    expect(changes.some((c) => c.sensitive.length > 0)).toBe(true);
  });
});

describe('sensitive values', () => {
  const SECRET = 'hunter2-do-not-print';
  it('never appear in the text, markdown or summary renderings', () => {
    const dir = path.join(ROOT, 'sensitive-hand-built');
    const input = fs.readFileSync(path.join(dir, 'input-plan.json'), 'utf8');
    expect(input).toContain(SECRET); // the input carries the secret ...
    const plan = planOf('sensitive-hand-built');
    const full = [renderText(plan), renderMarkdown(plan)];
    const summary = renderMarkdown(plan, { limit: 1500 });
    expect(summary).toMatch(/too large for a comment/);
    for (const out of [...full, summary]) {
      expect(out).not.toContain('hunter2'); // ... the renderings never do, whole or nested
    }
    for (const out of full) expect((out.match(/\(sensitive\)/g) ?? []).length).toBe(6);
  });
});

describe('the plan at scale (plan/at-scale: 200 changes, 50 objects not managed here)', () => {
  const plan = planOf('at-scale');
  const text = renderText(plan);
  const writes = plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged');

  it('has the size it claims', () => {
    expect(writes).toHaveLength(200);
    expect(plan.changes.filter((c) => c.action === 'unmanaged')).toHaveLength(50);
  });

  it('heads every change with its address and its name; no deletion is headed by a bare id', () => {
    const headers = text.split('\n').filter((l) => /^ {2}# dq_/.test(l) && / (will be|must be) /.test(l));
    expect(headers).toHaveLength(200);
    for (const h of headers) expect(h).toMatch(/^ {2}# dq_\S+ \((alert|owner|domain|monitor deployment rule|SQL test) "[^"]+"\) (will be|must be) /);
  });

  it('counts the objects not managed here (by who manages them) instead of listing them, unless asked', () => {
    expect(text).not.toMatch(/^ {2}\? /m);
    expect(text).toContain('Not managed here (50, never changed by this stack): 35 made in the UI, 15 managed by namespace "billing"; --show-unmanaged lists them.');
    const all = renderText(plan, { showUnmanaged: true });
    expect(all.match(/^ {2}\? dq_\S+ \((alert|SQL test) "[^"]+"\): /gm)).toHaveLength(50);
    expect(renderMarkdown(plan, { showUnmanaged: true })).toContain('<details><summary>Not managed here (50, never changed by this stack)</summary>');
  });

  it('ends with Terraform\'s summary line (a replace counted in add and destroy), then the effects and the guard', () => {
    expect(text.trimEnd().split('\n').slice(-3)).toEqual([
      'Plan: 110 to add, 50 to change, 50 to destroy.',
      'The platform also deletes 20 monitor(s). It also creates 15 monitor(s).',
      'Note: apply refuses this plan as it is: the plan destroys 50 object(s) (10 of them replaced: destroyed, then created anew), more than --max-deletes 10. Review the deletions, then re-run with --max-deletes 50 if they are intended.',
    ]);
  });

  it('markdown: fits a comment, the guard and effects come first, updates use the ! marker GitHub colours', () => {
    const md = renderMarkdown(plan);
    expect(md.length).toBeLessThanOrEqual(60000);
    const first = (s: string) => md.indexOf(s);
    expect(first('**Apply refuses this plan as it is**: the plan destroys 50 object(s)')).toBeGreaterThan(0);
    expect(first('The platform also deletes 20 monitor(s)')).toBeLessThan(first('```diff'));
    expect(first('**Apply refuses this plan as it is**')).toBeLessThan(first('```diff'));
    const diff = md.slice(first('```diff'));
    expect(diff).not.toMatch(/^~/m);
    expect(diff).toMatch(/^! dq_alert "shop\.changed_000" \{$/m);
    expect(diff).toMatch(/^! {5}name = "Changed orders alert 000" -> "Changed orders alert 000 v2"$/m);
    expect(diff).toMatch(/^! {3}monitors to delete: 4 /m);
  });
});
