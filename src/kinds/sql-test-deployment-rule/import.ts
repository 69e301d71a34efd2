/** Import rendering of a SQL-test deployment rule: dqform's shape of the tests, then the rule family's props. */
import { sqlTestRuleFromWire } from '../../../schemas/platform/sql-tests';
import type { ImportRendering } from '../shared/import';
import { ruleTs } from '../shared/rule-import';
import type { Json } from '../shared/yaml';

export const sqlTestDeploymentRuleImport: ImportRendering = {
  fromLive: (raw) => sqlTestRuleFromWire(raw).value as Json,
  ts: ruleTs,
};
