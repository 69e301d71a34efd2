/**
 * Client configuration from the environment: `DQ_CLIENT_ID`, `DQ_CLIENT_SECRET`, and
 * `DQ_BASE_URL` or `DQ_REGION` (`eu` default, `us`, `au`). Never from code, never printed.
 * The gRPC previews: `DQ_GRPC_ENDPOINT`, `DQ_GRPC_PACKAGE`, `DQ_PREVIEW_TRANSPORT`
 * ({@link resolveGrpcConfig}).
 */
import { registerSecret } from './redact';
import { DqformError } from '../../schemas/tools/errors';

/** Base URL of each region. The one table of regional addresses. */
export const REGION_BASE_URLS = {
  eu: 'https://developer.eu.platform.example',
  us: 'https://developer.us.platform.example',
  au: 'https://developer.au.platform.example',
} as const;
export type Region = keyof typeof REGION_BASE_URLS;
export const DEFAULT_REGION: Region = 'eu';

/** What a client needs to talk to the platform. */
export interface ClientConfig {
  /** Base URL without a trailing slash, e.g. `https://developer.eu.platform.example`. */
  baseUrl: string;
  clientId: string;
  /** Registered with the redaction module as soon as it is resolved. */
  clientSecret: string;
}

/** A configuration problem a user fixes by setting environment variables. */
export class ConfigError extends DqformError {
  static override readonly code: string = 'config';
  override readonly name = 'ConfigError';
  /** The environment variables involved. */
  readonly variables: string[];
  constructor(message: string, variables: string[]) {
    super(message, { hint: /the stack's /.test(message) ? "Fix the stack's baseUrl/region/grpcEndpoint in the code." : 'Set the variables in the environment (never in code).' });
    this.variables = variables;
  }
}

/**
 * Where one stack's platform and credentials come from (its manifest's `baseUrl`, `region` and
 * `credentialsFrom`): what it sets wins over `DQ_BASE_URL`/`DQ_REGION`, and its credentials are
 * read from the variables it names (default `DQ_CLIENT_ID`, `DQ_CLIENT_SECRET`).
 */
export interface StackPlatform {
  baseUrl?: string;
  region?: string;
  /** The gRPC endpoint of the stack's previews (see {@link resolveStackGrpcConfig}). */
  grpcEndpoint?: string;
  credentialsFrom?: { clientId?: string; clientSecret?: string };
}

/**
 * Resolves the client configuration. `overrides` win over the environment (tests, the
 * emulator's embedded mode). `DQ_BASE_URL` wins over `DQ_REGION`; a `stack`'s own baseUrl or
 * region wins over both.
 *
 * @throws ConfigError naming the missing variables (never their values), or an unknown region.
 */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ClientConfig> = {}, stack: StackPlatform = {}): ClientConfig {
  const idVar = stack.credentialsFrom?.clientId ?? 'DQ_CLIENT_ID';
  const secretVar = stack.credentialsFrom?.clientSecret ?? 'DQ_CLIENT_SECRET';
  const clientId = overrides.clientId ?? nonEmpty(env[idVar]);
  const clientSecret = overrides.clientSecret ?? nonEmpty(env[secretVar]);
  const missing: string[] = [];
  if (!clientId) missing.push(idVar);
  if (!clientSecret) missing.push(secretVar);
  if (clientSecret) registerSecret(clientSecret);
  if (missing.length > 0) {
    throw new ConfigError(
      `missing platform credentials: set ${missing.join(' and ')} in the environment (client credentials from the platform's API settings)`,
      missing,
    );
  }
  const own = nonEmpty(stack.baseUrl) !== undefined || nonEmpty(stack.region) !== undefined;
  // what the messages call the base URL: the variable, or the stack's own setting
  const urlName = nonEmpty(stack.baseUrl) ? "the stack's baseUrl" : 'DQ_BASE_URL';
  let baseUrl = overrides.baseUrl ?? nonEmpty(stack.baseUrl) ?? (own ? undefined : nonEmpty(env.DQ_BASE_URL));
  if (!baseUrl) {
    const region = (nonEmpty(stack.region) ?? nonEmpty(env.DQ_REGION) ?? DEFAULT_REGION).toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(REGION_BASE_URLS, region)) {
      throw new ConfigError(`unknown ${stack.region ? "region of the stack" : 'DQ_REGION'} "${region}": expected one of ${Object.keys(REGION_BASE_URLS).join(', ')} (or set ${stack.region ? 'baseUrl' : 'DQ_BASE_URL'})`, ['DQ_REGION']);
    }
    baseUrl = REGION_BASE_URLS[region as Region];
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`${urlName} is not a valid URL`, ['DQ_BASE_URL']);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`${urlName} must be http(s)`, ['DQ_BASE_URL']);
  if (url.username || url.password) throw new ConfigError(`${urlName} must not carry credentials`, ['DQ_BASE_URL']);
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname) && env.DQ_ALLOW_INSECURE !== '1') {
    throw new ConfigError(
      `${urlName} ${url.origin} is plain http to a host that is not this machine: the client secret and every token would cross the network unencrypted. Use https://, or set DQ_ALLOW_INSECURE=1 if this network is trusted (plain http to localhost / 127.0.0.1 / [::1] is always allowed)`,
      ['DQ_BASE_URL', 'DQ_ALLOW_INSECURE'],
    );
  }
  return { baseUrl: url.toString().replace(/\/+$/, ''), clientId: clientId!, clientSecret: clientSecret! };
}

