/**
 * Plan renderers: text (Terraform-like), markdown (a pull-request comment) and JSON. All are
 * pure and deterministic; secrets at the plan's `sensitive` pointers print as `(sensitive)`.
 */
import type { Change, Effects, Plan } from '../../schemas/plan';
import { stableStringify } from '../engine/keys';

const SYMBOL: Record<Change['action'], string> = { create: '+', update: '~', replace: '-/+', delete: '-', noop: ' ', unmanaged: '?' };
const VERB: Record<Change['action'], string> = {
  create: 'will be created',
  update: 'will be updated in place',
  replace: 'must be replaced',
  delete: 'will be destroyed',
  noop: 'is unchanged',
  unmanaged: 'is not managed here',
};

export interface RenderOptions {
  color?: boolean;
}

function paint(on: boolean | undefined, code: number, s: string): string {
  return on ? `\u001b[${code}m${s}\u001b[0m` : s;
}
const COLOR: Record<Change['action'], number> = { create: 32, update: 33, replace: 35, delete: 31, noop: 0, unmanaged: 36 };

function flatten(v: unknown, base = ''): [string, unknown][] {
  if (Array.isArray(v)) return v.length === 0 ? [[base, []]] : v.flatMap((x, i) => flatten(x, `${base}/${i}`));
  if (v && typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return keys.length === 0 ? [[base, {}]] : keys.flatMap((k) => flatten((v as Record<string, unknown>)[k], `${base}/${k}`));
  }
  return [[base, v]];
}

function fieldName(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((p) => (/^\d+$/.test(p) ? `[${p}]` : `.${p}`))
    .join('')
    .replace(/^\./, '');
}

function show(v: unknown, pointer: string, sensitive: readonly string[]): string {
  if (sensitive.some((s) => pointer === s || pointer.startsWith(`${s}/`))) return '(sensitive)';
  return JSON.stringify(v);
}

function valueAt(obj: unknown, pointer: string): unknown {
  let cur = obj;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function effectLines(e: Effects): string[] {
  const out: string[] = [];
  if (e.error) out.push(`! the platform could not preview this change: ${e.error}`);
  if (e.monitorsToCreate.length) out.push(`monitors to create: ${e.monitorsToCreate.length} (${preview(e.monitorsToCreate)})`);
  if (e.monitorsToDelete.length) out.push(`monitors to delete: ${e.monitorsToDelete.length} (${preview(e.monitorsToDelete)})`);
  if (e.activeMonitors) out.push(`monitors kept active: ${e.activeMonitors}`);
  for (const s of e.settingsChanges.slice(0, 10)) out.push(`monitor settings on ${s.assetPath}: ${s.from} -> ${s.to}`);
  if (e.settingsChanges.length > 10) out.push(`... and ${e.settingsChanges.length - 10} more settings changes`);
  if (e.baselineResets.length) out.push(`! baseline reset on ${e.baselineResets.length} monitor(s): ${preview(e.baselineResets.map((b) => `${b.assetPath} (${b.reason})`))}`);
  if (e.skipped.length) out.push(`skipped assets: ${e.skipped.length} (${preview(e.skipped.map((s) => `${s.assetPath}: ${s.reason}`))})`);
  if (e.testsToCreate.length) out.push(`SQL tests to create: ${e.testsToCreate.length} (${preview(e.testsToCreate)})`);
  if (e.testsToUpdate.length) out.push(`SQL tests to update: ${e.testsToUpdate.length} (${preview(e.testsToUpdate)})`);
  if (e.testsToDelete.length) out.push(`SQL tests to delete: ${e.testsToDelete.length} (${preview(e.testsToDelete)})`);
  if (e.testsToKeep.length) out.push(`SQL tests kept: ${e.testsToKeep.length}`);
  if (e.losesHistory) out.push('! deleting this rule deletes the history of every test it deployed');
  return out;
}

function preview(list: readonly string[], n = 3): string {
  return list.length <= n ? list.join(', ') : `${list.slice(0, n).join(', ')}, ...`;
}

/** `Plan: N to add, N to change, N to replace, N to destroy.` */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  return `Plan: ${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy.`;
}

