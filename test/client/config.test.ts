import { ConfigError, REGION_BASE_URLS, redact, resolveConfig, resolveGrpcConfig } from '../../src/client';
import { resolveStackGrpcConfig } from '../../src/client/config';

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

describe('plain http is refused unless it stays on this machine (issue 12)', () => {
  const creds = { DQ_CLIENT_ID: 'id-1', DQ_CLIENT_SECRET: 'config-test-secret-2' };
  test.each([
    ['http://127.0.0.1:8787', true, 'loopback IPv4 (the emulator)'],
    ['http://127.9.8.7', true, 'all of 127.0.0.0/8 is loopback'],
    ['http://localhost:1', true, 'localhost'],
    ['http://api.localhost:1', false, '*.localhost may be resolved by the network\'s DNS (issue 23): not loopback'],
    ['http://[::1]:8787', true, 'loopback IPv6'],
    ['https://developer.eu.platform.example', true, 'https anywhere'],
    ['http://developer.eu.platform.example', false, 'a real host over plain http'],
    ['http://10.0.0.5:8787', false, 'a private address is still the network'],
    ['http://0.0.0.0:8787', false, '0.0.0.0 is not loopback'],
    ['http://127.0.0.1.evil.example', false, 'a name that starts like loopback'],
    ['http://localhost.evil.example', false, 'a name that starts with localhost'],
  ])('%s allowed=%p (%s)', (url, allowed) => {
    const run = () => resolveConfig({ ...creds, DQ_BASE_URL: url });
    if (allowed) expect(run().baseUrl).toBe(url.replace(/\/+$/, ''));
    else {
      expect(run).toThrow(ConfigError);
      expect(run).toThrow(/plain http .*DQ_ALLOW_INSECURE=1/);
    }
  });

  test('DQ_ALLOW_INSECURE=1 allows it (and only the value 1)', () => {
    expect(resolveConfig({ ...creds, DQ_BASE_URL: 'http://10.0.0.5:8787', DQ_ALLOW_INSECURE: '1' }).baseUrl).toBe('http://10.0.0.5:8787');
    expect(() => resolveConfig({ ...creds, DQ_BASE_URL: 'http://10.0.0.5:8787', DQ_ALLOW_INSECURE: 'true' })).toThrow(/DQ_ALLOW_INSECURE=1/);
  });

  test('the refusal never names the secret', () => {
    try {
      resolveConfig({ ...creds, DQ_BASE_URL: 'http://example.org' });
    } catch (e) {
      expect((e as Error).message).not.toContain('config-test-secret-2');
      expect((e as ConfigError).variables).toEqual(['DQ_BASE_URL', 'DQ_ALLOW_INSECURE']);
      return;
    }
    throw new Error('expected a ConfigError');
  });
});

describe('a plaintext gRPC endpoint is refused unless it stays on this machine (issue 12)', () => {
  test.each([
    ['127.0.0.1:50051', true, 'loopback: plaintext by default'],
    ['http://localhost:50051', true, 'explicit plaintext to localhost'],
    ['grpc.example.com:443', true, 'a bare host:port is TLS'],
    ['https://grpc.example.com:8443', true, 'explicit TLS'],
    ['http://grpc.example.com:50051', false, 'explicit plaintext to a real host'],
    ['http://10.1.2.3:50051', false, 'plaintext to a private address'],
  ])('DQ_GRPC_ENDPOINT=%s allowed=%p (%s)', (endpoint, allowed) => {
    const run = () => resolveGrpcConfig({ DQ_GRPC_ENDPOINT: endpoint });
    if (allowed) expect(run().endpoint).toBe(endpoint);
    else expect(run).toThrow(/plaintext to a host that is not this machine.*DQ_ALLOW_INSECURE=1/);
  });
  test('DQ_ALLOW_INSECURE=1 allows it', () => {
    expect(resolveGrpcConfig({ DQ_GRPC_ENDPOINT: 'http://grpc.example.com:50051', DQ_ALLOW_INSECURE: '1' }).endpoint).toBe('http://grpc.example.com:50051');
  });
});

describe("resolveStackGrpcConfig: a stack's own gRPC endpoint", () => {
  const env = { DQ_GRPC_ENDPOINT: '127.0.0.1:9' };
  test('a stack that sets no platform follows DQ_GRPC_ENDPOINT', () => {
    expect(resolveStackGrpcConfig(env, {})).toEqual({ endpoint: '127.0.0.1:9' });
  });
  test('a stack with its own baseUrl takes its grpcEndpoint, never DQ_GRPC_ENDPOINT', () => {
    expect(resolveStackGrpcConfig(env, { baseUrl: 'http://127.0.0.1:8787', grpcEndpoint: '127.0.0.1:8788' })).toEqual({ endpoint: '127.0.0.1:8788' });
    expect(resolveStackGrpcConfig(env, { baseUrl: 'https://staging.platform.example' })).toEqual({});
  });
  test('a loopback baseUrl with no grpcEndpoint: gRPC unavailable, saying why', () => {
    expect(resolveStackGrpcConfig(env, { baseUrl: 'http://127.0.0.1:8787' }).unavailable).toMatch(/^the stack's baseUrl is on this machine \(127\.0\.0\.1:8787\) and the stack sets no grpcEndpoint/);
  });
  test("an unusable grpcEndpoint is a ConfigError naming the stack's grpcEndpoint", () => {
    expect(() => resolveStackGrpcConfig({}, { baseUrl: 'https://x.example', grpcEndpoint: 'ftp://x:1' })).toThrow(/the stack's grpcEndpoint "ftp:\/\/x:1" has the scheme ftp:\/\//);
    expect(() => resolveStackGrpcConfig({}, { baseUrl: 'https://x.example', grpcEndpoint: 'http://grpc.example:80' })).toThrow(ConfigError);
  });
});
