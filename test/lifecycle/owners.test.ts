/**
 * Issue 21, "what the plan says is what happens", for owners and their ownerships:
 * - `plan --replace dq_owner.x` then apply: no false "written by someone else" conflict; the plan
 *   shows the ownerships the platform deletes with the old owner (a UI-made one among them, gone
 *   for good and counted against --max-effect-deletes) and re-creates the ones the code declares.
 * - renaming an owner construct (a moved block, or a new address name): no false "deleted with
 *   it: 1 ownership", nothing counted against --max-effect-deletes; with a UI-made ownership on
 *   the renamed owner, exactly that one is shown deleted with the old owner and counted.
 * Every apply is checked with the harness: the emulator's whole state before and after, against
 * the saved plan.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { startEmulatorProcess, Scenario, type EmulatorProcess } from './harness';
import { reasonsText } from '../../src/plan/reasons-text';

jest.setTimeout(180_000);

let emu: EmulatorProcess;
beforeAll(async () => {
  emu = await startEmulatorProcess({ seed: 'demo' });
});
afterAll(async () => {
  await emu?.stop();
});

const OWNER = { title: 'Team', contacts: [{ email: { recipient_emails: ['t@example.com'] } }] };
const ownership = (owner: string) => ({ owner_id: `\${dq_owner.${owner}.id}`, selection: { query: { resolver_ql: 'with_tag("pii")' } } });

/** Applies `resources` to namespace `ns` (first apply, checked) and returns the scenario. */
async function applied(ns: string, resources: Record<string, unknown>): Promise<Scenario> {
  const s = new Scenario(emu);
  s.stack(ns, resources);
  const p = await s.plan();
  const r = await s.applyChecked(p.plan!, ['apply', p.file]);
  expect({ code: r.run.code, missing: r.missing, unexpected: r.unexpected }).toEqual({ code: 0, missing: [], unexpected: [] });
  return s;
}

