/**
 * Automated-monitor deployment rules (spec 2.3, 4.5; upstream facts).
 */
import { z } from 'zod';
import { ConfigsFilter, Empty, oneof, PageInfo, Pagination, protoEnum, required, Source, Uuid, withOneof } from './common';
import { Query } from './entities';
import { tolerant } from './wire';
import { setLastCheckPasses } from '../tools/zod-walk';

/** Rule and SQL-test severity: WARNING=1, ERROR=2, INFO=3 (not the alert numbering). */
export const SeverityEnum = protoEnum({ SEVERITY_UNSPECIFIED: 0, SEVERITY_WARNING: 1, SEVERITY_ERROR: 2, SEVERITY_INFO: 3 });
export const Severity = required(SeverityEnum);
export type Severity = z.infer<typeof Severity>;
export const SensitivityEnum = protoEnum({
  SENSITIVITY_UNSPECIFIED: 0,
  SENSITIVITY_PRECISE: 1,
  SENSITIVITY_BALANCED: 2,
  SENSITIVITY_RELAXED: 3,
});
export const Sensitivity = required(SensitivityEnum);
export type Sensitivity = z.infer<typeof Sensitivity>;
export const MetricIdEnum = protoEnum({
  METRIC_ID_UNSPECIFIED: 0,
  METRIC_ID_ROW_COUNT: 1,
  METRIC_ID_DELAY: 2,
  METRIC_ID_VOLUME_CHANGE_DELAY: 3,
});
export const MetricId = required(MetricIdEnum);
export type MetricId = z.infer<typeof MetricId>;
export const DelayModelEnum = protoEnum({ DELAY_MODEL_UNSPECIFIED: 0, DELAY_MODEL_STANDARD: 1, DELAY_MODEL_WEEKLY_PATTERN: 2 });
export const DelayModel = required(DelayModelEnum);
export type DelayModel = z.infer<typeof DelayModel>;

/** metricIds: at least one, unique, non-zero. */
export const MetricIds = z
  .array(MetricId)
  .min(1, 'metricIds needs at least one metric')
  .refine((a) => new Set(a).size === a.length, 'metricIds must be unique');
// the refinement's own test as its sure pass: the lean validator skips zod's check (its payload) for every rule read
setLastCheckPasses(MetricIds, (a) => Array.isArray(a) && new Set(a).size === a.length);

const SENSITIVITY = 'how readily monitors flag anomalies: SENSITIVITY_PRECISE, SENSITIVITY_BALANCED or SENSITIVITY_RELAXED';
const monitorSettings = {
  severity: Severity.describe('severity of the issues the monitors raise: SEVERITY_WARNING, SEVERITY_ERROR or SEVERITY_INFO'),
  sensitivity: Sensitivity.describe(SENSITIVITY),
  metricIds: MetricIds.describe('the metrics monitored, e.g. METRIC_ID_ROW_COUNT, METRIC_ID_DELAY'),
};
const keepDeletedMonitors = z.boolean().optional().describe('keep monitors (and their learned baselines) on assets the rule no longer matches');
const query = Query.optional().describe('the assets, as a query');
const resolverQl = z.string().optional().describe('the assets, as ResolverQL (wins over query)');
const renderedResolverQl = z.string().optional().describe('output only: the server\'s canonical ResolverQL');
const assetPath = z.string().min(1).describe('the asset path, e.g. wh-prod::mart::orders');

/** Per-metric sensitivity overrides (a repeated message: no REST query form, so no REST preview). */
export const MetricOptions = z.array(
  z.object({ sensitivity: Sensitivity.describe(SENSITIVITY), metricId: MetricId.describe('the metric this sensitivity is for') }),
);
/** `delayModel` unset keeps the stored value (wire-facts section 4). */
const perMetric = {
  metricOptions: MetricOptions.optional().describe('per-metric sensitivity, overriding sensitivity'),
  delayModel: DelayModel.optional().describe('how delay is modelled: DELAY_MODEL_STANDARD or DELAY_MODEL_WEEKLY_PATTERN'),
};

