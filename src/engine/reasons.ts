/**
 * The planner's typed reasons ({@link Reason}): the phases record codes with their data on a
 * change; the words are made by the views (src/plan/reasons-text.ts), never here.
 */
import type { Change, Reason } from '../../schemas/model/plan';

/** A change's `reasonCodes` for these reasons (no `reasonCodes` key when there are none). */
export function because(...rs: Reason[]): Pick<Change, 'reasonCodes'> {
  return rs.length ? { reasonCodes: rs } : {};
}

/** Adds reasons to a change. */
export function addReasons(c: Pick<Change, 'reasonCodes'>, ...rs: Reason[]): void {
  if (rs.length === 0) return;
  c.reasonCodes = [...(c.reasonCodes ?? []), ...rs];
}

/** Whether a change has a reason of this code. */
export function hasReason(c: Pick<Change, 'reasonCodes'>, code: Reason['code']): boolean {
  return (c.reasonCodes ?? []).some((r) => r.code === code);
}
