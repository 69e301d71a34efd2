/**
 * The order in which one plan's reads ask for their first pages (issue 27): the ownerships,
 * listed per owner (hundreds of calls), must not take the client's request slots before every
 * other kind's first page is asked for.
 */
import { readLiveState } from '../../src/engine/live-state';
import { RESOURCE_TYPES } from '../../schemas/model/manifest';
import { HANDLERS } from '../../src/kinds/index';
import { deriveId } from '../../src/engine/identity';
import type { PlatformClient } from '../../src/client';

const WS = 'demo';
const NS = 'shop';

/** A client whose every call is recorded in order and answers an empty page (or nothing found). */
function recordingClient(): { client: PlatformClient; ops: string[] } {
  const ops: string[] = [];
  const empty = (method: string): unknown => (method.startsWith('batchGet') ? {} : []);
  const service = (name: string) =>
    new Proxy({}, { get: (_t, method) => (typeof method !== 'string' || method === 'then' ? undefined : async () => (ops.push(`${name}.${method}`), empty(method))) });
  const client = new Proxy({}, { get: (_t, name) => (typeof name === 'string' && name !== 'then' ? service(name) : undefined) }) as unknown as PlatformClient;
  return { client, ops };
}

test('every kind asks for its first page before the ownerships are listed per owner', async () => {
  const owner = deriveId(WS, NS, 'dq_owner', 'o');
  const resources = [{ type: 'dq_ownership', id: deriveId(WS, NS, 'dq_ownership', 's'), desired: { ownerId: `owner-${owner}` } }];
  const { client, ops } = recordingClient();
  await readLiveState(client, { workspace: WS, namespace: NS, resources: resources as never, removed: [] }, HANDLERS, RESOURCE_TYPES);
  const first = ops.indexOf('owners.listOwnerships');
  expect(first).toBeGreaterThan(0);
  const services = new Set(ops.filter((o) => o !== 'owners.listOwnerships').map((o) => o.split('.')[0]));
  expect(new Set(ops.slice(0, first).map((o) => o.split('.')[0]))).toEqual(services);
});
