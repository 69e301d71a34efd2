/** resolveConfig with a stack's own platform and credential variables (issue 21: one platform per stack). */
import { ConfigError, REGION_BASE_URLS, redact, resolveConfig } from '../../src/client';

const ENV = {
  DQ_CLIENT_ID: 'default-id',
  DQ_CLIENT_SECRET: 'default-secret-value',
  DQ_BASE_URL: 'http://127.0.0.1:1111',
  DQ_REGION: 'us',
  DQ_PROD_CLIENT_ID: 'prod-id',
  DQ_PROD_CLIENT_SECRET: 'prod-secret-value-77',
};

describe('resolveConfig for a stack', () => {
  test("a stack's baseUrl wins over DQ_BASE_URL and DQ_REGION", () => {
    expect(resolveConfig(ENV, {}, { baseUrl: 'http://127.0.0.1:2222/' }).baseUrl).toBe('http://127.0.0.1:2222');
  });

  test("a stack's region wins over DQ_BASE_URL and DQ_REGION; its baseUrl over its region", () => {
    expect(resolveConfig(ENV, {}, { region: 'au' }).baseUrl).toBe(REGION_BASE_URLS.au);
    expect(resolveConfig(ENV, {}, { region: 'au', baseUrl: 'http://127.0.0.1:3333' }).baseUrl).toBe('http://127.0.0.1:3333');
  });

  test('a stack that sets neither takes DQ_BASE_URL, then DQ_REGION', () => {
    expect(resolveConfig(ENV, {}, {}).baseUrl).toBe('http://127.0.0.1:1111');
    expect(resolveConfig({ ...ENV, DQ_BASE_URL: undefined }, {}, {}).baseUrl).toBe(REGION_BASE_URLS.us);
  });

  test('credentials come from the variables the stack names, else DQ_CLIENT_ID and DQ_CLIENT_SECRET', () => {
    const named = resolveConfig(ENV, {}, { credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_PROD_CLIENT_SECRET' } });
    expect([named.clientId, named.clientSecret]).toEqual(['prod-id', 'prod-secret-value-77']);
    expect(redact('x prod-secret-value-77 y')).not.toContain('prod-secret-value-77');
    const half = resolveConfig(ENV, {}, { credentialsFrom: { clientSecret: 'DQ_PROD_CLIENT_SECRET' } });
    expect([half.clientId, half.clientSecret]).toEqual(['default-id', 'prod-secret-value-77']);
  });

  test('a missing named variable is named (never DQ_CLIENT_SECRET, never a value)', () => {
    let err: ConfigError | undefined;
    try {
      resolveConfig(ENV, {}, { credentialsFrom: { clientId: 'DQ_PROD_CLIENT_ID', clientSecret: 'DQ_STAGING_CLIENT_SECRET' } });
    } catch (e) {
      err = e as ConfigError;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect(err!.variables).toEqual(['DQ_STAGING_CLIENT_SECRET']);
    expect(err!.message).toContain('set DQ_STAGING_CLIENT_SECRET in the environment');
    expect(err!.message).not.toMatch(/prod-secret-value-77|default-secret-value/);
  });

  test("plain http to another host in a stack's baseUrl is refused, naming the stack's baseUrl", () => {
    expect(() => resolveConfig(ENV, {}, { baseUrl: 'http://platform.example.com' })).toThrow(/the stack's baseUrl http:\/\/platform\.example\.com is plain http/);
  });
});
