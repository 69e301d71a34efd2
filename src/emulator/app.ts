/**
 * The emulator application: the route table, the plug-in interface for route modules, and the
 * request pipeline (request id, faults, auth and scopes, JSON parsing, handler, durable write,
 * a `dropAfter` fault, google.rpc.Status errors). `server.ts` only binds it to a socket.
 *
 * Route modules (`src/emulator/routes/<service>.ts`, listed in the generated
 * `routes/index.generated.ts`) export a {@link RouteTable} `routes` (and optionally a
 * {@link SeedHook} `demoSeed`); the app registers every table it is given
 * ({@link EmulatorApp.register}). See `src/emulator/README.md`.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Scope } from '../../schemas/platform/common';
import { AuthService, type Principal } from './auth';
import { buildCatalog, type Catalog } from './catalog';
import type { z } from 'zod';
import { marshal } from '../../schemas/platform/wire';
import { asEmulatorError, invalidArgument, notFound, parseQuery, permissionDenied, unauthenticated, unavailable } from './errors';
import { FaultInjector } from './faults';
import { EmulatorStore, mutationTracker, type Persistence, type Store } from './store';

export type { Principal } from './auth';

/** HTTP methods a route can answer. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** What a route handler receives. */
export interface RouteContext {
  /** Upper-case HTTP method. */
  method: HttpMethod;
  /** The request path (no query string), e.g. `/api/alerts/v2/list`. */
  path: string;
  /** Path parameters of the route pattern, URI-decoded (`/x/:id` -> `params.id`). */
  params: Record<string, string>;
  /** The query string. Repeated keys: `query.getAll('ids')`. */
  query: URLSearchParams;
  /**
   * The query string read against the route's `query` schema (dotted names, repeated keys,
   * enums decoded), or `{}` when the route declares none (then any parameter is refused).
   */
  q: Record<string, unknown>;
  /** The parsed JSON body, or undefined when the request had no body. */
  body: unknown;
  /** The caller, from its bearer token. The workspace comes from here, never from the payload. */
  principal: Principal;
  /** This request's id (also in the `x-request-id` response header). */
  requestId: string;
  /** The caller's workspace store. Writes through it are made durable before the response. */
  store: Store;
  /** The seeded entity catalog (`buildCatalog(seed, { size })` from `./catalog`), read-only. */
  catalog: Catalog;
  /** The emulator's clock (tests may inject one). Use it for createdAt/updatedAt. */
  now(): Date;
  /** Request headers (lower-case names). Never log `authorization`. */
  headers: IncomingHttpHeaders;
  /** The application (for cross-cutting needs; prefer the fields above). */
  app: EmulatorApp;
}

/**
 * A route handler. It returns the JSON response body (HTTP 200; `undefined` answers `{}`), or an
 * {@link HttpResponse} for another status or extra headers. It throws an {@link EmulatorError}
 * (see errors.ts helpers) to answer a google.rpc.Status error.
 */
export type RouteHandler = (ctx: RouteContext) => unknown | Promise<unknown>;

/** Per-route options. */
export interface RouteOptions {
  /**
   * The scopes the operation accepts: one scope, a list (ANY one of them suffices, as
   * wire-facts lists them), or `null` for "any valid token". Missing -> 403 PERMISSION_DENIED
   * naming them.
   */
  scope: Scope | readonly Scope[] | null;
  /** The operation's name in rule ids (`upsert`, `list`...). */
  operation?: string;
  /**
   * The request's query parameters (GET and DELETE): parsed strictly into `ctx.q` (an unknown
   * parameter, or a JSON value for a message, is 400). Absent: the route takes no parameters.
   */
  query?: z.ZodType;
  /**
   * The 200 response's schema: what `--marshal emit-unpopulated` and `--enums numbers` encode
   * against (the route's value is returned as is without one).
   */
  response?: z.ZodType;
  /**
   * Whether the request takes a JSON body. Default: POST, PUT, PATCH yes; GET and DELETE no (their
   * fields are query parameters; alerts v2 Delete is the one DELETE with a body). A body where
   * none is taken is 400.
   */
  body?: boolean;
}

