import { z } from 'zod';
import { Alert, AlertIdentifier, AlertSeverity, AlertSeverityEnum, AlertTarget, Grouping, IncidentState, IncidentStateEnum, Ongoing, alertRuleViolations } from '../../schemas/platform/alerts';
import { GrpcCodeEnum, HTTP_STATUS_OF_CODE, IamResponse, ProtoEnum, SourceEnum, Status, TokenResponse, VIOLATIONS_TYPE } from '../../schemas/platform/common';
import { DelayModelEnum, DeploymentRule, DeploymentRuleWrite, MetricIdEnum, SensitivityEnum, Severity, SeverityEnum } from '../../schemas/platform/deployment-rules';
import { CllStateEnum, EntityIdentifier, EntityTypeEnum, IDENTIFIER_VARIANTS, IdentifierVariant, LineageDirectionEnum, NodePositionEnum, Query, QueryOperandEnum, QueryPart } from '../../schemas/platform/entities';
import { DomainPart, OwnerContact, OwnershipSelection, PriorityEnum } from '../../schemas/platform/governance';
import { IntegrationConfig } from '../../schemas/platform/integrations';
import { DataPlatform, SqlTestWrite, TemplateTest } from '../../schemas/platform/sql-tests';

/** One sample per identifier variant; the monitor variant nests another identifier. */
const IDENTIFIERS: Record<IdentifierVariant, EntityIdentifier> = {
  transformCoreNode: { transformCoreNode: { integrationId: 'i1', nodeId: 'model.shop.orders' } },
  transformCloudNode: { transformCloudNode: { projectId: 'p', accountId: 'a', nodeId: 'n' } },
  warehouseProjectTable: { warehouseProjectTable: { project: 'p', dataset: 'd', table: 't' } },
  warehouseAccountTable: { warehouseAccountTable: { account: 'wh-prod', database: 'db', schema: 'mart', table: 'orders' } },
  warehouseClusterTable: { warehouseClusterTable: { cluster: 'c', database: 'd', schema: 's', table: 't' } },
  relationalTable: { relationalTable: { host: 'pg.internal', database: 'd', schema: 's', table: 't' } },
  mysqlLikeTable: { mysqlLikeTable: { host: 'my.internal', schema: 's', table: 't' } },
  columnStoreTable: { columnStoreTable: { host: 'ch.internal', schema: 's', table: 't' } },
  orchestrationDag: { orchestrationDag: { integrationId: 'af', dagId: 'daily' } },
  orchestrationTask: { orchestrationTask: { integrationId: 'af', dagId: 'daily', taskId: 'load' } },
  custom: { custom: { id: 'my-entity' } },
  dataproduct: { dataproduct: { id: '0b7f6c1e-1b1a-4c8e-9d3e-0a1b2c3d4e5f' } },
  platformPath: { platformPath: { path: 'wh-prod::mart::orders' } },
  lakehouseTable: { lakehouseTable: { workspace: 'https://lake.example', catalog: 'c', schema: 's', table: 't' } },
  queryEngineTable: { queryEngineTable: { host: 'trino', catalog: 'c', schema: 's', table: 't' } },
  sqlModel: { sqlModel: { integrationId: 'i', fqn: 'db.model' } },
  sqlAudit: { sqlAudit: { integrationId: 'i', fqn: 'db.model', auditId: 'a1' } },
  monitor: {
    monitor: {
      monitoredId: { monitor: { monitoredId: { custom: { id: 'deep' } }, monitorId: 'inner', integrationId: 'i' } },
      monitorId: 'm1',
      segment: 'region=eu',
      integrationId: 'i',
    },
  },
};

