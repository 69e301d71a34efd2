/**
 * Small helpers of src/handlers whose output reaches a plan: the "effects unknown" text (no
 * request ids, no query strings: a plan is deterministic) and the version read from an etag.
 * (Written for the survivors of the mutation run of src/handlers, issue 12.)
 */
import { ApiError } from '../../src/client';
import { effectsUnknown, etagVersion } from '../../src/handlers/support';

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