/** How responses are encoded (the real gateway's options; `dqform emulator --marshal/--enums`). */
export interface WireMode {
  /** `omit` (default): unset fields are absent; `emit-unpopulated`: zeros, `""`, `[]`, `null` messages. */
  marshal: 'omit' | 'emit-unpopulated';
  /** `names` (default) or `numbers` (what the spec's GET responses show). */
  enums: 'names' | 'numbers';
}

/** Reads a wire mode from options, then the environment (`DQ_EMULATOR_MARSHAL`, `DQ_EMULATOR_ENUMS`); throws on a bad value. */
export function wireModeOf(opts: Partial<WireMode> = {}, env: NodeJS.ProcessEnv = process.env): WireMode {
  const marshal = opts.marshal ?? (env.DQ_EMULATOR_MARSHAL || 'omit');
  const enums = opts.enums ?? (env.DQ_EMULATOR_ENUMS || 'names');
  if (marshal !== 'omit' && marshal !== 'emit-unpopulated') throw new Error(`marshal mode must be omit or emit-unpopulated, got "${marshal}"`);
  if (enums !== 'names' && enums !== 'numbers') throw new Error(`enums mode must be names or numbers, got "${enums}"`);
  return { marshal, enums };
}

/** One row of a route table: the method and path pattern, the route's options and its handler. */
export interface RouteSpec extends RouteOptions {
  method: HttpMethod;
  /** Path with `:name` segments (see {@link EmulatorApp.route}). */
  path: string;
  handle: RouteHandler;
}

/** A route module's routes, in registration order. */
export type RouteTable = readonly RouteSpec[];

/**
 * A route module. `routes/<service>.ts` exports `routes: RouteTable` and optionally `demoSeed: SeedHook`
 * (run for each workspace store created empty under the `demo` seed);
 * a plug-in (tests, `discoverRouteModules(dir)`) may instead export `register(app)` and call
 * {@link EmulatorApp.route} itself.
 */
export type RouteModule = { routes: RouteTable; demoSeed?: SeedHook } | { register(app: EmulatorApp): void };

/** A non-200 or header-carrying response from a handler. */
export class HttpResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

/** What a seed hook receives. */
export interface SeedContext {
  /** `demo` or `empty`. */
  seed: EmulatorSeed;
  /** The requested catalog size, if any. */
  seedSize: number | undefined;
  /** The catalog (see {@link RouteContext.catalog}). */
  catalog: Catalog;
  /** The emulator's clock. */
  now(): Date;
}

/** Seeds of the emulator's state. */
export type EmulatorSeed = 'demo' | 'empty';

/**
 * Called for each workspace store when it is created empty: at first use of a workspace, after
 * a reset, never for state loaded from the data file. Route modules seed their collections here
 * (typically only when `seed === 'demo'`).
 */
export type SeedHook = (store: Store, ctx: SeedContext) => void;

interface Route {
  method: HttpMethod;
  pattern: string;
  segments: string[];
  literalCount: number;
  options: RouteOptions;
  handler: RouteHandler;
  order: number;
}

/** Request counters (see admin `GET /__emulator/requests`). */
export interface RequestCounters {
  total: number;
  /** Keyed `"<METHOD> <pattern>"`; unmatched requests count under `"<METHOD> (unmatched)"`. */
  routes: Record<string, number>;
  /**
   * API requests (REST and gRPC) being handled now, a gauge (not zeroed by a reset): 0 once every
   * request that arrived, a write in flight when its client died included, has run to its end.
   */
  inFlight: number;
}

