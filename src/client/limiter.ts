/** A counting semaphore: at most `limit` tasks run at once; the rest wait in FIFO order. */
export class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  /** Highest concurrency observed (diagnostics and tests). */
  peak = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }

  /** Runs `fn` when a slot is free. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.queue.push(resolve));
    else this.active++;
    this.peak = Math.max(this.peak, this.active);
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      // Hand the slot straight to the next waiter (active stays the same), or free it.
      if (next) next();
      else this.active--;
    }
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.queue.length;
  }
}
