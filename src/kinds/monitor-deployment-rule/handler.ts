/**
 * `dq_monitor_deployment_rule`: automated-monitor deployment rules.
 *
 * - read: List every rule of the workspace (no filter; page size {@link LIST_PAGE_SIZE}):
 *   `ceil(n / pageSize)` requests (one for an empty workspace). The list answers full rules, so
 *   no batch get is needed.
 * - create and update: Deploy (save and sync monitors) with `id`, `configId = namespace`,
 *   `source = SOURCE_API`; rules carry no etag. writeMany: BatchDeploy, chunks of 200.
 * - delete: Delete by id; NOT_FOUND is success.
 * - preview: the deploy overview (create, update, replace) or the delete overview (delete), over
 *   the transport the client picks (REST, or gRPC for `metricOptions`); a failure is "effects unknown".
 */
import type { PlatformClient } from '../../client';
import { MetricIdEnum, RULE_CONFIG_KINDS, type DeploymentOverview, type DeploymentRuleWrite, type MonitorSettings } from '../../../schemas/platform/deployment-rules';
import type { Change, Effects } from '../../../schemas/model/plan';
import { normalise } from '../shared/normalise';
import { afterOf, bareId, effectsOf, LIST_PAGE_SIZE, omit, qlForm } from '../shared/support';
import type { HandlerContext, LiveObject, ReadQuery, ResourceHandler } from '../shared/types';
import { monitorDeploymentRuleDescriptor } from './descriptor';
import { liveSorted, ruleHandler } from '../shared/rule';

/** Server-computed and identity fields of a rule. */
export const RULE_DROP = ['id', 'configId', 'source', 'monitorCount'] as const;

/** The config kind a rule (or SQL-test rule) holds. */
export function configKind(o: Record<string, unknown>, kinds: readonly string[] = RULE_CONFIG_KINDS): string | undefined {
  return kinds.find((k) => o[k] !== undefined);
}

/** The comparable form of a monitor deployment rule (live or desired). */
export function canonicalRule(r: Record<string, unknown>): Record<string, unknown> {
  const o = omit(r, RULE_DROP);
  const kind = configKind(o);
  if (kind === 'queryConfig' || kind === 'exclusiveQueryConfig') o[kind] = qlForm(o[kind]);
  // a product rule's data product by its bare, lower-case id: `dataproduct-<uuid>` names the same one
  const pc = o.productConfig as { productId?: unknown } | undefined;
  if (kind === 'productConfig' && pc && typeof pc.productId === 'string') o.productConfig = { ...pc, productId: String(bareId(pc.productId)).toLowerCase() };
  return normalise(o);
}

/** The Deploy body of a change: the desired rule plus identity, namespace and source. */
export function ruleWrite(change: Change, ctx: HandlerContext): DeploymentRuleWrite {
  return { ...afterOf(change), id: change.id, configId: ctx.namespace, source: 'SOURCE_API' } as DeploymentRuleWrite;
}

const uniqSorted = (a: readonly string[]): string[] => [...new Set(a)].sort();
/** An enum value as short text: the name without its prefix; a number this version does not name as `unknown(7)`. */
const short = (v: string | number | undefined, prefix: string): string => (typeof v === 'number' ? `unknown(${v})` : v ? v.replace(prefix, '') : '-');

/** Metric ids as short text in enum order: `ROW_COUNT,DELAY` (`-` when none; unknown numbers last). */
export function metricsText(ids: readonly (string | number)[] | undefined): string {
  const num = (x: string | number): number => (typeof x === 'number' ? 1e6 + x : ((MetricIdEnum.numbers as Record<string, number>)[x] ?? 99));
  const m = [...new Set(ids ?? [])].sort((a, b) => num(a) - num(b) || (String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0)).map((x) => short(x, 'METRIC_ID_'));
  return m.length ? m.join(',') : '-';
}

/**
 * Monitor settings as short text: `ERROR/BALANCED/ROW_COUNT,DELAY` (metrics sorted), then the
 * per-metric sensitivities when there are any: `ERROR/BALANCED/ROW_COUNT,DELAY (DELAY: RELAXED)`.
 */
export function renderSettings(s: Partial<MonitorSettings>): string {
  const base = `${short(s.severity, 'SEVERITY_')}/${short(s.sensitivity, 'SENSITIVITY_')}/${metricsText(s.metricIds)}`;
  const num = (x: string | number | undefined): number => (typeof x === 'number' ? 1e6 + x : x ? ((MetricIdEnum.numbers as Record<string, number>)[x] ?? 99) : 99);
  const opts = [...(s.metricOptions ?? [])]
    .sort((a, b) => num(a.metricId) - num(b.metricId) || String(a.metricId).localeCompare(String(b.metricId)))
    .map((o) => `${short(o.metricId, 'METRIC_ID_')}: ${short(o.sensitivity, 'SENSITIVITY_')}`);
  return opts.length ? `${base} (${opts.join(', ')})` : base;
}

