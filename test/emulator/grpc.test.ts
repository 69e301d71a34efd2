/**
 * The emulator's gRPC preview service, spoken to with a bare grpc-js client (not dqform's):
 * method paths and the package prefix, auth and any-of scopes from the metadata, violations and
 * the missing scope in the rich status trailer, faults, request counters, and `grpc: false`.
 *
 * @gateway-exempt pins its own encoding: asserts the emulator's exact response bodies
 */
import * as grpc from '@grpc/grpc-js';
import { decodeStatus, methodPath, PREVIEW_METHODS, protoRegistry, STATUS_DETAILS_KEY, type JsonStatus, type PreviewMethodName } from '../../schemas/platform/grpc';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { tokenFor } from './core-helpers';

const RULE_ID = '3f1c6a2e-8d4b-4c1a-9e2f-0a1b2c3d4e5f';
/** Every mart table, with per-metric sensitivities. */
const martRule = (over: Record<string, unknown> = {}) => ({
  id: RULE_ID,
  title: 'Mart tables',
  queryConfig: {
    resolverQl: 'in_folder("folder-wh-prod::mart")',
    severity: 2,
    sensitivity: 2,
    metricIds: [1, 2],
    metricOptions: [{ metricId: 2, sensitivity: 3 }],
  },
  source: 1,
  configId: 'grpc-test',
  ...over,
});

interface Answer {
  value?: Record<string, unknown>;
  code?: number;
  message?: string;
  status?: JsonStatus;
  requestId?: string;
}

/** One unary call through a bare channel: no dqform client code involved. */
function rawCall(emu: RunningEmulator, name: PreviewMethodName, request: unknown, opts: { token?: string; prefix?: string; deadlineMs?: number } = {}): Promise<Answer> {
  const m = PREVIEW_METHODS[name];
  const reg = protoRegistry();
  const client = new grpc.Client(emu.grpcEndpoint!, grpc.credentials.createInsecure());
  const md = new grpc.Metadata();
  if (opts.token) md.set('authorization', `Bearer ${opts.token}`);
  return new Promise<Answer>((resolve) => {
    let requestId: string | undefined;
    const call = client.makeUnaryRequest(
      methodPath(opts.prefix ?? 'platform', m),
      (o: unknown) => reg.encode(m.requestType, o),
      (b: Buffer) => reg.decode(m.responseType, b),
      request,
      md,
      { deadline: Date.now() + (opts.deadlineMs ?? 10_000) },
      (err, value) => {
        client.close();
        if (!err) return resolve({ value: value as Record<string, unknown>, requestId });
        const trailer = err.metadata?.get(STATUS_DETAILS_KEY)[0];
        resolve({ code: err.code, message: err.details, status: trailer ? decodeStatus(trailer as Buffer) : undefined, requestId: (err.metadata?.get('x-request-id')[0] as string | undefined) ?? requestId });
      },
    );
    call.on('metadata', (h) => {
      requestId = h.get('x-request-id')[0] as string | undefined;
    });
  });
}

let emu: RunningEmulator;
let admin: string;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  admin = await tokenFor(emu.url, 'demo-admin');
});
afterAll(async () => {
  await emu.close();
});
afterEach(() => emu.app.faults.clear());

test('the deploy overview of a rule with metricOptions: every mart table gets monitors, enums as numbers', async () => {
  const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token: admin });
  expect(a.code).toBeUndefined();
  const ov = a.value!.overview as { monitorsToCreateFor: string[] };
  expect(ov.monitorsToCreateFor.length).toBeGreaterThan(5);
  expect(ov.monitorsToCreateFor.every((p) => p.startsWith('wh-prod::mart::'))).toBe(true);
  expect(a.requestId).toMatch(/^[0-9a-f-]{36}$/);
});

test('answers what the shared overview function answers for the same store (REST routes call the same function)', async () => {
  const { deployOverview, overviewRule } = await import('../../src/emulator/routes/deployment-rules');
  const expected = deployOverview({ store: emu.app.store.workspace('demo'), catalog: emu.app.catalog }, overviewRule(martRule()));
  const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token: admin });
  const got = a.value!.overview as Record<string, unknown>;
  expect(got.monitorsToCreateFor).toEqual(expected.monitorsToCreateFor);
  expect(got.monitorsToDeleteFor ?? []).toEqual(expected.monitorsToDeleteFor);
  expect(got.skippedAssets ?? []).toEqual(expected.skippedAssets);
});

test('the delete overview of an unknown rule is NOT_FOUND; of a SQL-test rule likewise', async () => {
  const a = await rawCall(emu, 'GetDeployDeleteOverview', { id: RULE_ID }, { token: admin });
  expect(a.code).toBe(grpc.status.NOT_FOUND);
  expect(a.message).toMatch(RULE_ID);
  const b = await rawCall(emu, 'GetSqlTestDeployDeleteOverview', { id: RULE_ID }, { token: admin });
  expect(b.code).toBe(grpc.status.NOT_FOUND);
});

test('an invalid rule is INVALID_ARGUMENT with the same violations (field paths, rule ids) as REST, in the status trailer', async () => {
  const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule({ title: '' }) }, { token: admin });
  expect(a.code).toBe(grpc.status.INVALID_ARGUMENT);
  const v = a.status!.details.find((d) => d['@type'].endsWith('buf.validate.Violations'))!.violations as { field: string; ruleId: string }[];
  expect(v).toEqual([expect.objectContaining({ field: 'deploymentRule.title', ruleId: 'deploy_overview.title' })]);
  const none = await rawCall(emu, 'GetDeployOverview', {}, { token: admin });
  expect(none.code).toBe(grpc.status.INVALID_ARGUMENT);
});

