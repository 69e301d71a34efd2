/**
 * The error factories' remaining branches: gRPC statuses with and without a readable trailer,
 * bodies that are JSON but not a status, RetryInfo delays, violations from every detail kind.
 * (Written for the survivors of the mutation run of src/client, issue 12.)
 */
import { errorFromGrpcStatus, errorFromResponse, NotFoundError, retryInfoDelay, UnavailableError, ValidationError } from '../../src/client';
import { encodeStatus } from '../../schemas/platform/grpc';

const VIOL = 'type.googleapis.com/buf.validate.Violations';
const QF = 'type.googleapis.com/google.rpc.QuotaFailure';
const RI = 'type.googleapis.com/google.rpc.RetryInfo';
const fail = (status: number, body: string) => errorFromResponse({ method: 'get', path: '/p', status, headers: {}, body });

describe('errorFromGrpcStatus', () => {
  test('the trailer gives the message and the details when its code matches', () => {
    const trailer = encodeStatus({ code: 3, message: 'rich message', details: [{ '@type': VIOL, violations: [{ field: 'rule.name', ruleId: 'string.min_len', message: 'too short' }] }] });
    const e = errorFromGrpcStatus({ path: '/platform.X/Y', code: 3, message: 'plain', statusDetails: trailer, requestId: 'srv-1', sentRequestId: 'sent-1' }) as ValidationError;
    expect(e).toBeInstanceOf(ValidationError);
    expect(e.transport).toBe('grpc');
    expect(e.status).toBe(400);
    expect(e.requestId).toBe('srv-1');
    expect(e.message).toBe('GRPC /platform.X/Y failed: INVALID_ARGUMENT: rich message; rule.name: too short [string.min_len] (request id srv-1)');
  });

  test('an empty trailer message falls back to the status message', () => {
    const trailer = encodeStatus({ code: 5, message: '', details: [] });
    const e = errorFromGrpcStatus({ path: '/p', code: 5, message: 'no such rule', statusDetails: trailer, sentRequestId: 'sent-2' });
    expect(e).toBeInstanceOf(NotFoundError);
    expect(e.serverMessage).toBe('no such rule');
    expect(e.requestId).toBe('sent-2');
  });

  test('a trailer of another code, or one that does not decode, is ignored: code and message hold', () => {
    const other = encodeStatus({ code: 9, message: 'from another status', details: [] });
    const a = errorFromGrpcStatus({ path: '/p', code: 14, message: 'down', statusDetails: other });
    expect(a).toBeInstanceOf(UnavailableError);
    expect(a.serverMessage).toBe('down');
    const b = errorFromGrpcStatus({ path: '/p', code: 14, message: 'down', statusDetails: new Uint8Array([0xff, 0xff, 0xff]) });
    expect(b).toBeInstanceOf(UnavailableError);
    expect(b.serverMessage).toBe('down');
    const c = errorFromGrpcStatus({ path: '/p', code: 99, message: 'odd' });
    expect(c.status).toBe(500); // an unknown code takes UNKNOWN's gateway status
    expect(c.grpcCode).toBeUndefined();
  });
});

describe('errorFromResponse', () => {
  test('a bare 404 is NotFound, a bare 412 a conflict, a bare 422 a validation failure', () => {
    expect(fail(404, '')).toBeInstanceOf(NotFoundError);
    expect(fail(412, '').name).toBe('ConflictError');
    expect(fail(422, '')).toBeInstanceOf(ValidationError);
  });

  test('JSON that is no status: null, a number, an { error } that is a string', () => {
    expect(fail(500, 'null').message).toBe('GET /p failed: 500: null');
    expect(fail(500, '42').message).toBe('GET /p failed: 500: 42');
    const e = fail(500, JSON.stringify({ error: 'boom' }));
    expect(e.grpcCode).toBeUndefined();
    expect(e.serverMessage).toBe('boom');
  });

  test('violations: QuotaFailure violations are not field violations; a detail of another type with violations is', () => {
    const body = JSON.stringify({
      code: 3,
      message: 'm',
      details: [
        { '@type': QF, violations: [{ subject: 's', description: 'quota' }] },
        { '@type': 'type.googleapis.com/vendor.Violations', violations: [{ field: 'a', message: 'bad a' }] },
        { '@type': 'type.googleapis.com/google.rpc.BadRequest', fieldViolations: [{ field: 7, description: 8, reason: 9 }] },
      ],
    });
    const e = fail(400, body) as ValidationError;
    expect(e.violations).toEqual([{ field: 'a', message: 'bad a' }, {}]);
  });
});

describe('retryInfoDelay', () => {
  test.each([
    ['1.5s', 1500],
    [' 2s ', 2000],
    ['0.25s', 250],
    ['1.5sX', undefined],
    ['1.5', undefined],
    ['x1s', undefined],
  ])('%j -> %p', (delay, ms) => {
    expect(retryInfoDelay([{ '@type': RI, retryDelay: delay }])).toBe(ms);
  });
  test('no RetryInfo, no delay', () => {
    expect(retryInfoDelay([{ '@type': QF }])).toBeUndefined();
  });
});
