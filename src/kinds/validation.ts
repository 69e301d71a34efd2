/** The kinds' config validators (loads the schemas they check against; the engine's resolve step calls them). */
import { alertDescriptor } from './alert/descriptor';
import { validateAlert } from './alert/validate';
import { checkCategorisationRuleDescriptor } from './check-categorisation-rule/descriptor';
import { validateCategorisationRule } from './check-categorisation-rule/validate';
import type { ConfigProblem, ConfigValidator } from './shared/validation';

export type { ConfigProblem, ConfigValidator };

const VALIDATORS: ReadonlyMap<string, ConfigValidator> = new Map([
  [alertDescriptor.type, validateAlert],
  [checkCategorisationRuleDescriptor.type, validateCategorisationRule],
]);

/** The problems the kind of `type` finds in `desired` (none when it has no validator). */
export function configProblems(type: string, desired: Record<string, unknown>, ctx: { fqn?: string }): ConfigProblem[] {
  return VALIDATORS.get(type)?.(desired, ctx) ?? [];
}
