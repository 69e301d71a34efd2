/**
 * The plan model, the plan file and the public JSON are apart (issue 24, Terraform's
 * internal/plans, plans/planfile, command/jsonplan): the file is written and read by
 * src/plan/file.ts only, in its own versioned format; the public JSON is made by src/plan/json.ts
 * only; the model has neither code path.
 */
import fs from 'node:fs';
import path from 'node:path';
import { PlanFile, PLAN_FORMAT_VERSION } from '../../schemas/plan-file';
import { PlanJson } from '../../schemas/plan-json';
import type { Plan } from '../../schemas/plan';
import { fromPlanFile, loadPlan, toPlanFile, writePlan } from '../../src/plan/file';
import { renderPlanJson, toPlanJson } from '../../src/plan/json';

const ROOT = path.resolve(__dirname, '../..');
const golden = (name: string): Plan => JSON.parse(fs.readFileSync(path.join(ROOT, 'test/golden/plan', name, 'plan.json'), 'utf8')) as Plan;

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
});

describe('the code paths are apart', () => {
  const files = (dir: string): string[] =>
    fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : []));
  const sources = files(path.join(ROOT, 'src')).map((f) => [path.relative(ROOT, f), fs.readFileSync(f, 'utf8')] as const);

  it('only src/plan/file.ts reads or writes the plan file format', () => {
    expect(sources.filter(([, s]) => /schemas\/plan-file'|function (loadPlan|writePlan)\b/.test(s)).map(([f]) => f)).toEqual(['src/plan/file.ts']);
  });

  it('only src/plan/json.ts makes the public JSON plan', () => {
    expect(sources.filter(([, s]) => /schemas\/plan-json'|function (renderPlanJson|toPlanJson)\b/.test(s)).map(([f]) => f)).toEqual(['src/plan/json.ts']);
  });

  it('the engine (the model) imports neither', () => {
    expect(sources.filter(([f, s]) => f.startsWith('src/engine/') && /from '\.\.\/plan\//.test(s)).map(([f]) => f)).toEqual([]);
  });
});
