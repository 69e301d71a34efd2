/**
 * The retry policy as pure functions of (policy, clock, random, errors): no server, no real
 * waits. The HTTP client's own retry behaviour end to end is in http.test.ts.
 */
import { ConflictError, RateLimitedError, UnavailableError, ValidationError } from '../../src/client/errors';
import { backoffDelay, DEFAULT_RETRY_POLICY, isRetryable, retryPolicy, withRetry, type RetryEvent, type RetryPolicy } from '../../src/client/retry';

const at = { method: 'GET', path: '/api/x', status: 503 };
const unavailable = (retryAfterMs?: number) => new UnavailableError(at, retryAfterMs);
const rateLimited = (retryAfterMs?: number) => new RateLimitedError({ ...at, status: 429 }, retryAfterMs);

/** A policy on a fake clock: sleeping advances it; `random` is fixed. */
function fake(p: Partial<RetryPolicy> = {}) {
  let now = 1_000;
  const sleeps: number[] = [];
  const policy = retryPolicy({
    now: () => now,
    random: () => 0.5,
    sleep: async (ms) => {
      sleeps.push(ms);
      now += ms;
    },
    ...p,
  });
  return { policy, sleeps, advance: (ms: number) => (now += ms) };
}

/** Runs `withRetry` over a function that fails with `errors` in turn, then answers 'ok'. */
async function run(policy: RetryPolicy, idempotent: boolean, errors: unknown[]) {
  const attempts: number[] = [];
  const events: RetryEvent[] = [];
  let i = 0;
  const result = withRetry(
    policy,
    idempotent,
    async (attempt) => {
      attempts.push(attempt);
      if (i < errors.length) throw errors[i++];
      return 'ok';
    },
    (e) => events.push(e),
  ).then(
    (v) => ({ ok: true as const, v }),
    (e: unknown) => ({ ok: false as const, e }),
  );
  return { ...(await result), attempts, events };
}

