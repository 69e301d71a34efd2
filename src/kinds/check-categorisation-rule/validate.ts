/** Config validation of a categorisation rule: the platform's limits (wire-facts 10), each error naming its field. */
import { RULE_EXPRESSION_MAX, RULE_PRIORITY_MAX, RULE_TEXT_MAX } from '../../../schemas/platform/categorisation-rules';
import type { ConfigProblem, ConfigValidator } from '../shared/validation';

type Json = Record<string, unknown>;
const DIMENSIONS = ['TECHNICAL', 'GOVERNANCE'];

export const validateCategorisationRule: ConfigValidator = (desired: Json): ConfigProblem[] => {
  const out: ConfigProblem[] = [];
  const p = (field: string, message: string, hint: string) => out.push({ field, message, hint });
  if (!DIMENSIONS.includes(desired.dimension as string)) p('dimension', `must be TECHNICAL or GOVERNANCE; got ${JSON.stringify(desired.dimension)}`, 'Set dimension: TECHNICAL (how a check tests) or GOVERNANCE (why it matters).');
  for (const f of ['title', 'category']) {
    const v = desired[f];
    if (typeof v !== 'string' || v.length < 1 || v.length > RULE_TEXT_MAX) p(f, `must be 1 to ${RULE_TEXT_MAX} characters; got ${typeof v === 'string' ? `${v.length}` : JSON.stringify(v)}`, `Shorten ${f} to at most ${RULE_TEXT_MAX} characters.`);
  }
  const pr = desired.priority;
  if (pr !== undefined && (typeof pr !== 'number' || !Number.isInteger(pr) || Math.abs(pr) > RULE_PRIORITY_MAX)) p('priority', `must be a whole number from -${RULE_PRIORITY_MAX} to ${RULE_PRIORITY_MAX}; got ${JSON.stringify(pr)}`, 'Among matching rules the highest priority wins; pick a value in range.');
  const m = desired.matcher as Json | undefined;
  const set = m && typeof m === 'object' ? ['attributes', 'expression'].filter((k) => m[k] !== undefined) : [];
  if (set.length !== 1) p('matcher', `needs exactly one of attributes and expression; got ${set.length ? set.join(' and ') : 'none'}`, 'Match by attributes (checkTypes, nameContains, assetPathPrefix) or by a ResolverQL expression, not both.');
  else if (set[0] === 'expression' && (typeof m!.expression !== 'string' || m!.expression.length < 1 || m!.expression.length > RULE_EXPRESSION_MAX)) p('matcher.expression', `must be 1 to ${RULE_EXPRESSION_MAX} characters`, 'Give a ResolverQL expression, e.g. with_annotation("pii").');
  else if (set[0] === 'attributes') {
    const a = m!.attributes as Json;
    if (!a || typeof a !== 'object' || !['checkTypes', 'nameContains', 'assetPathPrefix'].some((k) => a[k] !== undefined)) p('matcher.attributes', 'needs at least one of checkTypes, nameContains, assetPathPrefix', 'An empty attribute set would match every check; name what the rule is about.');
  }
  return out;
};
