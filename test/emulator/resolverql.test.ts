import { ManifestError } from '../../src/engine/manifest';
import { manifestFromYaml } from '../../src/engine/yaml';
import { Query as QuerySchema, type EntityType, type Query } from '../../schemas/platform/entities';
import {
  canonicalResolverQl,
  canonicalResolverQlLenient,
  carriedResolverQl,
  checkResolverQlText,
  EVERYTHING_PART,
  parseResolverQl,
  RESOLVERQL_MAX_DEPTH,
  queryToResolverQl,
  renderResolverQl,
  resolverQlToQuery,
  resolveTypeName,
  ResolverQlError,
  ResolverQlUnsupportedQueryError,
  unsupportedPart,
} from '../../schemas/tools/resolverql';

const TABLE_TYPES = [
  'ENTITY_TYPE_WAREHOUSE_PROJECT_TABLE',
  'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE',
  'ENTITY_TYPE_WAREHOUSE_CLUSTER_TABLE',
  'ENTITY_TYPE_COLUMN_STORE_TABLE',
  'ENTITY_TYPE_RELATIONAL_TABLE',
  'ENTITY_TYPE_MYSQL_LIKE_TABLE',
  'ENTITY_TYPE_LAKEHOUSE_TABLE',
  'ENTITY_TYPE_QUERY_ENGINE_TABLE',
].map((d) => ({ default: d }) as EntityType);

describe('canonical form', () => {
  const cases: { reason: string; input: string; canonical: string }[] = [
    { reason: 'already canonical stays as is', input: 'with_type("table")', canonical: 'with_type("table")' },
    { reason: 'whitespace everywhere is dropped', input: '  with_type ( "table" , filter = with_name ( "rev" ) )\n', canonical: 'with_type("table",filter=with_name("rev"))' },
    { reason: 'single quotes become double quotes', input: "with_name('orders')", canonical: 'with_name("orders")' },
    { reason: 'escapes are decoded and re-encoded as JSON', input: "with_name('it\\'s \"x\" \\\\ \\u0041')", canonical: 'with_name("it\'s \\"x\\" \\\\ A")' },
    { reason: 'nested and is flattened', input: 'and(with_name("a"),and(with_name("b"),and(with_name("c"))))', canonical: 'and(with_name("a"),with_name("b"),with_name("c"))' },
    { reason: 'nested or is flattened', input: 'or(or(with_name("a"),with_name("b")),with_name("c"))', canonical: 'or(with_name("a"),with_name("b"),with_name("c"))' },
    { reason: 'or inside and is kept (different operator)', input: 'and(with_type("table"), or(with_name("sales"), with_name("order")))', canonical: 'and(with_type("table"),or(with_name("sales"),with_name("order")))' },
    { reason: 'and nested in a filter of a flattened and is flattened too', input: 'or(with_type("model", filter=and(with_name("a"), and(with_tag("b")))))', canonical: 'or(with_type("model",filter=and(with_name("a"),with_tag("b"))))' },
    { reason: 'keyword args go after positional ones, sorted by name', input: 'in_folder(types=["table"], filter=with_name("x"), "folder-wh-prod::mart")', canonical: 'in_folder("folder-wh-prod::mart",filter=with_name("x"),types=["table"])' },
    { reason: 'upstream static_paths form is kept', input: 'in_folder(static_paths("folder-prod::issues"), types=["table"])', canonical: 'in_folder(static_paths("folder-prod::issues"),types=["table"])' },
    { reason: 'lists lose their spaces', input: 'with_annotation("tier", [ "1" , \'2\' ])', canonical: 'with_annotation("tier",["1","2"])' },
    { reason: 'not keeps its operand', input: 'not( with_tag("dev") )', canonical: 'not(with_tag("dev"))' },
  ];
  it.each(cases)('$reason', ({ input, canonical }) => {
    expect(canonicalResolverQl(input)).toBe(canonical);
    // Canonicalisation is idempotent and render(parse(canonical)) is a fixed point.
    expect(canonicalResolverQl(canonical)).toBe(canonical);
    expect(renderResolverQl(parseResolverQl(canonical))).toBe(canonical);
  });
});

