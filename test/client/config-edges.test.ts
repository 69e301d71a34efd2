/**
 * The edges of the client configuration: every refusal names its variables and says what to
 * do, values are trimmed, and the gRPC endpoint parser takes exactly the forms it documents.
 * (Written for the survivors of the full mutation run of src/client, issue 12.)
 */
import { ConfigError, isLoopbackHost, parseGrpcEndpoint, resolveConfig, resolveGrpcConfig, resolveProxy } from '../../src/client';

const creds = { DQ_CLIENT_ID: 'id-1', DQ_CLIENT_SECRET: 'config-edges-secret-1' };

/** The ConfigError a call throws (fails the test when it throws nothing or something else). */
function configError(run: () => unknown): ConfigError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(ConfigError);
    return e as ConfigError;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveConfig', () => {
  test('values are trimmed; blank values count as unset', () => {
    expect(resolveConfig({ DQ_CLIENT_ID: '  id-2 ', DQ_CLIENT_SECRET: '\tconfig-edges-secret-2\n', DQ_BASE_URL: ' http://127.0.0.1:9 ' })).toEqual({
      baseUrl: 'http://127.0.0.1:9',
      clientId: 'id-2',
      clientSecret: 'config-edges-secret-2',
    });
    const err = configError(() => resolveConfig({ DQ_CLIENT_ID: '   ', DQ_CLIENT_SECRET: 'config-edges-secret-3' }));
    expect(err.variables).toEqual(['DQ_CLIENT_ID']);
    expect(err.name).toBe('ConfigError');
    expect(err.message).toBe(
      "missing platform credentials: set DQ_CLIENT_ID in the environment (client credentials from the platform's API settings)",
    );
  });

  test('a blank DQ_REGION is the default region; an unknown one names DQ_REGION', () => {
    expect(resolveConfig({ ...creds, DQ_REGION: '  ' }).baseUrl).toBe('https://developer.eu.platform.example');
    const err = configError(() => resolveConfig({ ...creds, DQ_REGION: 'Mars' }));
    expect(err.variables).toEqual(['DQ_REGION']);
    expect(err.message).toBe('unknown DQ_REGION "mars": expected one of eu, us, au (or set DQ_BASE_URL)');
  });

  test('a base URL that is no URL', () => {
    const err = configError(() => resolveConfig({ ...creds, DQ_BASE_URL: 'developer.eu.platform.example' }));
    expect(err.variables).toEqual(['DQ_BASE_URL']);
    expect(err.message).toBe('DQ_BASE_URL is not a valid URL');
  });

  test('a base URL of another scheme', () => {
    const err = configError(() => resolveConfig({ ...creds, DQ_BASE_URL: 'ftp://developer.eu.platform.example' }));
    expect(err.variables).toEqual(['DQ_BASE_URL']);
    expect(err.message).toBe('DQ_BASE_URL must be http(s)');
  });

  test.each([
    ['a user and a password', 'https://u:p@developer.eu.platform.example'],
    ['a user alone', 'https://u@developer.eu.platform.example'],
    ['a password alone', 'https://:p@developer.eu.platform.example'],
  ])('a base URL carrying %s is refused', (_why, url) => {
    const err = configError(() => resolveConfig({ ...creds, DQ_BASE_URL: url }));
    expect(err.variables).toEqual(['DQ_BASE_URL']);
    expect(err.message).toBe('DQ_BASE_URL must not carry credentials');
  });

  test('every trailing slash goes', () => {
    expect(resolveConfig({ ...creds, DQ_BASE_URL: 'http://127.0.0.1:8080//' }).baseUrl).toBe('http://127.0.0.1:8080');
    expect(resolveConfig({ ...creds, DQ_BASE_URL: 'https://api.example/prefix///' }).baseUrl).toBe('https://api.example/prefix');
  });
});

describe('resolveProxy', () => {
  test('an https:// proxy is a proxy', () => {
    expect(resolveProxy({ HTTPS_PROXY: 'https://proxy.example:3129' })).toEqual({ httpProxy: undefined, httpsProxy: 'https://proxy.example:3129', noProxy: undefined });
    expect(resolveProxy({ HTTP_PROXY: 'https://proxy.example:3129' })).toEqual({
      httpProxy: 'https://proxy.example:3129',
      httpsProxy: 'https://proxy.example:3129',
      noProxy: undefined,
    });
  });
  test('the refusal says what a proxy URL looks like', () => {
    const err = configError(() => resolveProxy({ HTTP_PROXY: 'ftp://proxy.example:21' }));
    expect(err.message).toBe('HTTP_PROXY is not an http(s) URL (e.g. http://proxy.example:3128)');
  });
});

