/**
 * Integrations v1 over real HTTP (spec 2.6, 3.4, 4.1, 7; upstream facts "Integrations v1").
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { ERROR_INFO_TYPE, QUOTA_FAILURE_TYPE, VIOLATIONS_TYPE } from '../../schemas/platform/common';
import { BatchGetIntegrationsResponse, IntegrationResponse, ListIntegrationsResponse, SECRET_FIELDS } from '../../schemas/platform/integrations';
import { DEFAULT_INTEGRATION_QUOTA, setIntegrationQuota } from '../../src/emulator/routes/integrations';
import { call, expectStatus, tokenFor } from './core-helpers';

/** These tests assert the emulator's exact response encoding: pinned to names and omitted unset fields (test/emulator/marshal.test.ts covers the gateway's other encodings). */
const EXACT_ENCODING = { marshal: 'omit', enums: 'names' } as const;

let emu: RunningEmulator;
let admin: string;
let reader: string;
const logLines: string[] = [];
const SECRET = 'S3cr3t-value-never-shown';

beforeAll(async () => {
  emu = await startEmulator({ ...EXACT_ENCODING, port: 0, seed: 'empty', log: (l) => logLines.push(l) });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
});
afterAll(async () => {
  await emu?.close();
});
afterEach(async () => {
  // Each test starts with no integrations and the default quota.
  setIntegrationQuota(emu.app, undefined);
  const list = await api('GET', '');
  for (const i of list.body.integrations) await api('DELETE', `/${i.id}`);
});

const api = (method: string, path: string, body?: unknown, token = admin) => call(emu.url, method, `/api/integrations/v1${path}`, { token, body });
const relational = (over: Record<string, unknown> = {}) => ({
  title: 'warehouse pg',
  config: { relational: { host: 'db.example.com', port: 5432, database: 'analytics', user: 'dq', password: SECRET, ...over } },
});
async function create(integration: Record<string, unknown> = relational()) {
  const r = await api('POST', '', integration);
  expect(r.status).toBe(200);
  return r.body.integration;
}
/** Whether the secret appears anywhere in a JSON value. */
const leaks = (v: unknown) => JSON.stringify(v).includes(SECRET);

describe('create, read, secrets', () => {
  it('mints a new id on every call, returns stored secrets as "" and never the value', async () => {
    const a = await create();
    const b = await create();
    expect(a.id).not.toBe(b.id);
    expect(a.disabled).toBe(false);
    expect(a.platform).toBe('relational');
    expect(a.etag).toBe(`W/"${a.id}-1"`);
    expect(a.config.relational.password).toBe('');
    expect(leaks(a)).toBe(false);
    const list = await api('GET', '');
    expect(list.body.integrations.map((i: { id: string }) => i.id)).toEqual([a.id, b.id].sort());
    expect(leaks(list.body)).toBe(false);
    const batch = await api('POST', '/by-id', { integrationIds: [a.id, 'missing', b.id] });
    expect(Object.keys(batch.body.integrations).sort()).toEqual([a.id, b.id].sort());
    expect(leaks(batch.body)).toBe(false);
    expect(logLines.some((l) => l.includes(SECRET))).toBe(false);
    // The bodies parse with the shared response schemas (what the client validates).
    expect(IntegrationResponse.safeParse({ integration: a }).success).toBe(true);
    expect(ListIntegrationsResponse.safeParse(list.body).success).toBe(true);
    expect(BatchGetIntegrationsResponse.safeParse(batch.body).success).toBe(true);
  });

  const secretVariants: { reason: string; config: Record<string, unknown>; field: (typeof SECRET_FIELDS)[number] }[] = [
    { reason: 'warehouseAccount password', config: { warehouseAccount: { account: 'acc', user: 'u', password: SECRET } }, field: 'password' },
    { reason: 'warehouseAccount keyPair.privateKeySecret (nested)', config: { warehouseAccount: { account: 'acc', user: 'u', keyPair: { privateKeySecret: SECRET, publicKey: 'pub' } } }, field: 'keyPair.privateKeySecret' as never },
    { reason: 'warehouseProject serviceAccountKey', config: { warehouseProject: { projectId: 'p', serviceAccountKey: SECRET } }, field: 'serviceAccountKey' },
    { reason: 'transformCloud token', config: { transformCloud: { apiEndpoint: 'https://x', accountId: '1', token: SECRET } }, field: 'token' },
  ];
  it.each(secretVariants)('never returns the secret: $reason', async ({ config, field }) => {
    const i = await create({ title: 't', config });
    const variant = Object.keys(config)[0];
    const at = (v: unknown, path: string) => path.split('.').reduce((x, k) => (x as Record<string, unknown>)[k], v);
    expect(at(i.config[variant], field)).toBe('');
    expect(leaks(i)).toBe(false);
  });

  it('validates the config oneof; the envelope form and unknown config fields are refused', async () => {
    const wrapped = await api('POST', '', { integration: relational() });
    expect(wrapped.status).toBe(400);
    expect(wrapped.body.message).toContain('"integration"');
    const oldField = await api('POST', '', { title: 't', config: { relational: { host: 'h', username: 'u' } } });
    expect(oldField.status).toBe(400);
    expect(oldField.body.message).toContain('config.relational.username');
    const r = await api('POST', '', { title: 't', config: {} });
    expect(r.status).toBe(400);
    expectStatus(r.body, 3);
    expect(r.body.details.some((d: { '@type': string }) => d['@type'] === VIOLATIONS_TYPE)).toBe(true);
  });
});

