/**
 * The client's gRPC previews against the emulator: which transport each mode picks, the same
 * answer over REST and gRPC, one token cache, status codes through the REST error factory,
 * retries of UNAVAILABLE and DEADLINE_EXCEEDED with backoff, "effects unknown" at the end of
 * them (never a crash), no token in logs or errors, TLS unless loopback, and the settings.
 *
 * @gateway
 */
import * as http from 'node:http';
import * as net from 'node:net';
import type { AddressInfo } from 'node:net';
import { methodPath, PREVIEW_METHODS } from '../../schemas/platform/grpc';
import * as grpcSchemas from '../../schemas/platform/grpc';
import {
  ConfigError,
  defaultGrpcTarget,
  NotFoundError,
  parseGrpcEndpoint,
  PermissionDeniedError,
  PlatformClient,
  PreviewUnavailableError,
  resolveGrpcConfig,
  UnavailableError,
  ValidationError,
  type DqClientOptions,
  type PreviewTransport,
} from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { monitorDeploymentRulesHandler } from '../../src/kinds/monitor-deployment-rule/handler';
import { sqlTestDeploymentRulesHandler } from '../../src/kinds/sql-test-deployment-rule/handler';
import type { Change } from '../../schemas/model/plan';

const MID = '5b0c7f3e-9a1d-4e2b-8c6f-0d1e2f3a4b5c';
const SID = '6c1d8a4f-0b2e-4f3c-9d70-1e2f3a4b5c6d';

