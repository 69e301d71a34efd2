/**
 * Alerts v2 routes over real HTTP (spec 2.2, 4.3, 4.4, 7; upstream facts "Alerts v2").
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { canonicalResolverQl } from '../../schemas/tools/resolverql';
import { ERROR_INFO_TYPE, VIOLATIONS_TYPE } from '../../schemas/platform/common';
import { AlertResponse, BatchGetAlertsResponse, ListAlertsResponse } from '../../schemas/platform/alerts';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

let emu: RunningEmulator;
let admin: string;
let reader: string;

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'empty' });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
});
afterAll(async () => {
  await emu?.close();
});

const api = (method: string, path: string, body?: unknown, token = admin) => call(emu.url, method, `/api/alerts/v2${path}`, { token, body });

/** The rule ids of a google.rpc.Status body's violations. */
function ruleIds(body: { details?: { '@type': string; violations?: { ruleId?: string }[] }[] }): string[] {
  return (body.details ?? []).filter((d) => d['@type'] === VIOLATIONS_TYPE).flatMap((d) => (d.violations ?? []).map((v) => v.ruleId ?? ''));
}

let seq = 0;
const issueAlert = (over: Record<string, unknown> = {}) => ({
  name: 'Orders failing',
  fqn: `ns.alert-${++seq}`,
  configId: 'ns',
  issueLifecycle: {
    trigger: { resolverQl: 'and( with_type("table"), with_name("orders") )' },
    targets: [{ email: { recipientEmails: ['team@example.com'] } }],
    settings: { severities: ['SEVERITY_ERROR'] },
  },
  ...over,
});
const incidentAlert = () => ({
  name: 'Incidents',
  fqn: `ns.incident-${++seq}`,
  configId: 'ns',
  incidentLifecycle: { targets: [{ slack: { channel: '#incidents' } }], settings: { states: ['STATE_OPEN'] } },
});
async function create(alert: Record<string, unknown>) {
  const r = await api('POST', '', alert);
  expect(r.status).toBe(200);
  return r.body.alert;
}

describe('Create', () => {
  it('assigns an id, createdAt and an etag, stores configId, defaults source to SOURCE_API and renders the ResolverQL trigger', async () => {
    const a = await create(issueAlert());
    expect(a.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof a.createdAt).toBe('string');
    expect(a.etag).toBe(`W/"${a.id}-1"`);
    expect(a.configId).toBe('ns');
    expect(a.source).toBe('SOURCE_API');
    expect(a.isDisabled).toBe(false);
    expect(a.issueLifecycle.trigger.renderedResolverQl).toBe(canonicalResolverQl('and(with_type("table"),with_name("orders"))'));
    expect(a.issueLifecycle.trigger.renderedResolverQl).toBe('and(with_type("table"),with_name("orders"))');
    expect(a.issueLifecycle.trigger.query.parts.length).toBe(2);
  });

  it('takes source from the body', async () => {
    const a = await create({ ...issueAlert(), source: 'SOURCE_APP' });
    expect(a.source).toBe('SOURCE_APP');
  });

  it('refuses a taken fqn with ALREADY_EXISTS (409)', async () => {
    const a = await create(issueAlert());
    const r = await api('POST', '', issueAlert({ fqn: a.fqn }));
    expect(r.status).toBe(409);
    expectStatus(r.body, 6);
  });

  const invalid: { reason: string; alert: Record<string, unknown>; ruleId: string }[] = [
    {
      reason: 'incident-lifecycle alerts refuse e-mail targets',
      alert: { ...incidentAlert(), incidentLifecycle: { targets: [{ email: { recipientEmails: ['a@b.co'] } }], settings: { states: ['STATE_OPEN'] } } },
      ruleId: 'alert.incident_lifecycle.targets',
    },
    {
      reason: 'schema-change alerts refuse webhook targets',
      alert: { name: 'sc', fqn: 'ns.sc-webhook', schemaChange: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ webhook: { webhookId: 'w1' } }] } },
      ruleId: 'alert.schema_change.targets',
    },
    {
      reason: 'schema-change alerts refuse ongoing disabled',
      alert: { name: 'sc', fqn: 'ns.sc-disabled', schemaChange: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ slack: { channel: '#x' } }], settings: { ongoing: { disabled: {} } } } },
      ruleId: 'alert.schema_change.ongoing',
    },
    {
      reason: 'webhook targets need noGrouping on issue alerts',
      alert: issueAlert({ issueLifecycle: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ webhook: { webhookId: 'w' } }], settings: { severities: ['SEVERITY_WARN'] } } }),
      ruleId: 'alert.webhook.grouping',
    },
    {
      reason: 'bad ResolverQL is INVALID_ARGUMENT with the parser message',
      alert: issueAlert({ issueLifecycle: { trigger: { resolverQl: 'with_type(' }, targets: [{ slack: { channel: '#x' } }], settings: { severities: [2] } } }),
      ruleId: 'create.trigger.resolver_ql',
    },
    {
      reason: 'an alert holds exactly one kind',
      alert: { ...issueAlert(), incidentLifecycle: incidentAlert().incidentLifecycle },
      ruleId: 'create.oneof',
    },
  ];
  it.each(invalid)('refuses: $reason', async ({ alert, ruleId }) => {
    const r = await api('POST', '', alert);
    expect(r.status).toBe(400);
    expectStatus(r.body, 3);
    expect(ruleIds(r.body)).toContain(ruleId);
  });

  it('puts the parser message of bad ResolverQL in the error', async () => {
    const r = await api('POST', '', issueAlert({ issueLifecycle: { trigger: { resolverQl: 'with_type(' }, targets: [{ slack: { channel: '#x' } }], settings: { severities: [2] } } }));
    expect(r.body.message).toMatch(/offset \d+/);
  });
});

