/**
 * Every markdown output stays within its promised size (MARKDOWN_LIMIT, 60,000 characters: the
 * README's promise for a PR comment), unmanaged lists included: `--show-unmanaged` over 20,000
 * objects made 6.6 MB. What is cut is counted on a visible "... N more, see the full plan" line.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Plan, type Change } from '../../schemas/model/plan';
import { MARKDOWN_LIMIT, renderMarkdown } from '../../src/cli/render';

const GOLDEN = path.join(__dirname, '..', 'golden', 'plan');
const golden = (name: string): Plan => Plan.parse(JSON.parse(fs.readFileSync(path.join(GOLDEN, name, 'plan.json'), 'utf8')));

/** The `actions` golden plan with `n` more objects not managed here (made in the UI). */
function withUnmanaged(n: number, concerns = false): Plan {
  const plan = golden('actions');
  const ui = plan.changes.find((c) => c.action === 'unmanaged' && c.address.includes('ui.'))!;
  const extra: Change[] = [];
  for (let i = 0; i < n; i++) {
    const address = concerns ? `dq_alert.removed_${String(i).padStart(5, '0')}` : `dq_alert["ui.made-${String(i).padStart(5, '0')}"]`;
    extra.push({ ...structuredClone(ui), address, id: `ui.made-${i}`, name: `alert "Made in the UI number ${i}, with a long enough name to matter"` });
  }
  plan.changes.push(...extra);
  plan.summary.unmanaged += n;
  return plan;
}

// assertions on the whole markdown test booleans: a failing matcher would print megabytes

/** Balanced fences and `<details>`: a cut never leaves the rest of a comment inside a code block. */
function expectBalanced(md: string): void {
  let fence: string | undefined;
  let open = 0;
  for (const l of md.split('\n')) {
    const f = /^ {0,3}(`{3,})/.exec(l)?.[1];
    if (fence) {
      if (f && f.length >= fence.length && l.trim() === f) fence = undefined;
    } else if (f) fence = f;
    else if (l.startsWith('<details>')) open++;
    else if (l.startsWith('</details>')) open--;
  }
  expect(fence).toBeUndefined();
  expect(open).toBe(0);
}

test('the promise is 60,000 characters', () => {
  expect(MARKDOWN_LIMIT).toBe(60000);
});

describe('--show-unmanaged over 20,000 objects', () => {
  const n = 20000;
  const md = renderMarkdown(withUnmanaged(n), { showUnmanaged: true });

  test('fits the promised size', () => {
    expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
    expectBalanced(md);
  });

  test('lists what fits and counts the rest on a visible "... N more, see the full plan" line', () => {
    const listed = md.split('\n').filter((l) => /^- `/.test(l)).length;
    const more = /^- \.\.\. (\d+) more, see the full plan \(`dqform plan --show-unmanaged`, or `dqform show` on the saved plan\)$/m.exec(md);
    expect(listed).toBeGreaterThan(50);
    expect(more).not.toBeNull();
    // every object not managed here is listed or counted: the golden plan's 3 and the 20,000
    expect(listed + Number(more![1])).toBe(n + 3);
    expect(md.includes(`Not managed here (${n + 3}, never changed by this stack)`)).toBe(true);
  });
});

test('objects of this stack not managed here (listed even without --show-unmanaged) are bounded too', () => {
  const md = renderMarkdown(withUnmanaged(20000, true));
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expect(/^- \.\.\. \d+ more, see the full plan/m.test(md)).toBe(true);
  expectBalanced(md);
});

test('5,000 errors and 5,000 notes: the first 20 of each, then a count', () => {
  const plan = golden('actions');
  for (let i = 0; i < 5000; i++) {
    plan.diagnostics.push({ severity: 'error', summary: `error number ${i} with some words to take room`, address: `dq_alert.a${i}` });
    plan.diagnostics.push({ severity: 'warning', summary: `warning number ${i} with some words to take room`, address: `dq_alert.a${i}` });
  }
  const md = renderMarkdown(plan);
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expect(md.includes('> - ... 4980 more error(s), see the full plan (`dqform plan` prints them all)')).toBe(true);
  expect(md.includes('> - ... 4980 more note(s), see the full plan (`dqform plan` prints them all)')).toBe(true);
  expectBalanced(md);
});

test('names of 100,000 characters are clipped: the comment still fits', () => {
  const plan = golden('at-scale');
  for (const c of plan.changes) c.name = `alert "${'x'.repeat(100000)}"`;
  plan.diagnostics.push({ severity: 'warning', summary: 'y'.repeat(100000) });
  const md = renderMarkdown(plan, { showUnmanaged: true });
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  expectBalanced(md);
});

describe.each([1500, 3000, 10000, 30000, MARKDOWN_LIMIT])('at a limit of %i characters', (limit) => {
  test.each([
    ['at-scale', false],
    ['at-scale', true],
    ['governance-pruning', true],
    ['refresh-only', true],
    ['destroy', false],
  ] as const)('%s (show unmanaged: %s) fits, fences and details closed', (name, showUnmanaged) => {
    const md = renderMarkdown(golden(name), { limit, showUnmanaged });
    expect(md.length).toBeLessThanOrEqual(limit);
    expectBalanced(md);
    expect(md.trimEnd().split('\n').pop()).toMatch(/^(Plan|Refresh-only): /);
  });

  test('a plan whose head alone is larger is cut at a line with a visible count, its summary line last', () => {
    const plan = withUnmanaged(100);
    for (let i = 0; i < 40; i++) plan.diagnostics.push({ severity: i % 2 ? 'error' : 'warning', summary: `${'z'.repeat(290)} ${i}`, address: `dq_alert.a${i}` });
    const md = renderMarkdown(plan, { limit, showUnmanaged: true });
    expect(md.length).toBeLessThanOrEqual(limit);
    expectBalanced(md);
    if (limit < 20000) expect(/^_\.\.\. \d+ more line\(s\) cut to fit a comment, see the full plan: run `dqform plan` \(or `dqform show` on the saved plan\)\._$/m.test(md)).toBe(true);
    expect(md.trimEnd().split('\n').pop()).toBe('Plan: 2 to add, 1 to change, 3 to destroy.');
  });
});