function messages(r: z.ZodSafeParseResult<unknown>): string[] {
  return r.success ? [] : r.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('entity identifier', () => {
  it('covers all 18 variants', () => {
    expect(Object.keys(IDENTIFIERS).sort()).toEqual([...IDENTIFIER_VARIANTS].sort());
    expect(IDENTIFIER_VARIANTS).toHaveLength(18);
  });

  it.each(Object.entries(IDENTIFIERS))('%s round-trips through JSON', (_variant, id) => {
    const parsed = EntityIdentifier.parse(JSON.parse(JSON.stringify(id)));
    expect(parsed).toEqual(id);
  });

  it('rejects zero variants, naming the oneof', () => {
    expect(messages(EntityIdentifier.safeParse({}))[0]).toMatch(/exactly one of transformCoreNode, .* must be set; none is/);
  });

  it('rejects two variants, naming both', () => {
    const m = messages(EntityIdentifier.safeParse({ ...IDENTIFIERS.custom, ...IDENTIFIERS.platformPath }));
    expect(m[0]).toMatch(/got custom and platformPath/);
  });

  it('reports a nested monitor error with its path', () => {
    const bad = { monitor: { monitoredId: { custom: { id: 7 } }, monitorId: 'm', integrationId: 'i' } };
    expect(messages(EntityIdentifier.safeParse(bad))).toEqual([expect.stringMatching(/^monitor\.monitoredId\.custom\.id: /)]);
  });

  it('refuses a host with a port (relational tables carry no port)', () => {
    const bad = { relationalTable: { host: 'pg:5432', database: 'd', schema: 's', table: 't' } };
    expect(messages(EntityIdentifier.safeParse(bad))[0]).toMatch(/relationalTable\.host: host must not carry a port/);
  });
});

describe('oneofs reject zero and two keys', () => {
  const cases: [string, z.ZodType, unknown, unknown][] = [
    ['alert target', AlertTarget, {}, { slack: { channel: '#a' }, webhook: { webhookId: 'w' } }],
    ['alert identifier', AlertIdentifier, {}, { id: 'a', fqn: 'b' }],
    ['ongoing', Ongoing, {}, { disabled: {}, stream: {} }],
    ['grouping', Grouping, {}, { noGrouping: {}, systemDetected: {} }],
    ['data platform', DataPlatform, {}, { unknown: {}, integrationId: 'x' }],
    ['template test', TemplateTest, {}, { notNull: { columns: ['a'] }, unique: { columns: ['a'] } }],
    ['domain part', DomainPart, {}, { entityId: 'e', domainId: 'd' }],
    ['owner contact', OwnerContact, {}, { slack: { channel: '#a' }, users: { userEmails: ['a@b.co'] } }],
    ['ownership selection', OwnershipSelection, {}, { dataproductId: 'x', query: { resolverQl: 'with_tag("a")' } }],
    ['integration config', IntegrationConfig, {}, { warehouseProject: { projectId: 'p' }, mysqlLike: { host: 'h', user: 'u' } }],
    ['query part', QueryPart, {}, { withNameSearch: { searchQuery: 'a' }, inFolder: { path: ['x'] } }],
  ];
  it.each(cases)('%s', (_name, schema, zero, two) => {
    expect(messages(schema.safeParse(zero)).join('\n')).toMatch(/must be set; none is/);
    expect(messages(schema.safeParse(two)).join('\n')).toMatch(/must be set; got \w+ and \w+/);
  });

  it('an alert needs exactly one kind', () => {
    const base = { id: 'a1', name: 'n', fqn: 'ns.a' };
    expect(messages(Alert.safeParse(base)).join()).toMatch(/issueLifecycle, schemaChange, incidentLifecycle must be set; none is/);
    const targets = [{ slack: { channel: '#x' } }];
    const two = { ...base, schemaChange: { trigger: {}, targets }, incidentLifecycle: { targets, settings: { states: [1] } } };
    expect(messages(Alert.safeParse(two)).join()).toMatch(/got schemaChange and incidentLifecycle/);
  });

  it('a deployment rule needs exactly one config', () => {
    const base = { id: '0b7f6c1e-1b1a-4c8e-9d3e-0a1b2c3d4e5f', title: 't' };
    expect(messages(DeploymentRuleWrite.safeParse(base)).join()).toMatch(/queryConfig, exclusiveQueryConfig, staticConfig, exclusiveStaticConfig, productConfig must be set; none is/);
  });
});

describe('enums accept name and number and parse to the name', () => {
  const enums: [string, ProtoEnum<string>][] = [
    ['source', SourceEnum],
    ['entity type', EntityTypeEnum],
    ['query operand', QueryOperandEnum],
    ['alert severity', AlertSeverityEnum],
    ['incident state', IncidentStateEnum],
    ['rule severity', SeverityEnum],
    ['sensitivity', SensitivityEnum],
    ['metric id', MetricIdEnum],
    ['delay model', DelayModelEnum],
    ['priority', PriorityEnum],
    ['node position', NodePositionEnum],
    ['cll state', CllStateEnum],
    ['lineage direction', LineageDirectionEnum],
    ['grpc code', GrpcCodeEnum],
  ];
  it.each(enums)('%s', (_name, e) => {
    for (const name of e.values) {
      expect(e.schema.parse(name)).toBe(name);
      expect(e.schema.parse(e.numbers[name])).toBe(name);
    }
    expect(e.schema.safeParse('NOT_A_VALUE').success).toBe(false);
    expect(e.schema.safeParse(987654).success).toBe(false);
  });

  it('numbering follows upstream facts', () => {
    expect(AlertSeverityEnum.numbers.SEVERITY_FATAL).toBe(3);
    expect(AlertSeverityEnum.numbers.SEVERITY_WARN).toBe(1);
    // the old spellings still parse, to the platform's names
    expect(AlertSeverity.parse('ALERT_SEVERITY_FATAL')).toBe('SEVERITY_FATAL');
    expect(AlertSeverityEnum.aliases.ALERT_SEVERITY_WARN).toBe('SEVERITY_WARN');
    expect(SeverityEnum.numbers.SEVERITY_INFO).toBe(3);
    expect(EntityTypeEnum.numbers.ENTITY_TYPE_WAREHOUSE_ACCOUNT_VIEW).toBe(508);
    expect(PriorityEnum.numbers.PRIORITY_P1).toBe(5);
    expect(QueryOperandEnum.numbers.QUERY_OPERAND_EXCEPT).toBe(3);
  });

  it('zero values are refused where a value is required', () => {
    expect(messages(Severity.safeParse(0)).join()).toMatch(/SEVERITY_UNSPECIFIED is refused/);
    expect(messages(IncidentState.safeParse('STATE_UNSPECIFIED')).join()).toMatch(/refused/);
  });
});

describe('resource shapes', () => {
  const rule = {
    id: '0b7f6c1e-1b1a-4c8e-9d3e-0a1b2c3d4e5f',
    title: 'Mart tables',
    queryConfig: { resolverQl: 'with_type("table")', severity: 2, sensitivity: 'SENSITIVITY_BALANCED', metricIds: [1, 2] },
  };

  it('parses a rule read with unknown fields tolerated and enums named', () => {
    const parsed = DeploymentRule.parse({ ...rule, monitorCount: 4, futureField: true });
    expect(parsed.queryConfig?.metricIds).toEqual(['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY']);
    expect(parsed).not.toHaveProperty('futureField');
  });

  it.each([
    ['empty metric list', { ...rule, queryConfig: { ...rule.queryConfig, metricIds: [] } }, /queryConfig\.metricIds: metricIds needs at least one metric/],
    ['duplicate metrics', { ...rule, queryConfig: { ...rule.queryConfig, metricIds: [1, 1] } }, /queryConfig\.metricIds: metricIds must be unique/],
    ['title too long', { ...rule, title: 'x'.repeat(101) }, /^title: /],
    ['id not a UUID', { ...rule, id: 'nope' }, /^id: must be a UUID/],
    ['severity zero', { ...rule, queryConfig: { ...rule.queryConfig, severity: 0 } }, /queryConfig\.severity: a value is required/],
  ])('rejects %s with a readable path', (_reason, input, re) => {
    expect(messages(DeploymentRuleWrite.safeParse(input)).join('\n')).toMatch(re);
  });

  it('SQL tests take an expression xor a template', () => {
    const base = { id: 't1', name: 'n', platform: { unknown: {} }, recurrenceRule: 'FREQ=DAILY' };
    expect(SqlTestWrite.safeParse({ ...base, sqlExpression: 'select 1' }).success).toBe(true);
    const template = { identifier: IDENTIFIERS.warehouseAccountTable, uniqueTest: { columnNames: ['id'] } };
    expect(SqlTestWrite.safeParse({ ...base, template }).success).toBe(true);
    expect(messages(SqlTestWrite.safeParse({ ...base, sqlExpression: 'x', template })).join()).toMatch(/got sqlExpression and template/);
  });

  it('EXCEPT queries take exactly two parts', () => {
    const q = { operand: 'QUERY_OPERAND_EXCEPT', parts: [{ withNameSearch: { searchQuery: 'a' } }] };
    expect(messages(Query.safeParse(q)).join()).toMatch(/parts: QUERY_OPERAND_EXCEPT takes exactly two parts/);
  });

  it('the error body, token and iam shapes parse', () => {
    const st = Status.parse({ code: 10, message: 'stale etag', details: [{ '@type': VIOLATIONS_TYPE, violations: [{ field: 'etag', ruleId: 'etag.fresh' }] }] });
    expect(st.details[0].violations?.[0].ruleId).toBe('etag.fresh');
    expect(TokenResponse.parse({ access_token: 'x', expires_in: 60, token_type: 'Bearer', extra: 1 }).expires_in).toBe(60);
    expect(IamResponse.safeParse({ workspace: 'demo', scopes: [] }).success).toBe(true);
    expect(HTTP_STATUS_OF_CODE.ABORTED).toBe(409);
  });

  it('integration secrets are marked write-only in the schema', () => {
    const json = z.toJSONSchema(IntegrationConfig, { io: 'input' }) as { properties: Record<string, { properties: Record<string, { writeOnly?: boolean }> }> };
    expect(json.properties.relational.properties.password.writeOnly).toBe(true);
    expect(json.properties.relational.properties.host.writeOnly).toBeUndefined();
  });

  it('alert kind and target rules are reported with rule ids', () => {
    const webhook = [{ webhook: { webhookId: 'w' } }];
    const v = alertRuleViolations({ name: 'n', fqn: 'f', schemaChange: { trigger: {}, targets: webhook, settings: { ongoing: { disabled: {} } } } });
    expect(v.map((x) => x.ruleId).sort()).toEqual(['alert.schema_change.ongoing', 'alert.schema_change.targets']);
    const issue = alertRuleViolations({
      name: 'n',
      fqn: 'f',
      issueLifecycle: { trigger: {}, targets: webhook, settings: { severities: ['SEVERITY_ERROR'], ongoing: { schedule: { cron: '0 * * * *' } } } },
    });
    expect(issue.map((x) => x.ruleId).sort()).toEqual(['alert.webhook.grouping', 'alert.webhook.schedule']);
  });
});
