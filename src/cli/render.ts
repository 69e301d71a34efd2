/**
 * Plan renderers: text (Terraform-like), markdown (a pull-request comment) and JSON. All are
 * pure and deterministic; secrets at the plan's `sensitive` pointers print as `(sensitive)`.
 */
import type { Cascade, Change, Diagnostic, Effects, Plan } from '../../schemas/plan';
import { stableStringify } from '../engine/keys';
import { effectDeleteCounts, effectDeletesText, guardRefusals, unpreviewedChanges } from '../engine/guards';

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
  /** false: no guard notes after the summary line (the markdown renderer's per-change diffs). */
  guardNotes?: boolean;
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

function isSensitive(pointer: string, sensitive: readonly string[]): boolean {
  return sensitive.some((s) => pointer === s || pointer.startsWith(`${s}/`));
}

/** A value as JSON, with every sensitive pointer at or below `pointer` masked. */
function show(v: unknown, pointer: string, sensitive: readonly string[]): string {
  if (isSensitive(pointer, sensitive)) return '(sensitive)';
  if (!sensitive.some((s) => s.startsWith(`${pointer}/`))) return JSON.stringify(v);
  const mask = (x: unknown, p: string): unknown => {
    if (isSensitive(p, sensitive)) return '(sensitive)';
    if (Array.isArray(x)) return x.map((y, i) => mask(y, `${p}/${i}`));
    if (x && typeof x === 'object') return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, mask(y, `${p}/${k}`)]));
    return x;
  };
  return JSON.stringify(mask(v, pointer)).replace(/"\(sensitive\)"/g, '(sensitive)');
}

const isScalar = (v: unknown): boolean => v === null || typeof v !== 'object';

/**
 * The field lines of an update or replace: objects added or removed are expanded to their
 * leaves (so nested secrets stay masked and every line names one field); a list of scalars that
 * changed is shown whole, before and after, instead of index by index.
 */
