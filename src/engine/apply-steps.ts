/**
 * The applier's steps (Pulumi's step generator: deciding, apart from doing): one step per change
 * the plan writes, grouped in waves ({@link executionWaves}), each saying how the executor writes
 * it. Pure: everything it needs was read before.
 */
import type { ResourceType } from '../../schemas/model/manifest';
import type { Change, Plan } from '../../schemas/model/plan';
import type { ResourceHandler } from '../kinds/shared/types';
import { allows, SCOPES } from '../kinds/index';
import { ETAGLESS } from '../kinds/descriptors';
import { executionWaves } from './graph';
import { isWrite } from './writes';

export interface Step {
  change: Change;
  /** Written in the kind's batch call: the kind has `writeMany`, the change creates or updates, and the credential may batch. */
  batched: boolean;
  /** A kind without etags: checked again right before its wave writes it, and read back after the wave. */
  recheck: boolean;
  /** Its effects were known only after apply (it depends on a create) and the kind previews: previewed right before the write. */
  previewFirst: boolean;
  /** A create at the id of a soft-deleted object: that object's etag, the create's compare-and-swap guard. */
  tombstone?: string;
}

export interface Steps {
  /** In the plan's order. */
  steps: Step[];
  /** The order of execution: a step depends only on steps of earlier waves. */
  waves: Step[][];
}

export interface StepInputs {
  handlers: Record<ResourceType, Pick<ResourceHandler, 'writeMany' | 'preview'>>;
  /** The credential's scopes. */
  granted: ReadonlySet<string>;
  /** Etags of soft-deleted objects at the addresses the plan creates. */
  tombstones: ReadonlyMap<string, string>;
}

function stepOf(c: Change, { handlers, granted, tombstones }: StepInputs): Step {
  const h = handlers[c.type as ResourceType];
  const batchScopes = SCOPES[c.type as ResourceType]?.batch;
  const tombstone = c.action === 'create' ? tombstones.get(c.address) : undefined;
  return {
    change: c,
    batched: !!h.writeMany && (c.action === 'create' || c.action === 'update') && (!batchScopes || allows(granted, batchScopes)),
    recheck: ETAGLESS.has(c.type),
    previewFirst: c.effects?.afterApply !== undefined && !!h.preview,
    ...(tombstone !== undefined ? { tombstone } : {}),
  };
}

/** The steps of `plan`: one per change it writes. */
export function planSteps(plan: Pick<Plan, 'changes'>, inputs: StepInputs): Steps {
  const of = new Map(plan.changes.filter(isWrite).map((c) => [c, stepOf(c, inputs)]));
  return { steps: [...of.values()], waves: executionWaves(plan.changes).map((w) => w.map((c) => of.get(c)!)) };
}