describe('errors name the offset, line, column and what was expected', () => {
  const cases: { reason: string; input: string; offset: number; expected: RegExp; message?: string }[] = [
    { reason: 'empty input', input: '', offset: 0, expected: /a function call/, message: 'ResolverQL: at offset 0 (line 1, column 1): expected a function call such as with_type("table") but found end of input' },
    { reason: 'blank input', input: '   ', offset: 3, expected: /a function call/ },
    { reason: 'unclosed parenthesis', input: 'with_type("table"', offset: 17, expected: /^'\)' or ','$/ },
    { reason: 'garbage between arguments', input: 'with_name("ab" x)', offset: 15, expected: /^'\)' or ','$/, message: "ResolverQL: at offset 15 (line 1, column 16): expected ')' or ',' but found 'x'" },
    { reason: 'unknown function', input: 'with_colour("red")', offset: 0, expected: /a function name \(and, in_folder/ },
    { reason: 'unknown function is reported before its bad arguments', input: 'and(foo(1))', offset: 4, expected: /a function name \(and, in_folder/, message: "ResolverQL: at offset 4 (line 1, column 5): expected a function name (and, in_folder, not, or, with_annotation, with_columns, with_name, with_platform, with_tag, with_type) but found 'foo'" },
    { reason: 'unterminated string', input: 'with_name("abc', offset: 14, expected: /closing '"' for the string opened at offset 10/ },
    { reason: 'bad escape in a string', input: 'with_name("a\\qb")', offset: 13, expected: /an escape/ },
    { reason: 'short unicode escape', input: 'with_name("\\u12")', offset: 13, expected: /four hex digits/ },
    { reason: 'trailing garbage', input: 'with_name("a") x', offset: 15, expected: /^end of input$/ },
    { reason: 'trailing second expression', input: 'with_name("a"),with_name("b")', offset: 14, expected: /^end of input$/ },
    { reason: 'missing open parenthesis', input: 'with_name "a"', offset: 10, expected: /'\(' after 'with_name'/ },
    { reason: 'a bare number is not an argument', input: 'with_name(1)', offset: 10, expected: /a function call, a string or a list/ },
    { reason: 'identifier without ( or =', input: 'and(with_name("a"), foo)', offset: 23, expected: /'\(' or '=' after 'foo'/ },
    { reason: 'unclosed list', input: 'with_annotation("tier", ["1"', offset: 28, expected: /^'\]' or ','$/ },
    { reason: 'non-string list item', input: 'with_annotation("tier", [with_name("x")])', offset: 25, expected: /a string or '\]'/ },
    { reason: 'the top level must be a call, not a string', input: '"table"', offset: 0, expected: /a function call/ },
    { reason: 'multi-line input reports line and column', input: 'and(\n  with_name("a"),\n  bogus("b"))', offset: 25, expected: /a function name/, message: undefined },
    { reason: 'unknown type name', input: 'with_type("tablez")', offset: 10, expected: /a type name \(table, view/ },
    { reason: 'with_columns needs a column name', input: 'with_columns()', offset: 0, expected: /with_columns\(name, \.\.\.\) with at least one column name/ },
    { reason: 'with_columns takes strings, not expressions', input: 'with_columns("a", with_name("b"))', offset: 18, expected: /a string as a column name/ },
    { reason: 'with_columns refuses an empty column name', input: 'with_columns([""])', offset: 14, expected: /a non-empty column name/ },
    { reason: 'static_paths outside in_folder', input: 'static_paths("a::b")', offset: 0, expected: /only as the path of in_folder/ },
    { reason: 'with_name takes one argument', input: 'with_name("a", "b")', offset: 15, expected: /with_name\(string\)/ },
    { reason: 'with_name takes a string, not an expression', input: 'with_name(with_tag("a"))', offset: 10, expected: /a string as the argument of with_name/ },
    { reason: 'not takes one expression', input: 'not()', offset: 0, expected: /not\(expr\)/ },
    { reason: 'and needs at least one expression', input: 'and()', offset: 0, expected: /at least one expression/ },
    { reason: 'and takes expressions, not strings', input: 'and("a")', offset: 4, expected: /an expression \(function call\)/ },
    { reason: 'unknown keyword argument', input: 'with_type("table", colour="red")', offset: 19, expected: /a keyword argument of with_type \(filter\)/ },
    { reason: 'duplicate keyword argument', input: 'with_type("table", filter=with_name("a"), filter=with_name("b"))', offset: 42, expected: /keyword argument 'filter' only once/ },
    { reason: 'filter must be an expression', input: 'with_type("table", filter="x")', offset: 26, expected: /an expression \(function call\) as with_type's filter/ },
    { reason: 'empty folder id', input: 'in_folder("")', offset: 10, expected: /a non-empty folder id/ },
    { reason: 'blank folder id in static_paths', input: 'in_folder(static_paths("f-a"," "))', offset: 29, expected: /a non-empty folder id/ },
    { reason: 'empty annotation name', input: 'with_annotation("")', offset: 16, expected: /a non-empty annotation name/ },
  ];
  it.each(cases)('$reason', ({ input, offset, expected, message }) => {
    let err: unknown;
    try {
      parseResolverQl(input);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ResolverQlError);
    const e = err as ResolverQlError;
    expect(e.offset).toBe(offset);
    expect(e.expected).toMatch(expected);
    const before = input.slice(0, offset).split('\n');
    expect(e.line).toBe(before.length);
    expect(e.column).toBe(before[before.length - 1].length + 1);
    expect(e.message).toContain(`ResolverQL: at offset ${offset} (line ${e.line}, column ${e.column}): expected `);
    if (message) expect(e.message).toBe(message);
  });

  it('reports line 3 for an error on the third line', () => {
    expect(() => parseResolverQl('and(\n  with_name("a"),\n  bogus("b"))')).toThrow(/line 3, column 3/);
  });
});

describe('nesting depth limit (RESOLVERQL_MAX_DEPTH)', () => {
  const nested = (n: number) => `${'not('.repeat(n - 1)}with_type("table")${')'.repeat(n - 1)}`;

  it('is 64, and calls nested exactly that deep parse, render and translate', () => {
    expect(RESOLVERQL_MAX_DEPTH).toBe(64);
    const text = nested(RESOLVERQL_MAX_DEPTH);
    expect(canonicalResolverQl(text)).toBe(text);
    expect(resolverQlToQuery(parseResolverQl(text)).operand).toBe('QUERY_OPERAND_EXCEPT');
  });

  it('one level deeper is a ResolverQL error at the call past the limit', () => {
    const text = nested(RESOLVERQL_MAX_DEPTH + 1);
    const e = (() => {
      try {
        parseResolverQl(text);
      } catch (err) {
        return err;
      }
      throw new Error('no error');
    })();
    expect(e).toBeInstanceOf(ResolverQlError);
    expect((e as ResolverQlError).offset).toBe(4 * RESOLVERQL_MAX_DEPTH);
    expect((e as ResolverQlError).message).toBe(
      `ResolverQL: at offset 256 (line 1, column 257): expected function calls nested at most 64 deep (flatten nested and/or, or split the selection) but found 'with_type' at depth 65`,
    );
  });

  it.each([
    { how: 'not', text: nested(3000) },
    { how: 'and/or and filter=', text: `${'and(or(with_type("table",filter='.repeat(200)}with_tag("x")${')))'.repeat(200)}` },
  ])('3,000 levels ($how) under the length limit are a ResolverQL error, not a stack overflow', ({ text }) => {
    expect(text.length).toBeLessThan(20000);
    expect(() => parseResolverQl(text)).toThrow(ResolverQlError);
    expect(() => canonicalResolverQl(text)).toThrow(/nested at most 64 deep/);
  });

  it('in a workspace, 3,000 levels are a diagnostic at the field (validate, plan), not an internal error', () => {
    const trigger = nested(3000);
    let diags: { summary: string; source?: string; address?: string }[] = [];
    try {
      manifestFromYaml(`namespace: shop\nalerts:\n  a:\n    name: A\n    issueLifecycle:\n      trigger: '${trigger}'\n      targets: [{ slack: { channel: '#dq' } }]\n      settings: { severities: [SEVERITY_ERROR] }\n`, { file: 'w.yaml' });
    } catch (e) {
      if (!(e instanceof ManifestError)) throw e;
      diags = e.diagnostics;
    }
    expect(diags).toEqual([
      expect.objectContaining({
        address: 'dq_alert.a',
        source: 'w.yaml:6:16',
        summary: `issueLifecycle.trigger: ResolverQL: at offset 256 (line 1, column 257): expected function calls nested at most 64 deep (flatten nested and/or, or split the selection) but found 'not' at depth 65`,
      }),
    ]);
  });
});

describe('ResolverQL -> Query', () => {
  const cases: { reason: string; input: string; query: Query }[] = [
    { reason: 'with_name is a name search', input: 'with_name("revenue")', query: { parts: [{ withNameSearch: { searchQuery: 'revenue' } }] } },
    { reason: 'with_type("table") is every table type, sorted by number', input: 'with_type("table")', query: { parts: [{ withType: { types: TABLE_TYPES } }] } },
    { reason: 'a specific neutral type name', input: 'with_type("warehouse_account_table")', query: { parts: [{ withType: { types: [{ default: 'ENTITY_TYPE_WAREHOUSE_ACCOUNT_TABLE' }] } }] } },
    { reason: 'model is both model kinds', input: 'with_type("model")', query: { parts: [{ withType: { types: [{ default: 'ENTITY_TYPE_TRANSFORM_CORE_MODEL' }, { default: 'ENTITY_TYPE_SQL_MODEL_MODEL' }] } }] } },
    { reason: 'a list of type names is their union, deduplicated and sorted', input: 'with_type(["task","dag","ORCHESTRATION_DAG"])', query: { parts: [{ withType: { types: [{ default: 'ENTITY_TYPE_ORCHESTRATION_DAG' }, { default: 'ENTITY_TYPE_ORCHESTRATION_TASK' }] } }] } },
    { reason: 'a custom type number', input: 'with_type("50007")', query: { parts: [{ withType: { types: [{ custom: 50007 }] } }] } },
    {
      reason: 'filter= is an AND with the type',
      input: 'with_type("dag", filter=with_name("daily"))',
      query: { parts: [{ withType: { types: [{ default: 'ENTITY_TYPE_ORCHESTRATION_DAG' }] } }, { withNameSearch: { searchQuery: 'daily' } }], operand: 'QUERY_OPERAND_AND' },
    },
    { reason: 'with_annotation without value: has the annotation', input: 'with_annotation("pii")', query: { parts: [{ withAnnotation: { name: 'pii' } }] } },
    { reason: 'with_annotation with a value', input: 'with_annotation("owner","team-crm")', query: { parts: [{ withAnnotation: { name: 'owner', acceptedValue: 'team-crm' } }] } },
    { reason: 'with_annotation with a list of values', input: 'with_annotation("tier",["1","2"])', query: { parts: [{ withAnnotation: { name: 'tier', acceptedValues: ['1', '2'] } }] } },
    // issue 22: `InFolder.path` holds opaque folder ids (grpc-facts 5); the id is never split on `::`
    { reason: 'in_folder keeps the folder id whole (never split on ::)', input: 'in_folder("folder-wh-prod::mart")', query: { parts: [{ inFolder: { path: ['folder-wh-prod::mart'] } }] } },
    {
      reason: 'static_paths with several folder ids is one inFolder holding them all (any of them); types= is ANDed',
      input: 'in_folder(static_paths("folder-wh-prod::raw","folder-wh-dev"),types=["dag"])',
      query: {
        parts: [
          { inFolder: { path: ['folder-wh-prod::raw', 'folder-wh-dev'] } },
          { withType: { types: [{ default: 'ENTITY_TYPE_ORCHESTRATION_DAG' }] } },
        ],
        operand: 'QUERY_OPERAND_AND',
      },
    },
    { reason: 'with_tag is carried in an unsupported part', input: "with_tag('staging')", query: { parts: [{ unsupported: { queryJson: '{"resolverQl":"with_tag(\\"staging\\")"}' } }] } },
    { reason: 'with_platform is carried in an unsupported part', input: 'with_platform("warehouse")', query: { parts: [{ unsupported: { queryJson: '{"resolverQl":"with_platform(\\"warehouse\\")"}' } }] } },
    {
      reason: 'and is the query with operand AND, flattened',
      input: 'and(with_name("a"),and(with_name("b")))',
      query: { parts: [{ withNameSearch: { searchQuery: 'a' } }, { withNameSearch: { searchQuery: 'b' } }], operand: 'QUERY_OPERAND_AND' },
    },
    {
      reason: 'or nests as a query part inside and',
      input: 'and(with_annotation("pii"),or(with_name("a"),with_name("b")))',
      query: {
        parts: [{ withAnnotation: { name: 'pii' } }, { query: { parts: [{ withNameSearch: { searchQuery: 'a' } }, { withNameSearch: { searchQuery: 'b' } }], operand: 'QUERY_OPERAND_OR' } }],
        operand: 'QUERY_OPERAND_AND',
      },
    },
    { reason: 'not is everything (the empty AND query) EXCEPT the operand', input: 'not(with_name("tmp"))', query: { parts: [{ query: { parts: [] } }, { withNameSearch: { searchQuery: 'tmp' } }], operand: 'QUERY_OPERAND_EXCEPT' } },
  ];
  it.each(cases)('$reason', ({ input, query }) => {
    const q = resolverQlToQuery(parseResolverQl(input));
    expect(q).toEqual(query);
    // The translation is a valid Query per the lead's schema.
    expect(QuerySchema.safeParse(q).success).toBe(true);
  });

  it('EVERYTHING_PART is the empty AND query', () => {
    expect(EVERYTHING_PART).toEqual({ query: { parts: [] } });
  });

  it('unsupportedPart and carriedResolverQl round-trip, and foreign JSON is not ours', () => {
    expect(carriedResolverQl(unsupportedPart("with_tag( 'x' )"))).toBe('with_tag("x")');
    expect(carriedResolverQl({ unsupported: { queryJson: '{"field":"x"}' } })).toBeUndefined();
    expect(carriedResolverQl({ unsupported: { queryJson: 'not json' } })).toBeUndefined();
    expect(carriedResolverQl({ withNameSearch: { searchQuery: 'x' } })).toBeUndefined();
  });

  it.each([
    { reason: 'group name, any case', name: 'VIEW', count: 8 },
    { reason: 'full enum name', name: 'ENTITY_TYPE_BI_DASHBOARD', count: 1 },
    { reason: 'default number', name: '503', count: 1 },
    { reason: 'zero is refused', name: '0', count: undefined },
    { reason: 'unspecified is refused', name: 'unspecified', count: undefined },
    { reason: 'out-of-range custom number', name: '60000', count: undefined },
  ])('resolveTypeName: $reason', ({ name, count }) => {
    expect(resolveTypeName(name)?.length).toBe(count);
  });
});

describe('Query -> ResolverQL', () => {
  const roundTrips: { reason: string; input: string; back?: string }[] = [
    { reason: 'name search', input: 'with_name("x")' },
    { reason: 'type group comes back as the group name', input: 'with_type("table")' },
    { reason: 'a specific type comes back as its neutral name', input: 'with_type("warehouse_account_view")' },
    { reason: 'a type set that is no group comes back as a list', input: 'with_type(["dag","task"])', back: 'with_type(["orchestration_dag","orchestration_task"])' },
    { reason: 'annotation forms', input: 'and(with_annotation("pii"),with_annotation("tier","1"),with_annotation("owner",["a","b"]))' },
    { reason: 'folders', input: 'in_folder("folder-wh-prod::mart")' },
    { reason: 'or inside and', input: 'and(with_type("table"),or(with_name("sales"),with_name("order")))' },
    { reason: 'not comes back from EXCEPT of everything', input: 'not(with_tag("dev"))' },
    { reason: 'with_platform comes back from its unsupported part', input: 'with_platform("warehouse")' },
    { reason: 'filter= comes back as an and', input: 'with_type("model",filter=with_name("revenue"))', back: 'and(with_type("model"),with_name("revenue"))' },
    { reason: 'upstream in_folder form comes back as an and of the parts', input: 'in_folder(static_paths("folder-prod::issues"),types=["table"])', back: 'and(in_folder("folder-prod::issues"),with_type("table"))' },
  ];
  it.each(roundTrips)('$reason', ({ input, back }) => {
    const q = resolverQlToQuery(parseResolverQl(input));
    const text = queryToResolverQl(q);
    expect(text).toBe(back ?? canonicalResolverQl(input));
    // The text means the same query again.
    expect(resolverQlToQuery(parseResolverQl(text))).toEqual(resolverQlToQuery(parseResolverQl(back ?? input)));
  });

  const others: { reason: string; query: Query; text?: string; error?: RegExp }[] = [
    { reason: 'EXCEPT of two ordinary parts is and(a,not(b))', query: { parts: [{ withNameSearch: { searchQuery: 'a' } }, { withNameSearch: { searchQuery: 'b' } }], operand: 'QUERY_OPERAND_EXCEPT' }, text: 'and(with_name("a"),not(with_name("b")))' },
    { reason: 'numeric operands are understood (2 = OR)', query: { parts: [{ withNameSearch: { searchQuery: 'a' } }, { withNameSearch: { searchQuery: 'b' } }], operand: 2 as unknown as Query['operand'] }, text: 'or(with_name("a"),with_name("b"))' },
    { reason: 'numeric default types are understood', query: { parts: [{ withType: { type: { default: 1201 as unknown as 'ENTITY_TYPE_ORCHESTRATION_DAG' } } }] }, text: 'with_type("dag")' },
    { reason: 'identifier lists have no text form', query: { parts: [{ identifierList: { identifiers: [{ custom: { id: 'x' } }] } }] }, error: /identifierList part has no ResolverQL form/ },
    { reason: 'UPSTREAM has no text form', query: { parts: [{ withNameSearch: { searchQuery: 'a' } }], operand: 'QUERY_OPERAND_UPSTREAM' }, error: /QUERY_OPERAND_UPSTREAM has no ResolverQL form/ },
    { reason: 'a foreign unsupported part has no text form', query: { parts: [{ unsupported: { queryJson: '{"x":1}' } }] }, error: /not made by dqform/ },
    { reason: 'the empty query (everything) has no text form', query: { parts: [] }, error: /empty AND/ },
  ];
  it.each(others)('$reason', ({ query, text, error }) => {
    if (error) {
      expect(() => queryToResolverQl(query)).toThrow(ResolverQlUnsupportedQueryError);
      expect(() => queryToResolverQl(query)).toThrow(error);
    } else {
      expect(queryToResolverQl(query)).toBe(text);
    }
  });
});

// issue 22: every function the spec and the facts name is known (upstream-facts: `with_columns("email")`
// is in the vendor's own examples); a function dqform does not know is a warning for validate and plan
// (the platform checks it), an error only when its text is malformed. The emulator, which models the
// platform, keeps refusing what the facts do not name (parseResolverQl).
describe('functions the facts name, and functions dqform does not know', () => {
  test.each([
    ['the vendor example with_columns("email")', 'with_columns("email")', 'with_columns("email")'],
    ['with_columns with several names', 'with_columns( "email" , "phone" )', 'with_columns("email","phone")'],
    ['with_columns with a list, inside and()', 'and(with_type("table"),with_columns(["email"]))', 'and(with_type("table"),with_columns(["email"]))'],
  ])('%s is known: parses strictly and renders canonically', (_why, input, canonical) => {
    expect(canonicalResolverQl(input)).toBe(canonical);
    expect(checkResolverQlText(input).warnings).toEqual([]);
  });

  test('with_columns has no query-model part: it travels as an unsupported part carrying the text', () => {
    expect(resolverQlToQuery(parseResolverQl('with_columns("email")'))).toEqual({ parts: [unsupportedPart('with_columns("email")')] });
  });

  test.each([
    ['an unknown function at the top', 'with_owner("team-a")', ['with_owner'], 'with_owner("team-a")'],
    ['unknown functions nested in known ones, and kwargs on them', 'and( with_type("table"), with_sla(hours="24", of=with_name("x")) )', ['with_sla'], 'and(with_type("table"),with_sla(hours="24",of=with_name("x")))'],
    ['an unknown function holding another', 'outer(inner("a"), ["x","y"])', ['outer', 'inner'], 'outer(inner("a"),["x","y"])'],
  ])('%s: a warning (the platform checks it), not an error; strict parsing still refuses it', (_why, input, fns, canonical) => {
    const { warnings } = checkResolverQlText(input);
    expect(warnings.map((w) => w.fn)).toEqual(fns);
    expect(warnings[0].message).toMatch(/is not one dqform knows .*; the platform checks it/);
    expect(warnings[0].message).toContain(`at offset ${warnings[0].offset} (line ${warnings[0].line}, column ${warnings[0].column})`);
    expect(canonicalResolverQlLenient(input)).toBe(canonical);
    expect(() => parseResolverQl(input)).toThrow(ResolverQlError);
  });

  test.each([
    ['unclosed call', 'with_owner("a"', /'\)' or ','/],
    ['a bare number as its argument', 'with_owner(1)', /a function call, a string or a list/],
    ['a malformed known call inside it', 'with_owner(with_type("tablez"))', /a type name/],
    ['a known call with a wrong argument inside it', 'with_sla(of=with_name())', /with_name\(string\)/],
    ['trailing text', 'with_owner("a") x', /end of input/],
  ])('%s: still an error', (_why, input, expected) => {
    expect(() => checkResolverQlText(input)).toThrow(expected);
  });
});
