/**
 * A service's operations as data (issue 24): one row per operation, with what the platform takes
 * (method, path, request and response schemas, the scopes that may call it, whether a retry is
 * safe) and how dqform calls and reads it. The client derives the service from the table
 * (src/client/derived.ts `serviceOf`, `client.<name>` for `export const <name>Operations =
 * defineOperations(...)`), and the emulator takes each route's method, path, scopes, query and
 * response from the same row (src/emulator/operations.ts `routeOf`): the two cannot drift.
 *
 * A row's `args` are the method's parameters in order, each naming where it goes:
 * - a request field (`'id'`, `'etag'`), or a path segment named in `path` (`{integration_id}`),
 *   which is sent only in the path;
 * - `'...'`: an object whose fields are spread into the request (every request field not
 *   named by another argument, `pagination` aside);
 * - `'pageSize'` (paged reads): the page size, never sent as a field;
 * a trailing `?` makes the parameter optional (`'etag?'`, `'...?'`).
 * GET and DELETE send the fields as query parameters, the other methods as a flat JSON body.
 */
import type { z } from 'zod';
import { objectShape } from '../tools/zod-walk';
import { BATCH_LIMIT, type Scope } from './common';

export type OperationMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** How the answer is read. */
export type OperationRead =
  /** The whole response. */
  | 'whole'
  /** Nothing (`Promise<void>`): deletes answering `{}`. */
  | 'none'
  /** One field of the response (`{ view }` -> the view). */
  | { readonly field: string }
  /** Every page: the list field of each page, following `pageInfo.lastId` (the `pagination` field). */
  | { readonly paged: string }
  /** The first argument's ids in chunks of `limit` (default 200); the map field of each answer, merged. */
  | { readonly batchGet: string; readonly limit?: number };

export interface Operation {
  readonly method: OperationMethod;
  /** Path under the base URL; `{name}` segments are filled from the argument of that name. */
  readonly path: string;
  /** The request's fields (body or query); absent: none (a POST sends `{}`). */
  readonly request?: z.ZodType;
  readonly response: z.ZodType;
  /** Any one of them suffices (wire-facts: scopes are any-of sets). */
  readonly scopes: readonly Scope[];
  /** May the call be repeated safely (retried on 429, 502-504, dropped connections)? */
  readonly idempotent: boolean;
  readonly args: readonly string[];
  readonly read: OperationRead;
  /** Field names whose string values, at any depth of the request, are write-only secrets (registered for redaction before sending). */
  readonly secrets?: readonly string[];
}

/** A service's table: method name -> operation. */
export type Operations = Readonly<Record<string, Operation>>;

/**
 * The table as written, its literal types kept (the client derives its method types from them).
 * Refuses, when the module loads, a row the client would call wrongly without a word: a path
 * segment no argument fills or an optional one fills (`/v1/undefined`), an argument naming
 * neither a request field nor a path segment (the request schema would drop it), a read of a
 * field the response lacks (every call would answer undefined), a batch get of more than its ids,
 * a paged read without a `pagination` request field, a spread without a request schema (sent
 * unchecked), a page size in a read that is not paged (dropped).
 */
export function defineOperations<const T extends Operations>(table: T): T {
  for (const [name, op] of Object.entries(table)) {
    const problem = rowProblem(op);
    if (problem) throw new Error(`operation ${name} (${op.method} ${op.path}): ${problem}`);
  }
  return table;
}

/** What is wrong with a row (see {@link defineOperations}), or undefined. */
function rowProblem(op: Operation): string | undefined {
  const named = op.args.map((a) => a.replace(/\?$/, ''));
  const segments = pathParams(op.path);
  const missing = segments.filter((p) => !named.includes(p));
  if (missing.length > 0) return `no argument fills {${missing.join('}, {')}}`;
  const optional = segments.filter((p) => op.args.includes(`${p}?`));
  if (optional.length > 0) return `the path segment {${optional.join('}, {')}} cannot be an optional argument`;
  const fields = Object.keys((op.request && objectShape(op.request)) ?? {});
  const unknown = named.filter((a) => a !== '...' && a !== 'pageSize' && !fields.includes(a) && !segments.includes(a));
  if (unknown.length > 0) return `the argument ${unknown.join(', ')} names neither a request field nor a path segment`;
  // the spread's fields would be sent unchecked (undeclared keys on the wire), a page size dropped
  if (named.includes('...') && !op.request) return "a '...' argument needs a request schema (its fields would be sent unchecked)";
  if (named.includes('pageSize') && !(typeof op.read === 'object' && 'paged' in op.read)) return 'a pageSize argument is only read by a paged read (here it would be dropped)';
  if (typeof op.read !== 'object') return undefined;
  if ('batchGet' in op.read && op.args.length !== 1) return 'a batch get takes one argument, the ids';
  if ('paged' in op.read && !fields.includes('pagination')) return 'a paged read needs a pagination field in its request';
  const field = 'field' in op.read ? op.read.field : 'paged' in op.read ? op.read.paged : op.read.batchGet;
  if (!(field in (objectShape(op.response) ?? {}))) return `the answer is read from the response's ${field}, which its schema does not have`;
  return undefined;
}

/** The ids per call of a batch get row. */
export function batchLimitOf(read: OperationRead): number {
  return typeof read === 'object' && 'batchGet' in read ? (read.limit ?? BATCH_LIMIT) : BATCH_LIMIT;
}

/** The path's `{name}` segments. */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
}
