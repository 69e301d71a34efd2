/** schemas/platform/wire.ts: the wire conventions driven by the zod schemas. Table-driven, a reason each. */
import { z } from 'zod';
import { Alert, AlertWrite, BatchGetAlertsResponse } from '../../schemas/platform/alerts';
import { protoEnum, withOneof } from '../../schemas/platform/common';
import { DeploymentRule, DeployOverviewRequest, ListDeploymentRulesRequest, ListDeploymentRulesResponse } from '../../schemas/platform/deployment-rules';
import { DesiredAlert } from '../../schemas/model/kinds/alerts';
import { Domain } from '../../schemas/platform/governance';
import { decodeRead, deprecatedEnums, fromQuery, marshal, QueryFormError, readClean, toQuery, toWire, tolerant, unknownKeys, unmodelledOf } from '../../schemas/platform/wire';

const issueAlert = {
  name: 'a',
  fqn: 'ns.a',
  source: 'SOURCE_API' as const,
  issueLifecycle: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR' as const, 'SEVERITY_FATAL' as const] } },
};

describe('toWire: enums as numbers', () => {
  test.each([
    { reason: 'top-level and nested enums, lists of enums', schema: AlertWrite, value: issueAlert, want: { ...issueAlert, source: 1, issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: [2, 3] } } } },
    { reason: 'a deprecated alias goes as the number of its current name', schema: AlertWrite, value: { ...issueAlert, issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: ['ALERT_SEVERITY_WARN'] } } }, want: { ...issueAlert, source: 1, issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: [1] } } } },
    { reason: 'a string that only looks like an enum name stays a string', schema: AlertWrite, value: { ...issueAlert, name: 'SEVERITY_ERROR' }, want: { ...issueAlert, name: 'SEVERITY_ERROR', source: 1, issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: [2, 3] } } } },
  ])('$reason', ({ schema, value, want }) => {
    expect(toWire(schema, value)).toEqual(want);
  });
});

