/**
 * The emulator's gRPC port: the four rule preview calls (grpc-facts.md, copied in test/grpc/), unary, plaintext
 * HTTP/2, on a port of their own (the real service serves gRPC and REST on one host, port 443).
 *
 * - Method paths `/<prefix>.<service>/<method>`; prefix `platform` unless configured.
 * - Auth as REST: `authorization: Bearer <token>` metadata, the same tokens; scopes any-of as
 *   grpc-facts lists them (monitor previews: SCOPE_MONITORS_AUTOMATIC_EDIT or SCOPE_MCP_READ;
 *   SQL-test previews: SCOPE_DATACHECKS_SQLTESTS_READ or SCOPE_MCP_READ).
 * - The answer is computed by the very functions the REST overview routes call
 *   (`deployOverview` / `deleteOverview` of routes/deployment-rules.ts and
 *   routes/sql-test-rules.ts): the request is decoded to protojson and validated with the same
 *   zod schema as the REST request, so a rule the REST route refuses is refused here too, with
 *   the same violations.
 * - Errors: the EmulatorError's code as the gRPC status, its message as the status message, and
 *   its details (violations, ErrorInfo with the missing scope, RetryInfo) as a google.rpc.Status
 *   in the `grpc-status-details-bin` trailer. Every call answers an `x-request-id` header.
 * - Faults: the same injector as REST, consulted with method `GRPC` and the method path (a rule
 *   with `pathPrefix: '/platform.'` or `method: 'GRPC'` targets gRPC; `'/api/'` rules do not).
 *   `latency` delays the call (past the client's deadline: DEADLINE_EXCEEDED), `unavailable`
 *   answers UNAVAILABLE, `rateLimit` RESOURCE_EXHAUSTED with RetryInfo, `drop` answers
 *   UNAVAILABLE (grpc-js gives a handler no socket to destroy), `slow` delays the answer;
 *   `dropAfter` never fires (previews write nothing).
 * - Calls count in the request counters as `GRPC <method path>`.
 *
 * `@grpc/grpc-js` and the `.proto` subset are loaded only when a gRPC server is started.
 */
import { randomUUID } from 'node:crypto';
import type * as GrpcJs from '@grpc/grpc-js';
import { GrpcCodeEnum, RETRY_INFO_TYPE, type Scope } from '../../schemas/platform/common';
import {
  DEFAULT_GRPC_PACKAGE,
  encodeStatus,
  methodPath,
  packagePrefixProblem,
  PREVIEW_METHODS,
  protoRegistry,
  STATUS_DETAILS_KEY,
  type JsonObject,
  type PreviewMethod,
  type PreviewMethodName,
} from '../../schemas/platform/grpc';
import { authorize, type EmulatorApp } from './app';
import { asEmulatorError, internal, unavailable, type EmulatorError } from './errors';
import * as monitorRules from './routes/deployment-rules';
import * as sqlTestRules from './routes/sql-test-rules';

/** Options of {@link startGrpcServer}. */
export interface GrpcServerOptions {
  /** TCP port; 0 (the default) picks a free one. */
  port?: number;
  /** Interface to bind; default `127.0.0.1`. */
  host?: string;
  /** First word of the package names (default `platform`). */
  packagePrefix?: string;
}

/** A running gRPC server. */
export interface RunningGrpcServer {
  /** `host:port`, what `DQ_GRPC_ENDPOINT` takes. */
  endpoint: string;
  port: number;
  packagePrefix: string;
  /** Stops accepting and ends every call (a second call is a no-op). */
  close(): Promise<void>;
}

/** What a call computes, from the decoded request (protojson, enums as numbers). */
type Compute = (ctx: monitorRules.OverviewContext, request: JsonObject) => unknown;

const COMPUTE: Record<PreviewMethodName, Compute> = {
  GetDeployOverview: (ctx, req) => monitorRules.deployOverview(ctx, monitorRules.overviewRule(req.deploymentRule)),
  GetDeployDeleteOverview: (ctx, req) => monitorRules.deleteOverview(ctx, typeof req.id === 'string' ? req.id : ''),
  GetSqlTestDeployOverview: (ctx, req) => sqlTestRules.deployOverview(ctx, sqlTestRules.overviewRule(req.deploymentRule, 'deploymentRule.')),
  GetSqlTestDeployDeleteOverview: (ctx, req) => sqlTestRules.deleteOverview(ctx, typeof req.id === 'string' ? req.id : ''),
};

/** Loads grpc-js on first use (module loading time matters to every other emulator user). */
function grpcJs(): typeof GrpcJs {
  return require('@grpc/grpc-js') as typeof GrpcJs;
}

