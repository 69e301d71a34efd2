/**
 * Fault injection: latency, 429 with Retry-After, 503, dropped connections (before the request is
 * handled, or after its write took effect: `dropAfter`), slow bodies and requests held until the
 * client gives up (`hold`), at a rate (seeded PRNG,
 * repeatable) or for the next N requests, optionally by path prefix and method. Off by default. The token endpoint and the admin endpoints are never faulted (the app
 * does not consult the injector for them).
 */
import { FaultConfig as FaultConfigSchema, type FaultConfig, type FaultRule } from '../../schemas/model/emulator';
import { EmulatorError, resourceExhausted, unavailable } from './errors';
import { mulberry32 } from './random';

export type { FaultConfig, FaultRule, FaultType } from '../../schemas/model/emulator';

/**
 * A pending `dropAfter` fault: the app calls it once the request's write is durable. It returns
 * true when the connection must now be dropped (and only then uses up the rule's `count` and
 * counts the hit); false when the rule was spent or replaced meanwhile.
 */
export type DropAfterClaim = () => boolean;

/** The outcome for one request. */
export type FaultOutcome =
  | {
      kind: 'pass';
      slowMs?: number;
      /** Set when a `dropAfter` rule fired: claim it after a request that changed state. */
      dropAfter?: DropAfterClaim;
    }
  | { kind: 'drop' }
  | { kind: 'error'; error: EmulatorError };

export { mulberry32 };

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
   * `slow` sets the body trickle duration. The first firing `dropAfter` rule is returned as a
   * {@link DropAfterClaim} on a `pass` outcome without using up its `count` or counting a hit:
   * that happens only when the app claims it after a request that changed state, so reads and
   * failed writes matching the rule's filters leave it armed. A firing `hold` rule waits for
   * `clientGone` (the client cancelled or closed; capped by the rule's `latencyMs`), then drops.
   */
  async apply(method: string, path: string, clientGone?: () => Promise<unknown>): Promise<FaultOutcome> {
    if (this.rules.length === 0) return { kind: 'pass' };
    let delay = 0;
    let slowMs: number | undefined;
    let outcome: FaultOutcome | undefined;
    let dropAfter: ActiveRule | undefined;
    let holdMs: number | undefined;
    for (const r of this.rules) {
      if (r.remaining !== undefined && r.remaining <= 0) continue;
      if (r.pathPrefix && !path.startsWith(r.pathPrefix)) continue;
      if (r.path !== undefined && path !== r.path) continue;
      if (r.method && r.method.toUpperCase() !== method) continue;
      if (r.type === 'dropAfter' && dropAfter) continue;
      const rate = r.rate ?? 1;
      if (rate < 1 && !(this.random() < rate)) continue;
      if (r.type === 'dropAfter') {
        dropAfter = r;
        continue;
      }
      if (r.remaining !== undefined) r.remaining--;
      this.hits[r.type] = (this.hits[r.type] ?? 0) + 1;
      if (r.type === 'latency') delay += r.latencyMs ?? 100;
      else if (r.type === 'slow') slowMs = r.latencyMs ?? 100;
      else if (r.type === 'drop') outcome = { kind: 'drop' };
      else if (r.type === 'hold') {
        holdMs = r.latencyMs ?? 60_000;
        outcome = { kind: 'drop' };
      }
      else if (r.type === 'rateLimit') {
        const after = r.retryAfterSeconds ?? 1;
        outcome = { kind: 'error', error: resourceExhausted(`rate limit exceeded (injected fault); retry after ${after}s`, after) };
      } else outcome = { kind: 'error', error: unavailable('service unavailable (injected fault)') };
      if (outcome) break;
    }
    if (this.rules.every((r) => r.remaining !== undefined && r.remaining <= 0)) this.rules = [];
    if (delay > 0) await new Promise((res) => setTimeout(res, delay));
    if (holdMs !== undefined) await holdUntil(holdMs, clientGone);
    if (outcome) return outcome;
    if (!dropAfter) return { kind: 'pass', slowMs };
    const rule = dropAfter;
    return { kind: 'pass', slowMs, dropAfter: () => this.claim(rule) };
  }

  /** Uses up one hit of a `dropAfter` rule that is still active; false when it is not. */
  private claim(rule: ActiveRule): boolean {
    if (!this.rules.includes(rule)) return false;
    if (rule.remaining !== undefined) {
      if (rule.remaining <= 0) return false;
      rule.remaining--;
    }
    this.hits[rule.type] = (this.hits[rule.type] ?? 0) + 1;
    if (this.rules.every((r) => r.remaining !== undefined && r.remaining <= 0)) this.rules = [];
    return true;
  }
}

/** Waits until `clientGone` settles or `capMs` passes, whichever comes first (no timer left behind). */
async function holdUntil(capMs: number, clientGone: (() => Promise<unknown>) | undefined): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const cap = new Promise<void>((res) => (timer = setTimeout(res, capMs)));
  try {
    await Promise.race([cap, clientGone ? clientGone().then(() => undefined, () => undefined) : cap]);
  } finally {
    clearTimeout(timer);
  }
}