/** Options of {@link EmulatorApp}. */
export interface EmulatorAppOptions {
  seed?: EmulatorSeed;
  seedSize?: number;
  tokenTtlSeconds?: number;
  /** Milliseconds since the epoch; defaults to Date.now. */
  clock?: () => number;
  log?: (line: string) => void;
  /** Builds the catalog for a seed; default `buildCatalog` from ./catalog (tests may override). */
  buildCatalog?: (seed: EmulatorSeed, size?: number) => Catalog;
  /** Response encoding; default from `DQ_EMULATOR_MARSHAL` / `DQ_EMULATOR_ENUMS`, else omit + names. */
  wire?: Partial<WireMode>;
}

/** Largest accepted request body. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** The emulator application. */
export class EmulatorApp {
  /** The whole state. */
  readonly store: EmulatorStore;
  /** Credentials and tokens. */
  readonly auth: AuthService;
  /** Fault injection (off by default). */
  readonly faults = new FaultInjector();
  /** Set by the server when a data file is used. */
  persistence: Persistence | undefined;
  /** The current seed. */
  seed: EmulatorSeed;
  /** The current catalog size option. */
  seedSize: number | undefined;
  /** See {@link RouteContext.catalog}. */
  catalog: Catalog;
  /** The clock, in milliseconds since the epoch. */
  readonly clock: () => number;
  /** Log sink (one line per request; never secrets). */
  readonly log: (line: string) => void;
  /** How responses are encoded (may be changed at run time, e.g. by tests). */
  wire: WireMode;

  private readonly routes: Route[] = [];
  private readonly seedHooks: SeedHook[] = [];
  private counters: Omit<RequestCounters, 'inFlight'> = { total: 0, routes: {} };
  private inFlight = 0;
  private readonly buildCatalogFn: (seed: EmulatorSeed, size?: number) => Catalog;
  /** Admin handler (installed by admin.ts). */
  adminHandler: ((req: IncomingMessage, res: ServerResponse, url: URL, requestId: string) => Promise<void>) | undefined;

  constructor(opts: EmulatorAppOptions = {}) {
    this.seed = opts.seed ?? 'demo';
    this.seedSize = opts.seedSize;
    this.clock = opts.clock ?? Date.now;
    this.log = opts.log ?? (() => undefined);
    this.buildCatalogFn = opts.buildCatalog ?? ((seed, size) => buildCatalog(seed, size === undefined ? {} : { size }));
    this.catalog = this.buildCatalogFn(this.seed, this.seedSize);
    this.auth = new AuthService(this.clock, opts.tokenTtlSeconds ?? 3600);
    this.store = new EmulatorStore((s) => this.runSeedHooks(s));
    this.wire = wireModeOf(opts.wire);
  }

  /**
   * Registers a route. `pattern` is a path with `:name` segments (`/api/owners/v1/:owner_id/ownerships`);
   * a literal segment wins over a parameter (`/api/alerts/v2/list` before `/api/alerts/v2/:id`).
   * Registering the same method and pattern twice is an error.
   */
  route(method: HttpMethod, pattern: string, options: RouteOptions, handler: RouteHandler): void {
    const segments = splitPath(pattern);
    const dup = this.routes.find((r) => r.method === method && r.segments.join('/') === segments.join('/'));
    if (dup) throw new Error(`emulator route ${method} ${pattern} is registered twice`);
    this.routes.push({
      method,
      pattern,
      segments,
      literalCount: segments.filter((s) => !s.startsWith(':')).length,
      options,
      handler,
      order: this.routes.length,
    });
  }

  /** Registers every route of a table, in order. */
  registerTable(table: RouteTable): void {
    for (const { method, path, handle, ...options } of table) this.route(method, path, options, handle);
  }

  /** Registers a route module: its table and its demo seed, or its own `register(app)`. */
  register(module: RouteModule): void {
    if ('register' in module) {
      module.register(this);
      return;
    }
    this.registerTable(module.routes);
    const demoSeed = module.demoSeed;
    if (demoSeed) {
      this.onSeed((store, ctx) => {
        if (ctx.seed === 'demo') demoSeed(store, ctx);
      });
    }
  }

