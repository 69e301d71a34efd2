/** YAML: parts with `query: "<ResolverQL>"`. */
import { isObj, partsOf, qlSel, type Json, type YamlBinding } from '../shared/yaml';

export const dataProductYaml: YamlBinding = (c) => {
  const parts = partsOf(c);
  if (parts) (c.definition as Json).parts = parts.map((p) => (isObj(p) && p.query !== undefined ? { ...p, query: qlSel(p.query) } : p));
  return c;
};