describe('Upsert', () => {
  it('creates when no alert holds the fqn, then replaces it keeping id and createdAt', async () => {
    const w = issueAlert();
    const first = await api('PUT', '', w);
    expect(first.status).toBe(200);
    const second = await api('PUT', '', { ...w, name: 'Renamed by upsert', template: { title: 't' }, etag: first.body.alert.etag });
    expect(second.status).toBe(200);
    expect(second.body.alert.id).toBe(first.body.alert.id);
    expect(second.body.alert.createdAt).toBe(first.body.alert.createdAt);
    expect(second.body.alert.name).toBe('Renamed by upsert');
    expect(second.body.alert.etag).not.toBe(first.body.alert.etag);
  });

  it('refuses a stale etag with ABORTED (409)', async () => {
    const w = issueAlert();
    const a = (await api('PUT', '', w)).body.alert;
    await api('PUT', '', { ...w, name: 'moved on' });
    const r = await api('PUT', '', { ...w, name: 'late', etag: a.etag });
    expect(r.status).toBe(409);
    expectStatus(r.body, 10);
  });

  const refused: { reason: string; change: (w: ReturnType<typeof issueAlert>) => Record<string, unknown>; ruleId: string }[] = [
    {
      reason: 'changing the kind is a replace',
      change: (w) => ({ name: w.name, fqn: w.fqn, incidentLifecycle: incidentAlert().incidentLifecycle }),
      ruleId: 'upsert.kind_unchanged',
    },
    {
      reason: 'changing issueLifecycle.owner is a replace',
      change: (w) => ({ ...w, issueLifecycle: { ...w.issueLifecycle, owner: { ownerPath: 'owner-5eed0000-0000-4000-8000-000000000e7a', ownershipId: '5eed0000-0000-4000-8000-0000000000aa' } } }),
      ruleId: 'upsert.owner_unchanged',
    },
  ];
  it.each(refused)('refuses with FAILED_PRECONDITION: $reason', async ({ change, ruleId }) => {
    const w = issueAlert();
    await api('PUT', '', w);
    const r = await api('PUT', '', change(w));
    expect(r.status).toBe(400);
    expectStatus(r.body, 9);
    expect(ruleIds(r.body)).toEqual([ruleId]);
  });
});