describe('retryPolicy', () => {
  test('the documented defaults: 5 attempts, 250 ms doubling to 20 s, 60 s in all, server waits up to 120 s, unscaled', () => {
    expect(retryPolicy()).toEqual(DEFAULT_RETRY_POLICY);
    const { sleep: _s, random: _r, now: _n, ...numbers } = DEFAULT_RETRY_POLICY;
    expect(numbers).toEqual({ maxAttempts: 5, baseDelayMs: 250, maxDelayMs: 20_000, maxElapsedMs: 60_000, maxRetryAfterMs: 120_000, scale: 1 });
    expect(DEFAULT_RETRY_POLICY.now).toBe(Date.now);
    expect(DEFAULT_RETRY_POLICY.random).toBe(Math.random);
  });

  test('given settings win over the defaults, the rest stay', () => {
    const p = retryPolicy({ maxAttempts: 2, scale: 0.5 });
    expect(p.maxAttempts).toBe(2);
    expect(p.scale).toBe(0.5);
    expect(p.baseDelayMs).toBe(250);
  });

  test('the default sleep waits the given time on the timer', async () => {
    jest.useFakeTimers();
    try {
      let done = false;
      const p = DEFAULT_RETRY_POLICY.sleep(1_000).then(() => (done = true));
      await jest.advanceTimersByTimeAsync(999);
      expect(done).toBe(false);
      await jest.advanceTimersByTimeAsync(1);
      await p;
      expect(done).toBe(true);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('isRetryable', () => {
  test.each([
    ['503/UNAVAILABLE', unavailable(), true],
    ['429/RESOURCE_EXHAUSTED', rateLimited(), true],
    ['409 conflict: the etag moved, repeating cannot help', new ConflictError({ ...at, status: 409 }), false],
    ['400: the request is wrong', new ValidationError({ ...at, status: 400 }), false],
    ['a plain Error (a bug, not the server)', new Error('boom'), false],
    ['not an error at all', 'boom', false],
  ])('%s -> %s', (_why, err, want) => {
    expect(isRetryable(err)).toBe(want);
  });
});

describe('backoffDelay', () => {
  const p = (random: number) => retryPolicy({ random: () => random, baseDelayMs: 100, maxDelayMs: 1_000 });
  test.each([
    // [why, attempt, random, expected]
    ['full jitter under the first ceiling (base)', 1, 0.5, 50],
    ['the ceiling doubles per attempt', 2, 0.5, 100],
    ['and again', 3, 0.5, 200],
    ['capped at maxDelayMs', 6, 0.5, 500],
    ['random 0 waits nothing', 3, 0, 0],
    ['the wait is floored to whole ms, below the ceiling', 1, 0.9999, 99],
  ])('%s', (_why, attempt, random, want) => {
    expect(backoffDelay(p(random), attempt, unavailable())).toBe(want);
  });

  test("the server's Retry-After/RetryInfo wins, even when shorter than the jitter", () => {
    expect(backoffDelay(p(0.99), 4, unavailable(7))).toBe(7);
    expect(backoffDelay(p(0), 1, rateLimited(3_000))).toBe(3_000);
  });

  test('a server wait of 0 means retry now; a negative one is 0', () => {
    expect(backoffDelay(p(0.9), 3, unavailable(0))).toBe(0);
    expect(backoffDelay(p(0.9), 3, rateLimited(-5))).toBe(0);
  });

  test('only rate limits and unavailability carry a server wait; other errors use the jitter', () => {
    const conflict = Object.assign(new ConflictError({ ...at, status: 409 }), { retryAfterMs: 5 });
    expect(backoffDelay(p(0.5), 1, conflict)).toBe(50);
  });
});

describe('withRetry', () => {
  test('a first success is returned without waiting', async () => {
    const { policy, sleeps } = fake();
    const r = await run(policy, true, []);
    expect(r).toMatchObject({ ok: true, v: 'ok', attempts: [1], events: [] });
    expect(sleeps).toEqual([]);
  });

  test('retryable failures of an idempotent call are retried with growing waits, each reported first', async () => {
    const { policy, sleeps } = fake({ baseDelayMs: 100 });
    const errors = [unavailable(), rateLimited(), unavailable()];
    const r = await run(policy, true, errors);
    expect(r.ok).toBe(true);
    expect(r.attempts).toEqual([1, 2, 3, 4]);
    expect(sleeps).toEqual([50, 100, 200]);
    expect(r.events).toEqual([
      { attempt: 1, delayMs: 50, error: errors[0] },
      { attempt: 2, delayMs: 100, error: errors[1] },
      { attempt: 3, delayMs: 200, error: errors[2] },
    ]);
  });

  test('a non-idempotent call is never retried (the server may have acted)', async () => {
    const { policy, sleeps } = fake();
    const err = unavailable();
    const r = await run(policy, false, [err]);
    expect(r).toMatchObject({ ok: false, e: err, attempts: [1] });
    expect(sleeps).toEqual([]);
  });

  test('a non-retryable error is thrown at once', async () => {
    const { policy, sleeps } = fake();
    const err = new ConflictError({ ...at, status: 409 });
    const r = await run(policy, true, [err]);
    expect(r).toMatchObject({ ok: false, e: err, attempts: [1] });
    expect(sleeps).toEqual([]);
  });

  test('attempts are bounded by maxAttempts (the first included); the last error is thrown', async () => {
    const { policy, sleeps } = fake({ maxAttempts: 3 });
    const errors = [unavailable(), unavailable(), unavailable(), unavailable()];
    const r = await run(policy, true, errors);
    expect(r).toMatchObject({ ok: false, e: errors[2], attempts: [1, 2, 3] });
    expect(sleeps).toHaveLength(2);
  });

  test('maxAttempts 1 means no retry at all', async () => {
    const { policy } = fake({ maxAttempts: 1 });
    const r = await run(policy, true, [unavailable()]);
    expect(r.attempts).toEqual([1]);
    expect(r.ok).toBe(false);
  });

  test('a server wait above maxRetryAfterMs is not honoured: the error is thrown', async () => {
    const { policy, sleeps } = fake({ maxRetryAfterMs: 1_000 });
    const err = rateLimited(1_001);
    const r = await run(policy, true, [err]);
    expect(r).toMatchObject({ ok: false, e: err, attempts: [1] });
    expect(sleeps).toEqual([]);
  });

  test('a server wait of exactly maxRetryAfterMs is honoured', async () => {
    const { policy, sleeps } = fake({ maxRetryAfterMs: 1_000 });
    const r = await run(policy, true, [rateLimited(1_000)]);
    expect(r.ok).toBe(true);
    expect(sleeps).toEqual([1_000]);
  });

  test('the scale multiplies every wait, server waits included, and the limits compare unscaled waits', async () => {
    const { policy, sleeps } = fake({ scale: 0.01, maxRetryAfterMs: 1_000, baseDelayMs: 1_000 });
    const r = await run(policy, true, [rateLimited(1_000), unavailable()]);
    expect(r.ok).toBe(true);
    // 1000 (server) and 0.5 * 2000 (the second attempt's jitter), each scaled
    expect(sleeps).toEqual([10, 10]);
    expect(r.events.map((e) => e.delayMs)).toEqual([10, 10]);
  });

  test('scaled waits are rounded to whole ms', async () => {
    const { policy, sleeps } = fake({ scale: 0.3 });
    await run(policy, true, [rateLimited(5)]);
    expect(sleeps).toEqual([2]);
  });

  test('total time is bounded: a wait that would end past maxElapsedMs since the first attempt gives up', async () => {
    const { policy, sleeps } = fake({ maxElapsedMs: 1_000 });
    // 600 + 400 = 1000: allowed; the next 1 ms would pass the budget
    const errors = [unavailable(600), unavailable(400), unavailable(1)];
    const r = await run(policy, true, errors);
    expect(r).toMatchObject({ ok: false, e: errors[2], attempts: [1, 2, 3] });
    expect(sleeps).toEqual([600, 400]);
  });

  test('the time budget counts the time the attempts themselves took', async () => {
    const f = fake({ maxElapsedMs: 1_000 });
    let calls = 0;
    const err = unavailable(100);
    const p = withRetry(f.policy, true, async () => {
      calls++;
      f.advance(950); // a slow attempt
      throw err;
    });
    await expect(p).rejects.toBe(err);
    expect(calls).toBe(1);
    expect(f.sleeps).toEqual([]);
  });

  test('the time budget is scaled like the waits', async () => {
    const { policy, sleeps } = fake({ maxElapsedMs: 1_000, scale: 0.1 });
    // 100 ms scaled budget: two waits of 50 fit, a third does not
    const r = await run(policy, true, [unavailable(500), unavailable(500), unavailable(500)]);
    expect(r.ok).toBe(false);
    expect(sleeps).toEqual([50, 50]);
  });

  test('without an onRetry listener retries still happen', async () => {
    const { policy, sleeps } = fake();
    let n = 0;
    const v = await withRetry(policy, true, async () => {
      if (n++ === 0) throw unavailable(10);
      return 42;
    });
    expect(v).toBe(42);
    expect(sleeps).toEqual([10]);
  });
});
