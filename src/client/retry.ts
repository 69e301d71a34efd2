/**
 * Retry policy: exponential backoff with full jitter, honouring `Retry-After` and RetryInfo.
 *
 * Only idempotent calls are retried (GET, PUT, DELETE, and POSTs the caller marks idempotent:
 * batch reads, upserts, deploys). A non-idempotent call (integrations Create) is never retried
 * blindly: a 503 or a dropped connection may have happened after the server acted.
 * Retried: {@link RateLimitedError} (429 / RESOURCE_EXHAUSTED that is not a quota) and
 * {@link UnavailableError} (502, 503, 504, UNAVAILABLE, resets and drops). Nothing else.
 */
import { noteRetry } from './attempts';
import { ApiError, RateLimitedError, UnavailableError } from './errors';

/** Tunables; every duration is multiplied by `scale` (tests use a small scale). */
export interface RetryPolicy {
  /** Total attempts including the first (default 5). */
  maxAttempts: number;
  /** First backoff ceiling (default 250 ms); doubles per attempt. */
  baseDelayMs: number;
  /** Backoff ceiling (default 20 s). */
  maxDelayMs: number;
  /** Give up when the next wait would pass this much time since the first attempt (default 60 s). */
  maxElapsedMs: number;
  /** A server-requested wait longer than this is not honoured: the error is thrown (default 120 s). */
  maxRetryAfterMs: number;
  /** Multiplier applied to every delay, including server-requested ones (default 1). */
  scale: number;
  /** Sleep; injectable for tests. */
  sleep: (ms: number) => Promise<void>;
  /** Uniform random in [0, 1); injectable for tests. */
  random: () => number;
  /** Clock in ms. */
  now: () => number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 20_000,
  maxElapsedMs: 60_000,
  maxRetryAfterMs: 120_000,
  scale: 1,
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
  random: Math.random,
  now: Date.now,
};

/** Merges partial settings over the defaults. */
export function retryPolicy(p: Partial<RetryPolicy> = {}): RetryPolicy {
  return { ...DEFAULT_RETRY_POLICY, ...p };
}

/** True when the error class is one the policy retries. */
export function isRetryable(err: unknown): err is RateLimitedError | UnavailableError {
  return err instanceof ApiError && err.retryable;
}

/**
 * The wait before retry number `attempt` (1 = the first retry), unscaled: the server's
 * Retry-After/RetryInfo when given (never less), else full jitter `random * min(max, base*2^(attempt-1))`.
 */
export function backoffDelay(policy: RetryPolicy, attempt: number, err: unknown): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  const jitter = Math.floor(policy.random() * ceiling);
  const server = err instanceof RateLimitedError || err instanceof UnavailableError ? err.retryAfterMs : undefined;
  return server !== undefined ? Math.max(server, 0) : jitter;
}

/** What {@link withRetry} reports before each wait. */
export interface RetryEvent {
  attempt: number;
  delayMs: number;
  error: ApiError;
}

/**
 * Runs `fn` (given the attempt number, from 1) and retries retryable errors when `idempotent`.
 * Throws the last error when attempts or time run out.
 */
export async function withRetry<T>(
  policy: RetryPolicy,
  idempotent: boolean,
  fn: (attempt: number) => Promise<T>,
  onRetry?: (e: RetryEvent) => void,
): Promise<T> {
  const start = policy.now();
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn(attempt);
    } catch (err) {
      if (!idempotent || !isRetryable(err) || attempt >= policy.maxAttempts) throw err;
      const raw = backoffDelay(policy, attempt, err);
      if (raw > policy.maxRetryAfterMs) throw err;
      const delayMs = Math.round(raw * policy.scale);
      if (policy.now() - start + delayMs > policy.maxElapsedMs * policy.scale) throw err;
      onRetry?.({ attempt, delayMs, error: err });
      noteRetry();
      await policy.sleep(delayMs);
    }
  }
}
