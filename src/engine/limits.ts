/** The guards' defaults (their own module: the CLI's help names them without loading the engine). */

/** `--max-deletes`: objects a plan may destroy (a replace counts as one) unless raised. */
export const DEFAULT_MAX_DELETES = 10;
/** `--max-effect-deletes`: monitors, SQL tests and cascaded objects a plan may make the platform delete unless raised. */
export const DEFAULT_MAX_EFFECT_DELETES = 100;
