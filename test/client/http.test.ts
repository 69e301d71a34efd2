import { z } from 'zod';
import {
  ConflictError,
  DqClient,
  encodeQuery,
  RateLimitedError,
  RequestShapeError,
  ResponseShapeError,
  UnauthenticatedError,
  QuotaError,
  UnavailableError,
} from '../../src/client';
import { makeClient, serverPerTest } from './helpers/client';
import { CLIENT_ID, status } from './helpers/server';

const Ok = z.object({ ok: z.boolean() });

const t = serverPerTest();
const client = (extra: Parameters<typeof makeClient>[1] = {}) => t.client(extra);

describe('auth', () => {
  test('fetches a token with the client-credentials form and sends it as a bearer token', async () => {
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(t.server.tokenRequests).toHaveLength(1);
    const form = new URLSearchParams(t.server.tokenRequests[0].body);
    expect(form.get('grant_type')).toBe('client_credentials');
    expect(form.get('client_id')).toBe(CLIENT_ID);
    expect(t.server.tokenRequests[0].headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(t.server.requests[0].headers.authorization).toBe(`Bearer ${t.server.issued[0]}`);
    expect(t.server.requests[0].headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  test('caches the token across calls', async () => {
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client();
    for (let i = 0; i < 5; i++) await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    expect(t.server.tokenRequests).toHaveLength(1);
  });

  test('concurrent callers share one in-flight token request', async () => {
    t.server.tokenDelayMs = 50;
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client();
    await Promise.all(Array.from({ length: 20 }, () => c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })));
    expect(t.server.tokenRequests).toHaveLength(1);
    expect(t.server.requests).toHaveLength(20);
  });

  test('refreshes the token a safety margin before expires_in runs out', async () => {
    let now = 1_000_000;
    t.server.expiresIn = 600; // 10 minutes; margin 60 s
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client({ now: () => now });
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    now += 530_000; // 70 s before expiry: still outside the margin
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    expect(t.server.tokenRequests).toHaveLength(1);
    now += 15_000; // 55 s before expiry: inside the margin, refreshed although still valid
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    expect(t.server.tokenRequests).toHaveLength(2);
    expect(t.server.requests[2].headers.authorization).toBe(`Bearer ${t.server.issued[1]}`);
  });

  test('refetches the token once after a 401 and repeats the call (even a non-idempotent one)', async () => {
    t.server.on('POST', '/api/create', () => ({ json: { ok: true } }));
    const { client: c } = client();
    await c.call({ method: 'POST', path: '/api/create', body: {}, responseSchema: Ok, idempotent: false });
    t.server.valid.clear(); // the server revokes every token
    await expect(c.call({ method: 'POST', path: '/api/create', body: {}, responseSchema: Ok, idempotent: false })).resolves.toEqual({ ok: true });
    expect(t.server.tokenRequests).toHaveLength(2);
    expect(t.server.calls('POST', '/api/create')).toHaveLength(3); // ok, 401, ok
  });

  test('a second 401 after the refetch is an UnauthenticatedError, not a loop', async () => {
    t.server.on('GET', '/api/x', () => ({ status: 401, json: status(16, 'nope') }));
    const { client: c } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).rejects.toBeInstanceOf(UnauthenticatedError);
    expect(t.server.tokenRequests).toHaveLength(2);
    expect(t.server.calls('GET', '/api/x')).toHaveLength(2);
  });

  test('refused credentials name the variables to check', async () => {
    const { client: c } = client({ clientSecret: 'wrong-secret-value' });
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const err = await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnauthenticatedError);
    expect((err as Error).message).toMatch(/DQ_CLIENT_ID and DQ_CLIENT_SECRET/);
    expect((err as Error).message).not.toContain('wrong-secret-value');
  });
});

