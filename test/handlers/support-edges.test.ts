/**
 * Small helpers of src/handlers whose output reaches a plan: the "effects unknown" text (no
 * request ids, no query strings: a plan is deterministic) and the version read from an etag.
 * (Written for the survivors of the mutation run of src/handlers, issue 12.)
 *
 * @gateway
 */
import { parseResolverQl, resolverQlToQuery } from '../../schemas/tools/resolverql';
import { ApiError } from '../../src/client';
import { effectsUnknown, etagVersion, qlForm, qlFormAt } from '../../src/kinds/shared/support';

test('effectsUnknown drops request ids and query strings, keeps the rest', () => {
  const e = new ApiError({ method: 'GET', path: '/api/monitors/automated/v1/deploy-overview?deploymentRule.id=1&x=2', status: 503, requestId: 'req-123', serverMessage: 'down' });
  expect(effectsUnknown(e)).toBe('effects unknown: GET /api/monitors/automated/v1/deploy-overview failed: 503: down');
  expect(effectsUnknown('  plain text (request id abc) and (request id def) ')).toBe('effects unknown: plain text and');
  expect(effectsUnknown(new Error('at /a/b?c=d then /e?f'))).toBe('effects unknown: at /a/b then /e');
});

test.each([
  ['W/"abc-12"', 12],
  ['W/"a-b-c-3"', 3],
  ['W/"abc-12"x', undefined],
  ['xW/"abc-12"', undefined],
  ['"abc-12"', undefined],
  ['W/"abc-"', undefined],
  [undefined, undefined],
])('etagVersion(%j) = %p', (etag, v) => {
  expect(etagVersion(etag)).toBe(v);
});

describe('qlForm', () => {
  const query = resolverQlToQuery(parseResolverQl('with_tag("pii")'));

  test('a selection with only a structured query gets its ResolverQL rendering, and keeps the query', () => {
    expect(qlForm({ query, name: 'n' })).toEqual({ query, name: 'n', resolverQl: 'with_tag("pii")' });
  });

  test('a selection that already has ResolverQL (written or rendered) is returned as it is', () => {
    const written = { query, resolverQl: 'x' };
    const rendered = { query, renderedResolverQl: 'y' };
    expect(qlForm(written)).toBe(written);
    expect(qlForm(rendered)).toBe(rendered);
    const emptyBoth = { query, resolverQl: '', renderedResolverQl: '' };
    expect(qlForm(emptyBoth)).toEqual({ ...emptyBoth, resolverQl: 'with_tag("pii")' });
  });

  test('no query, no object, or a query that cannot be rendered: unchanged', () => {
    const none = { name: 'n' };
    expect(qlForm(none)).toBe(none);
    expect(qlForm(undefined)).toBeUndefined();
    expect(qlForm('s')).toBe('s');
    const odd = { query: { parts: [{ bogus: 1 }], operand: 'NOPE' } };
    expect(qlForm(odd)).toBe(odd);
    expect(qlFormAt({ a: 1 }, 'sel')).toEqual({ a: 1 });
    expect(qlFormAt({ sel: { query } }, 'sel')).toEqual({ sel: { query, resolverQl: 'with_tag("pii")' } });
  });
});
