/**
 * The per-call work of the client above undici (issue 27): a call with a valid cached token
 * takes it without waiting on the token provider, and sends the same headers, in the same order,
 * as always (accept, user-agent, x-request-id, authorization, then content-type for a body).
 * @gateway-exempt a plain node:http server, no emulator
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';
import { DqClient } from '../../src/client/http';
import { TokenProvider } from '../../src/client/auth';

let server: http.Server;
let url = '';
const seen: { method: string; url: string; headers: string[] }[] = [];

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.rawHeaders.filter((_h, i) => i % 2 === 0).map((h) => h.toLowerCase()) });
      res.setHeader('content-type', 'application/json');
      if (req.url === '/oauth2/token') res.end(JSON.stringify({ access_token: 'tok-abcdefgh-1', expires_in: 3600, token_type: 'Bearer' }));
      else res.end(JSON.stringify({ ok: true, echo: body }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

test('a call with a valid cached token does not wait on the token provider; the headers are sent in their order', async () => {
  const c = new DqClient({ baseUrl: url, clientId: 'id', clientSecret: 'secret-abcdefgh', retry: { maxAttempts: 1 } });
  try {
    const wait = jest.spyOn(TokenProvider.prototype, 'getToken');
    const ok = z.object({ ok: z.boolean() });
    await c.call({ method: 'GET', path: '/api/x', responseSchema: ok, idempotent: true });
    expect(wait).toHaveBeenCalledTimes(1); // the first call fetches the token
    wait.mockClear();
    await c.call({ method: 'GET', path: '/api/x', query: { a: 1 }, responseSchema: ok, idempotent: true });
    await c.call({ method: 'POST', path: '/api/y', body: { b: 2 }, responseSchema: ok, idempotent: true });
    expect(wait).not.toHaveBeenCalled();
    wait.mockRestore();
    const token = seen.find((s) => s.url === '/oauth2/token')!;
    const gets = seen.filter((s) => s.url.startsWith('/api/x'));
    const post = seen.find((s) => s.url === '/api/y')!;
    const ours = (h: string[]) => h.filter((x) => ['accept', 'user-agent', 'x-request-id', 'authorization', 'content-type'].includes(x));
    expect(ours(token.headers)).toEqual(['accept', 'user-agent', 'x-request-id', 'content-type']);
    for (const g of gets) expect(ours(g.headers)).toEqual(['accept', 'user-agent', 'x-request-id', 'authorization']);
    expect(ours(post.headers)).toEqual(['accept', 'user-agent', 'x-request-id', 'authorization', 'content-type']);
    expect(gets.map((g) => g.url)).toEqual(['/api/x', '/api/x?a=1']);
  } finally {
    await c.close();
  }
});
