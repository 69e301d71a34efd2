/**
 * ROUTES.md and the operation tables of schemas/platform/ (the rows the derived services and the
 * emulator's routes are made of) say the same thing: for every derived service, each table row
 * has its ROUTES.md row with the same method, path, scopes and retry and the same request
 * fields (which are optional too), and ROUTES.md lists no operation of that service the table
 * lacks. (That each row's arguments name request fields or path segments is refused by
 * defineOperations itself when the table loads. test/kinds/descriptor-scopes.test.ts checks each
 * kind's scopes against ROUTES.md, test/client/routes.test.ts what the client sends.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import type { Operation } from '../../schemas/platform/operation';
import { kindOf, objectShape } from '../../schemas/tools/zod-walk';
import { OPERATION_TABLES } from '../../src/client/services/index.generated';

interface Row {
  method: string;
  path: string;
  scopes: string[];
  retry: boolean;
  /** The request column's fields (`name?` when optional), sorted. */
  request: string[];
}

/** `service.operation` -> the row of ROUTES.md's route table. */
function routesMd(): Map<string, Row> {
  const lines = readFileSync(join(__dirname, '../../src/client/services/ROUTES.md'), 'utf8').split('\n');
  const start = lines.findIndex((l) => l.startsWith('| service |'));
  const out = new Map<string, Row>();
  for (const l of lines.slice(start + 2)) {
    if (!l.startsWith('|')) break;
    const c = l.split('|').map((x) => x.trim());
    out.set(`${c[1]}.${c[2]}`, { method: c[3], path: c[4], scopes: c[7].split(',').map((s) => s.trim()), retry: !c[8].includes('no'), request: requestFields(c[5]) });
  }
  return out;
}

/**
 * The top-level fields of a request column: its first code span (`` `{ id, etag? }` ``,
 * `` `{ ids (1-200, uuid) }` ``, query `` `etag?` ``), nested braces and notes in brackets left
 * out; `name?` when optional.
 */
function requestFields(cell: string): string[] {
  const span = /`([^`]*)`/.exec(cell)?.[1] ?? '';
  const body = span.trim().startsWith('{') ? span.trim().slice(1, span.trim().lastIndexOf('}')) : span;
  const items: string[] = [];
  let depth = 0;
  let item = '';
  for (const ch of body) {
    if ('{(['.includes(ch)) depth++;
    if ('})]'.includes(ch)) depth--;
    if (ch === ',' && depth === 0) {
      items.push(item);
      item = '';
    } else item += ch;
  }
  items.push(item);
  return items
    .map((i) => /^\s*(\w+)(?:\[\])?(\?)?/.exec(i))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => `${m[1]}${m[2] ?? ''}`)
    .sort();
}

/** The row's request fields as ROUTES.md writes them; `pagination`, optional in the schema, is always sent by a paged read (listed without `?`). */
function schemaFields(row: Operation): string[] {
  const shape = (row.request && objectShape(row.request)) ?? {};
  return Object.entries(shape)
    .map(([k, v]) => `${k}${kindOf(v as z.ZodType) === 'optional' && k !== 'pagination' ? '?' : ''}`)
    .sort();
}

const tables = Object.entries(OPERATION_TABLES) as [string, Record<string, Operation>][];
const md = routesMd();

test('the derived services are the converted kinds at least', () => {
  expect(Object.keys(OPERATION_TABLES)).toEqual(expect.arrayContaining(['savedViews', 'categorisationRules', 'integrations']));
  expect(md.size).toBeGreaterThan(40);
});

describe.each(tables)('%s', (service, table) => {
  test.each(Object.entries(table))('%s: ROUTES.md says what the table says', (op, row) => {
    // (the request column: the next test)
    expect(md.get(`${service}.${op}`)).toEqual({ method: row.method, path: row.path, scopes: [...row.scopes], retry: row.idempotent, request: expect.any(Array) });
  });

  test.each(Object.entries(table))("%s: ROUTES.md's request column names the request schema's fields, the optional ones with ?", (op, row) => {
    expect(md.get(`${service}.${op}`)?.request).toEqual(schemaFields(row));
  });

  test('ROUTES.md lists no operation the table lacks', () => {
    const listed = [...md.keys()].filter((k) => k.startsWith(`${service}.`)).map((k) => k.slice(service.length + 1));
    expect(listed.sort()).toEqual(Object.keys(table).sort());
  });
});
