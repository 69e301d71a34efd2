/** Import rendering of a SQL-test deployment rule (the rule family's). */
import type { ImportRendering } from '../shared/import';
import { ruleTs } from '../shared/rule-import';

export const sqlTestDeploymentRuleImport: ImportRendering = { ts: ruleTs };
