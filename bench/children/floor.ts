/**
 * Bench child: the floor of a no-change plan (issue 27). The same requests the plan makes (the
 * list and batch calls recorded from a no-change plan by bench/run.ts, in the order it sent
 * them: argv[2], `[{ method, path, body? }]`), made with the same HTTP stack (undici's Pool and
 * `request`, loaded as src/client/http.ts loads them, 32 connections and 32 in flight) after a
 * token (client credentials from DQ_CLIENT_ID / DQ_CLIENT_SECRET against DQ_BASE_URL), and
 * `JSON.parse` of every body and of the manifest (argv[3], the stack's cdk.tf.json): no
 * validation, normalising, resolution or diff, no dqform module. Whatever a plan costs above
 * this is dqform's. Prints one JSON line: `{ inProcessMs, maxRssMb, apiRequests, failed, bytes }` (`apiRequests`: the
 * recorded ones, as the emulator counts a plan's; the token request is made besides).
 */
const t0 = process.hrtime.bigint();
import * as fs from 'node:fs';
import type { Dispatcher, Pool } from 'undici';

type RequestFn = (this: Pool, opts: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
interface Recorded {
  method: Dispatcher.HttpMethod;
  path: string;
  body?: string;
}

/** The client's in-flight bound (src/client/http.ts: 32 sockets, limiter 32). */
const IN_FLIGHT = 32;

async function run(): Promise<void> {
  const PoolImpl = require('undici/lib/dispatcher/pool') as typeof Pool;
  const requestImpl = require('undici/lib/api/api-request') as RequestFn;
  const base = new URL(process.env.DQ_BASE_URL ?? '');
  const prefix = base.pathname.replace(/\/$/, '');
  const pool = new PoolImpl(base.origin, { connections: IN_FLIGHT });
  const manifest = JSON.parse(fs.readFileSync(process.argv[3], 'utf8')) as unknown;
  const log = JSON.parse(fs.readFileSync(process.argv[2], 'utf8')) as Recorded[];
  let bytes = 0;
  let failed = 0;
  const send = async (r: Recorded, headers: Record<string, string>): Promise<unknown> => {
    const res = await requestImpl.call(pool, { origin: base.origin, method: r.method, path: r.path, headers: { accept: 'application/json', ...headers }, body: r.body });
    const text = await res.body.text();
    bytes += text.length;
    if (res.statusCode >= 400) failed++;
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  const form = new URLSearchParams({ client_id: process.env.DQ_CLIENT_ID ?? '', client_secret: process.env.DQ_CLIENT_SECRET ?? '', grant_type: 'client_credentials' }).toString();
  const token = (await send({ method: 'POST', path: `${prefix}/oauth2/token`, body: form }, { 'content-type': 'application/x-www-form-urlencoded' })) as { access_token: string };
  const auth = { authorization: `Bearer ${token.access_token}` };
  const withBody = (r: Recorded) => (r.body === undefined ? auth : { ...auth, 'content-type': 'application/json' });
  // the workspace first (the plan waits for it before reading), then the reads, IN_FLIGHT at a time
  const first = log.filter((r) => r.path.includes('/iam/'));
  for (const r of first) await send(r, withBody(r));
  const rest = log.filter((r) => !first.includes(r));
  let next = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async () => {
      while (next < rest.length) {
        const r = rest[next++];
        await send(r, withBody(r));
      }
    }),
  );
  await pool.close();
  const inProcessMs = Number(process.hrtime.bigint() - t0) / 1e6;
  void manifest;
  process.stdout.write(`${JSON.stringify({ inProcessMs, maxRssMb: process.resourceUsage().maxRSS / 1024, apiRequests: log.length, failed, bytes })}\n`);
}
void run();
