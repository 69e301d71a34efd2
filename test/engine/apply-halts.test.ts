/**
 * apply, in process against an emulator, when the platform stops answering mid-apply: a write
 * that cannot connect, the platform declared gone, a check or read-back that cannot be made.
 * What the result says (halted, failed, skipped, mayHaveLanded) word for word. The failures are
 * injected by wrapping the real handlers. (Issue 23: reached before mostly by the resilience
 * suites, which the mutation run leaves out as too slow.)
 *
 * @gateway
 */
import { ApiError, PlatformClient, PlatformUnreachableError } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceHandler } from '../../src/kinds/shared/types';
import type { ResourceType } from '../../schemas/model/manifest';

let emu: RunningEmulator;
let client: PlatformClient;
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });
});
afterAll(async () => {
  await client.close();
  await emu.close();
});

const code = (ns: string, resource: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const sqlTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1' });
const refused = () => new ApiError({ method: 'POST', path: '/api/x', status: 0, cause: Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }) });
const gone = () => new PlatformUnreachableError({ method: 'POST', path: '/api/x', status: 0, grpcCode: 'UNAVAILABLE' }, 'the platform at http://127.0.0.1:1 stopped answering');

/** HANDLERS with some of one kind's functions replaced. */
function withKind(type: ResourceType, over: Partial<ResourceHandler>): Record<ResourceType, ResourceHandler> {
  return { ...HANDLERS, [type]: { ...HANDLERS[type], ...over } } as Record<ResourceType, ResourceHandler>;
}

test('a write that cannot connect stops the apply: the reason names the code, the rest is skipped', async () => {
  const p = await plan(client, code('ah-refused', { dq_owner: { a: { title: 'A' }, b: { title: 'B' } }, dq_alert: { x: { name: 'X', issue_lifecycle: { trigger: { resolver_ql: 'with_type("table")' }, targets: [{ owner: { owner_path: '${dq_owner.a.entity_id}' } }], settings: { severities: ['SEVERITY_ERROR'] } } } } }));
  const handlers = withKind('dq_owner', {
    create: async () => {
      throw Object.assign(refused(), { mayHaveLanded: true });
    },
  });
  const r = await apply(client, p, { handlers, concurrency: 1, progressIntervalMs: 0 });
  const reason = 'the platform is not answering: a write could not connect (ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:1): nothing more was written';
  expect(r.halted).toEqual({ kind: 'unreachable', reason });
  expect(r.applied).toEqual([]);
  expect(r.failed).toEqual([{ address: 'dq_owner.a', action: 'create', error: expect.any(String), ms: expect.any(Number), mayHaveLanded: true }]);
  expect(r.skipped).toEqual([
    { address: 'dq_alert.x', action: 'create', because: 'dq_owner.a failed' },
    { address: 'dq_owner.b', action: 'create', because: reason },
  ]);
});

test('the platform declared gone by a write: its own words, then nothing more', async () => {
  const p = await plan(client, code('ah-gone', { dq_owner: { a: { title: 'A' }, b: { title: 'B' } } }));
  const r = await apply(client, p, {
    handlers: withKind('dq_owner', {
      create: async () => {
        throw gone();
      },
    }),
    concurrency: 1,
    progressIntervalMs: 0,
  });
  expect(r.halted).toEqual({ kind: 'unreachable', reason: 'the platform at http://127.0.0.1:1 stopped answering: nothing more was written' });
  expect(r.failed.map((f) => [f.address, f.error, f.mayHaveLanded])).toEqual([['dq_owner.a', 'the platform at http://127.0.0.1:1 stopped answering', undefined]]);
  expect(r.skipped.map((s) => s.address)).toEqual(['dq_owner.b']);
});

test('a failure that is neither a conflict nor a lost connection fails that change only', async () => {
  const p = await plan(client, code('ah-other', { dq_owner: { a: { title: 'A' }, b: { title: 'B' } } }));
  const r = await apply(client, p, {
    handlers: withKind('dq_owner', {
      create: async (c, ch, ctx) => {
        if (ch.address === 'dq_owner.a') throw new ApiError({ method: 'POST', path: '/api/x', status: 400, serverMessage: 'bad' });
        return HANDLERS.dq_owner.create(c, ch, ctx);
      },
    }),
    concurrency: 1,
    progressIntervalMs: 0,
  });
  expect(r.halted).toBeUndefined();
  expect(r.failed.map((f) => f.address)).toEqual(['dq_owner.a']);
  expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.b']);
});

describe('kinds without etags: the check right before their wave cannot be made', () => {
  /** SQL tests whose reads without soft-deleted objects (the wave's check, the read-back) throw `e`. */
  const failingWaveRead = (e: () => Error) =>
    withKind('dq_sql_test', {
      read: async (c, q) => {
        if (q.keysOnly && !q.includeDeleted) throw e();
        return HANDLERS.dq_sql_test.read(c, q);
      },
    });

  test('the platform gone: the tests are skipped with the reason, nothing written', async () => {
    const p = await plan(client, code('ah-wave-gone', { dq_sql_test: { t: sqlTest('T') } }));
    const r = await apply(client, p, { handlers: failingWaveRead(gone), progressIntervalMs: 0 });
    const reason = 'the platform at http://127.0.0.1:1 stopped answering: nothing more was written';
    expect(r).toEqual({ applied: [], failed: [], skipped: [{ address: 'dq_sql_test.t', action: 'create', because: reason }], halted: { kind: 'unreachable', reason } });
  });

  test('another failure: the tests fail with it, not written', async () => {
    const p = await plan(client, code('ah-wave-err', { dq_sql_test: { t: sqlTest('T') } }));
    const r = await apply(client, p, { handlers: failingWaveRead(() => new Error('read failed')), progressIntervalMs: 0 });
    expect(r).toEqual({ applied: [], failed: [{ address: 'dq_sql_test.t', action: 'create', error: 'read failed' }], skipped: [] });
  });
});

test('the final read-back meets a platform that is gone: what was written stays applied, the apply says it stopped', async () => {
  const p = await plan(client, code('ah-readback', { dq_owner: { a: { title: 'A' } } }));
  const lines: string[] = [];
  const r = await apply(client, p, {
    handlers: withKind('dq_owner', {
      read: async (c, q) => {
        if (q.keysOnly && !q.includeDeleted) throw gone();
        return HANDLERS.dq_owner.read(c, q);
      },
    }),
    onProgress: (l) => lines.push(l),
    progressIntervalMs: 0,
  });
  expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.a']);
  expect(r.failed).toEqual([]);
  expect(r.halted).toEqual({ kind: 'unreachable', reason: 'the platform at http://127.0.0.1:1 stopped answering: nothing more was written' });
  expect(lines).toEqual(['checking that live state has not moved since the plan', 'create dq_owner.a', 'reading back the 1 object(s) written']);
});

test('a read-back that fails otherwise leaves the writes applied (the platform acknowledged them)', async () => {
  const p = await plan(client, code('ah-readback2', { dq_owner: { a: { title: 'A' } } }));
  const r = await apply(client, p, {
    handlers: withKind('dq_owner', {
      read: async (c, q) => {
        if (q.keysOnly && !q.includeDeleted) throw new Error('read failed');
        return HANDLERS.dq_owner.read(c, q);
      },
    }),
    progressIntervalMs: 0,
  });
  expect(r).toEqual({ applied: [{ address: 'dq_owner.a', action: 'create', ms: expect.any(Number) }], failed: [], skipped: [] });
});
