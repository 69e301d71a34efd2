/**
 * Whether a call was retried, for the caller that needs to know: a write that comes back with a
 * surprising answer (a create reported as an update, an etag version that jumped) is either
 * someone else's write or the effect of this client's own retry whose first attempt had landed
 * (upstream facts: "a retried write whose first attempt succeeded can also come back ABORTED").
 * The applier runs each write inside {@link tallyRetries}; {@link withRetry} notes every retry
 * in the tally of the async context it runs in. Calls outside a tally are not counted.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Retries seen while a {@link tallyRetries} callback ran. */
export interface RetryTally {
  retries: number;
}

const current = new AsyncLocalStorage<RetryTally>();

/** Runs `fn`, counting the retries of every call it makes (also in calls it awaits concurrently). */
export async function tallyRetries<T>(fn: () => Promise<T>): Promise<{ value: T; retries: number }> {
  const tally: RetryTally = { retries: 0 };
  const value = await current.run(tally, fn);
  return { value, retries: tally.retries };
}

/** Notes one retry in the current tally, if any (called by withRetry). */
export function noteRetry(): void {
  const t = current.getStore();
  if (t) t.retries++;
}
