/**
 * The plan file (`dqform plan --out FILE`, read by `dqform apply FILE` and `dqform show FILE`): a
 * versioned format of its own, apart from the in-memory model (`Plan`, schemas/model/plan.ts) and the
 * public JSON (`PlanJson`, schemas/model/plan-json.ts), like Terraform's plans/planfile. Read and
 * written only by src/plan/file.ts. The file is the model with its format header
 * (`formatVersion`, {@link PLAN_FORMAT_VERSION}) and each reason's prose beside its code; a
 * change to the file bumps the version, and a file of another version is refused ("plan again").
 */
import { z } from 'zod';
import { Change, Drift, Plan, PLAN_FORMAT_VERSION } from './plan';

export { PLAN_FORMAT_VERSION };

/** The reasons' prose, for readers of the file: `reasons[i]` is the prose of `reasonCodes[i]` (a hand-written file may hold prose only). */
const prose = { reasons: z.array(z.string()).default([]) };

export const FileChange = Change.extend(prose);
export type FileChange = z.infer<typeof FileChange>;
export const FileDrift = Drift.extend(prose);
export type FileDrift = z.infer<typeof FileDrift>;

export const PlanFile = Plan.extend({
  formatVersion: z.literal(PLAN_FORMAT_VERSION),
  changes: z.array(FileChange),
  drift: z.array(FileDrift).default([]),
});
export type PlanFile = z.infer<typeof PlanFile>;
