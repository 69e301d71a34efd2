/**
 * The emulator's routes are registered explicitly (issue 24): every route module exports a table
 * (`routes: RouteTable`), the app registers exactly the union of the tables the generated registry
 * lists, no method and path appears twice, and every operation of the hand-written wire table
 * (test/contract/wire-table.ts, from wire-facts.md) is a row of some table.
 */
import { EmulatorApp, type RouteSpec } from '../../src/emulator';
import { ROUTE_MODULES } from '../../src/emulator/routes/index.generated';
import { WIRE } from '../contract/wire-table';
import type { Operation } from '../../schemas/platform/operation';
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

  test('a table with a method + path twice is refused at registration', () => {
    const app = new EmulatorApp({ seed: 'empty' });
    const row: RouteSpec = { method: 'GET', path: '/x/v1/:id', scope: null, handle: () => ({}) };
    expect(() => app.register({ routes: [row, { ...row }] })).toThrow('emulator route GET /x/v1/:id is registered twice');
  });
});