describe('quota (spec 7, 8)', () => {
  it('defaults to 20 per workspace', async () => {
    expect(DEFAULT_INTEGRATION_QUOTA).toBe(20);
    for (let i = 0; i < DEFAULT_INTEGRATION_QUOTA; i++) await create({ title: `t${i}`, config: { warehouseProject: { projectId: `p${i}` } } });
    const r = await api('POST', '', relational());
    expect(r.status).toBe(429);
    // a quota: RESOURCE_EXHAUSTED with a QuotaFailure detail (clients must not retry it)
    expect(expectStatus(r.body, 8).details.map((d) => d['@type'])).toContain(QUOTA_FAILURE_TYPE);
  });

  it('is configurable; a delete frees a slot', async () => {
    setIntegrationQuota(emu.app, 2);
    const a = await create();
    await create();
    const over = await api('POST', '', relational());
    expect(over.status).toBe(429);
    expectStatus(over.body, 8);
    expect(leaks(over.body)).toBe(false);
    expect((await api('DELETE', `/${a.id}`)).status).toBe(200);
    await create();
  });

  it('is per workspace', async () => {
    setIntegrationQuota(emu.app, 0, 'demo');
    emu.app.addCredential('other-admin', 'other-secret', ['SCOPE_INTEGRATION_EDIT'], 'other');
    const other = await tokenFor(emu.url, 'other-admin', 'other-secret');
    expect((await api('POST', '', relational())).status).toBe(429);
    const r = await api('POST', '', relational(), other);
    expect(r.status).toBe(200);
    expect((await api('GET', '')).body.integrations).toEqual([]);
    setIntegrationQuota(emu.app, undefined, 'demo');
  });
});

