/**
 * Plan renderers: text (Terraform-like), markdown (a pull-request comment) and JSON. All are
 * pure and deterministic; secrets at the plan's `sensitive` pointers print as `(sensitive)`.
 */
import type { Cascade, Change, Diagnostic, Drift, Effects, Plan } from '../../schemas/model/plan';
import { hasReason } from '../engine/reasons';
import { reasonsText } from '../plan/reasons-text';
import { effectDeleteCounts, effectDeletesText, guardRefusals, unpreviewedChanges } from '../engine/guards';
import { htmlText, inertText, mdCode, mdFence, mdText } from '../../schemas/tools/inert';

const SYMBOL: Record<Change['action'], string> = { create: '+', update: '~', replace: '-/+', delete: '-', noop: ' ', unmanaged: '?', forget: '?' };
const VERB: Record<Change['action'], string> = {
  create: 'will be created',
  update: 'will be updated in place',
  replace: 'must be replaced',
  delete: 'will be destroyed',
  noop: 'is unchanged',
  unmanaged: 'is not managed here',
  forget: 'will no longer be managed; the object stays',
};

export interface RenderOptions {
  color?: boolean;
  /** List every object not managed here (`--show-unmanaged`); by default they are counted, by who manages them. */
  showUnmanaged?: boolean;
}

function paint(on: boolean | undefined, code: number, s: string): string {
  return on ? `\u001b[${code}m${s}\u001b[0m` : s;
}
const COLOR: Record<Change['action'], number> = { create: 32, update: 33, replace: 36, delete: 31, noop: 0, unmanaged: 36, forget: 36 };
/** Dim: context that changes nothing (reasons, "(no field changes)", moves). */
const DIM = 2;
const FIELD_COLOR: Record<string, number> = { '+': 32, '~': 33, '-': 31 };

/** A field line (`      + name = value`) painted by its symbol: green `+`, yellow `~`, red `-`. */
function paintField(on: boolean | undefined, line: string): string {
  const code = FIELD_COLOR[line.trimStart()[0]];
  return code === undefined ? paint(on, DIM, line) : paint(on, code, line);
}

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
function patchLines(c: Pick<Change, 'patch' | 'before' | 'after' | 'sensitive'>, labelled = false): string[] {
  const out: string[] = [];
  // a live difference (drift): `before` is the code's value, `after` live's, each labelled
  const changed = (name: string, a: string, b: string) => (labelled ? `~ ${name}: code ${a}, live ${b}` : `~ ${name} = ${a} -> ${b}`);
  const only = (sym: '+' | '-', name: string, v: string) => `${sym} ${name} = ${v}${labelled ? (sym === '+' ? ' (live only)' : ' (code only)') : ''}`;
  const lists = new Set<string>();
  for (const op of c.patch) {
    const parts = op.path.split('/');
    const parent = parts.slice(0, -1).join('/');
    const inList = /^\d+$/.test(parts[parts.length - 1]) && Array.isArray(valueAt(c.before, parent)) && Array.isArray(valueAt(c.after, parent));
    if (inList && [valueAt(c.before, parent), valueAt(c.after, parent)].every((a) => (a as unknown[]).every(isScalar))) {
      if (lists.has(parent)) continue;
      lists.add(parent);
      out.push(changed(fieldName(parent), show(valueAt(c.before, parent), parent, c.sensitive), show(valueAt(c.after, parent), parent, c.sensitive)));
      continue;
    }
    const name = fieldName(op.path);
    const old = valueAt(c.before, op.path);
    if (op.op === 'add' || (op.op === 'replace' && (!isScalar(op.value) || !isScalar(old)))) {
      if (op.op === 'replace') for (const [p, v] of flatten(old, op.path)) out.push(only('-', fieldName(p), show(v, p, c.sensitive)));
      for (const [p, v] of flatten(op.value, op.path)) out.push(only('+', fieldName(p), show(v, p, c.sensitive)));
    } else if (op.op === 'remove') {
      for (const [p, v] of flatten(old, op.path)) out.push(only('-', fieldName(p), show(v, p, c.sensitive)));
    } else out.push(changed(name, show(old, op.path, c.sensitive), show(op.value, op.path, c.sensitive)));
  }
  return out;
}

/** The header verb: imports and moves say so. */
function verb(c: Change): string {
  if (c.importedId && c.action === 'update') return 'will be imported and updated in place';
  if (c.importedId && c.action === 'replace') return 'will be imported and must be replaced';
  return VERB[c.action];
}

/** The header verb of a drift entry (live seen from the code), its symbol and colour. */
const DRIFT_VERB: Record<Drift['difference'], string> = {
  changed: 'has changed outside dqform',
  absent: 'is absent live',
  undeclared: 'exists live but is not declared in the code',
};
const DRIFT_SYMBOL: Record<Drift['difference'], string> = { changed: '~', absent: '-', undeclared: '+' };
const DRIFT_COLOR: Record<Drift['difference'], number> = { changed: 33, absent: 31, undeclared: 32 };

