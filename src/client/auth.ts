/**
 * OAuth2 client credentials (spec part 5): `POST {base}/oauth2/token` with the form fields
 * `client_id`, `client_secret`, `grant_type=client_credentials`.
 *
 * {@link TokenProvider} caches the token, refreshes it a safety margin before `expires_in`
 * runs out, shares one in-flight request between concurrent callers, and drops a token the
 * API answered 401 to (the client then refetches once and repeats the call).
 */
import { TokenResponse } from '../../schemas/platform/common';
import { registerSecret } from './redact';

/** Token endpoint path, relative to the base URL. */
export const TOKEN_PATH = '/oauth2/token';

/** Builds the token request's form body. */
export function tokenRequestBody(clientId: string, clientSecret: string): string {
  return new URLSearchParams({ client_id: clientId, client_secret: clientSecret, grant_type: 'client_credentials' }).toString();
}

export interface TokenProviderOptions {
  /** Refresh this long before expiry (default 60 s; never more than half the token's lifetime). */
  marginMs?: number;
  /** Clock in ms (injectable for tests). */
  now?: () => number;
}

interface Cached {
  token: string;
  refreshAt: number;
  scope: string | undefined;
}

/** Caches and refreshes the access token. */
export class TokenProvider {
  private cached: Cached | undefined;
  private inflight: Promise<Cached> | undefined;
  private readonly marginMs: number;
  private readonly now: () => number;
  /** Number of token requests made (diagnostics). */
  fetches = 0;

  /** `fetchToken` performs the HTTP exchange and returns the parsed response. */
  constructor(
    private readonly fetchToken: () => Promise<TokenResponse>,
    opts: TokenProviderOptions = {},
  ) {
    this.marginMs = opts.marginMs ?? 60_000;
    this.now = opts.now ?? Date.now;
  }

  /** A valid access token: the cached one, or a fresh one (shared by concurrent callers). */
  async getToken(): Promise<string> {
    return this.current() ?? (await this.refresh()).token;
  }

  /** The cached token while it is valid (what {@link getToken} answers without waiting), else undefined. */
  current(): string | undefined {
    const c = this.cached;
    return c && this.now() < c.refreshAt ? c.token : undefined;
  }

  /** The scopes of the current token, when the token endpoint named them. */
  get scope(): string | undefined {
    return this.cached?.scope;
  }

  /**
   * Drops `token` if it is still the cached one (a 401 answered it). A token already
   * replaced by a concurrent refresh is left alone, so a burst of 401s causes one refetch.
   */
  invalidate(token: string): void {
    if (this.cached?.token === token) this.cached = undefined;
  }

  private refresh(): Promise<Cached> {
    if (!this.inflight) {
      this.fetches++;
      const p = this.fetchToken().then((r) => {
        registerSecret(r.access_token);
        const lifetime = r.expires_in * 1000;
        const margin = Math.min(this.marginMs, lifetime / 2);
        const cached: Cached = { token: r.access_token, refreshAt: this.now() + lifetime - margin, scope: r.scope };
        this.cached = cached;
        return cached;
      });
      this.inflight = p;
      const clear = () => {
        if (this.inflight === p) this.inflight = undefined;
      };
      p.then(clear, clear);
    }
    return this.inflight;
  }
}
