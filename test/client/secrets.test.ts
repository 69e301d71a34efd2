import { inspect } from 'node:util';
import { z } from 'zod';
import { ApiError, BatchItemsError, DqClient, PlatformClient, redact, redactHeaders, redactValue, registerSecret, REDACTED, TokenProvider } from '../../src/client';
import { makeClient } from './helpers/client';
import { CLIENT_SECRET, status, TestServer } from './helpers/server';

describe('redact', () => {
  test.each([
    ['a registered secret anywhere in text', () => registerSecret('hunter2-registered'), 'pw is hunter2-registered!', `pw is ${REDACTED}!`],
    ['an Authorization header line', () => undefined, 'authorization: Bearer abc.def.ghi', `authorization: Bearer ${REDACTED}`],
    ['a bare bearer token', () => undefined, 'sent Bearer abc.def-ghi', `sent Bearer ${REDACTED}`],
    ['client_secret in a form body', () => undefined, 'client_id=a&client_secret=xyz&grant_type=client_credentials', `client_id=a&client_secret=${REDACTED}&grant_type=client_credentials`],
    ['access_token in JSON', () => undefined, '{"access_token":"zzz","expires_in":3600}', `{"access_token":"${REDACTED}","expires_in":3600}`],
    ['password in escaped JSON inside JSON', () => undefined, '{"body":"{\\"password\\":\\"p@ss\\"}"}', `{"body":"{\\"password\\":\\"${REDACTED}\\"}"}`],
    ['nothing sensitive: unchanged', () => undefined, 'GET /api/x 200', 'GET /api/x 200'],
  ])('%s', (_r, setup, input, expected) => {
    setup();
    expect(redact(input)).toBe(expected);
  });

  test('short values are not registered (they would garble output)', () => {
    registerSecret('ab');
    expect(redact('abc ab')).toBe('abc ab');
  });

  test('redactValue masks sensitive keys deeply; redactHeaders masks Authorization', () => {
    expect(redactValue({ a: 1, nested: [{ password: 'x', user: 'u' }], privateKey: 'k' })).toEqual({ a: 1, nested: [{ password: REDACTED, user: 'u' }], privateKey: REDACTED });
    expect(redactHeaders({ Authorization: 'Bearer t', 'x-request-id': 'r' })).toEqual({ Authorization: REDACTED, 'x-request-id': 'r' });
  });
});

