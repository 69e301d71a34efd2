/**
 * A tiny programmable platform stand-in for client tests: node:http on 127.0.0.1, port 0.
 * Issues OAuth2 client-credentials tokens, checks bearer tokens on every other route, records
 * every request, and answers with per-route handlers (or drops the connection).
 */
import http from 'node:http';
import { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: URLSearchParams;
  rawUrl: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json: unknown;
}

export interface Reply {
  status?: number;
  headers?: Record<string, string>;
  json?: unknown;
  body?: string;
}

/** `'drop'` destroys the socket without answering. */
export type Handler = (req: Recorded, n: number) => Reply | 'drop' | Promise<Reply | 'drop'>;

export const CLIENT_ID = 'test-client';
export const CLIENT_SECRET = 'S3cr3t-client-secret-value-xyz';

export class TestServer {
  readonly requests: Recorded[] = [];
  readonly tokenRequests: Recorded[] = [];
  readonly issued: string[] = [];
  /** Tokens the server accepts. */
  readonly valid = new Set<string>();
  /** `expires_in` of new tokens. */
  expiresIn = 3600;
  /** Delay before answering a token request (to let concurrent callers pile up). */
  tokenDelayMs = 0;
  /** Handler for the token endpoint, before the default (return undefined to fall through). */
  tokenHook: ((n: number) => Reply | 'drop' | undefined) | undefined;
  /** Distinct sockets seen. */
  sockets = 0;
  /** Most sockets open at once (the pool's bound; a keep-alive socket closed and reopened under load counts once). */
  peakOpenSockets = 0;
  private openSockets = 0;
  /** Most requests in flight at once (API routes). */
  peakInFlight = 0;
  private inFlight = 0;
  private readonly handlers = new Map<string, Handler>();
  private readonly counts = new Map<string, number>();
  private server: http.Server | undefined;
  url = '';

  /** Registers a handler for `METHOD /path` (query string ignored). */
  on(method: string, path: string, handler: Handler): this {
    this.handlers.set(`${method.toUpperCase()} ${path}`, handler);
    return this;
  }

  /** Requests made to `METHOD /path`. */
  calls(method: string, path: string): Recorded[] {
    return this.requests.filter((r) => r.method === method.toUpperCase() && r.path === path);
  }

  async start(): Promise<this> {
    this.server = http.createServer((req, res) => void this.handle(req, res));
    this.server.keepAliveTimeout = 5000;
    this.server.on('connection', (socket) => {
      this.sockets++;
      this.peakOpenSockets = Math.max(this.peakOpenSockets, ++this.openSockets);
      socket.once('close', () => this.openSockets--);
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((r) => this.server!.close(() => r()));
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://x');
    let json: unknown;
    try {
      json = body ? JSON.parse(body) : undefined;
    } catch {
      json = undefined;
    }
    const rec: Recorded = { method: req.method ?? 'GET', path: u.pathname, query: u.searchParams, rawUrl: req.url ?? '', headers: req.headers, body, json };
    const send = (r: Reply | 'drop') => {
      if (r === 'drop') {
        req.socket.destroy();
        return;
      }
      const text = r.body ?? (r.json !== undefined ? JSON.stringify(r.json) : '');
      res.writeHead(r.status ?? 200, { 'content-type': 'application/json', ...(r.headers ?? {}) });
      res.end(text);
    };
    if (rec.path.endsWith('/oauth2/token') && rec.method === 'POST') {
      this.tokenRequests.push(rec);
      const hooked = this.tokenHook?.(this.tokenRequests.length);
      if (hooked) return send(hooked);
      if (this.tokenDelayMs) await new Promise((r) => setTimeout(r, this.tokenDelayMs));
      const form = new URLSearchParams(body);
      if (form.get('grant_type') !== 'client_credentials' || form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET) {
        return send({ status: 401, json: { error: 'invalid_client', error_description: 'bad client credentials' } });
      }
      const token = `tok-${this.issued.length + 1}-eyJhbGciOiJIUzI1NiJ9.payload.signature`;
      this.issued.push(token);
      this.valid.add(token);
      return send({ json: { access_token: token, expires_in: this.expiresIn, token_type: 'Bearer', scope: 'SCOPE_ENTITY_READ' } });
    }
    this.requests.push(rec);
    const auth = req.headers.authorization ?? '';
    const token = auth.startsWith('Bearer ') ? auth.slice(7) : '';
    if (!this.valid.has(token)) {
      return send({ status: 401, json: { code: 16, message: 'token expired or invalid', details: [] } });
    }
    const key = `${rec.method} ${rec.path}`;
    const handler = this.handlers.get(key);
    if (!handler) return send({ status: 404, json: { code: 5, message: `no route ${key}`, details: [] } });
    const n = (this.counts.get(key) ?? 0) + 1;
    this.counts.set(key, n);
    this.inFlight++;
    this.peakInFlight = Math.max(this.peakInFlight, this.inFlight);
    try {
      send(await handler(rec, n));
    } finally {
      this.inFlight--;
    }
  }
}

/** A google.rpc.Status body. */
export function status(code: number, message: string, details: unknown[] = []): { code: number; message: string; details: unknown[] } {
  return { code, message, details };
}
