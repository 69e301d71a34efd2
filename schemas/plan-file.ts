/**
 * The plan file (`dqform plan --out FILE`, read by `dqform apply FILE` and `dqform show FILE`): a
 * versioned format of its own, apart from the in-memory model (`Plan`, schemas/plan.ts) and the
 * public JSON (`PlanJson`, schemas/plan-json.ts), like Terraform's plans/planfile. Read and
 * written only by src/plan/file.ts. Today the file is the model with its format header
 * (`formatVersion`, {@link PLAN_FORMAT_VERSION}); a change to the file bumps the version, and
 * a file of another version is refused ("plan again").
 */
import { z } from 'zod';
import { Plan, PLAN_FORMAT_VERSION } from './plan';

export { PLAN_FORMAT_VERSION };

export const PlanFile = Plan.extend({ formatVersion: z.literal(PLAN_FORMAT_VERSION) });
export type PlanFile = z.infer<typeof PlanFile>;
