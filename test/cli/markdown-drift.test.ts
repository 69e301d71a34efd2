/**
 * The markdown of a refresh-only plan (issue 21: `drift` and `plan --refresh-only` show a live
 * difference the same way): its diff blocks hold the text plan's entries (the field, the code's
 * value and live's value, labelled, and what dqform plan and apply would do), and so does its
 * table form (a plan too large for its diff blocks), one difference per row.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Plan } from '../../schemas/model/plan';
import { renderMarkdown, renderText } from '../../src/cli/render';

const plan = Plan.parse(JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'golden', 'plan', 'refresh-only', 'plan.json'), 'utf8')));

/** The entry blocks of an output: from each `  # dq_...` header to its `dqform plan and apply would ...` line. */
const entries = (out: string) => [...out.matchAll(/^ {2}# dq_[^\n]*\n(?:[^\n]*\n)*? {4}dqform plan and apply would [^\n]*$/gm)].map((m) => m[0]);
/** An entry without its diff markers and indentation (text `  ~ `, markdown `!     `). */
const bare = (entry: string) => entry.split('\n').map((l) => l.replace(/^ *[~!+-]? */, ''));

it('the diff blocks hold the same entries as the text plan: labelled fields and what apply would do', () => {
  const md = renderMarkdown(plan);
  const text = entries(renderText(plan));
  expect(text).toHaveLength(5);
  expect(entries(md).map(bare)).toEqual(text.map(bare));
  expect(md).toContain('!     name: code "Orders v2", live "Orders"\n');
  expect(md).not.toMatch(/"Orders( v2)?" -> /);
});

it('the table form names each difference, its labelled fields and what dqform plan and apply would do', () => {
  const md = renderMarkdown(plan, { limit: 3000 });
  expect(md.length).toBeLessThanOrEqual(3000);
  expect(md).toContain('_The full plan is too large for a comment: the kinds whose diffs do not fit are listed one difference per row.');
  expect(md).toContain('| address | name | difference | fields (code, live); what dqform plan and apply would do |\n');
  const row = (address: string) => md.split('\n').find((l) => l.startsWith(`| \`${address}\` |`));
  expect(row('dq_alert.orders')).toBe('| `dq_alert.orders` | alert "Orders v2" | has changed outside dqform | name: code "Orders v2", live "Orders"; dqform plan and apply would update it in place to the code\'s values |');
  expect(row('dq_alert.new_orders')).toBe('| `dq_alert.new_orders` | alert "New orders" | is absent live | dqform plan and apply would create it from the code |');
  expect(row('dq_alert["shop.retired"]')).toMatch(/\| exists live but is not declared in the code \| dqform plan and apply would delete it \(this namespace owns it and the code no longer declares it\) \|$/);
  // many fields are clipped, what apply would do is not
  const freshness = row('dq_alert.freshness')!;
  expect(freshness).toMatch(/\| schemaChange\.targets\\\[0\\\]\.slack\.channel = "#data" \(code only\); .*…; dqform plan and apply would replace it \(destroy it, then create it from the code\) \|$/);
});

it('cut short, the table counts the differences left out', () => {
  const md = renderMarkdown(plan, { limit: 1500 });
  expect(md.length).toBeLessThanOrEqual(1500);
  expect(md).toMatch(/^_\.\.\.and \d+ more difference\(s\), see the full plan\._$/m);
});