it('plan --replace dq_owner.team then apply: the plan shows the ownerships deleted with the old owner and the one re-created; apply does exactly that, with no false conflict', async () => {
  const s = await applied('own-replace', { dq_owner: { team: OWNER }, dq_ownership: { o: ownership('team') } });
  const client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  try {
    // someone adds an ownership to the team's owner in the UI
    const { plan: first } = await s.plan();
    const ownerId = first!.changes.find((c) => c.address === 'dq_owner.team')!.id;
    const uiId = '0e0e0e0e-0000-4000-8000-00000000a001';
    await client.owners.upsertOwnership({ id: uiId, ownerId, selection: { query: { resolverQl: 'with_tag("finance")' } } } as never);

    const { run, plan, file } = await s.plan(['--replace', 'dq_owner.team']);
    expect(run.code).toBe(0);
    const owner = plan!.changes.find((c) => c.address === 'dq_owner.team')!;
    const kept = plan!.changes.find((c) => c.address === 'dq_ownership.o')!;
    expect(owner.action).toBe('replace');
    expect(owner.effects?.cascade.map((x) => [x.id, x.effect, x.alsoDeleted])).toEqual(expect.arrayContaining([[uiId, 'deleted', false], [kept.id, 'deleted', true]]));
    expect(kept.action).toBe('replace');
    expect(reasonsText(kept)).toContain('the platform deletes it with dq_owner.team, which this plan replaces: created again after it');
    expect(run.out).toContain('The platform also deletes 1 ownership(s) by cascade.');

    // the UI-made ownership counts against --max-effect-deletes
    const refused = await s.run(['apply', '--replace', 'dq_owner.team', '--max-effect-deletes', '0', file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the plan makes the platform delete 1 ownership\(s\) by cascade, more than --max-effect-deletes 0/);

    const r = await s.applyChecked(plan!, ['apply', '--replace', 'dq_owner.team', file]);
    expect(r.run.err).not.toMatch(/written by someone else|conflict/);
    expect(r.run.code).toBe(0);
    expect({ missing: r.missing, unexpected: r.unexpected }).toEqual({ missing: [], unexpected: [] });
    expect(r.happened).toEqual(expect.arrayContaining([`delete dq_ownership ${uiId}`, `write dq_owner ${owner.id.toLowerCase()}`, `write dq_ownership ${kept.id.toLowerCase()}`]));
    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
  } finally {
    await client.close();
    s.remove();
  }
});

it.each([
  ['a moved block', true],
  ['a new address name', false],
])('renaming an owner construct with %s: no false "deleted with it: 1 ownership", nothing counted against --max-effect-deletes, and apply does what the plan says', async (_how, moved) => {
  const ns = moved ? 'own-moved' : 'own-renamed';
  const s = await applied(ns, { dq_owner: { team: OWNER }, dq_ownership: { o: ownership('team') } });
  try {
    const resources = { dq_owner: { crew: OWNER }, dq_ownership: { o: ownership('crew') } };
    s.stack(ns, moved ? { provider: { dq: [{ namespace: ns }] }, resource: resources, moved: [{ from: 'dq_owner.team', to: 'dq_owner.crew' }] } : resources);
    const { run, plan, file } = await s.plan();
    expect(run.code).toBe(0);
    expect(run.out).not.toMatch(/deleted with it|by cascade/);
    for (const c of plan!.changes) expect(c.effects?.cascade ?? []).toEqual([]);
    const r = await s.applyChecked(plan!, ['apply', '--max-effect-deletes', '0', file]);
    expect(r.run.code).toBe(0);
    expect({ missing: r.missing, unexpected: r.unexpected }).toEqual({ missing: [], unexpected: [] });
    expect(r.happened.some((l) => l.startsWith('delete dq_ownership'))).toBe(false);
    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
  } finally {
    s.remove();
  }
});

it('renaming an owner construct with a new address name while a UI-made ownership points at it: the plan shows that ownership deleted with the old owner (and only it), counts it against --max-effect-deletes, and apply does exactly that', async () => {
  const ns = 'own-renamed-ui';
  const s = await applied(ns, { dq_owner: { team: OWNER }, dq_ownership: { o: ownership('team') } });
  const client = PlatformClient.create({ baseUrl: emu.url, clientId: 'demo-admin', clientSecret: 'demo-secret' });
  try {
    const { plan: first } = await s.plan();
    const oldOwner = first!.changes.find((c) => c.address === 'dq_owner.team')!.id;
    const uiId = '0e0e0e0e-0000-4000-8000-00000000a002';
    await client.owners.upsertOwnership({ id: uiId, ownerId: oldOwner, selection: { query: { resolverQl: 'with_tag("finance")' } } } as never);

    s.stack(ns, { dq_owner: { crew: OWNER }, dq_ownership: { o: ownership('crew') } });
    const { run, plan, file } = await s.plan();
    expect(run.code).toBe(0);
    // the old address is gone from the code: the old owner is pruned, shown by its id
    const gone = plan!.changes.find((c) => c.type === 'dq_owner' && c.id === oldOwner)!;
    expect(gone.action).toBe('delete');
    // the UI-made ownership goes with the old owner; the declared one is re-pointed, not deleted
    expect(gone.effects?.cascade.map((x) => [x.id, x.effect])).toEqual([[uiId, 'deleted']]);
    const declared = plan!.changes.find((c) => c.address === 'dq_ownership.o')!;
    expect(declared.action).toBe('update');
    expect(run.out).toContain('The platform also deletes 1 ownership(s) by cascade.');

    const refused = await s.run(['apply', '--max-effect-deletes', '0', file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/the plan makes the platform delete 1 ownership\(s\) by cascade, more than --max-effect-deletes 0/);

    const r = await s.applyChecked(plan!, ['apply', file]);
    expect(r.run.code).toBe(0);
    expect({ missing: r.missing, unexpected: r.unexpected }).toEqual({ missing: [], unexpected: [] });
    expect(r.happened).toEqual(expect.arrayContaining([`delete dq_ownership ${uiId}`, `delete dq_owner ${oldOwner.toLowerCase()}`]));
    expect(r.happened).not.toContain(`delete dq_ownership ${declared.id.toLowerCase()}`);
    const next = await s.plan(['--detailed-exitcode']);
    expect(next.run.code).toBe(0);
  } finally {
    await client.close();
    s.remove();
  }
});