describe('toQuery: dotted, repeated, numbers; no form for repeated or marker messages', () => {
  const RID = '0e000000-0000-4000-8000-000000000001';
  const staticRule = { id: RID, title: 't', staticConfig: { path: 'a::b', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'] } };
  test('a list request: repeated keys, enum numbers, pagination dotted, empty pagination sends nothing', () => {
    expect(toQuery(ListDeploymentRulesRequest, { sources: ['SOURCE_API'], configsFilter: { ids: ['a', 'b'] }, pagination: {} })).toEqual([
      ['configsFilter.ids', 'a'],
      ['configsFilter.ids', 'b'],
      ['sources', '1'],
    ]);
  });
  test('a rule in an overview request: scalar leaves only', () => {
    expect(toQuery(DeployOverviewRequest, { deploymentRule: staticRule })).toEqual([
      ['deploymentRule.id', RID],
      ['deploymentRule.staticConfig.metricIds', '1'],
      ['deploymentRule.staticConfig.metricIds', '2'],
      ['deploymentRule.staticConfig.path', 'a::b'],
      ['deploymentRule.staticConfig.sensitivity', '2'],
      ['deploymentRule.staticConfig.severity', '2'],
      ['deploymentRule.title', 't'],
    ]);
  });
  test.each([
    { reason: 'a repeated message', value: { ...staticRule, staticConfig: { ...staticRule.staticConfig, metricOptions: [{ metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_PRECISE' }] } }, field: 'deploymentRule.staticConfig.metricOptions' },
    { reason: 'an empty oneof marker', value: { id: 'r', title: 't', productConfig: { productId: 'p', severity: 1, sensitivity: 1, metricIds: [1], self: { all: {} } } }, field: 'deploymentRule.productConfig.self.all' },
  ])('$reason has no query form', ({ value, field }) => {
    const e = (() => {
      try {
        toQuery(DeployOverviewRequest, { deploymentRule: value });
      } catch (x) {
        return x;
      }
      return undefined;
    })();
    expect(e).toBeInstanceOf(QueryFormError);
    expect((e as QueryFormError).field).toBe(field);
  });
  test('fromQuery reads the same parameters back; a message parameter and an unknown one are reported', () => {
    const pairs = toQuery(DeployOverviewRequest, { deploymentRule: staticRule });
    const back = fromQuery(DeployOverviewRequest, [...pairs, ['deploymentRule', '{}'], ['deploymentRule.colour', 'red']]);
    expect(DeployOverviewRequest.parse(back.value).deploymentRule).toMatchObject(staticRule);
    expect(back.messages).toEqual(['deploymentRule']);
    expect(back.unknown).toEqual(['deploymentRule.colour']);
  });
});

describe('readClean and tolerant: what the platform may send', () => {
  const wireAlert = { id: 'a1', fqn: 'ns.a', name: 'a', source: 1, isDisabled: false, configId: '', template: null, issueLifecycle: { trigger: { resolverQl: 'x', renderedResolverQl: 'x', query: null }, targets: [{ slack: { channel: '#a' } }], settings: { severities: [2], notifyUpstream: false, ongoing: null, grouping: null }, owner: null } };
  test('null and zero values read as absent, enum numbers as names', () => {
    const got = BatchGetAlertsResponse.parse(readClean(BatchGetAlertsResponse, { alerts: { a1: wireAlert } }).value).alerts.a1;
    expect(unmodelledOf(got)).toBeUndefined();
    expect(got).toEqual({ id: 'a1', fqn: 'ns.a', name: 'a', source: 'SOURCE_API', issueLifecycle: { trigger: { resolverQl: 'x', renderedResolverQl: 'x' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } });
  });
  test.each([
    { reason: 'an unknown target kind', item: { ...wireAlert, issueLifecycle: { ...wireAlert.issueLifecycle, targets: [{ pagerDuty: { serviceKey: 'k' } }] } }, unknown: ['unknown variant "pagerDuty" at issueLifecycle.targets[0]'] },
    { reason: 'an unknown alert kind', item: { id: 'a2', fqn: 'ns.b', name: 'b', freshnessLifecycle: { targets: [] } }, unknown: ['unknown variant "freshnessLifecycle"'] },
    { reason: 'an unknown enum number', item: { ...wireAlert, issueLifecycle: { ...wireAlert.issueLifecycle, settings: { severities: [2, 9] } } }, unknown: ['unknown enum value 9 at issueLifecycle.settings.severities[1]'] },
    { reason: 'an unknown field', item: { ...wireAlert, escalation: { after: '1h' } }, unknown: ['unknown field escalation'] },
  ])('one item with $reason is marked, never a failure of the read', ({ item, unknown }) => {
    const r = decodeRead(BatchGetAlertsResponse, { alerts: { bad: item, a1: wireAlert } });
    expect(r.success).toBe(true);
    expect(unmodelledOf(r.data!.alerts.bad)).toEqual(unknown);
    expect(unmodelledOf(r.data!.alerts.a1)).toBeUndefined();
    // what is unknown is not data: JSON and object keys never show it
    expect(JSON.stringify(r.data!.alerts.bad)).not.toContain('unknown variant');
  });
  test('decodeRead marks an item that parses but carries an unknown field (omit-mode answer, no nulls), in a list', () => {
    const rule = { id: '0e000000-0000-4000-8000-000000000001', title: 't', staticConfig: { path: 'p', severity: 2, sensitivity: 2, metricIds: [1] } };
    const r = decodeRead(ListDeploymentRulesResponse, { deploymentRules: [rule, { ...rule, id: '0e000000-0000-4000-8000-000000000003', owner: 'x' }] });
    expect(r.success).toBe(true);
    expect(r.data!.deploymentRules.map((x) => unmodelledOf(x))).toEqual([undefined, ['unknown field owner']]);
    expect(r.data!.deploymentRules[0].staticConfig?.severity).toBe('SEVERITY_ERROR');
  });
  test('a required field left at its zero keeps its value (and a bad one is marked)', () => {
    const id = '0e000000-0000-4000-8000-000000000002';
    const rule = DeploymentRule.parse(readClean(DeploymentRule, { id, title: 't', monitorCount: 0, staticConfig: { path: 'p', severity: 2, sensitivity: 2, metricIds: [1] } }).value);
    expect(rule.monitorCount).toBeUndefined();
    expect(rule.staticConfig?.severity).toBe('SEVERITY_ERROR');
    const t = tolerant(DeploymentRule).parse({ id, title: 't', staticConfig: { path: 'p', severity: 0, sensitivity: 2, metricIds: [1] } });
    expect(unmodelledOf(t)?.[0]).toMatch(/staticConfig\.severity: a value is required/);
  });
  test('a domain whose part the server minted an id for, and whose query is read back rendered only', () => {
    const d = Domain.safeParse(readClean(Domain, { id: 'd', name: 'n', definition: { parts: [{ id: 'p-1', query: { renderedResolverQl: 'with_tag("x")' } }] } }).value);
    expect(d.success).toBe(true);
  });
});

describe('unknownKeys: what the strict emulator refuses', () => {
  test.each([
    { reason: 'the envelope form', value: { alert: issueAlert }, want: ['alert'] },
    { reason: 'a nested typo', value: { ...issueAlert, issueLifecycle: { ...issueAlert.issueLifecycle, setings: {} } }, want: ['issueLifecycle.setings'] },
    { reason: 'a key inside a list item', value: { ...issueAlert, issueLifecycle: { ...issueAlert.issueLifecycle, targets: [{ slack: { channel: '#a', colour: 'red' } }] } }, want: ['issueLifecycle.targets[0].slack.colour'] },
    { reason: 'the flat form', value: issueAlert, want: [] },
  ])('$reason', ({ value, want }) => {
    expect(unknownKeys(AlertWrite, value)).toEqual(want);
  });
});

describe('unknownKeys: every kind of node the walk goes through (issue 27: a first walk without paths decides whether there is any)', () => {
  const Leaf = z.object({ a: z.string().optional() });
  const S = z.object({
    list: z.array(Leaf).optional(),
    map: z.record(z.string(), Leaf).optional(),
    either: z.union([z.object({ x: z.string() }), z.object({ y: z.number() })]).optional(),
    open: z.looseObject({ k: z.string().optional() }).optional(),
    lazy: z.lazy(() => Leaf).optional(),
    late: tolerant(Leaf).optional(),
    text: z.string().optional(),
  });
  test.each([
    { reason: 'nothing unknown, every node used', value: { list: [{ a: 'x' }], map: { m: { a: 'y' } }, either: { y: 1 }, open: { k: 'k', extra: 1 }, lazy: { a: 'z' }, late: { a: 'w' }, text: 's' }, want: [] },
    { reason: 'in a list item', value: { list: [{ a: 'x' }, { b: 1 }] }, want: ['list[1].b'] },
    { reason: 'in a record value', value: { map: { m: { a: 'y', c: 2 } } }, want: ['map.m.c'] },
    { reason: 'in a union member', value: { either: { x: 'x', z: 3 } }, want: ['either.z'] },
    { reason: 'behind a lazy and a tolerant schema', value: { lazy: { d: 1 }, late: { e: 1 } }, want: ['lazy.d', 'late.e'] },
    { reason: 'at the top, with scalars and an array where objects are declared (not keys)', value: { top: 1, text: { not: 'walked' }, list: 'x', map: [] }, want: ['top'] },
    { reason: 'a list at the top of an object schema', value: [{ nope: 1 }], want: [] },
  ])('$reason', ({ value, want }) => {
    expect(unknownKeys(S, value)).toEqual(want);
    // the same one level down, in a list's second item
    expect(unknownKeys(z.array(S), [{}, value])).toEqual(want.map((k) => `[1].${k}`));
  });
});

describe('marshal: the gateway encodings', () => {
  const E = protoEnum({ E_UNSPECIFIED: 0, E_ONE: 1 });
  const M = withOneof({ s: z.string().optional(), n: z.number().optional(), b: z.boolean().optional(), l: z.array(z.string()).optional(), m: z.object({ x: z.string() }).optional(), e: E.schema.optional(), r: z.record(z.string(), z.string()).optional() }, { v1: z.object({}), v2: z.string() });
  test.each([
    { reason: 'emit-unpopulated, numbers: zeros, null messages, oneof members not emitted', opts: { emitUnpopulated: true, enumNumbers: true }, want: { s: '', n: 0, b: false, l: [], m: null, e: 0, r: {}, v2: 'x' } },
    { reason: 'emit-unpopulated, names: an unset enum as its zero name', opts: { emitUnpopulated: true, enumNumbers: false }, want: { s: '', n: 0, b: false, l: [], m: null, e: 'E_UNSPECIFIED', r: {}, v2: 'x' } },
    { reason: 'omit, numbers: only what is set', opts: { enumNumbers: true }, want: { v2: 'x' } },
  ])('$reason', ({ opts, want }) => {
    expect(marshal(M, { v2: 'x' }, opts)).toEqual(want);
  });
  test('a set enum goes as its number', () => {
    expect(marshal(M, { e: 'E_ONE', v1: {} }, { enumNumbers: true })).toEqual({ e: 1, v1: {} });
  });
  test('what one encoder writes, the client reads back to the same value', () => {
    const a = Alert.parse({ ...issueAlert, id: 'a1' });
    const wire = marshal(Alert, a, { emitUnpopulated: true, enumNumbers: true });
    expect(Alert.parse(readClean(Alert, JSON.parse(JSON.stringify(wire))).value)).toEqual(a);
  });
});

describe('deprecatedEnums', () => {
  test('finds the old spellings with their field and the new name', () => {
    const desired = { name: 'a', issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: ['ALERT_SEVERITY_ERROR', 'SEVERITY_FATAL'] } } };
    expect(deprecatedEnums(DesiredAlert, desired)).toEqual([{ field: 'issueLifecycle.settings.severities[0]', old: 'ALERT_SEVERITY_ERROR', now: 'SEVERITY_ERROR' }]);
  });
  test('an invalid value lists the allowed ones', () => {
    const r = DesiredAlert.safeParse({ name: 'a', issueLifecycle: { ...issueAlert.issueLifecycle, settings: { severities: ['SEVERITY_LOUD'] } } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0].message).toBe('expected one of SEVERITY_WARN, SEVERITY_ERROR, SEVERITY_FATAL (or their numbers 1, 2, 3); got "SEVERITY_LOUD"');
  });
});