function patchLines(c: Change): string[] {
  const out: string[] = [];
  const lists = new Set<string>();
  for (const op of c.patch) {
    const parts = op.path.split('/');
    const parent = parts.slice(0, -1).join('/');
    const inList = /^\d+$/.test(parts[parts.length - 1]) && Array.isArray(valueAt(c.before, parent)) && Array.isArray(valueAt(c.after, parent));
    if (inList && [valueAt(c.before, parent), valueAt(c.after, parent)].every((a) => (a as unknown[]).every(isScalar))) {
      if (lists.has(parent)) continue;
      lists.add(parent);
      out.push(`~ ${fieldName(parent)} = ${show(valueAt(c.before, parent), parent, c.sensitive)} -> ${show(valueAt(c.after, parent), parent, c.sensitive)}`);
      continue;
    }
    const name = fieldName(op.path);
    const old = valueAt(c.before, op.path);
    if (op.op === 'add' || (op.op === 'replace' && (!isScalar(op.value) || !isScalar(old)))) {
      if (op.op === 'replace') for (const [p, v] of flatten(old, op.path)) out.push(`- ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
      for (const [p, v] of flatten(op.value, op.path)) out.push(`+ ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else if (op.op === 'remove') {
      for (const [p, v] of flatten(old, op.path)) out.push(`- ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else out.push(`~ ${name} = ${show(old, op.path, c.sensitive)} -> ${show(op.value, op.path, c.sensitive)}`);
  }
  return out;
}

/** The header verb: imports and moves say so. */
function verb(c: Change): string {
  if (c.importedId && c.action === 'update') return 'will be imported and updated in place';
  if (c.importedId && c.action === 'replace') return 'will be imported and must be replaced';
  return VERB[c.action];
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
  if (e.error) out.push(e.error.startsWith('effects unknown') ? `! ${e.error}` : `! effects unknown: ${e.error}`);
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
  out.push(...cascadeLines(e.cascade));
  // a rule previewed, and nothing happens downstream: say so (an empty space would read like "not asked")
  if (out.length === 0 && e.source !== 'cascade') out.push('no downstream effects: the platform lists no monitor or SQL test created, changed or deleted');
  return out;
}

const CASCADE_TEXT: Record<Cascade['effect'], string> = {
  deleted: '! deleted with it',
  'loses-parent': 'left with a deleted parent domain',
  'loses-member': 'left with a deleted member',
  'loses-selection': 'left selecting a deleted data product',
};

/** One line per cascade effect: `! deleted with it: 2 ownership(s): over data product "Orders" (made in the UI), ...`. */
function cascadeLines(cascade: readonly Cascade[]): string[] {
  const out: string[] = [];
  for (const effect of Object.keys(CASCADE_TEXT) as Cascade['effect'][]) {
    const items = cascade.filter((c) => c.effect === effect);
    if (items.length === 0) continue;
    const kinds = [...new Set(items.map((c) => c.type.replace(/^dq_/, '').replace(/_/g, ' ')))].join(', ');
    const shown = items.slice(0, 10).map((c) => `${c.name} (${c.managedBy}${c.alsoDeleted ? ', also deleted by this plan' : ''})`);
    out.push(`${CASCADE_TEXT[effect]}: ${items.length} ${kinds}(s): ${shown.join(', ')}${items.length > 10 ? `, and ${items.length - 10} more` : ''}`);
  }
  return out;
}

const SEVERITY_WORD: Record<Diagnostic['severity'], string> = { error: 'Error', warning: 'Warning', info: 'Info' };

/** A diagnostic's lines as the text plan prints them. */
export function diagnosticLines(d: Diagnostic): string[] {
  const lines = [`${SEVERITY_WORD[d.severity]}: ${d.address ? `${d.address}: ` : ''}${d.summary}`];
  if (d.source) lines.push(`  at ${d.source}`);
  if (d.detail) lines.push(`  ${d.detail}`);
  if (d.hint) lines.push(`  ${d.hint}`);
  return lines;
}

function preview(list: readonly string[], n = 3): string {
  return list.length <= n ? list.join(', ') : `${list.slice(0, n).join(', ')}, ...`;
}

/**
 * `Plan: N to add, N to change, N to replace, N to destroy.`, followed by what the platform
 * deletes along with it (monitors and SQL tests of rule changes, cascaded objects: what
 * `--max-effect-deletes` counts) and how many rule changes could not be previewed, when any.
 */
export function summaryLine(plan: Plan): string {
  const s = plan.summary;
  const effects = effectDeleteCounts(plan);
  const unknown = unpreviewedChanges(plan).length;
  return `Plan: ${s.add} to add, ${s.change} to change, ${s.replace} to replace, ${s.destroy} to destroy.${effects.total ? ` The platform also deletes ${effectDeletesText(effects)}.` : ''}${unknown ? ` Effects unknown for ${unknown} change(s).` : ''}`;
}

/** What apply's guards will refuse with their default values: one line each, `[]` when nothing. */
export function guardLines(plan: Plan): string[] {
  return guardRefusals(plan).map((r) => `Note: apply refuses this plan as it is: ${r.message.split(': ')[0]}. ${r.hint}`);
}

/** The text plan, as a terminal shows it. */
export function renderText(plan: Plan, opts: RenderOptions = {}): string {
  const lines: string[] = [];
  lines.push(`dqform plan for namespace "${plan.namespace}" in workspace "${plan.workspace}" (stack ${plan.stack})`);
  lines.push('');
  for (const d of plan.diagnostics) lines.push(...diagnosticLines(d));
  if (plan.diagnostics.length) lines.push('');
  const writes = plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged');
  if (writes.length === 0 && !plan.diagnostics.some((d) => d.severity === 'error')) {
    lines.push('No changes. Live state matches the code.', '');
  }
  for (const c of writes) {
    const sym = SYMBOL[c.action];
    lines.push(paint(opts.color, COLOR[c.action], `  # ${c.address} ${verb(c)}`));
    for (const r of c.reasons) lines.push(`  #   (${r})`);
    lines.push(paint(opts.color, COLOR[c.action], `  ${sym} ${c.type} ${JSON.stringify(c.id)} {`));
    if (c.action === 'create') {
      for (const [p, v] of flatten(c.after)) lines.push(`      + ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else if (c.action === 'delete') {
      for (const [p, v] of flatten(c.before)) lines.push(`      - ${fieldName(p)} = ${show(v, p, c.sensitive)}`);
    } else {
      const fields = patchLines(c);
      if (fields.length === 0) lines.push('      (no field changes)');
      for (const l of fields) lines.push(`      ${l}`);
    }
    lines.push('    }');
    if (c.effects) for (const l of effectLines(c.effects)) lines.push(`    ${l}`);
    lines.push('');
  }
  const moved = plan.changes.filter((c) => c.action === 'noop' && c.movedFrom);
  for (const c of moved) lines.push(`  # ${c.movedFrom} has moved to ${c.address} (no changes; it keeps its id ${JSON.stringify(c.id)})`);
  if (moved.length) lines.push('');
  const unmanaged = plan.changes.filter((c) => c.action === 'unmanaged');
  if (unmanaged.length) {
    lines.push(`Not managed here (${unmanaged.length}, never changed by this stack):`);
    for (const c of unmanaged) lines.push(`  ? ${c.address}: ${c.reasons.join('; ')}`);
    lines.push('');
  }
  lines.push(summaryLine(plan));
  if (opts.guardNotes !== false) lines.push(...guardLines(plan));
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
  const notes = plan.diagnostics.filter((d) => d.severity !== 'error');
  if (notes.length) {
    head.push('> [!NOTE]');
    for (const d of notes) head.push(`> - ${SEVERITY_WORD[d.severity]}: ${d.address ? `\`${d.address}\`: ` : ''}${escapeMd(d.summary)}`);
    head.push('');
  }
  const destructive = plan.changes.filter((c) => c.action === 'delete' || c.action === 'replace');
  const resets = plan.changes.filter((c) => (c.effects?.baselineResets.length ?? 0) > 0 || c.effects?.losesHistory);
  if (destructive.length || resets.length) {
    head.push('> [!WARNING]');
    for (const c of destructive) {
      const gone = c.effects?.cascade.filter((x) => x.effect === 'deleted') ?? [];
      const others = gone.filter((x) => !x.alsoDeleted).length;
      head.push(`> - \`${c.address}\` ${verb(c)}${gone.length ? `, and with it ${gone.length} ${gone.length === 1 ? 'object' : 'objects'}${others ? ` (${others} not deleted by this plan)` : ''}` : ''}`);
    }
    for (const c of resets) {
      if (c.effects?.baselineResets.length) head.push(`> - \`${c.address}\` resets the learned baseline of ${c.effects.baselineResets.length} monitor(s)`);
      if (c.effects?.losesHistory) head.push(`> - \`${c.address}\` deletes the history of every SQL test it deployed`);
    }
    head.push('');
  }
  const body: string[] = [];
  const writes = plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged');
  if (writes.length === 0) body.push('No changes. Live state matches the code.', '');
  const moved = plan.changes.filter((c) => c.action === 'noop' && c.movedFrom);
  if (moved.length) body.push(...moved.map((c) => `- moved without changes: \`${c.movedFrom}\` -> \`${c.address}\``), '');
  const kinds = [...new Set(writes.map((c) => c.type))].sort();
  for (const k of kinds) {
    const cs = writes.filter((c) => c.type === k);
    body.push(`<details><summary><code>${k}</code>: ${cs.length} change(s)</summary>`, '');
    body.push('```diff');
    for (const c of cs) {
      const text = renderText({ ...plan, diagnostics: [], changes: [c] }, { guardNotes: false }).split('\n');
      // diff markers in column 0 so GitHub colours them: headers (`+ dq_x`), fields (`+     name = ...`)
      body.push(...text.slice(2, -3).map((l) => l.replace(/^ {2}(-\/\+|[+~-]) /, '$1 ').replace(/^ {6}([+~-]) /, '$1     ')));
    }
    body.push('```', '', '</details>', '');
  }
  const tail = `\n${[summaryLine(plan), ...guardLines(plan)].join('\n\n')}\n`;
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