/** What dqform plan and apply would do about a live difference (a drift entry), the same for `drift` and `plan --refresh-only`. */
const DRIFT_REMEDY: Record<Drift['remedy'], string> = {
  replace: 'replace it (destroy it, then create it from the code)',
  update: "update it in place to the code's values",
  create: 'create it from the code',
  delete: 'delete it (this namespace owns it and the code no longer declares it)',
};

/** A drift entry's changed fields, each with the code's value and live's. */
function driftFieldLines(d: Drift): string[] {
  return patchLines({ patch: d.patch, before: d.code, after: d.live, sensitive: d.sensitive }, true);
}

/**
 * A live difference in one table cell (the markdown plan's table form): the changed fields,
 * labelled as the diff blocks label them (code's value, live's value), then what dqform plan and
 * apply would do, which is never clipped away.
 */
function driftCell(d: Drift): string {
  const fields = d.difference === 'changed' ? driftFieldLines(d).map((l) => l.replace(/^[~+-] /, '')) : [];
  return `${fields.length ? `${clip(fields.join('; '), 160)}; ` : ''}dqform plan and apply would ${DRIFT_REMEDY[d.remedy]}`;
}

/** `dq_alert.orders (alert "Orders")`: the address and, when it has one, the object's name. */
function title(c: Pick<Change, 'address' | 'name'>): string {
  return inertText(c.name ? `${c.address} (${c.name})` : c.address);
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
  if (e.afterApply) out.push(`effects known after apply: ${e.afterApply}; apply previews it then and stops before writing it if it would delete, reset or take over anything`);
  if (e.monitorsToCreate.length) out.push(`monitors to create: ${e.monitorsToCreate.length} (${preview(e.monitorsToCreate)})`);
  if (e.monitorsToDelete.length) out.push(`! monitors to delete: ${e.monitorsToDelete.length} (${preview(e.monitorsToDelete)})`);
  if (e.activeMonitors) out.push(`monitors kept active: ${e.activeMonitors}`);
  for (const s of e.settingsChanges.slice(0, 10)) {
    const what = s.custom ? `custom monitor settings on ${s.assetPath}${s.freshnessField ? ` (freshness field ${s.freshnessField})` : ''}` : `monitor settings on ${s.assetPath}`;
    out.push(`${what}: ${s.from} -> ${s.to}`);
  }
  if (e.settingsChanges.length > 10) out.push(`... and ${e.settingsChanges.length - 10} more settings changes`);
  if (e.baselineResets.length) out.push(`! baseline reset on ${e.baselineResets.length} monitor(s): ${preview(e.baselineResets.map((b) => `${b.assetPath} (${b.reason})`))}`);
  if (e.skipped.length) out.push(`skipped assets: ${e.skipped.length} (${preview(e.skipped.map((s) => `${s.assetPath}: ${s.reason}`))})`);
  if (e.testsToCreate.length) out.push(`SQL tests to create: ${e.testsToCreate.length} (${preview(e.testsToCreate)})`);
  if (e.testsToUpdate.length) out.push(`SQL tests to update: ${e.testsToUpdate.length} (${preview(e.testsToUpdate)})`);
  if (e.testsToDelete.length) out.push(`! SQL tests to delete: ${e.testsToDelete.length} (${preview(e.testsToDelete)})`);
  if (e.testsToKeep.length) out.push(`SQL tests kept: ${e.testsToKeep.length}`);
  if (e.losesHistory) out.push('! deleting this rule deletes the history of every test it deployed');
  out.push(...cascadeLines(e.cascade));
  if (e.source === 'categorisation-preview') return [...out, ...categorisationLines(e)];
  // a rule previewed, and nothing happens downstream: say so (an empty space would read like "not asked")
  if (out.length === 0 && e.source !== 'cascade') out.push('no downstream effects: the platform lists no monitor or SQL test created, changed or deleted');
  return out;
}

/** A categorisation rule's preview: `checks categorised: 2 (of 3 matched); category changes: 1 (Amounts positive: none -> Validity)`. */
function categorisationLines(e: Effects): string[] {
  if (e.error !== undefined || e.afterApply !== undefined || e.categoryChangeCount === undefined) return [];
  const cat = (c: string) => (c === '' ? 'none' : c);
  const n = e.categoryChangeCount;
  const shown = (e.categoryChanges ?? []).map((c) => (e.checksMatched === undefined ? `${c.check}: ${cat(c.from)}` : `${c.check}: ${cat(c.from)} -> ${cat(c.to)}`));
  const examples = shown.length ? ` (${shown.join(', ')}${n > shown.length ? ', ...' : ''})` : '';
  // a delete: the checks whose category came from the rule (they fall back to the next rule, or none)
  if (e.checksMatched === undefined) return [n ? `checks losing this rule's category: ${n}${examples}` : 'no check has its category from this rule'];
  return [`checks categorised: ${e.checksCategorised ?? 0} (of ${e.checksMatched} matched); category changes: ${n}${examples}`];
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
  return lines.map(inertText);
}

