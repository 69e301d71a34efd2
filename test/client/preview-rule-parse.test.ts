/**
 * The rule a deploy-overview preview asks about is parsed lean first (src/client/services/previews.ts
 * `parseRule`, issue 27: a plan previews every rule change): zod parses only a rule the lean
 * parser refuses, for its error, which is the one `schema.parse` throws.
 */
import { ZodError } from 'zod';
import { DeploymentRuleWrite } from '../../schemas/platform/deployment-rules';
import { SqlTestDeploymentRuleWrite } from '../../schemas/platform/sql-tests';
import { PlatformClient } from '../../src/client';
import { parseRule } from '../../src/client/services/previews';

const rule = { id: '5b0c7f3e-9a1d-4e2b-8c6f-0d1e2f3a4b5c', title: 'Mart', staticConfig: { path: 'wh::mart::t', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] }, source: 'SOURCE_API', configId: 'ns' };
const sqlRule = { id: '6c1d8a4f-0b2e-4f3c-9d70-1e2f3a4b5c6d', title: 'Dims', staticConfig: { path: 'wh::mart::t', recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', tests: [{ name: 'ids', notNullTest: { columnNames: ['id'] } }] }, source: 'SOURCE_API', configId: 'ns' };

afterEach(() => jest.restoreAllMocks());

it('the same output as zod; a refused rule throws the ZodError schema.parse throws', () => {
  expect(parseRule(DeploymentRuleWrite, rule)).toEqual(DeploymentRuleWrite.parse(rule));
  expect(parseRule(SqlTestDeploymentRuleWrite, sqlRule)).toEqual(SqlTestDeploymentRuleWrite.parse(sqlRule));
  const bad = { ...rule, staticConfig: { ...rule.staticConfig, severity: 'LOUD' } };
  let zodErr: unknown;
  try {
    DeploymentRuleWrite.parse(bad);
  } catch (e) {
    zodErr = e;
  }
  let ours: unknown;
  try {
    parseRule(DeploymentRuleWrite, bad);
  } catch (e) {
    ours = e;
  }
  expect(ours).toBeInstanceOf(ZodError);
  expect((ours as ZodError).issues).toEqual((zodErr as ZodError).issues);
});

it('the preview services do not run zod on a rule the lean parser accepts', async () => {
  const zod = [jest.spyOn(DeploymentRuleWrite, 'parse'), jest.spyOn(DeploymentRuleWrite, 'safeParse'), jest.spyOn(SqlTestDeploymentRuleWrite, 'parse'), jest.spyOn(SqlTestDeploymentRuleWrite, 'safeParse')];
  // nothing listens on port 9 of loopback: the calls fail after the parse, which is all this looks at
  const c = PlatformClient.create({ baseUrl: 'http://127.0.0.1:9', clientId: 'x', clientSecret: 'y-secret' }, { retry: { maxAttempts: 1 }, grpc: { previewTransport: 'rest' } });
  try {
    await c.deploymentRules.deployOverview(rule as never).catch(() => undefined);
    await c.sqlTestRules.overview(sqlRule as never).catch(() => undefined);
  } finally {
    await c.close();
  }
  for (const s of zod) expect(s).not.toHaveBeenCalled();
});
