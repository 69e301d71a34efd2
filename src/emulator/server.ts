/**
 * `startEmulator`: binds an {@link EmulatorApp} to a node:http server, discovers the route
 * modules in `routes/`, loads and persists the state file, and shuts down cleanly.
 */
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { installAdmin } from './admin';
import { EmulatorApp, type EmulatorAppOptions, type EmulatorSeed, type RouteModule, type WireMode } from './app';
import type { FaultConfig } from './faults';
import { startGrpcServer, type RunningGrpcServer } from './grpc';
import { Persistence } from './store';
import { ROUTE_MODULES } from './routes/index.generated';

/** Options of {@link startEmulator}. */
export interface StartEmulatorOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** State file: loaded at start if it exists, written atomically after each mutating request. */
  dataFile?: string;
  /** Seed for empty state; default `demo`. Ignored for state loaded from `dataFile` (its seed wins). */
  seed?: EmulatorSeed;
  /** Catalog size passed to `buildCatalog`. */
  seedSize?: number;
  /** Lifetime of issued tokens; default 3600. */
  tokenTtlSeconds?: number;
  /** Initial fault configuration (off by default). */
  faults?: FaultConfig;
  /** One line per request and lifecycle event. Never receives secrets. */
  log?: (line: string) => void;
  /** Clock in ms since the epoch (tests); default Date.now. */
  clock?: () => number;
  /** Extra route modules (e.g. test routes), registered after the discovered ones. */
  routes?: RouteModule[];
  /** Discover `routes/*` modules (default true). */
  discoverRoutes?: boolean;
  /** Write-coalescing window in ms (default 2). */
  coalesceMs?: number;
  /**
   * Response encoding (`dqform emulator --marshal`): `omit` unset fields (default) or
   * `emit-unpopulated` (zeros, `""`, `[]`, `null` for unset messages, as the real gateway can).
   * Default: env `DQ_EMULATOR_MARSHAL`, else `omit`.
   */
  marshal?: WireMode['marshal'];
  /** Enums in responses (`--enums`): `names` (default) or `numbers`. Default: env `DQ_EMULATOR_ENUMS`, else `names`. */
  enums?: WireMode['enums'];
  /** Serve the gRPC preview calls on a port of their own (default true; `dqform emulator --no-grpc`). */
  grpc?: boolean;
  /** The gRPC port; 0 (the default) picks a free one. Bound on `host`. */
  grpcPort?: number;
  /** First word of the gRPC package names (default `platform`). */
  grpcPackage?: string;
  /** Builds the catalog for a seed (tests: a catalog of their own); default `buildCatalog` from ./catalog. */
  buildCatalog?: EmulatorAppOptions['buildCatalog'];
  /**
   * Host names (beyond loopback names, loopback addresses and the bound address) that requests
   * may be addressed to (the `Host` header); default: env `DQ_EMULATOR_ALLOWED_HOSTS`
   * (comma-separated), else none. Requests for any other host are refused (DNS rebinding).
   */
  allowedHosts?: readonly string[];
}

/** `localhost`, `127.x.x.x` and `::1` (not `*.localhost`: the system resolver may ask the network for it). */
export function isLoopbackName(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lower case; undefined when malformed. */
export function hostHeaderName(value: string | undefined): string | undefined {
  if (!value) return undefined;
  const v = value.trim().toLowerCase();
  const m = /^\[([0-9a-f:.]+)\](?::\d{1,5})?$/.exec(v) ?? /^([a-z0-9._-]+)(?::\d{1,5})?$/.exec(v);
  return m?.[1];
}

/**
 * The host names requests may be addressed to: loopback, the bound address, `extra`, and, when
 * bound to every interface (`0.0.0.0`, `::`), this machine's own interface addresses.
 */
function allowedHostNames(bound: string, extra: readonly string[]): (name: string) => boolean {
  const names = new Set([bound, ...extra].map((h) => h.replace(/^\[|\]$/g, '').toLowerCase()));
  if (bound === '0.0.0.0' || bound === '::') {
    for (const list of Object.values(os.networkInterfaces())) for (const i of list ?? []) names.add(i.address.toLowerCase());
  }
  return (name) => isLoopbackName(name) || names.has(name);
}

/** The warning for an emulator bound beyond loopback (undefined for a loopback bind). */
export function exposureWarning(host: string): string | undefined {
  if (isLoopbackName(host)) return undefined;
  return `warning: the emulator is bound to ${host}, beyond this machine: anyone who can reach it can use the public demo credentials over plain http (bind 127.0.0.1, the default, unless this network is trusted)`;
}

/** A running emulator. */
export interface RunningEmulator {
  /** Base URL, e.g. `http://127.0.0.1:41234` (no trailing slash). */
  url: string;
  /** The bound port. */
  port: number;
  /** The application (routes, store, auth, faults). */
  app: EmulatorApp;
  /** `host:port` of the gRPC preview service (what `DQ_GRPC_ENDPOINT` takes); undefined with `grpc: false`. */
  grpcEndpoint: string | undefined;
  /** The bound gRPC port; undefined with `grpc: false`. */
  grpcPort: number | undefined;
  /** Stops accepting, closes every connection, awaits the last state write. */
  close(): Promise<void>;
}

/**
 * The route modules: without `dir`, those of `routes/` as `routes/index.generated.ts` lists them
 * (written by `npm run registries`); with `dir`, every `*.ts` (or `*.js` when compiled) there
 * not starting with `_`, sorted.
 */
export function discoverRouteModules(dir?: string): RouteModule[] {
  if (dir === undefined) return [...ROUTE_MODULES];
  const ext = path.extname(__filename);
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(ext) && !f.endsWith('.d.ts') && !f.startsWith('_') && !f.includes('.test.'))
    .sort();
  return files.map((f) => {
    const m = require(path.join(dir, f)) as { routes?: unknown; register?: unknown };
    if (!Array.isArray(m.routes) && typeof m.register !== 'function') throw new Error(`emulator route module ${f} does not export register(app) or routes (a RouteTable)`);
    return m as RouteModule;
  });
}