/** Proxies for the client (undici's EnvHttpProxyAgent). Unset fields: no proxy for that scheme. */
export interface ProxyConfig {
  /** Proxy for http:// base URLs. */
  httpProxy?: string;
  /** Proxy for https:// base URLs (falls back to httpProxy, as curl and undici do). */
  httpsProxy?: string;
  /** Hosts reached directly: comma- or space-separated, `host`, `host:port`, `.suffix`, or `*`. */
  noProxy?: string;
}

/**
 * The proxy settings of an environment: `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` (lower-case
 * spellings win, as in curl). Undefined when neither proxy variable is set.
 *
 * @throws ConfigError when a proxy variable is not an http(s) URL (naming the variable, never its value).
 */
export function resolveProxy(env: NodeJS.ProcessEnv = process.env): ProxyConfig | undefined {
  const pick = (name: string) => nonEmpty(env[name.toLowerCase()]) ?? nonEmpty(env[name]);
  const httpProxy = pick('HTTP_PROXY');
  const httpsProxy = pick('HTTPS_PROXY');
  if (!httpProxy && !httpsProxy) return undefined;
  for (const [name, v] of [['HTTP_PROXY', httpProxy], ['HTTPS_PROXY', httpsProxy]] as const) {
    if (!v) continue;
    let ok = false;
    try {
      ok = ['http:', 'https:'].includes(new URL(v).protocol);
    } catch {
      ok = false;
    }
    if (!ok) throw new ConfigError(`${name} is not an http(s) URL (e.g. http://proxy.example:3128)`, [name]);
  }
  return { httpProxy, httpsProxy: httpsProxy ?? httpProxy, noProxy: pick('NO_PROXY') };
}

function nonEmpty(v: string | undefined): string | undefined {
  return v !== undefined && v.trim() !== '' ? v.trim() : undefined;
}

/** Which transport asks the platform for rule previews. */
export type PreviewTransport = 'auto' | 'grpc' | 'rest';
export const PREVIEW_TRANSPORTS: readonly PreviewTransport[] = ['auto', 'grpc', 'rest'];

/**
 * The gRPC preview settings (all optional; see {@link resolveGrpcConfig}).
 * - `endpoint`: `host:port` (TLS, or plaintext when the host is loopback), `https://host:port`
 *   (TLS) or `http://host:port` (plaintext). Default: the base URL's host on port 443.
 * - `packagePrefix`: the first word of the package names (`platform` in the spec; the real
 *   service uses its brand word).
 * - `previewTransport`: `auto` (REST when the rule fits a GET query string, gRPC when it does
 *   not), `grpc` (always gRPC) or `rest` (never gRPC: such rules' effects are unknown).
 * - `deadlineMs`: deadline of one gRPC attempt (default 30 s; retries get a fresh one).
 * - `unavailable`: why gRPC previews are not tried at all (a stack on this machine with no
 *   gRPC endpoint); a preview that needs gRPC is then "effects unknown" with this reason.
 */
export interface GrpcConfig {
  endpoint?: string;
  packagePrefix?: string;
  previewTransport?: PreviewTransport;
  deadlineMs?: number;
  unavailable?: string;
}

/** Where and how to open the gRPC channel. */
export interface GrpcTarget {
  /** `host:port` as grpc-js takes it (IPv6 hosts in brackets). */
  target: string;
  host: string;
  port: number;
  tls: boolean;
}

