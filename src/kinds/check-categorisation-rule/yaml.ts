/** YAML: `matcher: "<ResolverQL>"` is short for `matcher: { expression: "<ResolverQL>" }`. */
import type { YamlBinding } from '../shared/yaml';

export const checkCategorisationRuleYaml: YamlBinding = (c) => {
  if (typeof c.matcher === 'string') c.matcher = { expression: c.matcher };
  return c;
};
