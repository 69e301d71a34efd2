/**
 * Emulator core over real HTTP: tokens, auth and scopes, routing, errors, etags, batch errors,
 * admin counters.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ERROR_INFO_TYPE, SCOPES, TokenResponse, VIOLATIONS_TYPE } from '../../schemas/platform/common';
import { discoverRouteModules, READ_SCOPES, startEmulator, type RunningEmulator } from '../../src/emulator';
import { call, coreRoutes, expectStatus, tokenFor, tokenRequest } from './core-helpers';

let now = Date.UTC(2025, 0, 1);
let emu: RunningEmulator;
let admin: string;
let reader: string;

beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty', tokenTtlSeconds: 60, clock: () => now, discoverRoutes: false, routes: coreRoutes });
  admin = await tokenFor(emu.url, 'demo-admin');
  reader = await tokenFor(emu.url, 'demo-reader');
});
afterAll(() => emu.close());

describe('token endpoint', () => {
  test('issues a bearer token with expiry and the credential scopes', async () => {
    const r = await tokenRequest(emu.url, { grant_type: 'client_credentials', client_id: 'demo-reader', client_secret: 'demo-secret' });
    expect(r.status).toBe(200);
    const t = TokenResponse.parse(r.body);
    expect(t.token_type).toBe('Bearer');
    expect(t.expires_in).toBe(60);
    expect(t.access_token.split('.')).toHaveLength(3);
    // realistic read scopes: per service plus SCOPE_MCP_READ, not every *_READ
    expect(t.scope?.split(' ').sort()).toEqual([...READ_SCOPES].sort());
    expect(t.scope?.split(' ')).toContain('SCOPE_MCP_READ');
    expect(t.scope?.split(' ')).not.toContain('SCOPE_LINEAGE_READ');
    expect(SCOPES.filter((s) => s.endsWith('_READ')).length).toBeGreaterThan(READ_SCOPES.length);
  });

  test.each([
    ['wrong grant type', { grant_type: 'password', client_id: 'demo-admin', client_secret: 'demo-secret' }, 400, 'unsupported_grant_type'],
    ['no grant type', { client_id: 'demo-admin', client_secret: 'demo-secret' }, 400, 'invalid_request'],
    ['no secret', { grant_type: 'client_credentials', client_id: 'demo-admin' }, 400, 'invalid_request'],
    ['wrong secret', { grant_type: 'client_credentials', client_id: 'demo-admin', client_secret: 'nope-secret-123' }, 401, 'invalid_client'],
    ['unknown client', { grant_type: 'client_credentials', client_id: 'ghost', client_secret: 'demo-secret' }, 401, 'invalid_client'],
    ['scope not granted', { grant_type: 'client_credentials', client_id: 'demo-reader', client_secret: 'demo-secret', scope: 'SCOPE_MCP_WRITE' }, 400, 'invalid_scope'],
  ])('%s -> OAuth2 error', async (_why, form, status, error) => {
    const r = await tokenRequest(emu.url, form as Record<string, string>);
    expect(r.status).toBe(status);
    expect(r.body.error).toBe(error);
    expect(JSON.stringify(r.body)).not.toContain('secret-123');
  });

  test('scope parameter narrows the grant', async () => {
    const r = await tokenRequest(emu.url, { grant_type: 'client_credentials', client_id: 'demo-admin', client_secret: 'demo-secret', scope: 'SCOPE_ENTITY_READ' });
    expect(r.status).toBe(200);
    const iam = await call(emu.url, 'GET', '/api/iam/v1', { token: r.body.access_token as string });
    expect(iam.body.scopes).toEqual(['SCOPE_ENTITY_READ']);
  });

  test('a token expires after tokenTtlSeconds', async () => {
    const t = await tokenFor(emu.url, 'demo-admin');
    expect((await call(emu.url, 'GET', '/api/iam/v1', { token: t })).status).toBe(200);
    now += 61_000;
    const r = await call(emu.url, 'GET', '/api/iam/v1', { token: t });
    expect(r.status).toBe(401);
    expect(expectStatus(r.body, 16).message).toMatch(/expired/);
    admin = await tokenFor(emu.url, 'demo-admin');
    reader = await tokenFor(emu.url, 'demo-reader');
  });
});

describe('auth on routes', () => {
  test.each([
    ['no Authorization header', undefined],
    ['unknown token', 'not-a-token'],
  ])('%s -> 401 UNAUTHENTICATED', async (_why, token) => {
    const r = await call(emu.url, 'GET', '/api/iam/v1', { token });
    expect(r.status).toBe(401);
    expectStatus(r.body, 16);
  });

  test('IAM answers the caller workspace, scopes, subject and client type', async () => {
    const r = await call(emu.url, 'GET', '/api/iam/v1', { token: admin });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ workspace: 'demo', scopes: [...SCOPES].sort(), subject: 'client:demo-admin', clientType: 'CLIENT_TYPE_API' });
  });

  test('reader on a write route -> 403 naming the scope in message and ErrorInfo', async () => {
    const r = await call(emu.url, 'PUT', '/test/v1/things', { token: reader, body: { thing: { id: 'a', name: 'A' } } });
    expect(r.status).toBe(403);
    const s = expectStatus(r.body, 7);
    expect(s.message).toContain('SCOPE_MCP_WRITE');
    expect(s.details).toEqual([{ '@type': ERROR_INFO_TYPE, reason: 'MISSING_SCOPE', metadata: { scope: 'SCOPE_MCP_WRITE' } }]);
  });

  test('addCredential creates a client with chosen scopes in its own workspace', async () => {
    emu.app.addCredential('other-ws', 'other-secret', ['SCOPE_MCP_WRITE', 'SCOPE_ENTITY_READ'], 'acme');
    const t = await tokenFor(emu.url, 'other-ws', 'other-secret');
    const iam = await call(emu.url, 'GET', '/api/iam/v1', { token: t });
    expect(iam.body.workspace).toBe('acme');
    await call(emu.url, 'PUT', '/test/v1/things', { token: t, body: { thing: { id: 'iso', name: 'acme' } } });
    // Workspaces are isolated: the demo workspace does not see acme's object.
    expect((await call(emu.url, 'GET', '/test/v1/things/iso', { token: admin })).status).toBe(404);
    expect((await call(emu.url, 'GET', '/test/v1/things/iso', { token: t })).body.thing.name).toBe('acme');
  });
});

describe('routing and errors', () => {
  test('unknown route -> 404 NOT_FOUND Status body with x-request-id', async () => {
    const r = await call(emu.url, 'GET', '/api/nothing/v9', { token: admin });
    expect(r.status).toBe(404);
    expect(r.body).toEqual({ code: 5, message: expect.stringContaining('/api/nothing/v9'), details: [] });
    expect(r.headers.get('x-request-id')).toMatch(/\S+/);
  });

  test('every response has an x-request-id; a well-formed incoming one is echoed', async () => {
    const r = await fetch(`${emu.url}/api/iam/v1`, { headers: { authorization: `Bearer ${admin}`, 'x-request-id': 'trace-123' } });
    expect(r.headers.get('x-request-id')).toBe('trace-123');
    const ids = await Promise.all([1, 2].map(async () => (await call(emu.url, 'GET', '/api/iam/v1', { token: admin })).headers.get('x-request-id')));
    expect(ids[0]).not.toBe(ids[1]);
  });

  test('malformed JSON -> 400 INVALID_ARGUMENT', async () => {
    const r = await call(emu.url, 'PUT', '/test/v1/things', { token: admin, rawBody: '{"thing": ' });
    expect(r.status).toBe(400);
    expect(expectStatus(r.body, 3).message).toMatch(/malformed JSON/);
  });

  test('schema validation -> 400 with buf.validate.Violations (field path and rule id)', async () => {
    const r = await call(emu.url, 'PUT', '/test/v1/things', { token: admin, body: { thing: { id: 'v', name: '', tags: ['ok', ''] } } });
    expect(r.status).toBe(400);
    const s = expectStatus(r.body, 3);
    expect(s.details[0]['@type']).toBe(VIOLATIONS_TYPE);
    expect(s.details[0].violations).toEqual([
      { field: 'thing.name', ruleId: 'put_thing.thing.name', message: expect.any(String) },
      { field: 'thing.tags[1]', ruleId: 'put_thing.thing.tags', message: expect.any(String) },
    ]);
    expect(s.message).toContain('thing.name');
  });

  test('a literal segment beats a parameter', async () => {
    expect((await call(emu.url, 'GET', '/test/v1/things/special', { token: admin })).body).toEqual({ special: true });
  });

  test('a handler bug -> 500 INTERNAL Status', async () => {
    const r = await call(emu.url, 'POST', '/test/v1/boom', { token: admin });
    expect(r.status).toBe(500);
    expect(expectStatus(r.body, 13).message).toContain('kaboom');
  });

  test('HttpResponse sets status and headers', async () => {
    const r = await call(emu.url, 'POST', '/test/v1/accepted', { token: admin });
    expect(r.status).toBe(202);
    expect(r.body).toEqual({ accepted: true });
    expect(r.headers.get('x-extra')).toBe('yes');
  });

  test('registering a route twice fails', () => {
    expect(() => emu.app.route('GET', '/api/iam/v1', { scope: null }, () => ({}))).toThrow(/registered twice/);
  });
});

describe('etags and batches', () => {
  test('etag W/"<id>-<version>", stale etag -> 409 ABORTED, no etag = last writer wins', async () => {
    const put = (name: string, etag?: string) => call(emu.url, 'PUT', '/test/v1/things', { token: admin, body: { thing: { id: 'e1', name }, etag } });
    const a = await put('one');
    expect(a.status).toBe(200);
    expect(a.body.thing.etag).toBe('W/"e1-1"');
    const b = await put('two', a.body.thing.etag);
    expect(b.body.thing.etag).toBe('W/"e1-2"');
    const stale = await put('three', a.body.thing.etag);
    expect(stale.status).toBe(409);
    expect(expectStatus(stale.body, 10).message).toMatch(/stale/);
    expect((await call(emu.url, 'GET', '/test/v1/things/e1', { token: admin })).body.thing.name).toBe('two');
    const c = await put('four');
    expect(c.body.thing.etag).toBe('W/"e1-3"');
  });

  test('per-item batch errors come back inside a 200', async () => {
    const r = await call(emu.url, 'POST', '/test/v1/things/batch', {
      token: admin,
      body: { things: [{ id: 'b1', name: 'fine' }, { id: 'b2', name: 'x'.repeat(30) }, { id: 'b3', name: 'ok' }] },
    });
    expect(r.status).toBe(200);
    expect(r.body.createdIds).toEqual(['b1', 'b3']);
    expect(r.body.errors).toEqual([{ id: 'b2', reason: expect.stringMatching(/^INVALID_ARGUMENT: name too long/) }]);
  });

  test('paging over HTTP: lastId empty on the last page', async () => {
    for (const id of ['p1', 'p2', 'p3']) await call(emu.url, 'PUT', '/test/v1/things', { token: admin, body: { thing: { id, name: id } } });
    const seen: string[] = [];
    let cursor = '';
    for (let i = 0; i < 10; i++) {
      const r = await call(emu.url, 'GET', `/test/v1/things?pageSize=2&cursor=${encodeURIComponent(cursor)}`, { token: admin });
      seen.push(...r.body.things.map((t: { id: string }) => t.id));
      cursor = r.body.pageInfo.lastId;
      if (!cursor) break;
    }
    expect(seen).toEqual([...seen].sort());
    expect(seen).toEqual(expect.arrayContaining(['b1', 'b3', 'e1', 'p1', 'p2', 'p3']));
    expect(new Set(seen).size).toBe(seen.length);
  });
});

describe('admin endpoints', () => {
  test('request counters per route pattern and method, and reset', async () => {
    expect((await call(emu.url, 'POST', '/__emulator/requests/reset')).status).toBe(200);
    await call(emu.url, 'GET', '/api/iam/v1', { token: admin });
    await call(emu.url, 'GET', '/api/iam/v1', { token: reader });
    await call(emu.url, 'GET', '/test/v1/things/x1', { token: admin });
    await call(emu.url, 'GET', '/test/v1/things/x2', { token: admin });
    await call(emu.url, 'DELETE', '/nowhere', { token: admin });
    const r = await call(emu.url, 'GET', '/__emulator/requests');
    expect(r.body).toEqual({
      total: 5,
      routes: { 'DELETE (unmatched)': 1, 'GET /api/iam/v1': 2, 'GET /test/v1/things/:id': 2 },
      inFlight: 0,
    });
    await call(emu.url, 'POST', '/__emulator/requests/reset');
    expect((await call(emu.url, 'GET', '/__emulator/requests')).body).toEqual({ total: 0, routes: {}, inFlight: 0 });
  });

  test('reset drops state', async () => {
    await call(emu.url, 'PUT', '/test/v1/things', { token: admin, body: { thing: { id: 'gone', name: 'g' } } });
    expect((await call(emu.url, 'POST', '/__emulator/reset', { body: { seed: 'empty' } })).status).toBe(200);
    expect((await call(emu.url, 'GET', '/test/v1/things/gone', { token: admin })).status).toBe(404);
  });

  test('routes lists the registered routes; unknown admin path -> 404', async () => {
    expect((await call(emu.url, 'GET', '/__emulator/routes')).body.routes).toContain('GET /api/iam/v1');
    expect((await call(emu.url, 'GET', '/__emulator/nope')).status).toBe(404);
  });
});

describe('route module discovery', () => {
  test('startEmulator registers every routes/* module (at least IAM) by default', async () => {
    const e = await startEmulator({ port: 0, seed: 'empty' });
    try {
      const r = await call(e.url, 'GET', '/__emulator/routes');
      expect(r.body.routes).toContain('GET /api/iam/v1');
      expect(r.body.routes).toEqual([...r.body.routes].sort());
    } finally {
      await e.close();
    }
  });

  test('discoverRouteModules skips helpers starting with _ and refuses a module without register', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dqform-routes-'));
    try {
      fs.writeFileSync(path.join(dir, '_shared.ts'), 'export const x = 1;\n');
      fs.writeFileSync(path.join(dir, 'good.ts'), 'export function register(app: any) { app.route("GET", "/g", { scope: null }, () => ({})); }\n');
      expect(discoverRouteModules(dir)).toHaveLength(1);
      fs.writeFileSync(path.join(dir, 'bad.ts'), 'export const nothing = 1;\n');
      expect(() => discoverRouteModules(dir)).toThrow(/bad\.ts does not export register/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