/**
 * The gRPC settings from `DQ_GRPC_ENDPOINT`, `DQ_GRPC_PACKAGE` and `DQ_PREVIEW_TRANSPORT`.
 * @throws ConfigError naming the variable when a value is unusable.
 */
export function resolveGrpcConfig(env: NodeJS.ProcessEnv = process.env): GrpcConfig {
  const out: GrpcConfig = {};
  const endpoint = nonEmpty(env.DQ_GRPC_ENDPOINT);
  if (endpoint) {
    const t = parseGrpcEndpoint(endpoint); // validate now, with the variable's name
    if (!t.tls && !isLoopbackHost(t.host) && env.DQ_ALLOW_INSECURE !== '1') {
      throw new ConfigError(
        `DQ_GRPC_ENDPOINT ${t.target} is plaintext to a host that is not this machine: the access token would cross the network unencrypted. Use https://host:port (or host:port, TLS by default), or set DQ_ALLOW_INSECURE=1 if this network is trusted`,
        ['DQ_GRPC_ENDPOINT', 'DQ_ALLOW_INSECURE'],
      );
    }
    out.endpoint = endpoint;
  }
  const pkg = nonEmpty(env.DQ_GRPC_PACKAGE);
  if (pkg) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*$/.test(pkg)) {
      throw new ConfigError(`DQ_GRPC_PACKAGE "${pkg}" is not a protobuf package prefix (dotted identifiers, e.g. "platform")`, ['DQ_GRPC_PACKAGE']);
    }
    out.packagePrefix = pkg;
  }
  const transport = nonEmpty(env.DQ_PREVIEW_TRANSPORT)?.toLowerCase();
  if (transport) {
    if (!(PREVIEW_TRANSPORTS as readonly string[]).includes(transport)) {
      throw new ConfigError(`DQ_PREVIEW_TRANSPORT "${transport}" is not one of ${PREVIEW_TRANSPORTS.join(', ')}`, ['DQ_PREVIEW_TRANSPORT']);
    }
    out.previewTransport = transport as PreviewTransport;
  }
  return out;
}

/**
 * The gRPC settings of one stack's client. A stack that sets no platform of its own follows the
 * environment ({@link resolveGrpcConfig}). One with its own baseUrl or region never takes
 * `DQ_GRPC_ENDPOINT` (it belongs with `DQ_BASE_URL`): its `grpcEndpoint` if it sets one, else its
 * base URL's host on port 443; except that a base URL on this machine (an emulator, a tunnel)
 * with no grpcEndpoint tries no gRPC at all, and says so ({@link GrpcConfig.unavailable}).
 * @throws ConfigError naming the stack's grpcEndpoint (or the variable) when a value is unusable.
 */
export function resolveStackGrpcConfig(env: NodeJS.ProcessEnv, stack: StackPlatform = {}): GrpcConfig {
  const own = nonEmpty(stack.baseUrl) !== undefined || nonEmpty(stack.region) !== undefined;
  const endpoint = nonEmpty(stack.grpcEndpoint);
  if (!own && endpoint === undefined) return resolveGrpcConfig(env);
  let out: GrpcConfig;
  try {
    out = resolveGrpcConfig({ ...env, DQ_GRPC_ENDPOINT: endpoint });
  } catch (e) {
    if (e instanceof ConfigError && endpoint !== undefined && e.variables.includes('DQ_GRPC_ENDPOINT')) {
      throw new ConfigError(e.message.replace(/DQ_GRPC_ENDPOINT/g, "the stack's grpcEndpoint"), e.variables);
    }
    throw e;
  }
  if (endpoint === undefined && nonEmpty(stack.baseUrl)) {
    let url: URL | undefined;
    try {
      url = new URL(stack.baseUrl!.trim());
    } catch {
      // an unusable base URL: resolveConfig says so
    }
    if (url && isLoopbackHost(url.hostname)) {
      out.unavailable = `the stack's baseUrl is on this machine (${url.host}) and the stack sets no grpcEndpoint, so gRPC previews are not tried (not on ${url.hostname}:443, and DQ_GRPC_ENDPOINT belongs to DQ_BASE_URL): set the stack's grpcEndpoint (the emulator prints it as DQ_GRPC_ENDPOINT=...)`;
    }
  }
  return out;
}

/**
 * Loopback hosts get plaintext by default (the emulator), are never proxied; everything else
 * TLS. `localhost`, `127.x.x.x` and `::1` only: a `*.localhost` name is NOT loopback here, since
 * the system resolver may send it to the network's DNS, which can answer any address (RFC 6761
 * asks resolvers to answer loopback, not all do).
 */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h === '::1' || /^127\.\d+\.\d+\.\d+$/.test(h);
}

