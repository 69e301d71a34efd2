/**
 * A response body that closes without its end and without an error (review of issue 27: the
 * client's body read makes no error for the close that follows every end, and must still make
 * one for this close): the call fails, it never reads the bytes it got as the whole body, even
 * when they are valid JSON. undici, mocked under the client, hands out such a body; the normal
 * body beside it (end, then close) is read as it always was.
 */
import { Readable } from 'node:stream';
import { z } from 'zod';
import { ApiError, DqClient } from '../../src/client';

const TOKEN = JSON.stringify({ access_token: 'close-test-token-0123456789', token_type: 'Bearer', expires_in: 3600 });

/** What the mocked undici does with the API call: answer whole, or close the body after `{"ok":true}` without its end. */
const mode: { api: 'whole' | 'closed' } = { api: 'whole' };

jest.mock('undici/lib/api/api-request', () => {
  return function request(opts: { path: string }) {
    const json = opts.path.includes('oauth2') ? TOKEN : '{"ok":true}';
    const body = new Readable({ read() {} });
    body.push(json);
    if (opts.path.includes('oauth2') || mode.api === 'whole') body.push(null);
    else setTimeout(() => body.destroy(), 10);
    return Promise.resolve({ statusCode: 200, headers: { 'content-type': 'application/json' }, body });
  };
});

const Ok = z.object({ ok: z.boolean() });
const clients: DqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
});

function call(): Promise<unknown> {
  const c = new DqClient({ baseUrl: 'http://127.0.0.1:9', clientId: 'id', clientSecret: 'close-secret-value-31337', retry: { maxAttempts: 1, sleep: async () => undefined } });
  clients.push(c);
  return c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true });
}

test('a body read to its end (then closed) is the answer', async () => {
  mode.api = 'whole';
  await expect(call()).resolves.toEqual({ ok: true });
});

test('a body closed without its end is an error, though what came is valid JSON', async () => {
  mode.api = 'closed';
  // a close left unanswered would hang the call: the test says so in 2 s instead of timing out
  let timer: NodeJS.Timeout | undefined;
  const hung = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('the call never settled'), 2000)));
  const err = await Promise.race([call().then(() => 'the call succeeded', (e: unknown) => e), hung]);
  clearTimeout(timer);
  expect(err).toBeInstanceOf(ApiError);
  expect((err as ApiError).message).toContain('truncated response');
});
