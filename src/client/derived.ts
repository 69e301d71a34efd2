/**
 * Client services derived from the platform's operation tables (schemas/platform/operation.ts):
 * `serviceOf(table, http)` has one method per row, typed from the row (its arguments from the
 * request schema, its answer from the response schema and `read`), so a kind whose operations
 * are plain needs no hand-written service. `npm run registries` makes `client.<name>` of every
 * `export const <name>Operations = defineOperations(...)` in schemas/platform/.
 */
import type { z } from 'zod';
import { batchLimitOf, pathParams, type Operation, type Operations } from '../../schemas/platform/operation';
import { toQuery } from '../../schemas/platform/wire';
import { RequestShapeError, zodIssues } from './errors';
import { seg, type DqClient } from './http';
import { registerSecret } from './redact';
import { allPages, batchGetMap } from './services/_base';

type Req<O extends Operation> = O['request'] extends z.ZodType ? z.input<O['request']> : Record<never, never>;
type Res<O extends Operation> = z.output<O['response']>;
type Bare<A> = A extends `${infer N}?` ? N : A;
/** The fields an argument other than the spread names. */
type Named<O extends Operation> = Exclude<Bare<O['args'][number]>, '...' | 'pageSize'>;
/** What a `'...'` argument holds: the request's fields no other argument names, paging aside. */
type Spread<O extends Operation> = Omit<Req<O>, Named<O> | 'pagination'>;
/** The `{name}` segments of a path. */
type PathParams<P> = P extends `${string}{${infer N}}${infer R}` ? N | PathParams<R> : never;
/** A request field's type, a path segment's string; an argument naming neither is `never` (no call compiles). */
type ArgType<O extends Operation, A> = A extends '...' ? Spread<O> : A extends 'pageSize' ? number : A extends keyof Req<O> ? Exclude<Req<O>[A], undefined> : A extends PathParams<O['path']> ? string : never;
type Params<O extends Operation, Args> = Args extends readonly [infer H, ...infer T]
  ? H extends `${infer N}?`
    ? [arg?: ArgType<O, N>, ...Params<O, T>]
    : [arg: ArgType<O, H>, ...Params<O, T>]
  : [];
type Item<A> = A extends readonly (infer T)[] ? T : never;
type Answer<O extends Operation> = O['read'] extends 'whole'
  ? Res<O>
  : O['read'] extends 'none'
    ? void
    : O['read'] extends { field: infer F extends keyof Res<O> }
      ? Res<O>[F]
      : O['read'] extends { paged: infer F extends keyof Res<O> }
        ? Item<Res<O>[F]>[]
        : O['read'] extends { batchGet: infer F extends keyof Res<O> }
          ? Res<O>[F]
          : // a field the response lacks: unknown (never would be accepted as any type)
            unknown;
type Method<O extends Operation> = O['read'] extends { batchGet: string } ? (ids: readonly string[]) => Promise<Answer<O>> : (...args: Params<O, O['args']>) => Promise<Answer<O>>;

/** The service a table describes: one method per row. */
export type DerivedService<T extends Operations> = { readonly [K in keyof T]: Method<T[K]> };

/** Registers every string at a field named in `names`, at any depth of `value`, as a secret (redacted from logs and errors). */
export function registerSecretFields(value: unknown, names: readonly string[]): void {
  if (!value || typeof value !== 'object') return;
  for (const [k, x] of Object.entries(value as Record<string, unknown>)) {
    if (names.includes(k) && typeof x === 'string' && x !== '') registerSecret(x);
    else registerSecretFields(x, names);
  }
}

/** The call's fields from its arguments (a spread merged, `pageSize` apart), and the path with its segments filled. */
function fieldsOf(op: Operation, args: readonly unknown[]): { path: string; fields: Record<string, unknown>; pageSize?: number } {
  let fields: Record<string, unknown> = {};
  let pageSize: number | undefined;
  op.args.forEach((spec, i) => {
    const name = spec.replace(/\?$/, '');
    if (name === '...') fields = { ...fields, ...(args[i] as object | undefined) };
    else if (name === 'pageSize') pageSize = args[i] as number | undefined;
    else fields[name] = args[i];
  });
  // before anything can fail: no error or log line may show a secret
  if (op.secrets) registerSecretFields(fields, op.secrets);
  let path = op.path;
  for (const p of pathParams(op.path)) {
    const v = fields[p];
    // `/v1/undefined` or `/v1/` would address another object or route: refused, nothing sent
    if (typeof v !== 'string' || v === '') throw new RequestShapeError({ method: op.method, path: op.path, status: 0 }, [{ path: p, message: `the path segment {${p}} needs a non-empty string, got ${v === '' ? 'an empty one' : typeof v}` }]);
    path = path.replace(`{${p}}`, seg(v));
    delete fields[p];
  }
  return { path, fields, pageSize };
}

/** One call of `op` with these fields: as the query (GET, DELETE) or the flat body. */
function send(http: DqClient, op: Operation, path: string, fields: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (op.secrets) registerSecretFields(fields, op.secrets);
  const inQuery = op.method === 'GET' || op.method === 'DELETE';
  return http.call({
    method: op.method,
    path,
    ...(inQuery ? { query: op.request ? toQuery(op.request, fields) : undefined } : { body: fields, requestSchema: op.request }),
    responseSchema: op.response,
    idempotent: op.idempotent,
  }) as Promise<Record<string, unknown>>;
}

/** A paged query's filter as its schema reads it; a filter it refuses is a {@link RequestShapeError} (nothing sent). */
function queryFilter(op: Operation, request: z.ZodType, fields: Record<string, unknown>): Record<string, unknown> {
  const parsed = request.safeParse(fields);
  if (!parsed.success) throw new RequestShapeError({ method: op.method, path: op.path, status: 0 }, zodIssues(parsed.error));
  return parsed.data as Record<string, unknown>;
}

/** The method of one row. */
function methodOf(http: DqClient, op: Operation): (...args: unknown[]) => Promise<unknown> {
  const read = op.read;
  if (typeof read === 'object' && 'batchGet' in read) {
    const idsField = op.args[0];
    return (ids) => batchGetMap(ids as readonly string[], async (c) => (await send(http, op, op.path, { [idsField]: c }))[read.batchGet] as Record<string, unknown>, batchLimitOf(read));
  }
  if (typeof read === 'object' && 'paged' in read) {
    return async (...args) => {
      const { path, fields, pageSize } = fieldsOf(op, args);
      // a query's filter is read by the schema once (defaults, enums), as the platform would
      const base = op.request && (op.method === 'GET' || op.method === 'DELETE') ? queryFilter(op, op.request, fields) : fields;
      return allPages(async (pagination) => {
        const r = await send(http, op, path, { ...base, pagination });
        return { items: r[read.paged] as unknown[], pageInfo: r.pageInfo as { lastId?: string } | undefined };
      }, { pageSize });
    };
  }
  return async (...args) => {
    const { path, fields } = fieldsOf(op, args);
    const r = await send(http, op, path, fields);
    return read === 'whole' ? r : read === 'none' ? undefined : r[read.field];
  };
}

/** The service `table` describes, over `http`. */
export function serviceOf<T extends Operations>(table: T, http: DqClient): DerivedService<T> {
  const out: Record<string, unknown> = {};
  for (const [name, op] of Object.entries(table)) out[name] = methodOf(http, op);
  return Object.freeze(out) as DerivedService<T>;
}
