/**
 * Creates never overwrite silently: someone else makes the same object after apply's checks and
 * just before its write (injected synchronously into the emulator's store when apply announces
 * the write). Kinds without a create-only call still find out from what the write answers: an
 * owner's etag version jumped, a SQL test came back in `updatedIds`. Apply reports a conflict,
 * exits with it, and writes nothing more. A create that the client itself retried (its first
 * attempt landed before the connection dropped) is not a conflict: it is read back.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { upsertOwnerIn } from '../../src/emulator/routes/governance';
import { apply } from '../../src/engine/applier';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { deriveId } from '../../src/engine/identity';
import { checkWriteVersion, etagVersion } from '../../src/kinds/shared/support';
import { Change } from '../../schemas/model/plan';
import { HANDLERS } from '../../src/kinds/index';
import type { ResourceHandler } from '../../src/kinds/shared/types';

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

const manifest = (ns: string, resource: Record<string, unknown>) => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const store = () => emu.app.store.workspace('demo');
const sqlTest = (name: string) => ({ name, platform: { warehouse_account: { account: 'a', database: 'd' } }, sql_expression: 'select 1' });
const setFaults = (rules: unknown[]) => fetch(`${emu.url}/__emulator/faults`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ rules }) });

describe('someone else creates the object between the checks and the write', () => {
  it('an owner: the answered etag version shows the other write; a conflict, and nothing more is written', async () => {
    const ns = 'cr-owner';
    const p = await plan(client, manifest(ns, { dq_owner: { a: { title: 'A from code' }, b: { title: 'B from code' } }, dq_sql_test: { t: sqlTest('T') } }));
    const id = deriveId('demo', ns, 'dq_owner', 'a');
    const r = await apply(client, p, {
      concurrency: 1,
      onProgress: (line) => {
        if (line === 'create dq_owner.a') upsertOwnerIn(store(), { id, title: 'Made elsewhere', contacts: { contacts: [] } } as never, new Date(), 'someone');
      },
    });
    expect(r.failed).toEqual([{ address: 'dq_owner.a', action: 'create', error: expect.stringMatching(/^conflict: the owner ".*" was written by someone else while dqform wrote it \(the platform answered version 2, expected 1 after a new object\): this write replaced theirs/), ms: expect.any(Number) }]);
    // the first conflict stops the writing: the other owner is not attempted
    expect(r.skipped.map((s) => s.address)).toContain('dq_owner.b');
    expect(r.skipped.find((s) => s.address === 'dq_owner.b')?.because).toMatch(/met a conflicting write .* nothing more was written/);
  });

  it('a SQL test: BatchUpsert reports it updated, not created; a conflict', async () => {
    const ns = 'cr-test';
    const p = await plan(client, manifest(ns, { dq_sql_test: { t: sqlTest('T from code') } }));
    const id = deriveId('demo', ns, 'dq_sql_test', 't');
    const r = await apply(client, p, {
      onProgress: (line) => {
        if (line.startsWith('writing 1 SQL test(s)')) store().collection('sqlTests').put(id, { id, name: 'Made elsewhere', platform: { warehouseAccount: { account: 'a', database: 'd' } }, sqlExpression: 'select 2' });
      },
    });
    expect(r.failed).toEqual([{ address: 'dq_sql_test.t', action: 'create', error: expect.stringMatching(/^conflict: the SQL test ".*" was created by someone else after the plan, and this write replaced it \(the platform reported an update, not a create\)/), ms: expect.any(Number) }]);
    expect(r.applied).toEqual([]);
  });

  it('a monitor rule created just before the wave: the per-wave check refuses to write it', async () => {
    const ns = 'cr-rule';
    const body = { title: 'R', static_config: { path: 'x::y::z', severity: 'SEVERITY_WARNING', sensitivity: 'SENSITIVITY_BALANCED', metric_ids: ['METRIC_ID_ROW_COUNT'] } };
    const p = await plan(client, manifest(ns, { dq_owner: { o: { title: 'O' } }, dq_monitor_deployment_rule: { r: { ...body, depends_on: ['dq_owner.o'] } } }));
    const id = deriveId('demo', ns, 'dq_monitor_deployment_rule', 'r');
    // the owner's wave: while dqform creates the owner, someone else deploys the rule (next wave)
    const other = { id, title: 'Elsewhere', staticConfig: { path: 'x::y::z', severity: 'SEVERITY_ERROR' as const, sensitivity: 'SENSITIVITY_BALANCED' as const, metricIds: ['METRIC_ID_ROW_COUNT' as const] }, source: 'SOURCE_APP' as const };
    const handlers = {
      ...HANDLERS,
      dq_owner: { ...HANDLERS.dq_owner, create: async (...a: Parameters<ResourceHandler['create']>) => (await HANDLERS.dq_owner.create(...a), await client.deploymentRules.deploy(other)) },
    };
    const r = await apply(client, p, { allowUnpreviewed: true, handlers });
    const rule = r.failed.find((f) => f.address === 'dq_monitor_deployment_rule.r');
    expect(rule?.error).toMatch(/^conflict: a monitor deployment rule ".*" was created since the plan \(checked right before writing it\); not written$/);
    expect((await client.deploymentRules.list({ ruleIds: [id] })).map((x) => x.title)).toEqual(['Elsewhere']);
    expect(r.applied.map((a) => a.address)).not.toContain('dq_monitor_deployment_rule.r');
  });
});

describe("a create the client retried (its first attempt landed, the connection dropped) is dqform's own, not a conflict", () => {
  afterEach(() => fetch(`${emu.url}/__emulator/faults`, { method: 'DELETE' }));
  it.each([
    ['dq_owner', '/api/owners/v1', { title: 'Owner' }],
    ['dq_sql_test', '/api/datachecks/sqltests/v1', sqlTest('T')],
  ] as const)('%s: applied, and the next plan is empty', async (type, writePath, body) => {
    const ns = `cr-retried-${type.replace(/_/g, '-')}`;
    const m = manifest(ns, { [type]: { x: body } });
    await setFaults([{ type: 'dropAfter', count: 1, path: writePath, method: 'POST' }]);
    const r = await apply(client, await plan(client, m));
    expect(r).toEqual({ applied: [{ address: `${type}.x`, action: 'create', ms: expect.any(Number) }], failed: [], skipped: [] });
    const faults = (await (await fetch(`${emu.url}/__emulator/faults`)).json()) as { hits: Record<string, number> };
    expect(faults.hits).toEqual({ dropAfter: 1 });
    expect((await plan(client, m)).changes.filter((c) => c.action !== 'noop' && c.action !== 'unmanaged')).toEqual([]);
  });
});

describe('checkWriteVersion (pure)', () => {
  const ch = (action: 'create' | 'update') => Change.parse({ address: 'dq_owner.a', type: 'dq_owner', action, id: 'x', before: null, after: {} });
  const ok = async () => true;
  const no = async () => false;
  it.each([
    ['a first create answers version 1', ch('create'), undefined, 'W/"x-1"', 0, no, undefined],
    ['a create over a soft-deleted version 4 (guarded by its etag) answers 5', ch('create'), 'W/"x-4"', 'W/"x-5"', 0, no, undefined],
    ['an update of version 3 answers 4', ch('update'), 'W/"x-3"', 'W/"x-4"', 0, no, undefined],
    ['a create answering version 2: someone wrote it first', ch('create'), undefined, 'W/"x-2"', 0, ok, /answered version 2, expected 1 after a new object/],
    ['an update answering two versions more: the etag was not enforced', ch('update'), 'W/"x-3"', 'W/"x-5"', 0, ok, /answered version 5, expected 4 after version 3/],
    ['a retried create that reads back as written', ch('create'), undefined, 'W/"x-2"', 1, ok, undefined],
    ['a retried create that reads back otherwise', ch('create'), undefined, 'W/"x-2"', 1, no, /answered version 2/],
    ['etags of another form cannot be checked', ch('create'), undefined, '"abc"', 0, no, undefined],
  ] as const)('%s', async (_why, c, sent, answered, retries, readBack, expected) => {
    const p = checkWriteVersion(c, 'owner', sent, answered, retries, readBack);
    if (expected) await expect(p).rejects.toThrow(expected);
    else await expect(p).resolves.toBeUndefined();
  });
  it.each([
    ['W/"a-b-c-12"', 12],
    ['W/"x-0"', 0],
    ['"x-1"', undefined],
    [undefined, undefined],
  ] as const)('etagVersion(%s) = %s', (etag, v) => expect(etagVersion(etag)).toBe(v));
});
