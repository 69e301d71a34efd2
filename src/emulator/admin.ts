/**
 * Local admin endpoints under `/__emulator/`: no auth, loopback clients only, never faulted and
 * not counted. See README.md.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FaultConfig, ResetRequest } from '../../schemas/emulator';
import { readBody, sendJson, type EmulatorApp } from './app';
import { invalidArgument, notFound, parseBody, permissionDenied } from './errors';

/** Whether a socket address is loopback. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.');
}

/** Installs the admin endpoints on `app`. */
export function installAdmin(app: EmulatorApp): void {
  app.adminHandler = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = url.pathname.replace(/\/+$/, '');
    if (!isLoopback(req.socket.remoteAddress)) throw permissionDenied('admin endpoints are reachable from loopback only');
    const raw = await readBody(req);
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
      default:
        throw notFound(`no admin endpoint ${method} ${path}`);
    }
  };
}

