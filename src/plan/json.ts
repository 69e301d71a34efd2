/**
 * The public JSON plan: the one module that makes what `--json` prints for a plan (`plan`,
 * `show`, `drift`), Terraform's command/jsonplan. The model (`Plan`) is converted to the public
 * form (`PlanJson`, schemas/model/plan-json.ts): each reason's prose beside its code. Other commands
 * that print a plan document call {@link renderPlanJson}.
 */
import { PLAN_FORMAT_VERSION, type Change, type Drift, type Plan } from '../../schemas/model/plan';
import type { PlanJson } from '../../schemas/model/plan-json';
import { stableStringify } from '../engine/keys';
import { reasonsText } from './reasons-text';

/** The public form of a plan. */
export function toPlanJson(plan: Plan): PlanJson {
  return { ...plan, formatVersion: PLAN_FORMAT_VERSION, changes: plan.changes.map(withProse), drift: plan.drift.map(withProse) };
}

/** An entry with its reasons' prose; `reasonCodes` keeps the typed reasons (a hand-written plan's `text` has no code to show). */
function withProse<T extends Change | Drift>(c: T): T & { reasons: string[] } {
  const out = { ...c, reasons: reasonsText(c) };
  if (!c.reasonCodes) return out;
  const typed = c.reasonCodes.filter((r) => r.code !== 'text');
  if (typed.length === 0 && c.reasonCodes.length > 0) delete out.reasonCodes;
  else out.reasonCodes = typed;
  return out;
}

/** Several plans as one JSON array (`--all-stacks --json`, in stack order): stable keys, two-space indent. */
export function renderPlansJson(plans: readonly Plan[]): string {
  return stableStringify(plans.map(toPlanJson), 2);
}

/** The JSON plan as printed: stable keys, two-space indent, a final newline. */
export function renderPlanJson(plan: Plan): string {
  return `${stableStringify(toPlanJson(plan), 2)}\n`;
}
