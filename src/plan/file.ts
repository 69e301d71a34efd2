/**
 * The plan file: the one module that reads and writes `dqform plan --out FILE` (Terraform's
 * plans/planfile). The model (`Plan`) is converted to the file's format (`PlanFile`,
 * schemas/model/plan-file.ts) on write and back on read; nothing else parses or writes a plan file.
 */
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import type { Change, Drift, Plan, Reason } from '../../schemas/model/plan';
import { PlanFile, PLAN_FORMAT_VERSION, type FileChange, type FileDrift } from '../../schemas/model/plan-file';
import { parseFast } from '../../schemas/tools/lean';
import { PlanRefusedError } from '../engine/applier';
import { stableStringify } from '../engine/keys';
import { selfDisagreements } from '../engine/plan-check';
import { reasonsText } from './reasons-text';

/** The file form of a plan: the model with its format header, each reason's prose beside its code. */
export function toPlanFile(plan: Plan): PlanFile {
  return { ...plan, formatVersion: PLAN_FORMAT_VERSION, changes: plan.changes.map(withProse), drift: plan.drift.map(withProse) };
}

function withProse<T extends Change | Drift>(c: T): T & { reasons: string[] } {
  return { ...c, reasons: reasonsText(c) };
}

/**
 * The model of a plan file that {@link loadPlan} checked, without the format header: the codes,
 * without the prose (made
 * from them again by the views). A hand-written file's prose without codes becomes `text` reasons.
 */
export function fromPlanFile({ formatVersion: _header, ...file }: PlanFile): Plan {
  return { ...file, changes: file.changes.map(codesOnly), drift: file.drift.map(codesOnly) };
}

function codesOnly<T extends FileChange | FileDrift>({ reasons, ...c }: T): Omit<T, 'reasons'> {
  if (c.reasonCodes?.length || reasons.length === 0) return c;
  return { ...c, reasonCodes: reasons.map((text): Reason => ({ code: 'text', text })) };
}

/** The contents of a plan file: stable keys, two-space indent, a final newline. */
export function writePlan(plan: Plan): string {
  return `${stableStringify(toPlanFile(plan), 2)}\n`;
}

/**
 * Parses and checks a plan file's contents: its format version, the plan schema, and resource
 * types dqform knows. A plan of another format version is refused by its version first (a newer
 * dqform wrote it, or an older one whose plans this version no longer reads), so the message
 * says what to do instead of listing schema differences.
 */
export function loadPlan(json: unknown): Plan {
  const version = json && typeof json === 'object' && !Array.isArray(json) ? (json as { formatVersion?: unknown }).formatVersion : undefined;
  if (typeof version === 'number' && version !== PLAN_FORMAT_VERSION) {
    throw new PlanRefusedError(
      version > PLAN_FORMAT_VERSION
        ? `this plan was written by a newer dqform (plan format ${version}); this dqform reads format ${PLAN_FORMAT_VERSION}`
        : `this plan was written by an older dqform (plan format ${version}); this dqform reads format ${PLAN_FORMAT_VERSION}`,
      version > PLAN_FORMAT_VERSION ? 'Use the dqform version that made the plan (or a newer one), or plan again with this one.' : 'Plan again with this dqform version and apply that plan.',
    );
  }
  const r = parseFast(PlanFile, json);
  if (!r.success) {
    throw new PlanRefusedError(
      `not a dqform plan (format ${PLAN_FORMAT_VERSION}): ${r.error.issues.slice(0, 3).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
    );
  }
  const unknown = r.data.changes.map((c, i) => ({ c, i })).filter(({ c }) => !(RESOURCE_TYPES as readonly string[]).includes(c.type));
  if (unknown.length) {
    throw new PlanRefusedError(
      `not a dqform plan: ${unknown
        .slice(0, 3)
        .map(({ c, i }) => `changes.${i} (${c.address}): unknown resource type ${JSON.stringify(c.type)}`)
        .join('; ')}${unknown.length > 3 ? `; and ${unknown.length - 3} more` : ''} (dqform manages ${RESOURCE_TYPES.join(', ')})`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
      unknown.map(({ c }) => c.address),
    );
  }
  // one change per address: a second copy would be rendered for review but hidden from the
  // comparison with a fresh plan (which keys changes by address)
  const seen = new Map<string, number>();
  const dups: string[] = [];
  r.data.changes.forEach((c, i) => {
    const first = seen.get(c.address);
    if (first === undefined) seen.set(c.address, i);
    else dups.push(`changes.${i} (${c.address}) repeats changes.${first}`);
  });
  if (dups.length) {
    throw new PlanRefusedError(
      `not a dqform plan: ${dups.slice(0, 3).join('; ')}${dups.length > 3 ? `; and ${dups.length - 3} more` : ''} (a plan has one change per address)`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
      [...new Set(r.data.changes.filter((c, i) => seen.get(c.address) !== i).map((c) => c.address))],
    );
  }
  // what show prints (patch, summary) must be what the checked fields say: see plan-check.ts
  const disagree = selfDisagreements(r.data);
  if (disagree.length) {
    throw new PlanRefusedError(
      `not a plan dqform wrote: ${disagree.slice(0, 3).join('; ')}${disagree.length > 3 ? `; and ${disagree.length - 3} more` : ''} (what show prints would not be what apply does)`,
      'Create the plan with `dqform plan --out FILE`; do not edit it by hand.',
    );
  }
  return fromPlanFile(r.data);
}
