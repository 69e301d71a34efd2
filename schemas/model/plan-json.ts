/**
 * The public JSON plan (`dqform plan --json`, `dqform show --json`, `dqform drift --json`): what
 * other programs read, apart from the in-memory model (`Plan`, schemas/model/plan.ts) and the plan
 * file (`PlanFile`, schemas/model/plan-file.ts), like Terraform's command/jsonplan. Made only by
 * src/plan/json.ts: the model with the format version and each reason's prose beside its code.
 */
import { z } from 'zod';
import { Change, Drift, Plan, PLAN_FORMAT_VERSION } from './plan';

/** The reasons' prose: `reasons[i]` is the prose of `reasonCodes[i]`; `reasonCodes` lists the typed reasons only (a hand-written plan's prose has none). */
const prose = { reasons: z.array(z.string()).default([]) };

export const JsonChange = Change.extend(prose);
export type JsonChange = z.infer<typeof JsonChange>;
export const JsonDrift = Drift.extend(prose);
export type JsonDrift = z.infer<typeof JsonDrift>;

export const PlanJson = Plan.extend({
  /** The plan format the JSON describes (the plan file's version). */
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  changes: z.array(JsonChange),
  drift: z.array(JsonDrift).default([]),
});
export type PlanJson = z.infer<typeof PlanJson>;
