/** Config validation of an alert: the platform's alert rules, checked offline (schemas/platform/alerts.ts). */
import { alertRuleViolations, type AlertWrite } from '../../../schemas/platform/alerts';
import type { ConfigValidator } from '../shared/validation';

export const validateAlert: ConfigValidator = (desired, ctx) =>
  alertRuleViolations({ ...(desired as object), fqn: ctx.fqn ?? '' } as AlertWrite).map((v) => ({ field: v.field, message: v.message, hint: `rule ${v.ruleId}` }));
