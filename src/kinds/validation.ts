/** The kinds' config validators (loads the schemas they check against; the engine's resolve step calls them). */
import type { ConfigProblem, ConfigValidator } from './shared/validation';
import { CONFIG_VALIDATORS } from './validation.generated';

export type { ConfigProblem, ConfigValidator };

/** The problems the kind of `type` finds in `desired` (none when it has no validator). */
export function configProblems(type: string, desired: Record<string, unknown>, ctx: { fqn?: string }): ConfigProblem[] {
  return CONFIG_VALIDATORS.get(type)?.(desired, ctx) ?? [];
}