/** Starts the gRPC preview service of `app`. */
export async function startGrpcServer(app: EmulatorApp, opts: GrpcServerOptions = {}): Promise<RunningGrpcServer> {
  const prefix = opts.packagePrefix ?? DEFAULT_GRPC_PACKAGE;
  const problem = packagePrefixProblem(prefix);
  if (problem) throw new Error(`gRPC package prefix: ${problem}`);
  const grpc = grpcJs();
  const reg = protoRegistry();
  const server = new grpc.Server({ 'grpc.max_receive_message_length': 16 * 1024 * 1024 });

  const byService = new Map<string, PreviewMethod[]>();
  for (const m of Object.values(PREVIEW_METHODS)) byService.set(m.service, [...(byService.get(m.service) ?? []), m]);
  for (const methods of byService.values()) {
    const definition: Record<string, GrpcJs.MethodDefinition<JsonObject, Buffer>> = {};
    const handlers: GrpcJs.UntypedServiceImplementation = {};
    for (const m of methods) {
      definition[m.name] = {
        path: methodPath(prefix, m),
        requestStream: false,
        responseStream: false,
        requestSerialize: (o: JsonObject) => reg.encode(m.requestType, o),
        requestDeserialize: (b: Buffer) => reg.decode(m.requestType, b),
        // the handler encodes (strictly) before answering, so a shape bug is an INTERNAL status
        responseSerialize: (b: Buffer) => b,
        responseDeserialize: (b: Buffer) => b,
        originalName: m.name,
      };
      handlers[m.name] = unaryHandler(grpc, app, prefix, m);
    }
    server.addService(definition as GrpcJs.ServiceDefinition, handlers);
  }

  const host = opts.host ?? '127.0.0.1';
  const address = `${host.includes(':') ? `[${host}]` : host}:${opts.port ?? 0}`;
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(address, grpc.ServerCredentials.createInsecure(), (err, p) => (err ? reject(err) : resolve(p)));
  });
  const endpoint = `${host.includes(':') ? `[${host}]` : host}:${port}`;
  app.log(`gRPC preview service listening on ${endpoint} (package prefix ${prefix})`);
  let closing: Promise<void> | undefined;
  return {
    endpoint,
    port,
    packagePrefix: prefix,
    close(): Promise<void> {
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.forceShutdown(), 1000);
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      });
      return closing;
    },
  };
}

/** One preview method: count, faults, auth, compute, encode, answer. Never throws. */
function unaryHandler(grpc: typeof GrpcJs, app: EmulatorApp, prefix: string, m: PreviewMethod): GrpcJs.handleUnaryCall<JsonObject, Buffer> {
  const path = methodPath(prefix, m);
  const reg = protoRegistry();
  return (call, callback) => {
    void (async () => {
      const started = performance.now();
      const incoming = call.metadata.get('x-request-id')[0];
      const requestId = typeof incoming === 'string' && /^[\w.:-]{1,128}$/.test(incoming) ? incoming : randomUUID();
      const header = new grpc.Metadata();
      header.set('x-request-id', requestId);
      call.sendMetadata(header);
      let outcome = 'OK';
      const ended = app.requestStarted();
      try {
        app.countRequest(`GRPC ${path}`);
        const fault = await app.faults.apply('GRPC', path, () => new Promise((gone) => (call.cancelled ? gone(undefined) : call.once('cancelled', gone))));
        if (fault.kind === 'drop' && call.cancelled) {
          outcome = 'CANCELLED';
          return;
        }
        if (fault.kind === 'drop') throw unavailable('connection dropped (injected fault)');
        if (fault.kind === 'error') throw fault.error;
        const auth = call.metadata.get('authorization')[0];
        const principal = app.principalOf(typeof auth === 'string' ? auth : undefined);
        authorize(principal, m.scopes as readonly Scope[], `GRPC ${path}`);
        const ctx = { store: app.store.workspace(principal.workspace), catalog: app.catalog };
        const overview = COMPUTE[m.name](ctx, call.request ?? {});
        let bytes: Buffer;
        try {
          bytes = reg.encode(m.responseType, { overview });
        } catch (e) {
          throw internal(`the emulator could not encode its ${m.name} answer: ${(e as Error).message}`);
        }
        if (fault.kind === 'pass' && fault.slowMs) await new Promise((r) => setTimeout(r, fault.slowMs));
        if (call.cancelled) {
          outcome = 'CANCELLED';
          return;
        }
        callback(null, bytes);
      } catch (e) {
        const err = asEmulatorError(e, app.log, requestId);
        outcome = err.code;
        callback(statusError(grpc, err, requestId), null);
      } finally {
        ended();
        app.log(`GRPC ${path} ${outcome} ${(performance.now() - started).toFixed(1)}ms ${requestId}`);
      }
    })();
  };
}

/** An EmulatorError as a gRPC status with the rich google.rpc.Status trailer. */
function statusError(grpc: typeof GrpcJs, err: EmulatorError, requestId: string): Partial<GrpcJs.StatusObject> {
  const code = GrpcCodeEnum.numbers[err.code];
  const details = [...err.details];
  const retryAfter = err.headers['retry-after'];
  if (retryAfter && !details.some((d) => d['@type'] === RETRY_INFO_TYPE)) details.push({ '@type': RETRY_INFO_TYPE, retryDelay: `${retryAfter}s` });
  const metadata = new grpc.Metadata();
  metadata.set('x-request-id', requestId);
  try {
    metadata.set(STATUS_DETAILS_KEY, encodeStatus({ code, message: err.message, details }));
  } catch {
    // a detail that does not encode is left out; the code and message still go
  }
  return { code, details: err.message, metadata };
}
