/**
 * Pure parts of the handlers: replace reasons and the mapping of overviews to Effects.
 *
 * @gateway
 */
import { DeploymentOverview } from '../../schemas/platform/deployment-rules';
import { SqlTestDeployOverview } from '../../schemas/platform/sql-tests';
import { alertsHandler } from '../../src/kinds/alert/handler';
import { overviewEffects, renderSettings } from '../../src/kinds/monitor-deployment-rule/handler';
import { sqlTestOverviewEffects } from '../../src/kinds/sql-test-deployment-rule/handler';
import { HANDLERS } from '../../src/kinds/index';

const issue = (owner?: string) => ({ name: 'a', issueLifecycle: { trigger: { resolverQl: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] }, ...(owner ? { owner: { ownerPath: owner, ownershipId: `${owner}-ownership` } } : {}) } });

const withOwner = (ownerPath: string, ownershipId: string) => {
  const a = issue();
  return { ...a, issueLifecycle: { ...a.issueLifecycle, owner: { ownerPath, ownershipId } } };
};

describe('replaceReasons', () => {
  test.each([
    ['same kind and owner: in place', issue('owner-1'), issue('owner-1'), 0],
    ['name change only: in place', issue(), { ...issue(), name: 'b' }, 0],
    ['kind changes: replace', issue(), { name: 'a', schemaChange: { trigger: { resolverQl: 'with_tag("x")' }, targets: [{ slack: { channel: '#a' } }] } }, 1],
    ['owner set after create: replace', issue(), issue('owner-2'), 1],
    ['owner changes: replace', issue('owner-1'), issue('owner-2'), 1],
    // each half of the owner on its own (mutation testing: a change of the path alone went unnoticed)
    ['only the owner path changes: replace', issue('owner-1'), withOwner('owner-2', 'owner-1-ownership'), 1],
    ['only the ownership changes: replace', issue('owner-1'), withOwner('owner-1', 'other-ownership'), 1],
  ])('alerts: %s', (_r, before, after, n) => {
    const reasons = alertsHandler.replaceReasons(alertsHandler.fromDesired(before), alertsHandler.fromDesired(after));
    expect(reasons).toHaveLength(n);
    for (const r of reasons) expect(r).toMatch(/kind|owner/);
  });

  test('other kinds change everything in place', () => {
    for (const h of Object.values(HANDLERS)) if (h.type !== 'dq_alert') expect(h.replaceReasons({ a: 1 }, { a: 2 })).toEqual([]);
  });
});

describe('monitor rule overview -> Effects', () => {
  const ov = DeploymentOverview.parse({
    monitorsToCreateFor: ['wh::b', 'wh::a'],
    monitorsToDeleteFor: ['wh::old'],
    activeMonitorsFor: ['wh::a', 'wh::b', 'wh::c', 'wh::d'],
    customMonitorsToCreateFor: ['wh::a'],
    monitorSettingsChanges: [
      { monitoredAssetPath: 'wh::d', originalSettings: { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_DELAY', 'METRIC_ID_ROW_COUNT'] }, newSettings: { severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] } },
      { monitoredAssetPath: 'wh::c', originalSettings: { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] }, newSettings: { severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] } },
    ],
    skippedAssets: [{ assetPath: 'wh::z', reason: 'unsupported' }],
  });

  test('lists are sorted and merged, settings rendered short, metric changes reset baselines', () => {
    const e = overviewEffects('deploy-overview', ov);
    expect(e.monitorsToCreate).toEqual(['wh::a', 'wh::b']);
    expect(e.monitorsToDelete).toEqual(['wh::old']);
    expect(e.activeMonitors).toBe(4);
    expect(e.settingsChanges).toEqual([
      { assetPath: 'wh::c', from: 'ERROR/BALANCED/ROW_COUNT', to: 'ERROR/BALANCED/ROW_COUNT,DELAY' },
      { assetPath: 'wh::d', from: 'ERROR/BALANCED/ROW_COUNT,DELAY', to: 'WARNING/BALANCED/ROW_COUNT,DELAY' },
    ]);
    // only wh::c: its metric set changed; wh::d changed severity only (same metrics, reordered)
    expect(e.baselineResets).toEqual([{ assetPath: 'wh::c', reason: 'metrics change from ROW_COUNT to ROW_COUNT,DELAY' }]);
    expect(e.skipped).toEqual([{ assetPath: 'wh::z', reason: 'unsupported' }]);
  });

  test('a delay model change resets every monitor that stays active', () => {
    const before = { title: 't', queryConfig: { delayModel: 'DELAY_MODEL_STANDARD' } };
    const after = { title: 't', queryConfig: { delayModel: 'DELAY_MODEL_WEEKLY_PATTERN' } };
    const e = overviewEffects('deploy-overview', ov, { action: 'update', before, after });
    expect(e.baselineResets.map((r) => r.assetPath)).toEqual(['wh::c', 'wh::d']);
    expect(e.baselineResets[1].reason).toBe('delay model changes from STANDARD to WEEKLY_PATTERN');
  });

  test('renderSettings with missing parts', () => {
    expect(renderSettings({})).toBe('-/-/-');
  });
});

describe('SQL-test rule overview -> Effects', () => {
  const ov = SqlTestDeployOverview.parse({
    testsToCreate: [{ tablePath: 'wh::b', testName: 'unique id' }, { tablePath: 'wh::a', testName: 'unique id' }],
    testsToDelete: [{ tablePath: 'wh::c', testName: 'old', sqlTestPath: 'x' }],
    testsToKeep: [{ tablePath: 'wh::d', testName: 'kept' }],
    skippedTables: [{ tablePath: 'wh::v', reason: 'view' }],
  });
  test('deploy overview', () => {
    const e = sqlTestOverviewEffects('sql-test-overview', ov);
    expect(e.testsToCreate).toEqual(['wh::a/unique id', 'wh::b/unique id']);
    expect(e.testsToDelete).toEqual(['wh::c/old']);
    expect(e.testsToKeep).toEqual(['wh::d/kept']);
    expect(e.skipped).toEqual([{ assetPath: 'wh::v', reason: 'view' }]);
    expect(e.losesHistory).toBe(false);
  });
  test('delete overview loses history', () => {
    expect(sqlTestOverviewEffects('sql-test-delete-overview', ov).losesHistory).toBe(true);
  });
});