describe('UpdateSettings (spec 4.4)', () => {
  const cases: { reason: string; target: 'issue' | 'incident'; body: Record<string, unknown>; status: number; code: number; ruleId: string }[] = [
    { reason: 'rule 1: neither trigger nor settings', target: 'issue', body: {}, status: 400, code: 3, ruleId: 'update_settings.at_least_one_facet' },
    {
      reason: 'rule 4: trigger together with incident lifecycle settings',
      target: 'issue',
      body: { trigger: { resolverQl: 'with_type("table")' }, incidentLifecycle: { states: ['STATE_OPEN'] } },
      status: 400,
      code: 3,
      ruleId: 'update_settings.trigger_requires_entity',
    },
    {
      reason: 'rule 4: trigger on an incident lifecycle (non-entity) alert',
      target: 'incident',
      body: { trigger: { resolverQl: 'with_type("table")' } },
      status: 400,
      code: 3,
      ruleId: 'update_settings.trigger_requires_entity',
    },
    {
      reason: 'rule 3: settings of another kind would change the kind',
      target: 'issue',
      body: { schemaChange: { notifyUpstream: true } },
      status: 400,
      code: 9,
      ruleId: 'update_settings.kind_unchanged',
    },
    {
      reason: 'rule 3: incident settings on an issue alert',
      target: 'issue',
      body: { incidentLifecycle: { states: ['STATE_CLOSED'] } },
      status: 400,
      code: 9,
      ruleId: 'update_settings.kind_unchanged',
    },
  ];
  it.each(cases)('refuses $reason', async ({ target, body, status, code, ruleId }) => {
    const a = await create(target === 'issue' ? issueAlert() : incidentAlert());
    const r = await api('POST', '/settings', { identifier: { id: a.id }, ...body });
    expect(r.status).toBe(status);
    expectStatus(r.body, code);
    expect(ruleIds(r.body)).toContain(ruleId);
  });

  it('rule 5: a stale etag is ABORTED (409)', async () => {
    const a = await create(issueAlert());
    await api('POST', '/rename', { identifier: { id: a.id }, name: 'changed' });
    const r = await api('POST', '/settings', { identifier: { id: a.id }, issueLifecycle: { severities: ['SEVERITY_FATAL'] }, etag: a.etag });
    expect(r.status).toBe(409);
    expectStatus(r.body, 10);
  });

  it('rule 2: an omitted facet is left unchanged (trigger only, then settings only)', async () => {
    const a = await create(issueAlert());
    const t = await api('POST', '/settings', { identifier: { fqn: a.fqn }, trigger: { resolverQl: 'with_tag( "staging" )' }, etag: a.etag });
    expect(t.status).toBe(200);
    expect(t.body.alert.issueLifecycle.trigger.renderedResolverQl).toBe('with_tag("staging")');
    expect(t.body.alert.issueLifecycle.settings).toEqual(a.issueLifecycle.settings);
    const s = await api('POST', '/settings', { identifier: { id: a.id }, issueLifecycle: { severities: [3], notifyUpstream: true }, etag: t.body.alert.etag });
    expect(s.status).toBe(200);
    expect(s.body.alert.issueLifecycle.settings).toEqual({ severities: ['SEVERITY_FATAL'], notifyUpstream: true });
    expect(s.body.alert.issueLifecycle.trigger).toEqual(t.body.alert.issueLifecycle.trigger);
    expect(s.body.alert.issueLifecycle.targets).toEqual(a.issueLifecycle.targets);
  });

  it('updates incident lifecycle states of an incident alert', async () => {
    const a = await create(incidentAlert());
    const r = await api('POST', '/settings', { identifier: { id: a.id }, incidentLifecycle: { states: ['STATE_OPEN', 'STATE_CLOSED'] } });
    expect(r.status).toBe(200);
    expect(r.body.alert.incidentLifecycle.settings.states).toEqual(['STATE_OPEN', 'STATE_CLOSED']);
  });

  it('answers 404 for an unknown alert', async () => {
    const r = await api('POST', '/settings', { identifier: { fqn: 'nope' }, issueLifecycle: { severities: [1] } });
    expect(r.status).toBe(404);
    expectStatus(r.body, 5);
  });
});