  /** Registers a seed hook (see {@link SeedHook}). */
  onSeed(hook: SeedHook): void {
    this.seedHooks.push(hook);
  }

  /** Adds (or replaces) a client credential: a test hook. */
  addCredential(clientId: string, clientSecret: string, scopes: readonly string[], workspace = 'demo'): void {
    this.auth.addCredential(clientId, clientSecret, scopes, workspace);
  }

  /** The routes with their options, sorted by method and pattern (tests check every route declares its shapes). */
  routeInfo(): { method: HttpMethod; pattern: string; options: RouteOptions }[] {
    return this.routes.map((r) => ({ method: r.method, pattern: r.pattern, options: r.options })).sort((a, b) => (`${a.method} ${a.pattern}` < `${b.method} ${b.pattern}` ? -1 : 1));
  }

  /** The routes, as `"<METHOD> <pattern>"`, sorted. */
  routeList(): string[] {
    return this.routes.map((r) => `${r.method} ${r.pattern}`).sort();
  }

  /** Finds the route for a request, or undefined. */
  match(method: string, path: string): { route: Route; params: Record<string, string> } | undefined {
    const segs = splitPath(path);
    let best: { route: Route; params: Record<string, string> } | undefined;
    for (const r of this.routes) {
      if (r.method !== method || r.segments.length !== segs.length) continue;
      const params: Record<string, string> = {};
      let ok = true;
      for (let i = 0; i < segs.length && ok; i++) {
        const p = r.segments[i];
        if (p.startsWith(':')) {
          try {
            params[p.slice(1)] = decodeURIComponent(segs[i]);
          } catch {
            ok = false;
          }
        } else if (p !== segs[i]) ok = false;
      }
      if (!ok) continue;
      if (!best || r.literalCount > best.route.literalCount) best = { route: r, params };
    }
    return best;
  }

  /** Sets the seed metadata (e.g. from a loaded data file) and rebuilds the catalog; state is kept. */
  useSeed(seed: EmulatorSeed, seedSize: number | undefined): void {
    if (seed === this.seed && seedSize === this.seedSize) return;
    this.seed = seed;
    this.seedSize = seedSize;
    this.catalog = this.buildCatalogFn(seed, seedSize);
  }

  /** Resets the state: every workspace is dropped and re-seeded on next use. */
  reset(seed?: EmulatorSeed, seedSize?: number): void {
    if (seed) this.seed = seed;
    if (seedSize !== undefined) this.seedSize = seedSize;
    this.catalog = this.buildCatalogFn(this.seed, this.seedSize);
    this.store.clear();
    this.auth.seedDemoCredentials();
  }

  /** A copy of the request counters. */
  requestCounters(): RequestCounters {
    const routes: Record<string, number> = {};
    for (const k of Object.keys(this.counters.routes).sort()) routes[k] = this.counters.routes[k];
    return { total: this.counters.total, routes, inFlight: this.inFlight };
  }

  /** Marks an API request as being handled; call the returned function once when it ends. */
  requestStarted(): () => void {
    this.inFlight++;
    let ended = false;
    return () => {
      if (!ended) this.inFlight--;
      ended = true;
    };
  }

  /** Zeroes the request counters. */
  resetRequestCounters(): void {
    this.counters = { total: 0, routes: {} };
  }

  /** Awaits the durable write of everything mutated so far (no-op without a data file). */
  async flush(): Promise<void> {
    await this.persistence?.flush();
  }

  private runSeedHooks(store: Store): void {
    const ctx: SeedContext = { seed: this.seed, seedSize: this.seedSize, catalog: this.catalog, now: () => new Date(this.clock()) };
    for (const h of this.seedHooks) h(store, ctx);
  }

  /** Counts a request under `key` (`"<METHOD> <pattern>"`; gRPC calls count as `"GRPC <method path>"`). */
  countRequest(key: string): void {
    this.count(key);
  }

