/**
 * The emulator's routes are registered explicitly (issue 24): every route module exports a table
 * (`routes: RouteTable`), the app registers exactly the union of the tables the generated registry
 * lists, no method and path appears twice, and every operation of the hand-written wire table
 * (test/contract/wire-table.ts, from wire-facts.md) is a row of some table.
 */
import { EmulatorApp, type RouteContext, type RouteSpec } from '../../src/emulator';
import * as emulatorErrors from '../../src/emulator/errors';
import { objectShape } from '../../schemas/tools/zod-walk';
import { ROUTE_MODULES } from '../../src/emulator/routes/index.generated';
import { WIRE } from '../contract/wire-table';
import { pathParams, type Operation } from '../../schemas/platform/operation';
import { OPERATION_TABLES } from '../../src/client/services/index.generated';

const key = (r: { method: string; path: string }) => `${r.method} ${r.path}`;
/** A path's shape: parameter names do not tell two routes apart. */
const shape = (r: { method: string; path: string }) => `${r.method} ${r.path.replace(/:\w+/g, ':')}`;

function rows(): RouteSpec[] {
  return ROUTE_MODULES.flatMap((m) => {
    if (!('routes' in m)) throw new Error('a route module under src/emulator/routes registers itself instead of exporting a table');
    return [...m.routes];
  });
}

function registered(): EmulatorApp {
  const app = new EmulatorApp({ seed: 'empty' });
  for (const m of ROUTE_MODULES) app.register(m);
  return app;
}

describe('emulator route tables', () => {
  test('every route module exports a table (and no register function)', () => {
    expect(ROUTE_MODULES.length).toBeGreaterThan(10);
    for (const m of ROUTE_MODULES) {
      expect('routes' in m && Array.isArray(m.routes) && m.routes.length > 0).toBe(true);
      expect('register' in m).toBe(false);
    }
  });

  test('the registered method + path set is the union of the tables, with each row its options', () => {
    const all = rows();
    expect(registered().routeList()).toEqual(all.map(key).sort());
    const info = new Map(registered().routeInfo().map((r) => [`${r.method} ${r.pattern}`, r.options]));
    for (const { method, path, handle: _h, ...options } of all) expect(info.get(key({ method, path }))).toEqual(options);
  });

  test('no method + path (nor path shape) is in the tables twice', () => {
    const seen = new Map<string, number>();
    for (const r of rows()) seen.set(shape(r), (seen.get(shape(r)) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([k]) => k)).toEqual([]);
  });

  test('every operation of the wire table (wire-facts.md) is a row of a table', () => {
    const tabled = new Set(rows().map(key));
    expect(WIRE.length).toBeGreaterThan(40);
    expect(WIRE.filter((w) => !tabled.has(key(w))).map((w) => `${w.op}: ${key(w)}`)).toEqual([]);
  });

  test('every row of the operation tables the client is derived from is served with its scopes, query and response', () => {
    const served = new Map(rows().map((r) => [key(r), r]));
    const ops = Object.values(OPERATION_TABLES).flatMap((t) => Object.values(t as Record<string, Operation>));
    expect(ops.length).toBeGreaterThan(15);
    for (const op of ops) {
      const k = `${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`;
      const r = served.get(k);
      const query = op.method === 'GET' || op.method === 'DELETE' ? op.request : undefined;
      // the very schemas and scope set of the row (routeOf), not copies that could drift
      expect([k, r !== undefined, r?.scope === op.scopes, r?.response === op.response, r?.query === query]).toEqual([k, true, true, true, true]);
    }
  });

  test("every body row of the operation tables is read by its route with the row's own request schema (none: an object of no fields)", async () => {
    const served = new Map(rows().map((r) => [key(r), r]));
    const stop = new Error('stop: the body schema is recorded');
    const seen: unknown[] = [];
    const spy = jest.spyOn(emulatorErrors, 'parseBody').mockImplementation((schema) => {
      seen.push(schema);
      throw stop;
    });
    const wrong: string[] = [];
    let checked = 0;
    try {
      for (const [service, table] of Object.entries(OPERATION_TABLES) as [string, Record<string, Operation>][]) {
        for (const [name, op] of Object.entries(table)) {
          if (op.method === 'GET' || op.method === 'DELETE') continue;
          const r = served.get(`${op.method} ${op.path.replace(/\{(\w+)\}/g, ':$1')}`)!;
          seen.length = 0;
          const params = Object.fromEntries(pathParams(op.path).map((p) => [p, 'x']));
          const ctx = { method: op.method, path: op.path, params, query: new URLSearchParams(), q: {}, body: {}, requestId: 'r', now: () => new Date(0) } as unknown as RouteContext;
          try {
            await r.handle(ctx);
          } catch (e) {
            if (e !== stop) throw e;
          }
          checked++;
          const read = seen[0] as Parameters<typeof objectShape>[0] | undefined;
          const ok = op.request ? read === op.request : read !== undefined && Object.keys(objectShape(read) ?? { x: 1 }).length === 0;
          if (!ok) wrong.push(`${service}.${name}`);
        }
      }
    } finally {
      spy.mockRestore();
    }
    expect(checked).toBeGreaterThan(10);
    expect(wrong).toEqual([]);
  });

  test('a table with a method + path twice is refused at registration', () => {
    const app = new EmulatorApp({ seed: 'empty' });
    const row: RouteSpec = { method: 'GET', path: '/x/v1/:id', scope: null, handle: () => ({}) };
    expect(() => app.register({ routes: [row, { ...row }] })).toThrow('emulator route GET /x/v1/:id is registered twice');
  });
});
