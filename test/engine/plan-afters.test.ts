/**
 * `PlanInput.afters` (issue 27): the normalised desired objects a caller already has (the
 * resolution cache) are planned as given, without the handlers' `fromDesired` again; given one
 * per resource or not at all (a list of another length, or a destroy plan's empty declarations,
 * is made again), and the plan is the one the planner makes itself. With them, their
 * fingerprints: an unchanged object's liveHash.
 */
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan, desiredForms, type HandlerMap } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { DEFAULT_REQUEST } from '../../schemas/model/plan';
import { fingerprint } from '../../src/kinds/shared/normalise';

const doc = {
  provider: { dq: [{ namespace: 'shop' }] },
  resource: {
    dq_owner: { a: { title: 'Team A', contacts: [{ email: { recipient_emails: ['b@example.com', 'a@example.com'] } }] }, b: { title: 'Team B' } },
    dq_data_product: { p: { title: 'Product', priority: 'PRIORITY_P2', description: '' } },
  },
};
const resolution = () => resolveManifest(manifestFromTerraformJson(doc, { stack: 'shop' }), 'demo');

/** dqform's handlers, counting `fromDesired` calls. */
function counting(): { handlers: HandlerMap; calls: () => number } {
  let n = 0;
  const handlers = Object.fromEntries(
    Object.entries(HANDLERS).map(([t, h]) => [
      t,
      {
        ...h,
        fromDesired: (d: Record<string, unknown>) => {
          n++;
          return h.fromDesired(d);
        },
      },
    ]),
  ) as unknown as HandlerMap;
  return { handlers, calls: () => n };
}

it('plans the normalised desired objects given, without making them again, and the same plan', () => {
  const made = computePlan({ resolution: resolution(), live: {}, handlers: HANDLERS, manifestHash: 'h' });
  const r = resolution();
  const afters = desiredForms(r.resources, HANDLERS);
  const { handlers, calls } = counting();
  const given = computePlan({ resolution: r, live: {}, handlers, manifestHash: 'h', afters: JSON.parse(JSON.stringify(afters)) as Record<string, unknown>[] });
  expect(calls()).toBe(0);
  expect(JSON.stringify(given)).toBe(JSON.stringify(made));
  // what is planned is what was given (a stand-in title shows)
  const planted = afters.map((a) => ('title' in a && a.title === 'Team B' ? { ...a, title: 'Given' } : a));
  const p = computePlan({ resolution: resolution(), live: {}, handlers, manifestHash: 'h', afters: planted });
  expect(p.changes.find((c) => c.address === 'dq_owner.b')?.after).toEqual({ title: 'Given' });
});

it('makes them when the list given is not one per resource, or the plan destroys', () => {
  const { handlers, calls } = counting();
  const r = resolution();
  const afters = desiredForms(r.resources, HANDLERS);
  const made = computePlan({ resolution: resolution(), live: {}, handlers: HANDLERS, manifestHash: 'h' });
  const short = computePlan({ resolution: r, live: {}, handlers, manifestHash: 'h', afters: afters.slice(1).map(() => ({ title: 'Wrong' })) });
  expect(calls()).toBe(r.resources.length);
  expect(JSON.stringify(short)).toBe(JSON.stringify(made));
  const destroy = computePlan({ resolution: resolution(), live: {}, handlers, manifestHash: 'h', afters, request: { ...DEFAULT_REQUEST, destroy: true } });
  expect(destroy.changes).toEqual([]);
});

describe('PlanInput.afterFingerprints', () => {
  const live = (r: ReturnType<typeof resolution>, titleB: string) => {
    const owner = (name: string, title: string) => {
      const id = r.resources.find((x) => x.address === `dq_owner.${name}`)!.id;
      return { key: id, id, etag: `W/"${id}-1"`, raw: { id, title, contacts: name === 'a' ? [{ email: { recipientEmails: ['a@example.com', 'b@example.com'] } }] : [], etag: `W/"${id}-1"`, entityId: `owner-${id}` } };
    };
    return { dq_owner: [owner('a', 'Team A'), owner('b', titleB)] };
  };

  it("an unchanged object's liveHash is its desired form's fingerprint, given; a changed one's is computed; the plan is the one made without them", () => {
    const r = resolution();
    const afters = desiredForms(r.resources, HANDLERS);
    const fingerprints = afters.map((a) => fingerprint(a));
    const made = computePlan({ resolution: resolution(), live: live(r, 'Team B (edited in the UI)'), handlers: HANDLERS, manifestHash: 'h' });
    const given = computePlan({ resolution: r, live: live(r, 'Team B (edited in the UI)'), handlers: HANDLERS, manifestHash: 'h', afters, afterFingerprints: fingerprints });
    expect(JSON.stringify(given)).toBe(JSON.stringify(made));
    expect(given.changes.filter((c) => c.type === 'dq_owner').map((c) => c.action)).toEqual(['noop', 'update']);
    // stand-ins show where they are used: the unchanged owner's only
    const planted = computePlan({ resolution: resolution(), live: live(r, 'Team B (edited in the UI)'), handlers: HANDLERS, manifestHash: 'h', afters, afterFingerprints: fingerprints.map((_, i) => `given-${i}`) });
    const byAddress = new Map(planted.changes.map((c) => [c.address, c.liveHash]));
    const i = r.resources.findIndex((x) => x.address === 'dq_owner.a');
    expect(byAddress.get('dq_owner.a')).toBe(`given-${i}`);
    expect(byAddress.get('dq_owner.b')).toBe(made.changes.find((c) => c.address === 'dq_owner.b')!.liveHash);
    // without afters, fingerprints are not read
    const alone = computePlan({ resolution: resolution(), live: live(r, 'Team B'), handlers: HANDLERS, manifestHash: 'h', afterFingerprints: fingerprints.map(() => 'x') });
    expect(alone.changes.some((c) => c.liveHash === 'x')).toBe(false);
  });

  it('an ignored field: the live form is planned, its own fingerprint', () => {
    const ignoring = { ...doc, resource: { ...doc.resource, dq_owner: { ...doc.resource.dq_owner, b: { title: 'Team B', lifecycle: { ignore_changes: ['title'] } } } } };
    const r = resolveManifest(manifestFromTerraformJson(ignoring, { stack: 'shop' }), 'demo');
    const afters = desiredForms(r.resources, HANDLERS);
    const p = computePlan({ resolution: r, live: live(r, 'Team B (edited in the UI)'), handlers: HANDLERS, manifestHash: 'h', afters, afterFingerprints: afters.map(() => 'given') });
    const b = p.changes.find((c) => c.address === 'dq_owner.b')!;
    expect([b.action, b.liveHash]).toEqual(['noop', fingerprint(b.before)]);
  });
});
