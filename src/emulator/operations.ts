/**
 * An emulator route from a row of the platform's operation tables (schemas/platform/operation.ts):
 * its method, path (`{name}` -> `:name`), scopes, query schema (GET and DELETE) and response
 * schema are the row's, the ones the client sends by (src/client/derived.ts), so the client and
 * the emulator cannot drift on them; the behaviour (`handle`) stays in the route module.
 */
import type { Operation } from '../../schemas/platform/operation';
import type { RouteHandler, RouteOptions, RouteSpec } from './app';

/** The route serving `op`, handled by `handle`; `options` adds what the table does not say (the rule ids' `operation` name). */
export function routeOf(op: Operation, handle: RouteHandler, options: Omit<RouteOptions, 'scope' | 'query' | 'response'> = {}): RouteSpec {
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  return {
    method: op.method,
    path: op.path.replace(/\{(\w+)\}/g, ':$1'),
    scope: op.scopes,
    ...options,
    ...(inQuery && op.request ? { query: op.request } : {}),
    response: op.response,
    handle,
  };
}
