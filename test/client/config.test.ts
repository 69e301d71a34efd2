import { ConfigError, REGION_BASE_URLS, redact, resolveConfig } from '../../src/client';

describe('resolveConfig', () => {
  const creds = { DQ_CLIENT_ID: 'id-1', DQ_CLIENT_SECRET: 'config-test-secret-1' };
  test.each([
    ['defaults to the eu region', {}, REGION_BASE_URLS.eu],
    ['DQ_REGION selects the region', { DQ_REGION: 'us' }, REGION_BASE_URLS.us],
    ['DQ_REGION is case-insensitive', { DQ_REGION: 'AU' }, REGION_BASE_URLS.au],
    ['DQ_BASE_URL wins over DQ_REGION and loses its trailing slash', { DQ_REGION: 'us', DQ_BASE_URL: 'http://127.0.0.1:8080/' }, 'http://127.0.0.1:8080'],
  ])('%s', (_r, env, baseUrl) => {
    expect(resolveConfig({ ...creds, ...env })).toEqual({ baseUrl, clientId: 'id-1', clientSecret: 'config-test-secret-1' });
  });

  test('missing credentials name the variables', () => {
    expect(() => resolveConfig({})).toThrow(/DQ_CLIENT_ID and DQ_CLIENT_SECRET/);
    const err = (() => {
      try {
        resolveConfig({ DQ_CLIENT_SECRET: 'never-print-this-secret' });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error('expected a ConfigError');
    })();
    expect(err).toBeInstanceOf(ConfigError);
    expect(err.variables).toEqual(['DQ_CLIENT_ID']);
    expect(err.message).not.toContain('never-print-this-secret');
    // the secret is registered for redaction even when resolution fails
    expect(redact('x never-print-this-secret y')).not.toContain('never-print-this-secret');
  });

  test('an unknown region is refused with the valid ones', () => {
    expect(() => resolveConfig({ ...creds, DQ_REGION: 'mars' })).toThrow(/eu, us, au/);
  });

  test('overrides win over the environment', () => {
    expect(resolveConfig(creds, { baseUrl: 'http://localhost:1' }).baseUrl).toBe('http://localhost:1');
  });

  test('a base URL carrying credentials is refused', () => {
    expect(() => resolveConfig({ ...creds, DQ_BASE_URL: 'https://u:p@host' })).toThrow(ConfigError);
  });
});