function preview(list: readonly string[], n = 3): string {
  return list.length <= n ? list.join(', ') : `${list.slice(0, n).join(', ')}, ...`;
}

/** Does the plan write anything? (Refresh-only plans never do.) */
const writes = (plan: Plan) => plan.changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged' && c.action !== 'forget');

/**
 * Terraform's summary line: `Plan: 1 to import, 2 to add, 0 to change, 1 to destroy.` A replace
 * counts as one to add and one to destroy, as Terraform counts it; "to import" shows only when
 * there are imports. A refresh-only plan says how many objects differ from the code instead.
 */
export function summaryLine(plan: Plan): string {
  if (plan.options.refreshOnly) return refreshOnlyLine(plan);
  const s = plan.summary;
  return `Plan: ${s.import ? `${s.import} to import, ` : ''}${s.add + s.replace} to add, ${s.change} to change, ${s.destroy + s.replace} to destroy.`;
}

/** `Refresh-only: 3 object(s) differ from the code (1 changed outside dqform, ...). Nothing to apply.` */
function refreshOnlyLine(plan: Plan): string {
  const n = (d: Drift['difference']) => plan.drift.filter((c) => c.difference === d).length;
  if (plan.drift.length === 0) return 'Refresh-only: live state matches the code. Nothing to apply.';
  const parts = [
    n('changed') ? `${n('changed')} changed outside dqform` : '',
    n('absent') ? `${n('absent')} absent live` : '',
    n('undeclared') ? `${n('undeclared')} live but not declared` : '',
  ].filter(Boolean);
  return `Refresh-only: ${plan.drift.length} object(s) differ from the code (${parts.join(', ')}). Nothing to apply.`;
}

/**
 * What the platform does downstream of the plan's writes (the line under the summary line): what
 * it deletes (monitors and SQL tests of rule changes, objects deleted with an object the plan
 * deletes: what `--max-effect-deletes` counts, engine/guards), what it creates, and how many
 * changes have no preview. Undefined when there is nothing to say.
 */
export function effectsLine(plan: Plan): string | undefined {
  let monitorsNew = 0;
  let testsNew = 0;
  for (const c of writes(plan)) {
    monitorsNew += c.effects?.monitorsToCreate.length ?? 0;
    testsNew += c.effects?.testsToCreate.length ?? 0;
  }
  const gone = effectDeleteCounts(plan);
  const made = [monitorsNew ? `${monitorsNew} monitor(s)` : '', testsNew ? `${testsNew} SQL test(s)` : ''].filter(Boolean);
  const unknown = unpreviewedChanges(plan).length;
  const later = writes(plan).filter((c) => c.effects?.afterApply !== undefined).length;
  const recategorised = writes(plan).reduce((n, c) => n + (c.effects?.categoryChangeCount ?? 0), 0);
  const out = [
    gone.total ? `The platform also deletes ${effectDeletesText(gone)}.` : '',
    made.length ? `${gone.total ? 'It' : 'The platform'} also creates ${andList(made)}.` : '',
    recategorised ? `Categorisation rules change the category of ${recategorised} check(s).` : '',
    unknown ? `Effects unknown for ${unknown} change(s).` : '',
    later ? `Effects known after apply for ${later} change(s).` : '',
  ].filter(Boolean);
  return out.length ? out.join(' ') : undefined;
}