describe('other writes', () => {
  it('Rename, UpdateTargets (replaces), UpdateTemplate (omit clears), ToggleEnabled each bump the etag', async () => {
    const a = await create(issueAlert({ template: { title: 'T', plain: 'P' } }));
    const etags = [a.etag];
    const renamed = await api('POST', '/rename', { identifier: { id: a.id }, name: 'New name' });
    expect(renamed.body.alert.name).toBe('New name');
    etags.push(renamed.body.alert.etag);
    const targets = await api('POST', '/targets', { identifier: { fqn: a.fqn }, targets: [{ slack: { channel: '#new' } }] });
    expect(targets.body.alert.issueLifecycle.targets).toEqual([{ slack: { channel: '#new' } }]);
    etags.push(targets.body.alert.etag);
    const cleared = await api('POST', '/template', { identifier: { id: a.id } });
    expect(cleared.status).toBe(200);
    expect(cleared.body.alert.template).toBeUndefined();
    etags.push(cleared.body.alert.etag);
    const set = await api('POST', '/template', { identifier: { id: a.id }, template: { plain: 'hello' } });
    expect(set.body.alert.template).toEqual({ plain: 'hello' });
    etags.push(set.body.alert.etag);
    // ToggleEnabled answers {} (wire-facts); the flag is read back
    const get = async () => (await api('POST', '/get', { identifiers: [{ id: a.id }] })).body.alerts[a.id];
    const off = await api('POST', '/toggle', { identifier: { id: a.id }, isEnabled: false });
    expect(off.body).toEqual({});
    expect((await get()).isDisabled).toBe(true);
    etags.push((await get()).etag);
    const on = await api('POST', '/toggle', { identifier: { id: a.id }, isEnabled: true });
    expect(on.body).toEqual({});
    expect((await get()).isDisabled).toBe(false);
    etags.push((await get()).etag);
    expect(new Set(etags).size).toBe(etags.length);
  });

  it('UpdateTargets checks the kind/target rules', async () => {
    const a = await create(incidentAlert());
    const bad = await api('POST', '/targets', { identifier: { id: a.id }, targets: [{ msTeams: { channel: 'c' } }] });
    expect(bad.status).toBe(400);
    expect(ruleIds(bad.body)).toContain('alert.incident_lifecycle.targets');
  });

  // wire-facts 3: Rename, UpdateTargets, UpdateTemplate and ToggleEnabled declare no etag (the spec
  // gives one to Upsert, Delete and UpdateSettings only); the real gateway would drop one silently,
  // so the emulator refuses it as undeclared (strict), whatever its value, and changes nothing
  it.each([
    ['/rename', 'rename', (id: string) => ({ identifier: { id }, name: 'x' })],
    ['/targets', 'update_targets', (id: string) => ({ identifier: { id }, targets: [{ slack: { channel: '#x' } }] })],
    ['/template', 'update_template', (id: string) => ({ identifier: { id }, template: { plain: 'x' } })],
    ['/toggle', 'toggle_enabled', (id: string) => ({ identifier: { id }, isEnabled: false })],
  ])('%s refuses an etag as an undeclared key', async (path, op, body) => {
    const a = await create(issueAlert());
    for (const etag of [a.etag, 'W/"x-1"']) {
      const r = await api('POST', path, { ...body(a.id), etag });
      expect(r.status).toBe(400);
      expect(ruleIds(r.body)).toEqual([`${op}.unknown_field`]);
    }
    const now = (await api('POST', '/get', { identifiers: [{ id: a.id }] })).body.alerts[a.id];
    expect(now.etag).toBe(a.etag);
  });

  it('Delete takes a JSON body, honours the etag, and a second delete is 404', async () => {
    const a = await create(issueAlert());
    const stale = await api('DELETE', '', { identifier: { id: a.id }, etag: 'W/"stale"' });
    expect(stale.status).toBe(409);
    const ok = await api('DELETE', '', { identifier: { fqn: a.fqn }, etag: a.etag });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({});
    const again = await api('DELETE', '', { identifier: { id: a.id } });
    expect(again.status).toBe(404);
    // The fqn is free again.
    await create(issueAlert({ fqn: a.fqn }));
  });

  it('ToggleIncidentOwnerAlert sets the workspace flag', async () => {
    for (const isEnabled of [true, false]) {
      const r = await api('POST', '/incident-owner', { isEnabled });
      expect(r.body).toEqual({ isEnabled });
      expect(emu.app.store.workspace('demo').collection<{ isEnabled: boolean }>('alertWorkspaceSettings').get('incidentOwnerAlert')?.isEnabled).toBe(isEnabled);
    }
  });

  it('SendTestAlert takes { name, kind, targets }, answers one dispatch per target and records a delivery each', async () => {
    const deliveries = emu.app.store.workspace('demo').collection<{ target: unknown; kind: string }>('deliveries');
    const before = deliveries.count;
    const r = await api('POST', '/test', { name: 'check', kind: 1, targets: [{ slack: { channel: '#a' } }, { email: { recipientEmails: ['x@y.io'] } }] });
    expect(r.status).toBe(200);
    expect(r.body.dispatches).toEqual([
      { target: { slack: { channel: '#a' } }, dispatched: true },
      { target: { email: { recipientEmails: ['x@y.io'] } }, dispatched: true },
    ]);
    expect(deliveries.count - before).toBe(2);
    expect(deliveries.values().filter((d) => d.kind === 'TEST_ALERT').map((d) => d.target)).toContainEqual({ slack: { channel: '#a' } });
    const wrong = await api('POST', '/test', { targets: [{ slack: { channel: '#a' } }], deliveryMode: 'now' });
    expect(wrong.status).toBe(400);
    expect(ruleIds(wrong.body)).toEqual(['send_test_alert.unknown_field']);
  });
});

