/** A test's changes to one object, built alike (the handler tests of the derived and integration kinds). */
import type { Change } from '../../schemas/model/plan';

/** `(action, after, over)` -> the change at `address` (its type is the address's first part) with id `id`, nothing else set. */
export function changesOf(address: string, id: string) {
  const type = address.slice(0, address.indexOf('.'));
  return (action: Change['action'], after: unknown, over: Partial<Change> = {}): Change =>
    ({ address, type, action, id, before: null, after, patch: [], sensitive: [], dependsOn: [], ...over }) as Change;
}
