/**
 * A plan with nothing to do (issue 26): "No changes." is the last line, after what informs
 * (moves, objects not managed here), and no zero summary line follows it, as Terraform's
 * "No changes. Your infrastructure matches the configuration." is its last word.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Plan } from '../../schemas/model/plan';
import { renderText } from '../../src/cli/render';

const GOLDEN = path.join(__dirname, '..', 'golden', 'plan');
const read = (name: string) => Plan.parse(JSON.parse(fs.readFileSync(path.join(GOLDEN, name, 'plan.json'), 'utf8')));

/** The no-changes plan with the `actions` case's objects not managed here. */
function quietPlan(): Plan {
  const p = read('no-changes');
  const unmanaged = read('actions').changes.filter((c) => c.action === 'unmanaged');
  expect(unmanaged.length).toBeGreaterThan(0);
  return { ...p, changes: [...p.changes, ...unmanaged] };
}

const lastLines = (text: string, n: number) => text.trimEnd().split('\n').slice(-n);

describe('no changes', () => {
  it('comes after the lines that inform, and is the last line: no zero summary line', () => {
    const text = renderText(quietPlan());
    const lines = text.trimEnd().split('\n');
    expect(lines[lines.length - 1]).toBe('No changes. Live state matches the code.');
    expect(lines.findIndex((l) => l.startsWith('Not managed here'))).toBeLessThan(lines.length - 1);
    expect(text).not.toMatch(/^Plan: /m);
  });

  it('a destroy plan with nothing to destroy says so last, with no summary line', () => {
    const p = quietPlan();
    const text = renderText({ ...p, options: { ...p.options, destroy: true } });
    expect(lastLines(text, 1)).toEqual(['No changes. Namespace "shop" owns nothing to destroy.']);
    expect(text).not.toMatch(/^Plan: /m);
  });

  it('a refresh-only plan without differences: "No changes." last, no "Refresh-only: ... Nothing to apply." line', () => {
    const p = quietPlan();
    const text = renderText({ ...p, drift: [], options: { ...p.options, refreshOnly: true } });
    expect(lastLines(text, 1)).toEqual(['No changes. Live state matches the code.']);
    expect(text).not.toMatch(/^Refresh-only: /m);
    expect(text).toMatch(/^Not managed here/m);
  });

  it('a plan with changes keeps its summary line', () => {
    expect(lastLines(renderText(read('actions')), 1)).toEqual(['Plan: 2 to add, 1 to change, 3 to destroy.']);
  });
});
