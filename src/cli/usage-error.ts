/** A mistake in the command line (its own module: main.ts needs it before any command is loaded). */
import { DqformError } from '../../schemas/tools/errors';

/** A mistake in the command line: printed with a pointer to the help, exit 1. */
export class UsageError extends DqformError {
  static override readonly code: string = 'usage';
  constructor(
    message: string,
    /** The command whose help to point at (`plan`); '' for the main help; undefined: the command run. */
    readonly command?: string,
  ) {
    super(message, { hint: command ? `Run dqform ${command} --help for its options.` : 'Run dqform --help for the commands.' });
    this.name = 'UsageError';
  }
}
