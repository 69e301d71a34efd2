/**
 * The one base of dqform's errors. Every product error class extends {@link DqformError} and
 * names its stable `code` (a static on the class, listed in docs/errors.md); `hint` says what to
 * do, `diagnostics` carry a manifest's problems. The CLI's top-level handler
 * (src/cli/runtime.ts `reportError`) maps an error by `instanceof DqformError` and the code's
 * family (its first dotted segment). Here, in schemas/, because every layer may import it
 * (docs/architecture.md): type imports only, so it loads nothing.
 */
import type { Diagnostic } from '../model/plan';

export abstract class DqformError extends Error {
  /** The class's stable code, e.g. `api.not-found`; each class sets its own (docs/errors.md). */
  static readonly code: string = 'dqform';
  /** What to do about it, when the error knows. */
  declare readonly hint?: string;
  /** A manifest's problems, each with its path and what to do. */
  declare readonly diagnostics?: readonly Diagnostic[];

  constructor(message?: string, opts: { hint?: string; diagnostics?: readonly Diagnostic[]; cause?: unknown } = {}) {
    super(message, opts.cause !== undefined ? { cause: opts.cause } : undefined);
    if (opts.hint !== undefined) (this as { hint?: string }).hint = opts.hint;
    if (opts.diagnostics !== undefined) (this as { diagnostics?: readonly Diagnostic[] }).diagnostics = opts.diagnostics;
  }

  /** This error's stable code: its class's {@link DqformError.code}. */
  get code(): string {
    return (this.constructor as typeof DqformError).code;
  }
}

/** The family of a code: its first dotted segment (`api.not-found` -> `api`). */
export function codeFamily(code: string): string {
  return code.split('.')[0];
}

/** Whether `e` is a dqform error of one of these code families. */
export function isFamily(e: unknown, families: readonly string[]): e is DqformError {
  return e instanceof DqformError && families.includes(codeFamily(e.code));
}

/**
 * Whether `e` is an instance of `cls`, or an error of the same class thrown by another copy of
 * dqform's modules (a second installation), which `instanceof` cannot see: it shares the class's
 * name only. The one place an error's `name` is read.
 */
export function isErrorOf(e: unknown, cls: abstract new (...a: never[]) => Error): boolean {
  return e instanceof cls || (e instanceof Error && e.name === cls.name);
}
