/**
 * collectViolations through errorFromResponse: a QuotaFailure detail next to a Violations detail
 * in one INVALID_ARGUMENT is skipped even when its entries look like field violations; an
 * empty body yields the bare-status error. (Mutants of src/client/errors.ts, issue 23.)
 */
import { errorFromResponse, ValidationError } from '../../src/client';

const VIOL = 'type.googleapis.com/buf.validate.Violations';
const QF = 'type.googleapis.com/google.rpc.QuotaFailure';
const body = (code: number, message: string, details: unknown[] = []) => JSON.stringify({ code, message, details });

describe('validation violations next to other details', () => {
  test('QuotaFailure entries never become field violations, even when field-shaped', () => {
    const err = errorFromResponse({
      method: 'POST',
      path: '/x',
      status: 400,
      headers: {},
      body: body(3, 'invalid', [
        { '@type': QF, violations: [{ field: 'quota.field', message: 'from quota' }] },
        { '@type': VIOL, violations: [{ field: 'name', message: 'required' }] },
      ]),
    }) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.violations).toEqual([{ field: 'name', message: 'required' }]);
  });

  test('a detail of an unnamed type that carries violations is read', () => {
    const err = errorFromResponse({
      method: 'POST',
      path: '/x',
      status: 400,
      headers: {},
      body: body(3, 'invalid', [{ '@type': 'type.googleapis.com/x.Other', violations: [{ field: 'a', message: 'm' }] }]),
    }) as ValidationError;
    expect(err.violations).toEqual([{ field: 'a', message: 'm' }]);
  });

  test('an empty 400 body is a validation error without violations', () => {
    const err = errorFromResponse({ method: 'POST', path: '/x', status: 400, headers: {}, body: '' }) as ValidationError;
    expect(err).toBeInstanceOf(ValidationError);
    expect(err.violations).toEqual([]);
    expect(err.status).toBe(400);
  });
});
