/**
 * What a user reads when a call fails: the exact message and the exact JSON (plan files, `--json`
 * diagnostics) of each typed error. errors.test.ts checks which error a response becomes; this
 * file pins what the error then says. (Written for the survivors of the full mutation run of
 * src/client, issue 12.)
 */
import {
  ApiError,
  errorFromResponse,
  errorFromTransport,
  PermissionDeniedError,
  RequestShapeError,
  ResponseShapeError,
  UnavailableError,
  ValidationError,
} from '../../src/client';

const EI = 'type.googleapis.com/google.rpc.ErrorInfo';
const VIOL = 'type.googleapis.com/buf.validate.Violations';
const BR = 'type.googleapis.com/google.rpc.BadRequest';
const body = (code: number, message: string, details: unknown[] = []) => JSON.stringify({ code, message, details });
const fail = (status: number, text: string, extra: Partial<Parameters<typeof errorFromResponse>[0]> = {}) =>
  errorFromResponse({ method: 'post', path: '/api/x', status, headers: {}, body: text, ...extra });

describe('messages', () => {
  test('status, code, server message and request id, in that order', () => {
    expect(fail(404, body(5, 'no such alert'), { sentRequestId: 'r-1' }).message).toBe('POST /api/x failed: 404 NOT_FOUND: no such alert (request id r-1)');
    expect(fail(404, '').message).toBe('POST /api/x failed: 404');
    expect(fail(0, '').message).toBe('POST /api/x failed: no response');
  });

  test('a plain-text body is the message, cut at 300 characters', () => {
    expect(fail(500, '  Internal hiccup \n').message).toBe('POST /api/x failed: 500: Internal hiccup');
    const long = 'x'.repeat(301);
    expect(fail(500, long).message).toBe(`POST /api/x failed: 500: ${'x'.repeat(300)}…`);
    expect(fail(500, 'y'.repeat(300)).message).toBe(`POST /api/x failed: 500: ${'y'.repeat(300)}`);
  });

  test('OAuth2 error bodies and bare { message } bodies', () => {
    expect(fail(401, JSON.stringify({ error: 'invalid_client', error_description: 'unknown client' })).message).toBe('POST /api/x failed: 401: invalid_client: unknown client');
    expect(fail(401, JSON.stringify({ error: 'invalid_client' })).message).toBe('POST /api/x failed: 401: invalid_client');
    expect(fail(400, JSON.stringify({ message: 'bad page token' })).message).toBe('POST /api/x failed: 400: bad page token');
  });

  test('a gateway that wraps the status in { error } is read the same', () => {
    const err = fail(404, JSON.stringify({ error: { code: 5, message: 'gone', details: [] } }));
    expect(err.grpcCode).toBe('NOT_FOUND');
    expect(err.message).toBe('POST /api/x failed: 404 NOT_FOUND: gone');
  });

  test('malformed details keep the code and the message', () => {
    const err = fail(409, JSON.stringify({ code: 10, message: 'etag mismatch', details: 'not a list' }));
    expect(err.grpcCode).toBe('ABORTED');
    expect(err.message).toBe('POST /api/x failed: 409 ABORTED: etag mismatch');
    expect(err.details).toEqual([]);
  });

  test('violations: field, message or rule id, and the rule id in brackets', () => {
    const err = fail(
      400,
      body(3, 'invalid request', [
        {
          '@type': VIOL,
          violations: [
            { field: 'alert.name', message: 'must not be empty', ruleId: 'string.min_len' },
            { ruleId: 'update.at_least_one' },
            { field: 'alert.kind' },
          ],
        },
        { '@type': BR, fieldViolations: [{ field: 'pageSize', description: 'at most 1000', reason: 'RANGE' }, { description: 'whole request' }] },
      ]),
    ) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.message).toBe(
      'POST /api/x failed: 400 INVALID_ARGUMENT: invalid request; alert.name: must not be empty [string.min_len]; (request): update.at_least_one [update.at_least_one]; alert.kind: invalid; pageSize: at most 1000 [RANGE]; (request): whole request',
    );
    expect(err.ruleIds).toEqual(['string.min_len', 'update.at_least_one', 'RANGE']);
    expect(err.toJSON().violations).toEqual([
      { field: 'alert.name', message: 'must not be empty', ruleId: 'string.min_len' },
      { ruleId: 'update.at_least_one' },
      { field: 'alert.kind' },
      { field: 'pageSize', message: 'at most 1000', ruleId: 'RANGE' },
      { message: 'whole request' },
    ]);
  });

  test('a validation failure without a server message or violations says only what failed', () => {
    expect(fail(400, '').message).toBe('POST /api/x failed: 400');
  });

  test('permission denied names the scope from ErrorInfo metadata, else from the message', () => {
    const withMeta = fail(403, body(7, 'nope', [{ '@type': EI, reason: 'MISSING_SCOPE', metadata: { required_scope: 'SCOPE_ALERTS_EDIT' } }])) as PermissionDeniedError;
    expect(withMeta.missingScope).toBe('SCOPE_ALERTS_EDIT');
    expect(withMeta.message).toBe('POST /api/x failed: 403 PERMISSION_DENIED: nope (the credentials lack SCOPE_ALERTS_EDIT)');
    const fromText = fail(403, body(7, 'token lacks SCOPE_DOMAIN_EDIT here')) as PermissionDeniedError;
    expect(fromText.missingScope).toBe('SCOPE_DOMAIN_EDIT');
    expect(fromText.toJSON().missingScope).toBe('SCOPE_DOMAIN_EDIT');
    const none = fail(403, body(7, 'nope')) as PermissionDeniedError;
    expect(none.missingScope).toBeUndefined();
    expect(none.message).toBe('POST /api/x failed: 403 PERMISSION_DENIED: nope');
    const bare = new PermissionDeniedError({ method: 'get', path: '/p', status: 403, details: [{ '@type': EI, metadata: { scope: 'SCOPE_X_READ' } }] });
    expect(bare.message).toBe('GET /p failed: 403: permission denied (the credentials lack SCOPE_X_READ)');
  });

  test('shape errors list every issue with its path, (root) for none', () => {
    const init = { method: 'get', path: '/api/y', status: 200 };
    const res = new ResponseShapeError(init, [{ path: 'alerts.a1', message: 'expected object' }, { path: '', message: 'not JSON' }]);
    expect(res.message).toBe('GET /api/y failed: 200: unexpected response shape: alerts.a1: expected object; (root): not JSON');
    expect(res.toJSON().issues).toEqual([{ path: 'alerts.a1', message: 'expected object' }, { path: '', message: 'not JSON' }]);
    const req = new RequestShapeError(init, [{ path: '', message: 'required' }]);
    expect(req.message).toBe('GET /api/y not sent: request body is invalid: (root): required');
    expect(req.toJSON().issues).toEqual([{ path: '', message: 'required' }]);
  });

  test('a transport failure says connection failed, with the code when there is one', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
    const e1 = errorFromTransport({ method: 'get', path: '/api/z', sentRequestId: 'r-2' }, refused);
    expect(e1).toBeInstanceOf(UnavailableError);
    expect(e1.message).toBe('GET /api/z failed: no response UNAVAILABLE: connection failed (ECONNREFUSED): connect ECONNREFUSED 127.0.0.1:9 (request id r-2)');
    expect(e1.toJSON().cause).toEqual({ name: 'Error', message: 'connect ECONNREFUSED 127.0.0.1:9', code: 'ECONNREFUSED' });
    const e2 = errorFromTransport({ method: 'get', path: '/api/z' }, 'socket hang up');
    expect(e2.message).toBe('GET /api/z failed: no response UNAVAILABLE: connection failed: socket hang up');
    expect(e2.toJSON().cause).toBe('socket hang up');
  });

  test('gRPC failures say the code, not an HTTP status', () => {
    const e = new ApiError({ method: 'grpc', path: '/platform.X/Y', status: 503, grpcCode: 'UNAVAILABLE', transport: 'grpc', serverMessage: 'down' });
    expect(e.message).toBe('GRPC /platform.X/Y failed: UNAVAILABLE: down');
    expect(e.toJSON().transport).toBe('grpc');
    expect(new ApiError({ method: 'grpc', path: '/p', status: 500, transport: 'grpc' }).message).toBe('GRPC /p failed: UNKNOWN');
    expect(new ApiError({ method: 'get', path: '/p', status: 500 }).toJSON().transport).toBeUndefined();
  });
});