describe('resolveGrpcConfig', () => {
  test('a plaintext endpoint to another host names both variables', () => {
    const err = configError(() => resolveGrpcConfig({ DQ_GRPC_ENDPOINT: 'http://grpc.example.com:50051' }));
    expect(err.variables).toEqual(['DQ_GRPC_ENDPOINT', 'DQ_ALLOW_INSECURE']);
    expect(err.message).toContain('DQ_GRPC_ENDPOINT grpc.example.com:50051 is plaintext');
  });

  test.each([['platform'], ['acme.v2'], ['acme.monitors_v1.x'], ['_a.b1.c_2'], ['Acme.Ab']])('package prefix %s is taken', (pkg) => {
    expect(resolveGrpcConfig({ DQ_GRPC_PACKAGE: ` ${pkg} ` })).toEqual({ packagePrefix: pkg });
  });

  test.each([['1acme'], ['acme.'], ['.acme'], ['acme..v2'], ['acme.2v'], ['acme-v2'], ['acme v2']])('package prefix %s is refused', (pkg) => {
    const err = configError(() => resolveGrpcConfig({ DQ_GRPC_PACKAGE: pkg }));
    expect(err.variables).toEqual(['DQ_GRPC_PACKAGE']);
    expect(err.message).toBe(`DQ_GRPC_PACKAGE "${pkg}" is not a protobuf package prefix (dotted identifiers, e.g. "platform")`);
  });

  test('an unknown transport lists the known ones', () => {
    const err = configError(() => resolveGrpcConfig({ DQ_PREVIEW_TRANSPORT: 'Carrier-Pigeon' }));
    expect(err.variables).toEqual(['DQ_PREVIEW_TRANSPORT']);
    expect(err.message).toBe('DQ_PREVIEW_TRANSPORT "carrier-pigeon" is not one of auto, grpc, rest');
  });
});

describe('isLoopbackHost', () => {
  test.each([
    ['127.0.0.1', true],
    ['127.10.200.30', true],
    ['127.255.255.254', true],
    ['LOCALHOST', true],
    ['[::1]', true],
    ['::1', true],
    // not loopback: the system resolver may ask the network's DNS for it (issue 23)
    ['db.localhost', false],
    ['localhost.', false],
    ['x127.0.0.1', false],
    ['127.0.0.1x', false],
    ['127.0.0', false],
    ['128.0.0.1', false],
    ['localhostx', false],
    ['[::2]', false],
  ])('%s -> %p', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('parseGrpcEndpoint', () => {
  test.each([
    ['https:// without a port: 443', 'https://grpc.example', { target: 'grpc.example:443', host: 'grpc.example', port: 443, tls: true }],
    ['http:// without a port: 80', 'http://grpc.example', { target: 'grpc.example:80', host: 'grpc.example', port: 80, tls: false }],
    ['the lowest port', 'grpc.example:1', { target: 'grpc.example:1', port: 1, tls: true }],
    ['the highest port', 'grpc.example:65535', { target: 'grpc.example:65535', port: 65535, tls: true }],
    ['a scheme in upper case', 'HTTP://127.0.0.1:50051', { target: '127.0.0.1:50051', tls: false }],
    ['a trailing slash is no path', 'https://grpc.example:8443/', { target: 'grpc.example:8443', tls: true }],
  ])('%s', (_why, value, expected) => {
    expect(parseGrpcEndpoint(value)).toMatchObject(expected);
  });

  test.each([
    ['port 0', 'grpc.example:0', 'needs a port between 1 and 65535'],
    ['a port past 65535', 'grpc.example:65536', 'is not an endpoint'],
    ['no port at all', 'grpc.example', 'needs a port between 1 and 65535'],
    ['no host', '', 'has no host'],
    ['a user alone', 'u@grpc.example:443', 'must not carry credentials'],
    ['a query', 'https://grpc.example:443?x=1', 'must not have a query'],
    ['a fragment', 'grpc.example:443#f', 'must not have a query'],
    ['a path', 'grpc.example:443/a', 'must not have a path'],
    ['"://" later in a bare endpoint is a path, not a scheme', 'localhost:50051/x://y', 'must not have a path'],
    ['another scheme', 'dns://grpc.example:443', 'has the scheme dns://'],
  ])('refused: %s', (_why, value, why) => {
    const err = configError(() => parseGrpcEndpoint(value));
    expect(err.variables).toEqual(['DQ_GRPC_ENDPOINT']);
    expect(err.message).toBe(`DQ_GRPC_ENDPOINT "${value}" ${why} (expected host:port, https://host:port or http://host:port)`);
  });

  test('credentials in the endpoint are never echoed', () => {
    const err = configError(() => parseGrpcEndpoint('https://user:s3cr3t-pw@grpc.example:443'));
    expect(err.message).toBe('DQ_GRPC_ENDPOINT "https://[REDACTED]@grpc.example:443" must not carry credentials (expected host:port, https://host:port or http://host:port)');
    expect(configError(() => parseGrpcEndpoint('https://u@grpc.example:443')).message).toContain('"https://[REDACTED]@grpc.example:443" must not carry credentials');
  });
});
