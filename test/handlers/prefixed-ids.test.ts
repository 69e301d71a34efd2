/**
 * Issue 22 (part B): the platform accepts ids with the `domain-`, `dataproduct-` and `owner-`
 * prefixes (wire-facts 7, 7b) and may answer them in that form, in an object's `id` or as the
 * key of a batch read's map. dqform's identity is the bare, lower-case uuid (the namespace tag is
 * read from it: tagOf strips the prefix), so every read matches such an answer to the bare id the
 * plan uses. Each row is a captured batch-get response; before, a map keyed by the prefixed id
 * read as "absent" (the plan would create the object again, the write check would report a
 * conflict), and a prefixed id of the namespace was keyed by its prefixed form.
 *
 * @gateway
 */
import { PlatformClient } from '../../src/client';
import { deriveId, idOwner } from '../../src/engine/identity';
import { HANDLERS } from '../../src/kinds/index';
import { entryFor, keepForNamespace } from '../../src/kinds/shared/support';
import type { ReadQuery } from '../../src/kinds/shared/types';
import { serverPerTest } from '../client/helpers/client';

const WS = 'demo';
const NS = 'shop';
const t = serverPerTest();
const platform = () => new PlatformClient(t.client().client);
const q = (keys: string[]): ReadQuery => ({ workspace: WS, namespace: NS, keys, keysOnly: true });

const DOMAIN = deriveId(WS, NS, 'dq_domain', 'sales');
const PRODUCT = deriveId(WS, NS, 'dq_data_product', 'orders');
const OWNER = deriveId(WS, NS, 'dq_owner', 'team');

test.each([
  ['dq_domain', '/api/domains/v2/batch-get', 'domains', DOMAIN, `domain-${DOMAIN}`, { name: 'Sales' }],
  ['dq_data_product', '/api/dataproducts/v2/batch-get', 'dataproducts', PRODUCT, `dataproduct-${PRODUCT}`, { title: 'Orders' }],
  ['dq_owner', '/api/owners/v1/batch-get', 'owners', OWNER, `owner-${OWNER.toUpperCase()}`, { title: 'Team', contacts: [] }],
] as const)('%s: a batch-get answer keyed and named by the prefixed id is the object the plan asked for by its bare id', async (type, route, key, id, answered, fields) => {
  t.server.on('POST', route, () => ({ json: { [key]: { [answered]: { id: answered, ...fields, etag: 'W/"x-1"', source: 0 } } } }));
  const got = await HANDLERS[type].read(platform(), q([id]));
  expect(got.map((o) => [o.key, o.etag, o.unmanageable])).toEqual([[id, 'W/"x-1"', undefined]]);
  expect(t.server.calls('POST', route)[0].json).toEqual({ ids: [id] });
});

test('entryFor: as asked, bare, prefixed, other case, or named by the object id; nothing else', () => {
  const m = { [`owner-${OWNER.toUpperCase()}`]: { id: 'a' }, 'some-key': { id: `domain-${DOMAIN}` } };
  expect(entryFor(m, OWNER)).toEqual({ id: 'a' });
  expect(entryFor(m, `owner-${OWNER}`)).toEqual({ id: 'a' });
  expect(entryFor(m, DOMAIN)).toEqual({ id: `domain-${DOMAIN}` });
  expect(entryFor(m, PRODUCT)).toBeUndefined();
});

test('identity: a prefixed id of the namespace is the namespace\'s (tag read from the uuid part), keyed by its bare id when listed', () => {
  for (const id of [`domain-${DOMAIN}`, `dataproduct-${PRODUCT.toUpperCase()}`, `owner-${OWNER}`]) expect(idOwner(id, WS, NS)).toBe('namespace');
  expect(idOwner('owner-0a000000-0000-4000-8000-0000000000ff', WS, NS)).toBe('none');
  const owns = (id: string) => idOwner(id, WS, NS) === 'namespace';
  const out = keepForNamespace([{ id: `owner-${OWNER}` }], { keys: [], owns });
  expect(out.map((o) => [o.key, o.id])).toEqual([[OWNER, `owner-${OWNER}`]]);
});

test('a product rule naming its data product as dataproduct-<UUID> equals one naming the bare uuid (no perpetual diff)', () => {
  const h = HANDLERS.dq_monitor_deployment_rule;
  const rule = (productId: string) => ({ title: 'p', productConfig: { productId, severity: 'SEVERITY_ERROR', sensitivity: 'SENSITIVITY_BALANCED', metricIds: ['METRIC_ID_ROW_COUNT'], self: { all: {} } } });
  expect(h.fromLive(rule(`dataproduct-${PRODUCT.toUpperCase()}`))).toEqual(h.fromDesired(rule(PRODUCT)));
  expect(h.fromLive(rule(PRODUCT))).not.toEqual(h.fromDesired(rule(DOMAIN)));
});