function andList(parts: readonly string[]): string {
  return parts.length === 1 ? parts[0] : `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** What apply's guards (engine/guards: --max-deletes, --max-effect-deletes, unpreviewed changes) refuse with their defaults, one line each. */
export function guardLines(plan: Plan): string[] {
  return guardRefusals(plan).map((r) => inertText(`Note: apply refuses this plan as it is: ${refusalHead(r.message)}. ${r.hint}`));
}

/** A guard's refusal without its list of addresses: the text before the first `: ` outside parentheses. */
function refusalHead(message: string): string {
  let depth = 0;
  for (let i = 0; i < message.length; i++) {
    const ch = message[i];
    if (ch === '(') depth++;
    else if (ch === ')') depth = Math.max(0, depth - 1);
    else if (ch === ':' && message[i + 1] === ' ' && depth === 0) return message.slice(0, i);
  }
  return message;
}

/** The plan's kind and scope, for its first lines: destroy / refresh-only, targets, replacements. */
function headerLines(plan: Plan): string[] {
  const o = plan.options;
  const kind = o.destroy ? 'destroy plan' : o.refreshOnly ? 'refresh-only plan' : 'plan';
  const lines = [`dqform ${kind} for namespace "${plan.namespace}" in workspace "${plan.workspace}"${plan.platform ? ` on ${plan.platform}` : ''} (stack ${plan.stack})`];
  const one = o.targets.length === 1;
  if (o.targets.length) lines.push(`Targeted (partial plan): ${o.targets.join(', ')}, with ${o.destroy ? `what depends on ${one ? 'it' : 'them'}` : `what ${one ? 'it depends' : 'they depend'} on`}`);
  if (o.replace.length) lines.push(`Replacement requested: ${o.replace.join(', ')}`);
  return lines;
}

/** Not-managed objects, split into those that concern this stack (always listed) and the others (counted unless shown). */
function unmanagedParts(plan: Plan, show: boolean): { listed: Change[]; others: Change[]; groups: string } {
  const all = plan.changes.filter((c) => c.action === 'unmanaged' || c.action === 'forget');
  // a `removed` block's object (a forget) and objects this version cannot model concern this stack
  const concerns = (c: Change) => c.action === 'forget' || !c.address.includes('[') || hasReason(c, 'unmanageable');
  const listed = show ? all : all.filter(concerns);
  const others = show ? [] : all.filter((c) => !concerns(c));
  const counts = new Map<string, number>();
  for (const c of others) counts.set(reasonsText(c).join('; '), (counts.get(reasonsText(c).join('; ')) ?? 0) + 1);
  const groups = [...counts.entries()]
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : a > b ? 1 : 0))
    .map(([r, n]) => `${n} ${r}`)
    .join(', ');
  return { listed, others, groups };
}

/**
 * The field lines inside an entry's braces: every field of `whole.value` with its sign (an object
 * created or deleted, or live only or code only), else the `patch` lines ("(no field changes)" when
 * there are none). Field names are keys of the config and values are JSON: both inert (JSON leaves
 * bidi and C1 characters raw).
 */
function fieldBlock(opts: RenderOptions, sensitive: readonly string[], whole: { sign: '+' | '-'; value: unknown } | undefined, patch: () => string[]): string[] {
  if (whole) return flatten(whole.value).map(([p, v]) => paintField(opts.color, inertText(`      ${whole.sign} ${fieldName(p)} = ${show(v, p, sensitive)}`)));
  const fields = patch();
  return [...(fields.length === 0 ? [paint(opts.color, DIM, '      (no field changes)')] : []), ...fields.map((l) => paintField(opts.color, inertText(`      ${l}`)))];
}

/** The lines of one change (header, reasons, fields, effects), as the text plan prints them. */
function changeLines(c: Change, opts: RenderOptions): string[] {
  const lines: string[] = [];
  const sym = SYMBOL[c.action];
  lines.push(paint(opts.color, COLOR[c.action], `  # ${title(c)} ${verb(c)}`));
  for (const r of reasonsText(c)) lines.push(paint(opts.color, DIM, inertText(`  #   (${r})`)));
  lines.push(paint(opts.color, COLOR[c.action], `  ${sym} ${inertText(c.type)} ${inertText(JSON.stringify(c.id))} {`));
  const whole = c.action === 'create' ? { sign: '+' as const, value: c.after } : c.action === 'delete' ? { sign: '-' as const, value: c.before } : undefined;
  lines.push(...fieldBlock(opts, c.sensitive, whole, () => patchLines(c)), '    }');
  if (c.effects) for (const l of effectLines(c.effects)) lines.push(inertText(`    ${l}`));
  return lines;
}

/** The lines of one drift entry (header, reasons, fields: the code's value and live's, what plan and apply would do). */
function driftLines(d: Drift, opts: RenderOptions): string[] {
  const color = DRIFT_COLOR[d.difference];
  const lines: string[] = [paint(opts.color, color, `  # ${title(d)} ${DRIFT_VERB[d.difference]}`)];
  for (const r of reasonsText(d)) lines.push(paint(opts.color, DIM, inertText(`  #   (${r})`)));
  lines.push(paint(opts.color, color, `  ${DRIFT_SYMBOL[d.difference]} ${inertText(d.type)} ${inertText(JSON.stringify(d.id))} {`));
  const whole = d.difference === 'undeclared' ? { sign: '+' as const, value: d.live } : d.difference === 'absent' ? { sign: '-' as const, value: d.code } : undefined;
  lines.push(...fieldBlock(opts, d.sensitive, whole, () => driftFieldLines(d)), '    }', inertText(`    dqform plan and apply would ${DRIFT_REMEDY[d.remedy]}`));
  return lines;
}

