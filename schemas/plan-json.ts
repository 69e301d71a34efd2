/**
 * The public JSON plan (`dqform plan --json`, `dqform show --json`, `dqform drift --json`): what
 * other programs read, apart from the in-memory model (`Plan`, schemas/plan.ts) and the plan
 * file (`PlanFile`, schemas/plan-file.ts), like Terraform's command/jsonplan. Made only by
 * src/plan/json.ts. Today it holds what the model holds, the reasons' prose beside their codes.
 */
import { z } from 'zod';
import { Plan } from './plan';

export const PlanJson = Plan.extend({});
export type PlanJson = z.infer<typeof PlanJson>;