describe('update (PUT, etag)', () => {
  it('replaces the whole config and keeps an omitted secret', async () => {
    const a = await create();
    const r = await api('PUT', `/${a.id}`, { title: 'renamed', config: { relational: { host: 'db2', database: 'analytics', user: 'dq' } }, etag: a.etag });
    expect(r.status).toBe(200);
    expect(r.body.integration.title).toBe('renamed');
    expect(r.body.integration.config.relational).toEqual({ host: 'db2', database: 'analytics', user: 'dq', password: '' });
    expect(r.body.integration.etag).not.toBe(a.etag);
    // The stored secret is kept (write-only: visible in the store, not on the wire).
    const stored = emu.app.store.workspace('demo').collection<{ config: { relational: { password?: string } } }>('integrations').get(a.id);
    expect(stored?.config.relational.password).toBe(SECRET);
    // A new secret replaces it.
    await api('PUT', `/${a.id}`, relational({ password: 'new-one' }));
    // the config is required on update (the whole config, every time)
    expect((await api('PUT', `/${a.id}`, { title: 'x' })).status).toBe(400);
    expect(emu.app.store.workspace('demo').collection<{ config: { relational: { password?: string } } }>('integrations').get(a.id)?.config.relational.password).toBe('new-one');
  });

  // wire-facts 8 "Secrets: omit = keep, new value = rotate, explicit "" = clear (where the field is optional)"
  it.each([
    { reason: 'an explicit "" clears the stored secret', password: '', stored: undefined, answered: undefined },
    { reason: 'an omitted secret keeps it', password: undefined, stored: SECRET, answered: '' },
    { reason: 'a new value rotates it', password: 'rotated', stored: 'rotated', answered: '' },
  ])('update: $reason', async ({ password, stored, answered }) => {
    const a = await create();
    const config = { host: 'db.example.com', port: 5432, database: 'analytics', user: 'dq', ...(password === undefined ? {} : { password }) };
    const r = await api('PUT', `/${a.id}`, { title: 't', config: { relational: config } });
    expect(r.status).toBe(200);
    expect(r.body.integration.config.relational.password).toBe(answered);
    const kept = emu.app.store.workspace('demo').collection<{ config: { relational: { password?: string } } }>('integrations').get(a.id);
    expect(kept?.config.relational.password).toBe(stored);
    // read back: a cleared secret is unset (omitted), a stored one answers ""
    const read = await api('POST', '/by-id', { integrationIds: [a.id] });
    expect(read.body.integrations[a.id].config.relational.password).toBe(answered);
  });

  // wire-facts 1: the path-bound `integrationId` is declared; repeated in the body it is accepted and the path wins
  it('update, disable, enable: an integrationId repeated in the body is accepted; the path wins', async () => {
    const a = await create();
    const b = await create();
    const r = await api('PUT', `/${a.id}`, { ...relational(), title: 'via path', integrationId: b.id });
    expect(r.status).toBe(200);
    expect(r.body.integration.id).toBe(a.id);
    const other = await api('POST', '/by-id', { integrationIds: [b.id] });
    expect(other.body.integrations[b.id].title).not.toBe('via path');
    expect((await api('POST', `/${a.id}/disable`, { integrationId: a.id })).body.integration.disabled).toBe(true);
    expect((await api('POST', `/${a.id}/enable`, { integrationId: b.id })).body.integration).toMatchObject({ id: a.id, disabled: false });
  });

  const refused: { reason: string; body: (etag: string) => unknown; status: number; code: number }[] = [
    { reason: 'a stale etag is ABORTED (HTTP 409)', body: () => ({ ...relational(), etag: 'W/"stale-1"' }), status: 409, code: 10 },
    { reason: 'changing the config variant is FAILED_PRECONDITION', body: (etag) => ({ title: 't', config: { warehouseProject: { projectId: 'p' } }, etag }), status: 400, code: 9 },
    { reason: 'platform is not an Update field (INVALID_ARGUMENT)', body: () => ({ ...relational(), platform: 'other' }), status: 400, code: 3 },
  ];
  it.each(refused)('refuses: $reason', async ({ body, status, code }) => {
    const a = await create();
    const r = await api('PUT', `/${a.id}`, body(a.etag));
    expect(r.status).toBe(status);
    expectStatus(r.body, code);
  });

  it('answers 404 for an unknown id', async () => {
    const r = await api('PUT', '/nope', relational());
    expect(r.status).toBe(404);
  });
});

describe('state table (spec 3.4)', () => {
  it('disable keeps the config; enable when enabled is a no-op; delete honours ?etag=', async () => {
    const a = await create();
    const off = await api('POST', `/${a.id}/disable`, {});
    expect(off.status).toBe(200);
    expect(off.body.integration.disabled).toBe(true);
    expect(off.body.integration.config).toEqual(a.config);
    const on = await api('POST', `/${a.id}/enable`, {});
    expect(on.body.integration.disabled).toBe(false);
    const again = await api('POST', `/${a.id}/enable`, {});
    expect(again.status).toBe(200);
    expect(again.body.integration.etag).toBe(on.body.integration.etag);
    expect(leaks([off.body, on.body, again.body])).toBe(false);
    const stale = await api('DELETE', `/${a.id}?etag=${encodeURIComponent(a.etag)}`);
    expect(stale.status).toBe(409);
    expectStatus(stale.body, 10);
    const ok = await api('DELETE', `/${a.id}?etag=${encodeURIComponent(on.body.integration.etag)}`);
    expect(ok.status).toBe(200);
    expect((await api('DELETE', `/${a.id}`)).status).toBe(404);
    expect((await api('POST', `/${a.id}/enable`, {})).status).toBe(404);
    expect((await api('POST', '/by-id', { integrationIds: [a.id] })).body.integrations).toEqual({});
  });
});

describe('scopes', () => {
  it('the reader (SCOPE_INTEGRATION_READ) can list and batch-get', async () => {
    expect((await api('GET', '', undefined, reader)).status).toBe(200);
    expect((await api('POST', '/by-id', { integrationIds: ['x'] }, reader)).status).toBe(200);
  });
  const ops: [string, string, unknown][] = [
    ['POST', '', relational()],
    ['PUT', '/x', relational()],
    ['DELETE', '/x', undefined],
    ['POST', '/x/disable', {}],
    ['POST', '/x/enable', {}],
  ];
  it.each(ops)('the reader cannot %s /api/integrations/v1%s (403 naming SCOPE_INTEGRATION_EDIT)', async (method, path, body) => {
    const r = await api(method, path, body, reader);
    expect(r.status).toBe(403);
    const s = expectStatus(r.body, 7);
    expect(s.message).toContain('SCOPE_INTEGRATION_EDIT');
    expect(s.details.find((d) => d['@type'] === ERROR_INFO_TYPE)?.metadata).toEqual({ scope: 'SCOPE_INTEGRATION_EDIT' });
  });
});