  /**
   * The caller of a request from its `authorization` value (`Bearer <token>`), REST header or
   * gRPC metadata alike. @throws EmulatorError UNAUTHENTICATED.
   */
  principalOf(authorization: string | undefined): Principal {
    return this.authenticate(authorization);
  }

  private count(key: string): void {
    this.counters.total++;
    this.counters.routes[key] = (this.counters.routes[key] ?? 0) + 1;
  }

  /** Handles one HTTP request end to end. Never throws. */
  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const incomingId = req.headers['x-request-id'];
    const requestId = typeof incomingId === 'string' && /^[\w.:-]{1,128}$/.test(incomingId) ? incomingId : randomUUID();
    res.setHeader('x-request-id', requestId);
    const method = (req.method ?? 'GET').toUpperCase();
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://emulator.local');
    } catch {
      url = new URL('http://emulator.local/');
    }
    const path = url.pathname;
    let slow: number | undefined;
    let dropped = false;
    let ended: (() => void) | undefined;
    try {
      if (path === '/__emulator' || path.startsWith('/__emulator/')) {
        if (!this.adminHandler) throw notFound(`no admin endpoints`);
        await this.adminHandler(req, res, url, requestId);
        return;
      }
      ended = this.requestStarted();
      if (path === '/oauth2/token') {
        this.count(`${method} /oauth2/token`);
        const raw = await readBody(req);
        const r = this.auth.handleTokenRequest(method, req.headers, raw);
        await sendJson(res, r.status, r.body, { 'cache-control': 'no-store' });
        return;
      }
      const m = this.match(method, path);
      this.count(m ? `${method} ${m.route.pattern}` : `${method} (unmatched)`);
      const fault = await this.faults.apply(method, path, () => new Promise((gone) => (res.destroyed ? gone(undefined) : res.once('close', gone))));
      if (fault.kind === 'drop') {
        req.socket.destroy();
        dropped = true;
        return;
      }
      if (fault.kind === 'error') throw fault.error;
      slow = fault.slowMs;
      const raw = await readBody(req);
      if (!m) throw notFound(`no route for ${method} ${path}`);
      const principal = this.authenticate(req.headers.authorization);
      authorize(principal, m.route.options.scope, `${method} ${m.route.pattern}`);
      let body: unknown;
      if (raw.length > 0 && raw.toString('utf8').trim() !== '') {
        try {
          body = JSON.parse(raw.toString('utf8'));
        } catch (e) {
          throw invalidArgument(`malformed JSON body: ${(e as Error).message}`);
        }
      }
      const opts = m.route.options;
      const operation = opts.operation ?? 'request';
      if (body !== undefined && !(opts.body ?? !(method === 'GET' || method === 'DELETE'))) {
        throw invalidArgument(`invalid ${operation} request: ${method} ${m.route.pattern} takes no body (its fields are query parameters)`, [
          { field: '', ruleId: `${operation}.no_body`, message: 'this operation takes no request body' },
        ]);
      }
      let q: Record<string, unknown> = {};
      if (opts.query) q = parseQuery(opts.query, url.searchParams, operation) as Record<string, unknown>;
      else if ([...url.searchParams.keys()].length) {
        const names = [...new Set(url.searchParams.keys())];
        throw invalidArgument(`invalid ${operation} request: ${method} ${m.route.pattern} takes no query parameters`, names.map((k) => ({ field: k, ruleId: `${operation}.unknown_field`, message: `unknown query parameter "${k}"` })));
      }
      const ctx: RouteContext = {
        method: method as HttpMethod,
        path,
        params: m.params,
        query: url.searchParams,
        q,
        body,
        principal,
        requestId,
        store: this.store.workspace(principal.workspace),
        catalog: this.catalog,
        now: () => new Date(this.clock()),
        headers: req.headers,
        app: this,
      };
      const record = { mutated: false };
      const result = await mutationTracker.run(record, () => m.route.handler(ctx));
      if (record.mutated) await this.flush();
      if (record.mutated && fault.dropAfter?.()) {
        // the write is applied and durable; the client never hears of it
        req.socket.destroy();
        dropped = true;
        return;
      }
      if (result instanceof HttpResponse) await sendJson(res, result.status, result.body ?? {}, result.headers, slow);
      else await sendJson(res, 200, this.encode(opts.response, result ?? {}), {}, slow);
    } catch (e) {
      const err = asEmulatorError(e, this.log, requestId);
      if (!res.headersSent && !res.destroyed) await sendJson(res, err.httpStatus, err.toStatus(), err.headers, slow);
    } finally {
      ended?.();
      const outcome = dropped ? 'dropped (fault)' : String(res.statusCode);
      this.log(`${method} ${path} ${outcome} ${(performance.now() - started).toFixed(1)}ms ${requestId}`);
    }
  }

  /** A 200 response body in the configured {@link WireMode} (as is without a response schema). */
  encode(schema: z.ZodType | undefined, value: unknown): unknown {
    if (!schema) return value;
    return marshal(schema, value, { emitUnpopulated: this.wire.marshal === 'emit-unpopulated', enumNumbers: this.wire.enums === 'numbers' });
  }

  private authenticate(header: string | undefined): Principal {
    if (!header) throw unauthenticated('missing Authorization header (expected "Bearer <token>")');
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw unauthenticated('malformed Authorization header (expected "Bearer <token>")');
    const p = this.auth.verify(m[1]);
    if (p === 'expired') throw unauthenticated('access token expired; request a new one');
    if (!p) throw unauthenticated('access token is not valid');
    return p;
  }
}