describe('reads', () => {
  it('List takes only an owner filter (wire-facts); configsFilter/sources are refused as undeclared keys', async () => {
    const owner = { ownerPath: 'owner-5eed0000-0000-4000-8000-000000000e7a', ownershipId: '5eed0000-0000-4000-8000-0000000000aa' };
    const mine = await create(issueAlert({ configId: 'team-a' }));
    const owned = await create(issueAlert({ issueLifecycle: { ...issueAlert().issueLifecycle, owner } }));
    const ui = await create({ ...issueAlert(), configId: undefined, source: 'SOURCE_APP' });
    const all = (await api('POST', '/list', {})).body.alertsIds as string[];
    expect(all).toEqual(expect.arrayContaining([mine.id, owned.id, ui.id]));
    expect([...all].sort()).toEqual(all);
    expect((await api('POST', '/list', { owner })).body.alertsIds).toEqual([owned.id]);
    const r = await api('POST', '/list', { configsFilter: { ids: ['team-a'] } });
    expect(r.status).toBe(400);
    expect(ruleIds(r.body)).toEqual(['list.unknown_field']);
  });

  it('BatchGet by id or fqn keys the map by id and omits missing identifiers', async () => {
    const a = await create(issueAlert());
    const b = await create(incidentAlert());
    const r = await api('POST', '/get', { identifiers: [{ id: a.id }, { fqn: b.fqn }, { id: 'missing' }, { fqn: 'missing' }] });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.alerts).sort()).toEqual([a.id, b.id].sort());
    expect(r.body.alerts[b.id].fqn).toBe(b.fqn);
  });

  it('answers bodies that parse with the shared response schemas (what the client validates)', async () => {
    const a = await create(issueAlert());
    const b = await create(incidentAlert());
    expect(AlertResponse.safeParse({ alert: a }).success).toBe(true);
    expect(ListAlertsResponse.safeParse((await api('POST', '/list', {})).body).success).toBe(true);
    const got = await api('POST', '/get', { identifiers: [{ id: a.id }, { id: b.id }] });
    expect(BatchGetAlertsResponse.safeParse(got.body).success).toBe(true);
  });

  // wire-facts 3: BatchGet `identifiers[]` (>= 1, no max): the platform takes 201, so must the emulator
  it('BatchGet takes more than 200 identifiers (no limit declared)', async () => {
    const a = await create(issueAlert());
    const identifiers = [...Array.from({ length: 200 }, (_, i) => ({ id: `x${i}` })), { id: a.id }];
    const r = await api('POST', '/get', { identifiers });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body.alerts)).toEqual([a.id]);
  });
});

