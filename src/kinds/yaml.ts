/** The kinds' YAML bindings (src/kinds/shared/yaml.ts): `dqform.yaml`'s friendly forms per kind. */
import type { Json, Named } from './shared/yaml';
import { YAML_BINDINGS } from './yaml.generated';

export type { Named, PathSeg } from './shared/yaml';

/** Friendly forms -> the desired shape (references as `${type.name.attr}`). Leaves other values as they are. */
export function translateYaml(type: string, entry: Json, named: Named): Json {
  const c: Json = structuredClone(entry);
  return YAML_BINDINGS.get(type)?.(c, named) ?? c;
}
