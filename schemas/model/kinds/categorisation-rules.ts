/**
 * The categorisation rules kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/categorisation-rules.ts.
 */
import { z } from 'zod';
import { RULE_TEXT_MAX, RuleMatcher, RulePriority } from '../../platform/categorisation-rules';
import { defineKind, pinnedId, ql, yamlMeta } from '../kind';

// ---- what code declares ----

/** A categorisation rule as code declares it (dq_check_categorisation_rule). */
export const DesiredCategorisationRule = z.object({
  id: pinnedId,
  dimension: z.enum(['TECHNICAL', 'GOVERNANCE']).describe('the dimension categorised: TECHNICAL or GOVERNANCE'),
  title: z.string().min(1).max(RULE_TEXT_MAX).describe('the rule\'s title'),
  category: z.string().min(1).max(RULE_TEXT_MAX).describe('the category given to the checks it matches, e.g. Freshness'),
  matcher: RuleMatcher.describe('what the rule matches: attributes or expression'),
  priority: RulePriority.optional().describe('among matching rules the highest priority wins (-1000000 to 1000000; default 0)'),
});
export type DesiredCategorisationRule = z.infer<typeof DesiredCategorisationRule>;

/** A `categorisationRules:` entry of `dqform.yaml`: `matcher: "<ResolverQL>"` is short for `matcher: { expression }`. */
export const YamlCategorisationRule = DesiredCategorisationRule.extend({
  matcher: z.union([ql.describe('short for { expression: <ResolverQL> }'), RuleMatcher]).describe('what the rule matches: attributes, expression, or a ResolverQL string (the expression)'),
  ...yamlMeta,
});

export const checkCategorisationRuleKindRecord = defineKind({
  type: 'dq_check_categorisation_rule',
  order: 100,
  desired: DesiredCategorisationRule,
  yaml: { section: 'categorisationRules', entry: YamlCategorisationRule, what: 'check categorisation rules' },
});