export const QueryConfig = z.object({
  query,
  /** Wins over `query` on write. */
  resolverQl,
  /** Output only. */
  renderedResolverQl,
  ...monitorSettings,
  ...perMetric,
  keepDeletedMonitors,
});
export type QueryConfig = z.infer<typeof QueryConfig>;
export const ExclusiveQueryConfig = z.object({ query, resolverQl, renderedResolverQl });
export const StaticConfig = z.object({ path: assetPath, ...monitorSettings, ...perMetric });
export const ExclusiveStaticConfig = z.object({ path: assetPath });
export const ProductConfig = z.object({
  productId: z.string().min(1).describe('the data product\'s id or ${dq_data_product.<name>.id}'),
  ...monitorSettings,
  upstream: oneof({ all: Empty.describe('every upstream asset'), sources: Empty.describe('the upstream sources only') }, { optional: true })
    .optional()
    .describe('also monitor what is upstream of the product'),
  self: oneof(
    { all: Empty.describe('every asset of the product'), selection: z.object({ query: Query.describe('the product\'s assets to monitor') }).describe('some of its assets') },
    { optional: true },
  )
    .optional()
    .describe('which of the product\'s own assets to monitor'),
  keepDeletedMonitors,
  ...perMetric,
});
export type ProductConfig = z.infer<typeof ProductConfig>;

export const RULE_CONFIG_KINDS = ['queryConfig', 'exclusiveQueryConfig', 'staticConfig', 'exclusiveStaticConfig', 'productConfig'] as const;
export type RuleConfigKind = (typeof RULE_CONFIG_KINDS)[number];
const configs = {
  queryConfig: QueryConfig,
  exclusiveQueryConfig: ExclusiveQueryConfig,
  staticConfig: StaticConfig,
  exclusiveStaticConfig: ExclusiveStaticConfig,
  productConfig: ProductConfig,
};

export const deploymentRuleWriteFields = {
  id: Uuid,
  title: z.string().min(1).max(100),
  source: Source.optional(),
  configId: z.string().optional(),
};

/** A rule as written (Deploy body `deploymentRule`). */
export const DeploymentRuleWrite = withOneof(deploymentRuleWriteFields, configs);
export type DeploymentRuleWrite = z.infer<typeof DeploymentRuleWrite>;
/** A rule as read: adds `monitorCount`. */
export const DeploymentRule = withOneof({ ...deploymentRuleWriteFields, monitorCount: z.number().int().optional() }, configs);
export type DeploymentRule = z.infer<typeof DeploymentRule>;

/**
 * An enum value an overview reports: its name, or its number when this version does not know
 * it (proto3 enums are open: the platform may add metrics and levels; a read never fails on one).
 */
function openEnum<N extends string>(e: { schema: z.ZodType<N, N | number> }) {
  return z.union([e.schema, z.number().int()]);
}

/** Monitor settings as compared by the overview; `metricOptions` are the per-metric sensitivities. */
export const MonitorSettings = z.object({
  severity: openEnum(SeverityEnum).optional(),
  sensitivity: openEnum(SensitivityEnum).optional(),
  metricIds: z.array(openEnum(MetricIdEnum)).default([]),
  metricOptions: z.array(z.object({ metricId: openEnum(MetricIdEnum).optional(), sensitivity: openEnum(SensitivityEnum).optional() })).optional(),
});
export type MonitorSettings = z.infer<typeof MonitorSettings>;

/** What deploying (or deleting) a rule does downstream. */
export const DeploymentOverview = z.object({
  monitorsToCreateFor: z.array(z.string()).default([]),
  monitorsToDeleteFor: z.array(z.string()).default([]),
  activeMonitorsFor: z.array(z.string()).default([]),
  monitorSettingsChanges: z
    .array(z.object({ monitoredAssetPath: z.string(), originalSettings: MonitorSettings, newSettings: MonitorSettings }))
    .default([]),
  customMonitorsToCreateFor: z.array(z.string()).default([]),
  customMonitorsToDeleteFor: z.array(z.string()).default([]),
  activeCustomMonitorsFor: z.array(z.string()).default([]),
  /** Settings changes of custom monitors (grpc-facts 3.2 field 8); `resolvedFreshnessField` is the field a freshness monitor reads. */
  customMonitorSettingsChanges: z
    .array(z.object({ monitoredAssetPath: z.string(), originalSettings: MonitorSettings.default({ metricIds: [] }), newSettings: MonitorSettings.default({ metricIds: [] }), resolvedFreshnessField: z.string().optional() }))
    .default([]),
  skippedAssets: z.array(z.object({ assetPath: z.string(), reason: z.string() })).default([]),
});
export type DeploymentOverview = z.infer<typeof DeploymentOverview>;

