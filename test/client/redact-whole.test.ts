/**
 * Redaction by the exact secret value (issue 26): a registered secret is masked where its whole
 * value occurs, never as part of a longer word, so a secret that is a common word does not
 * mangle the words that contain it; escaped and URL-encoded occurrences are still masked.
 */
import { REDACTED, redact, registerSecret, unregisterSecret } from '../../src/client/redact';

describe('a secret that is a common word', () => {
  beforeAll(() => registerSecret('pass'));
  afterAll(() => unregisterSecret('pass'));

  it('is masked as a whole word', () => {
    expect(redact('the secret is pass')).toBe(`the secret is ${REDACTED}`);
    expect(redact('client_id=x&other=pass&y=1')).toBe(`client_id=x&other=${REDACTED}&y=1`);
    expect(redact('"pass"')).toBe(`"${REDACTED}"`);
    expect(redact('pass')).toBe(REDACTED);
  });

  it('is not masked inside a longer word', () => {
    expect(redact('the password check failed; compass; passes; bypass')).toBe('the password check failed; compass; passes; bypass');
  });

  it('is masked in escaped JSON and URL-encoded text', () => {
    expect(redact('{"message":"line\\npass"}')).toBe(`{"message":"line\\n${REDACTED}"}`);
    expect(redact('%22pass%22')).toBe(`%22${REDACTED}%22`);
    expect(redact('\\u0022pass')).toBe(`\\u0022${REDACTED}`);
  });
});

describe('a secret equal to a common word is still masked where it stands alone', () => {
  beforeAll(() => registerSecret('password'));
  afterAll(() => unregisterSecret('password'));
  it('whole occurrences only', () => {
    expect(redact('user typed password; passwords are long')).toBe(`user typed ${REDACTED}; passwords are long`);
  });
});

describe('a secret with symbols at its edges', () => {
  beforeAll(() => registerSecret('-s3cr3t!'));
  afterAll(() => unregisterSecret('-s3cr3t!'));
  it('its non-word edges need no boundary', () => {
    expect(redact('abc-s3cr3t!def')).toBe(`abc${REDACTED}def`);
  });
});

it('a secret shorter than four characters is not registered (documented: masking it would garble output)', () => {
  registerSecret('abc');
  expect(redact('abc')).toBe('abc');
  unregisterSecret('abc');
});
