/**
 * OAuth2 client-credentials for the emulator: credentials with scopes and a workspace, the
 * token endpoint (`POST /oauth2/token`, form body), and bearer-token verification.
 *
 * Tokens are unsigned JWT-looking strings (`alg: none`) with a random id; the emulator keeps
 * them in memory (they do not survive a restart: a client gets 401 and asks for a new one).
 * Secrets and tokens are never logged.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { SCOPES } from '../../schemas/platform/common';

/** The caller of a request, derived from its token. */
export interface Principal {
  /** The credential's client id. */
  clientId: string;
  /** The workspace the credential is bound to. */
  workspace: string;
  /** The acting identity, `client:<clientId>`. */
  subject: string;
  /** The token's scopes, sorted. */
  scopes: readonly string[];
  /** Kind of client (`CLIENT_TYPE_API`). */
  clientType: string;
}

/** A registered credential. */
export interface Credential {
  clientId: string;
  clientSecret: string;
  scopes: readonly string[];
  workspace: string;
}

/** Public demo credentials (fine to print). */
export const DEMO_WORKSPACE = 'demo';
export const DEMO_SECRET = 'demo-secret';
export const DEMO_ADMIN = 'demo-admin';
export const DEMO_READER = 'demo-reader';
export const DEMO_GOVERNANCE = 'demo-governance';
/**
 * `demo-reader`: realistic read scopes, per service plus SCOPE_MCP_READ (wire-facts), not every
 * `*_READ`: it can plan and drift every kind dqform manages, and write nothing.
 */
export const READ_SCOPES: readonly string[] = [
  'SCOPE_ALERTS_READ',
  'SCOPE_DOMAIN_READ',
  'SCOPE_DATAPRODUCT_READ',
  'SCOPE_OWNERS_READ',
  'SCOPE_OWNERSHIP_READ',
  'SCOPE_DATACHECKS_SQLTESTS_READ',
  'SCOPE_INTEGRATION_READ',
  'SCOPE_ENTITY_READ',
  'SCOPE_MCP_READ',
];
/**
 * `demo-governance`: per-service scopes WITHOUT SCOPE_MCP_WRITE: edit (and read) domains and
 * owners; read data products and ownerships. It can apply domains and owners and is refused,
 * before any write, for everything else.
 */
export const GOVERNANCE_SCOPES: readonly string[] = [
  'SCOPE_DOMAIN_EDIT',
  'SCOPE_DOMAIN_READ',
  'SCOPE_OWNERS_EDIT',
  'SCOPE_OWNERS_READ',
  'SCOPE_DATAPRODUCT_READ',
  'SCOPE_OWNERSHIP_READ',
];

interface TokenRecord {
  principal: Principal;
  expiresAt: number;
}

/** An OAuth2 error response of the token endpoint. */
export interface TokenEndpointResult {
  status: number;
  body: Record<string, unknown>;
}

/** Credentials and tokens. */
export class AuthService {
  private readonly credentials = new Map<string, Credential>();
  private readonly tokens = new Map<string, TokenRecord>();

  constructor(
    private readonly clock: () => number,
    /** Lifetime of issued tokens. */
    readonly tokenTtlSeconds: number,
  ) {
    this.seedDemoCredentials();
  }

  /** (Re-)adds the three demo credentials. */
  seedDemoCredentials(): void {
    this.addCredential(DEMO_ADMIN, DEMO_SECRET, SCOPES, DEMO_WORKSPACE);
    this.addCredential(DEMO_READER, DEMO_SECRET, READ_SCOPES, DEMO_WORKSPACE);
    this.addCredential(DEMO_GOVERNANCE, DEMO_SECRET, GOVERNANCE_SCOPES, DEMO_WORKSPACE);
  }

  /** Adds or replaces a credential. */
  addCredential(clientId: string, clientSecret: string, scopes: readonly string[], workspace = DEMO_WORKSPACE): void {
    this.credentials.set(clientId, { clientId, clientSecret, scopes: [...new Set(scopes)].sort(), workspace });
  }

  /** Removes a credential and every token issued for it. */
  removeCredential(clientId: string): void {
    this.credentials.delete(clientId);
    for (const [t, r] of this.tokens) if (r.principal.clientId === clientId) this.tokens.delete(t);
  }

