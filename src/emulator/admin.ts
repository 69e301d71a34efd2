/**
 * Local admin endpoints under `/__emulator/`: no auth, loopback clients only, never faulted and
 * not counted. See README.md.
 *
 * "Loopback only" does not stop a web page open in the user's browser: the browser sits on
 * loopback too, and a page can send simple requests (a form post, `fetch` with `text/plain`,
 * `navigator.sendBeacon`) to `http://127.0.0.1:<port>/__emulator/reset` and wipe the `--data`
 * file. So an admin request is refused (403) when it carries what such a request carries:
 * - an `Origin` header (browsers send it on every cross-origin request and on every POST);
 * - a body or `content-type` that is not `application/json` (a page can only send JSON after a
 *   CORS preflight, which the emulator never approves).
 * Tools (curl, the tests, `fetch` in Node) send no `Origin`, and either no body or JSON.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultConfig, ResetRequest } from '../../schemas/model/emulator';
import { readBody, sendJson, type EmulatorApp } from './app';
import { invalidArgument, notFound, parseBody, permissionDenied } from './errors';

/** Whether a socket address is loopback. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/**
 * Why a request to an admin endpoint looks like one a web page sent, or undefined (see the
 * module comment). `bodyLength` is the size of the request body.
 */
export function browserRequestProblem(headers: IncomingMessage['headers'], bodyLength: number): string | undefined {
  if (headers.origin !== undefined) return `admin endpoints refuse requests with an Origin header (sent by a web page: ${JSON.stringify(String(headers.origin))})`;
  const type = headers['content-type'];
  const mediaType = typeof type === 'string' ? type.split(';')[0].trim().toLowerCase() : undefined;
  if (type !== undefined && mediaType !== 'application/json') {
    return `admin endpoints accept only content-type application/json, got ${JSON.stringify(String(type))} (what a web page's form or beacon sends)`;
  }
  if (bodyLength > 0 && mediaType !== 'application/json') return 'admin endpoints accept a body only with content-type application/json';
  return undefined;
}

/** Installs the admin endpoints on `app`. */
export function installAdmin(app: EmulatorApp): void {
  app.adminHandler = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/\/+$/, '');
    if (!isLoopback(req.socket.remoteAddress)) throw permissionDenied('admin endpoints are reachable from loopback only');
    const raw = await readBody(req);
    const browser = browserRequestProblem(req.headers, raw.length);
    if (browser) throw permissionDenied(browser);
    let body: unknown;
    if (raw.length && raw.toString('utf8').trim()) {
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch (e) {
        throw invalidArgument(`malformed JSON body: ${(e as Error).message}`);
      }
    }
    const ok = (b: unknown) => sendJson(res, 200, b);
    switch (`${method} ${path}`) {
      case 'GET /__emulator/faults':
        return ok(app.faults.describe());
      case 'POST /__emulator/faults': {
        const cfg = parseBody(FaultConfig, body, 'faults');
        app.faults.set(cfg);
        app.log(`faults set: ${cfg.rules.length} rule(s)`);
        return ok(app.faults.describe());
      }
      case 'DELETE /__emulator/faults':
        app.faults.clear();
        return ok({});
      case 'POST /__emulator/reset': {
        const r = parseBody(ResetRequest, body, 'reset');
        app.reset(r.seed, r.seedSize);
        await app.flush();
        return ok({ seed: app.seed, seedSize: app.seedSize ?? null });
      }
      case 'GET /__emulator/requests':
        return ok(app.requestCounters());
      case 'POST /__emulator/requests/reset':
        app.resetRequestCounters();
        return ok({});
      case 'GET /__emulator/routes':
        return ok({ routes: app.routeList() });
      case 'GET /__emulator/state':
        // the whole state, as the data file holds it (tests compare it before and after an apply)
        return ok(JSON.parse(app.store.serialize({ seed: app.seed, seedSize: app.seedSize })));
      default:
        throw notFound(`no admin endpoint ${method} ${path}`);
    }
  };
}