/** Throws PERMISSION_DENIED when `principal` lacks the route's scope (any one of a list). */
export function authorize(principal: Principal, scope: RouteOptions['scope'], operation: string): void {
  if (scope === null) return;
  const wanted = typeof scope === 'string' ? [scope] : scope;
  if (wanted.length === 0 || wanted.some((s) => principal.scopes.includes(s))) return;
  const name = wanted.join(' or ');
  throw permissionDenied(`${operation} requires ${wanted.length > 1 ? 'one of the scopes' : 'scope'} ${name}, which the credential ${principal.clientId} does not have`, wanted[0]);
}

function splitPath(p: string): string[] {
  return p.split('/').filter((s) => s !== '');
}

/** Reads a request body (at most {@link MAX_BODY_BYTES}). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY_BYTES) {
        if (!failed) reject(invalidArgument(`request body exceeds ${MAX_BODY_BYTES} bytes`));
        failed = true;
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
      failed = true;
    });
    // A client gone before its body arrived (killed, timed out) ends the request: without this a
    // stream destroyed earlier (during a latency fault) never ends and the handler waits forever.
    const gone = () => {
      if (!failed && !req.readableEnded) reject(unavailable('the client closed the connection before its request body arrived'));
      failed = true;
    };
    if (req.destroyed) gone();
    else req.on('close', gone);
  });
}

/**
 * Sends a JSON response. With `slowMs`, the body is trickled in chunks over that many
 * milliseconds (the "slow response" fault).
 */
export async function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
  slowMs?: number,
): Promise<void> {
  const text = JSON.stringify(body);
  const buf = Buffer.from(text, 'utf8');
  res.statusCode = status;
  res.setHeader('content-type', 'application/json; charset=utf-8');
  res.setHeader('content-length', String(buf.length));
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  if (!slowMs || slowMs <= 0 || buf.length < 2) {
    res.end(buf);
    return;
  }
  const parts = Math.min(10, buf.length);
  const step = Math.ceil(buf.length / parts);
  res.flushHeaders();
  for (let off = 0; off < buf.length; off += step) {
    if (res.destroyed) return;
    res.write(buf.subarray(off, off + step));
    await new Promise((r) => setTimeout(r, slowMs / parts));
  }
  res.end();
}
