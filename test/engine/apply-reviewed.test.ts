/**
 * applyReviewed (bind.ts) in process, against an emulator: a saved plan is applied only when a
 * plan made now from the same code and live state does what it says. What is refused before any
 * request (errors, guards), with other credentials (another workspace, a kind they cannot read),
 * and after planning again (live state moved, the file edited, the code changed), each with its
 * words and nothing written; what is applied (the fresh plan, with the saved plan's options).
 * (Issue 23: applyReviewed was reached only through the spawned CLI.)
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulator, type RunningEmulator } from '../../src/emulator';
import { apply, PlanRefusedError } from '../../src/engine/applier';
import { applyReviewed, PlanMismatchError } from '../../src/engine/bind';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { plan } from '../../src/engine/reconcile';
import { deriveId } from '../../src/engine/identity';
import { Plan } from '../../schemas/model/plan';
import type { Manifest } from '../../schemas/model/manifest';

let emu: RunningEmulator;
let client: PlatformClient;
const clients: PlatformClient[] = [];
const connect = (id: string, secret: string) => {
  const c = PlatformClient.create({ baseUrl: emu.url, clientId: id, clientSecret: secret }, { retry: { scale: 0.01, maxElapsedMs: 3_600_000 } });
  clients.push(c);
  return c;
};
beforeAll(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  client = connect('demo-admin', 'demo-secret');
});
afterAll(async () => {
  for (const c of clients) await c.close();
  await emu.close();
});

const manifest = (ns: string, resource: Record<string, unknown>): Manifest => manifestFromTerraformJson({ provider: { dq: [{ namespace: ns }] }, resource }, { stack: ns });
const owners = (...titles: string[]) => ({ dq_owner: Object.fromEntries(titles.map((t) => [t.toLowerCase(), { title: t }])) });
const store = () => emu.app.store.workspace('demo');
const ownerTitle = (ns: string, name: string) => store().collection<{ id: string; title: string; deletedAt?: string }>('owners').filter((o) => o.id === deriveId('demo', ns, 'dq_owner', name) && !o.deletedAt)[0]?.title;
const copy = (p: Plan): Plan => Plan.parse(JSON.parse(JSON.stringify(p)));

async function refusal(f: () => Promise<unknown>): Promise<PlanRefusedError> {
  try {
    await f();
  } catch (e) {
    if (e instanceof PlanRefusedError) return e;
    throw e;
  }
  throw new Error('expected a refusal');
}

test('a saved plan that is still what would be done is applied, saying that it planned again', async () => {
  const m = manifest('ar-ok', owners('Team', 'Ops'));
  const saved = await plan(client, m);
  const lines: string[] = [];
  const r = await applyReviewed(client, copy(saved), m, { onProgress: (l) => lines.push(l) });
  expect(r.failed).toEqual([]);
  expect(r.applied.map((a) => `${a.action} ${a.address}`)).toEqual(['create dq_owner.ops', 'create dq_owner.team']);
  expect(lines.slice(0, 2)).toEqual(['planning again from the same desired state and live state, to check that the saved plan is still what would be done', 'reading live state of namespace "ar-ok" in workspace "demo"']);
  expect(ownerTitle('ar-ok', 'team')).toBe('Team');
});

test('a targeted saved plan is compared with a plan targeted the same way, and only that is applied', async () => {
  const m = manifest('ar-target', owners('Team', 'Ops'));
  const saved = await plan(client, m, { request: { destroy: false, refreshOnly: false, targets: ['dq_owner.team'], replace: [] } });
  const r = await applyReviewed(client, copy(saved), m);
  expect(r.applied.map((a) => a.address)).toEqual(['dq_owner.team']);
  expect(ownerTitle('ar-target', 'ops')).toBeUndefined();
});

test('a plan with errors is refused before any request', async () => {
  const m = manifest('ar-err', owners('Team'));
  const saved = copy(await plan(client, m));
  saved.diagnostics.push({ severity: 'error', summary: 'broken', address: 'dq_owner.team' });
  const lines: string[] = [];
  const e = await refusal(() => applyReviewed(client, saved, m, { onProgress: (l) => lines.push(l) }));
  expect(e.message).toBe('the plan has 1 error(s) and cannot be applied: dq_owner.team: broken');
  expect(lines).toEqual([]);
  expect(ownerTitle('ar-err', 'team')).toBeUndefined();
});

test('credentials of another workspace: refused, naming both workspaces', async () => {
  emu.app.addCredential('ar-other', 'ar-other-secret', ['SCOPE_OWNERS_READ', 'SCOPE_OWNERS_EDIT'], 'other-ws');
  const m = manifest('ar-ws', owners('Team'));
  const saved = copy(await plan(client, m));
  const e = await refusal(() => applyReviewed(connect('ar-other', 'ar-other-secret'), saved, m));
  expect([e.message, e.hint]).toEqual(['the plan was made for workspace "demo", but these credentials act in "other-ws"', "Use the credentials of the plan's workspace, or plan again."]);
});

test('credentials that cannot read a kind the plan holds: refused, naming the scope', async () => {
  emu.app.addCredential('ar-blind', 'ar-blind-secret', ['SCOPE_OWNERS_EDIT'], 'demo');
  const m = manifest('ar-scope', owners('Team'));
  const saved = copy(await plan(client, m));
  const e = await refusal(() => applyReviewed(connect('ar-blind', 'ar-blind-secret'), saved, m));
  expect(e.message).toBe(
    'these credentials cannot read owners (they need one of SCOPE_OWNERS_READ, SCOPE_SRE_AGENT, SCOPE_MCP_READ), and the plan holds 1 of them (dq_owner.team): apply reads each object again before writing, so nothing was written',
  );
  expect(e.addresses).toEqual(['dq_owner.team']);
});

describe('the saved plan is not what would be done now: refused, nothing written', () => {
  test('live state moved (someone wrote since): a stale plan, plan again', async () => {
    const m = manifest('ar-stale', owners('Team'));
    expect((await apply(client, await plan(client, m))).failed).toEqual([]);
    const v2 = manifest('ar-stale', { dq_owner: { team: { title: 'Team v2' } } });
    // the code now says "Team v2"; someone renames it in the UI after the plan, before apply
    const saved = copy(await plan(client, v2));
    const id = deriveId('demo', 'ar-stale', 'dq_owner', 'team');
    await client.owners.upsertOwner({ id, title: 'Renamed in the UI', contacts: { contacts: [] } } as never);
    const e = await refusal(() => applyReviewed(client, saved, v2));
    expect(e).toBeInstanceOf(PlanMismatchError);
    expect(e.message).toMatch(/^stale plan: live state changed since the plan was made; apply refuses it and wrote nothing:\n {2}dq_owner\.team: it changed since the plan \(etag \S+ then, \S+ now\)$/);
    expect(e.hint).toBe('Plan again (dqform plan --out FILE), review it, and apply the new plan; never edit a plan file by hand.');
    expect(e.addresses).toEqual(['dq_owner.team']);
    expect(ownerTitle('ar-stale', 'team')).toBe('Renamed in the UI');
  });

  test('a value edited in the plan file: the file is not what dqform would do', async () => {
    const m = manifest('ar-edit', owners('Team'));
    const saved = copy(await plan(client, m));
    (saved.changes[0].after as Record<string, unknown>).title = 'Edited';
    saved.changes[0].patch = [];
    const e = await refusal(() => applyReviewed(client, saved, m));
    expect(e.message).toBe(
      'the saved plan is not what dqform would do now (the plan file was edited, or live state changed since it was made); apply refuses it and wrote nothing:\n  dq_owner.team: the saved plan would write something other than what the code says (title)',
    );
    expect(ownerTitle('ar-edit', 'team')).toBeUndefined();
  });

  test('the code changed since the plan: plan again from the code', async () => {
    const saved = copy(await plan(client, manifest('ar-code', owners('Team'))));
    const e = await refusal(() => applyReviewed(client, saved, manifest('ar-code', owners('Team', 'Ops'))));
    expect(e.message).toBe(
      'the code changed since the plan; apply refuses it and wrote nothing:\n  (plan): the code changed since the plan: the desired state is not the one the plan was made from\n  dq_owner.ops: a plan made now would create it, the saved plan does not have it',
    );
    expect(e.hint).toBe('Plan again from the current code, review it, and apply that plan (in CI: re-run the plan for this commit).');
    expect(e.addresses).toEqual(['dq_owner.ops']);
    expect(ownerTitle('ar-code', 'team')).toBeUndefined();
  });
});
