/** Config validation of an alert: the platform's alert rules, checked offline (schemas/alerts.ts). */
import { alertRuleViolations, type AlertWrite } from '../../../schemas/alerts';
import type { ConfigProblem } from '../shared/validation';

export function validateAlert(desired: Record<string, unknown>, ctx: { fqn?: string }): ConfigProblem[] {
  return alertRuleViolations({ ...(desired as object), fqn: ctx.fqn ?? '' } as AlertWrite).map((v) => ({ field: v.field, message: v.message, hint: `rule ${v.ruleId}` }));
}
