/**
 * The deployment rules kind in dqform's model: what code declares (the desired shape), the `dqform.yaml`
 * entry and the kind's record (../kind.ts); the wire shapes they build on are in
 * schemas/platform/deployment-rules.ts.
 */
import { z } from 'zod';
import { oneofIssue, withOneof } from '../../platform/common';
import { ExclusiveQueryConfig, ExclusiveStaticConfig, ProductConfig, QueryConfig, StaticConfig } from '../../platform/deployment-rules';
import { type Shape, defineKind, nameRef, pinnedId, unwrapped, yamlMeta } from '../kind';

// ---- the kind (schemas/model/kind.ts) ----
export const DesiredMonitorDeploymentRule = withOneof(
  { id: pinnedId, title: z.string().min(1).max(100).describe('the rule\'s title') },
  {
    queryConfig: QueryConfig.describe('deploy monitors on every asset a query selects'),
    exclusiveQueryConfig: ExclusiveQueryConfig.describe('exclude the assets a query selects from other rules'),
    staticConfig: StaticConfig.describe('deploy monitors on one asset'),
    exclusiveStaticConfig: ExclusiveStaticConfig.describe('exclude one asset from other rules'),
    productConfig: ProductConfig.describe('deploy monitors on a data product\'s assets'),
  },
);
export type DesiredMonitorDeploymentRule = z.infer<typeof DesiredMonitorDeploymentRule>;

// ---- dqform.yaml ----
const ruleVariants = (o: { shape: Shape }, keys: readonly string[]) => unwrapped(o, keys);
export const YamlMonitorDeploymentRule = withOneof(
  { id: DesiredMonitorDeploymentRule.shape.id, title: DesiredMonitorDeploymentRule.shape.title, ...yamlMeta },
  {
    ...ruleVariants(DesiredMonitorDeploymentRule as unknown as { shape: Shape }, ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig']),
    productConfig: ProductConfig.extend({
      productId: z.string().min(1).optional().describe('the data product\'s id (or use product: <name>)'),
      /** A data product's name in this file (instead of `productId`). */
      product: nameRef('a data product').optional(),
    })
      .superRefine((v, ctx) => {
        const o = oneofIssue(v as Record<string, unknown>, ['product', 'productId']);
        if (o) ctx.addIssue({ code: 'custom', message: o });
      })
      .describe('deploy monitors on a data product\'s assets'),
  },
);

export const monitorDeploymentRuleKindRecord = defineKind({
  type: 'dq_monitor_deployment_rule',
  order: 60,
  desired: DesiredMonitorDeploymentRule,
  yaml: { section: 'monitorDeploymentRules', entry: YamlMonitorDeploymentRule, what: 'automated-monitor deployment rules' },
});
