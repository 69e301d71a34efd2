/**
 * The connection pool at scale: 10,000 concurrent calls (a few seconds; left out of mutation
 * runs, test/config/jest.stryker.config.js; http.test.ts checks the same bounds with 60 calls).
 */
import { z } from 'zod';
import { serverPerTest } from './helpers/client';

const Ok = z.object({ ok: z.boolean() });

const t = serverPerTest();

test('10,000 concurrent calls use a bounded pool and a bounded number in flight', async () => {
  t.server.on('GET', '/api/x', () => ({ json: { ok: true } }));
  const { client: c } = t.client({ connections: 4, maxConcurrency: 8, onLog: undefined });
  const results = await Promise.all(Array.from({ length: 10_000 }, () => c.call({ method: 'GET', path: '/api/x', responseSchema: Ok, idempotent: true })));
  expect(results).toHaveLength(10_000);
  expect(results.every((r) => r.ok)).toBe(true);
  // at most 4 sockets open at once (under load an idle keep-alive socket may close and reopen)
  expect(t.server.peakOpenSockets).toBeLessThanOrEqual(4);
  expect(t.server.peakOpenSockets).toBeGreaterThan(0);
  expect(t.server.peakInFlight).toBeLessThanOrEqual(4);
  expect(c.limiter.peak).toBeLessThanOrEqual(8);
  expect(t.server.tokenRequests).toHaveLength(1);
}, 180_000); // a ceiling: 21 s alone, over 60 s in npm test at load 30 on 2 cores
