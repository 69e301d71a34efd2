/**
 * The plan model, the plan file and the public JSON are apart (issue 24, Terraform's
 * internal/plans, plans/planfile, command/jsonplan): the file is written and read by
 * src/plan/file.ts only, in its own versioned format; the public JSON is made by src/plan/json.ts
 * only; the model has neither code path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PlanFile, PLAN_FORMAT_VERSION } from '../../schemas/model/plan-file';
import { PlanJson } from '../../schemas/model/plan-json';
import { fromPlanFile, loadPlan, toPlanFile, writePlan } from '../../src/plan/file';
import { renderPlanJson, renderPlansJson, toPlanJson } from '../../src/plan/json';
import { reasonText } from '../../src/plan/reasons-text';
import { renderMarkdown, renderText } from '../../src/cli/render';

const ROOT = path.resolve(__dirname, '../..');
const golden = (name: string): unknown => JSON.parse(fs.readFileSync(path.join(ROOT, 'test/golden/plan', name, 'plan.json'), 'utf8'));

describe('the plan file', () => {
  const plan = loadPlan(golden('actions'));

  it('is the model with its format header, and reads back to the same model', () => {
    const text = writePlan(plan);
    const file = PlanFile.parse(JSON.parse(text));
    expect(file.formatVersion).toBe(PLAN_FORMAT_VERSION);
    expect(toPlanFile(plan)).toEqual(file);
    expect(loadPlan(JSON.parse(text))).toEqual(plan);
    expect(fromPlanFile(file)).toEqual(plan);
    expect(text.endsWith('}\n')).toBe(true);
  });

  it('is checked by the lean validator: zod runs only for a file it refuses (for the messages)', () => {
    const zod = jest.spyOn(PlanFile, 'safeParse');
    try {
      expect(loadPlan(JSON.parse(writePlan(plan)))).toEqual(plan);
      expect(zod).not.toHaveBeenCalled();
      expect(() => loadPlan({ ...toPlanFile(plan), changes: 'none' })).toThrow(/not a dqform plan .*changes/);
      expect(zod).toHaveBeenCalledTimes(1);
    } finally {
      zod.mockRestore();
    }
  });

  it('a file of an older format is refused with plan again', () => {
    expect(() => loadPlan({ ...toPlanFile(plan), formatVersion: PLAN_FORMAT_VERSION - 1 })).toThrow(/written by an older dqform/);
    try {
      loadPlan({ ...toPlanFile(plan), formatVersion: PLAN_FORMAT_VERSION - 1 });
    } catch (e) {
      expect((e as { hint: string }).hint).toMatch(/^Plan again/);
    }
  });
});

describe('the public JSON', () => {
  it('is its own schema, made by its converter, and prints what --json printed', () => {
    for (const name of ['actions', 'refresh-only', 'destroy']) {
      const text = fs.readFileSync(path.join(ROOT, 'test/golden/plan', name, 'plan.json'), 'utf8');
      const plan = loadPlan(JSON.parse(text));
      expect(PlanJson.parse(toPlanJson(plan))).toEqual(toPlanJson(plan));
      expect(renderPlanJson(plan)).toBe(text);
    }
  });

  it('--all-stacks --json prints the plans\' public JSON as one array', () => {
    const texts = ['actions', 'refresh-only'].map((name) => fs.readFileSync(path.join(ROOT, 'test/golden/plan', name, 'plan.json'), 'utf8'));
    const out = renderPlansJson(texts.map((t) => loadPlan(JSON.parse(t))));
    expect(JSON.parse(out)).toEqual(texts.map((t) => JSON.parse(t) as unknown));
    expect(out).toContain('"reasons": [\n');
  });
});

describe('reasons: codes in the model, prose in the views', () => {
  const plan = loadPlan(golden('actions'));
  const withCode = plan.changes.find((c) => c.reasonCodes?.length)!;

  it('the model carries the codes only; the file and the public JSON carry their prose beside them', () => {
    expect(plan.changes.filter((c) => 'reasons' in c)).toEqual([]);
    expect('formatVersion' in plan).toBe(false);
    const prose = withCode.reasonCodes!.map(reasonText);
    expect(prose.length).toBeGreaterThan(0);
    expect(toPlanFile(plan).changes.find((c) => c.address === withCode.address)).toMatchObject({ reasons: prose, reasonCodes: withCode.reasonCodes });
    expect(toPlanJson(plan).changes.find((c) => c.address === withCode.address)).toMatchObject({ reasons: prose, reasonCodes: withCode.reasonCodes });
  });

  it('the views make the words from the codes (prose in a file beside codes is not what is shown)', () => {
    const file = toPlanFile(plan);
    const edited = file.changes.find((c) => c.address === withCode.address)!;
    edited.reasons = edited.reasons.map(() => 'words nobody wrote');
    const read = loadPlan(JSON.parse(JSON.stringify(file)));
    for (const out of [renderText(read), renderMarkdown(read), renderPlanJson(read), writePlan(read)]) {
      expect(out).not.toContain('words nobody wrote');
      expect(out).toContain(reasonText(withCode.reasonCodes![0]).slice(0, 20));
    }
  });

  it('a hand-written file with prose only reads as text reasons, shown as written, with no code in the public JSON', () => {
    const file = toPlanFile(plan);
    const bare = file.changes.find((c) => c.address === withCode.address)!;
    delete bare.reasonCodes;
    bare.reasons = ['written by hand'];
    const read = loadPlan(JSON.parse(JSON.stringify(file)));
    const c = read.changes.find((x) => x.address === withCode.address)!;
    expect(c.reasonCodes).toEqual([{ code: 'text', text: 'written by hand' }]);
    expect(renderText(read)).toContain('written by hand');
    const json = toPlanJson(read).changes.find((x) => x.address === withCode.address)!;
    expect([json.reasons, json.reasonCodes]).toEqual([['written by hand'], undefined]);
    expect(toPlanFile(read).changes.find((x) => x.address === withCode.address)!.reasons).toEqual(['written by hand']);
  });
});

describe('the code paths are apart', () => {
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  const sources = files(path.join(ROOT, 'src')).map((f) => [path.relative(ROOT, f), fs.readFileSync(f, 'utf8')] as const);

  it('only src/plan/file.ts reads or writes the plan file format', () => {
    expect(sources.filter(([, s]) => /schemas\/plan-file'|function (loadPlan|writePlan)\b/.test(s)).map(([f]) => f)).toEqual(['src/plan/file.ts']);
  });

  it('only src/plan/json.ts makes the public JSON plan', () => {
    expect(sources.filter(([, s]) => /schemas\/plan-json'|function (renderPlanJson|renderPlansJson|toPlanJson)\b/.test(s)).map(([f]) => f)).toEqual(['src/plan/json.ts']);
  });

  it('the engine (the model) imports neither: from src/plan only the reasons\' words, for its diagnostics', () => {
    const imports = sources.filter(([f]) => f.startsWith('src/engine/')).flatMap(([f, s]) => [...s.matchAll(/from '((?:\.\.\/)+plan\/[^']*)'/g)].map((m) => `${f}: ${m[1]}`));
    expect(imports).toEqual(['src/engine/phases/declared.ts: ../../plan/reasons-text']);
  });

  it('the engine records no prose reasons and the renderers read none: reasons are codes until a view', () => {
    expect(sources.filter(([f, s]) => (f.startsWith('src/engine/') || f.startsWith('src/cli/')) && /\breasons:(?!\s*reasonsText\()|\.reasons\b/.test(s)).map(([f]) => f)).toEqual([]);
  });
});