// ---- requests and responses ----

/** Rule types of the List filter: QUERY=1, EXCLUSIVE_QUERY=2, STATIC_PATH=3, EXCLUSIVE_STATIC_PATH=4, PRODUCT=5. */
export const RuleTypeEnum = protoEnum({
  RULE_TYPE_UNSPECIFIED: 0,
  RULE_TYPE_QUERY: 1,
  RULE_TYPE_EXCLUSIVE_QUERY: 2,
  RULE_TYPE_STATIC_PATH: 3,
  RULE_TYPE_EXCLUSIVE_STATIC_PATH: 4,
  RULE_TYPE_PRODUCT: 5,
});

export const DeployDeploymentRuleRequest = z.object({ deploymentRule: DeploymentRuleWrite });
export const BatchDeployDeploymentRulesRequest = z.object({ deploymentRules: z.array(DeploymentRuleWrite) });
export const BatchDeployResponse = z.object({
  deployedIds: z.array(z.string()).default([]),
  errors: z.array(z.object({ id: z.string(), reason: z.string() })).default([]),
});
export type BatchDeployResponse = z.infer<typeof BatchDeployResponse>;
/**
 * List: GET with `sources`, `configsFilter.ids`, `ruleIds`, `ruleTypes`, `pagination.cursor`,
 * `pagination.pageSize` as query parameters (enums as numbers, repeated keys).
 */
export const ListDeploymentRulesRequest = z.object({
  sources: z.array(Source).optional(),
  configsFilter: ConfigsFilter.optional(),
  ruleIds: z.array(z.string()).optional(),
  ruleTypes: z.array(RuleTypeEnum.schema).optional(),
  pagination: Pagination.optional(),
  /** Deprecated but declared (wire-facts 4): the platform accepts it; the client never sends it (it sends `configsFilter.ids`). */
  configIds: z.array(z.string()).optional(),
});
export type ListDeploymentRulesRequest = z.infer<typeof ListDeploymentRulesRequest>;
/** Items are read tolerantly (schemas/platform/wire.ts): a rule this version cannot model is marked, never a failure. */
export const ListDeploymentRulesResponse = z.object({ deploymentRules: z.array(tolerant(DeploymentRule)).default([]), pageInfo: PageInfo.optional() });
export type ListDeploymentRulesResponse = z.infer<typeof ListDeploymentRulesResponse>;
/** Batch: GET `.../deployment-rules/batch?ids=a&ids=b`; missing ids are omitted. */
export const BatchGetDeploymentRulesRequest = z.object({ ids: z.array(z.string()) });
export const BatchGetDeploymentRulesResponse = z.object({ deploymentRules: z.record(z.string(), tolerant(DeploymentRule)).default({}) });
export type BatchGetDeploymentRulesResponse = z.infer<typeof BatchGetDeploymentRulesResponse>;
/**
 * Deploy overview: GET `/api/monitors/automated/v1/deployment-rule` with the rule's scalar fields
 * as dotted query parameters (`deploymentRule.id=...&deploymentRule.queryConfig.metricIds=1`), a
 * structured query sent as its ResolverQL rendering; delete overview: GET `.../deployment-rule/{id}/deleted`.
 */
export const DeployOverviewRequest = z.object({ deploymentRule: DeploymentRuleWrite });
export const DeploymentOverviewResponse = z.object({ overview: DeploymentOverview });
export type DeploymentOverviewResponse = z.infer<typeof DeploymentOverviewResponse>;
