/**
 * Fault injection: latency, 429 with Retry-After, 503, dropped connections and slow bodies, at a
 * rate (seeded PRNG, repeatable) or for the next N requests, optionally by path prefix and
 * method. Off by default. The token endpoint and the admin endpoints are never faulted (the app
 * does not consult the injector for them).
 */
import { FaultConfig as FaultConfigSchema, type FaultConfig, type FaultRule } from '../../schemas/emulator';
import { EmulatorError, resourceExhausted, unavailable } from './errors';

export type { FaultConfig, FaultRule, FaultType } from '../../schemas/emulator';

/** The outcome for one request. */
export type FaultOutcome =
  | { kind: 'pass'; slowMs?: number }
  | { kind: 'drop' }
  | { kind: 'error'; error: EmulatorError };

/** mulberry32: a small, seeded PRNG in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface ActiveRule extends FaultRule {
  remaining: number | undefined;
}

/** The fault injector of one emulator. */
export class FaultInjector {
  private rules: ActiveRule[] = [];
  private random: () => number = mulberry32(1);
  /** Number of requests each fault type hit. */
  private hits: Record<string, number> = {};

  /** Replaces the configuration (validated; throws a zod error on a bad one). */
  set(config: FaultConfig): void {
    const c = FaultConfigSchema.parse(config);
    this.rules = c.rules.map((r) => ({ ...r, remaining: r.count }));
    this.random = mulberry32(c.seed ?? 1);
    this.hits = {};
  }

  /** Removes every rule. */
  clear(): void {
    this.rules = [];
    this.hits = {};
  }

  /** The current rules (with `remaining` counts) and hit counters. */
  describe(): { rules: (FaultRule & { remaining?: number })[]; hits: Record<string, number> } {
    return {
      rules: this.rules.map((r) => {
        const { remaining, ...rest } = r;
        return remaining === undefined ? rest : { ...rest, remaining };
      }),
      hits: { ...this.hits },
    };
  }

  /**
   * Decides the faults for one request. Rules are evaluated in order: latency rules sleep (and
   * accumulate); the first firing `rateLimit`, `unavailable` or `drop` rule ends the evaluation;
   * `slow` sets the body trickle duration.
   */
  async apply(method: string, path: string): Promise<FaultOutcome> {
    if (this.rules.length === 0) return { kind: 'pass' };
    let delay = 0;
    let slowMs: number | undefined;
    let outcome: FaultOutcome | undefined;
    for (const r of this.rules) {
      if (r.remaining !== undefined && r.remaining <= 0) continue;
      if (r.pathPrefix && !path.startsWith(r.pathPrefix)) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      const rate = r.rate ?? 1;
      if (rate < 1 && !(this.random() < rate)) continue;
      if (r.remaining !== undefined) r.remaining--;
      this.hits[r.type] = (this.hits[r.type] ?? 0) + 1;
      if (r.type === 'latency') delay += r.latencyMs ?? 100;
      else if (r.type === 'slow') slowMs = r.latencyMs ?? 100;
      else if (r.type === 'drop') outcome = { kind: 'drop' };
      else if (r.type === 'rateLimit') {
        const after = r.retryAfterSeconds ?? 1;
        outcome = { kind: 'error', error: resourceExhausted(`rate limit exceeded (injected fault); retry after ${after}s`, after) };
      } else outcome = { kind: 'error', error: unavailable('service unavailable (injected fault)') };
      if (outcome) break;
    }
    if (this.rules.every((r) => r.remaining !== undefined && r.remaining <= 0)) this.rules = [];
    if (delay > 0) await new Promise((res) => setTimeout(res, delay));
    return outcome ?? { kind: 'pass', slowMs };
  }
}
