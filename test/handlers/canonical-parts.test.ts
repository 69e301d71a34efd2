/**
 * canonicalParts / canonicalDomain: how domain and data-product definitions compare, so that a
 * server-minted part id or an id's prefix or case never shows as a change. (Written for the
 * survivors of the mutation run of src/handlers, issue 12.)
 *
 * @gateway
 */
import { canonicalDomain, canonicalParts } from '../../src/kinds/domain/handler';
import { canonicalSqlTestRule } from '../../src/kinds/sql-test-deployment-rule/handler';
import { parseResolverQl, resolverQlToQuery } from '../../schemas/tools/resolverql';

test('part ids are dropped; member ids (UUIDs) are compared bare and lower-case; other part fields are kept', () => {
  expect(
    canonicalParts({
      parts: [
        { id: 'minted-1', domainId: 'Domain-0F1E2D3C-4B5A-4697-8877-665544332211' },
        { id: 'minted-2', dataproductId: 'dataproduct-1a2b3c4d-5e6f-4a0b-9c8d-7e6f5a4b3c2d' },
        { entityId: 'wh::T' },
        { id: '', query: { resolverQl: 'with_tag("x")' } },
      ],
      other: 1,
    }),
  ).toEqual({ parts: [{ domainId: '0f1e2d3c-4b5a-4697-8877-665544332211' }, { dataproductId: '1a2b3c4d-5e6f-4a0b-9c8d-7e6f5a4b3c2d' }, { entityId: 'wh::T' }, { query: { resolverQl: 'with_tag("x")' } }], other: 1 });
});

test('no definition, or one without a parts list, is left as it is', () => {
  expect(canonicalParts(undefined)).toBeUndefined();
  expect(canonicalParts(null)).toBeNull();
  expect(canonicalParts('x')).toBe('x');
  const noParts = { note: 'n' };
  expect(canonicalParts(noParts)).toBe(noParts);
  expect(canonicalParts({ parts: 'not a list' })).toEqual({ parts: 'not a list' });
});

test('a domain compares the same whatever the server minted, with its parent bare', () => {
  const live = { id: 'domain-1', name: 'D', parentId: 'domain-2B3C4D5E-6F7A-4B1C-8D9E-0F1A2B3C4D5E', definition: { parts: [{ id: 'p1', domainId: 'domain-0f1e2d3c-4b5a-4697-8877-665544332211' }] }, etag: 'W/"1"', createdBy: 'u' };
  const desired = { name: 'D', parentId: '2b3c4d5e-6f7a-4b1c-8d9e-0f1a2b3c4d5e', definition: { parts: [{ domainId: '0F1E2D3C-4B5A-4697-8877-665544332211' }] } };
  expect(canonicalDomain(live)).toEqual(canonicalDomain(desired));
  expect(canonicalDomain({ name: 'D', definition: { parts: [] } })).toEqual(canonicalDomain({ name: 'D' }));
});

describe('canonicalSqlTestRule: a query selection compares by its ResolverQL, whichever form it came in', () => {
  // sql-test-deployment-rules.ts: query and exclusive-query configs go through qlForm (a survivor
  // of the session-3 mutation sample: no test had an exclusive rule written as a structured query)
  const query = resolverQlToQuery(parseResolverQl('with_tag("pii")'));
  test.each(['queryConfig', 'exclusiveQueryConfig'])('%s written as a structured query equals the live rendered form', (kind) => {
    const desired = canonicalSqlTestRule({ title: 't', [kind]: { query } });
    const live = canonicalSqlTestRule({ id: 'r', configId: 'ns', source: 'SOURCE_API', title: 't', [kind]: { query, renderedResolverQl: 'with_tag("pii")' } });
    expect(desired).toEqual(live);
    expect(desired[kind]).toEqual(expect.objectContaining({ resolverQl: 'with_tag("pii")' }));
    expect(desired[kind]).not.toHaveProperty('query');
  });
});