/** Starts an emulator. */
export async function startEmulator(opts: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const log = opts.log ?? (() => undefined);
  const app = new EmulatorApp({
    seed: opts.seed ?? 'demo',
    seedSize: opts.seedSize,
    tokenTtlSeconds: opts.tokenTtlSeconds,
    clock: opts.clock,
    log,
    wire: { marshal: opts.marshal, enums: opts.enums },
    ...(opts.buildCatalog ? { buildCatalog: opts.buildCatalog } : {}),
  });
  installAdmin(app);
  const modules = [...(opts.discoverRoutes === false ? [] : discoverRouteModules()), ...(opts.routes ?? [])];
  for (const m of modules) app.register(m);
  if (opts.faults) app.faults.set(opts.faults);

  if (opts.dataFile) {
    const file = path.resolve(opts.dataFile);
    const p = new Persistence(file, app.store, () => ({ seed: app.seed, seedSize: app.seedSize }), opts.coalesceMs ?? 2);
    const meta = p.load();
    if (meta) {
      if (meta.seed === 'demo' || meta.seed === 'empty') app.useSeed(meta.seed, meta.seedSize);
      log(`loaded state from ${file}`);
    }
    app.persistence = p;
  }

  const sockets = new Set<Socket>();
  const host = opts.host ?? '127.0.0.1';
  const extraHosts = opts.allowedHosts ?? (process.env.DQ_EMULATOR_ALLOWED_HOSTS ?? '').split(',').map((h) => h.trim()).filter((h) => h !== '');
  const hostAllowed = allowedHostNames(host, extraHosts);
  const server = http.createServer((req, res) => {
    // DNS rebinding: a web page whose name now resolves to 127.0.0.1 reaches this port with its
    // own name in Host. Only requests addressed to this machine are answered.
    const name = hostHeaderName(req.headers.host);
    if (name === undefined || !hostAllowed(name)) {
      const shown = JSON.stringify((req.headers.host ?? '').slice(0, 100));
      log(`refused a request for Host ${shown}: not a loopback name or the bound address`);
      req.resume();
      res.writeHead(403, { 'content-type': 'application/json', connection: 'close' });
      res.end(
        JSON.stringify({
          code: 7,
          message: `the emulator answers only requests addressed to this machine; Host ${shown} is not a loopback name or address, nor ${host} (DNS rebinding?). Use http://127.0.0.1:PORT, or list the name in DQ_EMULATOR_ALLOWED_HOSTS`,
          details: [],
        }),
      );
      return;
    }
    void app.handle(req, res);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  server.on('clientError', (_e, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  log(`emulator listening on ${url}`);
  const exposed = exposureWarning(host);
  if (exposed) log(exposed);
  let grpc: RunningGrpcServer | undefined;
  if (opts.grpc !== false) {
    try {
      grpc = await startGrpcServer(app, { host, port: opts.grpcPort ?? 0, packagePrefix: opts.grpcPackage });
    } catch (e) {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      throw new Error(`could not start the gRPC preview service: ${(e as Error).message}`);
    }
  }
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    app,
    grpcEndpoint: grpc?.endpoint,
    grpcPort: grpc?.port,
    close(): Promise<void> {
      closing ??= (async () => {
        const grpcClosed = grpc?.close();
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        const force = setTimeout(() => {
          for (const s of sockets) s.destroy();
        }, 1000);
        await closed;
        await grpcClosed;
        clearTimeout(force);
        await app.flush();
        log('emulator stopped');
      })();
      return closing;
    },
  };
}
