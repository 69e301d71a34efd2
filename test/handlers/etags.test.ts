/**
 * Every update and delete sends the etag the plan read, every create of a governance kind sends
 * the etag of a soft-deleted object at its id when the applier found one (and no etag
 * otherwise). Mutation testing found the update etag of data products and ownerships and the
 * delete etag of owners and alerts could be dropped unnoticed. A recording fake client (no
 * emulator: fast enough for mutation runs) answers each upsert with the next version.
 *
 * @gateway
 */
import { Change } from '../../schemas/model/plan';
import type { PlatformClient } from '../../src/client';
import { handlerFor } from '../../src/kinds/index';
import type { ResourceType } from '../../schemas/model/manifest';

/** The calls the fake client received: [method, args]. */
let calls: [string, unknown[]][] = [];

/** `W/"<id>-<n+1>"` after `etag` (version 0 when none). */
function next(id: string, etag: unknown): string {
  const n = typeof etag === 'string' ? Number(/-(\d+)"$/.exec(etag)?.[1] ?? 0) : 0;
  return `W/"${id}-${n + 1}"`;
}
function rec<A extends unknown[], R>(name: string, answer: (...a: A) => R) {
  return async (...a: A): Promise<R> => {
    calls.push([name, a]);
    return answer(...a);
  };
}
const fake = {
  owners: {
    upsertOwner: rec('owners.upsertOwner', (w: { id: string }, etag?: string) => ({ ...w, etag: next(w.id, etag) })),
    deleteOwner: rec('owners.deleteOwner', () => undefined),
    upsertOwnership: rec('owners.upsertOwnership', (w: { id: string }, etag?: string) => ({ ...w, etag: next(w.id, etag) })),
    deleteOwnership: rec('owners.deleteOwnership', () => undefined),
  },
  domains: {
    upsert: rec('domains.upsert', (w: { id: string }, etag?: string) => ({ ...w, etag: next(w.id, etag) })),
    delete: rec('domains.delete', () => undefined),
  },
  dataProducts: {
    upsert: rec('dataProducts.upsert', (w: { id: string }, etag?: string) => ({ ...w, etag: next(w.id, etag) })),
    delete: rec('dataProducts.delete', () => undefined),
  },
  alerts: {
    create: rec('alerts.create', (w: { fqn: string }) => ({ ...w, etag: next(w.fqn, undefined) })),
    upsert: rec('alerts.upsert', (w: { fqn: string }, etag?: string) => ({ ...w, etag: next(w.fqn, etag) })),
    delete: rec('alerts.delete', () => undefined),
    toggleEnabled: rec('alerts.toggleEnabled', () => undefined),
  },
} as unknown as PlatformClient;

const ctx = { workspace: 'demo', namespace: 'ns' };
const ID = '0d0d0d0d-0000-4000-8000-000000000001';
const ETAG = `W/"${ID}-3"`;
const DESIRED: Record<string, Record<string, unknown>> = {
  dq_owner: { title: 'T', contacts: [] },
  dq_domain: { name: 'D' },
  dq_data_product: { title: 'P' },
  dq_ownership: { ownerId: ID, selection: { query: { resolverQl: 'with_tag("pii")' } } },
  dq_alert: { name: 'A', issueLifecycle: { trigger: { resolverQl: 'with_type("table")' }, targets: [{ slack: { channel: '#a' } }], settings: { severities: ['SEVERITY_ERROR'] } } },
};
function change(type: string, action: 'create' | 'update' | 'delete', etag?: string): Change {
  return Change.parse({ address: `${type}.x`, type, action, id: type === 'dq_alert' ? 'ns.x' : ID, fqn: type === 'dq_alert' ? 'ns.x' : undefined, before: action === 'create' ? null : {}, after: action === 'delete' ? null : DESIRED[type], etag });
}
beforeEach(() => {
  calls = [];
});

/** The etag argument of the write call: [method, index of the etag argument, how to read it]. */
const WRITE: Record<string, [string, (a: unknown[]) => unknown]> = {
  dq_owner: ['owners.upsertOwner', (a) => a[1]],
  dq_domain: ['domains.upsert', (a) => a[1]],
  dq_data_product: ['dataProducts.upsert', (a) => a[1]],
  dq_ownership: ['owners.upsertOwnership', (a) => a[1]],
  dq_alert: ['alerts.upsert', (a) => a[1]],
};
const DELETE: Record<string, [string, (a: unknown[]) => unknown]> = {
  dq_owner: ['owners.deleteOwner', (a) => a[1]],
  dq_domain: ['domains.delete', (a) => (a[1] as { etag?: string }).etag],
  dq_data_product: ['dataProducts.delete', (a) => (a[1] as { etag?: string }).etag],
  dq_ownership: ['owners.deleteOwnership', (a) => a[1]],
  dq_alert: ['alerts.delete', (a) => a[1]],
};

describe.each(Object.keys(WRITE))('%s', (type) => {
  const h = handlerFor(type as ResourceType);
  it('update sends the plan etag', async () => {
    await h.update(fake, change(type, 'update', ETAG), ctx);
    const [name, read] = WRITE[type];
    const call = calls.find((c) => c[0] === name);
    expect(call).toBeDefined();
    expect(read(call![1])).toBe(ETAG);
  });
  it('delete sends the plan etag', async () => {
    await h.delete(fake, change(type, 'delete', ETAG), ctx);
    const [name, read] = DELETE[type];
    const call = calls.find((c) => c[0] === name);
    expect(call).toBeDefined();
    expect(read(call![1])).toBe(ETAG);
  });
});

describe.each(['dq_owner', 'dq_domain', 'dq_data_product', 'dq_ownership'])('%s create', (type) => {
  const h = handlerFor(type as ResourceType);
  const [name, read] = WRITE[type];
  it('sends no etag for a first create, and the soft-deleted object\'s etag when the applier gives one', async () => {
    await h.create(fake, change(type, 'create'), ctx);
    await h.create(fake, change(type, 'create', ETAG), ctx);
    const writes = calls.filter((c) => c[0] === name);
    expect(writes.map((c) => read(c[1]))).toEqual([undefined, ETAG]);
  });
});

it('alerts: a create is a Create (never an Upsert), with no etag', async () => {
  await handlerFor('dq_alert').create(fake, change('dq_alert', 'create'), ctx);
  expect(calls.map((c) => c[0])).toEqual(['alerts.create']);
});
