/**
 * Which monitors a monitor deployment rule change resets (overviewEffects), at the edges the plan
 * relies on: only a deploy with a `before` compares delay models; an unset delay model is none;
 * newly created monitors and monitors already reset for their metrics keep their own reason.
 * Complements test/handlers/effects.test.ts.
 */
import { DeploymentOverview } from '../../schemas/platform/deployment-rules';
import { overviewEffects } from '../../src/kinds/monitor-deployment-rule/handler';

const ov = DeploymentOverview.parse({
  monitorsToCreateFor: ['wh::new'],
  activeMonitorsFor: ['wh::new', 'wh::b', 'wh::a'],
  activeCustomMonitorsFor: ['wh::c'],
  monitorSettingsChanges: [{ monitoredAssetPath: 'wh::b', originalSettings: { metricIds: ['METRIC_ID_ROW_COUNT'] }, newSettings: { metricIds: ['METRIC_ID_DELAY'] } }],
});
const dm = (delayModel?: string) => ({ title: 't', queryConfig: delayModel ? { delayModel } : {} });
const resets = (e: ReturnType<typeof overviewEffects>) => e.baselineResets.map((r) => `${r.assetPath}: ${r.reason}`);

describe('baseline resets of a monitor rule change', () => {
  it('a delay model change resets the active monitors that are neither new nor reset for their metrics, in path order', () => {
    expect(resets(overviewEffects('deploy-overview', ov, { action: 'update', before: dm('DELAY_MODEL_STANDARD'), after: dm() }))).toEqual([
      'wh::a: delay model changes from STANDARD to -',
      'wh::b: metrics change from ROW_COUNT to DELAY',
      'wh::c: delay model changes from STANDARD to -',
    ]);
    expect(overviewEffects('deploy-overview', ov).activeMonitors).toBe(4);
  });

  it('no delay-model resets for a delete overview, a create (no before), or no change passed', () => {
    const only = ['wh::b: metrics change from ROW_COUNT to DELAY'];
    expect(resets(overviewEffects('delete-overview', ov, { action: 'delete', before: dm('DELAY_MODEL_STANDARD'), after: null }))).toEqual(only);
    expect(resets(overviewEffects('deploy-overview', ov, { action: 'create', before: null, after: dm('DELAY_MODEL_WEEKLY_PATTERN') }))).toEqual(only);
    expect(resets(overviewEffects('deploy-overview', ov))).toEqual(only);
  });

  it('an unspecified delay model is the same as none; the same model is no change', () => {
    const only = ['wh::b: metrics change from ROW_COUNT to DELAY'];
    expect(resets(overviewEffects('deploy-overview', ov, { action: 'update', before: dm('DELAY_MODEL_UNSPECIFIED'), after: dm() }))).toEqual(only);
    expect(resets(overviewEffects('deploy-overview', ov, { action: 'update', before: dm('DELAY_MODEL_STANDARD'), after: dm('DELAY_MODEL_STANDARD') }))).toEqual(only);
    expect(resets(overviewEffects('deploy-overview', ov, { action: 'update', before: { title: 't' }, after: dm('DELAY_MODEL_WEEKLY_PATTERN') }))).toEqual([
      'wh::a: delay model changes from - to WEEKLY_PATTERN',
      'wh::b: metrics change from ROW_COUNT to DELAY',
      'wh::c: delay model changes from - to WEEKLY_PATTERN',
    ]);
  });

  it('settings given without metric ids (an overview not filled with defaults) compare as none', () => {
    const raw = { ...ov, monitorSettingsChanges: [{ monitoredAssetPath: 'wh::x', originalSettings: { metricIds: ['METRIC_ID_DELAY'] }, newSettings: {} }], customMonitorSettingsChanges: [{ monitoredAssetPath: 'wh::y', originalSettings: {}, newSettings: { metricIds: ['METRIC_ID_ROW_COUNT'] } }] };
    expect(resets(overviewEffects('deploy-overview', raw as unknown as DeploymentOverview))).toEqual(['wh::x: metrics change from DELAY to -', 'wh::y: metrics change from - to ROW_COUNT']);
  });
});