  /** Issues a token for valid credentials (undefined otherwise). `scopes` narrows the grant. */
  issue(clientId: string, clientSecret: string, scopes?: readonly string[]): { token: string; principal: Principal; expiresIn: number } | undefined {
    const c = this.credentials.get(clientId);
    if (!c || !safeEqual(c.clientSecret, clientSecret)) return undefined;
    const granted = scopes ? c.scopes.filter((s) => scopes.includes(s)) : c.scopes;
    const principal: Principal = {
      clientId,
      workspace: c.workspace,
      subject: `client:${clientId}`,
      scopes: granted,
      clientType: 'CLIENT_TYPE_API',
    };
    const now = this.clock();
    const expiresAt = now + this.tokenTtlSeconds * 1000;
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const token = [
      b64({ alg: 'none', typ: 'JWT' }),
      b64({ sub: principal.subject, ws: c.workspace, scope: granted.join(' '), iat: Math.floor(now / 1000), exp: Math.floor(expiresAt / 1000) }),
      randomBytes(24).toString('base64url'),
    ].join('.');
    this.tokens.set(token, { principal, expiresAt });
    if (this.tokens.size > 10000) this.sweep();
    return { token, principal, expiresIn: this.tokenTtlSeconds };
  }

  /** The principal of a token, `'expired'`, or undefined when unknown. */
  verify(token: string): Principal | 'expired' | undefined {
    const r = this.tokens.get(token);
    if (!r) return undefined;
    if (this.clock() >= r.expiresAt) return 'expired';
    if (!this.credentials.has(r.principal.clientId)) return undefined;
    return r.principal;
  }

  private sweep(): void {
    const now = this.clock();
    for (const [t, r] of this.tokens) if (now >= r.expiresAt) this.tokens.delete(t);
  }

  /**
   * `POST /oauth2/token`: form fields `grant_type=client_credentials`, `client_id`,
   * `client_secret` (or HTTP Basic credentials), optional `scope` (space-separated). Errors follow
   * RFC 6749 5.2: 400 `invalid_request` / `unsupported_grant_type` / `invalid_scope`, 401
   * `invalid_client`.
   */
  handleTokenRequest(method: string, headers: IncomingHttpHeaders, raw: Buffer): TokenEndpointResult {
    const err = (status: number, error: string, description: string): TokenEndpointResult => ({
      status,
      body: { error, error_description: description },
    });
    if (method !== 'POST') return err(400, 'invalid_request', 'the token endpoint takes POST');
    const ctype = String(headers['content-type'] ?? '');
    let form: URLSearchParams;
    if (ctype.includes('application/json')) {
      try {
        const o = JSON.parse(raw.toString('utf8') || '{}') as Record<string, unknown>;
        form = new URLSearchParams();
        for (const [k, v] of Object.entries(o)) if (typeof v === 'string') form.set(k, v);
      } catch {
        return err(400, 'invalid_request', 'malformed JSON body');
      }
    } else form = new URLSearchParams(raw.toString('utf8'));
    let clientId = form.get('client_id') ?? undefined;
    let clientSecret = form.get('client_secret') ?? undefined;
    const basic = /^Basic\s+(\S+)$/i.exec(String(headers.authorization ?? ''));
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const i = decoded.indexOf(':');
      if (i >= 0) {
        clientId = decodeURIComponent(decoded.slice(0, i));
        clientSecret = decodeURIComponent(decoded.slice(i + 1));
      }
    }
    const grant = form.get('grant_type');
    if (!grant) return err(400, 'invalid_request', 'grant_type is required');
    if (grant !== 'client_credentials') return err(400, 'unsupported_grant_type', 'only grant_type=client_credentials is supported');
    if (!clientId || !clientSecret) return err(400, 'invalid_request', 'client_id and client_secret are required');
    const scopeParam = form.get('scope');
    let scopes: string[] | undefined;
    if (scopeParam && scopeParam.trim()) {
      scopes = scopeParam.trim().split(/\s+/);
      const c = this.credentials.get(clientId);
      const unknown = c ? scopes.filter((s) => !c.scopes.includes(s)) : [];
      if (c && safeEqual(c.clientSecret, clientSecret) && unknown.length)
        return err(400, 'invalid_scope', `the credential is not granted: ${unknown.join(' ')}`);
    }
    const issued = this.issue(clientId, clientSecret, scopes);
    if (!issued) return err(401, 'invalid_client', 'client authentication failed (unknown client or wrong secret)');
    return {
      status: 200,
      body: {
        access_token: issued.token,
        expires_in: issued.expiresIn,
        token_type: 'Bearer',
        scope: issued.principal.scopes.join(' '),
      },
    };
  }
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
