/**
 * Service-level details a user depends on: every write-only credential of an integration config
 * is registered for redaction (and nothing else is), and a transport failure that is already an
 * ApiError passes through unchanged. (Written for the survivors of the mutation run of
 * src/client, issue 12.)
 */
import { SECRET_FIELDS } from '../../schemas/platform/integrations';
import { ApiError, errorFromTransport, redact } from '../../src/client';
import { registerSecretFields } from '../../src/client/derived';

/** What the integrations table's `secrets` makes the derived client do before sending a create or an update. */
const registerIntegrationSecrets = (integration: { config?: unknown }) => registerSecretFields(integration.config, SECRET_FIELDS);

test('registerIntegrationSecrets: secret fields at any depth, not their neighbours', () => {
  registerIntegrationSecrets({
    config: {
      warehouseAccount: {
        user: 'plain-user-name-1',
        password: 'svc-pa55word-1',
        keyPair: { privateKeySecret: 'svc-private-key-1', publicKey: 'public-key-text-1', privateKeyPassphrase: '' },
        databases: ['db-one-name-1'],
      },
    },
  });
  expect(redact('svc-pa55word-1 svc-private-key-1')).toBe('[REDACTED] [REDACTED]');
  expect(redact('plain-user-name-1 public-key-text-1 db-one-name-1')).toBe('plain-user-name-1 public-key-text-1 db-one-name-1');
  registerIntegrationSecrets({});
  registerIntegrationSecrets({ config: { relational: { password: 7 } } });
});

test('errorFromTransport returns an ApiError cause as it is', () => {
  const e = new ApiError({ method: 'GET', path: '/p', status: 503 });
  expect(errorFromTransport({ method: 'GET', path: '/other' }, e)).toBe(e);
});
