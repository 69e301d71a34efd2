/**
 * Wire shapes of the emulator's own local admin endpoints (`/__emulator/...`), not part of
 * the platform API.
 */
import { z } from 'zod';

/** What a fault does to a request it hits. */
export const FaultType = z.enum([
  /** Delay the request by `latencyMs` before handling it. */
  'latency',
  /** Answer 429 RESOURCE_EXHAUSTED with `Retry-After: retryAfterSeconds`. */
  'rateLimit',
  /** Answer 503 UNAVAILABLE. */
  'unavailable',
  /** Destroy the connection without any response, before the request is handled. */
  'drop',
  /**
   * Handle the request normally and make its write durable, then destroy the connection before
   * the response is sent: the client sees a dropped connection for a write that took effect.
   * Only a request that changed state is hit (and uses up `count`); reads and writes that
   * failed or changed nothing pass untouched and leave the rule armed.
   */
  'dropAfter',
  /** Handle normally but trickle the response body over `latencyMs`. */
  'slow',
  /**
   * Never answer: hold the request until the client gives up (a gRPC deadline or cancel, a
   * closed HTTP connection), then drop it; `latencyMs` caps the hold (default 60,000). Tests a
   * client's deadline without guessing how long "past the deadline" is on a loaded machine.
   */
  'hold',
]);
export type FaultType = z.infer<typeof FaultType>;

/** One fault rule. A request is hit when it matches the filters and the rule fires. */
export const FaultRule = z.object({
  type: FaultType,
  /** Probability (0..1) that a matching request is hit; default 1. Drawn from the seeded PRNG. */
  rate: z.number().min(0).max(1).optional(),
  /** Hit only the next N matching requests (the rule is spent afterwards); default unlimited. */
  count: z.number().int().min(1).optional(),
  /** Only requests whose path starts with this prefix. */
  pathPrefix: z.string().optional(),
  /** Only requests whose path (without the query string) is exactly this. */
  path: z.string().optional(),
  /** Only requests with this HTTP method. */
  method: z.string().optional(),
  /** `latency`: delay; `slow`: duration of the body trickle. Default 100. `hold`: the longest hold, default 60,000. */
  latencyMs: z.number().int().min(0).max(600000).optional(),
  /** `rateLimit`: the Retry-After value in seconds. Default 1. */
  retryAfterSeconds: z.number().int().min(0).optional(),
});
export type FaultRule = z.infer<typeof FaultRule>;

/** The fault configuration: rules are evaluated in order for every faultable request. */
export const FaultConfig = z.object({
  /** PRNG seed for `rate` draws (repeatable runs). Default 1. */
  seed: z.number().int().optional(),
  rules: z.array(FaultRule).default([]),
});
export type FaultConfig = z.input<typeof FaultConfig>;

/** `POST /__emulator/reset` body. */
export const ResetRequest = z.object({
  seed: z.enum(['demo', 'empty']).optional(),
  seedSize: z.number().int().min(0).optional(),
});
export type ResetRequest = z.infer<typeof ResetRequest>;
