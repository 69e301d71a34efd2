/** A mistake in the command line (its own module: main.ts needs it before any command is loaded). */

/** A mistake in the command line: printed with a pointer to the help, exit 1. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose help to point at (`plan`); '' for the main help; undefined: the command run. */
    readonly command?: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}
