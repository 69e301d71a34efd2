/** YAML: `selection: "<ResolverQL>"` for `selection: { resolverQl }`. */
import { qlSel, type YamlBinding } from '../shared/yaml';

export const savedViewYaml: YamlBinding = (c) => {
  if (c.selection !== undefined) c.selection = qlSel(c.selection);
  return c;
};
