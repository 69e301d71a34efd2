/**
 * ROUTES.md and the operation tables of schemas/platform/ (the rows the derived services and the
 * emulator's routes are made of) say the same thing: for every derived service, each table row
 * has its ROUTES.md row with the same method, path, scopes and retry, and ROUTES.md lists no
 * operation of that service the table lacks; each row's arguments name fields of its request
 * or segments of its path. (test/kinds/descriptor-scopes.test.ts checks each
 * kind's scopes against ROUTES.md, test/client/routes.test.ts what the client sends.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathParams, type Operation } from '../../schemas/platform/operation';
import { objectShape } from '../../schemas/tools/zod-walk';
import { OPERATION_TABLES } from '../../src/client/services/index.generated';

interface Row {
  method: string;
  path: string;
  scopes: string[];
  retry: boolean;
}

/** `service.operation` -> the row of ROUTES.md's route table. */
function routesMd(): Map<string, Row> {
  const lines = readFileSync(join(__dirname, '../../src/client/services/ROUTES.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('| service |'));
  const out = new Map<string, Row>();
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const c = l.split('|').map((x) => x.trim());
    out.set(`${c[1]}.${c[2]}`, { method: c[3], path: c[4], scopes: c[7].split(',').map((s) => s.trim()), retry: !c[8].includes('no') });
  }
  return out;
}

const tables = Object.entries(OPERATION_TABLES) as [string, Record<string, Operation>][];
const md = routesMd();

test('the derived services are the converted kinds at least', () => {
  expect(Object.keys(OPERATION_TABLES)).toEqual(expect.arrayContaining(['savedViews', 'categorisationRules', 'integrations']));
  expect(md.size).toBeGreaterThan(40);
});

describe.each(tables)('%s', (service, table) => {
  test.each(Object.entries(table))('%s: ROUTES.md says what the table says', (op, row) => {
    expect(md.get(`${service}.${op}`)).toEqual({ method: row.method, path: row.path, scopes: [...row.scopes], retry: row.idempotent });
  });

  test.each(Object.entries(table))('%s: each argument names a request field or a path segment (a misspelt one would be dropped by the schema unseen)', (_op, row) => {
    const fields = Object.keys((row.request && objectShape(row.request)) ?? {});
    const named = row.args.map((a) => a.replace(/\?$/, '')).filter((a) => a !== '...' && a !== 'pageSize');
    expect(named.filter((a) => !fields.includes(a) && !pathParams(row.path).includes(a))).toEqual([]);
    if (typeof row.read === 'object' && 'paged' in row.read) expect(fields).toContain('pagination');
  });

  test('ROUTES.md lists no operation the table lacks', () => {
    const listed = [...md.keys()].filter((k) => k.startsWith(`${service}.`)).map((k) => k.slice(service.length + 1));
    expect(listed.sort()).toEqual(Object.keys(table).sort());
  });
});