describe('auth from the authorization metadata', () => {
  test.each([
    ['no token', undefined, grpc.status.UNAUTHENTICATED],
    ['an unknown token', 'not-a-token', grpc.status.UNAUTHENTICATED],
  ])('%s: UNAUTHENTICATED', async (_why, token, code) => {
    const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token });
    expect(a.code).toBe(code);
  });

  test.each([
    ['SCOPE_MONITORS_AUTOMATIC_EDIT alone suffices for monitor previews', ['SCOPE_MONITORS_AUTOMATIC_EDIT'], 'GetDeployOverview', undefined],
    ['SCOPE_MCP_READ alone suffices for monitor previews', ['SCOPE_MCP_READ'], 'GetDeployOverview', undefined],
    ['SCOPE_MCP_READ alone suffices for SQL-test previews', ['SCOPE_MCP_READ'], 'GetSqlTestDeployDeleteOverview', grpc.status.NOT_FOUND],
    ['SCOPE_DATACHECKS_SQLTESTS_READ does not grant monitor previews', ['SCOPE_DATACHECKS_SQLTESTS_READ'], 'GetDeployOverview', grpc.status.PERMISSION_DENIED],
    ['SCOPE_MONITORS_AUTOMATIC_EDIT does not grant SQL-test previews', ['SCOPE_MONITORS_AUTOMATIC_EDIT'], 'GetSqlTestDeployDeleteOverview', grpc.status.PERMISSION_DENIED],
  ] as const)('%s', async (_why, scopes, method, code) => {
    const id = `scoped-${scopes.join('-')}-${method}`.toLowerCase();
    emu.app.addCredential(id, 'scoped-secret', scopes);
    const token = await tokenFor(emu.url, id, 'scoped-secret');
    const req = method === 'GetDeployOverview' ? { deploymentRule: martRule() } : { id: RULE_ID };
    const a = await rawCall(emu, method, req, { token });
    expect(a.code).toBe(code);
    if (code === grpc.status.PERMISSION_DENIED) {
      const info = a.status!.details.find((d) => d['@type'].endsWith('google.rpc.ErrorInfo'));
      expect(info).toMatchObject({ reason: 'MISSING_SCOPE' });
      expect(PREVIEW_METHODS[method].scopes).toContain((info!.metadata as { scope: string }).scope);
    }
  });
});

describe('faults on the gRPC port', () => {
  test('unavailable: UNAVAILABLE for the next N calls, then served; REST-only rules (pathPrefix /api/) do not hit gRPC', async () => {
    emu.app.faults.set({ rules: [{ type: 'unavailable', pathPrefix: '/api/' }, { type: 'unavailable', count: 2, pathPrefix: '/platform.' }] });
    const codes: (number | undefined)[] = [];
    for (let i = 0; i < 3; i++) codes.push((await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token: admin })).code);
    expect(codes).toEqual([grpc.status.UNAVAILABLE, grpc.status.UNAVAILABLE, undefined]);
  });

  test('held past the deadline (hold: answered never, released when the call is cancelled): DEADLINE_EXCEEDED at the client', async () => {
    emu.app.faults.set({ rules: [{ type: 'hold', method: 'GRPC', count: 1 }] });
    const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token: admin, deadlineMs: 100 });
    expect(a.code).toBe(grpc.status.DEADLINE_EXCEEDED);
    expect(emu.app.faults.describe().hits).toEqual({ hold: 1 });
    // the server hears of the cancel just after the client gives up: wait for its gauge, not a fixed time
    for (const end = Date.now() + 10_000; emu.app.requestCounters().inFlight > 0 && Date.now() < end; ) await new Promise((r) => setImmediate(r));
    expect(emu.app.requestCounters().inFlight).toBe(0);
  });

  test('rateLimit: RESOURCE_EXHAUSTED with a RetryInfo delay', async () => {
    emu.app.faults.set({ rules: [{ type: 'rateLimit', retryAfterSeconds: 2, method: 'GRPC', count: 1 }] });
    const a = await rawCall(emu, 'GetDeployOverview', { deploymentRule: martRule() }, { token: admin });
    expect(a.code).toBe(grpc.status.RESOURCE_EXHAUSTED);
    expect(a.status!.details).toContainEqual({ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '2s' });
  });
});

test('calls are counted as GRPC <method path>', async () => {
  emu.app.resetRequestCounters();
  await rawCall(emu, 'GetDeployDeleteOverview', { id: RULE_ID }, { token: admin });
  expect(emu.app.requestCounters().routes[`GRPC ${methodPath('platform', PREVIEW_METHODS.GetDeployDeleteOverview)}`]).toBe(1);
});

test('a configured package prefix serves /<prefix>.… and nothing under platform.', async () => {
  const other = await startEmulator({ port: 0, seed: 'demo', grpcPackage: 'acme.corp' });
  try {
    const token = await tokenFor(other.url, 'demo-admin');
    const a = await rawCall(other, 'GetDeployOverview', { deploymentRule: martRule() }, { token, prefix: 'acme.corp' });
    expect(a.code).toBeUndefined();
    const b = await rawCall(other, 'GetDeployOverview', { deploymentRule: martRule() }, { token });
    expect(b.code).toBe(grpc.status.UNIMPLEMENTED);
  } finally {
    await other.close();
  }
});

test('grpc: false serves REST only', async () => {
  const rest = await startEmulator({ port: 0, seed: 'empty', grpc: false });
  try {
    expect(rest.grpcEndpoint).toBeUndefined();
    expect(rest.grpcPort).toBeUndefined();
  } finally {
    await rest.close();
  }
});
