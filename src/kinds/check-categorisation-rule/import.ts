/** Import rendering of a categorisation rule: `scope` is the platform's (never declared); an expression matcher in YAML's short form. */
import type { ImportRendering } from '../shared/import';
import { isObj, type Json } from '../shared/yaml';

export const checkCategorisationRuleImport: ImportRendering = {
  fromLive: (raw) => {
    const { scope: _scope, ...rest } = raw;
    return rest as Json;
  },
  yaml(x) {
    if (isObj(x.matcher) && typeof x.matcher.expression === 'string' && Object.keys(x.matcher).length === 1) x.matcher = x.matcher.expression;
  },
};
