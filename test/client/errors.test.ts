import {
  AlreadyExistsError,
  ApiError,
  ConflictError,
  errorFromResponse,
  errorFromTransport,
  NotFoundError,
  parseRetryAfter,
  PermissionDeniedError,
  QuotaError,
  RateLimitedError,
  UnauthenticatedError,
  UnavailableError,
  ValidationError,
} from '../../src/client';

const EI = 'type.googleapis.com/google.rpc.ErrorInfo';
const VIOL = 'type.googleapis.com/buf.validate.Violations';
const RI = 'type.googleapis.com/google.rpc.RetryInfo';
const REQ = 'type.googleapis.com/google.rpc.RequestInfo';
const QF = 'type.googleapis.com/google.rpc.QuotaFailure';
const body = (code: number, message: string, details: unknown[] = []) => JSON.stringify({ code, message, details });

type Case = [reason: string, status: number, text: string, headers: Record<string, string>, expected: new (...a: never[]) => ApiError];
const cases: Case[] = [
  ['INVALID_ARGUMENT is a validation failure', 400, body(3, 'bad'), {}, ValidationError],
  ['FAILED_PRECONDITION (e.g. changing an integration config variant) is a validation failure', 400, body(9, 'fixed at create'), {}, ValidationError],
  ['OUT_OF_RANGE is a validation failure', 400, body(11, 'page size'), {}, ValidationError],
  ['a bare 400 without a Status body is a validation failure', 400, 'Bad Request', {}, ValidationError],
  ['UNAUTHENTICATED is unauthenticated', 401, body(16, 'expired'), {}, UnauthenticatedError],
  ['PERMISSION_DENIED is permission denied', 403, body(7, 'no'), {}, PermissionDeniedError],
  ['a bare 403 is permission denied', 403, '', {}, PermissionDeniedError],
  ['NOT_FOUND is not found', 404, body(5, 'gone'), {}, NotFoundError],
  ['ABORTED (stale etag) is a conflict', 409, body(10, 'etag mismatch'), {}, ConflictError],
  ['a bare 409 (integrations stale etag) is a conflict', 409, '', {}, ConflictError],
  ['ALREADY_EXISTS is a conflict of its own kind', 409, body(6, 'taken'), {}, AlreadyExistsError],
  ['RESOURCE_EXHAUSTED with ErrorInfo QUOTA_EXCEEDED is a quota', 429, body(8, 'integrations quota', [{ '@type': EI, reason: 'QUOTA_EXCEEDED', domain: 'platform' }]), {}, QuotaError],
  ['RESOURCE_EXHAUSTED with a google.rpc.QuotaFailure detail is a quota', 429, body(8, 'quota', [{ '@type': QF, violations: [{ subject: 'workspace:demo/integrations', description: 'at most 20' }] }]), { 'retry-after': '1' }, QuotaError],
  ['RESOURCE_EXHAUSTED with a quota metadata key is a quota', 429, body(8, 'q', [{ '@type': EI, reason: 'LIMIT', metadata: { quota_limit: '10' } }]), {}, QuotaError],
  ['RESOURCE_EXHAUSTED without a quota reason is rate limiting', 429, body(8, 'slow down'), { 'retry-after': '2' }, RateLimitedError],
  ['RESOURCE_EXHAUSTED with reason RATE_LIMIT_EXCEEDED is rate limiting', 429, body(8, 'r', [{ '@type': EI, reason: 'RATE_LIMIT_EXCEEDED' }]), {}, RateLimitedError],
  ['a bare 429 is rate limiting', 429, '', {}, RateLimitedError],
  ['UNAVAILABLE is unavailable', 503, body(14, 'down'), {}, UnavailableError],
  ['a bare 503 is unavailable', 503, 'Service Unavailable', {}, UnavailableError],
  ['a 502 from a gateway is unavailable', 502, '<html>bad gateway</html>', {}, UnavailableError],
  ['a 504 from a gateway is unavailable', 504, '', {}, UnavailableError],
  ['DEADLINE_EXCEEDED is unavailable', 504, body(4, 'deadline'), {}, UnavailableError],
  ['INTERNAL is a plain ApiError (not retried)', 500, body(13, 'boom'), {}, ApiError],
  ['UNIMPLEMENTED is a plain ApiError', 501, body(12, 'nope'), {}, ApiError],
];

