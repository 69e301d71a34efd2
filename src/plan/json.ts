/**
 * The public JSON plan: the one module that makes what `--json` prints for a plan (`plan`,
 * `show`, `drift`), Terraform's command/jsonplan. The model (`Plan`) is converted to the public
 * form (`PlanJson`, schemas/plan-json.ts); other commands that print a plan document call
 * {@link renderPlanJson}.
 */
import type { Plan } from '../../schemas/plan';
import type { PlanJson } from '../../schemas/plan-json';
import { stableStringify } from '../engine/keys';

/** The public form of a plan. */
export function toPlanJson(plan: Plan): PlanJson {
  return { ...plan };
}

/** The JSON plan as printed: stable keys, two-space indent, a final newline. */
export function renderPlanJson(plan: Plan): string {
  return `${stableStringify(toPlanJson(plan), 2)}\n`;
}