describe('no credential in any error message, log line or error JSON', () => {
  let server: TestServer;
  let client: DqClient;
  let logs: string[];
  beforeEach(async () => {
    server = await new TestServer().start();
    const made = makeClient(server, { retry: { maxAttempts: 2 } });
    client = made.client;
    logs = made.logs;
  });
  afterEach(async () => {
    await client.close();
    await server.stop();
  });

  test('hostile server echoes every credential back; nothing leaks', async () => {
    const echo = (r: { headers: Record<string, unknown>; body: string }) => `you sent ${String(r.headers.authorization)} and ${r.body}`;
    server.on('POST', '/api/validation', (r) =>
      ({ status: 400, json: status(3, echo(r), [{ '@type': 'type.googleapis.com/buf.validate.Violations', violations: [{ field: 'x', ruleId: 'r', message: echo(r) }] }]) }),
    );
    server.on('GET', '/api/denied', (r) => ({ status: 403, json: status(7, echo(r), [{ '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'MISSING_SCOPE', metadata: { scope: 'SCOPE_X', token: String(r.headers.authorization) } }]) }));
    server.on('GET', '/api/internal', (r) => ({ status: 500, body: `raw crash dump: ${echo(r)}` }));
    server.on('GET', '/api/busy', (r) => ({ status: 503, json: status(14, echo(r)) }));
    server.on('GET', '/api/shape', (r) => ({ json: { things: String(r.headers.authorization) } }));
    server.on('GET', '/api/drop', () => 'drop');
    server.on('POST', '/api/integrations/v1', (r) => ({ status: 400, json: status(3, `bad config ${r.body}`) }));
    server.on('DELETE', '/api/datachecks/sqltests/v1', (r) => ({ json: { errors: [{ id: 'a', reason: `cannot: ${String(r.headers.authorization)}` }] } }));

    const errors: unknown[] = [];
    const grab = (p: Promise<unknown>) => p.then(() => errors.push(new Error('expected a failure')), (e: unknown) => errors.push(e));
    const Things = z.object({ things: z.array(z.string()) });
    await grab(client.call({ method: 'POST', path: '/api/validation', body: { client_secret: CLIENT_SECRET }, responseSchema: z.object({}), idempotent: true }));
    await grab(client.call({ method: 'GET', path: '/api/denied', responseSchema: z.object({}), idempotent: true }));
    await grab(client.call({ method: 'GET', path: '/api/internal', responseSchema: z.object({}), idempotent: true }));
    await grab(client.call({ method: 'GET', path: '/api/busy', responseSchema: z.object({}), idempotent: true }));
    await grab(client.call({ method: 'GET', path: '/api/shape', responseSchema: Things, idempotent: true }));
    await grab(client.call({ method: 'GET', path: '/api/drop', responseSchema: z.object({}), idempotent: true }));
    const platform = new PlatformClient(client);
    const integrationPassword = 'integration-pa55word-value';
    await grab(platform.integrations.create({ title: 'pg', config: { relational: { host: 'db', database: 'd', user: 'u', password: integrationPassword } } }));
    await grab(platform.sqlTests.batchDelete(['a'], { throwOnItemErrors: true }));
    // token endpoint that echoes the form body (client_secret=...) in its error
    server.valid.clear();
    server.tokenHook = (n) => (n >= 2 ? { status: 401, json: { error: 'invalid_client', error_description: `rejected ${server.tokenRequests[n - 1].body}` } } : undefined);
    await grab(client.call({ method: 'GET', path: '/api/internal', responseSchema: z.object({}), idempotent: true }));

    expect(errors).toHaveLength(9);
    expect(errors.every((e) => e instanceof ApiError || e instanceof BatchItemsError)).toBe(true);
    expect(server.issued.length).toBeGreaterThanOrEqual(1);
    const forbidden = [CLIENT_SECRET, encodeURIComponent(CLIENT_SECRET), integrationPassword, ...server.issued];
    const surfaces = [
      ...errors.map((e) => (e as Error).message),
      ...errors.map((e) => JSON.stringify(e)),
      ...errors.map((e) => (e as Error).stack ?? ''),
      ...errors.map((e) => inspect(e, { depth: 10 })),
      ...logs,
    ];
    expect(logs.length).toBeGreaterThan(10);
    for (const s of surfaces) for (const f of forbidden) expect(s).not.toContain(f);
    // and the server really did echo them, so the test is meaningful
    expect(JSON.stringify(server.requests.map((r) => r.headers.authorization))).toContain(server.issued[0]);
    expect(JSON.stringify(errors.map((e) => (e as Error).message))).toContain(REDACTED);
  });

  test('a bare token (no "Bearer" before it) echoed by the server is redacted: every token the client receives is registered as a secret', async () => {
    const bare = (r: { headers: Record<string, unknown> }) => String(r.headers.authorization).replace(/^Bearer /, '');
    server.on('GET', '/api/echo-token', (r) => ({ status: 500, body: `session ${bare(r)} expired` }));
    const err = await client.call({ method: 'GET', path: '/api/echo-token', responseSchema: z.object({}), idempotent: false }).catch((e: unknown) => e);
    expect(server.issued).toHaveLength(1);
    const token = server.issued[0];
    expect(token).not.toMatch(/bearer/i);
    // the server did send it back bare: the redaction of "Bearer <token>" shapes cannot catch it
    expect(server.requests.some((r) => r.path === '/api/echo-token')).toBe(true);
    for (const s of [(err as Error).message, JSON.stringify(err), inspect(err, { depth: 10 }), ...logs]) expect(s).not.toContain(token);
    expect((err as Error).message).toContain(`session ${REDACTED} expired`);
  });

  test('a token in a malformed token response (missing expires_in) is registered before the shape check, so the shape error never shows it', async () => {
    const token = 'tok-malformed-0123456789abcdef';
    server.valid.clear();
    server.tokenHook = () => ({ json: { access_token: token, token_type: 'Bearer' } });
    const err = await client.call({ method: 'GET', path: '/api/anything', responseSchema: z.object({}), idempotent: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as Error).message).toMatch(/expires_in/);
    for (const s of [(err as Error).message, JSON.stringify(err), inspect(err, { depth: 10 }), ...logs]) expect(s).not.toContain(token);
    expect(redact(`x ${token} y`)).toBe(`x ${REDACTED} y`);
  });
});

describe('TokenProvider registers every token it caches as a secret', () => {
  it('a token fetched by the provider is masked wherever it appears, bare', async () => {
    const token = 'tok-provider-9f8e7d6c5b4a3210';
    const p = new TokenProvider(async () => ({ access_token: token, expires_in: 3600, token_type: 'Bearer' }));
    expect(await p.getToken()).toBe(token);
    expect(redact(`bare ${token} here`)).toBe(`bare ${REDACTED} here`);
  });
});
