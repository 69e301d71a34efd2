/**
 * Client configuration from the environment: `DQ_CLIENT_ID`, `DQ_CLIENT_SECRET`, and
 * `DQ_BASE_URL` or `DQ_REGION` (`eu` default, `us`, `au`). Never from code, never printed.
 */
import { registerSecret } from './redact';

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
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
  /** The environment variables involved. */
  readonly variables: string[];
  constructor(message: string, variables: string[]) {
    super(message);
    this.variables = variables;
  }
}

/**
 * Resolves the client configuration. `overrides` win over the environment (tests, the
 * emulator's embedded mode). `DQ_BASE_URL` wins over `DQ_REGION`.
 *
 * @throws ConfigError naming the missing variables (never their values), or an unknown region.
 */
export function resolveConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<ClientConfig> = {}): ClientConfig {
  const clientId = overrides.clientId ?? nonEmpty(env.DQ_CLIENT_ID);
  const clientSecret = overrides.clientSecret ?? nonEmpty(env.DQ_CLIENT_SECRET);
  const missing: string[] = [];
  if (!clientId) missing.push('DQ_CLIENT_ID');
  if (!clientSecret) missing.push('DQ_CLIENT_SECRET');
  if (clientSecret) registerSecret(clientSecret);
  if (missing.length > 0) {
    throw new ConfigError(
      `missing platform credentials: set ${missing.join(' and ')} in the environment (client credentials from the platform's API settings)`,
      missing,
    );
  }
  let baseUrl = overrides.baseUrl ?? nonEmpty(env.DQ_BASE_URL);
  if (!baseUrl) {
    const region = (nonEmpty(env.DQ_REGION) ?? DEFAULT_REGION).toLowerCase();
    if (!Object.prototype.hasOwnProperty.call(REGION_BASE_URLS, region)) {
      throw new ConfigError(`unknown DQ_REGION "${region}": expected one of ${Object.keys(REGION_BASE_URLS).join(', ')} (or set DQ_BASE_URL)`, ['DQ_REGION']);
    }
    baseUrl = REGION_BASE_URLS[region as Region];
  }
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError(`DQ_BASE_URL is not a valid URL`, ['DQ_BASE_URL']);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError(`DQ_BASE_URL must be http(s)`, ['DQ_BASE_URL']);
  if (url.username || url.password) throw new ConfigError(`DQ_BASE_URL must not carry credentials`, ['DQ_BASE_URL']);
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
