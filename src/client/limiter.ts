/** A counting semaphore: at most `limit` tasks run at once; the rest wait in FIFO order. */
export class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  /** Highest concurrency observed (diagnostics and tests). */
  peak = 0;

  constructor(readonly limit: number) {
    if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`limit must be a positive integer, got ${limit}`);
  }

  /**
   * Runs `fn` when a slot is free. Not an async function: a free slot (most calls) starts `fn` at
   * once, with no await before it and one `then` after it (issue 27; perf only).
   */
  run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active < this.limit) {
      this.active++;
      if (this.active > this.peak) this.peak = this.active;
      return this.start(fn);
    }
    return new Promise<void>((resolve) => this.queue.push(resolve)).then(() => {
      if (this.active > this.peak) this.peak = this.active;
      return this.start(fn);
    });
  }

  /** Runs `fn` in a slot already held, and hands the slot on when it settles (or throws). */
  private start<T>(fn: () => Promise<T>): Promise<T> {
    let p: Promise<T>;
    try {
      p = fn();
    } catch (e) {
      this.release();
      return Promise.reject(e);
    }
    return Promise.resolve(p).then(
      (v) => {
        this.release();
        return v;
      },
      (e: unknown) => {
        this.release();
        throw e;
      },
    );
  }

  /** Hands the slot straight to the next waiter (active stays the same), or frees it. */
  private release(): void {
    const next = this.queue.shift();
    if (next) next();
    else this.active--;
  }

  /** Tasks waiting for a slot. */
  get pending(): number {
    return this.queue.length;
  }
}