/** A rule REST can carry (no repeated messages). */
const plainRule = { id: MID, title: 'Mart', queryConfig: { resolverQl: 'in_folder("folder-wh-prod::mart")', severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'] }, source: 'SOURCE_API', configId: 'ns' };
/** The same with per-metric sensitivities: REST cannot carry it. */
const optionsRule = { ...plainRule, queryConfig: { ...plainRule.queryConfig, metricIds: ['METRIC_ID_ROW_COUNT', 'METRIC_ID_DELAY'], metricOptions: [{ metricId: 'METRIC_ID_DELAY', sensitivity: 'SENSITIVITY_RELAXED' }] } };
/** A SQL-test rule (the client's form: test keys as on the REST wire): its tests[] only go over gRPC. */
const sqlRule = { id: SID, title: 'Dims', queryConfig: { resolverQl: 'with_name("dim_")', tests: [{ name: 'id not null', notNullTest: { columnNames: ['id'] } }], recurrenceRule: 'DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', severity: 'SEVERITY_WARNING' }, source: 'SOURCE_API', configId: 'ns' };

let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => emu.app.faults.clear());

interface Made {
  c: PlatformClient;
  logs: string[];
  sleeps: number[];
}
function make(transport: PreviewTransport | undefined, extra: Partial<DqClientOptions> = {}): Made {
  const logs: string[] = [];
  const sleeps: number[] = [];
  const c = PlatformClient.create(
    { baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' },
    {
      grpc: { endpoint: emu.grpcEndpoint, previewTransport: transport, ...extra.grpc },
      onLog: (l) => logs.push(l),
      retry: { sleep: async (ms) => void sleeps.push(ms), random: () => 0.5, ...extra.retry },
    },
  );
  return { c, logs, sleeps };
}

/** GRPC and REST overview requests the emulator counted while `fn` ran. */
async function transportsOf(fn: () => Promise<unknown>): Promise<{ grpc: number; rest: number }> {
  emu.app.resetRequestCounters();
  await fn();
  const routes = emu.app.requestCounters().routes;
  const sum = (pred: (k: string) => boolean) => Object.entries(routes).filter(([k]) => pred(k)).reduce((n, [, v]) => n + v, 0);
  return { grpc: sum((k) => k.startsWith('GRPC ')), rest: sum((k) => /^GET .*(deployment-rule$|deployment-rule\/:id\/deleted|\/overview$|\/:id\/deleted)/.test(k)) };
}

describe('which transport each mode picks', () => {
  test.each([
    ['auto: a rule REST can carry goes over REST', 'auto', 'deploy-plain', { grpc: 0, rest: 1 }],
    ['auto: per-metric sensitivities go over gRPC', 'auto', 'deploy-options', { grpc: 1, rest: 0 }],
    ['auto: a SQL-test rule with tests[] goes over gRPC', 'auto', 'sql', { grpc: 1, rest: 0 }],
    ['auto: delete overviews go over REST', 'auto', 'delete', { grpc: 0, rest: 1 }],
    ['unset means auto', undefined, 'deploy-options', { grpc: 1, rest: 0 }],
    ['grpc: even a rule REST can carry goes over gRPC', 'grpc', 'deploy-plain', { grpc: 1, rest: 0 }],
    ['grpc: delete overviews too', 'grpc', 'delete', { grpc: 1, rest: 0 }],
    ['rest: a rule REST can carry goes over REST', 'rest', 'deploy-plain', { grpc: 0, rest: 1 }],
  ] as const)('%s', async (_why, mode, what, expected) => {
    const { c } = make(mode);
    try {
      await c.iam.get(); // the token, outside the counted window
      const run = {
        'deploy-plain': () => c.deploymentRules.deployOverview(plainRule as never),
        'deploy-options': () => c.deploymentRules.deployOverview(optionsRule as never),
        sql: () => c.sqlTestRules.overview(sqlRule as never),
        delete: () => c.deploymentRules.deleteOverview(MID).catch((e) => expect(e).toBeInstanceOf(NotFoundError)),
      }[what];
      expect(await transportsOf(run)).toEqual(expected);
    } finally {
      await c.close();
    }
  });

  test.each([['auto'], ['grpc']] as const)('%s, gRPC unavailable (a stack on this machine with no grpcEndpoint): no gRPC call, the error says why', async (mode) => {
    const why = "the stack's baseUrl is on this machine (x) and the stack sets no grpcEndpoint";
    const { c } = make(mode, { grpc: { previewTransport: mode, unavailable: why } });
    try {
      await c.iam.get();
      let err: unknown;
      const counts = await transportsOf(() => c.deploymentRules.deployOverview(optionsRule as never).catch((e) => (err = e)));
      expect(counts.grpc).toBe(0);
      expect((err as Error).message).toContain(why);
      if (mode === 'auto') expect(err).toBeInstanceOf(PreviewUnavailableError);
    } finally {
      await c.close();
    }
  });

  test('rest: a rule REST cannot carry is PreviewUnavailableError before anything is sent, naming the field and the setting', async () => {
    const { c } = make('rest');
    try {
      await c.iam.get();
      let err: unknown;
      const counts = await transportsOf(() => c.deploymentRules.deployOverview(optionsRule as never).catch((e) => (err = e)));
      expect(counts).toEqual({ grpc: 0, rest: 0 });
      expect(err).toBeInstanceOf(PreviewUnavailableError);
      expect((err as Error).message).toMatch(/^cannot be previewed over REST: deploymentRule\.queryConfig\.metricOptions .*; gRPC previews are off \(DQ_PREVIEW_TRANSPORT=rest\)$/);
    } finally {
      await c.close();
    }
  });
});

test('REST and gRPC answer the same overview for the same rule', async () => {
  const rest = make('rest');
  const grpc = make('grpc');
  try {
    const a = await rest.c.deploymentRules.deployOverview(plainRule as never);
    const b = await grpc.c.deploymentRules.deployOverview(plainRule as never);
    expect(b).toEqual(a);
    expect(a.monitorsToCreateFor.length).toBeGreaterThan(3);
  } finally {
    await rest.c.close();
    await grpc.c.close();
  }
});

test('grpc-js never sends a plaintext loopback call through http_proxy/https_proxy (it reads them by itself)', async () => {
  const seen: string[] = [];
  const proxy = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(502);
    res.end();
  });
  proxy.on('connect', (req: http.IncomingMessage, sock: net.Socket) => {
    seen.push(`CONNECT ${req.url}`);
    sock.end('HTTP/1.1 502 Bad Gateway\r\n\r\n');
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  const saved = { http: process.env.http_proxy, https: process.env.https_proxy };
  const proxyUrl = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
  process.env.http_proxy = proxyUrl;
  process.env.https_proxy = proxyUrl;
  const { c } = make('grpc');
  try {
    const ov = await c.deploymentRules.deployOverview(optionsRule as never);
    expect(ov.monitorsToCreateFor.length).toBeGreaterThan(0);
    expect(seen).toEqual([]);
  } finally {
    for (const [k, v] of [['http_proxy', saved.http], ['https_proxy', saved.https]] as const) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    await c.close();
    proxy.closeAllConnections();
    await new Promise<void>((r) => proxy.close(() => r()));
  }
});

test('one token for both transports: REST and gRPC calls fetch it once', async () => {
  const { c } = make('auto');
  try {
    await c.iam.get();
    await c.deploymentRules.deployOverview(optionsRule as never);
    await c.sqlTestRules.overview(sqlRule as never);
    expect(c.http.tokens.fetches).toBe(1);
  } finally {
    await c.close();
  }
});

test('the first gRPC call loads nothing in its caller\'s turn (REST requests begun with it go out first), then answers as before', async () => {
  const { c } = make('grpc');
  const registry = jest.spyOn(grpcSchemas, 'protoRegistry');
  try {
    await c.iam.get();
    const asked = c.sqlTestRules.overview(sqlRule as never);
    // before this change the registry (and then grpc-js) loaded synchronously inside the call
    expect(registry).not.toHaveBeenCalled();
    const ov = await asked;
    expect(registry).toHaveBeenCalled();
    expect(ov).toEqual(await c.sqlTestRules.overview(sqlRule as never));
  } finally {
    registry.mockRestore();
    await c.close();
  }
});

describe('statuses become the REST client\'s typed errors', () => {
  test('NOT_FOUND: NotFoundError, not retried', async () => {
    const { c, sleeps } = make('grpc');
    try {
      const e = await c.deploymentRules.deleteOverview(MID).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(NotFoundError);
      expect((e as NotFoundError).transport).toBe('grpc');
      expect((e as Error).message).toMatch(/^GRPC \/platform\.monitors\.automated_monitors\.v1\.DeploymentRulesService\/GetDeployDeleteOverview failed: NOT_FOUND/);
      expect((e as NotFoundError).requestId).toMatch(/[0-9a-f-]{36}/);
      expect(sleeps).toEqual([]);
    } finally {
      await c.close();
    }
  });

  test('INVALID_ARGUMENT: ValidationError with the violations from the status trailer', async () => {
    const { c } = make('grpc');
    try {
      const bad = { ...sqlRule, queryConfig: { ...sqlRule.queryConfig, resolverQl: 'with_name(' } };
      const e = await c.sqlTestRules.overview(bad as never).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(ValidationError);
      expect((e as ValidationError).violations).toContainEqual(expect.objectContaining({ field: 'deploymentRule.queryConfig.resolverQl', ruleId: 'overview.queryConfig.resolver_ql' }));
    } finally {
      await c.close();
    }
  });

  test('PERMISSION_DENIED: PermissionDeniedError naming the missing scope', async () => {
    emu.app.addCredential('grpc-no-scope', 'grpc-no-scope-secret', ['SCOPE_ENTITY_READ']);
    const c = PlatformClient.create({ baseUrl: emu.url, clientId: 'grpc-no-scope', clientSecret: 'grpc-no-scope-secret' }, { grpc: { endpoint: emu.grpcEndpoint, previewTransport: 'grpc' } });
    try {
      const e = await c.deploymentRules.deployOverview(plainRule as never).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(PermissionDeniedError);
      expect(PREVIEW_METHODS.GetDeployOverview.scopes).toContain((e as PermissionDeniedError).missingScope);
    } finally {
      await c.close();
    }
  });
});

describe('faults on the gRPC port: retried like REST, then "effects unknown", never a crash', () => {
  const path = methodPath('platform', PREVIEW_METHODS.GetDeployOverview);

  test('UNAVAILABLE twice: retried with backoff, then answered', async () => {
    emu.app.faults.set({ rules: [{ type: 'unavailable', method: 'GRPC', count: 2 }] });
    const { c, sleeps, logs } = make('auto');
    try {
      const ov = await c.deploymentRules.deployOverview(optionsRule as never);
      expect(ov.monitorsToCreateFor.length).toBeGreaterThan(0);
      expect(sleeps).toEqual([125, 250]); // full jitter at random 0.5: half of 250, then of 500
      expect(logs.filter((l) => l.startsWith(`retry GRPC ${path}`))).toHaveLength(2);
    } finally {
      await c.close();
    }
  });

  test('DEADLINE_EXCEEDED (the first attempt held past the deadline): retried, then answered', async () => {
    // The emulator holds the first call until the client's deadline cancels it (no guess at how
    // much latency is "past the deadline" on a loaded box); the deadline leaves the answered
    // retry room (a 100 ms deadline once saw the retry time out too).
    emu.app.faults.set({ rules: [{ type: 'hold', method: 'GRPC', count: 1 }] });
    const { c, sleeps, logs } = make('auto', { grpc: { deadlineMs: 1000 } });
    try {
      const ov = await c.deploymentRules.deployOverview(optionsRule as never);
      expect(ov.monitorsToCreateFor.length).toBeGreaterThan(0);
      expect(sleeps).toHaveLength(1);
      expect(logs.join('\n')).toMatch(/DEADLINE_EXCEEDED/);
      expect(emu.app.faults.describe().hits).toEqual({ hold: 1 });
      expect(emu.app.requestCounters().inFlight).toBe(0);
    } finally {
      await c.close();
    }
  });

  test('RESOURCE_EXHAUSTED with RetryInfo: waits what the server asked (as REST honours Retry-After), then answered', async () => {
    emu.app.faults.set({ rules: [{ type: 'rateLimit', retryAfterSeconds: 2, method: 'GRPC', count: 1 }] });
    const { c, sleeps } = make('grpc');
    try {
      await c.deploymentRules.deployOverview(plainRule as never);
      expect(sleeps).toEqual([2000]);
    } finally {
      await c.close();
    }
  });

  test('UNAVAILABLE every time: UnavailableError after the policy\'s attempts; the handler says "effects unknown"', async () => {
    emu.app.faults.set({ rules: [{ type: 'unavailable', method: 'GRPC' }] });
    const { c, sleeps } = make('auto', { retry: { maxAttempts: 3 } });
    try {
      const e = await c.deploymentRules.deployOverview(optionsRule as never).then(() => undefined, (x: unknown) => x);
      expect(e).toBeInstanceOf(PreviewUnavailableError);
      expect((e as Error).message).toMatch(/metricOptions.*gRPC preview failed: GRPC .*UNAVAILABLE/);
      expect((e as { cause?: unknown }).cause).toBeInstanceOf(UnavailableError);
      expect(sleeps).toHaveLength(2);

      const change = { address: 'dq_monitor_deployment_rule.m', type: 'dq_monitor_deployment_rule', action: 'create', id: MID, before: null, after: optionsRule } as unknown as Change;
      const effects = await monitorDeploymentRulesHandler.preview!(c, change, { workspace: 'demo', namespace: 'ns' });
      expect(effects?.error).toMatch(/^effects unknown: .*metricOptions.*UNAVAILABLE/);
      const sqlChange = { address: 'dq_sql_test_deployment_rule.s', type: 'dq_sql_test_deployment_rule', action: 'create', id: SID, before: null, after: sqlRule } as unknown as Change;
      const sqlEffects = await sqlTestDeploymentRulesHandler.preview!(c, sqlChange, { workspace: 'demo', namespace: 'ns' });
      expect(sqlEffects?.error).toMatch(/^effects unknown: .*tests.*UNAVAILABLE/);
    } finally {
      await c.close();
    }
  });

  test('nothing listening on the gRPC port (an emulator run with --no-grpc): "effects unknown" after the retries', async () => {
    const rest = await startEmulator({ port: 0, seed: 'demo', grpc: false });
    const c = PlatformClient.create({ baseUrl: rest.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.001 } });
    try {
      expect(c.http.grpc.target).toEqual({ target: '127.0.0.1:443', host: '127.0.0.1', port: 443, tls: false });
      const change = { address: 'dq_monitor_deployment_rule.m', type: 'dq_monitor_deployment_rule', action: 'create', id: MID, before: null, after: optionsRule } as unknown as Change;
      const effects = await monitorDeploymentRulesHandler.preview!(c, change, { workspace: 'demo', namespace: 'ns' });
      expect(effects?.error).toMatch(/^effects unknown: .*metricOptions.*UNAVAILABLE/);
      // a rule REST can carry still gets its effects
      const plain = await monitorDeploymentRulesHandler.preview!(c, { ...change, after: plainRule } as Change, { workspace: 'demo', namespace: 'ns' });
      expect(plain?.error).toBeUndefined();
      expect(plain!.monitorsToCreate.length).toBeGreaterThan(0);
    } finally {
      await c.close();
      await rest.close();
    }
  });
});

test('the token never shows in logs, errors or effects (sent only as metadata)', async () => {
  emu.app.faults.set({ rules: [{ type: 'unavailable', method: 'GRPC', count: 1 }] });
  const { c, logs } = make('grpc');
  try {
    await c.deploymentRules.deployOverview(optionsRule as never);
    const bad = await c.deploymentRules.deleteOverview(MID).then(() => undefined, (x: Error) => x);
    const token = await c.http.tokens.getToken();
    const all = [...logs, bad!.message, JSON.stringify(bad)].join('\n');
    expect(all).toMatch(/GRPC/);
    expect(all).not.toContain(token);
    expect(all).not.toContain('demo-secret');
  } finally {
    await c.close();
  }
});

test('TLS unless loopback: an https:// endpoint to the plaintext emulator fails the handshake (UNAVAILABLE), never sends in the clear', async () => {
  const { c } = make('grpc', { grpc: { endpoint: `https://${emu.grpcEndpoint}` }, retry: { maxAttempts: 1 } });
  try {
    expect(c.http.grpc.target.tls).toBe(true);
    await expect(c.deploymentRules.deleteOverview(MID)).rejects.toBeInstanceOf(UnavailableError);
  } finally {
    await c.close();
  }
});

describe('settings', () => {
  test.each([
    ['nothing set', {}, {}],
    ['an endpoint', { DQ_GRPC_ENDPOINT: '127.0.0.1:50051' }, { endpoint: '127.0.0.1:50051' }],
    ['a package prefix', { DQ_GRPC_PACKAGE: 'acme.v2' }, { packagePrefix: 'acme.v2' }],
    ['the transport, any case', { DQ_PREVIEW_TRANSPORT: 'GRPC' }, { previewTransport: 'grpc' }],
  ])('resolveGrpcConfig: %s', (_why, env, expected) => {
    expect(resolveGrpcConfig(env)).toEqual(expected);
  });

  test.each([
    ['a transport that does not exist', { DQ_PREVIEW_TRANSPORT: 'grcp' }, 'DQ_PREVIEW_TRANSPORT'],
    ['a package that is no package', { DQ_GRPC_PACKAGE: 'acme/v2' }, 'DQ_GRPC_PACKAGE'],
    ['an endpoint without a port', { DQ_GRPC_ENDPOINT: 'grpc.example.com' }, 'DQ_GRPC_ENDPOINT'],
    ['an endpoint with a path', { DQ_GRPC_ENDPOINT: 'https://grpc.example.com:443/x' }, 'DQ_GRPC_ENDPOINT'],
    ['an endpoint with credentials', { DQ_GRPC_ENDPOINT: 'https://u:p@grpc.example.com' }, 'DQ_GRPC_ENDPOINT'],
    ['an endpoint with another scheme', { DQ_GRPC_ENDPOINT: 'dns://grpc.example.com:443' }, 'DQ_GRPC_ENDPOINT'],
  ])('refused: %s', (_why, env, variable) => {
    let err: unknown;
    try {
      resolveGrpcConfig(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).variables).toEqual([variable]);
    if (variable === 'DQ_GRPC_ENDPOINT' && (env as Record<string, string>).DQ_GRPC_ENDPOINT.includes('u:p')) expect((err as Error).message).not.toContain('u:p@');
  });

  test.each([
    ['loopback host:port: plaintext', '127.0.0.1:50051', { target: '127.0.0.1:50051', tls: false }],
    ['localhost: plaintext', 'localhost:50051', { target: 'localhost:50051', tls: false }],
    ['IPv6 loopback: plaintext', '[::1]:50051', { target: '[::1]:50051', tls: false }],
    ['a remote host:port: TLS', 'grpc.eu.platform.example:443', { target: 'grpc.eu.platform.example:443', tls: true }],
    ['https:// without a port: TLS on 443', 'https://grpc.eu.platform.example', { target: 'grpc.eu.platform.example:443', tls: true }],
    ['http:// asks for plaintext explicitly', 'http://10.0.0.5:8788', { target: '10.0.0.5:8788', tls: false }],
  ])('parseGrpcEndpoint: %s', (_why, value, expected) => {
    expect(parseGrpcEndpoint(value)).toMatchObject(expected);
  });

  test('the default endpoint is the base URL\'s host on 443: TLS for the platform, plaintext for loopback', () => {
    expect(defaultGrpcTarget('https://developer.eu.platform.example')).toEqual({ target: 'developer.eu.platform.example:443', host: 'developer.eu.platform.example', port: 443, tls: true });
    expect(defaultGrpcTarget('http://127.0.0.1:8787')).toMatchObject({ target: '127.0.0.1:443', tls: false });
  });

  test('PlatformClient.fromEnv reads the gRPC variables', () => {
    const c = PlatformClient.fromEnv({ DQ_CLIENT_ID: 'x', DQ_CLIENT_SECRET: 'y-secret', DQ_BASE_URL: 'https://api.example', DQ_GRPC_ENDPOINT: 'grpc.example:8443', DQ_GRPC_PACKAGE: 'acme', DQ_PREVIEW_TRANSPORT: 'rest' });
    expect(c.http.previewTransport).toBe('rest');
    expect(c.http.grpc.target).toMatchObject({ target: 'grpc.example:8443', tls: true });
    expect(c.http.grpc.pathOf(PREVIEW_METHODS.GetDeployOverview)).toBe('/acme.monitors.automated_monitors.v1.DeploymentRulesService/GetDeployOverview');
    void c.close();
  });
});
