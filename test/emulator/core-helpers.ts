/** Shared helpers of the emulator core tests (not a test file). */
import { Status } from '../../schemas/platform/common';
import { z } from 'zod';
import * as iam from '../../src/emulator/routes/iam';
import { checkEtag, HttpResponse, invalidArgument, notFound, parseBody, runBatch, type RouteModule } from '../../src/emulator';

/** POSTs the token form; returns status and parsed body. */
export async function tokenRequest(url: string, form: Record<string, string>): Promise<{ status: number; body: Record<string, unknown> }> {
  const r = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

/** A bearer token for a client (demo secret by default). */
export async function tokenFor(url: string, clientId: string, clientSecret = 'demo-secret'): Promise<string> {
  const r = await tokenRequest(url, { grant_type: 'client_credentials', client_id: clientId, client_secret: clientSecret });
  if (r.status !== 200) throw new Error(`token request failed: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body.access_token as string;
}

/** A JSON call; returns status, headers and parsed body. */
export async function call(
  url: string,
  method: string,
  path: string,
  opts: { token?: string; body?: unknown; rawBody?: string } = {},
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${url}${path}`, { method, headers, body });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

/** Asserts a google.rpc.Status body with the given numeric code; returns it parsed. */
export function expectStatus(body: unknown, code: number): Status {
  const s = Status.parse(body);
  expect(s.code).toBe(code);
  expect(typeof s.message).toBe('string');
  expect(s.message.length).toBeGreaterThan(0);
  return s;
}

/** Test-only routes: a write route guarded by SCOPE_MCP_WRITE on a `things` collection. */
export const testRoutes: RouteModule = {
  register(app) {
    const Thing = z.object({ id: z.string().min(1), name: z.string().min(1).max(20), tags: z.array(z.string().min(1)).optional() });
    const PutReq = z.object({ thing: Thing, etag: z.string().optional() });
    type Thing = z.infer<typeof Thing>;
    app.route('PUT', '/test/v1/things', { scope: 'SCOPE_MCP_WRITE' }, (ctx) => {
      const req = parseBody(PutReq, ctx.body, 'put_thing');
      const things = ctx.store.collection<Thing>('things');
      checkEtag(things.get(req.thing.id), req.etag, `thing ${req.thing.id}`);
      return { thing: things.put(req.thing.id, req.thing) };
    });
    app.route('GET', '/test/v1/things/:id', { scope: 'SCOPE_ENTITY_READ' }, (ctx) => {
      const t = ctx.store.collection<Thing>('things').get(ctx.params.id);
      if (!t) throw notFound(`thing ${ctx.params.id} not found`);
      return { thing: t };
    });
    app.route('GET', '/test/v1/things/special', { scope: 'SCOPE_ENTITY_READ' }, () => ({ special: true }));
    const ListQuery = z.object({ cursor: z.string().optional(), pageSize: z.number().int().optional() });
    app.route('GET', '/test/v1/things', { scope: 'SCOPE_ENTITY_READ', operation: 'list_things', query: ListQuery }, (ctx) => {
      const q = ctx.q as z.infer<typeof ListQuery>;
      const p = ctx.store.collection<Thing>('things').page(q.cursor || undefined, q.pageSize ?? 0);
      return { things: p.items, pageInfo: p.pageInfo };
    });
    app.route('POST', '/test/v1/things/batch', { scope: 'SCOPE_MCP_WRITE' }, (ctx) => {
      const req = parseBody(z.object({ things: z.array(z.object({ id: z.string(), name: z.string() })) }), ctx.body, 'batch_put');
      const things = ctx.store.collection<Thing>('things');
      const { results, errors } = runBatch(
        req.things,
        (t) => t.id,
        (t) => {
          if (t.name.length > 20) throw invalidArgument('name too long', [{ field: 'name', ruleId: 'batch_put.name', message: 'at most 20 characters' }]);
          return things.put(t.id, t).etag;
        },
      );
      return { createdIds: results.map((r) => r.id), errors };
    });
    app.route('POST', '/test/v1/boom', { scope: null }, () => {
      throw new Error('kaboom');
    });
    app.route('POST', '/test/v1/accepted', { scope: null }, () => new HttpResponse(202, { accepted: true }, { 'x-extra': 'yes' }));
  },
};

/**
 * The route modules core tests use: the IAM route and the test routes only, so that these tests
 * do not depend on other services' modules (discovery has its own test).
 */
export const coreRoutes: RouteModule[] = [iam, testRoutes];