describe('scopes', () => {
  it('the reader can list and batch-get', async () => {
    const a = await create(issueAlert());
    expect((await api('POST', '/list', {}, reader)).status).toBe(200);
    const r = await api('POST', '/get', { identifiers: [{ id: a.id }] }, reader);
    expect(r.status).toBe(200);
    expect(r.body.alerts[a.id].id).toBe(a.id);
  });

  const writes: [string, string, unknown][] = [
    ['POST', '', issueAlert()],
    ['PUT', '', issueAlert()],
    ['DELETE', '', { identifier: { id: 'x' } }],
    ['POST', '/rename', { identifier: { id: 'x' }, name: 'n' }],
    ['POST', '/settings', { identifier: { id: 'x' } }],
    ['POST', '/targets', { identifier: { id: 'x' }, targets: [] }],
    ['POST', '/template', { identifier: { id: 'x' } }],
    ['POST', '/toggle', { identifier: { id: 'x' }, isEnabled: true }],
    ['POST', '/incident-owner', { isEnabled: true }],
    ['POST', '/test', { targets: [] }],
  ];
  it.each(writes)('the reader cannot %s /api/alerts/v2%s (403 naming SCOPE_MCP_WRITE)', async (method, path, body) => {
    const r = await api(method, path, body, reader);
    expect(r.status).toBe(403);
    const s = expectStatus(r.body, 7);
    expect(s.message).toContain('SCOPE_MCP_WRITE');
    // Upsert is filed under SCOPE_MCP_WRITE only (spec); the others also take SCOPE_ALERTS_EDIT
    expect(s.details.find((d) => d['@type'] === ERROR_INFO_TYPE)?.metadata?.scope).toBe(method === 'PUT' ? 'SCOPE_MCP_WRITE' : 'SCOPE_ALERTS_EDIT');
  });

  it('SCOPE_ALERTS_EDIT alone can create and delete (any-of), but not upsert', async () => {
    emu.app.addCredential('alerts-editor', 'sec', ['SCOPE_ALERTS_EDIT', 'SCOPE_ALERTS_READ']);
    const t = await tokenFor(emu.url, 'alerts-editor', 'sec');
    const created = await api('POST', '', issueAlert(), t);
    expect(created.status).toBe(200);
    expect((await api('PUT', '', issueAlert(), t)).status).toBe(403);
    expect((await api('DELETE', '', { identifier: { id: created.body.alert.id } }, t)).status).toBe(200);
  });
});

describe('demo seed', () => {
  it('has one UI-made alert: SOURCE_APP, no configId', async () => {
    const demo = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'demo' });
    try {
      const t = await tokenFor(demo.url, 'demo-reader');
      const ids = (await call(demo.url, 'POST', '/api/alerts/v2/list', { token: t, body: {} })).body.alertsIds as string[];
      expect(ids.length).toBeGreaterThanOrEqual(1);
      const got = (await call(demo.url, 'POST', '/api/alerts/v2/get', { token: t, body: { identifiers: ids.map((id) => ({ id })) } })).body.alerts;
      const a = got[ids[0]];
      expect(a.source).toBe('SOURCE_APP');
      expect(a.configId).toBeUndefined();
      expect(a.issueLifecycle.trigger.renderedResolverQl).toBe('with_type("table",filter=with_name("orders"))');
    } finally {
      await demo.close();
    }
  });
});
