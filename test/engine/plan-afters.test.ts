/**
 * `PlanInput.afters` (issue 27): the normalised desired objects a caller already has (the
 * resolution cache) are planned as given, without the handlers' `fromDesired` again; given one
 * per resource or not at all (a list of another length, or a destroy plan's empty declarations,
 * is made again), and the plan is the one the planner makes itself.
 */
import { HANDLERS } from '../../src/kinds/index';
import { manifestFromTerraformJson } from '../../src/engine/manifest';
import { computePlan, desiredForms, type HandlerMap } from '../../src/engine/planner';
import { resolveManifest } from '../../src/engine/resolve';
import { DEFAULT_REQUEST } from '../../schemas/model/plan';

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
