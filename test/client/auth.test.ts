/**
 * TokenProvider on a fake clock and a fake token endpoint (no server): what it caches, when it
 * refreshes, what a 401 drops. Mutation testing found `invalidate` could drop any token (or throw
 * before the first one) unnoticed: a burst of 401s answered to an old token would refetch for
 * every call instead of once.
 */
import { TokenProvider, tokenRequestBody } from '../../src/client/auth';

/** A token endpoint that answers tok-1, tok-2, ... with `expires_in` seconds, counting calls. */
function endpoint(expiresIn = 3600, scope?: string) {
  let n = 0;
  const fetch = jest.fn(async () => {
    n++;
    return { access_token: `tok-${n}-abcdefgh`, expires_in: expiresIn, token_type: 'Bearer', ...(scope ? { scope } : {}) };
  });
  return fetch;
}

function clock(start = 1_000_000) {
  const c = { t: start, now: () => c.t };
  return c;
}

test('the token request is the client-credentials form', () => {
  expect(new URLSearchParams(tokenRequestBody('id-1', 's&cret'))).toEqual(new URLSearchParams({ client_id: 'id-1', client_secret: 's&cret', grant_type: 'client_credentials' }));
});

test('a token is cached until the default margin (60 s) before it expires, then refetched', async () => {
  const c = clock();
  const fetch = endpoint(3600);
  const p = new TokenProvider(fetch, { now: c.now });
  expect(await p.getToken()).toBe('tok-1-abcdefgh');
  c.t += 3600_000 - 60_000 - 1;
  expect(await p.getToken()).toBe('tok-1-abcdefgh');
  expect(p.fetches).toBe(1);
  c.t += 1;
  expect(await p.getToken()).toBe('tok-2-abcdefgh');
  expect(p.fetches).toBe(2);
  expect(fetch).toHaveBeenCalledTimes(2);
});

test('the margin is never more than half the lifetime (a 60 s token is refreshed after 30 s)', async () => {
  const c = clock();
  const p = new TokenProvider(endpoint(60), { now: c.now, marginMs: 600_000 });
  await p.getToken();
  c.t += 29_999;
  expect(await p.getToken()).toBe('tok-1-abcdefgh');
  c.t += 1;
  expect(await p.getToken()).toBe('tok-2-abcdefgh');
});

test('a configured margin shorter than half the lifetime is used as is', async () => {
  const c = clock();
  const p = new TokenProvider(endpoint(3600), { now: c.now, marginMs: 1000 });
  await p.getToken();
  c.t += 3600_000 - 1001;
  expect(await p.getToken()).toBe('tok-1-abcdefgh');
  c.t += 1;
  expect(await p.getToken()).toBe('tok-2-abcdefgh');
});

test('concurrent callers share one token request; after it settles a new one can start', async () => {
  const c = clock();
  const fetch = endpoint(3600);
  const p = new TokenProvider(fetch, { now: c.now });
  const tokens = await Promise.all([p.getToken(), p.getToken(), p.getToken()]);
  expect(tokens).toEqual(['tok-1-abcdefgh', 'tok-1-abcdefgh', 'tok-1-abcdefgh']);
  expect(fetch).toHaveBeenCalledTimes(1);
  p.invalidate('tok-1-abcdefgh');
  expect(await p.getToken()).toBe('tok-2-abcdefgh');
});

test('a failed token request is not cached: the next call asks again', async () => {
  let fail = true;
  const p = new TokenProvider(async () => {
    if (fail) throw new Error('token endpoint down');
    return { access_token: 'tok-ok-abcdefgh', expires_in: 3600, token_type: 'Bearer' };
  });
  await expect(p.getToken()).rejects.toThrow('token endpoint down');
  fail = false;
  expect(await p.getToken()).toBe('tok-ok-abcdefgh');
  expect(p.fetches).toBe(2);
});

describe('invalidate (the API answered 401 to a token)', () => {
  test('drops the cached token: the next call fetches a new one', async () => {
    const p = new TokenProvider(endpoint());
    const t1 = await p.getToken();
    p.invalidate(t1);
    expect(await p.getToken()).toBe('tok-2-abcdefgh');
  });

  test('a token already replaced is left alone: late 401s to the old token cause no further refetch', async () => {
    const fetch = endpoint();
    const p = new TokenProvider(fetch);
    const t1 = await p.getToken();
    p.invalidate(t1);
    const t2 = await p.getToken();
    p.invalidate(t1);
    p.invalidate(t1);
    expect(await p.getToken()).toBe(t2);
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  test('before any token was fetched it is a no-op (no error, nothing fetched)', () => {
    const fetch = endpoint();
    const p = new TokenProvider(fetch);
    expect(() => p.invalidate('tok-x')).not.toThrow();
    expect(fetch).not.toHaveBeenCalled();
  });
});

test('scope: the scopes the token endpoint named, undefined before a token and when none were named', async () => {
  const p = new TokenProvider(endpoint(3600, 'dq.read dq.write'));
  expect(p.scope).toBeUndefined();
  await p.getToken();
  expect(p.scope).toBe('dq.read dq.write');
  const q = new TokenProvider(endpoint(3600));
  await q.getToken();
  expect(q.scope).toBeUndefined();
});
