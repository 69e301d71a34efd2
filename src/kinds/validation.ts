/** The kinds' config validators (loads the schemas they check against; the engine's resolve step calls them). */
import { alertDescriptor } from './alert/descriptor';
import { validateAlert } from './alert/validate';
import { integrationDescriptor } from './integration/descriptor';
import { validateIntegration } from './integration/validate';
import type { ConfigProblem, ConfigValidator } from './shared/validation';

export type { ConfigProblem, ConfigValidator };

const VALIDATORS: ReadonlyMap<string, ConfigValidator> = new Map([[alertDescriptor.type, validateAlert], [integrationDescriptor.type, validateIntegration]]);

/** The problems the kind of `type` finds in `desired` (none when it has no validator). */
export function configProblems(type: string, desired: Record<string, unknown>, ctx: { fqn?: string }): ConfigProblem[] {
  return VALIDATORS.get(type)?.(desired, ctx) ?? [];
}