/** The text plan, as a terminal shows it. */
export function renderText(plan: Plan, opts: RenderOptions = {}): string {
  const lines: string[] = [...headerLines(plan).map(inertText), ''];
  for (const d of plan.diagnostics) lines.push(...diagnosticLines(d));
  if (plan.diagnostics.length) lines.push('');
  const failed = plan.diagnostics.some((d) => d.severity === 'error');
  // nothing to do: "No changes." comes last, after what informs (moves, objects not managed
  // here), and no zero summary line follows it (Terraform's "No changes." is its last word too)
  let noChanges: string | undefined;
  if (plan.options.refreshOnly) {
    if (plan.drift.length === 0) noChanges = 'No changes. Live state matches the code.';
    else lines.push(...refreshOnlyBody(plan, opts));
  } else {
    const ws = writes(plan);
    if (ws.length === 0 && !failed) {
      noChanges = plan.options.destroy ? inertText(`No changes. Namespace "${plan.namespace}" owns nothing to destroy.`) : 'No changes. Live state matches the code.';
    }
    for (const c of ws) lines.push(...changeLines(c, opts), '');
    const moved = plan.changes.filter((c) => c.action === 'noop' && c.movedFrom);
    for (const c of moved) lines.push(paint(opts.color, DIM, inertText(`  # ${c.movedFrom} has moved to ${c.address} (no changes; it keeps its id ${JSON.stringify(c.id)})`)));
    if (moved.length) lines.push('');
  }
  lines.push(...unmanagedText(plan, !!opts.showUnmanaged, opts.color));
  lines.push(noChanges ?? summaryLine(plan));
  const effects = plan.options.refreshOnly ? undefined : effectsLine(plan);
  if (effects) lines.push(effects);
  lines.push(...guardLines(plan));
  return `${lines.join('\n')}\n`;
}

/** How drift entries read (the same for `drift` and `plan --refresh-only`). */
const DRIFT_INTRO = [
  'Objects differ from the code. dqform keeps no state file, so "changed outside dqform" means that live',
  "state differs from what the code declares; each field line gives the code's value and live's value.",
  '',
];

/** The entries of live differences, one block each (drift entries: `before` is the code, `after` live). */
function driftEntryLines(drift: readonly Drift[], opts: RenderOptions): string[] {
  const lines: string[] = [];
  for (const d of drift) lines.push(...driftLines(d, opts), '');
  return lines;
}

/**
 * `dqform drift`: how live state differs from the code, in the same entries as a refresh-only
 * plan (`drift`: the plan's changes seen from live, engine/modes asRefreshOnly), each saying what
 * dqform plan and apply would do about it.
 */
export function renderDrift(plan: Plan, drift: readonly Drift[], opts: RenderOptions = {}): string {
  // names the platform it read, as the plan header does (headerLines)
  const lines: string[] = [`dqform drift for namespace "${plan.namespace}" in workspace "${plan.workspace}"${plan.platform ? ` on ${plan.platform}` : ''} (stack ${plan.stack})`, ''];
  for (const d of plan.diagnostics) lines.push(...diagnosticLines(d));
  if (plan.diagnostics.length) lines.push('');
  lines.push(...DRIFT_INTRO, ...driftEntryLines(drift, opts));
  lines.push(...unmanagedText(plan, !!opts.showUnmanaged, opts.color));
  lines.push(`${drift.length} object(s) differ from the code. ${summaryLine(plan)}`);
  return `${lines.join('\n')}\n`;
}

/** The drift of a refresh-only plan, with what it means and what to do. */
function refreshOnlyBody(plan: Plan, opts: RenderOptions): string[] {
  const lines = [...DRIFT_INTRO];
  lines.push(...driftEntryLines(plan.drift, opts));
  lines.push(
    'This is a refresh-only plan: dqform proposes no changes, and apply writes nothing for it (there is no state',
    'file to record these differences in). To make live match the code, run dqform plan and apply; to make the',
    inertText(`code match live, change the code (dqform import --namespace ${plan.namespace} writes code from live).`),
    '',
  );
  return lines;
}

/** The "Not managed here" lines: this stack's own entries, then a count of the others by who manages them. */
function unmanagedText(plan: Plan, show: boolean, color?: boolean): string[] {
  const { listed, others, groups } = unmanagedParts(plan, show);
  const total = listed.length + others.length;
  if (total === 0) return [];
  const hint = '--show-unmanaged lists them';
  if (listed.length === 0) return [inertText(`Not managed here (${total}, never changed by this stack): ${groups}; ${hint}.`), ''];
  const lines = [`Not managed here (${total}, never changed by this stack):`];
  // a forget (a removed block with destroy = false) changes what this stack manages: cyan, as a replace
  for (const c of listed) lines.push(paint(color && c.action === 'forget', COLOR.forget, `  ? ${title(c)}: ${inertText(reasonsText(c).join('; '))}`));
  if (others.length) lines.push(inertText(`  and ${others.length} more: ${groups}; ${hint}.`));
  lines.push('');
  return lines;
}

