/** YAML: `trigger: "<ResolverQL>"` and targets naming an `owner`. */
import { ownerDescriptor } from '../owner/descriptor';
import { isObj, type YamlBinding } from '../shared/yaml';

export const alertYaml: YamlBinding = (c, named) => {
  for (const kind of ['issueLifecycle', 'schemaChange', 'incidentLifecycle']) {
    const body = c[kind];
    if (!isObj(body)) continue;
    if (typeof body.trigger === 'string') body.trigger = { resolverQl: body.trigger };
    if (Array.isArray(body.targets)) {
      body.targets = body.targets.map((t, i) =>
        isObj(t) && typeof t.owner === 'string' ? { ...t, owner: { ownerPath: named(ownerDescriptor.type, t.owner, [kind, 'targets', i, 'owner'], 'entity_id') } } : t,
      );
    }
  }
  return c;
};