describe('error factory', () => {
  test.each(cases)('%s', (_reason, status, text, headers, expected) => {
    const err = errorFromResponse({ method: 'post', path: '/api/x', status, headers, body: text, sentRequestId: 'sent-1' });
    expect(err.constructor).toBe(expected);
    expect(err).toBeInstanceOf(ApiError);
    expect(err.method).toBe('POST');
    expect(err.path).toBe('/api/x');
    expect(err.status).toBe(status);
    expect(err.message).toContain('POST /api/x');
  });

  test('only rate limits and unavailability are retryable', () => {
    const retryable = cases.filter(([, s, t, h]) => errorFromResponse({ method: 'GET', path: '/', status: s, headers: h, body: t }).retryable).map(([r]) => r);
    expect(retryable.every((r) => /rate limiting|unavailable/.test(r))).toBe(true);
    expect(retryable).toHaveLength(8);
  });

  test('validation errors expose violations with rule id and field path', () => {
    const err = errorFromResponse({
      method: 'POST',
      path: '/api/alerts/v2/settings',
      status: 400,
      headers: {},
      body: body(3, 'validation failed', [{ '@type': VIOL, violations: [{ field: 'trigger', ruleId: 'update_settings.at_least_one_facet', message: 'at least one facet' }] }]),
    }) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.violations).toEqual([{ field: 'trigger', ruleId: 'update_settings.at_least_one_facet', message: 'at least one facet' }]);
    expect(err.ruleIds).toEqual(['update_settings.at_least_one_facet']);
    expect(err.message).toContain('update_settings.at_least_one_facet');
    expect(err.toJSON().violations).toEqual(err.violations);
  });

  test.each([
    {
      reason: 'a string field path (older protovalidate)',
      violation: { field: 'issueLifecycle.targets[0].email', ruleId: 'alert.incident_lifecycle.targets', message: 'no e-mail' },
      want: { field: 'issueLifecycle.targets[0].email', ruleId: 'alert.incident_lifecycle.targets', message: 'no e-mail' },
    },
    {
      reason: 'a structured FieldPath with an index subscript (protovalidate 0.x+)',
      violation: { field: { elements: [{ fieldNumber: 3, fieldName: 'targets', fieldType: 'TYPE_MESSAGE', index: '0' }, { fieldNumber: 2, fieldName: 'email' }] }, rule: { elements: [{ fieldName: 'required' }] }, ruleId: 'alert.targets.email', message: 'bad' },
      want: { field: 'targets[0].email', ruleId: 'alert.targets.email', message: 'bad' },
    },
    {
      reason: 'a map key subscript',
      violation: { field: { elements: [{ fieldName: 'alerts', stringKey: 'a1' }, { fieldName: 'name' }] }, ruleId: 'string.min_len', message: 'short' },
      want: { field: 'alerts["a1"].name', ruleId: 'string.min_len', message: 'short' },
    },
    {
      reason: 'the older fieldPath and constraintId spellings keep the rule id',
      violation: { fieldPath: 'name', constraintId: 'string.min_len', message: 'short' },
      want: { field: 'name', ruleId: 'string.min_len', message: 'short' },
    },
    { reason: 'a message-level violation with no field', violation: { ruleId: 'update_settings.at_least_one_facet', message: 'one facet' }, want: { ruleId: 'update_settings.at_least_one_facet', message: 'one facet' } },
  ])('violations: $reason', ({ violation, want }) => {
    const err = errorFromResponse({ method: 'POST', path: '/x', status: 400, headers: {}, body: body(3, 'invalid', [{ '@type': VIOL, violations: [violation] }]) }) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.violations).toEqual([want]);
    expect(err.ruleIds).toEqual([want.ruleId]);
  });

  test('a quota detail is never read as field violations, and a QuotaError is not retryable', () => {
    const err = errorFromResponse({ method: 'POST', path: '/x', status: 429, headers: {}, body: body(8, 'quota', [{ '@type': QF, violations: [{ subject: 's', description: 'd' }] }]) });
    expect(err).toBeInstanceOf(QuotaError);
    expect(err.retryable).toBe(false);
  });

  test.each([
    ['from ErrorInfo metadata scope', body(7, 'denied', [{ '@type': EI, reason: 'MISSING_SCOPE', metadata: { scope: 'SCOPE_MCP_WRITE' } }]), 'SCOPE_MCP_WRITE'],
    ['from the message when there is no ErrorInfo', body(7, 'operation requires SCOPE_INTEGRATION_EDIT'), 'SCOPE_INTEGRATION_EDIT'],
    ['undefined when the server does not say', body(7, 'denied'), undefined],
  ])('permission denied names the missing scope %s', (_r, text, scope) => {
    const err = errorFromResponse({ method: 'GET', path: '/', status: 403, headers: {}, body: text }) as PermissionDeniedError;
    expect(err.missingScope).toBe(scope);
    if (scope) expect(err.message).toContain(scope);
  });

  test.each([
    ['the x-request-id response header wins', { 'x-request-id': 'hdr-1' }, [{ '@type': REQ, requestId: 'ri-1' }], 'hdr-1'],
    ['else the RequestInfo detail', {}, [{ '@type': REQ, requestId: 'ri-1' }], 'ri-1'],
    ['else the id the client sent', {}, [], 'sent-1'],
  ])('request id: %s', (_r, headers, details, expected) => {
    const err = errorFromResponse({ method: 'GET', path: '/', status: 404, headers, body: body(5, 'x', details), sentRequestId: 'sent-1' });
    expect(err.requestId).toBe(expected);
    expect(err.toJSON().requestId).toBe(expected);
  });

  test('rate limits carry retryAfterMs from Retry-After or RetryInfo', () => {
    const a = errorFromResponse({ method: 'GET', path: '/', status: 429, headers: { 'retry-after': '4' }, body: '' }) as RateLimitedError;
    expect(a.retryAfterMs).toBe(4000);
    const b = errorFromResponse({ method: 'GET', path: '/', status: 429, headers: {}, body: body(8, 'x', [{ '@type': RI, retryDelay: '0.25s' }]) }) as RateLimitedError;
    expect(b.retryAfterMs).toBe(250);
  });

  test.each([
    ['delta seconds', '120', 0, 120_000],
    ['an HTTP date', 'Wed, 21 Oct 2015 07:28:10 GMT', Date.parse('2015-10-21T07:28:00Z'), 10_000],
    ['a date in the past is no wait', 'Wed, 21 Oct 2015 07:28:00 GMT', Date.parse('2015-10-21T08:00:00Z'), 0],
    ['garbage is ignored', 'soon', 0, undefined],
  ])('parseRetryAfter: %s', (_r, v, now, expected) => {
    expect(parseRetryAfter(v, now)).toBe(expected);
  });

  test('a dropped connection is a retryable UnavailableError with status 0 and the cause', () => {
    const cause = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
    const err = errorFromTransport({ method: 'GET', path: '/api/x' }, cause);
    expect(err).toBeInstanceOf(UnavailableError);
    expect(err.status).toBe(0);
    expect(err.retryable).toBe(true);
    expect(err.cause).toBe(cause);
    expect(err.toJSON().cause).toEqual({ code: 'UND_ERR_SOCKET', message: 'other side closed', name: 'Error' });
  });

  test('toJSON has sorted keys', () => {
    const err = errorFromResponse({ method: 'GET', path: '/', status: 404, headers: {}, body: body(5, 'x') });
    const keys = Object.keys(err.toJSON());
    expect(keys).toEqual([...keys].sort());
  });
});