describe('retries', () => {
  test('Retry-After in seconds is honoured on 429', async () => {
    t.server.on('GET', '/api/x', (_r, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '3' }, json: status(8, 'slow down') } : { json: { ok: true } }));
    const { client: c, sleeps } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(sleeps).toEqual([3000]);
  });

  test('RESOURCE_EXHAUSTED with a quota detail is a QuotaError: sent once, never retried, even with Retry-After', async () => {
    t.server.on('GET', '/api/quota', () => ({
      status: 429,
      headers: { 'retry-after': '1' },
      json: status(8, 'integrations quota reached', [{ '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ subject: 'workspace:demo/integrations', description: 'at most 20' }] }]),
    }));
    const { client: c, sleeps } = client();
    const before = t.server.requests.length;
    await expect(c.call({ method: 'GET', path: '/api/quota', responseSchema: Ok, idempotent: true })).rejects.toBeInstanceOf(QuotaError);
    expect(t.server.requests.length - before).toBe(1);
    expect(sleeps).toEqual([]);
  });

  test('Retry-After as an HTTP date is honoured', async () => {
    const now = Date.parse('2030-01-01T00:00:00Z');
    t.server.on('GET', '/api/x', (_r, n) =>
      n === 1 ? { status: 503, headers: { 'retry-after': new Date(now + 7000).toUTCString() }, body: 'busy' } : { json: { ok: true } },
    );
    const { client: c, sleeps } = client({ now: () => now });
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    expect(sleeps).toEqual([7000]);
  });

  test('RetryInfo retryDelay is honoured when there is no Retry-After', async () => {
    t.server.on('GET', '/api/x', (_r, n) =>
      n === 1
        ? { status: 429, json: status(8, 'rate', [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1.5s' }]) }
        : { json: { ok: true } },
    );
    const { client: c, sleeps } = client();
    await c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
    expect(sleeps).toEqual([1500]);
  });

  test('503 is retried for reads with exponential full-jitter backoff', async () => {
    t.server.on('GET', '/api/x', (_r, n) => (n <= 3 ? { status: 503, json: status(14, 'unavailable') } : { json: { ok: true } }));
    const { client: c, sleeps } = client({ retry: { baseDelayMs: 100, random: () => 0.5 } });
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(sleeps).toEqual([50, 100, 200]); // 0.5 * 100 * 2^k
  });

  test.each([502, 504])('%i is retried for reads', async (code) => {
    t.server.on('GET', '/api/x', (_r, n) => (n === 1 ? { status: code, body: '<html>gateway</html>' } : { json: { ok: true } }));
    const { client: c } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(t.server.calls('GET', '/api/x')).toHaveLength(2);
  });

  test('503 is not retried for a non-idempotent create', async () => {
    t.server.on('POST', '/api/integrations/v1', () => ({ status: 503, json: status(14, 'unavailable') }));
    const { client: c, sleeps } = client();
    await expect(c.call({ method: 'POST', path: '/api/integrations/v1', body: {}, responseSchema: Ok, idempotent: false })).rejects.toBeInstanceOf(UnavailableError);
    expect(t.server.calls('POST', '/api/integrations/v1')).toHaveLength(1);
    expect(sleeps).toEqual([]);
  });

  test('a dropped connection is retried for reads and not for creates', async () => {
    t.server.on('GET', '/api/x', (_r, n) => (n === 1 ? 'drop' : { json: { ok: true } }));
    t.server.on('POST', '/api/create', () => 'drop');
    const { client: c } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    const err = await c.call({ method: 'POST', path: '/api/create', body: {}, responseSchema: Ok, idempotent: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnavailableError);
    expect((err as UnavailableError).status).toBe(0);
    expect(t.server.calls('POST', '/api/create')).toHaveLength(1);
  });

  test('POSTs marked idempotent (batch reads, upserts) are retried', async () => {
    t.server.on('POST', '/api/by-id', (_r, n) => (n === 1 ? { status: 503 } : { json: { ok: true } }));
    const { client: c } = client();
    await expect(c.call({ method: 'POST', path: '/api/by-id', body: { ids: ['a'] }, responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(t.server.calls('POST', '/api/by-id')).toHaveLength(2);
  });

  test('attempts are bounded and the last error is thrown', async () => {
    t.server.on('GET', '/api/x', () => ({ status: 429, json: status(8, 'rate') }));
    const { client: c, sleeps } = client({ retry: { maxAttempts: 3 } });
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).rejects.toBeInstanceOf(RateLimitedError);
    expect(t.server.calls('GET', '/api/x')).toHaveLength(3);
    expect(sleeps).toHaveLength(2);
  });

  test('total retry time is bounded: a wait past maxElapsedMs gives up', async () => {
    t.server.on('GET', '/api/x', () => ({ status: 429, headers: { 'retry-after': '30' } }));
    const { client: c, sleeps } = client({ retry: { maxElapsedMs: 10_000 } });
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).rejects.toBeInstanceOf(RateLimitedError);
    expect(sleeps).toEqual([]);
  });

  test('conflicts are never retried', async () => {
    t.server.on('PUT', '/api/x', () => ({ status: 409, json: status(10, 'etag mismatch') }));
    const { client: c } = client();
    await expect(c.call({ method: 'PUT', path: '/api/x', body: {}, responseSchema: Ok, idempotent: true })).rejects.toBeInstanceOf(ConflictError);
    expect(t.server.calls('PUT', '/api/x')).toHaveLength(1);
  });

  test('the delay scale shortens real sleeps (default sleep)', async () => {
    t.server.on('GET', '/api/x', (_r, n) => (n === 1 ? { status: 429, headers: { 'retry-after': '5' } } : { json: { ok: true } }));
    // the scaled time budget (60 s -> 60 ms) is not under test here: on a loaded machine the first
    // attempt alone can take longer, and the retry would be given up
    const c = new DqClient({ baseUrl: t.server.url, clientId: CLIENT_ID, clientSecret: 'S3cr3t-client-secret-value-xyz', retry: { scale: 0.001, maxElapsedMs: 3_600_000 } });
    t.track(c);
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
  });
});

describe('request and response shapes', () => {
  test('unknown response fields are tolerated', async () => {
    t.server.on('GET', '/api/x', () => ({ json: { ok: true, newField: { nested: 1 } } }));
    const { client: c } = client();
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
  });

  test('a wrong response type is a ResponseShapeError naming method, path and issue path', async () => {
    t.server.on('GET', '/api/things', () => ({ json: { things: [{ name: 'a' }, { name: 7 }] } }));
    const { client: c } = client();
    const schema = z.object({ things: z.array(z.object({ name: z.string() })) });
    const err = (await c.call({ method: 'GET', path: '/api/things', responseSchema: schema, idempotent: true }).catch((e: unknown) => e)) as ResponseShapeError;
    expect(err).toBeInstanceOf(ResponseShapeError);
    expect(err.method).toBe('GET');
    expect(err.path).toBe('/api/things');
    expect(err.issues.map((i) => i.path)).toEqual(['things[1].name']);
    expect(err.message).toContain('things[1].name');
  });

  test('an invalid request body is refused before anything is sent', async () => {
    const { client: c } = client();
    const err = (await c
      .call({ method: 'POST', path: '/api/x', body: { title: 3 }, requestSchema: z.object({ title: z.string() }), responseSchema: Ok, idempotent: false })
      .catch((e: unknown) => e)) as RequestShapeError;
    expect(err).toBeInstanceOf(RequestShapeError);
    expect(err.issues[0].path).toBe('title');
    expect(t.server.requests).toHaveLength(0);
  });

  test('the request body is sent as parsed by its schema (canonical form)', async () => {
    t.server.on('POST', '/api/x', (r) => ({ json: { ok: (r.json as { n: string }).n === 'TWO' } }));
    const { client: c } = client();
    const schema = z.object({ n: z.union([z.literal('TWO'), z.literal(2)]).transform(() => 'TWO') });
    await expect(c.call({ method: 'POST', path: '/api/x', body: { n: 2 }, requestSchema: schema, responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(t.server.requests[0].headers['content-type']).toBe('application/json');
  });

  test('an empty 200 body parses as {}', async () => {
    t.server.on('DELETE', '/api/x', () => ({ body: '' }));
    const { client: c } = client();
    await expect(c.call({ method: 'DELETE', path: '/api/x', responseSchema: z.object({}), idempotent: true })).resolves.toEqual({});
  });

  test('DELETE takes fields as repeated query params, or a JSON body when given one', async () => {
    t.server.on('DELETE', '/api/tests', () => ({ json: {} }));
    t.server.on('DELETE', '/api/alerts/v2', () => ({ json: {} }));
    const { client: c } = client();
    await c.call({ method: 'DELETE', path: '/api/tests', query: { ids: ['a', 'b'] }, responseSchema: z.object({}), idempotent: true });
    expect(t.server.requests[0].query.getAll('ids')).toEqual(['a', 'b']);
    expect(t.server.requests[0].body).toBe('');
    await c.call({ method: 'DELETE', path: '/api/alerts/v2', body: { identifier: { fqn: 'x' }, etag: 'e' }, responseSchema: z.object({}), idempotent: true });
    expect(t.server.requests[1].json).toEqual({ identifier: { fqn: 'x' }, etag: 'e' });
  });

  test('a base URL with a path prefix prefixes the token endpoint and every call', async () => {
    t.server.on('GET', '/prefix/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client({ baseUrl: `${t.server.url}/prefix/` });
    await expect(c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })).resolves.toEqual({ ok: true });
    expect(t.server.tokenRequests[0].path).toBe('/prefix/oauth2/token');
  });
});

describe('encodeQuery', () => {
  test.each([
    ['flattens nested objects to dotted keys (GET pagination)', { pagination: { cursor: 'c1', pageSize: 50 } }, '?pagination.cursor=c1&pagination.pageSize=50'],
    ['repeats array keys', { ids: ['a', 'b'] }, '?ids=a&ids=b'],
    ['skips undefined and null', { a: undefined, b: null, c: 'x' }, '?c=x'],
    ['sorts keys', { b: '1', a: '2' }, '?a=2&b=1'],
    ['encodes reserved characters', { rule: '{"a":"b c"}' }, '?rule=%7B%22a%22%3A%22b%20c%22%7D'],
    ['returns nothing for no params', {}, ''],
  ])('%s', (_reason, q, expected) => {
    expect(encodeQuery(q)).toBe(expected);
  });
});

describe('bounded connections', () => {
  // the same at 10,000 calls: pool.test.ts (left out of mutation runs for its time)
  test('concurrent calls use a bounded pool and a bounded number in flight, with one token', async () => {
    t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
    const { client: c } = client({ connections: 2, maxConcurrency: 3, onLog: undefined });
    const results = await Promise.all(Array.from({ length: 60 }, () => c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })));
    expect(results).toHaveLength(60);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(t.server.sockets).toBeLessThanOrEqual(2);
    expect(t.server.peakInFlight).toBeLessThanOrEqual(2);
    expect(c.limiter.peak).toBe(3);
    expect(t.server.tokenRequests).toHaveLength(1);
  });
});