/** GitHub's comment limit is 65,536 characters; stay well below it. */
export const MARKDOWN_LIMIT = 60000;

/**
 * A change's text lines as a ```diff block shows them: the markers `+`, `-` and `!` in column 0,
 * which GitHub colours (green, red, orange); an update's `~` (which GitHub does not colour)
 * becomes `!`, and so do the `!` effect lines (deletions downstream, baseline resets).
 */
function diffLines(text: readonly string[]): string[] {
  return text.map((l) =>
    l
      .replace(/^ {2}(-\/\+|[+-]) /, '$1 ')
      .replace(/^ {2}~ /, '! ')
      .replace(/^ {6}([+-]) /, '$1     ')
      .replace(/^ {6}~ /, '!     ')
      .replace(/^ {4}! /, '!   '),
  );
}

/** A change or a drift entry as the markdown plan shows it: its diff lines, and its table row's action and last cell. */
interface MarkdownEntry {
  address: string;
  name?: string;
  type: string;
  what: string;
  lines(): string[];
  cell(): string;
}

const changeEntry = (c: Change): MarkdownEntry => ({
  address: c.address,
  name: c.name,
  type: c.type,
  what: c.action,
  lines: () => changeLines(c, {}),
  cell: () => (c.effects ? escapeMd(effectLines(c.effects).join('; ').slice(0, 200)) : ''),
});

const driftEntry = (d: Drift): MarkdownEntry => ({ address: d.address, name: d.name, type: d.type, what: DRIFT_VERB[d.difference], lines: () => driftLines(d, {}), cell: () => escapeMd(driftCell(d)) });

/**
 * The markdown plan for a pull-request comment: the head (summary, effects, warnings), then one
 * collapsed ```diff block per resource type. When that exceeds `limit`, the kinds whose blocks
 * fit (in type order) keep them and the others become one table row per change; past the limit
 * even so, the rows are cut with a count.
 */
export function renderMarkdown(plan: Plan, opts: { limit?: number; showUnmanaged?: boolean } = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const head = `${markdownHead(plan).join('\n')}\n`;
  const drift = plan.options.refreshOnly;
  const ws: MarkdownEntry[] = drift ? plan.drift.map(driftEntry) : writes(plan).map(changeEntry);
  const intro: string[] = [];
  if (ws.length === 0) intro.push(plan.options.destroy ? `No changes. Namespace ${mdCode(plan.namespace)} owns nothing to destroy.` : 'No changes. Live state matches the code.', '');
  else if (drift) intro.push('Objects differ from the code (dqform keeps no state: "changed outside dqform" means live differs from the code; each field line gives the code\'s value and live\'s value). Nothing is proposed, and apply writes nothing for this plan.', '');
  const moved = plan.changes.filter((c) => c.action === 'noop' && c.movedFrom);
  if (moved.length && !drift) intro.push(...moved.map((c) => `- moved without changes: ${mdCode(c.movedFrom ?? '')} -> ${mdCode(c.address)}`), '');
  const kinds = [...new Set(ws.map((c) => c.type))].sort().map((type) => {
    const cs = ws.filter((c) => c.type === type);
    const diff = cs.flatMap((c) => diffLines(c.lines()));
    const fence = mdFence(diff.join('\n'));
    const block = [`<details><summary><code>${htmlText(type)}</code>: ${cs.length} ${drift ? 'difference(s)' : 'change(s)'}</summary>`, '', `${fence}diff`, ...diff, fence, '', '</details>', ''].join('\n');
    const rows = cs.map((c) => {
      const last = c.cell();
      return `| ${mdCode(clip(c.address), { table: true })} | ${escapeMd(clip(c.name ?? ''))} | ${c.what} |${last ? ` ${last}` : ''} |\n`;
    });
    return { block: `${block}\n`, rows };
  });
  const unmanaged = unmanagedMarkdown(plan, !!opts.showUnmanaged, Math.floor(limit / 4)).join('\n');
  const tail = `${unmanaged}${unmanaged ? '\n' : ''}${summaryLine(plan)}\n`;
  const start = `${head}${intro.join('\n')}${intro.length ? '\n' : ''}`;
  const whole = `${start}${kinds.map((k) => k.block).join('')}${tail}`;
  if (whole.length <= limit) return whole;
  // too large: keep the blocks that fit, in type order; the other kinds as table rows
  const one = drift ? 'one difference per row' : 'one change per row';
  const note = (some: boolean) => `_The full plan is too large for a comment${some ? `: the kinds whose diffs do not fit are listed ${one}` : `; this is a summary, ${one}`}. Run \`dqform plan\` (or \`dqform show\` on the saved plan) for every field._\n\n`;
  const NOTE = note(true);
  const TABLE = drift ? '| address | name | difference | fields (code, live); what dqform plan and apply would do |\n|---|---|---|---|\n' : '| address | name | action | effects |\n|---|---|---|---|\n';
  const rowsLength = (ks: typeof kinds) => ks.reduce((n, k) => n + k.rows.reduce((m, r) => m + r.length, 0), 0);
  const blocks: string[] = [];
  let tabled = [...kinds];
  let size = start.length + NOTE.length + TABLE.length + rowsLength(kinds) + tail.length;
  for (const k of kinds) {
    const grown = size + k.block.length - rowsLength([k]);
    if (grown > limit) continue;
    blocks.push(k.block);
    tabled = tabled.filter((t) => t !== k);
    size = grown;
  }
  let table = '';
  const rows = tabled.flatMap((k) => k.rows);
  let shown = 0;
  const room = limit - (start.length + NOTE.length + blocks.join('').length + TABLE.length + tail.length + 100);
  for (const r of rows) {
    if (table.length + r.length > room) break;
    table += r;
    shown++;
  }
  const more = shown < rows.length ? `\n_...and ${rows.length - shown} more ${drift ? 'difference(s)' : 'change(s)'}, see the full plan._\n` : '';
  // the head and tail are bounded (markdownHead, unmanagedMarkdown); fitMarkdown is the last guard
  return fitMarkdown(`${start}${note(blocks.length > 0)}${blocks.join('')}${rows.length ? `${TABLE}${table}${more}\n` : ''}${tail}`, limit, plan);
}