/**
 * Parses an endpoint: `host:port`, `[v6]:port`, `https://host[:port]` (TLS; port 443 by default)
 * or `http://host:port` (plaintext). A bare `host:port` is TLS unless the host is loopback.
 * @throws ConfigError naming DQ_GRPC_ENDPOINT.
 */
export function parseGrpcEndpoint(value: string): GrpcTarget {
  // never echo credentials someone put in the URL
  const shown = value.replace(/\/\/[^/@]*@/, '//[REDACTED]@');
  const bad = (why: string) => new ConfigError(`DQ_GRPC_ENDPOINT "${shown}" ${why} (expected host:port, https://host:port or http://host:port)`, ['DQ_GRPC_ENDPOINT']);
  let url: URL;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(value)?.[1]?.toLowerCase();
  if (scheme && scheme !== 'http' && scheme !== 'https') throw bad(`has the scheme ${scheme}://`);
  try {
    url = new URL(scheme ? value : `grpc://${value}`);
  } catch {
    throw bad('is not an endpoint');
  }
  if (url.username || url.password) throw bad('must not carry credentials');
  if (url.pathname !== '' && url.pathname !== '/') throw bad('must not have a path');
  if (url.search || url.hash) throw bad('must not have a query');
  const host = url.hostname;
  if (!host) throw bad('has no host');
  const port = url.port ? Number(url.port) : scheme === 'https' ? 443 : scheme === 'http' ? 80 : NaN;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw bad('needs a port between 1 and 65535');
  const tls = scheme === 'https' ? true : scheme === 'http' ? false : !isLoopbackHost(host);
  return { target: `${host}:${port}`, host, port, tls };
}

/** The gRPC target for a base URL: its host on port 443, TLS unless the host is loopback. */
export function defaultGrpcTarget(baseUrl: string): GrpcTarget {
  const host = new URL(baseUrl).hostname;
  return { target: `${host}:443`, host, port: 443, tls: !isLoopbackHost(host) };
}

/** Network limits of every request ({@link resolveLimits}). */
export interface NetLimits {
  /** The deadline of one request attempt, connect, headers and the whole body (`DQ_TIMEOUT`, seconds; default 15 s). */
  timeoutMs: number;
  /** The largest response body read (`DQ_MAX_RESPONSE_MB`, MiB; default 64 MiB). */
  maxResponseBytes: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_MAX_RESPONSE_BYTES = 64 * 1024 * 1024;
/** The largest `DQ_MAX_RESPONSE_MB`: V8's largest string is about 512 MiB; a body past it crashes the process. */
export const MAX_RESPONSE_MB_CAP = 512;

/**
 * `DQ_TIMEOUT` (seconds, > 0, at most 3600; default 15) and `DQ_MAX_RESPONSE_MB` (whole MiB,
 * 1 to {@link MAX_RESPONSE_MB_CAP}; default 64). @throws ConfigError naming the variable when a value is unusable.
 */
export function resolveLimits(env: NodeJS.ProcessEnv = process.env): NetLimits {
  const out: NetLimits = { timeoutMs: DEFAULT_TIMEOUT_MS, maxResponseBytes: DEFAULT_MAX_RESPONSE_BYTES };
  const t = nonEmpty(env.DQ_TIMEOUT);
  if (t !== undefined) {
    const n = /^\d+(\.\d+)?$/.test(t) ? Number(t) : NaN;
    if (!(n > 0 && n <= 3600)) throw new ConfigError(`DQ_TIMEOUT "${t}" is not a number of seconds between 0 and 3600 (e.g. 15 or 2.5): it is the deadline of one request, body included`, ['DQ_TIMEOUT']);
    out.timeoutMs = Math.round(n * 1000);
  }
  const m = nonEmpty(env.DQ_MAX_RESPONSE_MB);
  if (m !== undefined) {
    const n = /^\d+$/.test(m) ? Number(m) : NaN;
    if (!(n >= 1 && n <= MAX_RESPONSE_MB_CAP)) throw new ConfigError(`DQ_MAX_RESPONSE_MB "${m}" is not a whole number of MiB between 1 and ${MAX_RESPONSE_MB_CAP} (default 64): the largest response body dqform reads (V8's largest string is about 512 MiB, past it the process would crash)`, ['DQ_MAX_RESPONSE_MB']);
    out.maxResponseBytes = n * 1024 * 1024;
  }
  return out;
}