/** The text plan, as a terminal shows it. */
export function renderText(plan: Plan, opts: RenderOptions = {}): string {
  const lines: string[] = [];
  lines.push(`dqform plan for namespace "${plan.namespace}" in workspace "${plan.workspace}" (stack ${plan.stack})`);
  lines.push('');
  for (const d of plan.diagnostics) {
    lines.push(`${d.severity === 'error' ? 'Error' : 'Warning'}: ${d.address ? `${d.address}: ` : ''}${d.summary}`);
    if (d.source) lines.push(`  at ${d.source}`);
    if (d.detail) lines.push(`  ${d.detail}`);
    if (d.hint) lines.push(`  ${d.hint}`);
  }
  if (plan.diagnostics.length) lines.push('');
  const writes = plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged');
  if (writes.length === 0 && !plan.diagnostics.some((d) => d.severity === 'error')) {
    lines.push('No changes. Live state matches the code.');
  }
  for (const c of writes) {
    const sym = SYMBOL[c.action];
    lines.push(paint(opts.color, COLOR[c.action], `  # ${c.address} ${VERB[c.action]}`));
    for (const r of c.reasons) lines.push(`  #   (${r})`);
    lines.push(paint(opts.color, COLOR[c.action], `  ${sym} ${c.type} ${JSON.stringify(c.id)} {`));
    if (c.action === 'create') {
      for (const [p, v] of flatten(c.after)) lines.push(`      + ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else if (c.action === 'delete') {
      for (const [p, v] of flatten(c.before)) lines.push(`      - ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else {
      for (const op of c.patch) {
        const name = fieldName(op.path);
        if (op.op === 'add') lines.push(`      + ${name} = ${show(op.value, op.path, c.sensitive)}`);
        else if (op.op === 'remove') lines.push(`      - ${name} = ${show(valueAt(c.before, op.path), op.path, c.sensitive)}`);
        else lines.push(`      ~ ${name} = ${show(valueAt(c.before, op.path), op.path, c.sensitive)} -> ${show(op.value, op.path, c.sensitive)}`);
      }
    }
    lines.push('    }');
    if (c.effects) for (const l of effectLines(c.effects)) lines.push(`    ${l}`);
    lines.push('');
  }
  const unmanaged = plan.changes.filter((c) => c.action === 'unmanaged');
  if (unmanaged.length) {
    lines.push(`Not managed here (${unmanaged.length}, never changed by this stack):`);
    for (const c of unmanaged) lines.push(`  ? ${c.address}: ${c.reasons.join('; ')}`);
    lines.push('');
  }
  lines.push(summaryLine(plan));
  return `${lines.join('\n')}\n`;
}

/** GitHub's comment limit is 65,536 characters; stay well below it. */
export const MARKDOWN_LIMIT = 60000;

/** The markdown plan for a pull-request comment. Large plans are summarised to fit. */
export function renderMarkdown(plan: Plan, opts: { limit?: number } = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const head: string[] = [];
  const s = plan.summary;
  head.push(`### dqform plan: \`${plan.namespace}\` in \`${plan.workspace}\``);
  head.push('');
  head.push('| add | change | replace | destroy | unchanged | not managed here |');
  head.push('|---:|---:|---:|---:|---:|---:|');
  head.push(`| ${s.add} | ${s.change} | ${s.replace} | ${s.destroy} | ${s.unchanged} | ${s.unmanaged} |`);
  head.push('');
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    head.push(`> [!CAUTION]\n> ${errors.length} error(s): this plan cannot be applied.`);
    for (const d of errors) head.push(`> - \`${d.address ?? plan.stack}\`: ${escapeMd(d.summary)}`);
    head.push('');
  }
  const destructive = plan.changes.filter((c) => c.action === 'delete' || c.action === 'replace');
  const resets = plan.changes.filter((c) => (c.effects?.baselineResets.length ?? 0) > 0 || c.effects?.losesHistory);
  if (destructive.length || resets.length) {
    head.push('> [!WARNING]');
    for (const c of destructive) head.push(`> - \`${c.address}\` ${VERB[c.action]}`);
    for (const c of resets) {
      if (c.effects?.baselineResets.length) head.push(`> - \`${c.address}\` resets the learned baseline of ${c.effects.baselineResets.length} monitor(s)`);
      if (c.effects?.losesHistory) head.push(`> - \`${c.address}\` deletes the history of every SQL test it deployed`);
    }
    head.push('');
  }
  const body: string[] = [];
  const writes = plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged');
  if (writes.length === 0) body.push('No changes. Live state matches the code.', '');
  const kinds = [...new Set(writes.map((c) => c.type))].sort();
  for (const k of kinds) {
    const cs = writes.filter((c) => c.type === k);
    body.push(`<details><summary><code>${k}</code>: ${cs.length} change(s)</summary>`, '');
    body.push('```diff');
    for (const c of cs) {
      const text = renderText({ ...plan, diagnostics: [], changes: [c] }).split('\n');
      body.push(...text.slice(2, -3).map((l) => l.replace(/^ {2}([+~-])/, '$1 ').replace(/^ {4}(\+|-|~)/, '$1   ')));
    }
    body.push('```', '', '</details>', '');
  }
  const tail = `\n${summaryLine(plan)}\n`;
  let out = `${head.join('\n')}\n${body.join('\n')}${tail}`;
  if (out.length > limit) {
    const rows = writes.map((c) => `| \`${c.address}\` | ${c.action} |${c.effects ? ` ${escapeMd(effectLines(c.effects).join('; ')).slice(0, 200)}` : ''} |`);
    const table = ['| address | action | effects |', '|---|---|---|'];
    let summary = `${head.join('\n')}\n_The full plan is too large for a comment; this is a summary. Run \`dqform plan\` for every field._\n\n${table.join('\n')}\n`;
    let shown = 0;
    for (const r of rows) {
      if (summary.length + r.length + tail.length + 100 > limit) break;
      summary += `${r}\n`;
      shown++;
    }
    if (shown < rows.length) summary += `\n_...and ${rows.length - shown} more change(s)._\n`;
    out = `${summary}${tail}`;
  }
  return out;
}

function escapeMd(s: string): string {
  return s.replace(/[|<>]/g, (c) => `\\${c}`);
}

/** The JSON plan: stable keys, two-space indent. */
export function renderJson(plan: Plan): string {
  return `${stableStringify(plan, 2)}\n`;
}