/**
 * The last guard of the markdown size promise: a plan whose head alone (errors, notes and
 * warnings are already capped, values clipped) still exceeds `limit` is cut at a line, its open
 * fence and `<details>` closed, with a visible line saying how much is left out.
 */
function fitMarkdown(md: string, limit: number, plan: Plan): string {
  if (md.length <= limit) return md;
  const lines = md.split('\n');
  const footer = (n: number) => `\n_... ${n} more line(s) cut to fit a comment, see the full plan: run \`dqform plan\` (or \`dqform show\` on the saved plan)._\n\n${summaryLine(plan)}\n`;
  const room = limit - footer(lines.length).length - 64; // 64: the closing fence and tags
  const out: string[] = [];
  let size = 0;
  let fence: string | undefined;
  let open = 0;
  for (const l of lines) {
    if (size + l.length + 1 > room) break;
    out.push(l);
    size += l.length + 1;
    const f = /^ {0,3}(`{3,})/.exec(l)?.[1];
    if (fence) {
      if (f && f.length >= fence.length && l.trim() === f) fence = undefined;
    } else if (f) fence = f;
    else if (l.startsWith('<details>')) open++;
    else if (l.startsWith('</details>')) open = Math.max(0, open - 1);
  }
  if (fence) out.push(fence);
  for (let i = 0; i < open; i++) out.push('', '</details>');
  return `${out.join('\n')}\n${footer(lines.length - out.length)}`;
}

/** Destructive changes named one by one at the top of the markdown plan; the rest are counted. */
const WARNING_LINES = 20;

/**
 * The top of the markdown plan, what a reviewer must see first: the summary line and the
 * effects line; errors; apply's guard and every destructive change (by name); notes.
 */
function markdownHead(plan: Plan): string[] {
  const s = plan.summary;
  const kind = plan.options.destroy ? 'destroy plan' : plan.options.refreshOnly ? 'refresh-only plan' : 'plan';
  const head: string[] = [`### dqform ${kind}: ${mdCode(plan.namespace)} in ${mdCode(plan.workspace)}${plan.platform ? ` on ${mdCode(plan.platform)}` : ''}`, ''];
  const scope = headerLines(plan).slice(1);
  const counts = [s.replace ? `${s.replace} replaced (counted in add and destroy)` : '', `${s.unchanged} unchanged`, s.unmanaged ? `${s.unmanaged} not managed here` : ''].filter(Boolean).join(', ');
  head.push(`**${summaryLine(plan)}** ${counts}.`);
  const effects = plan.options.refreshOnly ? undefined : effectsLine(plan);
  if (effects) head.push(escapeMd(effects));
  for (const l of scope) head.push(`${escapeMd(clip(l, 2000))}.`);
  head.push('');
  const errors = plan.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) {
    head.push(`> [!CAUTION]\n> ${errors.length} error(s): this plan cannot be applied.`);
    for (const d of errors.slice(0, WARNING_LINES)) head.push(`> - ${mdCode(clip(d.address ?? plan.stack))}: ${escapeMd(clip(d.summary))}`);
    if (errors.length > WARNING_LINES) head.push(`> - ... ${errors.length - WARNING_LINES} more error(s), see the full plan (\`dqform plan\` prints them all)`);
    head.push('');
  }
  const refusals = guardRefusals(plan);
  const warnings = plan.options.refreshOnly ? [] : writes(plan).map((c) => ({ c, facts: destructiveFacts(c) })).filter((w) => w.facts.length);
  if (warnings.length || refusals.length) {
    head.push('> [!WARNING]');
    for (const r of refusals) head.push(`> **Apply refuses this plan as it is**: ${escapeMd(clip(refusalHead(r.message)))}. ${escapeMd(clip(r.hint))}`, '>');
    for (const { c, facts } of warnings.slice(0, WARNING_LINES)) head.push(`> - ${mdCode(clip(c.address))}${c.name ? ` (${escapeMd(clip(c.name))})` : ''} ${facts.join('; ')}`);
    if (warnings.length > WARNING_LINES) head.push(`> - and ${warnings.length - WARNING_LINES} more destructive change(s), listed below`);
    head.push('');
  }
  const notes = plan.diagnostics.filter((d) => d.severity !== 'error');
  if (notes.length) {
    head.push('> [!NOTE]');
    for (const d of notes.slice(0, WARNING_LINES)) head.push(`> - ${SEVERITY_WORD[d.severity]}: ${d.address ? `${mdCode(clip(d.address))}: ` : ''}${escapeMd(clip(d.summary))}`);
    if (notes.length > WARNING_LINES) head.push(`> - ... ${notes.length - WARNING_LINES} more note(s), see the full plan (\`dqform plan\` prints them all)`);
    head.push('');
  }
  return head;
}

/**
 * What a change destroys, for the markdown warning: the object itself (delete, replace), what
 * goes with it (cascade), monitors and SQL tests its rule change deletes, baselines it resets,
 * test history it deletes. Empty for a change that destroys nothing.
 */
function destructiveFacts(c: Change): string[] {
  const facts: string[] = [];
  const e = c.effects;
  if (c.action === 'delete' || c.action === 'replace') {
    const gone = e?.cascade.filter((x) => x.effect === 'deleted') ?? [];
    const others = gone.filter((x) => !x.alsoDeleted).length;
    facts.push(`${verb(c)}${gone.length ? `, and with it ${gone.length} ${gone.length === 1 ? 'object' : 'objects'}${others ? ` (${others} not deleted by this plan)` : ''}` : ''}`);
  }
  if (!e) return facts;
  const deletes = [e.monitorsToDelete.length ? `${e.monitorsToDelete.length} monitor(s)` : '', e.testsToDelete.length ? `${e.testsToDelete.length} SQL test(s)` : '', e.losesHistory ? 'the history of every SQL test it deployed' : ''].filter(Boolean);
  if (deletes.length) facts.push(`deletes ${andList(deletes)}`);
  if (e.baselineResets.length) facts.push(`resets the learned baseline of ${e.baselineResets.length} monitor(s)`);
  return facts;
}

/**
 * The markdown "Not managed here": this stack's own entries, and a count of the others (or all
 * of them, when shown), within `budget` characters: entries past it are counted on a "... N
 * more" line.
 */
function unmanagedMarkdown(plan: Plan, show: boolean, budget: number): string[] {
  const { listed, others, groups } = unmanagedParts(plan, show);
  const total = listed.length + others.length;
  if (total === 0) return [];
  const item = (c: Change) => `- ${mdCode(clip(c.address))}${c.name ? ` (${escapeMd(clip(c.name))})` : ''}: ${escapeMd(clip(reasonsText(c).join('; ')))}`;
  const counted = escapeMd(clip(groups, 2000));
  if (listed.length === 0) return [`Not managed here (${total}, never changed by this stack): ${counted}; \`--show-unmanaged\` lists them.`, ''];
  const lines = [`<details><summary>Not managed here (${total}, never changed by this stack)</summary>`, ''];
  // what is left once the header, the two "more" lines and the closing tag are counted
  let room = budget - lines[0].length - counted.length - 400;
  let shown = 0;
  for (const c of listed) {
    const l = item(c);
    if (l.length + 1 > room) break;
    lines.push(l);
    room -= l.length + 1;
    shown++;
  }
  if (shown < listed.length) lines.push(`- ... ${listed.length - shown} more, see the full plan (\`dqform plan --show-unmanaged\`, or \`dqform show\` on the saved plan)`);
  if (others.length) lines.push(`- and ${others.length} more: ${counted}; \`--show-unmanaged\` lists them.`);
  lines.push('', '</details>', '');
  return lines;
}

/** A value clipped to `n` characters (with an ellipsis), so that one name cannot fill a comment. */
function clip(s: string, n = 300): string {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

/** User or server text as inert markdown (schemas/tools/inert), safe in a table cell too. */
function escapeMd(s: string): string {
  return mdText(s, { table: true });
}