function delayModelOf(v: unknown): string | undefined {
  const q = (v as { queryConfig?: { delayModel?: string } } | null | undefined)?.queryConfig;
  const d = q?.delayModel;
  return d && !/_UNSPECIFIED$/.test(d) ? d : undefined;
}

/**
 * Maps a deploy or delete overview to {@link Effects}.
 *
 * Baseline resets (`baselineResets`), decided here:
 * - a settings change whose metric set differs resets that monitor's learned baseline;
 * - a change of `queryConfig.delayModel` between `before` and `after` resets the baseline of
 *   every monitor that stays active (active and not newly created);
 * - severity or sensitivity alone do not reset anything;
 * - monitors in `monitorsToDelete` lose their baselines with the monitor; they are NOT repeated
 *   in `baselineResets` (the renderer says it once for the deletions).
 * Custom monitors the overview lists are merged into the same lists; their settings changes
 * (`customMonitorSettingsChanges`) are kept marked `custom` (with the resolved freshness field).
 */
export function overviewEffects(source: 'deploy-overview' | 'delete-overview', ov: DeploymentOverview, change?: Pick<Change, 'before' | 'after' | 'action'>): Effects {
  const monitorsToCreate = uniqSorted([...ov.monitorsToCreateFor, ...ov.customMonitorsToCreateFor]);
  const monitorsToDelete = uniqSorted([...ov.monitorsToDeleteFor, ...ov.customMonitorsToDeleteFor]);
  const active = uniqSorted([...ov.activeMonitorsFor, ...ov.activeCustomMonitorsFor]);
  const settingsChanges: Effects['settingsChanges'] = [
    ...ov.monitorSettingsChanges.map((c) => ({ assetPath: c.monitoredAssetPath, from: renderSettings(c.originalSettings), to: renderSettings(c.newSettings) })),
    ...ov.customMonitorSettingsChanges.map((c) => ({
      assetPath: c.monitoredAssetPath,
      from: renderSettings(c.originalSettings),
      to: renderSettings(c.newSettings),
      custom: true as const,
      ...(c.resolvedFreshnessField ? { freshnessField: c.resolvedFreshnessField } : {}),
    })),
  ];
  settingsChanges.sort((a, b) => (a.assetPath < b.assetPath ? -1 : a.assetPath > b.assetPath ? 1 : 0) || Number(a.custom ?? false) - Number(b.custom ?? false));
  const resets = new Map<string, string>();
  for (const c of [...ov.monitorSettingsChanges, ...ov.customMonitorSettingsChanges]) {
    const from = uniqSorted((c.originalSettings.metricIds ?? []).map(String)).join(',');
    const to = uniqSorted((c.newSettings.metricIds ?? []).map(String)).join(',');
    if (from !== to) resets.set(c.monitoredAssetPath, `metrics change from ${metricsText(c.originalSettings.metricIds)} to ${metricsText(c.newSettings.metricIds)}`);
  }
  if (change && source === 'deploy-overview' && change.before) {
    const db = delayModelOf(change.before);
    const da = delayModelOf(change.after);
    if (db !== da) {
      const created = new Set(monitorsToCreate);
      for (const p of active) if (!created.has(p) && !resets.has(p)) resets.set(p, `delay model changes from ${short(db, 'DELAY_MODEL_')} to ${short(da, 'DELAY_MODEL_')}`);
    }
  }
  return effectsOf({
    source,
    monitorsToCreate,
    monitorsToDelete,
    activeMonitors: active.length,
    settingsChanges,
    baselineResets: [...resets.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([assetPath, reason]) => ({ assetPath, reason })),
    skipped: [...ov.skippedAssets].sort((a, b) => (a.assetPath < b.assetPath ? -1 : a.assetPath > b.assetPath ? 1 : 0)),
  });
}

/** The `dq_monitor_deployment_rule` handler. */
export const monitorDeploymentRulesHandler: ResourceHandler = ruleHandler<DeploymentRuleWrite, DeploymentOverview>({
  descriptor: monitorDeploymentRuleDescriptor,

  async read(client: PlatformClient, _q: ReadQuery): Promise<LiveObject[]> {
    // keysOnly too: BatchGet takes SCOPE_MONITORS_AUTOMATIC_EDIT only, List also SCOPE_MCP_READ
    // (wire-facts 4), so a credential that may deploy through MCP scopes can still read back
    return liveSorted(await client.deploymentRules.list({}, LIST_PAGE_SIZE));
  },

  fromLive: canonicalRule,
  fromDesired: canonicalRule,
  write: ruleWrite,
  service: (client) => client.deploymentRules,

  preview: {
    sources: { deploy: 'deploy-overview', delete: 'delete-overview' },
    deployOverview: (client, change, ctx) => client.deploymentRules.deployOverview(ruleWrite(change, ctx)),
    deleteOverview: (client, id) => client.deploymentRules.deleteOverview(id),
    effects: (source, ov, change) => overviewEffects(source as 'deploy-overview' | 'delete-overview', ov, change),
  },
});
