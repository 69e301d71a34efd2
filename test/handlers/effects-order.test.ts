/**
 * What the plan shows of a rule's effects is ordered, whatever order the platform answers in:
 * skipped assets and tables by path (ties keep the platform's order), metric ids in enum order
 * with numbers this version does not name last, per-metric sensitivities likewise. (Written for
 * the uncovered mutants of the mutation run of src/handlers, issue 12.)
 *
 * @gateway
 */
import { DeploymentOverview } from '../../schemas/platform/deployment-rules';
import { SqlTestDeployOverview } from '../../schemas/platform/sql-tests';
import { metricsText, overviewEffects, renderSettings } from '../../src/kinds/monitor-deployment-rule/handler';
import { sqlTestOverviewEffects } from '../../src/kinds/sql-test-deployment-rule/handler';

test('monitor rules: skipped assets sorted by path, ties in the order given', () => {
  const ov = DeploymentOverview.parse({
    skippedAssets: [
      { assetPath: 'wh::c', reason: 'c' },
      { assetPath: 'wh::a', reason: 'first a' },
      { assetPath: 'wh::b', reason: 'b' },
      { assetPath: 'wh::a', reason: 'second a' },
    ],
  });
  expect(overviewEffects('deploy-overview', ov).skipped).toEqual([
    { assetPath: 'wh::a', reason: 'first a' },
    { assetPath: 'wh::a', reason: 'second a' },
    { assetPath: 'wh::b', reason: 'b' },
    { assetPath: 'wh::c', reason: 'c' },
  ]);
});

test('SQL-test rules: skipped tables sorted by path, ties in the order given', () => {
  const ov = SqlTestDeployOverview.parse({
    skippedTables: [
      { tablePath: 'wh::z', reason: 'z' },
      { tablePath: 'wh::m', reason: 'first m' },
      { tablePath: 'wh::m', reason: 'second m' },
      { tablePath: 'wh::a', reason: 'a' },
    ],
  });
  expect(sqlTestOverviewEffects('sql-test-overview', ov).skipped).toEqual([
    { assetPath: 'wh::a', reason: 'a' },
    { assetPath: 'wh::m', reason: 'first m' },
    { assetPath: 'wh::m', reason: 'second m' },
    { assetPath: 'wh::z', reason: 'z' },
  ]);
});

test('metric ids in enum order, duplicates once, names this version does not know after, numbers last', () => {
  expect(metricsText(['METRIC_ID_DELAY', 9999, 'METRIC_ID_ROW_COUNT', 'METRIC_ID_ZZZ', 'METRIC_ID_AAA', 'METRIC_ID_DELAY', 7777])).toBe('ROW_COUNT,DELAY,AAA,ZZZ,unknown(7777),unknown(9999)');
  expect(metricsText([])).toBe('-');
  expect(metricsText(undefined)).toBe('-');
});

test('per-metric sensitivities in the same order', () => {
  expect(
    renderSettings({
      severity: 'SEVERITY_ERROR',
      sensitivity: 'SENSITIVITY_BALANCED',
      metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT'],
      metricOptions: [
        { metricId: 4242, sensitivity: 'SENSITIVITY_PRECISE' },
        { metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_RELAXED' },
        { metricId: 'METRIC_ID_ZED', sensitivity: 'SENSITIVITY_RELAXED' },
        { metricId: 'METRIC_ID_ROW_COUNT', sensitivity: 'SENSITIVITY_PRECISE' },
        { metricId: 'METRIC_ID_ABC', sensitivity: 'SENSITIVITY_PRECISE' },
      ],
    } as never),
  ).toBe('ERROR/BALANCED/ROW_COUNT,DELAY (ROW_COUNT: PRECISE, DELAY: RELAXED, ABC: PRECISE, ZED: RELAXED, unknown(4242): PRECISE)');
});

describe('(added for the mutation run of src/handlers) delay models and settings', () => {
  const ov = DeploymentOverview.parse({ activeMonitorsFor: ['wh::a', 'wh::b'], monitorsToCreateFor: ['wh::b'] });
  const rule = (delayModel?: string) => ({ title: 't', queryConfig: delayModel ? { delayModel } : {} });

  test('the same delay model, an unspecified one or none on both sides resets nothing', () => {
    expect(overviewEffects('deploy-overview', ov, { action: 'update', before: rule('DELAY_MODEL_STANDARD'), after: rule('DELAY_MODEL_STANDARD') }).baselineResets).toEqual([]);
    expect(overviewEffects('deploy-overview', ov, { action: 'update', before: rule('DELAY_MODEL_UNSPECIFIED'), after: rule() }).baselineResets).toEqual([]);
    expect(overviewEffects('deploy-overview', ov, { action: 'update', before: { title: 't', productConfig: {} }, after: { title: 't', productConfig: {} } }).baselineResets).toEqual([]);
  });

  test('a delay model set where there was none resets the active monitors that are not new', () => {
    expect(overviewEffects('deploy-overview', ov, { action: 'update', before: rule(), after: rule('DELAY_MODEL_WEEKLY_PATTERN') }).baselineResets).toEqual([
      { assetPath: 'wh::a', reason: 'delay model changes from - to WEEKLY_PATTERN' },
    ]);
  });

  test('settings changes of one asset keep the platform order', () => {
    const two = DeploymentOverview.parse({
      monitorSettingsChanges: [
        { monitoredAssetPath: 'wh::b', originalSettings: { severity: 'SEVERITY_ERROR' }, newSettings: { severity: 'SEVERITY_WARNING' } },
        { monitoredAssetPath: 'wh::a', originalSettings: { severity: 'SEVERITY_ERROR' }, newSettings: { severity: 'SEVERITY_INFO' } },
        { monitoredAssetPath: 'wh::a', originalSettings: { severity: 'SEVERITY_INFO' }, newSettings: { severity: 'SEVERITY_WARNING' } },
      ],
    });
    expect(overviewEffects('deploy-overview', two).settingsChanges).toEqual([
      { assetPath: 'wh::a', from: 'ERROR/-/-', to: 'INFO/-/-' },
      { assetPath: 'wh::a', from: 'INFO/-/-', to: 'WARNING/-/-' },
      { assetPath: 'wh::b', from: 'ERROR/-/-', to: 'WARNING/-/-' },
    ]);
  });
});