describe('toJSON', () => {
  test('every field, keys sorted, empty ones left out', () => {
    const err = fail(429, body(8, 'slow down'), { headers: { 'retry-after': '2', 'x-request-id': 'srv-9' } });
    const json = err.toJSON();
    expect(json).toEqual({
      name: 'RateLimitedError',
      message: 'POST /api/x failed: 429 RESOURCE_EXHAUSTED: slow down (request id srv-9)',
      method: 'POST',
      path: '/api/x',
      status: 429,
      grpcCode: 'RESOURCE_EXHAUSTED',
      requestId: 'srv-9',
      serverMessage: 'slow down',
      retryable: true,
      retryAfterMs: 2000,
    });
    expect(Object.keys(json)).toEqual([...Object.keys(json)].sort());
  });

  test('details are kept when there are some; quota errors carry their reason', () => {
    const details = [{ '@type': EI, reason: 'QUOTA_EXCEEDED', domain: 'platform' }];
    const json = fail(429, body(8, 'quota', details)).toJSON();
    expect(json.name).toBe('QuotaError');
    expect(json.reason).toBe('QUOTA_EXCEEDED');
    expect(json.retryable).toBe(false);
    expect(json.details).toEqual(details);
  });

  test('unavailable errors carry retryAfterMs; a plain ApiError has no extra fields', () => {
    expect(fail(503, body(14, 'down'), { headers: { 'retry-after': '3' } }).toJSON()).toMatchObject({ name: 'UnavailableError', retryAfterMs: 3000, retryable: true });
    const plain = fail(500, body(13, 'boom')).toJSON();
    expect(Object.keys(plain).sort()).toEqual(['grpcCode', 'message', 'method', 'name', 'path', 'retryable', 'serverMessage', 'status']);
  });
});
