/** The config-validation capability: a kind's own checks of a desired config, beyond its schema. */
export interface ConfigProblem {
  /** The field at fault (undefined: the object as a whole). */
  field: string | undefined;
  message: string | undefined;
  hint: string;
}

export type ConfigValidator = (desired: Record<string, unknown>, ctx: { fqn?: string }) => ConfigProblem[];
